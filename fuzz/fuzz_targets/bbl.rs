//! Fuzz target: `.bbl` files. Any text through `pith::refs::from_bbl`; it never panics, and
//! every identifier it reports is on a line of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count().max(1) as u32;
    for m in pith::refs::from_bbl(&text) {
        assert!(m.line >= 1 && m.line <= lines, "line {} of {lines}", m.line);
    }
});
