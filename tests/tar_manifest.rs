//! Tar batches with a manifest: mismatches leave no output, unlisted tars are refused, shards
//! resume and write the output manifest.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::tar::{
    batch, example_pdf, example_tar, fixture_bytes, json_lines, listing, make_tar, md5sum,
    metadata, s, tools,
};

/// A manifest listing `tars` (path, md5, size) in arXiv's format.
fn manifest(path: &Path, tars: &[(&str, String, u64)]) {
    let mut x = String::from("<?xml version='1.0' standalone='yes'?>\n<arXivPDF>\n");
    for (i, (name, md5, size)) in tars.iter().enumerate() {
        x.push_str(&format!(
            "<file>\n<content_md5sum>0123</content_md5sum>\n<filename>pdf/{name}</filename>\n<first_item>x</first_item>\n<last_item>y</last_item>\n<md5sum>{md5}</md5sum>\n<num_items>2</num_items>\n<seq_num>{}</seq_num>\n<size>{size}</size>\n<timestamp>2024-01-01 00:00:00</timestamp>\n<yymm>2402</yymm>\n</file>\n",
            i + 1
        ));
    }
    x.push_str("</arXivPDF>\n");
    std::fs::write(path, x).unwrap();
}

#[test]
fn manifest_mismatch_leaves_no_output_and_unlisted_tars_are_refused() {
    if !tools("manifest_mismatch_leaves_no_output_and_unlisted_tars_are_refused") {
        return;
    }
    let d = common::tmpdir();
    let d = d.path();
    let meta = metadata(d);
    let input = example_tar(d);
    let size = std::fs::metadata(&input).unwrap().len();
    let m = d.join("manifest.xml");
    let out = d.join("out.tar");
    let run = |args: &[&str], stdin: Option<&Path>| {
        let mut a = vec!["--arxiv-metadata", s(&meta), "--arxiv-manifest", s(&m)];
        a.extend_from_slice(args);
        batch(&a, stdin)
    };
    // A wrong md5: no output file, exit 2, one line naming the tar.
    manifest(&m, &[("arXiv_pdf_2402_001.tar", "0".repeat(32), size)]);
    let (code, _, err) = run(&["--tar", s(&input), "--out-tar", s(&out)], None);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("arXiv_pdf_2402_001.tar") && err.contains("differ from the manifest"),
        "{err}"
    );
    assert!(!out.exists(), "no output on a mismatch");
    assert!(
        std::fs::read_dir(d).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".pith-tmp")),
        "no temporary file left"
    );
    // On standard output: exit 2 (the bytes have gone already).
    let (code, _, err) = run(
        &[
            "--tar",
            "-",
            "--tar-name",
            "arXiv_pdf_2402_001.tar",
            "--out-tar",
            "-",
            "--report",
            s(&d.join("r")),
        ],
        Some(&input),
    );
    assert_eq!(code, 2, "{err}");
    // A wrong size too.
    manifest(
        &m,
        &[("arXiv_pdf_2402_001.tar", md5sum(&input), size + 512)],
    );
    let (code, _, err) = run(&["--tar", s(&input), "--out-tar", s(&out)], None);
    assert_eq!((code, out.exists()), (2, false), "{err}");
    // Matching: the output appears; from a pipe without a name, found by content.
    manifest(&m, &[("arXiv_pdf_2402_001.tar", md5sum(&input), size)]);
    let (code, stdout, err) = run(&["--tar", s(&input), "--out-tar", s(&out)], None);
    assert_eq!((code, out.exists()), (0, true), "{err}");
    let totals = json_lines(&stdout).pop().unwrap();
    assert_eq!(totals["md5_in"].as_str(), Some(md5sum(&input).as_str()));
    assert_eq!(
        totals["md5"].as_str(),
        Some(md5sum(&out).as_str()),
        "the output's md5 for the next stage"
    );
    let (code, _, err) = run(
        &["--tar", "-", "--out-tar", "-", "--report", s(&d.join("r"))],
        Some(&input),
    );
    assert_eq!(code, 0, "{err}");
    // A tar the manifest does not list: refused, unless --any-tar.
    let other = d.join("mine.tar");
    std::fs::copy(&input, &other).unwrap();
    let out2 = d.join("out2.tar");
    let (code, _, err) = run(&["--tar", s(&other), "--out-tar", s(&out2)], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not listed in the manifest"), "{err}");
    assert!(!out2.exists());
    let (code, _, err) = run(
        &["--tar", s(&other), "--out-tar", s(&out2), "--any-tar"],
        None,
    );
    assert_eq!((code, out2.exists()), (0, true), "{err}");
}

#[test]
fn shards_resume_and_the_output_manifest() {
    if !tools("shards_resume_and_the_output_manifest") {
        return;
    }
    let d = common::tmpdir();
    let d = d.path();
    let meta = metadata(d);
    let tars = d.join("tars");
    std::fs::create_dir_all(&tars).unwrap();
    let names = [
        "arXiv_pdf_2402_001.tar",
        "arXiv_pdf_2402_002.tar",
        "arXiv_pdf_0001_001.tar",
        "arXiv_pdf_1608_001.tar",
    ];
    let contents: [Vec<(&str, Vec<u8>)>; 4] = [
        vec![("2402/2402.03791v3.pdf", example_pdf())],
        vec![
            ("2402/2402.03791v2.pdf", example_pdf()),
            ("2402/2402.03791v3.pdf", fixture_bytes("minimal.pdf")),
        ],
        vec![("0001/hep-th0001001v1.pdf", fixture_bytes("minimal.pdf"))],
        vec![("1608/1608.03461v2.pdf", fixture_bytes("minimal.pdf"))],
    ];
    let mut listed = Vec::new();
    for (n, c) in names.iter().zip(&contents) {
        let p = tars.join(n);
        make_tar(d, &p, "gnu", c);
        listed.push((*n, md5sum(&p), std::fs::metadata(&p).unwrap().len()));
    }
    let m = d.join("arXiv_pdf_manifest.xml");
    manifest(&m, &listed);
    let out = d.join("out");
    let shard = |k: &str| {
        batch(
            &[
                "--tar-dir",
                s(&tars),
                "--out-dir",
                s(&out),
                "--arxiv-manifest",
                s(&m),
                "--arxiv-metadata",
                s(&meta),
                "--shard",
                k,
            ],
            None,
        )
    };
    let mut seen = HashMap::new();
    for k in ["0/2", "1/2"] {
        let (code, stdout, err) = shard(k);
        assert_eq!(code, 0, "{err}");
        for v in json_lines(&stdout) {
            if let Some(t) = v.get("tar").and_then(Value::as_str) {
                assert_eq!(v["status"], "done", "{v}");
                assert!(
                    seen.insert(t.to_owned(), k).is_none(),
                    "{t} in one shard only"
                );
            }
        }
    }
    assert_eq!(seen.len(), names.len(), "every tar in some shard: {seen:?}");
    // Each output is the single --tar run's output, byte for byte.
    for n in names {
        let single = d.join(format!("single-{n}"));
        let (code, _, err) = batch(
            &[
                "--tar",
                s(&tars.join(n)),
                "--out-tar",
                s(&single),
                "--arxiv-metadata",
                s(&meta),
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            std::fs::read(out.join(n)).unwrap(),
            std::fs::read(&single).unwrap(),
            "{n}"
        );
        assert_eq!(listing(&tars.join(n)), listing(&out.join(n)));
    }
    // The output manifest lists every tar with its output's md5 and size, other fields kept.
    let text = std::fs::read_to_string(out.join("arXiv_pdf_manifest.xml")).unwrap();
    for n in names {
        let at = text
            .find(&format!("<filename>pdf/{n}</filename>"))
            .unwrap_or_else(|| panic!("{n} listed: {text}"));
        let entry =
            &text[text[..at].rfind("<file>").unwrap()..at + text[at..].find("</file>").unwrap()];
        assert!(
            entry.contains(&format!("<md5sum>{}</md5sum>", md5sum(&out.join(n)))),
            "{entry}"
        );
        assert!(
            entry.contains(&format!(
                "<size>{}</size>",
                std::fs::metadata(out.join(n)).unwrap().len()
            )),
            "{entry}"
        );
        assert!(
            entry.contains("<yymm>2402</yymm>")
                && entry.contains("<content_md5sum>0123</content_md5sum>")
        );
    }
    // A rerun skips what is done; an output removed is redone, and only it.
    let modified = |n: &str| std::fs::metadata(out.join(n)).unwrap().modified().unwrap();
    let before: Vec<_> = names.iter().map(|n| modified(n)).collect();
    std::fs::remove_file(out.join(names[2])).unwrap();
    let mut statuses = HashMap::new();
    for k in ["0/2", "1/2"] {
        let (code, stdout, err) = shard(k);
        assert_eq!(code, 0, "{err}");
        for v in json_lines(&stdout) {
            if let Some(t) = v.get("tar").and_then(Value::as_str) {
                statuses.insert(t.to_owned(), v["status"].as_str().unwrap().to_owned());
            }
        }
    }
    for (i, n) in names.iter().enumerate() {
        let want = if i == 2 { "done" } else { "skipped" };
        assert_eq!(statuses[*n], want, "{n}");
        if i != 2 {
            assert_eq!(modified(n), before[i], "{n} left alone");
        }
    }
    // The tar directory itself as the output directory is refused.
    let (code, _, err) = batch(
        &[
            "--tar-dir",
            s(&tars),
            "--out-dir",
            s(&tars),
            "--arxiv-manifest",
            s(&m),
            "--arxiv-metadata",
            s(&meta),
        ],
        None,
    );
    assert_eq!(
        code, 2,
        "the output directory is the input directory: {err}"
    );
}
