//! Fuzz target: bundle verification. Any JSON value through `pith::verify::bundle`
//! with the registry key: it may refuse the bundle but never panics, and an accepted bundle's
//! report starts with the check of its canonical record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::verify::{bundle, Key};

fuzz_target!(|data: &[u8]| {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    if let Ok(report) = bundle(&v, &[Key::registry()]) {
        assert_eq!(report.checks[0].subject, "canonical_record");
        let _ = report.holds();
    }
});
