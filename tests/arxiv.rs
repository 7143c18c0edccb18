//! ArXiv bulk metadata (snapshot JSON Lines, OAI-PMH arXivRaw pages) numbered in
//! bulk, and PDFs matched to it by arXiv id. The golden numbers are the published ones of the
//! shared vectors (tests/data/arxiv/vectors.expected.jsonl, written from tests/data/records.json
//! by tests/data/arxiv/make_fixtures.py); the other checks compare against the Atom path, an
//! independent Python implementation (bench/arxiv_reference.py), the compressors' own CLIs
//! (gzip, bzip2, xz, zstd, zip) and, for batch outputs, qpdf and exiftool.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{have_tool, pith, root};
use serde_json::Value;

fn json_lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

/// `pith number` with the given args: (exit code, stdout, stderr).
fn number(args: &[&str], stdin: Option<Vec<u8>>) -> (i32, Vec<u8>, String) {
    let mut c = pith();
    c.arg("number").args(args);
    if let Some(s) = stdin {
        c.write_stdin(s);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pith-arxiv-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Numbers from the Atom path (`pith number --arxiv-atom`), one per entry (a multi-entry
/// feed prints `NUMBER  IDvN` lines; the number is the first word).
fn atom_numbers(path: &Path) -> Vec<String> {
    let (code, out, err) = number(&["--arxiv-atom", s(path)], None);
    assert_eq!(code, 0, "{err}");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn vectors_give_their_published_numbers_in_all_three_forms() {
    let expected =
        json_lines(&std::fs::read(common::data("arxiv").join("vectors.expected.jsonl")).unwrap());
    assert!(expected.len() >= 10, "the exact vectors are the golden set");
    let atom = atom_numbers(&common::data("arxiv").join("vectors.atom.xml"));
    for (flag, file) in [
        ("--arxiv-snapshot", "vectors.snapshot.jsonl"),
        ("--arxiv-oai", "vectors.arxivraw.xml"),
    ] {
        let (code, out, err) = number(&[flag, s(&common::data("arxiv").join(file))], None);
        assert_eq!(code, 0, "{file}: {err}");
        assert!(
            err.contains(&format!("{} numbered, 0 deleted, 0 bad", expected.len())),
            "{err}"
        );
        let got = json_lines(&out);
        assert_eq!(got.len(), expected.len(), "{file}");
        for ((g, e), a) in got.iter().zip(&expected).zip(&atom) {
            for k in ["id", "version", "number", "canonical_sha256"] {
                assert_eq!(g[k], e[k], "{file}: {k} of {}", e["id"]);
            }
            assert_eq!(g["number"].as_str().unwrap(), a, "{file}: Atom path");
            let code = &g["number"].as_str().unwrap()[10..];
            assert_eq!(g["url"], format!("https://pith.science/pith/{code}"));
        }
    }
}

#[test]
fn example_atom_entries_match_the_bulk_forms() {
    let (_, out, _) = number(
        &[
            "--arxiv-snapshot",
            s(&common::data("arxiv").join("vectors.snapshot.jsonl")),
        ],
        None,
    );
    let bulk: HashMap<String, String> = json_lines(&out)
        .into_iter()
        .map(|v| {
            (
                format!("{}v{}", v["id"].as_str().unwrap(), v["version"]),
                v["number"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut seen = 0;
    for e in std::fs::read_dir(root().join("examples")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        let Some(idv) = name.strip_suffix(".atom.xml") else {
            continue;
        };
        if let Some(n) = bulk.get(idv) {
            assert_eq!(&atom_numbers(&p)[0], n, "{name}");
            seen += 1;
        }
    }
    assert_eq!(seen, 3, "the three example papers are among the vectors");
}

#[test]
fn extras_agree_across_forms_and_with_python() {
    // Old-style ids, a null licence, versions out of order, line breaks, double spaces, tabs,
    // LaTeX and non-ASCII: no published numbers, so the forms are compared with each other.
    let atom = atom_numbers(&common::data("arxiv").join("extras.atom.xml"));
    let (c1, snap, e1) = number(
        &[
            "--arxiv-snapshot",
            s(&common::data("arxiv").join("extras.snapshot.jsonl")),
        ],
        None,
    );
    let (c2, oai, e2) = number(
        &[
            "--arxiv-oai",
            s(&common::data("arxiv").join("extras.arxivraw.xml")),
        ],
        None,
    );
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(snap, oai);
    let got: Vec<String> = json_lines(&snap)
        .iter()
        .map(|v| v["number"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, atom);
    let ids: Vec<Value> = json_lines(&snap).iter().map(|v| v["id"].clone()).collect();
    assert_eq!(ids, ["hep-th/9901001", "math/0406128", "2402.00001"]);
    assert_eq!(json_lines(&snap)[0]["version"], 2);
    if have_tool("python3", "extras_agree_across_forms_and_with_python") {
        let o = Command::new("python3")
            .arg(root().join("bench/arxiv_reference.py"))
            .arg(common::data("arxiv").join("extras.snapshot.jsonl"))
            .output()
            .unwrap();
        assert!(o.status.success());
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(snap).unwrap()
        );
    }
}

#[test]
fn generated_snapshot_matches_python_reference_in_order() {
    if !have_tool(
        "python3",
        "generated_snapshot_matches_python_reference_in_order",
    ) {
        return;
    }
    let d = tmpdir("gen");
    let snap = d.join("snap.jsonl");
    let o = Command::new("python3")
        .arg(root().join("bench/arxiv_gen.py"))
        .args(["4000", "7"])
        .output()
        .unwrap();
    assert!(o.status.success());
    std::fs::write(&snap, &o.stdout).unwrap();
    let reference = Command::new("python3")
        .arg(root().join("bench/arxiv_reference.py"))
        .arg(&snap)
        .output()
        .unwrap();
    assert!(reference.status.success());
    let (code, out, err) = number(&["--arxiv-snapshot", s(&snap), "-j", "4"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(reference.stdout).unwrap(),
        "pith and the Python reference differ (order or numbers)"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Compresses `src` into `dst` with a CLI (`tool args… < src > dst`).
fn compress(tool: &str, args: &[&str], src: &Path, dst: &Path) {
    let o = Command::new(tool)
        .args(args)
        .stdin(std::fs::File::open(src).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{tool} failed");
    std::fs::write(dst, o.stdout).unwrap();
}

#[test]
fn compressions_recognised_by_content_and_stdin() {
    let d = tmpdir("comp");
    let plain = common::data("arxiv").join("vectors.snapshot.jsonl");
    let (_, want, _) = number(&["--arxiv-snapshot", s(&plain)], None);
    assert!(!want.is_empty());
    for (tool, args) in [
        ("gzip", &["-c"][..]),
        ("bzip2", &["-c"]),
        ("xz", &["-c"]),
        ("zstd", &["-c", "-q"]),
    ] {
        if !have_tool(tool, "compressions_recognised_by_content_and_stdin") {
            continue;
        }
        // A misleading extension: the magic bytes decide.
        let f = d.join(format!("snapshot-{tool}.dat"));
        compress(tool, args, &plain, &f);
        let (code, out, err) = number(&["--arxiv-snapshot", s(&f)], None);
        assert_eq!((code, &out), (0, &want), "{tool}: {err}");
        let (code, out, err) = number(&["--arxiv-snapshot", "-"], Some(std::fs::read(&f).unwrap()));
        assert_eq!((code, &out), (0, &want), "{tool} on stdin: {err}");
        let page = d.join(format!("page-{tool}.xml.x"));
        compress(
            tool,
            args,
            &common::data("arxiv").join("vectors.arxivraw.xml"),
            &page,
        );
        let (code, out, err) = number(&["--arxiv-oai", s(&page)], None);
        assert_eq!((code, &out), (0, &want), "{tool} OAI: {err}");
    }
    if have_tool("zip", "compressions_recognised_by_content_and_stdin") {
        // As Kaggle ships it: the snapshot inside a zip. `zip` from a file writes sizes in the
        // local header; from a pipe it writes them in a data descriptor after the data.
        let named = d.join("arxiv-metadata-oai-snapshot.json");
        std::fs::copy(&plain, &named).unwrap();
        let z1 = d.join("archive.zip");
        let ok = Command::new("zip")
            .args(["-q", "-j", s(&z1), s(&named)])
            .status()
            .unwrap();
        assert!(ok.success());
        let z2 = d.join("streamed.zip");
        compress("zip", &["-q", "-", "-"], &plain, &z2);
        for z in [&z1, &z2] {
            let (code, out, err) = number(&["--arxiv-snapshot", s(z)], None);
            assert_eq!((code, &out), (0, &want), "{}: {err}", z.display());
            let (code, out, err) =
                number(&["--arxiv-snapshot", "-"], Some(std::fs::read(z).unwrap()));
            assert_eq!((code, &out), (0, &want), "{} on stdin: {err}", z.display());
        }
        // A damaged zip is an error, not a short success.
        let mut bytes = std::fs::read(&z1).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0xff;
        let bad = d.join("damaged.zip");
        std::fs::write(&bad, bytes).unwrap();
        let (code, _, err) = number(&["--arxiv-snapshot", s(&bad)], None);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("damaged.zip"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn truncated_gzip_is_reported_with_its_position() {
    if !have_tool("gzip", "truncated_gzip_is_reported_with_its_position") {
        return;
    }
    let d = tmpdir("trunc");
    let plain = common::data("arxiv").join("vectors.snapshot.jsonl");
    let gz = d.join("snap.jsonl.gz");
    compress("gzip", &["-c"], &plain, &gz);
    let (_, full, _) = number(&["--arxiv-snapshot", s(&plain)], None);
    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&gz, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let (code, out, err) = number(&["--arxiv-snapshot", s(&gz)], None);
    assert_eq!(code, 2, "a truncated file must fail the run: {err}");
    assert!(
        full.starts_with(&out),
        "output is a prefix of the full output"
    );
    let last = err
        .lines()
        .find(|l| l.contains("after"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(last.contains("snap.jsonl.gz: after"), "{err}");
    assert!(err.contains("1 bad"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn broken_line_in_the_middle_is_reported_and_the_run_goes_on() {
    let d = tmpdir("broken");
    let text =
        std::fs::read_to_string(common::data("arxiv").join("vectors.snapshot.jsonl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    lines.insert(4, "{\"id\":\"2401.00001\",\"title\":\"cut here");
    let f = d.join("broken.jsonl");
    std::fs::write(&f, lines.join("\n") + "\n").unwrap();
    let (code, out, err) = number(&["--arxiv-snapshot", s(&f)], None);
    assert_eq!(code, 2, "{err}");
    assert_eq!(json_lines(&out).len(), n);
    assert!(err.contains("broken.jsonl:5: not a snapshot line"), "{err}");
    assert!(
        err.contains(&format!("{n} numbered, 0 deleted, 1 bad")),
        "{err}"
    );
    let (_, good, _) = number(
        &[
            "--arxiv-snapshot",
            s(&common::data("arxiv").join("vectors.snapshot.jsonl")),
        ],
        None,
    );
    assert_eq!(out, good, "the other lines, in input order");
    let (code, out, err) = number(&["--arxiv-snapshot", s(&f), "--strict"], None);
    assert_eq!(code, 2);
    assert_eq!(json_lines(&out).len(), 4, "--strict stops at the bad line");
    assert!(err.contains("broken.jsonl:5:"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn oai_deleted_records_errors_and_resumption_tokens() {
    let d = tmpdir("oai");
    let page = std::fs::read_to_string(common::data("arxiv").join("vectors.arxivraw.xml")).unwrap();
    let deleted = "<record><header status=\"deleted\"><identifier>oai:arXiv.org:hep-th/9901002</identifier><datestamp>2020-01-01</datestamp></header></record>\n";
    let page = page.replacen("<ListRecords>\n", &format!("<ListRecords>\n{deleted}"), 1);
    let page = page.replace(
        "<resumptionToken cursor=\"0\" completeListSize=\"11\"/>",
        "<resumptionToken cursor=\"0\" completeListSize=\"2500000\">6960524|1001</resumptionToken>",
    );
    let p1 = d.join("page1.xml");
    std::fs::write(&p1, &page).unwrap();
    let p2 = d.join("page2.xml");
    std::fs::write(&p2, "<?xml version=\"1.0\"?>\n<OAI-PMH xmlns=\"http://www.openarchives.org/OAI/2.0/\"><responseDate>2024-06-02T00:00:00Z</responseDate><request verb=\"ListRecords\">http://export.arxiv.org/oai2</request><error code=\"badResumptionToken\">The value of the resumptionToken argument is invalid or expired.</error></OAI-PMH>\n").unwrap();
    let (code, out, err) = number(&["--arxiv-oai", s(&p1), s(&p2)], None);
    assert_eq!(code, 2, "{err}");
    assert_eq!(json_lines(&out).len(), 11);
    assert!(err.contains("page1.xml: record 1 (oai:arXiv.org:hep-th/9901002): hep-th/9901002 is deleted, not numbered"), "{err}");
    assert!(err.contains("resumptionToken \"6960524|1001\""), "{err}");
    assert!(err.contains("page2.xml: after 0 lines/records: the OAI-PMH response is an error: badResumptionToken"), "{err}");
    assert!(err.contains("11 numbered, 1 deleted, 1 bad"), "{err}");
    // noRecordsMatch is an empty answer, not an error.
    std::fs::write(
        &p2,
        "<OAI-PMH><error code=\"noRecordsMatch\">none</error></OAI-PMH>",
    )
    .unwrap();
    let (code, _, err) = number(&["--arxiv-oai", s(&p2)], None);
    assert_eq!(code, 0, "{err}");
    // A DTD is refused.
    std::fs::write(
        &p2,
        page.replace(
            "<OAI-PMH ",
            "<!DOCTYPE OAI-PMH [<!ENTITY e \"x\">]>\n<OAI-PMH ",
        ),
    )
    .unwrap();
    let (code, out, err) = number(&["--arxiv-oai", s(&p2)], None);
    assert_eq!((code, out.len()), (2, 0), "{err}");
    assert!(err.contains("DTDs and entities are refused"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn wrong_form_or_missing_file_is_one_line_error() {
    let (code, out, err) = number(
        &[
            "--arxiv-oai",
            s(&common::data("arxiv").join("vectors.snapshot.jsonl")),
        ],
        None,
    );
    assert_eq!((code, out.len()), (2, 0));
    assert!(
        err.starts_with("pith: ")
            && err.contains(
                "vectors.snapshot.jsonl: given as OAI-PMH XML but it is snapshot JSON Lines"
            ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    let (code, _, err) = number(&["--arxiv-snapshot", "/nonexistent/snap.jsonl"], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent/snap.jsonl: cannot read"),
        "{err}"
    );
    let (code, _, err) = number(&["--arxiv-snapshot", "-", "-"], None);
    assert_eq!(code, 2, "{err}");
}

fn exif_number(path: &Path) -> String {
    let (_, out, _) = common::run("exiftool", &["-s3", "-PithNumber", s(path)], None);
    out.trim().to_owned()
}

fn qpdf_clean(path: &Path) -> bool {
    let o = Command::new("qpdf")
        .arg("--check")
        .arg(path)
        .output()
        .unwrap();
    o.status.code() == Some(0) && !String::from_utf8_lossy(&o.stdout).contains("WARNING")
}

/// `pith batch`: (exit code, report lines by PDF file name relative to `dir`, stderr).
fn batch(args: &[&str], dir: &Path) -> (i32, HashMap<String, Value>, Value, String) {
    let o = pith().arg("batch").args(args).output().unwrap();
    let mut by_name = HashMap::new();
    let mut summary = Value::Null;
    for v in json_lines(&o.stdout) {
        if v.get("summary").is_some() {
            summary = v;
            continue;
        }
        let p = PathBuf::from(v["pdf"].as_str().unwrap());
        let rel = p.strip_prefix(dir).unwrap().to_str().unwrap().to_owned();
        assert!(by_name.insert(rel, v).is_none(), "one line per PDF");
    }
    (
        o.status.code().unwrap_or(-1),
        by_name,
        summary,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn batch_matches_pdfs_by_arxiv_name_and_version() {
    if !have_tool("qpdf", "batch_matches_pdfs_by_arxiv_name_and_version")
        || !have_tool("exiftool", "batch_matches_pdfs_by_arxiv_name_and_version")
        || !have_tool("gzip", "batch_matches_pdfs_by_arxiv_name_and_version")
    {
        return;
    }
    let d = tmpdir("batch");
    let pdfs = d.join("pdfs");
    let src = root().join("examples/2402.03791v3.pdf");
    for name in [
        "2402.03791v3.pdf",     // matches (latest)
        "2402.03791v2.pdf",     // older version: skipped
        "sub/1608.03461v2.pdf", // matches, in a subdirectory
        "hep-th/9901001v2.pdf", // old-style, archive as directory: matches
        "hep-th9901001v1.pdf",  // old-style, glued, older: skipped
        "2412.99999v1.pdf",     // no metadata entry: failed
        "notes.pdf",            // no arXiv id in the name: failed
    ] {
        let p = pdfs.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(&src, &p).unwrap();
    }
    let meta = d.join("meta.dat");
    compress(
        "gzip",
        &["-c"],
        &common::data("arxiv").join("vectors.snapshot.jsonl"),
        &meta,
    );
    let out = d.join("out");
    let unmatched = d.join("unmatched.txt");
    let (code, r, summary, err) = batch(
        &[
            "--dir",
            s(&pdfs),
            "--out-dir",
            s(&out),
            "--arxiv-metadata",
            s(&meta),
            s(&common::data("arxiv").join("extras.arxivraw.xml")),
            "--arxiv-unmatched",
            s(&unmatched),
            "-j",
            "2",
        ],
        &pdfs,
    );
    assert_eq!(
        code, 0,
        "unmatched and skipped files are reported, not failures: {err}"
    );
    let status = |n: &str| r[n]["status"].as_str().unwrap().to_owned();
    let reason = |n: &str| r[n]["reason"].as_str().unwrap_or("").to_owned();
    assert_eq!(r.len(), 7, "{r:?}");
    let vec_numbers: HashMap<String, String> = json_lines(
        &number(
            &[
                "--arxiv-snapshot",
                s(&common::data("arxiv").join("vectors.snapshot.jsonl")),
            ],
            None,
        )
        .1,
    )
    .into_iter()
    .map(|v| {
        (
            v["id"].as_str().unwrap().into(),
            v["number"].as_str().unwrap().into(),
        )
    })
    .collect();
    let old_style = &atom_numbers(&common::data("arxiv").join("extras.atom.xml"))[0];
    for (name, want) in [
        ("2402.03791v3.pdf", vec_numbers["2402.03791"].clone()),
        ("sub/1608.03461v2.pdf", vec_numbers["1608.03461"].clone()),
        ("hep-th/9901001v2.pdf", old_style.clone()),
    ] {
        assert_eq!(status(name), "injected", "{name}: {}", reason(name));
        let f = out.join(name);
        assert!(qpdf_clean(&f), "{name}: qpdf --check");
        assert_eq!(
            exif_number(&f),
            want,
            "{name}: exiftool reads the number back"
        );
    }
    assert_eq!(status("2402.03791v2.pdf"), "skipped");
    assert!(reason("2402.03791v2.pdf").contains("not the latest version (v3)"));
    // The reason names the option that injects it anyway.
    assert!(reason("2402.03791v2.pdf").contains("--arxiv-any-version"));
    assert_eq!(status("hep-th9901001v1.pdf"), "skipped");
    assert_eq!(status("2412.99999v1.pdf"), "unmatched");
    assert!(reason("2412.99999v1.pdf").contains("no metadata entry for 2412.99999"));
    assert_eq!(status("notes.pdf"), "unmatched");
    assert!(!out.join("2402.03791v2.pdf").exists() && !out.join("notes.pdf").exists());
    assert_eq!(
        (
            summary["total"].as_u64(),
            summary["injected"].as_u64(),
            summary["skipped"].as_u64(),
            summary["unmatched"].as_u64()
        ),
        (Some(7), Some(3), Some(2), Some(2)),
        "{summary}"
    );
    // Entries no PDF needed: the vectors but two, the extras but one.
    let list = std::fs::read_to_string(&unmatched).unwrap();
    assert_eq!(list.lines().count(), vec_numbers.len() - 2 + 2, "{list}");
    assert!(list.lines().any(|l| l == "math/0406128") && !list.contains("2402.03791"));
    assert!(err.contains("3 PDF(s) matched, 2 skipped"), "{err}");

    // Opting in numbers the older versions with the latest version's number; a manifest
    // column names PDFs whose file names say nothing.
    let manifest = d.join("m.jsonl");
    std::fs::write(
        &manifest,
        "{\"pdf\":\"pdfs/notes.pdf\",\"arxiv_id\":\"1608.03461v2\",\"out\":\"o/notes.pdf\"}\n{\"pdf\":\"pdfs/2402.03791v2.pdf\",\"out\":\"o/old.pdf\"}\n",
    )
    .unwrap();
    let o = pith()
        .arg("batch")
        .args([
            "--manifest",
            s(&manifest),
            "--in-place",
            "--arxiv-metadata",
            "-",
            "--arxiv-any-version",
        ])
        .write_stdin(std::fs::read(common::data("arxiv").join("vectors.snapshot.jsonl")).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        exif_number(&d.join("o/notes.pdf")),
        vec_numbers["1608.03461"]
    );
    assert_eq!(exif_number(&d.join("o/old.pdf")), vec_numbers["2402.03791"]);
    assert!(qpdf_clean(&d.join("o/old.pdf")));
    let _ = std::fs::remove_dir_all(&d);
}
