//! Fuzz target: XMP packets. Any bytes through `pith::pdf::xmp::read` and `merge`; a
//! merged packet must read back carrying the new values, and merging it again must work.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::pdf::xmp::{merge, read, PaperFacts, Props};

fuzz_target!(|data: &[u8]| {
    let _ = read(data);
    let p = Props {
        number: "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into(),
        short: "pith:7BMK4ZKT".into(),
        url: "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5".into(),
        paper: PaperFacts {
            doi: Some("10.48550/arXiv.2402.03791".into()),
            arxiv: Some("2402.03791v3".into()),
            title: Some("A title".into()),
            creators: vec!["A. One".into()],
        },
    };
    if let Ok(out) = merge(Some(data), &p, "2024-01-01T00:00:00Z") {
        let v = read(&out).expect("a merged packet reads back");
        assert!(v.carries(&p), "merged packet carries the values");
        merge(Some(&out), &p, "2024-01-02T00:00:00Z").expect("a merged packet merges again");
    }
});
