//! Unit tests of the budget on files built to be expensive: each shape multiplies work
//! without growing (sharing, fan-out, cycles, millions of tiny entries), and each test counts
//! the work the reader did, never the time it took.

use std::io::Write;

use crate::budget::{Budget, Halt, Limits, Resource, Stop};
use crate::reader::testpdf::build;
use crate::reader::{Check, Pdf};
use crate::syntax::Obj;
use crate::{inject, inspect_opts, ErrorKind, InspectOptions, Mark, Options};

fn obj(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

fn number() -> Mark {
    Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap()
}

fn opts(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::new("2024-01-01T00:00:00Z")
    }
}

fn inspect_within(data: &[u8], limits: Limits) -> Result<crate::Inspection, crate::Error> {
    inspect_opts(
        data,
        &InspectOptions {
            limits,
            ..InspectOptions::default()
        },
    )
}

/// The error of a planned update that must fail (the update itself is too long to print).
fn refused(r: Result<crate::Injection, crate::Error>) -> crate::Error {
    match r {
        Ok(_) => panic!("planned, not refused"),
        Err(e) => e,
    }
}

fn over(e: &crate::Error) -> Option<Resource> {
    match e.kind() {
        ErrorKind::OverLimit { resource, .. } => Some(*resource),
        _ => None,
    }
}

/// Page 1 lists one 60 KB link annotation 4,096 times.
fn shared_annotation() -> Vec<u8> {
    let refs = "5 0 R ".repeat(4096);
    let pad = "0 ".repeat(30_000);
    build(
        b"",
        &[
            obj("<< /Type /Catalog /Pages 2 0 R >>"),
            obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            obj(&format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [{refs}] /Contents 4 0 R >>"
            )),
            obj("<< /Length 0 >>\nstream\n\nendstream"),
            obj(&format!(
                "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Pad [{pad}] /A << /S /URI /URI (https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5) >> >>"
            )),
        ],
        "",
    )
}

#[test]
fn an_annotation_listed_4096_times_is_parsed_once() {
    let data = shared_annotation();
    // 4,096 parses of 60 KB would be 240 MB parsed; the limits allow 2 MB and 100 objects.
    let tight = Limits {
        objects: 100,
        parsed_bytes: 2 << 20,
        walk_nodes: 100,
        ..Limits::default()
    };
    let ins = inspect_within(&data, tight).unwrap();
    assert_eq!(ins.page_links.len(), 1, "one link, however often listed");
    let out = inject(&data[..], &number(), &opts(tight)).unwrap();
    assert!(!out.appended.is_empty());
    let stamped = Options {
        stamp: Some(crate::stamp::Stamp::default()),
        ..opts(tight)
    };
    inject(&data[..], &number(), &stamped).unwrap();
    // Counted directly: the annotation is parsed once.
    let p = Pdf::open(&data[..]).unwrap();
    let cat = p.get(1).unwrap().unwrap().obj.as_dict().cloned().unwrap();
    crate::stamp::printed::read(&p, &cat).unwrap();
    crate::stamp::printed::read(&p, &cat).unwrap();
    assert!(
        p.budget().used(Resource::Objects) <= 6,
        "{}",
        p.budget().used(Resource::Objects)
    );
}

/// A page tree of `levels` levels, each node listing `fan` kids: a shared empty `/Pages`
/// node (padded to 60 KB) `fan - 1` times, then the next level; the last level is page 1.
fn shared_page_tree(levels: usize, fan: usize) -> Vec<u8> {
    // 1 catalog, 2 the shared empty node, 3.. the levels, then the page.
    let mut objs = vec![
        obj("<< /Type /Catalog /Pages 3 0 R >>"),
        obj(&format!(
            "<< /Type /Pages /Kids [] /Count 0 /Pad [{}] >>",
            "0 ".repeat(30_000)
        )),
    ];
    let page = 3 + levels;
    for l in 0..levels {
        let next = 3 + l + 1;
        let kids = format!("{}{next} 0 R", "2 0 R ".repeat(fan - 1));
        objs.push(obj(&format!("<< /Type /Pages /Kids [{kids}] /Count 1 >>")));
    }
    objs.push(obj("<< /Type /Page /MediaBox [0 0 612 792] >>"));
    assert_eq!(objs.len(), page);
    build(b"", &objs, "")
}

#[test]
fn a_page_tree_sharing_one_node_at_every_level_is_walked_once_per_node() {
    let data = shared_page_tree(60, 1000);
    // Each node costs one visit and each kid one look: the shared node is read once.
    let tight = Limits {
        objects: 200,
        parsed_bytes: 8 << 20,
        walk_nodes: 60 * 1000 + 200,
        ..Limits::default()
    };
    inspect_within(&data, tight).unwrap();
    let stamped = Options {
        stamp: Some(crate::stamp::Stamp::default()),
        ..opts(tight)
    };
    inject(&data[..], &number(), &stamped).unwrap();
    // Counting its pages meets the shared node twice: a broken tree, said at once.
    let p = Pdf::open(&data[..]).unwrap();
    let e = p
        .count_pages(Some(&Obj::Ref(crate::Ref::new(3, 0))), "here")
        .unwrap_err();
    assert!(e.to_string().contains("appears twice"), "{e}");
    assert!(p.budget().used(Resource::Objects) < 100);
}

/// An xref stream of `free` free entries after the catalog, pages and page (flate, `/W [1 3
/// 0]`): a few KB whatever `free` is.
fn free_entries(free: u32) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offs = Vec::new();
    for (i, body) in crate::reader::testpdf::DOC.iter().enumerate() {
        offs.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let at = out.len();
    let mut rows = vec![0u8; 4];
    for o in &offs {
        rows.push(1);
        rows.extend_from_slice(&(*o as u32).to_be_bytes()[1..]);
    }
    rows.push(1);
    rows.extend_from_slice(&(at as u32).to_be_bytes()[1..]);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&rows).unwrap();
    // The free entries: four zero bytes each.
    let zeros = vec![0u8; 1 << 20];
    let mut left = u64::from(free) * 4;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        z.write_all(&zeros[..n]).unwrap();
        left -= n as u64;
    }
    let body = z.finish().unwrap();
    let size = 5 + free;
    out.extend_from_slice(
        format!(
            "4 0 obj\n<< /Type /XRef /Size {size} /W [1 3 0] /Root 1 0 R /Filter /FlateDecode /Length {} >>\nstream\n",
            body.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&body);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n").as_bytes());
    out
}

#[test]
fn millions_of_free_xref_entries_are_held_as_a_range() {
    let data = free_entries(2_000_000);
    assert!(data.len() < 64 << 10, "{}", data.len());
    let p = Pdf::open(&data[..]).unwrap();
    assert!(
        p.budget().used(Resource::XrefEntries) < 10,
        "held: {}",
        p.budget().used(Resource::XrefEntries)
    );
    assert!(p.get(3).unwrap().is_some());
    assert!(p.get(1_000_000).unwrap().is_none(), "a free entry");
    inspect_within(&data, Limits::default()).unwrap();
    // The rows are still decoded: a document may decode only so much.
    let tight = Limits {
        decoded_bytes: 1 << 20,
        ..Limits::default()
    };
    let e = inspect_within(&data, tight).unwrap_err();
    assert_eq!(over(&e), Some(Resource::DecodedBytes), "{e}");
    assert!(e.to_string().contains("`decoded_bytes`"), "{e}");
    // Entries held: four objects and one range of free ones.
    let e = inspect_within(
        &data,
        Limits {
            xref_entries: 2,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert_eq!(over(&e), Some(Resource::XrefEntries), "{e}");
}

/// `/Fields` of `n` field dictionaries whose `/Kids` point back at the array itself.
fn fields_pointing_back(n: usize) -> Vec<u8> {
    let fields = "<< /FT /Sig /V 9 0 R /Kids 4 0 R >> ".repeat(n);
    build(
        b"",
        &[
            obj("<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields 4 0 R >> >>"),
            obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"),
            obj(&format!("[{fields}]")),
        ],
        "",
    )
}

#[test]
fn fields_whose_kids_point_back_at_the_array_are_walked_once() {
    let data = fields_pointing_back(60_000);
    let tight = Limits {
        walk_nodes: 61_000,
        objects: 100,
        ..Limits::default()
    };
    let ins = inspect_within(&data, tight).unwrap();
    assert_eq!(ins.signatures, 60_000);
    // Under a smaller limit the walk is refused, naming the limit.
    let e = inspect_within(
        &data,
        Limits {
            walk_nodes: 10_000,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert_eq!(over(&e), Some(Resource::WalkNodes), "{e}");
}

#[test]
fn outline_next_loops_and_name_tree_loops_cost_nothing() {
    // The engine reads neither outlines nor name trees: their loops are never followed.
    let data = build(
        b"",
        &[
            obj("<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R /Names << /Dests 6 0 R >> >>"),
            obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"),
            obj("<< /Type /Outlines /First 5 0 R /Last 5 0 R >>"),
            obj("<< /Title (loop) /Parent 4 0 R /Next 5 0 R /Prev 5 0 R >>"),
            obj("<< /Kids [6 0 R 6 0 R] >>"),
        ],
        "",
    );
    let tight = Limits {
        objects: 20,
        walk_nodes: 20,
        ..Limits::default()
    };
    inspect_within(&data, tight).unwrap();
    inject(&data[..], &number(), &opts(tight)).unwrap();
}

#[test]
fn object_streams_that_name_each_other_are_refused_cleanly() {
    // Object 4 lies in object stream 5, which lies in object stream 4.
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut offs = Vec::new();
    for (i, body) in crate::reader::testpdf::DOC.iter().enumerate() {
        offs.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let at = out.len();
    let mut rows = vec![0u8, 0, 0, 0];
    for o in &offs {
        rows.push(1);
        rows.extend_from_slice(&(*o as u32).to_be_bytes()[1..]);
    }
    rows.extend_from_slice(&[2, 0, 0, 5, 2, 0, 0, 4, 1]);
    rows.extend_from_slice(&(at as u32).to_be_bytes()[1..]);
    out.extend_from_slice(
        format!(
            "6 0 obj\n<< /Type /XRef /Size 7 /W [1 3 0] /Root 1 0 R /Info 4 0 R /Length {} >>\nstream\n",
            rows.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&rows);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n").as_bytes());
    let e = inspect_within(&out, Limits::default()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
}

#[test]
fn a_stopped_token_stops_every_entry_point() {
    let data = shared_annotation();
    let stop = Stop::new();
    stop.cancel();
    let e = inspect_opts(
        &data[..],
        &InspectOptions {
            stop: stop.clone(),
            ..InspectOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::Stopped(Halt::Cancelled));
    assert!(!e.is_refusal());
    let o = Options {
        stop: Stop::after(std::time::Duration::ZERO),
        ..opts(Limits::default())
    };
    let e = refused(inject(&data[..], &number(), &o));
    assert_eq!(e.kind(), &ErrorKind::Stopped(Halt::Deadline));
    let e = refused(crate::strip(&data[..], &o));
    assert_eq!(e.kind(), &ErrorKind::Stopped(Halt::Deadline));
    // A token cancelled from another thread while a reader works on.
    let stop = Stop::new();
    let p = Pdf::open_within(
        &data[..],
        Check::Sampled,
        Budget::new(Limits::default(), stop.clone()),
    )
    .unwrap();
    std::thread::scope(|s| {
        s.spawn(|| stop.cancel());
    });
    assert!(matches!(
        p.get(5).unwrap_err().kind(),
        ErrorKind::Stopped(Halt::Cancelled)
    ));
}

#[test]
fn every_limit_refuses_with_its_name() {
    let data = shared_annotation();
    let stamped = |limits: Limits| Options {
        stamp: Some(crate::stamp::Stamp::default()),
        ..opts(limits)
    };
    for (r, value) in [
        (Resource::Objects, 2),
        (Resource::ParsedBytes, 1000),
        (Resource::WalkNodes, 2),
    ] {
        let mut l = Limits::default();
        l.set(r, value);
        let e = refused(inject(&data[..], &number(), &stamped(l)));
        assert_eq!(over(&e), Some(r), "{r}: {e}");
        assert!(e.to_string().contains(&format!("`{}`", r.setting())), "{e}");
    }
    // Operators: page 1's content of 10,000 operators.
    let content = "q Q ".repeat(5000);
    let ops = build(
        b"",
        &[
            obj("<< /Type /Catalog /Pages 2 0 R >>"),
            obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"),
            obj(&format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            )),
        ],
        "",
    );
    let e = refused(inject(
        &ops[..],
        &number(),
        &stamped(Limits {
            operators: 1000,
            ..Limits::default()
        }),
    ));
    assert_eq!(over(&e), Some(Resource::Operators), "{e}");
    inject(&ops[..], &number(), &stamped(Limits::default())).unwrap();
}

#[test]
fn the_defaults_pass_the_fixtures() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "pdf") {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        let strict = crate::inspect(&data[..]);
        let budgeted = inspect_within(&data, Limits::default());
        // Whatever the file is, the defaults change nothing.
        assert_eq!(
            strict
                .as_ref()
                .map(|i| i.found())
                .map_err(|e| e.to_string()),
            budgeted
                .as_ref()
                .map(|i| i.found())
                .map_err(|e| e.to_string()),
            "{}",
            path.display()
        );
        if let Err(e) = budgeted {
            assert!(over(&e).is_none(), "{}: {e}", path.display());
        }
        n += 1;
    }
    assert!(n > 10);
}

/// The minimal document followed by `n` updates, each a section of its own that lists
/// object 3 again and a run of free entries.
fn many_updates(n: usize) -> Vec<u8> {
    let mut b = crate::reader::testpdf::build(b"", &crate::reader::testpdf::DOC, "");
    let at3 = crate::reader::find(&b, b"3 0 obj").unwrap();
    let mut prev = crate::reader::find(&b, b"\nxref\n").unwrap() + 1;
    for _ in 0..n {
        let x = b.len();
        b.extend_from_slice(
            format!(
                "xref\n3 1\n{at3:010} 00000 n\r\n4 2\n0000000000 65535 f\r\n0000000000 65535 f\r\ntrailer\n<< /Size 6 /Root 1 0 R /Prev {prev} >>\nstartxref\n{x}\n%%EOF\n"
            )
            .as_bytes(),
        );
        prev = x;
    }
    b
}

#[test]
fn thousands_of_updates_cost_a_node_each() {
    let data = many_updates(3000);
    let p = Pdf::open(&data[..]).unwrap();
    assert_eq!(p.sections(), 3001);
    assert!(p.budget().used(Resource::WalkNodes) >= 3001);
    inspect_within(&data, Limits::default()).unwrap();
    let e = inspect_within(
        &data,
        Limits {
            walk_nodes: 1000,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert_eq!(over(&e), Some(Resource::WalkNodes), "{e}");
}
