//! What reader tools find: the identifiers, title and authors `pith inject` writes for a known
//! paper, read back by calibre's `ebook-meta` and exiftool (and taken out again by `strip`),
//! PDF/A files kept valid; and the citations `pith cite` prints, read by bibtex,
//! bibtexparser, pandoc's citeproc and rispy.

use std::path::{Path, PathBuf};

use crate::common::{self, example, fixture, have_python_module, have_tool, tmpdir, SEED};

const DOI: &str = "10.48550/arXiv.2402.03791";
const TITLE: &str =
    "ZeroPP: Unleashing Exceptional Parallelism Efficiency through Tensor-Parallelism-Free Methodology";

/// The seed paper's Atom entry with two authors added (the recorded entry has none).
fn atom_with_authors(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(example("2402.03791v3.atom.xml")).unwrap();
    let text = text.replacen(
        "<published>",
        "<author><name>Jane Q. Doe</name></author><author><name>Ren\u{e9} Roe</name></author><published>",
        1,
    );
    assert!(text.contains("Jane Q. Doe"));
    let p = dir.join("paper.atom.xml");
    std::fs::write(&p, text).unwrap();
    p
}

fn inject_atom(input: &Path, atom: &Path, out: &Path) {
    let o = common::pith()
        .arg("inject")
        .arg(input)
        .arg("--arxiv-atom")
        .arg(atom)
        .arg("-o")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        input.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn ebook_meta(path: &Path) -> String {
    let (ok, out, err) = common::run("ebook-meta", &[path.to_str().unwrap()], None);
    assert!(ok, "ebook-meta {}: {err}", path.display());
    out
}

/// The value of one `Name : value` line of ebook-meta's output.
fn meta_line(out: &str, name: &str) -> Option<String> {
    out.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim() == name)
        .map(|(_, v)| v.trim().to_string())
}

#[test]
fn calibre_reads_the_doi_arxiv_and_pith_identifiers_and_the_title() {
    if !have_tool(
        "ebook-meta",
        "calibre_reads_the_doi_arxiv_and_pith_identifiers",
    ) {
        return;
    }
    let dir = tmpdir();
    let atom = atom_with_authors(dir.path());
    // The example paper has an Info title of its own; minimal.pdf has none at all.
    for (name, input) in [
        ("arxiv", example("2402.03791v3.pdf")),
        ("bare", fixture("minimal.pdf")),
    ] {
        let out = dir.path().join(format!("{name}.pdf"));
        inject_atom(&input, &atom, &out);
        let m = ebook_meta(&out);
        let ids = meta_line(&m, "Identifiers").unwrap_or_default();
        for want in [
            format!("doi:{DOI}"),
            "arxiv:2402.03791v3".to_string(),
            SEED.to_string(),
        ] {
            assert!(ids.contains(&want), "{name}: {want} not in {ids:?}\n{m}");
        }
        // The number once, as it is pasted: `pith:2024:…`, never `pith:pith:2024:…`.
        assert!(!ids.contains("pith:pith:"), "{name}: {ids:?}");
        assert_eq!(
            meta_line(&m, "Title").as_deref(),
            Some(TITLE),
            "{name}\n{m}"
        );
        let authors = meta_line(&m, "Author(s)").unwrap_or_default();
        assert!(
            authors.contains("Jane Q. Doe") && authors.contains("Ren\u{e9} Roe"),
            "{name}: {authors}"
        );

        // strip takes out what pith added, and calibre finds none of it.
        let stripped = dir.path().join(format!("{name}-stripped.pdf"));
        let o = common::pith()
            .arg("strip")
            .arg(&out)
            .arg("-o")
            .arg(&stripped)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let m = ebook_meta(&stripped);
        let ids = meta_line(&m, "Identifiers").unwrap_or_default();
        assert!(
            !ids.contains("doi:") && !ids.contains("arxiv:") && !ids.contains("pith:"),
            "{name}: {ids:?}"
        );
        // The file's own title again; calibre names a file without one by its file name.
        let before = meta_line(&ebook_meta(&input), "Title");
        let stem = |p: &Path| p.file_stem().unwrap().to_string_lossy().into_owned();
        let want = if before.as_deref() == Some(stem(&input).as_str()) {
            Some(stem(&stripped))
        } else {
            before
        };
        assert_eq!(meta_line(&m, "Title"), want, "{name}: the title");
    }
}

#[test]
fn exiftool_reads_prism_doi_and_the_qualified_identifiers() {
    if !have_tool(
        "exiftool",
        "exiftool_reads_prism_doi_and_the_qualified_identifiers",
    ) {
        return;
    }
    let dir = tmpdir();
    let atom = atom_with_authors(dir.path());
    let out = dir.path().join("out.pdf");
    inject_atom(&fixture("minimal.pdf"), &atom, &out);
    // By group: dc:identifier and xmp:Identifier share exiftool's tag name.
    let v = common::tools::exif_json(&out, &["-XMP:all", "-G1"]);
    assert_eq!(v["XMP-prism:DOI"], DOI, "{v}");
    assert_eq!(v["XMP-dc:Identifier"], format!("doi:{DOI}"), "{v}");
    let list = |k: &str| -> Vec<String> {
        match &v[k] {
            serde_json::Value::Array(a) => {
                a.iter().map(|x| x.as_str().unwrap_or("").into()).collect()
            }
            serde_json::Value::Null => vec![],
            other => vec![other.as_str().unwrap_or("").into()],
        }
    };
    assert_eq!(
        list("XMP-xmp:Identifier"),
        [&SEED["pith:".len()..], DOI, "2402.03791v3"],
        "{v}"
    );
    // Each item's scheme qualifier, one line per item (-a keeps the repeated tag).
    let (ok, text, err) = common::run(
        "exiftool",
        &[
            "-a",
            "-s",
            "-s",
            "-XMP-xmp:IdentifierScheme",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(ok, "{err}");
    let schemes: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(_, v)| v.trim())
        .collect();
    assert_eq!(schemes, ["pith", "doi", "arxiv"], "{text}");
    let pdf = common::tools::exif_info(&out);
    assert_eq!(
        pdf["Title"], TITLE,
        "Info /Title where the file had none: {pdf}"
    );
    assert_eq!(pdf["Author"], "Jane Q. Doe, Ren\u{e9} Roe", "{pdf}");
}

#[test]
fn pdfa_inputs_stay_valid_and_publisher_metadata_stays() {
    let tools = have_tool("qpdf", "pdfa_inputs_stay_valid")
        & have_tool("pdfinfo", "pdfa_inputs_stay_valid");
    let dir = tmpdir();
    let atom = atom_with_authors(dir.path());
    for name in [
        "pdfa-1b-pass.pdf",
        "pdfa-1b-utf16-xmp-pass.pdf",
        "pdfa-4-pass.pdf",
    ] {
        let input = fixture(name);
        let out = dir.path().join(name);
        inject_atom(&input, &atom, &out);
        let (code, j) = {
            let o = common::pith()
                .arg("inspect")
                .arg(&out)
                .arg("--json")
                .output()
                .unwrap();
            (
                o.status.code(),
                serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap(),
            )
        };
        assert_eq!(code, Some(0), "{name}: {j}");
        assert_eq!(j["number"], SEED, "{name}");
        if !tools {
            continue;
        }
        let (qi, wi) = common::tools::qpdf_check(&input);
        let (qo, wo) = common::tools::qpdf_check(&out);
        assert!(qo <= qi && wo <= wi, "{name}: qpdf --check got worse");
        let before = common::tools::pdfinfo_meta(&input);
        let after = common::tools::pdfinfo_meta(&out);
        assert!(after.contains(DOI), "{name}: no DOI in the packet");
        if !name.starts_with("pdfa-4") {
            let b = crate::pdf::undeclared_properties(&before);
            let a = crate::pdf::undeclared_properties(&after);
            assert!(a.is_subset(&b), "{name}: undeclared {a:?}");
        }
        // PDF/A keeps Info and XMP in step: pith adds no Info /Title or /Author to it.
        let info = |p: &Path, key: &str| {
            let (_, out, _) = common::run("pdfinfo", &[p.to_str().unwrap()], None);
            out.lines()
                .find(|l| l.starts_with(&format!("{key}:")))
                .map(|l| l[key.len() + 1..].trim().to_string())
        };
        for key in ["Title", "Author"] {
            assert_eq!(info(&input, key), info(&out, key), "{name}: Info /{key}");
        }
        // A title the publisher wrote stays the publisher's.
        let title = |x: &str| {
            let doc = roxmltree::Document::parse(x.trim_end_matches('\0')).ok()?;
            doc.descendants()
                .find(|n| {
                    n.tag_name().name() == "title"
                        && n.tag_name().namespace() == Some(common::DC_NS)
                })
                .map(|n| {
                    n.descendants()
                        .filter(|d| d.is_text())
                        .map(|d| d.text().unwrap_or("").trim().to_string())
                        .collect::<String>()
                })
        };
        if let Some(t) = title(&before) {
            assert_eq!(title(&after), Some(t), "{name}: dc:title changed");
        }
    }
}

/// A record wrapped as the resolver serves it, with its display fields.
fn wrapped_record(dir: &Path) -> PathBuf {
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(example("2402.03791v3.record.json")).unwrap(),
    )
    .unwrap();
    let wrapped = serde_json::json!({
        "canonical_record": record,
        "pith_number": SEED,
        "title": TITLE,
        "authors": "Jane Q. Doe, Ren\u{e9} Roe and Sam {de} Vries",
    });
    let p = dir.join("wrapped.json");
    std::fs::write(&p, wrapped.to_string()).unwrap();
    p
}

fn cite(record: &Path, format: &str, out: &Path) -> String {
    let o = common::pith()
        .args(["cite", "--offline", "--record"])
        .arg(record)
        .args(["--format", format])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(out, &o.stdout).unwrap();
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn bibtex_and_bibtexparser_read_the_bibtex() {
    let dir = tmpdir();
    let rec = wrapped_record(dir.path());
    let bib = cite(&rec, "bibtex", &dir.path().join("refs.bib"));
    assert!(bib.contains("eprint = {2402.03791v3}"), "{bib}");
    if have_tool("bibtex", "bibtex_reads_the_bibtex") {
        std::fs::write(
            dir.path().join("doc.aux"),
            "\\relax\n\\citation{pith:7BMK4ZKT}\n\\bibstyle{plain}\n\\bibdata{refs}\n",
        )
        .unwrap();
        let (ok, out, err) = common::run("bibtex", &["doc"], Some(dir.path()));
        let blg = std::fs::read_to_string(dir.path().join("doc.blg")).unwrap_or_default();
        assert!(ok && !blg.contains("error message"), "{out}{err}\n{blg}");
        assert!(!blg.contains("Warning--"), "{blg}");
        let bbl = std::fs::read_to_string(dir.path().join("doc.bbl")).unwrap();
        assert!(bbl.contains("\\bibitem{pith:7BMK4ZKT}"), "{bbl}");
        // plain.bst sets titles in sentence case.
        assert!(
            bbl.contains("Zeropp: Unleashing") && bbl.contains("Doe"),
            "{bbl}"
        );
        assert!(bbl.contains(SEED), "the number is in the note: {bbl}");
    }
    if have_python_module("bibtexparser", "bibtexparser_reads_the_bibtex") {
        let script = r#"
import sys, json, bibtexparser
lib = bibtexparser.parse_string(sys.stdin.read())
assert not lib.failed_blocks, lib.failed_blocks
e = lib.entries[0]
print(json.dumps({"key": e.key, "type": e.entry_type, **{f.key: f.value for f in e.fields}}))
"#;
        let out = common::tools::python(script, &bib).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["key"], "pith:7BMK4ZKT");
        assert_eq!(v["type"], "misc");
        assert_eq!(v["archivePrefix"], "arXiv");
        assert_eq!(v["primaryClass"], "cs.DC");
        assert_eq!(v["eprint"], "2402.03791v3");
        assert_eq!(v["doi"], DOI);
        assert_eq!(v["pith"], SEED);
        assert_eq!(
            v["author"],
            "Jane Q. Doe and Ren\u{e9} Roe and Sam {de} Vries"
        );
    }
}

#[test]
fn pandoc_citeproc_renders_the_csl_json_and_the_bibtex() {
    if !have_tool("pandoc", "pandoc_citeproc_renders_the_citations") {
        return;
    }
    let dir = tmpdir();
    let rec = wrapped_record(dir.path());
    let csl = cite(&rec, "csl-json", &dir.path().join("refs.json"));
    let item: serde_json::Value = serde_json::from_str(&csl).unwrap();
    assert_eq!(item[0]["DOI"], DOI);
    cite(&rec, "bibtex", &dir.path().join("refs.bib"));
    let doc = dir.path().join("doc.md");
    std::fs::write(&doc, "See [@pith:7BMK4ZKT].\n").unwrap();
    for bib in ["refs.json", "refs.bib"] {
        let (ok, out, err) = common::run(
            "pandoc",
            &[
                "--citeproc",
                "--bibliography",
                bib,
                "-t",
                "plain",
                "--wrap=none",
                "doc.md",
            ],
            Some(dir.path()),
        );
        assert!(ok, "{bib}: {err}");
        assert!(!err.contains("not found"), "{bib}: {err}");
        // The in-text citation (author and year) and the reference list.
        assert!(out.contains("Doe") && out.contains("2024"), "{bib}: {out}");
        assert!(out.contains("ZeroPP"), "{bib}: {out}");
        assert!(out.contains("Vries"), "{bib}: {out}");
    }
}

#[test]
fn rispy_reads_the_ris() {
    if !have_python_module("rispy", "rispy_reads_the_ris") {
        return;
    }
    let dir = tmpdir();
    let rec = wrapped_record(dir.path());
    let ris = cite(&rec, "ris", &dir.path().join("refs.ris"));
    let script = r#"
import sys, json, rispy
entries = rispy.loads(sys.stdin.read())
print(json.dumps(entries))
"#;
    let out = common::tools::python(script, &ris).unwrap();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{v}");
    let e = &v[0];
    // A report (RIS has no preprint type): arXiv the institution, the id its number (`SN`,
    // which rispy names for a journal's ISSN).
    assert_eq!(e["type_of_reference"], "RPRT");
    assert_eq!(e["publisher"], "arXiv");
    assert_eq!(e["issn"], "arXiv:2402.03791");
    assert_eq!(e["title"], TITLE);
    assert_eq!(e["doi"], DOI);
    assert_eq!(
        e["authors"],
        serde_json::json!(["Doe, Jane Q.", "Roe, Ren\u{e9}", "Vries, Sam {de}"])
    );
    assert_eq!(e["year"], "2024");
}

#[test]
fn cite_takes_every_input_form_and_refuses_a_short_alias() {
    let dir = tmpdir();
    // An Atom entry, offline.
    let atom = atom_with_authors(dir.path());
    let o = common::pith()
        .args(["cite", "--offline", "--format", "ris", "--arxiv-atom"])
        .arg(&atom)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("AU  - Doe, Jane Q.\n"));
    // A bare record has no title to cite: refused with the reason, one line, exit 2.
    let r = common::run_pith(&[
        "cite",
        "--offline",
        "--record",
        example("2402.03791v3.record.json").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains("2402.03791v3.record.json") && r.stderr.contains("no title"),
        "{}",
        r.stderr
    );
    // A short alias names no record: one line, exit 2.
    let r = common::run_pith(&["cite", "pith:7BMK4ZKT"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("pith: ") && r.stderr.trim().lines().count() == 1,
        "{}",
        r.stderr
    );
    // A number offline without its record in the cache: said, exit 2, nothing printed.
    let r = common::run_pith(&["cite", "--offline", SEED]);
    assert_ne!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("offline"), "{}", r.stderr);
}

/// A number's citation comes from its record at the resolver, with the display fields the
/// resolver gives beside it; a record of another number is refused.
#[test]
fn cite_a_number_from_the_resolver_stand_in() {
    use crate::common::http::{Reply, Server};
    let dir = tmpdir();
    let wrapped = std::fs::read(wrapped_record(dir.path())).unwrap();
    let other = std::fs::read(example("2412.14374v1.record.json")).unwrap();
    let server = Server::start(move |r, _| {
        if r.target
            .ends_with(&format!("/pith/{}.json", common::SEED_CODE))
        {
            Reply::ok(wrapped.clone())
        } else if r.target.ends_with("/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA.json") {
            Reply::ok(other.clone())
        } else {
            Reply::status(404)
        }
    });
    let o = common::pith()
        .env("PITH_RESOLVER_URL", server.url())
        .args(["cite", common::SEED_CODE, "--format", "csl-json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["title"], TITLE);
    assert_eq!(v[0]["author"][0]["family"], "Doe");
    assert!(server
        .requests()
        .iter()
        .all(|r| r.target.contains("/pith/")));
    let o = common::pith()
        .env("PITH_RESOLVER_URL", server.url())
        .args(["cite", "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("another number"), "{err}");
}
