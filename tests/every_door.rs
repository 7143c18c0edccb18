//! One paper through every door: `pith inject --arxiv-atom`, `pith inject --record` (a record
//! wrapped with its display fields, as the resolver serves it), `pith batch --arxiv-metadata`
//! with arXiv's bulk snapshot and with OAI-PMH arXivRaw pages, `pith batch --tar`, and
//! `pith inject --rewrite`. Every output carries the same XMP (dates aside), and calibre's
//! `ebook-meta` and exiftool find the same identifiers, title and authors in each, the Pith
//! Number once. (Python's `inject` is the same door in python/tests/test_every_door.py.)

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{fixture, have_tool, pith, root, tmpdir};
use serde_json::Value;

const ID: &str = "2402.03791";
const NUMBER: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const DOI: &str = "10.48550/arXiv.2402.03791";
const EPOCH: &str = "1700000000";

fn data(name: &str) -> PathBuf {
    root().join("tests/data/arxiv").join(name)
}

fn run_pith(args: &[&str]) -> (i32, String) {
    let o = pith()
        .args(args)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What a reader sees in one output: exiftool's XMP tags (dates aside) and calibre's title,
/// authors and identifiers.
#[derive(Debug, PartialEq)]
struct Seen {
    xmp: Value,
    title: String,
    authors: String,
    identifiers: Vec<String>,
}

fn seen(pdf: &Path) -> Seen {
    let mut xmp = common::tools::exif_json(pdf, &["-XMP:all", "-G1"]);
    if let Value::Object(m) = &mut xmp {
        m.retain(|k, _| !k.contains("Date") && k != "SourceFile");
    }
    let (ok, out, err) = common::run("ebook-meta", &[s(pdf)], None);
    assert!(ok, "ebook-meta {}: {err}", pdf.display());
    let line = |name: &str| {
        out.lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default()
    };
    let mut identifiers: Vec<String> = line("Identifiers")
        .split(", ")
        .filter(|i| !i.is_empty())
        .map(str::to_owned)
        .collect();
    identifiers.sort();
    Seen {
        xmp,
        title: line("Title"),
        authors: line("Author(s)"),
        identifiers,
    }
}

#[test]
#[ignore = "full tier (calibre's ebook-meta runs once per door, seconds each)"]
fn one_paper_reads_the_same_through_every_door() {
    if !["ebook-meta", "exiftool", "tar"]
        .iter()
        .all(|t| have_tool(t, "one_paper_reads_the_same_through_every_door"))
    {
        return;
    }
    let d = tmpdir();
    let d = d.path();
    // A PDF with no title or authors of its own, named as arXiv names it.
    let inp = d.join("in");
    let name = format!("{ID}v3.pdf");
    common::copy_writable(&fixture("minimal.pdf"), &inp.join(&name));
    let input = inp.join(&name);
    // The feed's entry names one author; the bulk metadata names two: the entry gets the
    // second, so that every source says the same.
    let text = std::fs::read_to_string(data("vectors.atom.xml")).unwrap();
    let text = text.replacen(
        "<author><name>A. Author</name></author>",
        "<author><name>A. Author</name></author><author><name>B. Autor</name></author>",
        1,
    );
    let atom = d.join("feed.atom.xml");
    std::fs::write(&atom, text).unwrap();
    let mut outputs: Vec<(&str, PathBuf)> = Vec::new();

    // `pith inject` from the feed into `folder/name`, with `more` arguments.
    let inject = |folder: &str, more: &[&str]| {
        let to = d.join(folder).join(&name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let mut args = vec!["inject", s(&input), "--arxiv-atom", s(&atom), "--id", ID];
        args.extend(more);
        args.extend(["-o", s(&to)]);
        let (code, out) = run_pith(&args);
        assert_eq!(code, 0, "{out}");
        to
    };
    let a = inject("atom", &[]);
    outputs.push(("inject --arxiv-atom", a.clone()));
    outputs.push(("inject --rewrite", inject("rewrite", &["--rewrite"])));

    // The record as the resolver serves it: the canonical record with its display fields.
    let (code, record) = {
        let o = pith()
            .args(["record", "--arxiv-atom", s(&atom), "--id", ID])
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    assert_eq!(code, Some(0), "{record}");
    let wrapped = serde_json::json!({
        "canonical_record": serde_json::from_str::<Value>(&record).unwrap(),
        "pith_number": NUMBER,
        "title": "ZeroPP: Unleashing Exceptional Parallelism Efficiency through\n Tensor-Parallelism-Free Methodology",
        "authors": "A. Author and B. Autor",
    });
    let r = d.join("wrapped.record.json");
    std::fs::write(&r, wrapped.to_string()).unwrap();
    let b = d.join("record").join(&name);
    std::fs::create_dir_all(b.parent().unwrap()).unwrap();
    let (code, out) = run_pith(&["inject", s(&input), "--record", s(&r), "-o", s(&b)]);
    assert_eq!(code, 0, "{out}");
    outputs.push(("inject --record", b));

    for (door, meta) in [
        (
            "batch --arxiv-metadata (snapshot)",
            "vectors.snapshot.jsonl",
        ),
        ("batch --arxiv-metadata (OAI-PMH)", "vectors.arxivraw.xml"),
    ] {
        let o = d.join(meta.replace('.', "-"));
        let (code, out) = run_pith(&[
            "batch",
            "--dir",
            s(&inp),
            "--arxiv-metadata",
            s(&data(meta)),
            "--out-dir",
            s(&o),
        ]);
        assert_eq!(code, 0, "{door}: {out}");
        outputs.push((door, o.join(&name)));
    }

    let tar_in = d.join("in.tar");
    let st = Command::new("tar")
        .args([
            "--format=gnu",
            "-cf",
            s(&tar_in),
            "-C",
            s(&inp),
            "--transform",
            "s,^,2402/,",
        ])
        .arg(&name)
        .status()
        .unwrap();
    assert!(st.success());
    let tar_out = d.join("out.tar");
    let (code, out) = run_pith(&[
        "batch",
        "--tar",
        s(&tar_in),
        "--out-tar",
        s(&tar_out),
        "--arxiv-metadata",
        s(&data("vectors.snapshot.jsonl")),
        "--report",
        s(&d.join("tar.jsonl")),
    ]);
    assert_eq!(code, 0, "{out}");
    let x = d.join("x");
    std::fs::create_dir_all(&x).unwrap();
    assert!(Command::new("tar")
        .args(["-xf", s(&tar_out), "-C", s(&x)])
        .status()
        .unwrap()
        .success());
    outputs.push(("batch --tar", x.join("2402").join(&name)));

    let first = seen(&outputs[0].1);
    // What the paper's sources say, found by the readers.
    let code = NUMBER.rsplit(':').next().unwrap();
    assert_eq!(
        first
            .identifiers
            .iter()
            .filter(|i| i.contains(code))
            .count(),
        1,
        "calibre shows the number once: {first:?}"
    );
    assert!(
        first.identifiers.contains(&NUMBER.to_owned()),
        "pasteable: {first:?}"
    );
    assert!(
        first.identifiers.contains(&format!("doi:{DOI}")),
        "{first:?}"
    );
    assert!(
        first.identifiers.contains(&format!("arxiv:{ID}v3")),
        "{first:?}"
    );
    assert!(first.title.starts_with("ZeroPP: Unleashing"), "{first:?}");
    assert!(
        first.authors.contains("A. Author") && first.authors.contains("B. Autor"),
        "{first:?}"
    );
    assert_eq!(first.xmp["XMP-prism:DOI"], DOI, "{first:?}");
    assert_eq!(first.xmp["XMP-pith:Number"], NUMBER, "{first:?}");
    for (door, pdf) in &outputs[1..] {
        let got = seen(pdf);
        assert_eq!(&got, &first, "{door} differs from {}", outputs[0].0);
    }
}
