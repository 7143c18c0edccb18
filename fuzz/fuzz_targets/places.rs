//! Fuzz target: page 1's places. `pith::pdf::inspect` reads the number's places (Info, XMP,
//! page 1's link annotations and text) and `Inspection::places` lists them; neither may panic,
//! and a file that inspects cleanly lists each place once, the first place found among them.
//! Run with a low RSS limit (fuzz/run.sh: 256 MB), so that a file that costs memory out of
//! proportion to its size is a crash here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::pdf::inspect;

fuzz_target!(|data: &[u8]| {
    if let Ok(ins) = inspect(data) {
        let places = ins.places();
        // Every place is named by what holds it and its value; the number the file carries
        // comes from one of them.
        if let Some(found) = ins.found() {
            assert!(
                places.iter().any(|p| format!("{p:?}").contains(found.as_str())),
                "the number found is one of the places: {found} in {places:?}"
            );
        }
    }
});
