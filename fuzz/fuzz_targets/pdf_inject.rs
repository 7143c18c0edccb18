//! Fuzz target: the PDF reader and update writer on bytes in memory.
//! `pith::pdf::inspect`, `inject` and `strip` must not panic on any input; when the file
//! inspects cleanly and `inject` plans an update, the original followed by the update must
//! inspect cleanly too and carry the number. (A file `inspect` already refuses, e.g. with a
//! broken AcroForm field that `inject` never reads, may stay refused after the update.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::pdf::{inject, inspect, strip, Options};
use pith::PithNumber;

fuzz_target!(|data: &[u8]| {
    let readable = inspect(data).is_ok();
    let number = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
    let opts = Options::new("2024-01-01T00:00:00Z");
    if let Ok(inj) = inject(data, &number, &opts) {
        if readable && !inj.unchanged {
            let mut out = data.to_vec();
            out.extend_from_slice(&inj.appended);
            let ins = inspect(&out[..]).expect("an updated file opens");
            assert_eq!(
                ins.found(),
                Some(number.full()),
                "the update carries the number"
            );
            // `pith strip` takes it out again.
            let s = strip(&out[..], &opts).expect("an updated file strips");
            out.extend_from_slice(&s.appended);
            let ins = inspect(&out[..]).expect("a stripped file opens");
            assert_eq!(ins.found(), None, "the strip leaves no number");
        }
    }
    let _ = strip(data, &opts);
});
