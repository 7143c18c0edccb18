//! `pith serve` under hostile load, on 127.0.0.1 with its default settings: PDFs that cost
//! memory to check (the server stays within its memory budget) and checks past their deadline
//! (they give their turn back; SIGTERM ends them). The tools the other attacks share are here:
//! the budget, the bombs, a large index, uploads and asks. The other attacks are modules of
//! their own: `floods` (slow uploads, page floods, held connections), `hostile_index` (records
//! larger than the answer cache, an index written over in place, ids an export cannot name)
//! and `headers` (the headers and refusals every answer carries). Each attack runs a fixed
//! count for a fixed time and stops by itself.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pith_testkit::zlib::zeros_after;

use crate::common::{self, data, skips, vectors, Fixture, Server};

/// The memory budget docs/serve.md states for the default settings.
pub(crate) const BUDGET: u64 = 512 << 20;

/// A one-page PDF whose cross-reference stream inflates to 2.2 GB (2.2 MB on disk).
fn xref_bomb() -> Vec<u8> {
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ];
    let mut rows = vec![(0u8, 0u32, 65535u16)];
    for (i, d) in objs.iter().enumerate() {
        rows.push((1, out.len() as u32, 0));
        out.extend_from_slice(format!("{} 0 obj\n{d}\nendobj\n", i + 1).as_bytes());
    }
    let x = out.len();
    rows.push((1, x as u32, 0));
    let mut raw = Vec::new();
    for (t, f2, f3) in rows {
        raw.push(t);
        raw.extend_from_slice(&f2.to_be_bytes());
        raw.extend_from_slice(&f3.to_be_bytes());
    }
    let z = zeros_after(&raw, 2200 << 20);
    out.extend_from_slice(
        format!(
            "4 0 obj\n<< /Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length {} >>\nstream\n",
            z.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&z);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{x}\n%%EOF\n").as_bytes());
    out
}

/// A one-page PDF whose XMP packet holds `n` empty elements (ten million: 60 MB).
fn xmp_flood(n: usize) -> Vec<u8> {
    let mut packet = String::from(
        "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" xmlns:a=\"urn:a\">",
    );
    packet.push_str(&"<a:b/>".repeat(n));
    packet.push_str("</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>");
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>".to_owned(),
        format!(
            "<< /Type /Metadata /Subtype /XML /Length {} >>\nstream\n{packet}\nendstream",
            packet.len()
        ),
    ];
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, d) in objs.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{d}\nendobj\n", i + 1).as_bytes());
    }
    let x = out.len();
    out.extend_from_slice(b"xref\n0 5\n0000000000 65535 f \n");
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n{x}\n%%EOF\n").as_bytes(),
    );
    out
}

/// A snapshot line of a paper with `authors` authors (large collaborations list thousands).
fn collaboration(id: &str, authors: usize) -> String {
    let names: Vec<String> = (0..authors)
        .map(|i| format!("Author{i:06} Surname"))
        .collect();
    let parsed: Vec<[String; 3]> = (0..authors)
        .map(|i| ["Surname".into(), format!("Author{i:06}"), String::new()])
        .collect();
    serde_json::json!({
        "id": id, "submitter": "A. Author", "authors": names.join(" and "),
        "title": "A measurement by a large collaboration", "comments": null,
        "journal-ref": null, "doi": null, "report-no": null, "categories": "hep-ex",
        "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
        "abstract": "  We measure.\n",
        "versions": [{"version": "v1", "created": "Tue, 6 Feb 2024 08:14:56 GMT"}],
        "update_date": "2024-06-01", "authors_parsed": parsed,
    })
    .to_string()
}

/// An index of the vectors' snapshot and two collaborations: ~130 KB of authors (a record
/// page over the old 256 KiB bound) and ~1.2 MB (JSON over the cache's 1 MiB entry bound).
/// The codes of the two, in that order.
pub(crate) fn big_index(dir: &Path) -> (PathBuf, String, String) {
    let mut snap = std::fs::read_to_string(data("arxiv/vectors.snapshot.jsonl")).unwrap();
    snap.push_str(&collaboration("2501.00001", 5_000));
    snap.push('\n');
    snap.push_str(&collaboration("2501.00002", 45_000));
    snap.push('\n');
    let src = dir.join("snap.jsonl");
    std::fs::write(&src, snap).unwrap();
    let index = dir.join("big.pith-index");
    let r = common::build_index(&index, &["--arxiv-snapshot", src.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let idx = pith_serve::index::Index::open(&index).unwrap();
    let code_of = |id: &str| {
        idx.arxiv(id, None)
            .unwrap()
            .unwrap()
            .number
            .code()
            .to_owned()
    };
    (index.clone(), code_of("2501.00001"), code_of("2501.00002"))
}

/// The peak resident memory of `pid` so far (Linux's VmHWM), in bytes.
pub(crate) fn peak_rss(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// `POST /verify` of `pdf` as the raw body, asking for JSON: status and `Retry-After`.
pub(crate) fn upload(addr: &str, pdf: &[u8]) -> (u16, Option<String>) {
    upload_then(addr, pdf, || {})
}

/// [`upload`], calling `sent` once the request is written whole.
fn upload_then(addr: &str, pdf: &[u8], sent: impl FnOnce()) -> (u16, Option<String>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "POST /verify HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/pdf\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        pdf.len()
    );
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(pdf);
    sent();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf[..buf.len().min(4096)]).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let retry = text
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("retry-after:"))
        .map(|l| l[12..].trim().to_owned());
    (status, retry)
}

/// [`upload`] on a thread of its own, returned once the request was written whole, with the
/// thread that waits for the status: the uploads sent before the next request.
fn sent_upload(addr: &str, pdf: Vec<u8>) -> std::thread::JoinHandle<u16> {
    let (sent, is_sent) = std::sync::mpsc::channel();
    let addr = addr.to_owned();
    let h = std::thread::spawn(move || {
        upload_then(&addr, &pdf, || {
            let _ = sent.send(());
        })
        .0
    });
    // A closed channel (the thread failed first) ends the wait too; its join says why.
    let _ = is_sent.recv();
    h
}

#[test]
#[ignore = "full tier (20 PDF bombs, 60 MB uploads and a cache flood at once, ~1 min)"]
fn the_server_stays_within_its_memory_budget() {
    if peak_rss(std::process::id()).is_none() {
        skips::skip(
            "the_server_stays_within_its_memory_budget",
            "no /proc/PID/status",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (index, page_code, _) = big_index(dir.path());
    let s = Server::start(&index, &[]);
    let pid = s.pid();
    let bomb = Arc::new(xref_bomb());
    let flood = Arc::new(xmp_flood(10_000_000));
    assert!(bomb.len() < 3 << 20 && flood.len() > 55 << 20);
    let stop = Arc::new(AtomicBool::new(false));
    let mut uploads = Vec::new();
    for i in 0..24 {
        let pdf = if i < 20 {
            Arc::clone(&bomb)
        } else {
            Arc::clone(&flood)
        };
        let addr = s.addr.clone();
        uploads.push(std::thread::spawn(move || upload(&addr, &pdf)));
    }
    // Meanwhile a client asks for the record page (~260 KB) under ever new query strings, and
    // for badges with ever new unknown keys.
    let flooders: Vec<_> = [format!("/pith/{page_code}"), format!("/badge/{page_code}.svg")]
        .into_iter()
        .map(|path| {
            let (addr, stop) = (s.addr.clone(), Arc::clone(&stop));
            let answered = Arc::new(AtomicU32::new(0));
            let count = Arc::clone(&answered);
            let flooder = std::thread::spawn(move || {
                let mut n = 0u32;
                let mut bad = 0u32;
                let t = Instant::now();
                while !stop.load(Ordering::Relaxed) && t.elapsed() < Duration::from_secs(60) {
                    let mut c = TcpStream::connect(&addr).unwrap();
                    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                    let req = format!(
                        "GET {path}?n={n}&x{n}=1 HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nConnection: close\r\n\r\n"
                    );
                    c.write_all(req.as_bytes()).unwrap();
                    let mut b = Vec::new();
                    let _ = c.read_to_end(&mut b);
                    if !b.starts_with(b"HTTP/1.1 200") {
                        bad += 1;
                    }
                    n += 1;
                    count.store(n, Ordering::Relaxed);
                }
                (n, bad)
            });
            (flooder, answered)
        })
        .collect();
    let mut statuses = Vec::new();
    for u in uploads {
        statuses.push(u.join().unwrap());
    }
    // The flood goes on past the uploads until each of its two kinds was answered more than
    // 50 times (or gave up).
    common::wait::until("more than 50 answers to each flood", || {
        flooders
            .iter()
            .all(|(f, n)| f.is_finished() || n.load(Ordering::Relaxed) > 50)
    });
    stop.store(true, Ordering::Relaxed);
    for (f, _) in flooders {
        let (n, bad) = f.join().unwrap();
        assert!(n > 50, "only {n} requests of the flood were answered");
        assert_eq!(bad, 0, "{bad} of {n} flood requests were not 200");
    }
    let peak = peak_rss(pid).unwrap();
    eprintln!(
        "attacks: peak RSS {} MB (budget {} MB); uploads answered {statuses:?}",
        peak >> 20,
        BUDGET >> 20
    );
    for (status, retry) in &statuses {
        assert!(
            matches!(status, 200 | 422 | 503),
            "an upload was answered {status}: {statuses:?}"
        );
        if *status == 503 {
            assert!(retry.is_some(), "503 without Retry-After");
        }
    }
    assert!(
        statuses.iter().any(|(s, _)| *s != 503),
        "no upload was checked at all: {statuses:?}"
    );
    assert!(peak < BUDGET, "peak RSS {} MB", peak >> 20);
    assert_eq!(s.get("/healthz", &[]).status, 200);
}

/// Status, headers and body of `method path` with `Accept: accept`.
pub(crate) fn ask(s: &Server, method: &str, path: &str, accept: &str) -> common::Response {
    s.raw(
        format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n",
            s.addr
        )
        .as_bytes(),
    )
}

#[test]
#[ignore = "full tier (PDFs built to be expensive, checked under a 1 s deadline, then SIGTERM)"]
fn a_check_past_its_deadline_gives_its_turn_back_and_sigterm_ends_checks() {
    let f = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pdf");
    common::inject(vectors()[0]["pith_number"].as_str().unwrap(), &good);
    let good = std::fs::read(&good).unwrap();
    let heavy = [xref_bomb(), xmp_flood(10_000_000)];
    let s = Server::start(&f.index, &["--check-timeout", "1", "--check-wait", "30"]);
    let addr = s.addr.clone();
    // Both turns taken by files built to be expensive; a good file waits for a turn (the wait
    // allowed is 30 s, the checks' deadline 1 s), and is answered: a turn came back.
    let hostile: Vec<_> = heavy
        .iter()
        .cloned()
        .map(|pdf| sent_upload(&addr, pdf))
        .collect();
    let (status, _) = upload(&addr, &good);
    assert_eq!(status, 200, "the good file");
    for h in hostile {
        let status = h.join().unwrap();
        // Read within the budget (no number), refused, or stopped at its deadline.
        assert!(
            matches!(status, 200 | 422 | 503),
            "a hostile file was answered {status}"
        );
    }
    // SIGTERM while both turns are taken again: the checks end and the server exits with 0
    // (its own grace bounds the wait; the harness gives up after twice that).
    let hostile: Vec<_> = heavy
        .into_iter()
        .map(|pdf| sent_upload(&addr, pdf))
        .collect();
    assert_eq!(s.terminate(), Some(0));
    for h in hostile {
        let _ = h.join();
    }
}
