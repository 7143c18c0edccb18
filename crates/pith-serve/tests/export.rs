//! `pith serve INDEX --export DIR`: the routes as static files, served by a plain static server.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use pith_serve::index::Index;

use crate::common::{self, code, have_tool, run, vectors, Fixture, Server};

/// `pith verify PDF` against the resolver at `url`: passes (and with `key`, the receipt
/// verifies); a PDF carrying a number the resolver lacks fails.
pub fn verify_with_resolver(url: &str, pdf: &Path, number: &str, key: &str) {
    let cache = tempfile::tempdir().unwrap();
    let env = [
        ("PITH_RESOLVER_URL", url),
        ("PITH_CACHE_DIR", cache.path().to_str().unwrap()),
        ("PITH_RESOLVER_SPACING_MS", "0"),
    ];
    let p = pdf.to_str().unwrap();
    let r = run(&common::pith(), &["verify", p], &env);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(number), "{}", r.stdout);
    let r = run(
        &common::pith(),
        &["verify", p, "--key", key, "--json", "--refresh"],
        &env,
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "verified", "{v}");
    // A number this resolver has no record of is a failed check.
    let other = pdf.with_file_name("unknown.pdf");
    common::inject("pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA", &other);
    let r = run(&common::pith(), &["verify", other.to_str().unwrap()], &env);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
}

#[test]
fn export_holds_the_servers_bytes_and_pith_verify_passes_on_a_static_host() {
    let t = "export_holds_the_servers_bytes_and_pith_verify_passes_on_a_static_host";
    let f = Fixture::new();
    let out = f.dir.path().join("site");
    let r = common::export(&f.index, &out, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = Server::start(&f.index, &[]);
    let all = vectors();
    for v in &all {
        let c = code(v["pith_number"].as_str().unwrap());
        for (file, route) in [
            (format!("pith/{c}.json"), format!("/pith/{c}.json")),
            (format!("badge/{c}.svg"), format!("/badge/{c}.svg")),
            (format!("badge/{c}.pdf"), format!("/badge/{c}.pdf")),
            (
                format!("badge/{c}-dark.svg"),
                format!("/badge/{c}-dark.svg"),
            ),
            (format!("badge/{c}.json"), format!("/badge/{c}.json")),
        ] {
            let bytes = std::fs::read(out.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(
                bytes == s.get(&route, &[]).body,
                "{file} differs from {route}"
            );
        }
        let id = v["canonical_record"]["source"]["id"].as_str().unwrap();
        let stub = std::fs::read_to_string(out.join(format!("arxiv/{id}/index.html"))).unwrap();
        assert!(stub.contains(&format!("url=/pith/{c}\"")), "{stub}");
        let alias =
            std::fs::read_to_string(out.join(format!("pith/{}/index.html", &c[..8]))).unwrap();
        assert!(alias.contains(&format!("/pith/{c}")));
    }
    let first = code(all[0]["pith_number"].as_str().unwrap());
    assert!(out.join(format!("pith/{first}/bundle.json")).is_file());
    assert!(out.join(format!("pith/{first}/state.json")).is_file());
    drop(s);

    if !have_tool("python3", t) {
        return;
    }
    // Python's static file server, on a free port it reports.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut http = Command::new("python3")
        .args([
            "-u",
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            &port.to_string(),
        ])
        .current_dir(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(http.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("Serving HTTP"), "{line}");
    let number = all[0]["pith_number"].as_str().unwrap();
    let pdf = f.dir.path().join("numbered.pdf");
    common::inject(number, &pdf);
    verify_with_resolver(&format!("http://127.0.0.1:{port}"), &pdf, number, &f.key);
    let _ = http.kill();
    let _ = http.wait();
}

#[test]
fn the_export_holds_the_pages_and_says_what_needs_the_server() {
    let index = Index::open(common::snapshot_index()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    pith_serve::export::export(
        &index,
        dir.path(),
        "https://mirror.example.org",
        &mut |_| {},
    )
    .unwrap();
    let read = |rel: &str| std::fs::read_to_string(dir.path().join(rel)).unwrap();
    let home = read("index.html");
    assert!(home.contains("it has no search"), "{home}");
    assert!(
        !home.contains("For example"),
        "no search examples without a search: {home}"
    );
    assert!(
        home.contains("A static copy of a <code>pith serve</code> index"),
        "{home}"
    );
    assert!(
        !home.contains("<form"),
        "a static copy cannot search: {home}"
    );
    let verify = read("verify/index.html");
    assert!(verify.contains("cannot take a file"), "{verify}");
    assert!(
        verify.contains("PITH_RESOLVER_URL=https://mirror.example.org pith verify paper.pdf"),
        "{verify}"
    );
    assert!(!verify.contains("Choose a PDF"), "{verify}");
    assert!(!verify.contains("<form"), "{verify}");
    let record = read("pith/7BMK4ZKTPUTUY3JKWBANNPOFR5/index.html");
    assert!(record.contains("ZeroPP"));
    assert!(record.contains("https://mirror.example.org/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5.json \\"));
    // Only the badge the export writes is offered, with its absolute URL.
    assert!(record.contains("https://mirror.example.org/badge/7BMK4ZKTPUTUY3JKWBANNPOFR5.svg"));
    assert!(!record.contains("style=flat-square"), "{record}");
    let css = pith_serve::assets::CSS.path();
    assert!(home.contains(&format!("/{css}")));
    assert_eq!(
        std::fs::read(dir.path().join(&css)).unwrap(),
        pith_serve::assets::CSS.bytes
    );
}
