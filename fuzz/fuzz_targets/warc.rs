//! Fuzz target: WARC files. Any bytes (plain or gzip) through `pith::capture::warc::read`
//! with small limits; it may refuse, never panic, and never hands over more records than its
//! limit, nor a payload larger than its record limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::capture::{warc, Limits};

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        record_bytes: 1 << 16,
        line_bytes: 1 << 10,
        header_lines: 64,
        records: 64,
        decompressed_bytes: 1 << 20,
        lines: 4096,
        ..Limits::default()
    };
    let mut seen = 0usize;
    let _ = warc::read(data, &limits, &mut |r| {
        seen += 1;
        assert!(r.payload.len() as u64 <= limits.record_bytes.max(data.len() as u64));
        let _ = r.digest_holds();
        let _ = r.capture();
        true
    });
    assert!(seen <= limits.records, "{seen} records");
});
