//! The headers every answer of `pith serve` carries and the kind each refusal names, and no
//! URL taken from the `Host` header.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

use crate::attacks::{ask, upload};
use crate::common::{self, code, vectors, Fixture, Server};

#[test]
fn no_url_is_taken_from_the_host_header() {
    let f = Fixture::new();
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    let evil = [("Host", "evil.example")];
    let html = [("Host", "evil.example"), ("Accept", "text/html")];
    // Without --base-url: no sitemap (its URLs must be absolute), pages relative.
    let s = Server::start(&f.index, &[]);
    for p in ["/sitemap.xml", "/sitemap/0.xml", "/sitemap/1.xml"] {
        let r = s.get(p, &evil);
        assert_eq!(r.status, 404, "{p}: {}", r.text());
        assert!(!r.text().contains("evil"), "{p}: {}", r.text());
    }
    for (p, h) in [
        (format!("/pith/{c}"), &html[..]),
        (format!("/pith/{c}.json"), &evil[..]),
        ("/".to_owned(), &html[..]),
        ("/verify".to_owned(), &html[..]),
        ("/nothing".to_owned(), &html[..]),
        (
            format!(
                "/arxiv/{}",
                vectors()[0]["canonical_record"]["source"]["id"]
                    .as_str()
                    .unwrap()
            ),
            &evil[..],
        ),
    ] {
        let r = s.get(&p, h);
        assert!(!r.text().contains("evil"), "{p}: {}", r.text());
        assert!(
            !r.header("location").unwrap_or("").contains("evil"),
            "{p}: {:?}",
            r.header("location")
        );
    }
    drop(s);
    // With it: that host, whatever the request says.
    let s = Server::start(&f.index, &["--base-url", "https://mirror.example.org"]);
    for p in [
        "/sitemap.xml".to_owned(),
        "/sitemap/1.xml".to_owned(),
        format!("/pith/{c}"),
    ] {
        let r = s.get(&p, &html);
        assert_eq!(r.status, 200, "{p}: {}", r.text());
        assert!(!r.text().contains("evil"), "{p}");
        assert!(
            r.text().contains("https://mirror.example.org/"),
            "{p}: {}",
            r.text()
        );
    }
}

#[test]
fn every_answer_carries_its_headers_and_each_refusal_its_kind() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &["--max-upload", "1000"]);
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    // HTML answers, errors included: the policy, no referrer, no sniffing.
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/nothing-here"),
        ("GET", "/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA"),
        ("GET", "/verify"),
        ("DELETE", &format!("/pith/{c}") as &str),
    ] {
        let r = ask(&s, method, path, "text/html");
        if r.header("content-type")
            .is_some_and(|t| t.starts_with("text/html"))
        {
            assert!(
                r.header("content-security-policy").is_some(),
                "{path}: {:?}",
                r.headers
            );
            assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{path}");
        }
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
    }
    // The search redirect depends on the index: it says no-cache, not a minute.
    let r = s.get(&format!("/?q={c}"), &[("Accept", "text/html")]);
    assert_eq!(r.status, 303);
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    // One body rule for every route but /verify.
    for path in ["/", "/healthz", "/nothing-here"] {
        let r = s.raw(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(r.status, 413, "{path}");
    }
    // A client that half-closes after its request is answered.
    let mut h = TcpStream::connect(&s.addr).unwrap();
    h.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    h.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    h.shutdown(Shutdown::Write).unwrap();
    let mut b = Vec::new();
    let _ = h.read_to_end(&mut b);
    assert!(
        b.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&b)
    );
    // Each upload failure: its kind, its status, nosniff on the JSON.
    let post = |extra: &str, body: &[u8], close: bool| {
        let mut t = TcpStream::connect(&s.addr).unwrap();
        t.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let head = format!("POST /verify HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n{extra}Connection: close\r\n\r\n");
        let _ = t.write_all(head.as_bytes());
        let _ = t.write_all(body);
        if close {
            let _ = t.shutdown(Shutdown::Write);
        }
        let mut b = Vec::new();
        let _ = t.read_to_end(&mut b);
        let text = String::from_utf8_lossy(&b).into_owned();
        let status: u16 = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_owned();
        let kind = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["kind"].as_str().map(str::to_owned));
        (
            status,
            kind,
            text.to_ascii_lowercase()
                .contains("x-content-type-options: nosniff"),
        )
    };
    let form = "--B\r\nContent-Disposition: form-data; name=\"pdf\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.4 whatever";
    // What, extra header lines, body, whether the client then shuts its side, status, kind.
    type Case<'a> = (&'a str, String, Vec<u8>, bool, u16, &'a str);
    let cases: Vec<Case> = vec![
        (
            "malformed form",
            "Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 20\r\n".into(),
            b"this is not a form!!".to_vec(),
            false,
            400,
            "malformed_form",
        ),
        (
            "cut off",
            "Content-Type: application/pdf\r\nContent-Length: 900\r\n".into(),
            b"%PDF-1.4 only the start".to_vec(),
            true,
            400,
            "cut_off",
        ),
        (
            "form cut off",
            format!(
                "Content-Type: multipart/form-data; boundary=B\r\nContent-Length: {}\r\n",
                form.len() + 100
            ),
            form.as_bytes().to_vec(),
            true,
            400,
            "cut_off",
        ),
        (
            "too large",
            "Content-Type: application/pdf\r\nContent-Length: 2000\r\n".into(),
            vec![b'%'; 2000],
            false,
            413,
            "too_large",
        ),
        (
            "not a PDF",
            "Content-Type: application/pdf\r\nContent-Length: 5\r\n".into(),
            b"hello".to_vec(),
            false,
            422,
            "not_pdf",
        ),
    ];
    for (what, extra, body, close, status, kind) in cases {
        let (st, k, nosniff) = post(&extra, &body, close);
        assert_eq!((st, k.as_deref()), (status, Some(kind)), "{what}");
        assert!(nosniff, "{what}: no nosniff");
    }
    // An encrypted PDF: its own kind for scripts too, as the docs say.
    let big = Server::start(&f.index, &[]);
    let pdf =
        std::fs::read(common::root().join("tests/fixtures/encrypted/r4-aes128-user-password.pdf"))
            .unwrap();
    let (status, _) = upload(&big.addr, &pdf);
    let r = {
        let mut t = TcpStream::connect(&big.addr).unwrap();
        let head = format!("POST /verify HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", pdf.len());
        t.write_all(head.as_bytes()).unwrap();
        t.write_all(&pdf).unwrap();
        let mut b = Vec::new();
        let _ = t.read_to_end(&mut b);
        String::from_utf8_lossy(&b).into_owned()
    };
    assert_eq!(status, 422, "{r}");
    // The library's kind, as `pith verify --json` prints it and Python raises it.
    assert!(r.contains("\"kind\":\"password\""), "{r}");
}
