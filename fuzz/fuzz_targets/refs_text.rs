//! Fuzz target: the reference text reader. Any bytes as a PDF through `pith::pdf::text::pages`
//! (within the default budget) and the pages' text through `pith::refs::from_pages`; neither
//! may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::pdf::budget::Budget;

fuzz_target!(|data: &[u8]| {
    if let Ok(pages) = pith::pdf::text::pages(data, Budget::default()) {
        let _ = pith::refs::from_pages(&pages);
    }
});
