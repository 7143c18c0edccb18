//! Fuzz target: CDX lines and the CDX API's JSON. Any bytes through
//! `pith::capture::cdx::read_stream` with small limits; it may refuse, never panic, and never
//! hands over more lines or rows than its limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::capture::{cdx, Limits};

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        line_bytes: 1 << 10,
        lines: 1000,
        ..Limits::default()
    };
    let mut seen = 0u64;
    let _ = cdx::read_stream(data, &limits, &mut |r| {
        seen += 1;
        if let Ok(c) = r {
            assert!(cdx::is_digest(&c.digest));
            let _ = c.arxiv_version();
        }
        true
    });
    assert!(seen <= limits.lines, "{seen} lines");
});
