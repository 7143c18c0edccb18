//! One evidence rule at both doors: for the same capture, `pith verify PDF --capture` and
//! `pith index --captures` give the same verdict, and the mirror shows "stored" exactly where
//! the index kept a capture. Every case a stranger can send (a 404 or 302, another paper's
//! URL, a URL off arXiv, a capture older than the paper, an unrelated PDF without the number,
//! a hand-written report line, a report line for a refused member) is refused at both; a
//! capture file that cannot be read is one line, and the index is still written.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{self, code, pdf_url, run, vectors, Server};

/// One WARC response record written by hand: `status` answering `body` for `url` at `date`,
/// its payload digest the body's.
fn record(url: &str, status: &str, date: &str, body: &[u8]) -> Vec<u8> {
    let digest = pith::capture::sha1_base32(body);
    pith_testkit::inputs::warc_response(url, status, date, body, &digest)
}

/// The suite's minimal PDF carrying `v`'s number and naming its version (`pith inject
/// --record`).
fn numbered(dir: &Path, v: &Value) -> PathBuf {
    let rec = dir.join("record.json");
    std::fs::write(&rec, v["canonical_record"].to_string()).unwrap();
    let out = dir.join("numbered.pdf");
    let r = run(
        &common::pith(),
        &[
            "inject",
            common::root()
                .join("tests/fixtures/minimal.pdf")
                .to_str()
                .unwrap(),
            "--record",
            rec.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    out
}

/// `pith verify PDF --capture …` for each file: whether it says stored (exit 0 and the JSON's
/// verdict agree).
fn verify_stored(pdf: &Path, files: &[PathBuf]) -> bool {
    let mut args = vec![
        "verify".to_owned(),
        pdf.display().to_string(),
        "--json".into(),
    ];
    for f in files {
        args.push("--capture".into());
        args.push(f.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = run(&common::pith(), &args, &[]);
    let json: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    assert_eq!(r.code == 0, json["verdict"] == "stored", "{json}");
    r.code == 0
}

/// Builds an index of the vectors with `dir` as its captures: the run and the index.
fn index_with(dir: &Path, caps: &Path) -> (common::Run, PathBuf) {
    let index = dir.join(format!(
        "{}.pith-index",
        caps.file_name().unwrap().to_string_lossy()
    ));
    let r = common::index_of_captures(&index, caps);
    (r, index)
}

/// The build's count of stored versions (its summary leaves out a count of none).
fn stored_count(r: &common::Run) -> u64 {
    assert!(r.stderr.contains(" records\n"), "{r:?}");
    let Some(at) = r.stderr.find(" stored,") else {
        return 0;
    };
    let head = &r.stderr[..at];
    head[head.rfind(' ').unwrap() + 1..].parse().unwrap()
}

/// A capture folder's files: (name, bytes).
type Folder = Vec<(&'static str, Vec<u8>)>;

#[test]
fn both_doors_give_the_same_verdict_for_the_same_capture() {
    let dir = tempfile::tempdir().unwrap();
    let v = vectors();
    assert_eq!(v[0]["canonical_record"]["source"]["id"], "2402.03791");
    let n0 = v[0]["pith_number"].as_str().unwrap();
    let url0 = pdf_url(&v[0]);
    let numbered = numbered(dir.path(), &v[0]);
    let nb = std::fs::read(&numbered).unwrap();
    let plain = common::root().join("tests/fixtures/minimal.pdf");
    let pb = std::fs::read(&plain).unwrap();
    let psha = pith::capture::sha1_base32(&pb);
    let date = "2026-03-01T08:09:10Z";
    let line = |url: &str, status: &str| {
        format!("k 20260301080910 {url} application/pdf {status} {psha} 1\n").into_bytes()
    };
    let report = |status: &str| {
        format!(
            "{{\"pdf\":\"2402.03791v3.pdf\",\"id\":\"2402.03791\",\"version\":3,{status}\"number\":\"{n0}\",\"sha1\":\"{psha}\"}}\n"
        )
        .into_bytes()
    };
    let injected = || report("\"status\":\"injected\",");
    // (case, the PDF verify is given, the capture folder's files, stored?)
    let cases: Vec<(&str, &Path, Folder, bool)> = vec![
        (
            "good warc",
            &numbered,
            vec![("c.warc", record(&url0, "200 OK", date, &nb))],
            true,
        ),
        (
            "404",
            &numbered,
            vec![("c.warc", record(&url0, "404 Not Found", date, &nb))],
            false,
        ),
        (
            "302",
            &numbered,
            vec![("c.warc", record(&url0, "302 Found", date, &nb))],
            false,
        ),
        (
            "another paper's URL",
            &numbered,
            vec![("c.warc", record(&pdf_url(&v[1]), "200 OK", date, &nb))],
            false,
        ),
        (
            "off arXiv",
            &numbered,
            vec![(
                "c.warc",
                record(
                    &url0.replace("arxiv.org", "example.org"),
                    "200 OK",
                    date,
                    &nb,
                ),
            )],
            false,
        ),
        (
            "dated 1996",
            &numbered,
            vec![(
                "c.warc",
                record(&url0, "200 OK", "1996-05-01T00:00:00Z", &nb),
            )],
            false,
        ),
        (
            "an unrelated PDF without the number",
            &plain,
            vec![("c.warc", record(&url0, "200 OK", date, &pb))],
            false,
        ),
        (
            "a hand-written report line",
            &plain,
            vec![("c.cdx", line(&url0, "200")), ("r.jsonl", report(""))],
            false,
        ),
        (
            "a refused member's report line",
            &plain,
            vec![
                ("c.cdx", line(&url0, "200")),
                (
                    "r.jsonl",
                    report("\"status\":\"not_pdf\",\"refusal\":\"not_pdf\","),
                ),
            ],
            false,
        ),
        (
            "a CDX line answered 404",
            &plain,
            vec![("c.cdx", line(&url0, "404")), ("r.jsonl", injected())],
            false,
        ),
        (
            "a CDX line for another URL",
            &plain,
            vec![
                ("c.cdx", line(&pdf_url(&v[1]), "200")),
                ("r.jsonl", injected()),
            ],
            false,
        ),
        (
            "a CDX line a report of an injected PDF vouches for",
            &plain,
            vec![("c.cdx", line(&url0, "200")), ("r.jsonl", injected())],
            true,
        ),
    ];
    for (i, (name, pdf, files, stored)) in cases.into_iter().enumerate() {
        let caps = dir.path().join(format!("case{i}"));
        std::fs::create_dir(&caps).unwrap();
        let mut paths = Vec::new();
        for (f, bytes) in &files {
            let p = caps.join(f);
            std::fs::write(&p, bytes).unwrap();
            paths.push(p);
        }
        assert_eq!(verify_stored(pdf, &paths), stored, "verify: {name}");
        let (r, index) = index_with(dir.path(), &caps);
        assert_eq!(stored_count(&r), u64::from(stored), "index: {name}: {r:?}");
        assert_eq!(r.code, if stored { 0 } else { 2 }, "{name}: {r:?}");
        // The mirror shows what the index kept, nothing more.
        let s = Server::start(&index, &[]);
        let json = s.get(&format!("/pith/{}.json", code(n0)), &[]).json();
        assert_eq!(json["status_flags"]["stored"], stored, "server: {name}");
    }
}

#[test]
fn a_bad_capture_file_is_one_line_and_the_index_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let v = vectors();
    let caps = dir.path().join("caps");
    std::fs::create_dir(&caps).unwrap();
    let nb = std::fs::read(numbered(dir.path(), &v[0])).unwrap();
    let good = record(&pdf_url(&v[0]), "200 OK", "2026-03-01T08:09:10Z", &nb);
    std::fs::write(caps.join("b-good.warc"), &good).unwrap();
    // Not UTF-8, a gzip WARC cut short, JSON that is not the CDX API's.
    std::fs::write(caps.join("a-latin1.cdx"), b"k 2026 \xff\xfe\n").unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut e, &good).unwrap();
    let gz = e.finish().unwrap();
    std::fs::write(caps.join("c-cut.warc.gz"), &gz[..gz.len() / 2]).unwrap();
    std::fs::write(caps.join("d-bad.json"), b"[[\"a\"],{\"b\":1}]").unwrap();
    let (r, index) = index_with(dir.path(), &caps);
    assert_eq!(r.code, 2, "{r:?}");
    for f in ["a-latin1.cdx", "c-cut.warc.gz", "d-bad.json"] {
        let lines: Vec<&str> = r.stderr.lines().filter(|l| l.contains(f)).collect();
        assert_eq!(lines.len(), 1, "{f}: {}", r.stderr);
    }
    assert_eq!(stored_count(&r), 1, "{r:?}");
    assert!(index.is_file());
    let s = Server::start(&index, &[]);
    let c = code(v[0]["pith_number"].as_str().unwrap());
    let json = s.get(&format!("/pith/{c}.json"), &[]).json();
    assert_eq!(json["status_flags"]["stored"], true, "{json}");
}
