//! The record routes for the published vectors, against `pith serve` on 127.0.0.1: records,
//! redirects and aliases, bundles, the sitemap and the export. The badge routes (`badges`),
//! what clients read from a record (`readers`) and versions (`versions`) have modules of
//! their own.

use serde_json::Value;

use crate::common::{self, code, have_tool, run, vectors, Fixture, Server};

#[test]
fn records_redirects_and_aliases_for_every_vector() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    for v in vectors() {
        let number = v["pith_number"].as_str().unwrap();
        let c = code(number);
        // The record, as /pith/<26>.json and as JSON-LD by Accept.
        let json = s.get(&format!("/pith/{c}.json"), &[]);
        assert_eq!(json.status, 200, "{c}: {}", json.text());
        assert_eq!(json.header("content-type"), Some("application/json"));
        let ld = s.get(&format!("/pith/{c}"), &[("Accept", "application/ld+json")]);
        assert_eq!(ld.status, 200);
        assert_eq!(ld.header("content-type"), Some("application/ld+json"));
        assert_eq!(ld.body, json.body);
        let doc = ld.json();
        assert_eq!(doc["canonical_record"], v["canonical_record"], "{c}");
        assert_eq!(doc["pith_number"], v["pith_number"]);
        assert_eq!(doc["canonical_sha256"], v["canonical_sha256"]);
        // The resolver client reads it as pith.science's answer.
        let r = pith::net::resolver::read_record(&json.body).unwrap();
        assert_eq!(r.record.number().to_string(), number);
        // arXiv ids: the latest version and the version named.
        let id = v["canonical_record"]["source"]["id"].as_str().unwrap();
        let version = v["canonical_record"]["source"]["version"].as_u64().unwrap();
        for path in [format!("/arxiv/{id}"), format!("/arxiv/{id}v{version}")] {
            let r = s.get(&path, &[]);
            assert_eq!(r.status, 303, "{path}");
            assert_eq!(
                r.header("location"),
                Some(format!("/pith/{c}").as_str()),
                "{path}"
            );
        }
        // Short aliases and a lower-case code.
        for len in [8, 12, 16] {
            let r = s.get(&format!("/pith/{}", &c[..len]), &[]);
            assert_eq!(r.status, 303, "{c} {len}");
            assert_eq!(r.header("location"), Some(format!("/pith/{c}").as_str()));
        }
        let r = s.get(&format!("/pith/{}.json", c.to_lowercase()), &[]);
        assert_eq!(r.status, 301);
        assert_eq!(
            r.header("location"),
            Some(format!("/pith/{c}.json").as_str())
        );
    }
    // An older version than the one indexed, and an unknown id: 404 in JSON.
    let r = s.get("/arxiv/2402.03791v1", &[("Accept", "application/json")]);
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["kind"], "not_found");
    assert!(r.json()["error"].as_str().unwrap().contains("2402.03791v1"));
    assert_eq!(s.get("/arxiv/2402.99999", &[]).status, 404);
}

#[test]
fn the_record_pages_recipe_gives_the_canonical_hash() {
    let t = "the_record_pages_recipe_gives_the_canonical_hash";
    if !(have_tool("curl", t) && have_tool("jq", t) && have_tool("python3", t)) {
        return;
    }
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    for v in vectors() {
        let c = code(v["pith_number"].as_str().unwrap());
        // SPEC's recipe, word for word, with this server's URL.
        let script = format!(
            "curl -sH 'Accept: application/ld+json' {}/pith/{c} \
             | jq -c '.canonical_record' \
             | python3 -c \"import sys,json,hashlib; b=json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(',',':'), ensure_ascii=False).encode(); print(hashlib.sha256(b).hexdigest())\"",
            s.url
        );
        let r = run("sh".as_ref(), &["-c", &script], &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout.trim(),
            v["canonical_sha256"].as_str().unwrap(),
            "{c}"
        );
    }
}

#[test]
fn bundles_state_etags_cors_and_404s() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let all = vectors();
    let first = code(all[0]["pith_number"].as_str().unwrap());
    let second = code(all[1]["pith_number"].as_str().unwrap());
    let b = s.get(&format!("/pith/{first}/bundle.json"), &[]);
    assert_eq!(b.status, 200);
    let bundle = b.json();
    assert_eq!(bundle["bundle_type"], "pith_open_graph_bundle");
    let state = s.get(&format!("/pith/{first}/state.json"), &[]).json();
    assert_eq!(state["status"], "verified");
    assert_eq!(state["receipt_verified"], true);
    assert_eq!(state["event_count"], 1);
    let ld = s.get(&format!("/pith/{first}.json"), &[]).json();
    assert_eq!(ld["status"], "verified");
    assert_eq!(ld["status_flags"]["receipt_verified"], true);
    assert_eq!(
        s.get(&format!("/pith/{second}/bundle.json"), &[]).status,
        404
    );
    assert_eq!(
        s.get(&format!("/pith/{second}/state.json"), &[]).status,
        404
    );
    assert_eq!(s.get(&format!("/pith/{first}/other.json"), &[]).status, 404);

    // ETag and 304, Cache-Control, CORS, on JSON, JSON-LD and SVG.
    for path in [
        format!("/pith/{first}.json"),
        format!("/badge/{first}.svg"),
        format!("/badge/{first}.json"),
        format!("/pith/{first}/bundle.json"),
    ] {
        let r = s.get(&path, &[]);
        assert_eq!(r.status, 200, "{path}");
        let etag = r
            .header("etag")
            .unwrap_or_else(|| panic!("{path}: no ETag"));
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        assert!(r
            .header("cache-control")
            .is_some_and(|c| c.contains("max-age")));
        assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{path}");
        let again = s.get(&path, &[("If-None-Match", etag)]);
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag));
        let other = s.get(&path, &[("If-None-Match", "\"something-else\"")]);
        assert_eq!(other.status, 200);
    }
    // Unknown numbers: 404 in JSON, or HTML for a browser; both with ETag and Cache-Control.
    let missing = "/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA";
    let j = s.get(missing, &[("Accept", "application/json")]);
    assert_eq!(j.status, 404);
    assert_eq!(j.json()["kind"], "not_found");
    assert!(j.header("etag").is_some() && j.header("cache-control").is_some());
    let h = s.get(missing, &[("Accept", "text/html,application/xhtml+xml")]);
    assert_eq!(h.status, 404);
    assert!(h.header("content-type").unwrap().starts_with("text/html"));
    assert!(h.text().contains("AAAAAAAAAAAAAAAAAAAAAAAAAA"));
    let health = s.get("/healthz", &[]);
    assert_eq!(health.status, 200);
    assert!(health.text().starts_with("ok "), "{}", health.text());
    // HEAD: the headers of GET, no body.
    let head = s.raw(
        format!("HEAD /pith/{first}.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    // A HEAD first is not kept as the answer to the GETs after it.
    let path = format!("/badge/{second}.svg?full=1");
    let head =
        s.raw(format!("HEAD {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes());
    assert_eq!((head.status, head.body.len()), (200, 0));
    let get = s.get(&path, &[]);
    assert!(get.text().starts_with("<svg"), "{}", get.text());
    assert_eq!(get.header("content-length"), head.header("content-length"));
    let _: Value = ld;
}

#[test]
fn pith_verify_passes_against_the_server() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let v = &vectors()[0];
    let number = v["pith_number"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("numbered.pdf");
    common::inject(number, &pdf);
    crate::export::verify_with_resolver(&s.url, &pdf, number, &f.key);
}

#[test]
fn the_sitemap_names_every_record_page() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &["--base-url", "https://mirror.example.org"]);
    let index = s.get("/sitemap.xml", &[]);
    assert_eq!(index.status, 200);
    assert_eq!(
        index.header("content-type"),
        Some("application/xml; charset=utf-8")
    );
    let text = index.text();
    assert!(text.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    assert!(
        text.contains("<loc>https://mirror.example.org/sitemap/1.xml</loc>"),
        "{text}"
    );
    let pages = s.get("/sitemap/1.xml", &[]).text();
    for v in vectors() {
        let c = code(v["pith_number"].as_str().unwrap());
        assert!(
            pages.contains(&format!("<loc>https://mirror.example.org/pith/{c}</loc>")),
            "{c}: {pages}"
        );
    }
    assert!(s
        .get("/sitemap/0.xml", &[])
        .text()
        .contains("<loc>https://mirror.example.org/</loc>"));
    assert_eq!(s.get("/sitemap/2.xml", &[]).status, 404);
    assert_eq!(s.get("/sitemap/x.xml", &[]).status, 404);
    if have_tool("xmllint", "routes::the_sitemap_names_every_record_page") {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in [("index.xml", text.as_str()), ("1.xml", pages.as_str())] {
            let p = dir.path().join(name);
            std::fs::write(&p, body).unwrap();
            let r = run("xmllint".as_ref(), &["--noout", p.to_str().unwrap()], &[]);
            assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        }
    }
}

#[test]
fn the_export_writes_the_citations_concept_badges_and_sitemap_the_server_answers() {
    let f = Fixture::new();
    let out = f.dir.path().join("site");
    let base = "https://mirror.example.org";
    let r = common::export(&f.index, &out, &["--base-url", base]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = Server::start(&f.index, &["--base-url", base]);
    let mut files = vec![
        ("sitemap.xml".to_owned(), "/sitemap.xml".to_owned()),
        ("sitemap/0.xml".into(), "/sitemap/0.xml".into()),
        ("sitemap/1.xml".into(), "/sitemap/1.xml".into()),
    ];
    for v in vectors() {
        let c = code(v["pith_number"].as_str().unwrap());
        let id = v["canonical_record"]["source"]["id"].as_str().unwrap();
        for ext in [".bib", ".csl.json", ".ris"] {
            files.push((format!("pith/{c}{ext}"), format!("/pith/{c}{ext}")));
        }
        for ext in ["svg", "json"] {
            files.push((
                format!("badge/arxiv/{id}.{ext}"),
                format!("/badge/arxiv/{id}.{ext}"),
            ));
        }
    }
    for (file, route) in files {
        let served = s.get(&route, &[]);
        assert_eq!(served.status, 200, "{route}");
        let written = std::fs::read(out.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(written, served.body, "{file}");
    }
}
