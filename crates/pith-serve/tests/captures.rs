//! Internet Archive captures raise a version to "stored" only where the index checked them: a
//! WARC record whose digest holds and whose PDF is the version's, or a CDX line whose digest is
//! the SHA-1 a report gives for the version's PDF. A tampered record, a PDF carrying another
//! number, a wrong digest or a line no report vouches for each raise nothing: the page and the
//! JSON say nothing of storage, and the build says why, one line each.

use std::path::Path;

use serde_json::Value;

use crate::common::{self, code, pdf_url, vectors, Server};

/// A WARC response record of `url` answering `body`, its digest stated as `digest`.
fn record(url: &str, body: &[u8], digest: &str) -> Vec<u8> {
    pith_testkit::inputs::warc_response(url, "200 OK", "2026-03-01T08:09:10Z", body, digest)
}

/// The suite's minimal PDF carrying `v`'s number (`pith inject --number`), written in `dir`:
/// its bytes.
fn numbered(dir: &Path, v: &Value) -> Vec<u8> {
    let out = dir.join("numbered.pdf");
    common::inject(v["pith_number"].as_str().unwrap(), &out);
    std::fs::read(&out).unwrap()
}

#[test]
fn stored_shows_exactly_where_a_capture_checks() {
    let dir = tempfile::tempdir().unwrap();
    let caps = common::captures_dir(dir.path());
    let v = vectors();
    let pdf = common::minimal_pdf();
    let sha1 = pith::capture::sha1_base32(&pdf);
    // 0: a good WARC record (a PDF carrying the version's number). 1: a PDF, its digest
    // tampered. 6: a PDF carrying another version's number. 3: a CDX line a report vouches
    // for. 4: a CDX line with another digest. 5: a CDX line no report vouches for.
    let numbered = numbered(dir.path(), &v[0]);
    let mut warc = record(
        &pdf_url(&v[0]),
        &numbered,
        &pith::capture::sha1_base32(&numbered),
    );
    let mut tampered = pdf.clone();
    tampered.extend_from_slice(b"% changed\n");
    warc.extend(record(&pdf_url(&v[1]), &tampered, &sha1));
    warc.extend(record(
        &pdf_url(&v[6]),
        &numbered,
        &pith::capture::sha1_base32(&numbered),
    ));
    std::fs::write(caps.join("crawl.warc"), warc).unwrap();
    let line = |v: &Value, d: &str| {
        format!(
            "k 20260301080910 {} application/pdf 200 {d} 1\n",
            pdf_url(v)
        )
    };
    let other = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    std::fs::write(
        caps.join("lines.cdx"),
        line(&v[3], &sha1) + &line(&v[4], other) + &line(&v[5], &sha1),
    )
    .unwrap();
    let report = [3, 4]
        .iter()
        .map(|i| {
            format!(
                "{{\"pdf\":\"x.pdf\",\"status\":\"injected\",\"number\":\"{}\",\"sha1\":\"{sha1}\"}}\n",
                v[*i]["pith_number"].as_str().unwrap()
            )
        })
        .collect::<String>();
    std::fs::write(caps.join("batch.jsonl"), report).unwrap();

    let index = dir.path().join("i.pith-index");
    let r = common::index_of_captures(&index, &caps);
    // Four bad captures, one line each, and the build says so.
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    for (why, n) in [
        ("is not the SHA-1 of its body", 1),
        ("payload carries pith:", 1),
        ("no PDF pith read for", 1),
        ("batch.jsonl line 2 carries pith:", 1),
    ] {
        assert_eq!(r.stderr.matches(why).count(), n, "{why}: {}", r.stderr);
    }
    assert!(r.stderr.contains("2 stored"), "{}", r.stderr);

    let s = Server::start(&index, &[]);
    for (i, stored) in [
        (0, true),
        (1, false),
        (6, false),
        (3, true),
        (4, false),
        (5, false),
    ] {
        let c = code(v[i]["pith_number"].as_str().unwrap());
        let json = s.get(&format!("/pith/{c}.json"), &[]).json();
        assert_eq!(json["status_flags"]["stored"], stored, "{i}: {json}");
        let page = s
            .get(&format!("/pith/{c}"), &[("Accept", "text/html")])
            .text();
        assert_eq!(page.contains("id=\"stored\""), stored, "{i}");
        assert_eq!(
            page.contains("stored and checked at the Internet Archive"),
            !stored,
            "{i}"
        );
        if stored {
            let raw = format!(
                "https://web.archive.org/web/20260301080910id_/{}",
                pdf_url(&v[i])
            );
            assert_eq!(json["stored"]["raw_url"], raw.as_str());
            assert_eq!(json["stored"]["time_utc"], "2026-03-01T08:09:10Z");
            assert!(page.contains(&format!("href=\"{raw}\"")), "{i}");
        } else {
            assert!(json["stored"].is_null(), "{i}: {json}");
        }
    }
}

/// The badge says "stored" where the record page does and nowhere else: a capture that checks
/// raises the record's badge (SVG, dark SVG, PDF, the shields.io document, the concept badge)
/// and its JSON's status; a tampered capture of another version raises none of them.
#[test]
fn the_badge_says_stored_only_where_a_capture_checks() {
    let dir = tempfile::tempdir().unwrap();
    let caps = common::captures_dir(dir.path());
    let v = vectors();
    let pdf = common::minimal_pdf();
    let sha1 = pith::capture::sha1_base32(&pdf);
    let mut tampered = pdf.clone();
    tampered.extend_from_slice(b"% changed\n");
    let numbered = numbered(dir.path(), &v[0]);
    let mut warc = record(
        &pdf_url(&v[0]),
        &numbered,
        &pith::capture::sha1_base32(&numbered),
    );
    warc.extend(record(&pdf_url(&v[1]), &tampered, &sha1));
    std::fs::write(caps.join("crawl.warc"), warc).unwrap();
    let index = dir.path().join("i.pith-index");
    let r = common::index_of_captures(&index, &caps);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("1 stored"), "{}", r.stderr);

    let s = Server::start(&index, &[]);
    for (i, stored) in [(0, true), (1, false)] {
        let full = v[i]["pith_number"].as_str().unwrap();
        let c = code(full);
        let want = if stored { "stored" } else { "computed" };
        let json = s.get(&format!("/pith/{c}.json"), &[]).json();
        assert_eq!(json["status"], want, "{i}: {json}");
        // The mirror's badge is the library's badge of the status the page shows.
        let n = pith::PithNumber::parse(full).unwrap();
        let status = want.parse::<pith::badge::RecordStatus>().unwrap();
        let lib = pith::badge::svg(&n, &pith::badge::Look::default().status(Some(status)));
        let svg = s.get(&format!("/badge/{c}.svg"), &[]);
        assert_eq!(svg.status, 200, "{i}");
        assert_eq!(svg.text(), lib.unwrap() + "\n", "{i}");
        for path in [
            format!("/badge/{c}.svg"),
            format!("/badge/{c}-dark.svg"),
            format!("/badge/{c}.svg?style=flat-square&full=true"),
        ] {
            let text = s.get(&path, &[]).text();
            assert_eq!(text.contains(">stored</text>"), stored, "{path}: {text}");
            assert_eq!(text.contains(", stored\""), stored, "{path}: {text}");
        }
        let shields = s.get(&format!("/badge/{c}.json"), &[]).json();
        let message = shields["message"].as_str().unwrap();
        assert_eq!(message.ends_with(" stored"), stored, "{i}: {shields}");
        let (light, _) = pith::badge::palette()
            .into_iter()
            .find(|(l, _)| l.segment == want)
            .unwrap();
        assert_eq!(shields["color"], light.background.trim_start_matches('#'));
        // The PDF badge draws the status as text (pdftotext reads it back).
        let pdf = s.get(&format!("/badge/{c}.pdf"), &[]);
        assert_eq!(pdf.status, 200);
        if pith_testkit::have_tool(
            "pdftotext",
            "the_badge_says_stored_only_where_a_capture_checks",
        ) {
            let file = dir.path().join(format!("badge-{i}.pdf"));
            std::fs::write(&file, &pdf.body).unwrap();
            let out = std::process::Command::new("pdftotext")
                .arg(&file)
                .arg("-")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(text.contains("stored"), stored, "{i}: {text}");
        }
        let id = v[i]["canonical_record"]["source"]["id"].as_str().unwrap();
        let version = &v[i]["canonical_record"]["source"]["version"];
        let concept = s.get(&format!("/badge/arxiv/{id}v{version}.svg"), &[]);
        assert_eq!(concept.text().contains(">stored</text>"), stored, "{i}");
    }
}
