//! Unit tests of whole runs on a page as `pith.sty` leaves it (a marked badge, a marked
//! link, the number in Info): what inspect lists, what inject refuses or redraws, what strip
//! takes out. Above every module they run.

use crate::inject::{inject, Options};
use crate::reader::testpdf::build;
use crate::{inspect, strip, ErrorKind, Mark, PlaceKind};

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const B: &str = "pith:2025:AAAABBBBCCCCDDDDEEEEFFFFGG";

/// A page as `pith.sty` leaves it: a marked badge form, a marked link, the number in Info;
/// and text of its own with `typed` in it.
fn paper(typed: &str) -> Vec<u8> {
    let text = format!("BT /F1 9 Tf 10 10 Td ({typed}) Tj ET");
    let badge = "q 0.3 g 0 0 60 10 re f Q";
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /XObject << /Fm1 5 0 R >> >> /Contents 4 0 R /Annots [6 0 R] >>".to_string(),
        format!("<< /Length {} >>\nstream\n{text} /Fm1 Do\nendstream", text.len() + 8),
        format!("<< /Type /XObject /Subtype /Form /BBox [0 0 60 10] /PithMark /Badge /PithStyle /badge /PithText (pith:7BMK4ZKT) /PithURL (https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5) /Length {} >>\nstream\n{badge}\nendstream", badge.len()),
        "<< /Type /Annot /Subtype /Link /Rect [0 0 60 10] /Border [0 0 0] /PithMark /Link /A << /S /URI /URI (https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5) >> >>".to_string(),
        format!("<< /PithNumber ({A}) /PithURL (https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5) >>"),
    ];
    let objs: Vec<&str> = objs.iter().map(String::as_str).collect();
    build(b"", &objs, "/Info 7 0 R")
}

fn then(base: &[u8], appended: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    v.extend_from_slice(appended);
    v
}

#[test]
fn every_place_is_listed_replaced_and_stripped() {
    let bytes = paper("Hello");
    let ins = inspect(&bytes[..]).unwrap();
    let kinds: Vec<PlaceKind> = ins.places().iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [PlaceKind::Info, PlaceKind::Badge, PlaceKind::Link]);
    assert!(ins.consistent());

    let b = Mark::parse(B).unwrap();
    let opts = Options::new("2024-01-01T00:00:00Z");
    let e = inject(&bytes[..], &b, &opts).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Printed(p) if p.drawn && p.printed == "pith:7BMK4ZKT"));

    let replace = Options {
        replace: true,
        ..opts.clone()
    };
    let out = then(&bytes, &inject(&bytes[..], &b, &replace).unwrap().appended);
    let ins = inspect(&out[..]).unwrap();
    assert!(ins.consistent(), "{:?}", ins.places());
    let holds: Vec<String> = ins.places().into_iter().map(|p| p.holds).collect();
    assert_eq!(holds, [B, B, "pith:AAAABBBB", b.url.as_str()]);
    // A second run is unchanged: nothing left to redraw.
    assert!(inject(&out[..], &b, &replace).unwrap().unchanged);

    let s = strip(&out[..], &opts).unwrap();
    let stripped = then(&out, &s.appended);
    let ins = inspect(&stripped[..]).unwrap();
    assert!(ins.places().is_empty(), "{:?}", ins.places());
    assert!(ins.code().is_none());
    assert!(strip(&stripped[..], &opts).unwrap().unchanged);
}

#[test]
fn typed_number_text_is_reported_and_never_contradicted() {
    let bytes = paper("see pith:ZZZZZZZZ");
    let ins = inspect(&bytes[..]).unwrap();
    let text = ins
        .places()
        .into_iter()
        .find(|p| p.kind == PlaceKind::Text)
        .unwrap();
    assert!(!text.agrees && !text.marked && text.holds == "pith:ZZZZZZZZ");
    assert!(!ins.consistent());
    let opts = Options {
        replace: true,
        ..Options::new("2024-01-01T00:00:00Z")
    };
    let e = inject(&bytes[..], &Mark::parse(B).unwrap(), &opts).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Printed(p) if !p.drawn));
    // The number the file carries already is written again; strip says what it leaves.
    let out = then(
        &bytes,
        &inject(&bytes[..], &Mark::parse(A).unwrap(), &opts)
            .unwrap()
            .appended,
    );
    let s = strip(&out[..], &opts).unwrap();
    assert!(
        s.notes.iter().any(|n| n.contains("pith:ZZZZZZZZ")),
        "{:?}",
        s.notes
    );
}
