//! The evidence rule at `pith verify PDF --capture …`: a capture the file is byte for byte
//! still does not make it "stored" unless it is an HTTP 200 answer for the version's own arXiv
//! PDF URL, dated after the version, of a PDF pith read and recognised as the version. Each
//! case a stranger can send (a 404 or 302, another paper's URL, a URL off arXiv, a capture
//! older than the paper, an unrelated PDF without the number, a CDX server listing other
//! URLs, a report line for a refused member) ends NOT STORED, exit 1, the check that failed
//! named; the good case names what it could not check.

use std::path::Path;

use crate::captures::numbered;
use crate::common::http::{Reply, Server};
use crate::common::{fixture, pith, tmpdir};

const URL: &str = "https://arxiv.org/pdf/2402.03791v3";

/// One WARC response record, written by hand: `status` answering `body` for `url` at `date`,
/// its payload digest the body's (so the record itself is sound).
pub(crate) fn record(url: &str, status: &str, date: &str, body: &[u8]) -> Vec<u8> {
    let digest = pith::capture::sha1_base32(body);
    pith_testkit::inputs::warc_response(url, status, date, body, &digest)
}

/// A CDX line of `url` with `status` and `digest`, captured at `ts`.
pub(crate) fn cdx(url: &str, ts: &str, status: &str, digest: &str) -> String {
    format!("k {ts} {url} application/pdf {status} {digest} 1\n")
}

fn verify_json(pdf: &Path, captures: &[&Path]) -> (i32, serde_json::Value) {
    let mut c = pith();
    c.arg("verify").arg(pdf).arg("--json");
    for s in captures {
        c.arg("--capture").arg(s);
    }
    let o = c.output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let json = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!("{e}: {out}{}", String::from_utf8_lossy(&o.stderr));
    });
    (o.status.code().unwrap_or(-1), json)
}

/// The first capture's verdict: whether it counts, and the reason it does not.
fn first(json: &serde_json::Value) -> (bool, String) {
    let c = &json["captures"][0];
    (
        c["verdict"]["stored"].as_bool().unwrap(),
        c["refused"].as_str().unwrap_or_default().to_owned(),
    )
}

#[test]
fn no_trust_case_earns_stored_at_verify() {
    let dir = tmpdir();
    let pdf = numbered(dir.path());
    let bytes = std::fs::read(&pdf).unwrap();
    let plain = fixture("minimal.pdf");
    let plain_bytes = std::fs::read(&plain).unwrap();
    let date = "2024-03-01T08:09:10Z";
    let cases: Vec<(&str, &Path, Vec<u8>, &str)> = vec![
        (
            "404",
            &pdf,
            record(URL, "404 Not Found", date, &bytes),
            "HTTP 404",
        ),
        (
            "302",
            &pdf,
            record(URL, "302 Found", date, &bytes),
            "HTTP 302",
        ),
        (
            "another paper",
            &pdf,
            record("https://arxiv.org/pdf/2412.14374v1", "200 OK", date, &bytes),
            "is not arXiv:2402.03791v3's PDF URL",
        ),
        (
            "off arXiv",
            &pdf,
            record(
                "https://example.org/pdf/2402.03791v3",
                "200 OK",
                date,
                &bytes,
            ),
            "is not arXiv:2402.03791v3's PDF URL",
        ),
        (
            "1996",
            &pdf,
            record(URL, "200 OK", "1996-05-01T00:00:00Z", &bytes),
            "before arXiv:2402.03791v3 existed",
        ),
        (
            "no number",
            &plain,
            record(URL, "200 OK", date, &plain_bytes),
            "carries no Pith Number",
        ),
    ];
    for (name, file, warc, why) in &cases {
        let w = dir.path().join(format!("{name}.warc"));
        std::fs::write(&w, warc).unwrap();
        let (code, json) = verify_json(file, &[&w]);
        assert_eq!(code, 1, "{name}: {json}");
        assert_eq!(json["verdict"], "not_stored", "{name}");
        let (stored, reason) = first(&json);
        assert!(!stored, "{name}: {json}");
        assert!(reason.contains(why), "{name}: {reason}");
        assert!(
            json["headline"].as_str().unwrap().starts_with("NOT STORED"),
            "{name}"
        );
    }
    // The same file at its own URL, HTTP 200, after the paper: stored, and the verdict names
    // what could not be checked here (when the version itself was announced, whether the
    // number is the version's).
    let good = dir.path().join("good.warc");
    std::fs::write(&good, record(URL, "200 OK", date, &bytes)).unwrap();
    let (code, json) = verify_json(&pdf, &[&good]);
    assert_eq!(code, 0, "{json}");
    let checks = json["captures"][0]["verdict"]["checks"].as_array().unwrap();
    for what in ["url", "status", "date", "payload", "pdf"] {
        assert!(
            checks
                .iter()
                .any(|c| c["check"] == what && c["outcome"] == "holds"),
            "{what}: {json}"
        );
    }
    assert!(checks.iter().any(|c| c["outcome"] == "not_checked"));
    assert!(
        json["headline"]
            .as_str()
            .unwrap()
            .contains("Not checked here:"),
        "{json}"
    );
}

#[test]
fn cdx_lines_and_reports_follow_the_same_rule_at_verify() {
    let dir = tmpdir();
    let plain = fixture("minimal.pdf");
    let sha1 = pith::capture::sha1_base32(&std::fs::read(&plain).unwrap());
    let n = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
    let write = |name: &str, text: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let line = write("line.cdx", cdx(URL, "20240301080910", "200", &sha1));
    // The file carries no number: nothing recognises it but a report line of a PDF pith read.
    let (code, json) = verify_json(&plain, &[&line]);
    assert_eq!(code, 1, "{json}");
    assert!(first(&json).1.contains("carries no Pith Number"), "{json}");
    for (status, stored) in [
        ("\"status\":\"not_pdf\",\"refusal\":\"not_pdf\",", false),
        ("", false),
        ("\"status\":\"failed\",", false),
        ("\"status\":\"injected\",", true),
        ("\"status\":\"unchanged\",", true),
    ] {
        let report = write(
            "report.jsonl",
            format!(
                "{{\"pdf\":\"2402.03791v3.pdf\",\"id\":\"2402.03791\",\"version\":3,{status}\"number\":\"{n}\",\"sha1\":\"{sha1}\"}}\n"
            ),
        );
        let (code, json) = verify_json(&plain, &[&line, &report]);
        assert_eq!(code == 0, stored, "{status}: {json}");
    }
    // The report recognises the file as v3: a line for another version or answered 404 or
    // with no status still does not count.
    let report = write(
        "report.jsonl",
        format!(
            "{{\"pdf\":\"x\",\"id\":\"2402.03791\",\"version\":3,\"status\":\"injected\",\"number\":\"{n}\",\"sha1\":\"{sha1}\"}}\n"
        ),
    );
    for (name, text, why) in [
        (
            "v2",
            cdx(
                "https://arxiv.org/pdf/2402.03791v2",
                "20240301080910",
                "200",
                &sha1,
            ),
            "is arXiv:2402.03791v3, not arXiv:2402.03791v2",
        ),
        ("404", cdx(URL, "20240301080910", "404", &sha1), "HTTP 404"),
        (
            "revisit",
            cdx(URL, "20240301080910", "-", &sha1),
            "does not state the Archive's HTTP status",
        ),
        (
            "early",
            cdx(URL, "20231231235959", "200", &sha1),
            "before arXiv:2402.03791v3 existed",
        ),
    ] {
        let f = write(&format!("{name}.cdx"), text);
        let (code, json) = verify_json(&plain, &[&f, &report]);
        assert_eq!(code, 1, "{name}: {json}");
        assert!(first(&json).1.contains(why), "{name}: {json}");
    }
}

#[test]
fn a_cdx_server_listing_other_urls_earns_nothing() {
    let dir = tmpdir();
    let pdf = numbered(dir.path());
    let digest = pith::capture::sha1_base32(&std::fs::read(&pdf).unwrap());
    // Asked for v3, the stand-in answers rows for another paper, another version and a URL off
    // arXiv, each with the file's digest.
    let rows: String = [
        "https://arxiv.org/pdf/2412.14374v1",
        "https://arxiv.org/pdf/2402.03791v2",
        "https://example.org/pdf/2402.03791v3",
    ]
    .iter()
    .map(|u| {
        format!(
            ",[\"k\",\"20240301080910\",\"{u}\",\"application/pdf\",\"200\",\"{digest}\",\"1\"]"
        )
    })
    .collect();
    let body = format!(
        "[[\"urlkey\",\"timestamp\",\"original\",\"mimetype\",\"statuscode\",\"digest\",\"length\"]{rows}]"
    );
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let cache = tmpdir();
    let o = pith()
        .env("PITH_WAYBACK_URL", server.url())
        .env("PITH_CACHE_DIR", cache.path())
        .arg("verify")
        .arg(&pdf)
        .args(["--capture", URL, "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(1), "{json}");
    let caps = json["captures"].as_array().unwrap();
    assert_eq!(caps.len(), 3);
    for c in caps {
        assert_eq!(c["same"], true);
        assert_eq!(c["verdict"]["stored"], false, "{c}");
        assert!(
            c["refused"]
                .as_str()
                .unwrap()
                .contains("is not arXiv:2402.03791v3's PDF URL"),
            "{c}"
        );
    }
}
