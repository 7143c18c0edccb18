//! Fuzz target: arXiv Atom XML. Any bytes, as text, through
//! `pith::record::atom::parse` and every resulting paper through `ArxivPaper::to_record`; neither may
//! panic, and a record built from a feed must hash (its number is computed).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(xml) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(papers) = pith::record::atom::parse(xml) {
        for p in papers {
            if let Ok(r) = p.to_record() {
                let _ = r.number().full();
            }
        }
    }
});
