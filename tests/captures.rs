//! Internet Archive captures: WARC files written by warcio (plain, chunked, gzip bodies, one
//! tampered), CDX lines with right and wrong digests, and the CDX API on a 127.0.0.1 stand-in,
//! checked by `pith verify PDF --capture …`; warcio reads back what pith accepted and refused.
//! A capture counts only by the evidence rule: the version's own PDF URL, HTTP 200, dated
//! after the version, and a PDF pith read and recognised as the version.

use std::path::{Path, PathBuf};

use crate::common::http::{Reply, Server};
use crate::common::{self, fixture, pith, tmpdir};

const URL: &str = "https://arxiv.org/pdf/2402.03791v3";

/// Writes `out` with warcio: one response record per `(kind, body)`, `kind` being `plain`,
/// `chunked`, `gzip` or `tampered` (a plain record whose payload is changed after warcio
/// wrote its digest; only in a plain file). `gz`: gzip per record, as crawlers write them.
fn warc(out: &Path, pdf: &Path, kinds: &[&str], gz: bool) -> bool {
    let script = r#"
import sys, io, gzip
from warcio.warcwriter import WARCWriter
from warcio.statusandheaders import StatusAndHeaders
out, pdf, gz, kinds = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4].split(",")
body = open(pdf, "rb").read()
buf = io.BytesIO()
w = WARCWriter(buf, gzip=gz)
for kind in kinds:
    headers = [("Content-Type", "application/pdf")]
    payload = body
    if kind == "chunked":
        headers.append(("Transfer-Encoding", "chunked"))
        half = len(body) // 2
        payload = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (half, body[:half], len(body) - half, body[half:])
    if kind == "gzip":
        headers.append(("Content-Encoding", "gzip"))
        payload = gzip.compress(body)
    http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
    rec = w.create_warc_record("https://arxiv.org/pdf/2402.03791v3", "response",
                               payload=io.BytesIO(payload), http_headers=http)
    w.write_record(rec)
data = buf.getvalue()
if "tampered" in kinds:
    # One byte of the last payload changed: the record's digest no longer holds.
    i = data.rfind(b"%%EOF")
    data = data[:i] + b"%%EOG" + data[i + 5:]
open(out, "wb").write(data)
"#;
    let (ok, _, err) = common::run(
        "python3",
        &[
            "-c",
            script,
            &out.display().to_string(),
            &pdf.display().to_string(),
            if gz { "1" } else { "0" },
            &kinds.join(","),
        ],
        None,
    );
    assert!(ok, "warcio: {err}");
    ok
}

/// What warcio's own checker says of a WARC's digests: true when they all hold.
fn warcio_digests_hold(file: &Path) -> bool {
    let script = "import sys\nfrom warcio.cli import main\ntry:\n    main(['check', sys.argv[1]])\nexcept SystemExit as e:\n    sys.exit(e.code or 0)\n";
    common::run(
        "python3",
        &["-c", script, &file.display().to_string()],
        None,
    )
    .0
}

/// The suite's minimal PDF carrying arXiv:2402.03791v3's number and naming the version, as
/// `pith inject --record` writes it.
pub(crate) fn numbered(dir: &Path) -> PathBuf {
    let v: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(common::data("records.json")).unwrap())
            .unwrap();
    assert_eq!(v[0]["canonical_record"]["source"]["id"], "2402.03791");
    let rec = dir.join("record.json");
    std::fs::write(&rec, v[0]["canonical_record"].to_string()).unwrap();
    let out = dir.join("numbered.pdf");
    let o = pith()
        .arg("inject")
        .arg(fixture("minimal.pdf"))
        .arg("--record")
        .arg(&rec)
        .arg("-o")
        .arg(&out)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

fn verify(pdf: &Path, captures: &[&str]) -> (i32, String, String) {
    let mut c = pith();
    c.arg("verify").arg(pdf);
    for s in captures {
        c.args(["--capture", s]);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn warc_records_decide_whether_a_file_is_stored() {
    if !common::have_python_module("warcio", "warc_records_decide_whether_a_file_is_stored") {
        return;
    }
    let dir = tmpdir();
    let pdf = numbered(dir.path());
    let good = dir.path().join("good.warc.gz");
    warc(&good, &pdf, &["plain", "chunked", "gzip"], true);
    let bad = dir.path().join("tampered.warc");
    warc(&bad, &pdf, &["tampered"], false);
    // warcio, not pith, says which digests hold.
    assert!(warcio_digests_hold(&good));
    assert!(!warcio_digests_hold(&bad));

    let (code, out, err) = verify(&pdf, &[&good.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.matches("\nsame ").count() + out.starts_with("same ") as usize,
        3,
        "{out}"
    );
    assert!(out.contains(&format!("STORED: {}", pdf.display())), "{out}");
    assert!(out.contains(&format!("id_/{URL}")), "{out}");

    let (code, out, _) = verify(&pdf, &[&bad.display().to_string()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("refused"), "{out}");
    assert!(out.contains("NOT STORED"), "{out}");

    // Another file is not what the Archive holds, whatever the record.
    let other = dir.path().join("other.pdf");
    let mut bytes = std::fs::read(&pdf).unwrap();
    bytes.extend_from_slice(b"\n% appended\n");
    std::fs::write(&other, bytes).unwrap();
    let (code, out, _) = verify(&other, &[&good.display().to_string()]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.matches("differs").count(), 3, "{out}");
}

#[test]
fn a_warc_bomb_or_garbage_is_one_line_and_exit_2() {
    let dir = tmpdir();
    let pdf = fixture("minimal.pdf");
    // A record claiming 300 MB of content, compressed to a few hundred kilobytes.
    let bomb = dir.path().join("bomb.warc.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {URL}\r\nWARC-Date: 2024-02-07T10:11:12Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
        300u64 << 20
    );
    std::io::Write::write_all(&mut e, head.as_bytes()).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..300 {
        std::io::Write::write_all(&mut e, &zeros).unwrap();
    }
    std::fs::write(&bomb, e.finish().unwrap()).unwrap();
    let junk = dir.path().join("junk.warc");
    std::fs::write(&junk, b"WARC/1.0\r\nno colon here\r\n\r\n").unwrap();
    for (f, why) in [(&bomb, "over the limit"), (&junk, "not a WARC file")] {
        let (code, out, err) = verify(&pdf, &[&f.display().to_string()]);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&f.display().to_string()) && err.contains(why),
            "{err}"
        );
    }
}

fn sha1_base32(p: &Path) -> String {
    // Python's hashlib and base64, not pith's, make the digest the lines state.
    let (ok, out, err) = common::run(
        "python3",
        &[
            "-c",
            "import sys,hashlib,base64;print(base64.b32encode(hashlib.sha1(open(sys.argv[1],'rb').read()).digest()).decode())",
            &p.display().to_string(),
        ],
        None,
    );
    assert!(ok, "{err}");
    out.trim().to_owned()
}

#[test]
fn cdx_lines_match_by_digest() {
    let dir = tmpdir();
    let pdf = numbered(dir.path());
    let right = sha1_base32(&pdf);
    let wrong = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let line = |d: &str| {
        format!("org,arxiv)/pdf/2402.03791v3 20240207101112 {URL} application/pdf 200 {d} 4321\n")
    };
    let good = dir.path().join("good.cdx");
    std::fs::write(&good, line(wrong) + &line(&right)).unwrap();
    let (code, out, _) = verify(&pdf, &[&good.display().to_string()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2024-02-07T10:11:12Z"), "{out}");
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        format!(
            "[[\"urlkey\",\"timestamp\",\"original\",\"mimetype\",\"statuscode\",\"digest\",\"length\"],\
             [\"k\",\"20240207101112\",\"{URL}\",\"application/pdf\",\"200\",\"{wrong}\",\"1\"]]"
        ),
    )
    .unwrap();
    let (code, out, _) = verify(&pdf, &[&bad.display().to_string()]);
    assert_eq!(code, 1, "{out}");
}

/// `pith verify PDF --capture URL`, asking the CDX API at `server` and caching its answers in
/// `cache`.
fn verify_asking(server: &Server, cache: &Path, pdf: &Path) -> std::process::Output {
    pith()
        .env("PITH_WAYBACK_URL", server.url())
        .env("PITH_CACHE_DIR", cache)
        .env("PITH_OTS_SPACING_MS", "0")
        .args(["verify"])
        .arg(pdf)
        .args(["--capture", URL])
        .output()
        .unwrap()
}

#[test]
fn the_cdx_api_is_asked_once_then_cached() {
    let dir = tmpdir();
    let pdf = numbered(dir.path());
    let digest = sha1_base32(&pdf);
    let body = format!(
        "[[\"urlkey\",\"timestamp\",\"original\",\"mimetype\",\"statuscode\",\"digest\",\"length\"],\
         [\"org,arxiv)/pdf/2402.03791v3\",\"20240207101112\",\"{URL}\",\"application/pdf\",\"200\",\"{digest}\",\"1\"]]"
    );
    let server = Server::start(move |_, _| Reply::ok(body.clone()));
    let cache = tmpdir();
    let run = || {
        let o = verify_asking(&server, cache.path(), &pdf);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, out) = run();
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(server.requests().len(), 1);
    let asked = &server.requests()[0].target;
    assert!(
        asked.starts_with("/cdx/search/cdx?url=https://arxiv.org/pdf/2402.03791v3&output=json"),
        "{asked}"
    );
    let (code, _) = run();
    assert_eq!(code, Some(0));
    assert_eq!(server.requests().len(), 1, "the second run asks nothing");
}

/// An answer that does not parse (cut short, or listing more rows than were asked for) is an
/// error and is never cached: the next run asks again, and no file is left in the cache.
#[test]
fn a_malformed_cdx_answer_is_never_cached() {
    let pdf = fixture("minimal.pdf");
    let row = format!(
        ",[\"k\",\"20240207101112\",\"{URL}\",\"application/pdf\",\"200\",\"{}\",\"1\"]",
        sha1_base32(&pdf)
    );
    let legend = "[[\"urlkey\",\"timestamp\",\"original\",\"mimetype\",\"statuscode\",\"digest\",\"length\"]";
    for body in [
        format!("{legend}{row}"),
        format!(
            "{legend}{}]",
            row.repeat(pith::net::wayback::MAX_CAPTURES + 1)
        ),
    ] {
        let server = Server::start(move |_, _| Reply::ok(body.clone()));
        let cache = tmpdir();
        let run = || verify_asking(&server, cache.path(), &pdf);
        for asked in 1..=2 {
            let o = run();
            assert_eq!(o.status.code(), Some(2), "{o:?}");
            assert_eq!(server.requests().len(), asked, "asked again, never cached");
        }
        let kept = walk_files(cache.path());
        // The answers' folder (`wayback/`) holds nothing; the spacing gate's lock may stay.
        assert!(
            !kept
                .iter()
                .any(|p| p.parent().and_then(|d| d.file_name()) == Some("wayback".as_ref())),
            "{kept:?}"
        );
    }
}

fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}
