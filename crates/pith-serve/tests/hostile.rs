//! `POST /verify` of files built to be expensive ([`pith_testkit::shapes`]: a shared
//! annotation listed thousands of times, millions of free xref entries, fields whose kids are
//! the fields, a page tree sharing one node per level, cycles, deep nesting, thousands of
//! updates, millions of content operators, flate bombs; and here, streams naming tens of
//! thousands of filters, which once overflowed a worker's stack and ended the server), on a
//! `pith serve` with its default settings on 127.0.0.1: every upload is answered (a verdict, a
//! refusal of the file, or busy with `Retry-After`), the server stays within the memory budget
//! docs/serve.md states, answers its other routes afterwards and checks a valid upload right
//! after. Counts are fixed (uploads, retries); each attack stops by itself.

use std::sync::Arc;

use pith_testkit::shapes::{self, Knobs, Shape};

use crate::attacks::{peak_rss, upload, BUDGET};
use crate::common::{self, skips, vectors, Fixture, Server};

/// A one-page PDF whose stream (the catalog's `/Metadata`, or page 1's `/Contents`) names
/// `filters` `/AHx` filters in a row: a few bytes each, so a 500 KB file names 100,000.
fn filter_chain(filters: usize, metadata: bool) -> Vec<u8> {
    let (catalog, page) = if metadata {
        (" /Metadata 4 0 R", "")
    } else {
        ("", " /Contents 4 0 R")
    };
    let chain = vec!["/AHx"; filters].join(" ");
    let objects = [
        format!("<< /Type /Catalog /Pages 2 0 R{catalog} >>"),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]{page} >>"),
        format!("<< /Length 1 /Filter [{chain}] >>\nstream\n>\nendstream"),
    ];
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(b"xref\n0 5\n0000000000 65535 f \n");
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
    );
    out
}

/// The filter chains: 25,000 and 100,000 filters, on the XMP stream and on page 1's content.
fn chains() -> Vec<Shape> {
    let s = |name, filters, metadata| Shape {
        name,
        what: "a stream naming tens of thousands of filters",
        pdf: filter_chain(filters, metadata),
    };
    vec![
        s("chain-25k-xmp", 25_000, true),
        s("chain-100k-xmp", 100_000, true),
        s("chain-25k-content", 25_000, false),
        s("chain-100k-content", 100_000, false),
    ]
}

/// A PDF carrying the fixture index's first number: its upload must get a verdict.
fn valid_pdf(dir: &std::path::Path) -> Vec<u8> {
    let path = dir.join("valid.pdf");
    common::inject(vectors()[0]["pith_number"].as_str().unwrap(), &path);
    std::fs::read(path).unwrap()
}

/// Uploads `copies` of each of `shapes` at once; the answers, by shape.
fn upload_all(s: &Server, shapes: &[Shape], copies: usize) -> Vec<(&'static str, u16, bool)> {
    let mut threads = Vec::new();
    for shape in shapes {
        let pdf = Arc::new(shape.pdf.clone());
        for _ in 0..copies {
            let (addr, pdf, name) = (s.addr.clone(), Arc::clone(&pdf), shape.name);
            threads.push(std::thread::spawn(move || {
                let (status, retry) = upload(&addr, &pdf);
                (name, status, retry.is_some())
            }));
        }
    }
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// What every answer must be: a verdict (200), a refusal of the file (422), or busy (503,
/// with `Retry-After`).
fn check_answers(answers: &[(&str, u16, bool)]) {
    for (name, status, retry) in answers {
        assert!(
            matches!(status, 200 | 422 | 503),
            "{name}: answered {status} (0: the connection was cut, the server may have died): {answers:?}"
        );
        if *status == 503 {
            assert!(retry, "{name}: 503 without Retry-After");
        }
    }
    assert!(
        answers.iter().any(|(_, s, _)| *s != 503),
        "no upload was checked at all: {answers:?}"
    );
}

fn have_proc(test: &str) -> bool {
    if peak_rss(std::process::id()).is_none() {
        skips::skip(test, "no /proc/PID/status");
        return false;
    }
    true
}

/// Two cheap shapes, one after the other: each is answered and the server lives on.
#[test]
fn expensive_uploads_are_answered() {
    if !have_proc("expensive_uploads_are_answered") {
        return;
    }
    let fx = Fixture::new();
    let s = Server::start(&fx.index, &[]);
    let k = Knobs::full();
    for shape in [
        Shape {
            name: "kids-cycle",
            what: "",
            pdf: shapes::kids_cycle(),
        },
        Shape {
            name: "form-fanout",
            what: "",
            pdf: shapes::form_fanout(k.form_fields),
        },
    ] {
        let answers = upload_all(&s, std::slice::from_ref(&shape), 1);
        eprintln!("hostile: {answers:?}");
        check_answers(&answers);
    }
    let peak = peak_rss(s.pid()).unwrap();
    eprintln!("hostile: peak RSS {} MB", peak >> 20);
    assert!(peak < BUDGET, "peak RSS {} MB", peak >> 20);
    assert_eq!(s.get("/healthz", &[]).status, 200);
}

/// Streams naming 25,000 filters (deeper than a tokio worker's stack allowed the engine to
/// go), uploaded at once: the server answers each (a check runs on a thread of its own with a
/// known, large stack, so no file's depth ends the process) and checks a valid file right
/// after. The 100,000-filter ones are in the full tier's burst.
#[test]
fn filter_chains_do_not_take_the_server_down() {
    let fx = Fixture::new();
    let s = Server::start(&fx.index, &[]);
    let mut small = chains();
    small.retain(|c| c.name.starts_with("chain-25k"));
    let answers = upload_all(&s, &small, 1);
    eprintln!("hostile: {answers:?}");
    check_answers(&answers);
    assert_eq!(s.get("/healthz", &[]).status, 200);
    let (status, _) = upload(&s.addr, &valid_pdf(fx.dir.path()));
    assert_eq!(status, 200, "a valid upload right after");
}

/// How often a client asks again after `503` with `Retry-After`: a check that went on after
/// its deadline would keep its turn and answer 503 for ever; one that gives it back is
/// answered within a few.
const RETRIES: usize = 12;

/// The seconds `Retry-After` asks for, between 1 and 10.
fn wait_of(retry: Option<String>) -> u64 {
    retry
        .and_then(|r| r.parse().ok())
        .unwrap_or(1u64)
        .clamp(1, 10)
}

/// Every shape at the size that hurts, two uploads of each at once.
#[test]
#[ignore = "full tier (every expensive shape uploaded twice at once, up to minutes)"]
fn concurrent_uploads_of_every_shape_stay_within_the_budget() {
    if !have_proc("concurrent_uploads_of_every_shape_stay_within_the_budget") {
        return;
    }
    let fx = Fixture::new();
    let s = Server::start(&fx.index, &[]);
    let mut all = shapes::all(&Knobs::full());
    all.extend(chains());
    let answers = upload_all(&s, &all, 2);
    let peak = peak_rss(s.pid()).unwrap();
    eprintln!(
        "hostile: peak RSS {} MB (budget {} MB); answers {answers:?}",
        peak >> 20,
        BUDGET >> 20
    );
    check_answers(&answers);
    assert!(peak < BUDGET, "peak RSS {} MB", peak >> 20);
    // The server answers as before, checks a valid file right after, and every shape is
    // answered once it is alone.
    assert_eq!(s.get("/healthz", &[]).status, 200);
    let valid = valid_pdf(fx.dir.path());
    let mut status = 503;
    for _ in 0..RETRIES {
        let (st, retry) = upload(&s.addr, &valid);
        status = st;
        if st != 503 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_secs(wait_of(retry)));
    }
    assert_eq!(status, 200, "a valid upload right after the burst");
    // A client that waits as Retry-After says gets its answer once the burst is over: a check
    // that went on after its deadline would keep its turn and answer 503 for ever.
    for shape in &all {
        let mut tries = 0;
        let status = loop {
            tries += 1;
            let (status, retry) = upload(&s.addr, &shape.pdf);
            if status != 503 || tries == RETRIES {
                break status;
            }
            std::thread::sleep(std::time::Duration::from_secs(wait_of(retry)));
        };
        eprintln!(
            "hostile: {} alone: {status} after {tries} tries, peak RSS {} MB",
            shape.name,
            peak_rss(s.pid()).unwrap_or(0) >> 20
        );
        assert!(
            matches!(status, 200 | 422),
            "{}: alone, still answered {status} after {tries} tries",
            shape.name
        );
    }
    let peak = peak_rss(s.pid()).unwrap();
    assert!(peak < BUDGET, "peak RSS {} MB", peak >> 20);
}
