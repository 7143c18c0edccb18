//! Unit tests of the reader: opening, fetching, damaged offsets and loops, object and xref
//! streams, hybrids and the security hook.

use super::testpdf::{build, DOC};
use super::*;

use crate::testkit::fixture;

#[test]
fn opens_and_fetches() {
    let b = build(b"", &DOC, "");
    let pdf = Pdf::open(&b[..]).unwrap();
    assert_eq!(pdf.version(), "1.4");
    assert_eq!(pdf.sections(), 1);
    assert_eq!(pdf.size(), 4);
    assert_eq!(pdf.xref_kind(), XrefKind::Table);
    assert_eq!(pdf.delta(), 0);
    let root = pdf.trailer().get(b"Root").and_then(Obj::as_ref).unwrap();
    assert_eq!(root, Ref::new(1, 0));
    let cat = pdf.get(1).unwrap().unwrap();
    assert_eq!(cat.id, root);
    let pages = pdf.resolve(cat.obj.as_dict().unwrap().get(b"Pages").unwrap());
    assert_eq!(
        pages.unwrap().as_dict().unwrap().get(b"Count"),
        Some(&Obj::Int(1))
    );
    assert!(pdf.get(9).unwrap().is_none(), "missing objects are null");
    let (d, text) = cat.dict_text().unwrap();
    assert_eq!(text, b"<< /Type /Catalog /Pages 2 0 R >>");
    assert_eq!(d.entries.len(), 2);
}

#[test]
fn wrong_offsets_and_loops_are_damage() {
    let mut b = build(b"", &DOC, "");
    // Renumber object 2 as 92 and shift what follows by one byte.
    let at = find(&b, b"2 0 obj").unwrap();
    b.insert(at, b'9');
    // Keep startxref right: the table moved by one byte too.
    let sx = rfind(&b, b"startxref\n").unwrap() + 10;
    let end = sx + b[sx..].iter().position(|&c| c == b'\n').unwrap();
    let v: u64 = std::str::from_utf8(&b[sx..end]).unwrap().parse().unwrap();
    b.splice(sx..end, (v + 1).to_string().bytes());
    let e = Pdf::open(&b[..]).err().unwrap();
    assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
    let looped = build(b"", &DOC, "/Prev 9999999");
    let e = Pdf::open(&looped[..]).err().unwrap();
    assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
    assert!(matches!(
        Pdf::open(&b"hello"[..]).err().unwrap().kind(),
        ErrorKind::NotPdf
    ));
    let cut = build(b"", &DOC, "");
    let e = Pdf::open(&cut[..cut.len() - 30]).err().unwrap();
    assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
}

#[test]
fn object_streams_xref_streams_and_hybrids() {
    for name in [
        "qpdf-object-stream.pdf",
        "qpdf-hybrid-xref.pdf",
        "qpdf-linearized.pdf",
    ] {
        let b = fixture(name);
        let pdf = Pdf::open(&b[..]).unwrap();
        let root = pdf.trailer().get(b"Root").and_then(Obj::as_ref).unwrap();
        let cat = pdf.get(root.num).unwrap().unwrap();
        let d = cat.obj.as_dict().unwrap();
        assert_eq!(
            d.get(b"Type").and_then(Obj::as_name),
            Some(&b"Catalog"[..]),
            "{name}"
        );
    }
    let b = fixture("qpdf-object-stream.pdf");
    let pdf = Pdf::open(&b[..]).unwrap();
    assert_eq!(pdf.xref_kind(), XrefKind::Stream);
    assert!(
        (0..pdf.size()).any(|n| matches!(pdf.entry(n), Ok(Some(Entry::InStream(..))))),
        "the fixture has compressed objects"
    );
}

#[test]
fn the_security_hook_decrypts_fetched_strings() {
    struct Upper;
    impl SecurityHandler for Upper {
        fn decrypt_string(&self, _: Ref, d: &[u8]) -> Vec<u8> {
            d.to_ascii_uppercase()
        }
        fn decrypt_stream(&self, _: Ref, _: &Dict, d: &[u8]) -> Vec<u8> {
            d.to_vec()
        }
        fn encrypt_string(&self, _: Ref, d: &[u8]) -> Vec<u8> {
            d.to_vec()
        }
        fn encrypt_stream(&self, _: Ref, _: crate::security::StreamKind, d: &[u8]) -> Vec<u8> {
            d.to_vec()
        }
    }
    let b = build(b"", &DOC, "");
    let mut pdf = Pdf::open(&b[..]).unwrap();
    pdf.set_security(Box::new(Upper));
    let page = pdf.get(3).unwrap().unwrap();
    assert_eq!(
        page.obj.as_dict().unwrap().get(b"Title"),
        Some(&Obj::Str(b"SECRET".to_vec()))
    );
    // The original text stays as stored, for verbatim copies.
    assert!(find(page.dict_text().unwrap().1, b"(secret)").is_some());
}
