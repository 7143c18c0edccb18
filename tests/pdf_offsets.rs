//! Part 1: where xref offsets count from. A file with bytes before `%PDF-` counts
//! its offsets from the header, as qpdf and mupdf read it (poppler reads both ways); pith
//! decides the base once, from the header, for reading and for writing. Regression shapes:
//! junk of several lengths before the header, `startxref` pointing at the white space or EOL
//! just before `xref` (which let the old reader take absolute offsets for header-relative
//! ones and write a section qpdf could not find), xref streams. Checked with qpdf --check,
//! pdfinfo and pikepdf; a file that those readers have to reconstruct must be refused by
//! `pith inject` and not called consistent by `pith inspect`.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

/// A one-page PDF with `prefix` before `%PDF-`. Offsets count from the header when
/// `relative`, else from the start of the file. `ws_before_xref` is written between the last
/// `endobj` and `xref`, and `startxref` points at it.
fn build(prefix: &[u8], relative: bool, ws_before_xref: &[u8]) -> Vec<u8> {
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        "<< /Length 33 >>\nstream\nBT /F1 12 Tf 20 100 Td (Hi) Tj ET\nendstream",
        "<< /Title (Offsets) >>",
    ];
    let objs: Vec<(String, Option<Vec<u8>>)> = objs.iter().map(|o| (o.to_string(), None)).collect();
    let layout = common::pdfgen::Layout {
        prefix,
        absolute: !relative,
        before_xref: ws_before_xref,
        trailer: " /Info 5 0 R",
    };
    common::pdfgen::classic_with(&objs, &layout)
}

/// qpdf --check's warnings, without the file name and offsets (so input and output compare).
fn qpdf_warnings(path: &Path) -> BTreeSet<String> {
    let p = path.to_str().unwrap();
    let (_, out, err) = common::run("qpdf", &["--check", p], None);
    format!("{out}{err}")
        .lines()
        .filter(|l| l.contains("WARNING") || l.contains("rror"))
        .map(|l| {
            let l = l.replace(p, "FILE");
            match (l.find(" ("), l.find("): ")) {
                (Some(a), Some(b)) if a < b => format!("{}{}", &l[..a], &l[b + 1..]),
                _ => l,
            }
        })
        .collect()
}

/// Whether qpdf reads `path` without reconstructing its cross-reference table.
fn qpdf_reads(path: &Path) -> Result<(), String> {
    let w = qpdf_warnings(path);
    if w.iter()
        .any(|l| l.contains("damaged") || l.contains("reconstruct") || l.contains("not found"))
    {
        Err(format!("{w:?}"))
    } else {
        Ok(())
    }
}

fn inject(input: &Path, out: &Path) -> std::process::Output {
    common::pith()
        .arg("inject")
        .arg(input)
        .args(["--number", A, "-o"])
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap()
}

/// Converts `path` to an xref-stream file with qpdf (object streams generated), keeping the
/// header at offset 0; returns its bytes.
fn to_xref_stream(dir: &Path, bytes: &[u8]) -> Vec<u8> {
    let i = dir.join("plain.pdf");
    let o = dir.join("xs.pdf");
    std::fs::write(&i, bytes).unwrap();
    let (ok, _, err) = common::run(
        "qpdf",
        &[
            "--object-streams=generate",
            i.to_str().unwrap(),
            o.to_str().unwrap(),
        ],
        None,
    );
    assert!(ok, "qpdf: {err}");
    std::fs::read(o).unwrap()
}

#[test]
fn junk_before_the_header_offsets_count_from_the_header() {
    let t = "junk_before_the_header_offsets_count_from_the_header";
    if !common::have_tool("qpdf", t)
        || !common::have_tool("pdfinfo", t)
        || !common::have_python_module("pikepdf", t)
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let xs = to_xref_stream(dir.path(), &build(b"", true, b""));
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for junk in [1usize, 2, 7, 100, 1000] {
        let prefix: Vec<u8> = (0..junk).map(|i| b"J\n \x00x"[i % 5]).collect();
        // startxref at the keyword, at the EOL before it, at a space before it (qpdf warns
        // "extraneous whitespace" for those two but reads them), at a CRLF before it (qpdf
        // reconstructs: the output must then be no worse).
        for (wsname, ws) in [
            ("", &b""[..]),
            ("-eol", b"\n"),
            ("-sp", b" "),
            ("-crlf", b"\r\n"),
        ] {
            cases.push((
                format!("table-junk{junk}{wsname}"),
                build(&prefix, true, ws),
            ));
        }
        // qpdf writes offsets from the header; the prefix shifts all of them equally.
        let mut s = prefix.clone();
        s.extend_from_slice(&xs);
        cases.push((format!("stream-junk{junk}"), s));
    }
    let mut failures = Vec::new();
    for (name, bytes) in &cases {
        let input = dir.path().join(format!("{name}.pdf"));
        let out = dir.path().join(format!("{name}-out.pdf"));
        std::fs::write(&input, bytes).unwrap();
        let before = qpdf_warnings(&input);
        let readable = qpdf_reads(&input).is_ok();
        assert!(
            readable || name.ends_with("crlf"),
            "{name}: qpdf cannot read the test input itself: {before:?}"
        );
        let o = inject(&input, &out);
        if !o.status.success() {
            failures.push(format!(
                "{name}: pith refused a file qpdf reads: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
            continue;
        }
        let after = std::fs::read(&out).unwrap();
        assert!(after.starts_with(bytes), "{name}: input is not a prefix");
        let after_w = qpdf_warnings(&out);
        if !after_w.is_subset(&before) || (readable && qpdf_reads(&out).is_err()) {
            failures.push(format!(
                "{name}: qpdf --check after injection is worse: {after_w:?}, before {before:?}"
            ));
        }
        let (_, _, err_in) = common::run("pdfinfo", &[input.to_str().unwrap()], None);
        let (ok, info, err) = common::run("pdfinfo", &[out.to_str().unwrap()], None);
        if !ok || err.trim() != err_in.trim() || !info.contains("Offsets") {
            failures.push(format!("{name}: pdfinfo after injection: {err}"));
        }
        let got = common::tools::pikepdf_number(&out);
        if got != A {
            failures.push(format!("{name}: pikepdf reads /PithNumber {got:?}"));
        }
        // A second run finds the number (and qpdf agrees it is there).
        let again = dir.path().join(format!("{name}-again.pdf"));
        let o = inject(&out, &again);
        if !String::from_utf8_lossy(&o.stdout).contains("unchanged") {
            failures.push(format!("{name}: rerun is not 'unchanged'"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn absolute_offsets_after_junk_are_refused_like_readers_reconstruct() {
    let t = "absolute_offsets_after_junk_are_refused_like_readers_reconstruct";
    if !common::have_tool("qpdf", t) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for junk in [1usize, 3, 100] {
        for (wsname, ws) in [("", &b""[..]), ("-eol", b"\n")] {
            let name = format!("abs-junk{junk}{wsname}");
            let input = dir.path().join(format!("{name}.pdf"));
            std::fs::write(&input, build(&vec![b'J'; junk], false, ws)).unwrap();
            // qpdf has to reconstruct this file...
            assert!(qpdf_reads(&input).is_err(), "{name}: qpdf reads it");
            // ...so pith must not append to it, nor call it consistent.
            let out = dir.path().join(format!("{name}-out.pdf"));
            let o = inject(&input, &out);
            assert_eq!(o.status.code(), Some(2), "{name}: injected");
            assert!(!out.exists());
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("damaged PDF"), "{name}: {err}");
            let o = common::pith().arg("inspect").arg(&input).output().unwrap();
            assert_ne!(
                o.status.code(),
                Some(0),
                "{name}: inspect calls it consistent"
            );
        }
    }
}
