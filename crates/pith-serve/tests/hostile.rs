//! `POST /verify` of files built to be expensive ([`pith_testkit::shapes`]: a shared
//! annotation listed thousands of times, millions of free xref entries, fields whose kids are
//! the fields, a page tree sharing one node per level, cycles, deep nesting, thousands of
//! updates, millions of content operators, flate bombs), on a `pith serve` with its default
//! settings on 127.0.0.1: every upload is answered (a verdict, a refusal of the file, or busy
//! with `Retry-After`), the server stays within the memory budget docs/serve.md states and
//! answers its other routes afterwards. Counts and times are fixed; each attack stops by
//! itself.

use std::sync::Arc;

use pith_testkit::shapes::{self, Knobs, Shape};

use crate::attacks::{peak_rss, upload, BUDGET};
use crate::common::{skips, Fixture, Server};

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

/// Every shape at the size that hurts, two uploads of each at once.
#[test]
#[ignore = "full tier (every expensive shape uploaded twice at once, up to minutes)"]
fn concurrent_uploads_of_every_shape_stay_within_the_budget() {
    if !have_proc("concurrent_uploads_of_every_shape_stay_within_the_budget") {
        return;
    }
    let fx = Fixture::new();
    let s = Server::start(&fx.index, &[]);
    let all = shapes::all(&Knobs::full());
    let answers = upload_all(&s, &all, 2);
    let peak = peak_rss(s.pid()).unwrap();
    eprintln!(
        "hostile: peak RSS {} MB (budget {} MB); answers {answers:?}",
        peak >> 20,
        BUDGET >> 20
    );
    check_answers(&answers);
    assert!(peak < BUDGET, "peak RSS {} MB", peak >> 20);
    // The server answers as before, and every shape is answered once it is alone.
    assert_eq!(s.get("/healthz", &[]).status, 200);
    // A client that waits as Retry-After says gets its answer once the burst is over: a check
    // that went on after its deadline would keep its turn and answer 503 for ever.
    for shape in &all {
        let start = std::time::Instant::now();
        let status = loop {
            let (status, retry) = upload(&s.addr, &shape.pdf);
            if status != 503 || start.elapsed() > std::time::Duration::from_secs(90) {
                break status;
            }
            let wait = retry
                .and_then(|r| r.parse().ok())
                .unwrap_or(1u64)
                .clamp(1, 10);
            std::thread::sleep(std::time::Duration::from_secs(wait));
        };
        eprintln!(
            "hostile: {} alone: {status} after {:.1} s",
            shape.name,
            start.elapsed().as_secs_f64()
        );
        assert!(
            matches!(status, 200 | 422),
            "{}: alone, still answered {status} after {:.0} s of retries",
            shape.name,
            start.elapsed().as_secs_f64()
        );
    }
    let peak = peak_rss(s.pid()).unwrap();
    assert!(peak < BUDGET, "peak RSS {} MB", peak >> 20);
}
