//! What Zotero saves from a record: Zotero's own translators (vendored in tests/vendor/zotero with
//! the zotero/utilities code and the schema they run on), run under node by
//! `tests/browser/zotero.mjs` on what the server answers: RIS.js on the `.ris`, BibTeX.js on the
//! `.bib`, and arXiv.org.js on arXiv's API answer for the same paper, the item Zotero saves from
//! arXiv's own page. The items are compared field by field, and the record page's `z:extra` and
//! `citation_keywords` with the arXiv item's Extra and tags. Skips, saying why, without node or
//! the npm packages (`npm ci` in tests/browser); fails instead under `PITH_REQUIRE_TOOLS=1`.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{self, code, have_tool, vectors, Fixture, Server};

/// arXiv's API answer (an Atom feed of one entry) for version `version` of the snapshot entry
/// `e` titled `title`, as export.arxiv.org writes it: the version's URL as its id, the
/// version's date as `updated`, v1's as `published`, the primary category first.
fn atom(e: &Value, version: usize, title: &str) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let date = |v: usize| rfc2822_to_iso(e["versions"][v - 1]["created"].as_str().unwrap());
    let id = e["id"].as_str().unwrap();
    let cats: Vec<&str> = e["categories"].as_str().unwrap().split(' ').collect();
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">\n\
         <entry>\n<id>http://arxiv.org/abs/{id}v{version}</id>\n<updated>{}</updated>\n\
         <published>{}</published>\n<title>{}</title>\n<summary>{}</summary>\n",
        date(version),
        date(1),
        esc(title),
        esc(e["abstract"].as_str().unwrap()),
    );
    for a in e["authors_parsed"].as_array().unwrap() {
        s.push_str(&format!(
            "<author><name>{} {}</name></author>\n",
            esc(a[1].as_str().unwrap()),
            esc(a[0].as_str().unwrap())
        ));
    }
    s.push_str(&format!(
        "<link href=\"http://arxiv.org/abs/{id}v{version}\" rel=\"alternate\" type=\"text/html\"/>\n\
         <arxiv:primary_category term=\"{}\" scheme=\"http://arxiv.org/schemas/atom\"/>\n",
        cats[0]
    ));
    for c in &cats {
        s.push_str(&format!(
            "<category term=\"{c}\" scheme=\"http://arxiv.org/schemas/atom\"/>\n"
        ));
    }
    s.push_str("</entry>\n</feed>\n");
    s
}

/// `Tue, 6 Feb 2024 08:14:56 GMT` as `2024-02-06T08:14:56Z`.
fn rfc2822_to_iso(s: &str) -> String {
    let p: Vec<&str> = s.split_whitespace().collect();
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .position(|m| *m == p[2])
    .unwrap()
        + 1;
    format!(
        "{}-{month:02}-{:02}T{}Z",
        p[3],
        p[1].parse::<u32>().unwrap(),
        p[4]
    )
}

/// The `content` of every `<meta name="NAME">` of `html` (the page's own markup, one tag a
/// line, `name` before `content`), entities of Tera's escaping undone.
fn metas(html: &str, name: &str) -> Vec<String> {
    let open = format!("<meta name=\"{name}\" content=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let v = &rest[i + open.len()..];
        let end = v.find("\">").unwrap();
        out.push(
            v[..end]
                .replace("&quot;", "\"")
                .replace("&#x27;", "'")
                .replace("&#x2F;", "/")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&"),
        );
        rest = &v[end..];
    }
    out
}

fn sorted(v: &Value) -> Vec<String> {
    let mut t: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect();
    t.sort();
    t
}

#[test]
fn zotero_saves_the_exports_as_it_saves_arxivs_own_page() {
    let test = "zotero::zotero_saves_the_exports_as_it_saves_arxivs_own_page";
    if !have_tool("node", test) {
        return;
    }
    let Some(harness) = common::browser_harness(test, &["jsdom"]) else {
        return;
    };
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let snapshot: BTreeMap<String, Value> =
        std::fs::read_to_string(common::data("arxiv/vectors.snapshot.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|e| (e["id"].as_str().unwrap().to_owned(), e))
            .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut papers = Vec::new();
    let mut pages = BTreeMap::new();
    for v in vectors() {
        let c = code(v["pith_number"].as_str().unwrap());
        let id = v["canonical_record"]["source"]["id"].as_str().unwrap();
        let version = v["canonical_record"]["source"]["version"].as_u64().unwrap() as usize;
        let Some(e) = snapshot.get(id) else { continue };
        let file = |ext: &str| dir.path().join(format!("{c}.{ext}"));
        for ext in ["ris", "bib", "csl.json"] {
            let path = format!("/pith/{c}.{ext}");
            let r = s.get(&path, &[]);
            assert_eq!(r.status, 200, "{path}");
            std::fs::write(file(ext), &r.body).unwrap();
        }
        // The title as the index holds it (the records' spelling of it, one of several that
        // make the same number), the rest as the snapshot has it.
        let record = s.get(&format!("/pith/{c}.json"), &[]).json();
        let title = record["title"].as_str().unwrap();
        std::fs::write(file("atom"), atom(e, version, title)).unwrap();
        pages.insert(
            c.clone(),
            (s.get(&format!("/pith/{c}"), &[]).text(), version),
        );
        papers.push(json!({
            "id": c, "url": format!("https://arxiv.org/abs/{id}v{version}"),
            "atom": file("atom"), "ris": file("ris"), "bib": file("bib"), "csl": file("csl.json"),
        }));
    }
    assert!(papers.len() >= 5, "{} papers", papers.len());
    let plan = dir.path().join("plan.json");
    let out = dir.path().join("items.json");
    std::fs::write(
        &plan,
        json!({"zotero": common::root().join("tests/vendor/zotero"), "papers": papers}).to_string(),
    )
    .unwrap();
    let ran = Command::new("node")
        .current_dir(&harness)
        .env("NODE_PATH", harness.join("node_modules"))
        .arg("zotero.mjs")
        .arg(&plan)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "zotero.mjs: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let got: Vec<Value> = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(got.len(), papers.len());
    for p in &got {
        let c = p["id"].as_str().unwrap();
        let (page, version) = &pages[c];
        let [a] = p["arxiv"].as_array().unwrap().as_slice() else {
            panic!("{c}: arXiv.org.js made no single item: {p}")
        };
        let [r] = p["ris"].as_array().unwrap().as_slice() else {
            panic!("{c}: RIS.js made no single item: {p}")
        };
        let [b] = p["bib"].as_array().unwrap().as_slice() else {
            panic!("{c}: BibTeX.js made no single item: {p}")
        };
        let [j] = p["csl"].as_array().unwrap().as_slice() else {
            panic!("{c}: CSL JSON.js made no single item: {p}")
        };
        let ctx = format!("{c}:\narXiv {a}\nRIS {r}\nBibTeX {b}\nCSL {j}");
        assert_eq!(a["itemType"], "preprint", "{ctx}");
        // CSL-JSON's `article` is Zotero's preprint: the same item, Extra first.
        assert_eq!(j["itemType"], "preprint", "{ctx}");
        for field in ["title", "creators", "DOI", "publisher", "number"] {
            assert_eq!(j[field], a[field], "{field}: {ctx}");
        }
        assert!(j["extra"].as_str().unwrap().starts_with(&format!(
            "{}\nPith Number pith:",
            a["extra"].as_str().unwrap()
        )));
        assert_eq!(j["dateISO"], r["dateISO"], "{ctx}");
        // Neither importer has a preprint type (RIS.js maps no TY to one, BibTeX.js no entry
        // type): the .ris is a report, whose institution and number are the fields a preprint's
        // repository and archive ID share in Zotero's schema; the .bib a document.
        assert_eq!(r["itemType"], "report", "{ctx}");
        assert_eq!(b["itemType"], "document", "{ctx}");
        for field in ["title", "creators", "DOI"] {
            assert_eq!(r[field], a[field], "{field}: {ctx}");
            assert_eq!(b[field], a[field], "{field}: {ctx}");
        }
        assert_eq!(a["publisher"], "arXiv", "{ctx}");
        assert_eq!(r["institution"], a["publisher"], "{ctx}");
        assert_eq!(b["publisher"], a["publisher"], "{ctx}");
        assert_eq!(r["reportNumber"], a["archiveID"], "{ctx}");
        // Extra as arXiv.org.js writes it for the version's page: the id, its category and
        // the version; from the .ris and from the record page's z:extra.
        let extra = a["extra"].as_str().unwrap();
        assert!(extra.ends_with(&format!("\nversion: {version}")), "{ctx}");
        assert_eq!(r["extra"], a["extra"], "{ctx}");
        assert_eq!(metas(page, "z:extra"), [extra], "{c}");
        // The subjects: tags of the arXiv item, the page's citation_keywords and the .ris's
        // KW. RIS.js splits a lone tag at its commas.
        let tags = sorted(&a["tags"]);
        assert!(!tags.is_empty(), "{ctx}");
        let mut keywords = metas(page, "citation_keywords");
        keywords.sort();
        assert_eq!(keywords, tags, "{c}");
        if tags.len() == 1 {
            assert_eq!(
                r["tags"].as_array().unwrap().len(),
                tags[0].split(", ").count()
            );
            assert_eq!(
                r["tags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(", "),
                tags[0],
                "{ctx}"
            );
        } else {
            assert_eq!(sorted(&r["tags"]), tags, "{ctx}");
        }
        // Dates: arXiv.org.js takes the version's date; the exports give v1's, the same
        // for a first version.
        assert_eq!(r["dateISO"], b["dateISO"], "{ctx}");
        if *version == 1 {
            assert_eq!(r["dateISO"], a["dateISO"], "{ctx}");
        }
        // The exports name this version's page; arXiv.org.js the paper's.
        assert!(r["url"].as_str().unwrap().ends_with(&format!("v{version}")));
        assert_eq!(b["url"], r["url"], "{ctx}");
    }
}

#[test]
fn a_version_without_a_title_gives_readers_no_title_or_abstract_to_take() {
    // An index of the published records without their texts: no title, no abstract.
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    std::fs::create_dir(&records).unwrap();
    let bare: Vec<Value> = vectors()
        .iter()
        .map(
            |v| json!({"pith_number": v["pith_number"], "canonical_record": v["canonical_record"]}),
        )
        .collect();
    std::fs::write(records.join("records.json"), Value::Array(bare).to_string()).unwrap();
    let index = dir.path().join("bare.pith-index");
    let r = common::build_index(&index, &["--records", records.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let s = Server::start(&index, &[]);
    for v in vectors() {
        let c = code(v["pith_number"].as_str().unwrap());
        let page = s.get(&format!("/pith/{c}"), &[]).text();
        let id = v["canonical_record"]["source"]["id"].as_str().unwrap();
        // Nothing a reader (Zotero's Embedded Metadata translator falls back to the page's
        // title and description) could take for the paper's title or abstract.
        for name in [
            "citation_title",
            "DC.title",
            "description",
            "citation_abstract",
        ] {
            assert_eq!(metas(&page, name), Vec::<String>::new(), "{c}: {name}");
        }
        assert!(!page.contains("og:title") && !page.contains("og:description"));
        let title = &page[page.find("<title>").unwrap() + 7..page.find("</title>").unwrap()];
        assert!(
            title.starts_with("Record pith:") && title.contains(&format!("arXiv:{id}v")),
            "{c}: {title}"
        );
        assert!(
            title.contains("title not given by its source"),
            "{c}: {title}"
        );
        // Its Extra and subjects all the same.
        assert!(metas(&page, "z:extra")[0].starts_with(&format!("arXiv:{id}")));
        assert!(!metas(&page, "citation_keywords").is_empty(), "{c}");
    }
}
