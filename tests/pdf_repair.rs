//! Part 4: `pith inject --repair` on files readers open only after reconstructing
//! the cross-reference table. Damaged files are generated here (offsets shifted as by a CRLF
//! conversion, junk inserted in the middle, missing `startxref`, truncated xref, an object
//! defined twice, object streams, bytes before `%PDF-`), taken from tests/fixtures and from
//! the shared corpus (sampled; all of it under `PITH_CORPUS_FULL=1`). Every output must keep
//! the input as a byte-identical prefix, pass `qpdf --check` without reconstruction (clean
//! where the input only needed reconstruction), carry the number for pdfinfo and exiftool,
//! have the pages and page-1 text (pdftotext) the input has for qpdf/poppler, open in mutool
//! without repair, and be "unchanged" on a rerun.

use crate::common;

use std::path::{Path, PathBuf};

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const KEY: &str = "7BMK4ZKTPUTUY3JKWBANNPOFR5";

/// A two-page PDF with a classic xref table; `prefix` goes before `%PDF-` (offsets count from
/// the header). Object 4 is page 1's content.
fn build(prefix: &[u8]) -> Vec<u8> {
    let stream = |text: &str| {
        let c = format!("BT /F1 18 Tf 20 100 Td ({text}) Tj ET");
        format!("<< /Length {} >>\nstream\n{c}\nendstream", c.len())
    };
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        &stream("First page"),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 7 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        &stream("Second page"),
        "<< /Title (Repair test) /Producer (pith tests) >>",
    ];
    let objs: Vec<(String, Option<Vec<u8>>)> = objs.iter().map(|o| (o.to_string(), None)).collect();
    let layout = common::pdfgen::Layout {
        prefix,
        trailer: " /Info 8 0 R /ID [<00112233445566778899AABBCCDDEEFF><00112233445566778899AABBCCDDEEFF>]",
        ..Default::default()
    };
    common::pdfgen::classic_with(&objs, &layout)
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle")
}

/// The generated damaged files, by name.
fn damaged_cases(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let good = build(b"");
    let mut cases = Vec::new();
    // A CRLF conversion (as by a text-mode transfer): every offset is shifted.
    let crlf: Vec<u8> = good
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    cases.push(("crlf".to_string(), crlf));
    // Junk inserted in the middle (after object 3).
    let mut junk = good.clone();
    let at = find(&junk, b"4 0 obj");
    junk.splice(
        at..at,
        b"% a comment line someone inserted\n".iter().copied(),
    );
    cases.push(("junk-middle".to_string(), junk));
    // No startxref at all.
    let mut nosx = good.clone();
    nosx.truncate(find(&nosx, b"startxref"));
    cases.push(("no-startxref".to_string(), nosx));
    // Truncated inside the xref table (no trailer: the catalog is found by its /Type).
    let mut trunc = good.clone();
    trunc.truncate(find(&trunc, b"xref\n0 ") + 40);
    cases.push(("truncated-xref".to_string(), trunc));
    // An object defined twice (the later definition wins), offsets shifted by it.
    let mut twice = good.clone();
    let at = find(&twice, b"xref\n0 ");
    twice.splice(
        at..at,
        b"4 0 obj\n<< /Length 41 >>\nstream\nBT /F1 18 Tf 20 100 Td (Later text) Tj ET\nendstream\nendobj\n"
            .iter()
            .copied(),
    );
    let at = find(&twice, b"1 0 obj");
    twice.splice(at..at, b"%\n".iter().copied());
    cases.push(("defined-twice".to_string(), twice));
    // Bytes before %PDF- and shifted offsets: offsets count from the header.
    let mut pre = build(b"GARBAGE BEFORE THE HEADER\n");
    let at = find(&pre, b"2 0 obj");
    pre.splice(at..at, b"\n\n\n".iter().copied());
    cases.push(("prefix-shifted".to_string(), pre));
    // Object streams and an xref stream (made by qpdf), then shifted.
    let plain = dir.join("plain.pdf");
    std::fs::write(&plain, &good).unwrap();
    let objstm = dir.join("objstm.pdf");
    let (ok, _, err) = common::run(
        "qpdf",
        &[
            "--object-streams=generate",
            plain.to_str().unwrap(),
            objstm.to_str().unwrap(),
        ],
        None,
    );
    assert!(ok, "qpdf --object-streams=generate: {err}");
    let mut os = std::fs::read(&objstm).unwrap();
    let at = find(&os, b"%\xbf\xf7\xa2\xfe").min(os.len());
    os.splice(at..at, b"% shifted\n".iter().copied());
    cases.push(("object-streams".to_string(), os));
    cases
}

/// `qpdf --check`: (exit code, combined output).
fn qpdf_check(f: &Path) -> (i32, String) {
    let o = std::process::Command::new("qpdf")
        .arg("--check")
        .arg(f)
        .output()
        .unwrap();
    let mut t = String::from_utf8_lossy(&o.stdout).into_owned();
    t.push_str(&String::from_utf8_lossy(&o.stderr));
    (o.status.code().unwrap_or(-1), t)
}

fn reconstructs(qpdf_out: &str) -> bool {
    qpdf_out.contains("file is damaged") || qpdf_out.contains("reconstruct")
}

/// Standard output of a tool, `None` when it fails.
fn stdout(program: &str, args: &[&str]) -> Option<String> {
    let o = std::process::Command::new(program)
        .args(args)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

fn pages(f: &Path) -> Option<String> {
    stdout("qpdf", &["--show-npages", f.to_str().unwrap()])
}

fn text1(f: &Path) -> Option<String> {
    stdout(
        "pdftotext",
        &["-f", "1", "-l", "1", f.to_str().unwrap(), "-"],
    )
}

fn inject(input: &Path, out: &Path, repair: bool) -> std::process::Output {
    let mut c = common::pith();
    c.arg("inject")
        .arg(input)
        .args(["--number", A, "-o"])
        .arg(out);
    if repair {
        c.arg("--repair");
    }
    c.output().unwrap()
}

fn tools(test: &str) -> bool {
    common::have_tool("qpdf", test)
        & common::have_tool("pdfinfo", test)
        & common::have_tool("pdftotext", test)
        & common::have_tool("exiftool", test)
        & common::have_tool("mutool", test)
}

/// The checks every repaired output passes; `strict` where the input only needed the
/// reconstruction (generated files): qpdf clean, mutool without any repair.
fn check_repaired(name: &str, input: &Path, out: &Path, strict: bool) {
    let src = std::fs::read(input).unwrap();
    let res = std::fs::read(out).unwrap();
    assert!(res.starts_with(&src), "{name}: the input is not a prefix");
    let (in_rc, _) = qpdf_check(input);
    let (rc, text) = qpdf_check(out);
    assert!(
        !reconstructs(&text),
        "{name}: qpdf still reconstructs:\n{text}"
    );
    let rank = |c: i32| match c {
        0 => 0,
        3 => 1,
        _ => 2,
    };
    assert!(
        rank(rc) <= rank(in_rc),
        "{name}: qpdf {in_rc} -> {rc}:\n{text}"
    );
    if strict {
        assert_eq!(rc, 0, "{name}: qpdf --check is not clean:\n{text}");
    }
    let info = stdout("pdfinfo", &["-custom", out.to_str().unwrap()]).unwrap_or_default();
    assert!(
        info.contains(KEY),
        "{name}: pdfinfo does not see the number:\n{info}"
    );
    // exiftool reads only files that start with `%PDF-` (then it must see the number).
    if src.starts_with(b"%PDF-") {
        let exif = stdout("exiftool", &["-a", "-G1", out.to_str().unwrap()]).unwrap_or_default();
        assert!(
            exif.contains(KEY),
            "{name}: exiftool does not see the number"
        );
    }
    if let Some(p) = pages(input) {
        assert_eq!(pages(out), Some(p), "{name}: page count");
        if let Some(t) = text1(input) {
            assert_eq!(text1(out), Some(t), "{name}: page-1 text");
        }
    }
    let mu = std::process::Command::new("mutool")
        .arg("info")
        .arg(out)
        .output()
        .unwrap();
    let mu_text = String::from_utf8_lossy(&mu.stderr).to_lowercase();
    // mutool, like exiftool, repairs any file whose first bytes are not `%PDF-`.
    if strict && src.starts_with(b"%PDF-") {
        assert!(mu.status.success(), "{name}: mutool info fails: {mu_text}");
        assert!(
            !mu_text.contains("repair") && !mu_text.contains("error"),
            "{name}: mutool repairs: {mu_text}"
        );
    }
    let again = out.with_extension("again.pdf");
    let o = inject(out, &again, true);
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("unchanged"),
        "{name}: rerun is not unchanged: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn generated_damaged_files_get_a_complete_section() {
    if !tools("generated_damaged_files_get_a_complete_section") {
        return;
    }
    let dir = common::tmpdir();
    for (name, bytes) in damaged_cases(dir.path()) {
        let input = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&input, &bytes).unwrap();
        let (_, t) = qpdf_check(&input);
        assert!(
            reconstructs(&t),
            "{name}: the generated file is not damaged:\n{t}"
        );
        let out = dir.path().join(format!("{name}.out.pdf"));
        let plain = inject(&input, &out, false);
        assert_eq!(
            plain.status.code(),
            Some(2),
            "{name}: refused without --repair"
        );
        assert!(String::from_utf8_lossy(&plain.stderr).contains("--repair"));
        assert!(!out.exists());
        let o = inject(&input, &out, true);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stdout).contains("rebuilt"));
        check_repaired(&name, &input, &out, true);
        let res = std::fs::read(&out).unwrap();
        let tail = String::from_utf8_lossy(&res[bytes.len()..]);
        // One section, complete, with no /Prev into the broken chain.
        assert!(!tail.contains("/Prev"), "{name}: /Prev in the update");
        if name == "object-streams" {
            assert!(tail.contains("/Type /XRef"), "{name}: needs an xref stream");
        } else {
            assert!(tail.contains("xref\n0 "), "{name}: a table from object 0");
        }
        if name == "defined-twice" {
            assert!(text1(&out).unwrap().contains("Later text"));
        }
        // In place gives the same result as a new file.
        let inplace = dir.path().join(format!("{name}.inplace.pdf"));
        std::fs::write(&inplace, &bytes).unwrap();
        common::pith()
            .arg("inject")
            .arg(&inplace)
            .args(["--number", A, "--in-place", "--repair"])
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .assert()
            .success();
        check_repaired(&format!("{name} in place"), &input, &inplace, true);
    }
}

#[test]
fn a_file_that_is_not_damaged_is_updated_as_without_repair() {
    let dir = common::tmpdir();
    let input = dir.path().join("good.pdf");
    std::fs::write(&input, build(b"PREFIX\n")).unwrap();
    let mut outs = Vec::new();
    for repair in [false, true] {
        let out = dir.path().join(format!("out-{repair}.pdf"));
        let mut c = common::pith();
        c.arg("inject")
            .arg(&input)
            .args(["--number", A, "-o"])
            .arg(&out)
            .env("SOURCE_DATE_EPOCH", "1700000000");
        if repair {
            c.arg("--repair");
        }
        c.assert().success();
        outs.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn files_without_a_catalog_or_page_tree_stay_refused() {
    let dir = common::tmpdir();
    let cases: [(&str, &[u8]); 3] = [
        ("no-catalog", b"%PDF-1.4\n1 0 obj\n<< /Foo 1 >>\nendobj\n%%EOF\n"),
        (
            "no-pages",
            b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
        ),
        (
            "leaf-not-a-page",
            b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Action /S /URI /URI (x) >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
        ),
    ];
    for (name, bytes) in cases {
        let input = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&input, bytes).unwrap();
        let out = dir.path().join(format!("{name}.out.pdf"));
        let o = inject(&input, &out, true);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(input.to_str().unwrap()), "{name}: {err}");
        assert!(!out.exists());
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
    }
}

#[test]
fn batch_repair() {
    if !common::have_tool("qpdf", "batch_repair") {
        return;
    }
    let dir = common::tmpdir();
    let inp = dir.path().join("in");
    std::fs::create_dir_all(&inp).unwrap();
    let (_, bytes) = damaged_cases(dir.path()).remove(0);
    std::fs::write(inp.join("broken.pdf"), &bytes).unwrap();
    let manifest = inp.join("manifest.jsonl");
    std::fs::write(
        &manifest,
        format!("{{\"pdf\":\"broken.pdf\",\"number\":\"{A}\"}}\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = |repair: bool| {
        let mut c = common::pith();
        c.args(["batch", "--manifest"])
            .arg(&manifest)
            .arg("--out-dir")
            .arg(&out);
        if repair {
            c.arg("--repair");
        }
        String::from_utf8_lossy(&c.output().unwrap().stdout).into_owned()
    };
    let refused = run(false);
    assert!(
        refused.contains("\"refused\"") && refused.contains("--repair"),
        "{refused}"
    );
    let done = run(true);
    assert!(done.contains("\"injected\""), "{done}");
    let res = std::fs::read(out.join("broken.pdf")).unwrap();
    assert!(res.starts_with(&bytes));
    let (rc, t) = qpdf_check(&out.join("broken.pdf"));
    assert_eq!(rc, 0, "{t}");
}

/// The damaged fixtures, and the shared corpus's files refused as damaged (every third; all
/// with `PITH_CORPUS_FULL=1`): each becomes an update that passes [`check_repaired`], or
/// stays refused with one line. Prints the counts.
#[test]
#[ignore = "full tier (the shared corpus): cargo test -- --include-ignored"]
fn fixtures_and_corpus() {
    if !tools("fixtures_and_corpus") {
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::root().join("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    let n_fixtures = files.len();
    let full = std::env::var("PITH_CORPUS_FULL").is_ok_and(|v| v == "1");
    if let Some(corpus) = common::corpus("fixtures_and_corpus") {
        let mut all = Vec::new();
        let mut stack = vec![corpus];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "pdf") {
                    all.push(p);
                }
            }
        }
        all.sort();
        files.extend(all);
    }
    let dir = common::tmpdir();
    let (mut damaged, mut injected, mut refused) = (0, 0, Vec::new());
    for (i, f) in files.iter().enumerate() {
        let out = dir.path().join(format!("{i}.pdf"));
        let plain = inject(f, &out, false);
        if !String::from_utf8_lossy(&plain.stderr).contains("damaged PDF") {
            let _ = std::fs::remove_file(&out);
            continue;
        }
        damaged += 1;
        if !full && i >= n_fixtures && damaged % 3 != 0 {
            continue;
        }
        let o = inject(f, &out, true);
        if o.status.success() {
            injected += 1;
            check_repaired(&f.display().to_string(), f, &out, false);
        } else {
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{}: {err}", f.display());
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(!out.exists());
            refused.push(err.into_owned());
        }
    }
    eprintln!(
        "SUMMARY pdf_repair: {damaged} refused as damaged without --repair; checked {}: {injected} injected with --repair, {} still refused",
        injected + refused.len(),
        refused.len()
    );
    for r in &refused {
        eprintln!("SUMMARY pdf_repair:   refused: {}", r.trim_end());
    }
    assert!(injected > 0 || damaged == 0);
}

/// A kill between the two last steps of `--in-place --repair` leaves the original bytes, the
/// update and the marker with the old `startxref` tail (the file reads as the damaged
/// original); the next `--in-place --repair` run cuts the uncommitted bytes off and redoes the
/// update, ending with the same bytes as an uninterrupted run.
#[test]
fn an_uncommitted_in_place_repair_is_removed_and_redone() {
    if !common::have_tool(
        "qpdf",
        "an_uncommitted_in_place_repair_is_removed_and_redone",
    ) {
        return;
    }
    let dir = common::tmpdir();
    let (_, original) = damaged_cases(dir.path()).remove(1);
    let f = dir.path().join("in-place.pdf");
    std::fs::write(&f, &original).unwrap();
    let run = || {
        common::pith()
            .arg("inject")
            .arg(&f)
            .args(["--number", A, "--in-place", "--repair"])
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .assert()
            .success();
    };
    run();
    let committed = std::fs::read(&f).unwrap();
    // Undo step 3: the tail names the original startxref again.
    let rfind = |needle: &[u8]| {
        committed
            .windows(needle.len())
            .rposition(|w| w == needle)
            .unwrap()
    };
    let m = rfind(b"%pith-update base ");
    let marker = String::from_utf8(committed[m..].to_vec()).unwrap();
    let words: Vec<&str> = marker.split_whitespace().collect();
    let (prev, xref) = (words[4], words[6]);
    let tail_at = rfind(b"startxref\n") + "startxref\n".len();
    let width = committed[tail_at..]
        .iter()
        .position(|&b| b == b'\n')
        .unwrap();
    assert_eq!(words[8].trim_start_matches('0'), xref);
    let mut uncommitted = committed.clone();
    uncommitted.splice(tail_at..tail_at + width, format!("{prev:0>width$}").bytes());
    std::fs::write(&f, &uncommitted).unwrap();
    let (_, t) = qpdf_check(&f);
    assert!(
        reconstructs(&t),
        "the uncommitted file reads as the damaged original"
    );
    run();
    assert_eq!(std::fs::read(&f).unwrap(), committed);
    let (rc, t) = qpdf_check(&f);
    assert_eq!(rc, 0, "{t}");
}

/// `--rewrite` of a damaged file whose page tree is broken while its pages exist
/// (the /Kids of the page tree root name a missing object; both page objects are there) is
/// refused with exit 2 and a whole-sentence message, and nothing is written: pdfinfo finds no
/// output. The same file with its page tree intact is rewritten with both pages (qpdf).
#[test]
fn rewrite_never_loses_pages() {
    if !common::have_tool("pdfinfo", "rewrite_never_loses_pages")
        || !common::have_tool("qpdf", "rewrite_never_loses_pages")
    {
        return;
    }
    let dir = common::tmpdir();
    let good = build(b"");
    // Junk after object 3 shifts every later offset: the xref must be rebuilt.
    let at = find(&good, b"4 0 obj");
    let mut damaged = good.clone();
    damaged.splice(at..at, b"% junk inserted here\n".iter().copied());
    let broken = String::from_utf8_lossy(&damaged).replace(
        "/Kids [3 0 R 6 0 R] /Count 2",
        "/Kids [9 0 R] /Count 2      ",
    );
    assert_ne!(broken.as_bytes(), &damaged[..], "the page tree was changed");
    for (name, bytes, ok) in [
        ("tree-intact", damaged.clone(), true),
        ("tree-broken", broken.into_bytes(), false),
    ] {
        let input = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&input, &bytes).unwrap();
        let out = dir.path().join(format!("{name}.out.pdf"));
        let o = common::pith()
            .arg("inject")
            .arg(&input)
            .args(["--number", A, "--rewrite", "-o"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if ok {
            assert_eq!(o.status.code(), Some(0), "{name}: {err}");
            assert_eq!(pages(&out).as_deref().map(str::trim), Some("2"), "{name}");
            continue;
        }
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains("no readable page tree") && err.contains("2 pages found"),
            "{name}: {err}"
        );
        assert!(err.trim_end().ends_with("not rewritten"), "{name}: {err}");
        assert!(!out.exists(), "{name}: nothing written");
        let (read, _, _) = common::run("pdfinfo", &[out.to_str().unwrap()], None);
        assert!(!read, "{name}: pdfinfo finds no output");
        assert_eq!(
            std::fs::read(&input).unwrap(),
            bytes,
            "{name}: input untouched"
        );
    }
}
