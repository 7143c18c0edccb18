//! `pith batch --tar/--tar-dir` on tars of PDFs as arXiv ships them. The tars are
//! written by GNU tar (ustar/GNU and pax formats) and read back by GNU tar (`tar -tvf`,
//! extraction); the PDFs inside are checked with qpdf and exiftool, the numbers against
//! `pith number --arxiv-snapshot`, the md5s against `md5sum`.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{have_tool, pith, root};
use serde_json::Value;

const EPOCH: &str = "1700000000";

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub(crate) fn json_lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

pub(crate) fn tools(test: &str) -> bool {
    ["tar", "qpdf", "exiftool", "md5sum"]
        .iter()
        .all(|t| have_tool(t, test))
}

/// The bulk metadata of the tests: the shared snapshot vectors plus an old-style entry
/// (hep-th/0001001, one version) made from the first vector.
/// The folder of a test that needs [`tools`], and the metadata file written in it; `None`
/// (the test skipped) when a tool is missing.
pub(crate) fn setup(test: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    if !tools(test) {
        return None;
    }
    let dir = common::tmpdir();
    let meta = metadata(dir.path());
    Some((dir, meta))
}

pub(crate) fn metadata(dir: &Path) -> PathBuf {
    let text =
        std::fs::read_to_string(root().join("tests/data/arxiv/vectors.snapshot.jsonl")).unwrap();
    let mut old: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    old["id"] = "hep-th/0001001".into();
    old["categories"] = "hep-th".into();
    let v1 = old["versions"][0].clone();
    old["versions"] = Value::Array(vec![v1]);
    let p = dir.join("meta.jsonl");
    std::fs::write(&p, format!("{text}{old}\n")).unwrap();
    p
}

/// The numbers `pith number` gives the metadata, by id.
fn numbers(meta: &Path) -> HashMap<String, String> {
    let o = pith()
        .args(["number", "--arxiv-snapshot", s(meta)])
        .output()
        .unwrap();
    json_lines(&o.stdout)
        .into_iter()
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_owned(),
                v["number"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A one-page PDF with an uncompressed filler stream of `filler` bytes (for large members).
fn build_pdf(filler: usize) -> Vec<u8> {
    let content = "BT /F1 18 Tf 20 100 Td (Large) Tj ET";
    let objs = [
        ("<< /Type /Catalog /Pages 2 0 R >>".to_owned(), None),
        ("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(), None),
        ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >> >>".to_owned(), None),
        (format!("<< /Length {} >>", content.len()), Some(content.as_bytes().to_vec())),
        ("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(), None),
        (
            format!("<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length {filler} >>"),
            Some(vec![b' '; filler]),
        ),
    ];
    common::pdfgen::classic(&objs)
}

/// Writes `files` (name, bytes) under `dir/src` and tars them with GNU tar in `format`, in
/// the given order, with fixed owners and times.
pub(crate) fn make_tar(dir: &Path, tar: &Path, format: &str, files: &[(&str, Vec<u8>)]) {
    let src = dir.join(format!(
        "src-{}",
        tar.file_name().unwrap().to_str().unwrap()
    ));
    let mut names = Vec::new();
    for (name, bytes) in files {
        let p = src.join(name);
        if name.ends_with('/') {
            std::fs::create_dir_all(&p).unwrap(); // a directory entry of its own
        } else {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
        }
        names.push(name.to_string());
    }
    let st = Command::new("tar")
        .arg(format!("--format={format}"))
        .args([
            "--owner=arxiv:1000",
            "--group=arxiv:1000",
            "--mtime=@1600000000",
            "-cf",
        ])
        .arg(tar)
        .arg("-C")
        .arg(&src)
        .args(&names)
        .status()
        .unwrap();
    assert!(st.success());
}

/// `tar -tvf` lines without the size column: what must be kept, member by member.
pub(crate) fn listing(tar: &Path) -> Vec<String> {
    let o = Command::new("tar").arg("-tvf").arg(tar).output().unwrap();
    assert!(
        o.status.success(),
        "tar -tvf {}: {}",
        tar.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // mode owner/group size date time name
            format!("{} {} {} {} {}", f[0], f[1], f[3], f[4], f[5..].join(" "))
        })
        .collect()
}

fn extract(tar: &Path, into: &Path) {
    std::fs::create_dir_all(into).unwrap();
    let st = Command::new("tar")
        .arg("-xf")
        .arg(tar)
        .arg("-C")
        .arg(into)
        .status()
        .unwrap();
    assert!(st.success(), "GNU tar extracts {}", tar.display());
}

fn exif_number(path: &Path) -> String {
    let (_, out, _) = common::run("exiftool", &["-s3", "-PithNumber", s(path)], None);
    out.trim().to_owned()
}

pub(crate) fn md5sum(path: &Path) -> String {
    let (_, out, _) = common::run("md5sum", &[s(path)], None);
    out.split_whitespace().next().unwrap().to_owned()
}

/// `pith batch ARGS` with SOURCE_DATE_EPOCH: (exit code, stdout, stderr).
pub(crate) fn batch(args: &[&str], stdin: Option<&Path>) -> (i32, Vec<u8>, String) {
    let mut c = pith();
    c.arg("batch").args(args).env("SOURCE_DATE_EPOCH", EPOCH);
    if let Some(p) = stdin {
        c.pipe_stdin(p).unwrap();
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `pith batch --tar - --out-tar - --arxiv-metadata META EXTRA…`, the tar `input` on its
/// standard input.
fn piped(input: &Path, meta: &Path, extra: &[&str]) -> (i32, Vec<u8>, String) {
    let mut args = vec!["--tar", "-", "--out-tar", "-", "--arxiv-metadata", s(meta)];
    args.extend_from_slice(extra);
    batch(&args, Some(input))
}

/// `pith batch --tar IN --out-tar OUT --arxiv-metadata META [extra]`, files only.
fn tar_to(input: &Path, out: &Path, meta: &Path, extra: &[&str]) -> (i32, Vec<u8>, String) {
    let mut args = vec![
        "--tar",
        s(input),
        "--out-tar",
        s(out),
        "--arxiv-metadata",
        s(meta),
    ];
    args.extend_from_slice(extra);
    batch(&args, None)
}

fn by_name(report: &[Value]) -> HashMap<String, Value> {
    report
        .iter()
        .filter(|v| v.get("summary").is_none())
        .map(|v| (v["pdf"].as_str().unwrap().to_owned(), v.clone()))
        .collect()
}

pub(crate) fn example_pdf() -> Vec<u8> {
    std::fs::read(root().join("examples/2402.03791v3.pdf")).unwrap()
}

pub(crate) fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(crate::common::fixture(name)).unwrap()
}

#[test]
fn members_are_updated_or_copied_and_headers_kept() {
    let Some((dir, meta)) = setup("members_are_updated_or_copied_and_headers_kept") else {
        return;
    };
    let d = dir.path();
    let want = numbers(&meta);
    let files = [
        ("2402/", Vec::new()), // a directory entry: copied, not reported
        ("2402/2402.03791v3.pdf", example_pdf()), // new id, latest: injected
        ("2402/2402.03791v2.pdf", example_pdf()), // older version: skipped
        ("0001/hep-th0001001v1.pdf", fixture_bytes("minimal.pdf")), // old id: injected
        (
            "0001/astro-ph0001002v1.ps",
            b"%!PS-Adobe-2.0\n%%EOF\n".to_vec(),
        ), // PostScript
        (
            "1608/1608.03461v2.pdf",
            fixture_bytes("qpdf-bad-xref-entry.pdf"),
        ), // damaged: refused
        ("2402/2402.99999v1.pdf", fixture_bytes("minimal.pdf")), // no metadata entry: unmatched
    ];
    let input = d.join("in.tar");
    make_tar(d, &input, "gnu", &files);
    let out = d.join("out.tar");
    let report = d.join("r.jsonl");
    let (code, _, err) = tar_to(&input, &out, &meta, &["--report", s(&report), "-j", "2"]);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&std::fs::read(&report).unwrap());
    let r = by_name(&lines);
    assert_eq!(
        r.len(),
        files.len() - 1,
        "one line per file member: {lines:?}"
    );
    let status = |n: &str| r[n]["status"].as_str().unwrap().to_owned();
    assert_eq!(status("2402/2402.03791v3.pdf"), "injected");
    assert_eq!(status("0001/hep-th0001001v1.pdf"), "injected");
    assert_eq!(r["0001/hep-th0001001v1.pdf"]["id"], "hep-th/0001001");
    assert_eq!(r["0001/hep-th0001001v1.pdf"]["version"], 1);
    assert_eq!(status("2402/2402.03791v2.pdf"), "skipped");
    assert_eq!(status("0001/astro-ph0001002v1.ps"), "unmatched");
    assert_eq!(status("1608/1608.03461v2.pdf"), "refused");
    assert!(r["1608/1608.03461v2.pdf"]["reason"]
        .as_str()
        .unwrap()
        .contains("damaged"));
    assert_eq!(status("2402/2402.99999v1.pdf"), "unmatched");
    let summary = lines.last().unwrap();
    assert_eq!(
        (
            summary["summary"].as_str(),
            summary["injected"].as_u64(),
            summary["total"].as_u64()
        ),
        (Some("summary"), Some(2), Some(6))
    );
    assert!(
        summary.get("md5").is_none(),
        "no md5 computed without a manifest"
    );
    assert_eq!(
        summary["size_in"].as_u64(),
        Some(std::fs::metadata(&input).unwrap().len())
    );
    assert_eq!(
        summary["size"].as_u64(),
        Some(std::fs::metadata(&out).unwrap().len())
    );
    // GNU tar reads the output: same members in the same order, same modes, owners, times.
    assert_eq!(listing(&input), listing(&out));
    let (xi, xo) = (d.join("xi"), d.join("xo"));
    extract(&input, &xi);
    extract(&out, &xo);
    for (name, bytes) in files.iter().filter(|(n, _)| !n.ends_with('/')) {
        let got = std::fs::read(xo.join(name)).unwrap();
        if status(name) == "injected" {
            assert!(
                got.starts_with(bytes) && got.len() > bytes.len(),
                "{name}: append-only"
            );
            assert!(
                common::tools::qpdf_clean(&xo.join(name)),
                "{name}: qpdf --check"
            );
            let id = r[*name]["id"].as_str().unwrap();
            assert_eq!(
                exif_number(&xo.join(name)),
                want[id],
                "{name}: exiftool reads the number"
            );
            assert_eq!(r[*name]["bytes_after"].as_u64(), Some(got.len() as u64));
        } else {
            assert_eq!(&got, bytes, "{name}: copied byte for byte");
        }
    }
    // --repair: the damaged PDF is updated too.
    let out2 = d.join("out2.tar");
    let (code, stdout, err) = tar_to(&input, &out2, &meta, &["--repair"]);
    assert_eq!(code, 0, "{err}");
    let r2 = by_name(&json_lines(&stdout));
    assert_eq!(
        r2["1608/1608.03461v2.pdf"]["status"], "injected",
        "{:?}",
        r2["1608/1608.03461v2.pdf"]
    );
    let xr = d.join("xr");
    extract(&out2, &xr);
    let f = xr.join("1608/1608.03461v2.pdf");
    assert!(
        common::tools::qpdf_clean(&f),
        "repaired member: qpdf --check"
    );
    assert_eq!(exif_number(&f), want["1608.03461"]);
    // --stamp: the visible stamp on page 1, read back by poppler.
    if have_tool(
        "pdftotext",
        "members_are_updated_or_copied_and_headers_kept",
    ) {
        let stamped = d.join("stamped.tar");
        let (code, _, err) = tar_to(&input, &stamped, &meta, &["--stamp"]);
        assert_eq!(code, 0, "{err}");
        let xs = d.join("xs");
        extract(&stamped, &xs);
        let f = xs.join("2402/2402.03791v3.pdf");
        let (_, text, _) = common::run("pdftotext", &[s(&f), "-"], None);
        let short = format!("pith:{}", &want["2402.03791"][10..18]);
        assert!(text.contains(&short), "the stamp {short} on page 1: {text}");
        assert!(common::tools::qpdf_clean(&f));
    }
    // A second run on the output finds the numbers there: unchanged, the tar byte-identical.
    let out3 = d.join("out3.tar");
    let (code, stdout, err) = tar_to(&out2, &out3, &meta, &["--repair"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        by_name(&json_lines(&stdout))["2402/2402.03791v3.pdf"]["status"],
        "unchanged"
    );
    assert_eq!(std::fs::read(&out2).unwrap(), std::fs::read(&out3).unwrap());
}

#[test]
fn pax_long_names_pipes_and_files_give_the_same_bytes() {
    let Some((dir, meta)) = setup("pax_long_names_pipes_and_files_give_the_same_bytes") else {
        return;
    };
    let d = dir.path();
    let long = format!(
        "2402/{}/2402.03791v3.pdf",
        "a-long-directory-name".repeat(8)
    );
    assert!(long.len() > 100, "a name ustar cannot hold");
    let files = [
        (long.as_str(), example_pdf()),
        ("0001/hep-th0001001v1.pdf", fixture_bytes("minimal.pdf")),
    ];
    let input = d.join("in.tar");
    make_tar(d, &input, "pax", &files);
    let from_file = d.join("file.tar");
    let (code, _, err) = tar_to(&input, &from_file, &meta, &["-j", "1"]);
    assert_eq!(code, 0, "{err}");
    let report = d.join("pipe.jsonl");
    let (code, piped, err) = piped(&input, &meta, &["--report", s(&report), "-j", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        piped == std::fs::read(&from_file).unwrap(),
        "pipes and files, 1 and 3 workers: the same bytes"
    );
    let r = by_name(&json_lines(&std::fs::read(&report).unwrap()));
    assert_eq!(r[&long]["status"], "injected", "{r:?}");
    assert_eq!(listing(&input), listing(&from_file));
    let x = d.join("x");
    extract(&from_file, &x);
    assert_eq!(exif_number(&x.join(&long)), numbers(&meta)["2402.03791"]);
    assert!(common::tools::qpdf_clean(&x.join(&long)));
    // A pax header that carries the member's size (as tars of members over 8 GiB do, written
    // here by Python's tarfile): the record is rewritten with the new size.
    if !have_tool(
        "python3",
        "pax_long_names_pipes_and_files_give_the_same_bytes",
    ) {
        return;
    }
    let py_tar = d.join("py.tar");
    let script = format!(
        "import io, tarfile\nd = open({:?}, 'rb').read()\nwith tarfile.open({:?}, 'w', format=tarfile.PAX_FORMAT) as t:\n    i = tarfile.TarInfo('0001/hep-th0001001v1.pdf'); i.size = len(d); i.pax_headers = {{'size': str(len(d)), 'comment': 'kept'}}\n    t.addfile(i, io.BytesIO(d))\n",
        s(&root().join("tests/fixtures/minimal.pdf")),
        s(&py_tar)
    );
    let (ok, _, err) = common::run("python3", &["-c", &script], None);
    assert!(ok, "{err}");
    let py_out = d.join("py-out.tar");
    let (code, _, err) = tar_to(&py_tar, &py_out, &meta, &[]);
    assert_eq!(code, 0, "{err}");
    let check = format!(
        "import tarfile\nm = tarfile.open({:?}).getmembers()[0]\nprint(m.size, m.pax_headers['size'], m.pax_headers['comment'])\n",
        s(&py_out)
    );
    let (ok, out, err) = common::run("python3", &["-c", &check], None);
    assert!(ok, "{err}");
    let x = d.join("xp");
    extract(&py_out, &x);
    let size = std::fs::metadata(x.join("0001/hep-th0001001v1.pdf"))
        .unwrap()
        .len();
    assert!(size > fixture_bytes("minimal.pdf").len() as u64);
    assert_eq!(
        out.trim(),
        format!("{size} {size} kept"),
        "pax size record updated"
    );
    assert_eq!(
        exif_number(&x.join("0001/hep-th0001001v1.pdf")),
        numbers(&meta)["hep-th/0001001"]
    );
}

#[test]
fn a_member_larger_than_the_memory_bound_is_spooled() {
    let Some((dir, meta)) = setup("a_member_larger_than_the_memory_bound_is_spooled") else {
        return;
    };
    let d = dir.path();
    let big = build_pdf(pith::job::tar::SPOOL_BOUND as usize + (1 << 20) + 123);
    let files = [
        ("2402/2402.03791v3.pdf", big.clone()),
        ("0001/hep-th0001001v1.pdf", fixture_bytes("minimal.pdf")),
    ];
    let input = d.join("in.tar");
    make_tar(d, &input, "gnu", &files);
    let spool = d.join("spool");
    std::fs::create_dir_all(&spool).unwrap();
    let (code, out, err) = piped(
        &input,
        &meta,
        &["--spool-dir", s(&spool), "--report", s(&d.join("r.jsonl"))],
    );
    assert_eq!(code, 0, "{err}");
    let out_tar = d.join("out.tar");
    std::fs::write(&out_tar, &out).unwrap();
    assert_eq!(listing(&input), listing(&out_tar));
    let x = d.join("x");
    extract(&out_tar, &x);
    let got = std::fs::read(x.join("2402/2402.03791v3.pdf")).unwrap();
    assert!(
        got.len() > big.len() && got[..big.len()] == big[..],
        "append-only"
    );
    assert_eq!(
        exif_number(&x.join("2402/2402.03791v3.pdf")),
        numbers(&meta)["2402.03791"]
    );
    assert_eq!(
        std::fs::read_dir(&spool).unwrap().count(),
        0,
        "no spool file left"
    );
    // The spooled member's line carries its SHA-1 as the small one's does (base32, what a CDX
    // digest is compared with), hashed here by the sha1 crate and base32 by data-encoding.
    let report = std::fs::read_to_string(d.join("r.jsonl")).unwrap();
    for (name, bytes) in &files {
        use sha1::Digest;
        let want = data_encoding::BASE32.encode(&sha1::Sha1::digest(bytes));
        let line: Value = report
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| v["pdf"] == *name)
            .unwrap_or_else(|| panic!("no line for {name}: {report}"));
        assert_eq!(line["sha1"], want.as_str(), "{name}: {line}");
    }
    // Peak memory stays below the member's size (GNU time's maximum resident set size).
    if have_tool(
        "/usr/bin/time",
        "a_member_larger_than_the_memory_bound_is_spooled",
    ) {
        let rss = d.join("rss");
        let st = Command::new("/usr/bin/time")
            .args([
                "-f",
                "%M",
                "-o",
                s(&rss),
                env!("CARGO_BIN_EXE_pith"),
                "batch",
                "--tar",
                "-",
            ])
            .args([
                "--out-tar",
                "-",
                "--arxiv-metadata",
                s(&meta),
                "--report",
                "/dev/null",
            ])
            .stdin(std::fs::File::open(&input).unwrap())
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(st.success());
        let kb: u64 = std::fs::read_to_string(&rss)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(
            kb < 48 * 1024,
            "peak RSS {kb} kB for a 65 MiB member: it was held in memory"
        );
    }
}

#[test]
fn not_a_tar_is_one_line_error() {
    if !have_tool("tar", "not_a_tar_is_one_line_error") {
        return;
    }
    let d = common::tmpdir();
    let d = d.path();
    let meta = metadata(d);
    let bad = d.join("bad.tar");
    std::fs::write(&bad, vec![b'x'; 2048]).unwrap();
    let out = d.join("out.tar");
    let (code, _, err) = tar_to(&bad, &out, &meta, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.tar: not a tar archive"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!out.exists());
    // A truncated tar: no output either.
    let good = d.join("good.tar");
    make_tar(d, &good, "gnu", &[("2402/2402.03791v3.pdf", example_pdf())]);
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(&bad, &bytes[..5000]).unwrap();
    let (code, _, err) = tar_to(&bad, &out, &meta, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ends inside 2402/2402.03791v3.pdf"), "{err}");
    assert!(!out.exists());
    // The output is the input: refused, the input untouched.
    let (code, _, err) = tar_to(&good, &good, &meta, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the output is the input itself"), "{err}");
    assert_eq!(std::fs::read(&good).unwrap(), bytes);
}

#[test]
fn a_member_without_a_usable_entry_exits_1_with_the_tar_whole() {
    if !have_tool(
        "tar",
        "a_member_without_a_usable_entry_exits_1_with_the_tar_whole",
    ) {
        return;
    }
    let d = common::tmpdir();
    let d = d.path();
    let meta = metadata(d);
    let input = d.join("in.tar");
    // v4 is newer than the metadata's latest version (v3): stale metadata, no number.
    let files = [
        ("2402/2402.03791v4.pdf", fixture_bytes("minimal.pdf")),
        ("0001/hep-th0001001v1.pdf", fixture_bytes("minimal.pdf")),
    ];
    make_tar(d, &input, "gnu", &files);
    let out = d.join("out.tar");
    let (code, stdout, err) = tar_to(&input, &out, &meta, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1 of 2 members got no number"), "{err}");
    let r = by_name(&json_lines(&stdout));
    assert_eq!(r["2402/2402.03791v4.pdf"]["status"], "failed");
    assert!(r["2402/2402.03791v4.pdf"]["reason"]
        .as_str()
        .unwrap()
        .contains("newer than the metadata"));
    assert_eq!(r["0001/hep-th0001001v1.pdf"]["status"], "injected");
    assert_eq!(listing(&input), listing(&out), "the tar is written whole");
}

/// `d/arXiv_pdf_2402_001.tar`: the example paper as `2402/2402.03791v3.pdf`, in GNU format.
pub(crate) fn example_tar(d: &Path) -> PathBuf {
    let input = d.join("arXiv_pdf_2402_001.tar");
    make_tar(
        d,
        &input,
        "gnu",
        &[("2402/2402.03791v3.pdf", example_pdf())],
    );
    input
}

#[test]
fn out_tar_creates_its_folders_and_a_failed_run_leaves_no_report() {
    let Some((dir, meta)) = setup("out_tar_creates_its_folders_and_a_failed_run_leaves_no_report")
    else {
        return;
    };
    let d = dir.path();
    let input = example_tar(d);
    // Folders that do not exist yet are created, as --out-dir does.
    let out = d.join("out/sub/my.tar");
    let report = d.join("r.jsonl");
    let (code, _, err) = tar_to(&input, &out, &meta, &["--report", s(&report)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(listing(&out), listing(&input), "GNU tar reads the output");
    assert!(
        std::fs::metadata(&report).unwrap().len() > 0,
        "the report of a run that worked"
    );
    // A run that fails before its first member (the input is not there) leaves no report and
    // no output, and the error names the input.
    let report2 = d.join("r2.jsonl");
    let missing = d.join("missing.tar");
    let out2 = d.join("out/other.tar");
    let (code, _, err) = tar_to(&missing, &out2, &meta, &["--report", s(&report2)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.tar"), "{err}");
    assert!(!report2.exists(), "an empty report was left behind: {err}");
    assert!(!out2.exists());
    // A report that cannot be written names itself, and the reason is in words.
    if std::path::Path::new("/dev/full").exists() {
        let out3 = d.join("out/third.tar");
        let (code, _, err) = tar_to(&input, &out3, &meta, &["--report", "/dev/full"]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("/dev/full: cannot write the report: no space left on device"),
            "{err}"
        );
    }
}

/// Lines that go nowhere cost no digest: a run whose progress keeps no lines (`--report
/// /dev/null`) writes the same tar, its lines without the members' SHA-1; a run that keeps
/// them gets each injected member's SHA-1 (hashed here by the sha1 crate).
#[test]
fn members_are_hashed_only_for_lines_that_are_kept() {
    use pith::job::progress::Progress;
    use pith::job::tar::{stream, MemberReport};
    let Some((dir, meta)) = setup("members_are_hashed_only_for_lines_that_are_kept") else {
        return;
    };
    let d = dir.path();
    let pdf = example_pdf();
    let input = d.join("in.tar");
    make_tar(
        d,
        &input,
        "gnu",
        &[
            ("2402/2402.03791v3.pdf", pdf.clone()),
            ("2402/README.txt", b"read me\n".to_vec()),
        ],
    );
    struct Discard(Vec<MemberReport>);
    impl Progress<MemberReport> for Discard {
        fn line(&mut self, l: &MemberReport) {
            self.0.push(l.clone());
        }
        fn keeps_lines(&self) -> bool {
            false
        }
    }
    let plan = library_plan;
    let opts = library_opts(2);
    let run = |p: &mut dyn Progress<MemberReport>| {
        let mut out = Vec::new();
        let f = std::fs::File::open(&input).unwrap();
        stream(f, &mut out, &plan, &opts, p).unwrap();
        out
    };
    let mut kept: Vec<MemberReport> = Vec::new();
    let with = run(&mut kept);
    let mut discard = Discard(Vec::new());
    let without = run(&mut discard);
    assert!(with == without, "the same tar either way");
    use sha1::Digest;
    let want = data_encoding::BASE32.encode(&sha1::Sha1::digest(&pdf));
    assert_eq!(kept.len(), 2);
    assert_eq!(
        kept[0].sha1.as_deref(),
        Some(want.as_str()),
        "{:?}",
        kept[0]
    );
    assert_eq!(format!("{:?}", kept[0].status), "Injected");
    assert_eq!(discard.0.len(), 2);
    assert!(
        discard.0.iter().all(|l| l.sha1.is_none()),
        "{:?}",
        discard.0
    );
    // At the command line: the null device as the report, the same tar.
    let (a, b) = (d.join("a.tar"), d.join("b.tar"));
    let (code, _, err) = tar_to(&input, &a, &meta, &["--report", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = tar_to(&input, &b, &meta, &["--report", s(&d.join("r.jsonl"))]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
    let r = by_name(&json_lines(&std::fs::read(d.join("r.jsonl")).unwrap()));
    assert_eq!(r["2402/2402.03791v3.pdf"]["sha1"], want.as_str(), "{r:?}");
}

/// A tar named by its path is read where it lies: the same output and report as the tar read
/// through a pipe, to a file or to standard output, while its members' bytes pass through the
/// process only where the update parses them (strace counts the bytes read and copied).
#[test]
fn a_tar_file_is_read_where_it_lies_with_the_same_bytes() {
    let test = "a_tar_file_is_read_where_it_lies_with_the_same_bytes";
    let Some((dir, meta)) = setup(test) else {
        return;
    };
    let d = dir.path();
    let big: Vec<u8> = (0..3_000_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let files = [
        ("2402/2402.03791v3.pdf", example_pdf()),
        ("2402/README.txt", b"read me\n".to_vec()),
        ("2402/figures.bin", big),
        ("0001/hep-th0001001v1.pdf", fixture_bytes("minimal.pdf")),
    ];
    let input = d.join("in.tar");
    make_tar(d, &input, "pax", &files);
    let report = |name: &str| {
        let mut lines = json_lines(&std::fs::read(d.join(name)).unwrap());
        // The time taken and the tar's name (a path, or standard input) aside.
        for l in &mut lines {
            let o = l.as_object_mut().unwrap();
            o.remove("ms");
            o.remove("tar");
        }
        lines
    };
    let a = d.join("a.tar");
    let (code, _, err) = tar_to(&input, &a, &meta, &["--report", s(&d.join("a.jsonl"))]);
    assert_eq!(code, 0, "{err}");
    let (code, b, err) = batch(
        &[
            "--tar",
            s(&input),
            "--out-tar",
            "-",
            "--arxiv-metadata",
            s(&meta),
            "--report",
            s(&d.join("b.jsonl")),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (code, c, err) = piped(&input, &meta, &["--report", s(&d.join("c.jsonl"))]);
    assert_eq!(code, 0, "{err}");
    let a_bytes = std::fs::read(&a).unwrap();
    assert!(
        a_bytes == b && b == c,
        "file to file, file to a pipe, pipe to a pipe: the same bytes"
    );
    assert_eq!(report("a.jsonl"), report("c.jsonl"));
    assert_eq!(report("b.jsonl"), report("c.jsonl"));
    assert_eq!(listing(&input), listing(&a));
    // Standard output redirected to a file (written as a file is), from the tar's path and
    // from standard input, and appended after what the file held (`>>`).
    for (from_stdin, append) in [(false, false), (true, false), (false, true)] {
        let to = d.join("stdout.tar");
        std::fs::write(&to, if append { &b"held"[..] } else { &b""[..] }).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pith"));
        cmd.args([
            "batch",
            "-q",
            "--tar",
            if from_stdin { "-" } else { s(&input) },
        ])
        .args([
            "--out-tar",
            "-",
            "--arxiv-metadata",
            s(&meta),
            "--report",
            "/dev/null",
        ])
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .append(append)
                .open(&to)
                .unwrap(),
        );
        if from_stdin {
            cmd.stdin(std::fs::File::open(&input).unwrap());
        }
        let st = cmd.status().unwrap();
        assert!(st.success());
        let got = std::fs::read(&to).unwrap();
        let want = [if append { &b"held"[..] } else { &b""[..] }, &a_bytes[..]].concat();
        assert!(
            got == want,
            "standard output a file: stdin {from_stdin}, append {append}"
        );
    }
    let x = d.join("x");
    extract(&a, &x);
    assert_eq!(
        std::fs::read(x.join("2402/figures.bin")).unwrap(),
        files[2].1
    );
    assert!(common::tools::qpdf_clean(&x.join("2402/2402.03791v3.pdf")));
    // What passed through the process: strace's record of the reads of the tar and of the
    // kernel's copies into the output.
    if !have_tool("strace", test) {
        return;
    }
    let log = d.join("strace.log");
    let out = d.join("s.tar");
    let st = Command::new("strace")
        .args([
            // A file per thread: no call is cut into an unfinished and a resumed line.
            "-ff",
            "-qq",
            "-e",
            "trace=openat,fcntl,read,pread64,copy_file_range",
            "-o",
        ])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_pith"))
        .args(["batch", "-q", "--tar", s(&input), "--out-tar", s(&out)])
        .args(["--arxiv-metadata", s(&meta), "--report", "/dev/null"])
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .status()
        .unwrap();
    assert!(st.success());
    assert!(std::fs::read(&out).unwrap() == a_bytes);
    let text: String = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("strace.log.")
        })
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let mut fds: Vec<String> = text
        .lines()
        .filter(|l| l.contains("openat(") && l.contains(s(&input)))
        .map(|l| l.rsplit("= ").next().unwrap().trim().to_owned())
        .collect();
    assert!(!fds.is_empty(), "the tar is opened: {text}");
    // Its duplicates too (the reader's own descriptor).
    let dups: Vec<String> = text
        .lines()
        .filter(|l| {
            fds.iter()
                .any(|fd| l.contains(&format!("fcntl({fd}, F_DUPFD")))
        })
        .map(|l| l.rsplit("= ").next().unwrap().trim().to_owned())
        .collect();
    assert!(
        !dups.is_empty(),
        "the reader reads through a duplicate: {text}"
    );
    fds.extend(dups);
    let result = |l: &str| {
        l.rsplit("= ")
            .next()
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let on_tar = |l: &str, call: &str| fds.iter().any(|fd| l.contains(&format!("{call}({fd},")));
    let read: u64 = text
        .lines()
        .filter(|l| on_tar(l, "read") || on_tar(l, "pread64"))
        .map(result)
        .sum();
    let copied: u64 = text
        .lines()
        .filter(|l| on_tar(l, "copy_file_range"))
        .map(result)
        .sum();
    let size = std::fs::metadata(&input).unwrap().len();
    assert!(
        copied >= files[2].1.len() as u64,
        "the members are copied by the kernel: {copied} of {size} bytes"
    );
    assert!(
        read < size / 2,
        "{read} of the tar's {size} bytes read into the process"
    );
}

/// A tar read where it lies that changes during the run (here its modification time, set when
/// the first line comes) is an error, not an output that mixes two versions of it.
#[test]
fn a_tar_that_changes_while_it_is_read_is_an_error() {
    use pith::job::progress::Progress;
    use pith::job::tar::{stream_file, MemberReport};
    let Some((dir, _meta)) = setup("a_tar_that_changes_while_it_is_read_is_an_error") else {
        return;
    };
    let d = dir.path();
    let input = d.join("in.tar");
    make_tar(
        d,
        &input,
        "gnu",
        &[
            ("2402/a.txt", b"one\n".to_vec()),
            ("2402/b.txt", b"two\n".to_vec()),
        ],
    );
    struct Touch(PathBuf, usize);
    impl Progress<MemberReport> for Touch {
        fn line(&mut self, _: &MemberReport) {
            self.1 += 1;
            if self.1 == 1 {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&self.0)
                    .unwrap();
                f.set_modified(std::time::SystemTime::UNIX_EPOCH).unwrap();
            }
        }
    }
    let plan = library_plan;
    let opts = library_opts(1);
    let mut out = Vec::new();
    let f = std::fs::File::open(&input).unwrap();
    let same = stream_file(f, &mut out, &plan, &opts, &mut Vec::<MemberReport>::new()).unwrap();
    assert_eq!(same.entries, 2);
    let f = std::fs::File::open(&input).unwrap();
    let e = stream_file(
        f,
        &mut Vec::new(),
        &plan,
        &opts,
        &mut Touch(input.clone(), 0),
    )
    .expect_err("a tar changed during the run");
    let why = std::error::Error::source(&e)
        .map(|s| s.to_string())
        .unwrap_or_default();
    assert!(why.contains("changed while it was read"), "{e}: {why}");
}

/// What the library tests plan for a member: a number for a PDF, a copy for anything else.
fn library_plan(name: &str) -> pith::job::tar::Planned {
    use pith::job::tar::{Action, Planned};
    let number = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
    Planned {
        id: None,
        version: None,
        action: if name.ends_with(".pdf") {
            Action::Inject(number, Box::default())
        } else {
            Action::Copy(pith::job::Status::Unmatched, "not a PDF".into())
        },
    }
}

/// What the library tests stream a tar with: the default settings, `threads` workers, no md5.
fn library_opts(threads: usize) -> pith::job::tar::StreamSettings {
    pith::job::tar::StreamSettings {
        settings: pith::job::Settings::default(),
        threads,
        spool_dir: None,
        name: "in.tar".into(),
        md5: false,
        also: None,
    }
}
