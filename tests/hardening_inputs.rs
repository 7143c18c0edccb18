//! Hardening, inputs: malformed records, bundles, Atom feeds and manifests (wrong
//! types, huge and deeply nested inputs, invalid UTF-8) are one-line errors naming the file;
//! bundles without a verified receipt are never called verified; the crashes found by the fuzz
//! targets in `fuzz/` are replayed (`fuzz_regressions`). SECURITY.md lists which test backs
//! which guarantee.

use crate::common;

use std::time::Duration;

use crate::common::pdfgen::*;
use crate::common::run::{assert_scales, least_of_three};
use crate::common::{
    assert_one_line_error, batch_manifest, fixture, run_pith as pith, run_pith_with as pith_run,
    tmpdir, ATTACKS, SEED,
};
use pith::pdf::xmp;

fn malformed_json() -> Vec<(&'static str, Vec<u8>)> {
    let mut v: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("truncated", b"{\"metadata\": {".to_vec()),
        ("array", b"[1,2,3]".to_vec()),
        ("null", b"null".to_vec()),
        ("string", b"\"pith\"".to_vec()),
        ("wrong types", br#"{"metadata": 5, "schema_version": [], "source": {"id": 1, "version": "x"}}"#.to_vec()),
        ("negative version", br#"{"metadata":{"abstract_canon_sha256":"a12d03de8ba64ca0f8b6fc92a580ef2454f23b4607ec0708779ae54d7f1a9020","cross_cats_sorted":[],"license":null,"primary_cat":"cs.DC","submitted_at":"2024-02-06T08:14:56Z","title_canon_sha256":"cb8fc3273143939af44632cae52b5fcda13085019ac3cf48deecda29b98ad1e3"},"schema_version":"1.0","source":{"id":"2402.03791","kind":"arxiv","version":-1}}"#.to_vec()),
        ("huge number", br#"{"metadata":{},"source":{"version":1e999999}}"#.to_vec()),
        ("invalid utf-8", b"{\"metadata\": \"\xFF\xFE\xC3\"}".to_vec()),
        ("nul bytes", b"{\0\0\0}".to_vec()),
        ("lone surrogate", br#"{"metadata": "\ud800"}"#.to_vec()),
        ("deep nesting", [b"[".repeat(100_000), b"]".repeat(100_000)].concat()),
        ("deep objects", [b"{\"a\":".repeat(50_000), b"1".to_vec(), b"}".repeat(50_000)].concat()),
    ];
    // 8 MB: one huge string, and many keys.
    let mut big = b"{\"metadata\": \"".to_vec();
    big.extend(std::iter::repeat_n(b'x', 8 << 20));
    big.extend_from_slice(b"\"}");
    v.push(("8 MB string", big));
    let mut keys = b"{".to_vec();
    for i in 0..100_000 {
        keys.extend_from_slice(format!("\"k{i}\":{i},").as_bytes());
    }
    keys.extend_from_slice(b"\"end\":0}");
    v.push(("100k keys", keys));
    v
}

#[test]
fn malformed_records_bundles_and_manifests_are_one_line_errors() {
    let dir = tmpdir();
    for (i, (what, bytes)) in malformed_json().into_iter().enumerate() {
        let f = dir.path().join(format!("in{i}.json"));
        std::fs::write(&f, &bytes).unwrap();
        let fs = f.to_str().unwrap();
        let name = format!("in{i}.json");
        let limit = Duration::from_secs(60);
        for args in [
            vec!["number", "--record", fs],
            vec!["record", "--record", fs],
            vec!["verify", "--bundle", fs],
            vec!["badge", SEED, "--bundle", fs],
            vec![
                "inject",
                fixture("minimal.pdf").to_str().unwrap(),
                "--record",
                fs,
                "-o",
                "-",
            ],
        ] {
            let a: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
            let r = pith_run(&a, None, limit);
            assert!(
                r.stdout.is_empty() || args[0] == "verify",
                "{what}: {args:?}: stdout {}",
                r.stdout
            );
            assert_one_line_error(&r, &name);
        }
        // The same bytes on standard input.
        let r = pith_run(
            &["number", "--record", "-"].map(std::ffi::OsStr::new),
            Some(&bytes),
            limit,
        );
        assert_eq!(r.code, 2, "{what}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("pith: ") && !r.stderr.contains("panicked"),
            "{what}: {}",
            r.stderr
        );
        // As a manifest (JSON Lines): the manifest and its line are named.
        let out = dir.path().join("out");
        let r = pith_run(
            &[
                "batch",
                "--manifest",
                fs,
                "--out-dir",
                out.to_str().unwrap(),
            ]
            .map(std::ffi::OsStr::new),
            None,
            limit,
        );
        if what == "empty" {
            assert_eq!(
                r.code, 0,
                "an empty manifest is an empty batch: {}",
                r.stderr
            );
        } else {
            assert_one_line_error(&r, &name);
        }
    }
}

#[test]
fn malformed_manifest_lines_name_the_line() {
    let dir = tmpdir();
    let pdf = dir.path().join("a.pdf");
    std::fs::copy(fixture("minimal.pdf"), &pdf).unwrap();
    for (line, want) in [
        (r#"{"pdf": 5, "number": "x"}"#, "pdf"),
        (r#"{"pdf": "a.pdf", "number": 5}"#, "number"),
        (r#"{"pdf": "a.pdf", "record": 5}"#, "record"),
        (r#"{"pdf": "a.pdf", "arxiv_atom": ["x"]}"#, "arxiv_atom"),
        (
            r#"{"pdf": "a.pdf", "number": "x", "record": "y"}"#,
            "exactly one",
        ),
        (r#"{"pdf": "a.pdf", "number": "x", "out": 1}"#, "out"),
        ("[]", "object"),
    ] {
        let m = dir.path().join("m.jsonl");
        std::fs::write(&m, format!("# comment\n\n{line}\n")).unwrap();
        let r = batch_manifest(&m, &dir.path().join("o"));
        assert_one_line_error(&r, "m.jsonl");
        assert!(
            r.stderr.contains('3') && r.stderr.contains(want),
            "{line}: {}",
            r.stderr
        );
    }
    // A bad number on a valid line is a per-file failure in the report, not a crash.
    let m = dir.path().join("m.jsonl");
    std::fs::write(
        &m,
        format!(
            "{{\"pdf\": \"a.pdf\", \"number\": \"{}\"}}\n",
            ATTACKS[0].replace('"', "\\\"")
        ),
    )
    .unwrap();
    let r = batch_manifest(&m, &dir.path().join("o"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("\"failed\""), "{}", r.stdout);
    assert!(!r.stderr.contains("panicked"));
    assert!(!dir.path().join("o/a.pdf").exists());
}

#[test]
fn malformed_atom_feeds_are_one_line_errors() {
    let dir = tmpdir();
    let good = std::fs::read_to_string(common::example("2402.03791v3.atom.xml")).unwrap();
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("laughs", LAUGHS.replace("x:xmpmeta", "feed").into_bytes()),
        ("external", external_entity().into_bytes()),
        ("dtd", format!("<!DOCTYPE feed>{good}").into_bytes()),
        ("truncated", good.as_bytes()[..good.len() / 2].to_vec()),
        ("invalid utf-8", [good.as_bytes(), b"\xFF"].concat()),
        (
            "no entries",
            b"<feed xmlns=\"http://www.w3.org/2005/Atom\"/>".to_vec(),
        ),
        (
            "wrong root",
            b"<html><script>alert(1)</script></html>".to_vec(),
        ),
        (
            "pi and comment only",
            b"<?xml version=\"1.0\"?><!-- -->".to_vec(),
        ),
        (
            "deep",
            [b"<a>".repeat(200_000), b"</a>".repeat(200_000)].concat(),
        ),
    ];
    let with_abstract = |mib: usize, name: &str| {
        let mut huge = good.clone().into_bytes();
        let at = good.find("<summary>").unwrap() + "<summary>".len();
        huge.splice(at..at, std::iter::repeat_n(b'w', mib << 20));
        let f = dir.path().join(name);
        std::fs::write(&f, &huge).unwrap();
        f
    };
    // An 8 MB abstract is valid: it is hashed, not refused, in time linear in its size (a
    // 1 MB one measured beside it).
    let (huge, one) = (
        with_abstract(8, "huge.atom.xml"),
        with_abstract(1, "long.atom.xml"),
    );
    let (baseline, _) = least_of_three(|| pith(&["number", "--arxiv-atom", one.to_str().unwrap()]));
    let (cost, r) = least_of_three(|| pith(&["number", "--arxiv-atom", huge.to_str().unwrap()]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_scales("an 8 MB abstract", baseline, cost, 16);
    // Elements without their required children or with wrong values.
    cases.push((
        "no id",
        good.replace("<id>", "<idx>")
            .replace("</id>", "</idx>")
            .into_bytes(),
    ));
    cases.push((
        "bad date",
        good.replace("2024-02-06T08:14:56Z", "yesterday")
            .into_bytes(),
    ));
    for (i, (what, bytes)) in cases.into_iter().enumerate() {
        let name = format!("feed{i}.xml");
        let f = dir.path().join(&name);
        std::fs::write(&f, &bytes).unwrap();
        let r = pith(&["number", "--arxiv-atom", f.to_str().unwrap()]);
        assert_one_line_error(&r, &name);
        assert!(!r.stderr.contains("root:"), "{what}: {}", r.stderr);
    }
}

#[test]
fn bundles_without_a_verified_receipt_are_not_called_verified() {
    let dir = tmpdir();
    let recs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(common::data("records.json")).unwrap())
            .unwrap();
    let rec = &recs[0];
    for (name, bundle) in [
        (
            "none",
            serde_json::json!({"canonical_record": rec["canonical_record"], "pith_number": rec["pith_number"]}),
        ),
        (
            "unknown key",
            serde_json::json!({"canonical_record": rec["canonical_record"],
            "receipt": {"kind": "pith_receipt", "key_id": "someone-else", "signature": "AAAA"}}),
        ),
    ] {
        let f = dir.path().join("b.json");
        std::fs::write(&f, bundle.to_string()).unwrap();
        let r = pith(&["verify", "--bundle", f.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{name}: no check failed: {}", r.stderr);
        let last = r.stdout.lines().last().unwrap();
        assert!(last.starts_with("UNVERIFIED"), "{name}: summary {last:?}");
        let r = pith(&["verify", "--json", "--bundle", f.to_str().unwrap()]);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_ne!(v["verdict"], "verified", "{name}");
        // And no badge derives "verified" from it: the badge says computed.
        let r = pith(&[
            "badge",
            rec["pith_number"].as_str().unwrap(),
            "--bundle",
            f.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(
            r.stdout.contains(">computed</text>") && !r.stdout.contains("verified"),
            "{name}: {}",
            r.stdout
        );
    }
}

#[test]
fn fuzz_regressions() {
    let dir = common::root().join("tests/hardening");
    let number = pith::PithNumber::parse(SEED).unwrap();
    let opts = pith::pdf::Options::new("2024-01-01T00:00:00Z");
    let mut replayed = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&p).unwrap();
        replayed += 1;
        match name.split('-').next().unwrap() {
            "pdf" => {
                // A file the full check reads, the sampled check reads too, with the same
                // number (the inspect fuzz target's rule).
                if let Ok(deep) = pith::pdf::inspect_checked(&data[..], pith::pdf::Check::Full) {
                    let sampled = pith::pdf::inspect(&data[..]).expect(&name);
                    assert_eq!(sampled.found(), deep.found(), "{name}");
                }
                let readable = pith::pdf::inspect(&data[..]).is_ok();
                if let Ok(inj) = pith::pdf::inject(&data[..], &number, &opts) {
                    if readable && !inj.unchanged {
                        let out = [&data[..], &inj.appended].concat();
                        let ins = pith::pdf::inspect(&out[..]).expect(&name);
                        assert_eq!(ins.found(), Some(number.full()), "{name}");
                    }
                }
            }
            "xmp" => {
                let _ = xmp::read(&data);
                if let Ok(out) = xmp::merge(Some(&data), &props(), "2024-01-01T00:00:00Z") {
                    assert!(xmp::read(&out).expect(&name).carries(&props()), "{name}");
                }
            }
            "atom" => {
                if let Ok(papers) = pith::record::atom::parse(&String::from_utf8_lossy(&data)) {
                    for paper in papers {
                        let _ = paper.to_record();
                    }
                }
            }
            "record" => {
                if let Ok(r) = pith::Record::from_json(&String::from_utf8_lossy(&data)) {
                    let again =
                        pith::Record::from_json(std::str::from_utf8(&r.canonical_bytes()).unwrap())
                            .expect(&name);
                    assert_eq!(again, r, "{name}");
                }
            }
            "bundle" => {
                if let Ok(v) = serde_json::from_slice(&data) {
                    let _ = pith::verify::bundle(&v, &[pith::verify::Key::registry()]);
                }
            }
            _ => replayed -= 1,
        }
    }
    assert!(replayed > 0, "no inputs in {}", dir.display());
}

/// Fuzz regression (bundle target): "pith" followed by a two-byte character put byte 5 inside
/// it, and the number parser sliced there.
#[test]
fn a_number_whose_fifth_byte_splits_a_character_is_an_error() {
    for text in ["pithƖcen7BMK4ZKT", "pith\u{0196}7BMK4ZKT", "piƖ"] {
        assert!(pith::number::NumberRef::parse(text).is_err(), "{text}");
    }
    let pdf = common::root().join("tests/fixtures/minimal.pdf");
    let r = pith(&[
        "inspect",
        pdf.to_str().unwrap(),
        "--number",
        "pithƖcen7BMK4ZKT",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

/// Fuzz regression (refs_text target): page content that opens a string it never closes, again
/// and again, is read past in one pass. Each failed object used to be read again from its next
/// byte, so the work grew with the square of the stretch (15 KB took 1.8 s). Judged against
/// well-formed content of the same size in the same run: at most a few times its cost.
#[test]
fn malformed_page_content_is_read_past_in_one_pass() {
    let pdf = |content: Vec<u8>| {
        classic(&[
            ("<< /Type /Catalog /Pages 2 0 R >>".into(), None),
            ("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(), None),
            (
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".into(),
                None,
            ),
            (format!("<< /Length {} >>", content.len()), Some(content)),
        ])
    };
    let n = 16 << 10;
    let well = pdf(b"1 ".repeat(n / 2));
    let cost = |data: &[u8]| {
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                let pages =
                    pith::pdf::text::pages(data, pith::pdf::budget::Budget::default()).unwrap();
                assert_eq!(pages.len(), 1);
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let well = cost(&well);
    for (what, content) in [
        ("unclosed strings", b"( ".repeat(n / 2)),
        (
            "unclosed strings in an array",
            [&b"["[..], &b"( ".repeat(n / 2)].concat(),
        ),
    ] {
        let open = cost(&pdf(content));
        assert!(
            open <= well * 20 + std::time::Duration::from_millis(20),
            "16 KB of {what} took {open:?}, the same size of numbers {well:?}"
        );
    }
}
