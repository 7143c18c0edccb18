//! Fuzz target: the lines `pith refs` writes, as `pith index --refs` reads them: any bytes
//! through `pith::bounded::Lines` and each line through `pith::bounded::json::parse` as a
//! `Reference`; neither may panic, and no line held is longer than its bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::bounded::{self, Bounds, Line, Lines};
use pith::job::refs::Reference;

fuzz_target!(|data: &[u8]| {
    let bounds = Bounds {
        line_bytes: 1 << 10,
        lines: 1000,
        ..Bounds::default()
    };
    let mut lines = Lines::new(data, &bounds);
    while let Ok(Some(l)) = lines.next_line() {
        if let Line::Text(t) = l {
            assert!(t.len() <= bounds.line_bytes);
            let _ = bounded::json::parse::<Reference>(t, 1 << 10);
        }
    }
    assert!(lines.count() <= bounds.lines);
});
