//! Every route for the published vectors, against `pith serve` on 127.0.0.1.

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

/// `pith badge`'s bytes for these arguments.
fn pith_badge(args: &[&str]) -> Vec<u8> {
    let o = std::process::Command::new(common::pith())
        .arg("badge")
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn badges_are_pith_badges_bytes_with_the_records_status() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let all = vectors();
    for (i, v) in all.iter().enumerate() {
        let number = v["pith_number"].as_str().unwrap();
        let c = code(number);
        // The first vector's bundle carries a receipt signed with the key the index was given:
        // `pith badge` finds "verified" in it with that key.
        let status = if i == 0 { "verified" } else { "computed" };
        let bundle_file = f.dir.path().join("bundles/first.json");
        let look: Vec<String> = if i == 0 {
            vec![
                "--bundle".into(),
                bundle_file.display().to_string(),
                "--key".into(),
                f.key.clone(),
            ]
        } else {
            vec!["--status".into(), "computed".into()]
        };
        for (query, args) in [
            ("", vec![]),
            ("?full=1", vec!["--full"]),
            ("?style=flat-square", vec!["--style", "flat-square"]),
            ("?qr=1", vec!["--qr"]),
            (
                "?qr_module=4&full=true",
                vec!["--qr", "--qr-module", "4", "--full"],
            ),
        ] {
            let r = s.get(&format!("/badge/{c}.svg{query}"), &[]);
            assert_eq!(r.status, 200, "{c}{query}: {}", r.text());
            assert_eq!(r.header("content-type"), Some("image/svg+xml"));
            let mut want: Vec<&str> = look.iter().map(String::as_str).collect();
            want.extend(args);
            want.push(number);
            assert!(
                r.body == pith_badge(&want),
                "{c}{query}: bytes differ from pith badge {want:?}"
            );
        }
        let shields = s.get(&format!("/badge/{c}.json"), &[]).json();
        assert_eq!(shields["schemaVersion"], 1);
        assert_eq!(shields["message"], format!("{} {status}", &c[..8]));
    }
    let c = code(all[0]["pith_number"].as_str().unwrap());
    for bad in [
        "?style=plastic",
        "?full=maybe",
        "?qr_module=99",
        "?qr_module=x",
    ] {
        let r = s.get(&format!("/badge/{c}.svg{bad}"), &[]);
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
    }
    assert_eq!(
        s.get("/badge/AAAAAAAAAAAAAAAAAAAAAAAAAA.svg", &[]).status,
        404
    );
    assert_eq!(s.get(&format!("/badge/{c}.png"), &[]).status, 404);
}

/// shields.io's endpoint schema (https://shields.io/badges/endpoint-badge), as JSON Schema.
const SHIELDS_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["schemaVersion", "label", "message"],
  "properties": {
    "schemaVersion": {"const": 1},
    "label": {"type": "string"},
    "message": {"type": "string", "minLength": 1},
    "color": {"type": "string"},
    "labelColor": {"type": "string"},
    "isError": {"type": "boolean"},
    "namedLogo": {"type": "string"},
    "logoSvg": {"type": "string"},
    "logoColor": {"type": "string"},
    "logoWidth": {"type": "number"},
    "style": {"enum": ["plastic", "flat", "flat-square", "for-the-badge", "social"]},
    "cacheSeconds": {"type": "integer", "minimum": 300}
  },
  "additionalProperties": false
}"#;

#[test]
fn the_shields_document_validates() {
    let t = "the_shields_document_validates";
    if !have_tool("python3", t) {
        return;
    }
    let ok = std::process::Command::new("python3")
        .args(["-c", "import jsonschema"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            !common::tools_required(),
            "python3 module jsonschema is missing"
        );
        common::skips::skip(t, "python3 module jsonschema not installed");
        return;
    }
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.json");
    std::fs::write(&schema, SHIELDS_SCHEMA).unwrap();
    for v in vectors().iter().take(3) {
        let c = code(v["pith_number"].as_str().unwrap());
        for q in ["", "?full=1"] {
            let doc = dir.path().join("doc.json");
            std::fs::write(&doc, s.get(&format!("/badge/{c}.json{q}"), &[]).body).unwrap();
            let r = run(
                "python3".as_ref(),
                &[
                    "-c",
                    "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1]))); \
                     c=json.load(open(sys.argv[2]))['color']; assert len(c)==6 and int(c,16)>=0, c",
                    schema.to_str().unwrap(),
                    doc.to_str().unwrap(),
                ],
                &[],
            );
            assert_eq!(r.code, 0, "{c}{q}: {}", r.stderr);
        }
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

/// Whether Python can import `module`; a SKIP line (or a failure under `PITH_REQUIRE_TOOLS=1`)
/// when it cannot.
fn have_python_module(module: &str, test: &str) -> bool {
    if !have_tool("python3", test) {
        return false;
    }
    let ok = std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            !common::tools_required(),
            "{test}: Python module {module} is missing (PITH_REQUIRE_TOOLS=1)"
        );
        common::skips::skip(test, &format!("Python module {module} not installed"));
    }
    ok
}

/// Runs `python3 -c script` with `input` on its standard input; its standard output.
fn python(script: &str, input: &[u8]) -> String {
    pith_testkit::python(script, input).unwrap_or_else(|e| panic!("{script}: {e}"))
}

#[test]
fn the_record_url_answers_each_client_in_the_form_it_prefers() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    let path = format!("/pith/{c}");
    let html = "text/html; charset=utf-8";
    // What does not prefer JSON gets the page, as DOI resolvers answer: curl, Zotero's
    // translation server and link previewers send */* or nothing.
    for accept in [
        None,
        Some("*/*"),
        Some("text/html"),
        Some("text/html, application/ld+json;q=0"),
        Some("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
        Some("image/png"),
    ] {
        let headers: Vec<(&str, &str)> = accept.iter().map(|a| ("Accept", *a)).collect();
        let r = s.get(&path, &headers);
        assert_eq!(r.status, 200, "{accept:?}");
        assert_eq!(r.header("content-type"), Some(html), "{accept:?}");
        assert_eq!(r.header("vary"), Some("Accept"), "{accept:?}");
        assert!(r.text().contains("<p class=\"number\" id=\"number\">"));
    }
    // What prefers another representation gets it, q-values read.
    let mut etags = std::collections::BTreeSet::new();
    for (accept, ty) in [
        ("application/ld+json", "application/ld+json"),
        (
            "text/html;q=0.5, application/ld+json",
            "application/ld+json",
        ),
        ("application/json", "application/json"),
        (
            "application/x-bibtex",
            "application/x-bibtex; charset=utf-8",
        ),
        (
            "application/vnd.citationstyles.csl+json",
            "application/vnd.citationstyles.csl+json",
        ),
        (
            "application/x-research-info-systems",
            "application/x-research-info-systems; charset=utf-8",
        ),
        ("text/html", html),
    ] {
        let r = s.get(&path, &[("Accept", accept)]);
        assert_eq!(r.status, 200, "{accept}");
        assert_eq!(r.header("content-type"), Some(ty), "{accept}");
        assert_eq!(r.header("vary"), Some("Accept"), "{accept}");
        let etag = r.header("etag").unwrap().to_owned();
        // Each representation its own ETag, and a 304 only for the same one.
        if etags.insert((ty.to_owned(), etag.clone())) {
            let again = s.get(&path, &[("Accept", accept), ("If-None-Match", &etag)]);
            assert_eq!(again.status, 304, "{accept}");
        }
    }
    let distinct: std::collections::BTreeSet<&String> = etags.iter().map(|(_, e)| e).collect();
    assert_eq!(distinct.len(), 6, "{etags:?}");
    // The JSON-LD and the .json are the same bytes under two types, so two ETags.
    let ld = s.get(&path, &[("Accept", "application/ld+json")]);
    let json = s.get(&format!("{path}.json"), &[]);
    assert_eq!(ld.body, json.body);
    assert_ne!(ld.header("etag"), json.header("etag"));
    let cross = s.get(
        &format!("{path}.json"),
        &[("If-None-Match", ld.header("etag").unwrap())],
    );
    assert_eq!(cross.status, 200);
    // The file URLs answer their own type whatever Accept says, with no Vary.
    for (suffix, accept) in [
        (".json", "application/json"),
        (".bib", "application/x-bibtex"),
        (".csl.json", "application/vnd.citationstyles.csl+json"),
        (".ris", "application/x-research-info-systems"),
    ] {
        let by_accept = s.get(&path, &[("Accept", accept)]);
        let file = s.get(&format!("{path}{suffix}"), &[("Accept", "text/html")]);
        assert_eq!(file.status, 200, "{suffix}");
        assert_eq!(file.body, by_accept.body, "{suffix}");
        assert_eq!(file.header("vary"), None, "{suffix}");
        assert_eq!(file.header("access-control-allow-origin"), Some("*"));
    }
    // A short alias keeps the suffix it was asked with.
    let r = s.get(&format!("/pith/{}.bib", &c[..8]), &[]);
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some(format!("{path}.bib").as_str()));
    // Errors too are negotiated, and say so.
    let missing = s.get("/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA", &[]);
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("content-type"), Some("application/json"));
    assert_eq!(missing.header("vary"), Some("Accept"));
    let page = s.get(
        "/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA",
        &[("Accept", "text/html")],
    );
    assert!(page
        .header("content-security-policy")
        .is_some_and(|p| p.starts_with("default-src 'self'")));
}

/// A server on the vectors' index (kept alive by the fixture returned), and the first
/// published vector with its code and its arXiv id.
fn serve_first() -> (Fixture, Server, Value, String, String) {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let v = vectors().swap_remove(0);
    let c = code(v["pith_number"].as_str().unwrap());
    let id = v["canonical_record"]["source"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (f, s, v, c, id)
}

#[test]
fn citations_are_pith_cites_and_other_tools_read_them() {
    let test = "routes::citations_are_pith_cites_and_other_tools_read_them";
    let (_f, s, v, c, id) = serve_first();
    let version = v["canonical_record"]["source"]["version"].as_u64().unwrap();
    let cite = |format: &str| {
        let cache = tempfile::tempdir().unwrap();
        let r = run(
            &common::pith(),
            &["cite", &c, "--format", format],
            &[
                ("PITH_RESOLVER_URL", s.url.as_str()),
                ("PITH_CACHE_DIR", cache.path().to_str().unwrap()),
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let bib = s.get(&format!("/pith/{c}.bib"), &[]).text();
    let csl = s.get(&format!("/pith/{c}.csl.json"), &[]).text();
    let ris = s.get(&format!("/pith/{c}.ris"), &[]).text();
    // `pith cite` against this mirror (its record JSON, title and authors) prints the same.
    assert_eq!(bib, cite("bibtex"));
    assert_eq!(csl, cite("csl-json"));
    assert_eq!(ris, cite("ris"));
    assert!(bib.contains(&format!("{id}v{version}")), "{bib}");
    if have_python_module("bibtexparser", test) {
        let out = python(
            "import sys, json, bibtexparser\n\
             lib = bibtexparser.parse_string(sys.stdin.read())\n\
             e = lib.entries[0]\n\
             print(json.dumps({k: e.fields_dict[k].value for k in ('eprint', 'doi', 'archivePrefix')}))",
            bib.as_bytes(),
        );
        let got: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(got["eprint"], format!("{id}v{version}"), "{got}");
        assert_eq!(got["doi"], format!("10.48550/arXiv.{id}"), "{got}");
        assert_eq!(got["archivePrefix"], "arXiv", "{got}");
    }
    if have_python_module("rispy", test) {
        let out = python(
            "import sys, json, rispy\n\
             e = rispy.loads(sys.stdin.read())[0]\n\
             print(json.dumps({'title': e.get('title') or e.get('primary_title'), 'doi': e.get('doi')}))",
            ris.as_bytes(),
        );
        let got: Value = serde_json::from_str(&out).unwrap();
        assert!(
            got["title"].as_str().unwrap().starts_with("ZeroPP"),
            "{got}"
        );
        assert_eq!(got["doi"], format!("10.48550/arXiv.{id}"), "{got}");
    }
    if have_tool("pandoc", test) {
        let dir = tempfile::tempdir().unwrap();
        let key = format!("pith:{}", &c[..8]);
        std::fs::write(dir.path().join("paper.md"), format!("See [@{key}].\n")).unwrap();
        for (file, body) in [("refs.json", &csl), ("refs.bib", &bib)] {
            std::fs::write(dir.path().join(file), body).unwrap();
            let out = std::process::Command::new("pandoc")
                .current_dir(dir.path())
                .args([
                    "--citeproc",
                    "--bibliography",
                    file,
                    "-t",
                    "plain",
                    "paper.md",
                ])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{file}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(text.contains("ZeroPP"), "{file}: {text}");
            assert!(
                !text.contains("???"),
                "{file}: the key is not found: {text}"
            );
        }
    }
}

#[test]
fn extractors_find_the_record_pages_citation_tags_json_ld_and_open_graph() {
    let test = "routes::extractors_find_the_record_pages_citation_tags_json_ld_and_open_graph";
    if !have_python_module("extruct", test) || !have_python_module("trafilatura", test) {
        return;
    }
    let (_f, s, v, c, id) = serve_first();
    // What a reference manager's fetch gets: Accept */*, or no Accept at all.
    for headers in [vec![("Accept", "*/*")], vec![]] {
        let page = s.get(&format!("/pith/{c}"), &headers);
        assert_eq!(page.status, 200);
        let out = python(
            "import sys, json, extruct, trafilatura\n\
             from html.parser import HTMLParser\n\
             html = sys.stdin.read()\n\
             data = extruct.extract(html, syntaxes=['json-ld', 'opengraph', 'dublincore'], uniform=True)\n\
             meta = trafilatura.extract_metadata(html)\n\
             tags = []\n\
             class P(HTMLParser):\n\
             \x20   def handle_starttag(self, tag, attrs):\n\
             \x20       a = dict(attrs)\n\
             \x20       if tag == 'meta' and (a.get('name') or '').startswith(('citation_', 'DC.')):\n\
             \x20           tags.append([a['name'], a.get('content')])\n\
             P().feed(html)\n\
             print(json.dumps({'json_ld': data['json-ld'], 'og': data['opengraph'], 'dc': data['dublincore'],\n\
             \x20   'title': meta.title, 'author': meta.author, 'date': meta.date, 'tags': tags}))",
            &page.body,
        );
        let got: Value = serde_json::from_str(&out).unwrap();
        let ld = &got["json_ld"][0];
        assert_eq!(ld["pith_number"], v["pith_number"], "{got}");
        assert_eq!(ld["canonical_record"], v["canonical_record"]);
        assert_eq!(got["og"][0]["@type"], "article", "{got}");
        assert!(got["og"][0]["og:title"]
            .as_str()
            .unwrap()
            .starts_with("ZeroPP"));
        assert!(
            got["title"].as_str().unwrap().starts_with("ZeroPP"),
            "{got}"
        );
        assert!(got["author"].as_str().unwrap().contains("Author"), "{got}");
        assert!(got["date"].as_str().unwrap().starts_with("2024"), "{got}");
        let tag = |name: &str| -> Vec<String> {
            got["tags"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t[0] == name)
                .map(|t| t[1].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(tag("citation_author").len(), 2, "{got}");
        assert_eq!(tag("citation_doi"), [format!("10.48550/arXiv.{id}")]);
        assert_eq!(tag("citation_arxiv_id"), [id.to_owned()]);
        assert_eq!(tag("citation_title").len(), 1);
        assert!(tag("citation_pdf_url")[0].starts_with("https://arxiv.org/pdf/"));
        assert_eq!(tag("citation_publication_date").len(), 1);
        // What reference managers read for a preprint (Zotero's Embedded Metadata
        // translator): the type, the repository and the arXiv id, in Highwire and Dublin Core.
        assert_eq!(tag("citation_publisher"), ["arXiv"]);
        assert_eq!(tag("DC.type"), ["preprint"]);
        assert_eq!(tag("DC.publisher"), ["arXiv"]);
        assert_eq!(tag("DC.creator").len(), 2, "{got}");
        assert!(
            tag("DC.identifier").contains(&format!(
                "arXiv:{id}v{}",
                v["canonical_record"]["source"]["version"]
            )),
            "{got}"
        );
        let dc = serde_json::to_string(&got["dc"]).unwrap();
        assert!(
            dc.contains("preprint") && dc.contains(&format!("arXiv:{id}")),
            "{dc}"
        );
        // The abstract from the snapshot, not a sentence of pith's: in citation_abstract
        // (Zotero's abstractNote) and the JSON-LD description; the arXiv id in fields Zotero
        // keeps: citation_technical_report_number (a preprint's Archive ID) and z:extra.
        let snapshot =
            std::fs::read_to_string(common::data("arxiv/vectors.snapshot.jsonl")).unwrap();
        let abstract_text = snapshot
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|e| e["id"] == id.as_str())
            .map(|e| {
                e["abstract"]
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap();
        assert!(abstract_text.len() > 40, "{abstract_text}");
        assert_eq!(
            tag("citation_abstract"),
            std::slice::from_ref(&abstract_text),
            "{got}"
        );
        assert_eq!(ld["description"], abstract_text.as_str(), "{got}");
        assert_eq!(
            tag("citation_technical_report_number"),
            [format!("arXiv:{id}")]
        );
        let page_text = page.text();
        assert!(page_text.contains(r#"<meta name="z:itemType" content="preprint">"#));
        assert!(page_text.contains(&format!(r#"<meta name="z:extra" content="arXiv:{id} ["#)));
    }
}

/// An index built from an older snapshot (2402.03791 at v1 only) and then the vectors'
/// snapshot (v1 and v3), in `dir`.
fn older_and_newer_index(dir: &std::path::Path) -> std::path::PathBuf {
    let snapshot = common::data("arxiv/vectors.snapshot.jsonl");
    let text = std::fs::read_to_string(&snapshot).unwrap();
    // The older snapshot: arXiv's metadata before 2402.03791 had its v2 and v3.
    let older: String = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if v["id"] == "2402.03791" {
                v["versions"] = Value::Array(v["versions"].as_array().unwrap()[..1].to_vec());
            }
            format!("{v}\n")
        })
        .collect();
    let old = dir.join("old.jsonl");
    std::fs::write(&old, older).unwrap();
    let index = dir.join("i.pith-index");
    for snap in [&old, &snapshot] {
        let r = common::build_index(&index, &["--arxiv-snapshot", snap.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    index
}

#[test]
fn an_older_version_says_a_newer_one_exists_and_the_concept_badge_follows_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let index = older_and_newer_index(dir.path());
    let s = Server::start(&index, &[]);
    let v1 = s.get("/arxiv/2402.03791v1", &[]);
    assert_eq!(v1.status, 303);
    let v1 = v1.header("location").unwrap().to_owned();
    let newest = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
    assert_ne!(v1, format!("/pith/{newest}"));
    // The page of v1 says so at the top, with the newest number and its link.
    let page = s.get(&v1, &[]).text();
    let main = &page[page.find("<main").unwrap()..];
    let notice = &main[..main.find("class=\"number\"").unwrap()];
    assert!(notice.contains("A newer version exists"), "{notice}");
    assert!(
        notice.contains(&format!("href=\"/pith/{newest}\"")),
        "{notice}"
    );
    assert!(notice.contains("version 3"), "{notice}");
    // The newest page says nothing of the kind.
    let latest = s.get(&format!("/pith/{newest}"), &[]).text();
    assert!(!latest.contains("A newer version exists"));
    // The record JSON lists every version, marks the latest and names it.
    let doc = s.get(&format!("{v1}.json"), &[]).json();
    let versions = doc["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2, "{doc}");
    assert_eq!(versions[0]["version"], 1);
    assert_eq!(versions[0]["latest"], false);
    assert_eq!(versions[1]["version"], 3);
    assert_eq!(versions[1]["latest"], true);
    assert_eq!(
        doc["newer_version"]["pith_number"],
        format!("pith:2024:{newest}")
    );
    assert_eq!(
        s.get(&format!("/pith/{newest}.json"), &[]).json()["newer_version"],
        Value::Null
    );
    // The concept badge is the newest version's badge, byte for byte, and so is its document.
    for ext in ["svg", "json"] {
        let concept = s.get(&format!("/badge/arxiv/2402.03791.{ext}"), &[]);
        assert_eq!(concept.status, 200, "{ext}");
        assert_eq!(
            concept.body,
            s.get(&format!("/badge/{newest}.{ext}"), &[]).body
        );
        let pinned = s.get(&format!("/badge/arxiv/2402.03791v1.{ext}"), &[]);
        assert_eq!(
            pinned.body,
            s.get(&format!("/badge/{}.{ext}", &v1[6..]), &[]).body
        );
    }
    let styled = s.get("/badge/arxiv/1608.03461.svg?style=flat-square", &[]);
    assert_eq!(styled.status, 200, "{}", styled.text());
    assert!(styled.text().starts_with("<svg"));
    assert_eq!(s.get("/badge/arxiv/2402.99999.svg", &[]).status, 404);
    assert_eq!(s.get("/badge/arxiv/2402.03791.png", &[]).status, 404);
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

#[test]
fn verify_against_a_mirror_names_a_newer_version() {
    let dir = tempfile::tempdir().unwrap();
    let index = older_and_newer_index(dir.path());
    let s = Server::start(&index, &[]);
    let newest = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
    let v1 = s.get("/arxiv/2402.03791v1", &[]);
    assert_eq!(v1.status, 303);
    let v1 = v1
        .header("location")
        .unwrap()
        .trim_start_matches("/pith/")
        .to_owned();
    assert_ne!(v1, newest);
    let number_of = |c: &str| {
        s.get(&format!("/pith/{c}.json"), &[]).json()["pith_number"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (old, new) = (number_of(&v1), number_of(newest));
    assert_eq!(new, format!("pith:2024:{newest}"));
    let verify = |number: &str, json: bool| {
        let pdf = dir.path().join(format!("{}.pdf", code(number)));
        if !pdf.exists() {
            common::inject(number, &pdf);
        }
        let cache = tempfile::tempdir().unwrap();
        let mut args = vec!["verify", pdf.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        let r = run(
            &common::pith(),
            &args,
            &[
                ("PITH_RESOLVER_URL", s.url.as_str()),
                ("PITH_CACHE_DIR", cache.path().to_str().unwrap()),
            ],
        );
        assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
        (r, pdf)
    };
    // A PDF of v1: the key names v3, its number and its page at this mirror.
    let (r, old_pdf) = verify(&old, true);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["pith_number"], old.as_str(), "{report}");
    assert_eq!(report["arxiv_version"], 1, "{report}");
    let newer = &report["newer_version"];
    assert_eq!(newer["version"], 3, "{report}");
    assert_eq!(newer["pith_number"], new.as_str(), "{report}");
    assert_eq!(newer["url"], format!("{}/pith/{newest}", s.url), "{report}");
    // The page it names is the newest version's record.
    assert_eq!(number_of(newest), new);
    let text = verify(&old, false).0.stdout;
    let line = format!("newer version: v3 is {new} ({}/pith/{newest})", s.url);
    assert!(text.lines().any(|l| l == line), "{text}");
    // A newer version changes no verdict: v1's is that of the newest, checked the same way.
    let (latest, _) = verify(&new, true);
    let latest: Value = serde_json::from_str(&latest.stdout).unwrap();
    assert_eq!(report["verdict"], latest["verdict"], "{report}\n{latest}");
    assert_eq!(report["holds"], true, "{report}");
    // The newest version's PDF has no such key value nor line.
    assert_eq!(latest["newer_version"], Value::Null, "{latest}");
    assert_eq!(latest["arxiv_version"], 3, "{latest}");
    let text = verify(&new, false).0.stdout;
    assert!(!text.contains("newer version"), "{text}");
    // The mirror's check page answers the same report, and says so in words.
    let pdf = std::fs::read(&old_pdf).unwrap();
    let post = |accept: &str| {
        let mut req = format!(
            "POST /verify?file={} HTTP/1.1\r\nHost: {}\r\nAccept: {accept}\r\nContent-Type: application/pdf\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            old_pdf.file_name().unwrap().to_str().unwrap(),
            s.url.trim_start_matches("http://"),
            pdf.len()
        )
        .into_bytes();
        req.extend_from_slice(&pdf);
        s.raw(&req)
    };
    let checked = post("application/json");
    assert_eq!(checked.status, 200, "{}", checked.text());
    // The same report, its URLs under the mirror's --base-url (relative to it without one,
    // as here) where the command's name the resolver it asked.
    let mut newer = report["newer_version"].clone();
    newer["url"] = Value::from(format!("/pith/{newest}"));
    assert_eq!(checked.json()["newer_version"], newer);
    let page = post("text/html").text();
    assert!(page.contains("A newer version exists"), "{page}");
    assert!(page.contains(&format!("href=\"/pith/{newest}\"")), "{page}");
}
