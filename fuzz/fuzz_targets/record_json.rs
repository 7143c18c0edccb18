//! Fuzz target: record JSON. Any text through `Record::from_json`; a record that
//! parses must round-trip through its canonical bytes to the same record and number.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = Record::from_json(text) {
        let bytes = r.canonical_bytes();
        let again =
            Record::from_json(std::str::from_utf8(&bytes).expect("canonical bytes are UTF-8"))
                .expect("canonical bytes of a valid record parse");
        assert_eq!(again, r, "canonical round trip");
        assert_eq!(again.number(), r.number());
    }
});
