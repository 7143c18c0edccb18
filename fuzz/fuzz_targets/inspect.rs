//! Fuzz target: `pith::pdf::inspect` on bytes in memory, with the sampled xref check `pith
//! inspect` uses and the full one of `pith inspect --deep`. Neither may panic, and a file the
//! full check reads, the sampled one reads too, with the same number. Within the low RSS
//! limit fuzz/run.sh sets (256 MB), a file that multiplies what reading it costs is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::pdf::{inspect, inspect_checked, Check};

fuzz_target!(|data: &[u8]| {
    let sampled = inspect(data);
    if let Ok(deep) = inspect_checked(data, Check::Full) {
        let sampled = sampled.expect("a file the full check reads, the sampled check reads");
        assert_eq!(sampled.found(), deep.found(), "the same number either way");
    }
});
