//! An index build keeps every input but the one that cannot be read: a capture file that is not
//! UTF-8, a WARC cut inside its gzip, a WARC of folded header lines, a CDX answer of a hundred
//! thousand rows or with one row of a megabyte, a references file with a 256 MiB line or a
//! million junk lines (from [`pith_testkit::inputs`]) each end as lines naming the file, beside
//! good inputs whose captures and references are stored, and the index is written. Judged by
//! the build's exit code, its lines and what the index holds.

use crate::common::{self, code, pdf_url, vectors, Server};

#[test]
fn one_bad_capture_file_is_one_line_and_the_rest_is_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let caps = common::captures_dir(dir.path());
    let v = vectors();
    let pdf = common::minimal_pdf();
    let sha1 = pith::capture::sha1_base32(&pdf);
    // A good CDX line that a report vouches for.
    std::fs::write(
        caps.join("good.cdx"),
        format!(
            "k 20240301080910 {} application/pdf 200 {sha1} 1\n",
            pdf_url(&v[3])
        ),
    )
    .unwrap();
    std::fs::write(
        caps.join("batch.jsonl"),
        format!(
            "{{\"pdf\":\"x.pdf\",\"status\":\"injected\",\"number\":\"{}\",\"sha1\":\"{sha1}\"}}\n",
            v[3]["pith_number"].as_str().unwrap()
        ),
    )
    .unwrap();
    let hostile = [
        "binary.cdx",
        "cut.warc.gz",
        "folded.warc",
        "one-row.cdx",
        "rows.cdx",
    ];
    for i in pith_testkit::inputs::captures(1) {
        if hostile.contains(&i.name.as_str()) {
            std::fs::write(caps.join(&i.name), &i.bytes).unwrap();
        }
    }
    let index = dir.path().join("i.pith-index");
    let r = common::index_of_captures(&index, &caps);
    assert_eq!(r.code, 2, "{}", r.stderr);
    for name in hostile {
        assert!(r.stderr.contains(name), "{name}: {}", r.stderr);
    }
    // Each file's reasons are bounded: a hundred lines and a count at most.
    for name in hostile {
        let lines = r.stderr.lines().filter(|l| l.contains(name)).count();
        assert!(lines <= 102, "{name}: {lines} lines");
    }
    assert!(r.stderr.contains("1 stored"), "{}", r.stderr);
    let s = Server::start(&index, &[]);
    let c = code(v[3]["pith_number"].as_str().unwrap());
    let json = s.get(&format!("/pith/{c}.json"), &[]).json();
    assert_eq!(json["status_flags"]["stored"], true, "{json}");
}

#[test]
fn one_bad_references_file_is_one_line_and_the_rest_is_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let records = common::records_dir(dir.path());
    let v = vectors();
    let s = &v[0]["canonical_record"]["source"];
    let citing = format!("{}v{}", s["id"].as_str().unwrap(), s["version"]);
    let good = dir.path().join("good.jsonl");
    std::fs::write(
        &good,
        format!("{{\"file\":\"{citing}.pdf\",\"citing\":\"{citing}\",\"doi\":\"10.1000/x\",\"page\":1,\"line\":1}}\n"),
    )
    .unwrap();
    let mut args = vec![
        "--records".to_owned(),
        records.to_str().unwrap().to_owned(),
        "--refs".to_owned(),
        good.to_str().unwrap().to_owned(),
    ];
    let hostile = pith_testkit::inputs::refs_lines(1);
    for i in &hostile {
        let p = dir.path().join(&i.name);
        std::fs::write(&p, &i.bytes).unwrap();
        args.extend(["--refs".to_owned(), p.to_str().unwrap().to_owned()]);
    }
    let index = dir.path().join("i.pith-index");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = common::build_index(&index, &args);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("1 references"), "{}", r.stderr);
    for i in &hostile {
        let lines = r.stderr.lines().filter(|l| l.contains(&i.name)).count();
        assert!((1..=102).contains(&lines), "{}: {lines} lines", i.name);
    }
    assert!(
        r.stderr
            .contains("long-line.jsonl.gz:1: the line is longer than"),
        "{}",
        r.stderr
    );
    assert!(index.exists());
}
