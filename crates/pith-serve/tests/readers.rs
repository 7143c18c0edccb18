//! What clients read from a record: the record URL answers each client (browser, JSON,
//! citation formats) in the form it prefers; the citations are `pith cite`'s and other tools
//! (citeproc, rispy, bibtexparser) read them; extractors find the record page's citation tags,
//! JSON-LD and Open Graph.

use serde_json::Value;

use crate::common::{self, code, have_tool, run, vectors, Fixture, Server};

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
