//! `pith inject` / `pith inspect` over real PDFs, checked with tools we did not
//! write: qpdf, pdfinfo, exiftool, pyHanko. Fixtures live in `tests/fixtures` (see its
//! README for origins and licences); the corpus test (`pdf_corpus`) runs over `../shared/corpus`.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

pub(crate) const A_URL: &str = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5";

const B: &str = "pith:2025:ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const B_URL: &str = "https://pith.science/pith/ABCDEFGHIJKLMNOPQRSTUVWXYZ";

use crate::common::{fixture, inject, tmpdir};

/// qpdf --check: (exit code rank 0 ok / 1 warnings / 2 errors, number of warning lines).
pub(crate) fn qpdf_check(path: &Path) -> (u8, usize) {
    let (code, warnings) = common::tools::qpdf_check(path);
    let rank = match code {
        0 => 0,
        3 => 1,
        _ => 2,
    };
    (rank, warnings)
}

pub(crate) fn is_prefix(input: &Path, output: &Path) -> bool {
    let a = std::fs::read(input).unwrap();
    let b = std::fs::read(output).unwrap();
    b.len() > a.len() && b[..a.len()] == a[..]
}

/// `pdfinfo -custom` value of an Info key.
pub(crate) fn pdfinfo_custom(path: &Path, key: &str) -> Option<String> {
    let (_, out, _) = common::run(
        "timeout",
        &["20", "pdfinfo", "-custom", path.to_str().unwrap()],
        None,
    );
    out.lines().find_map(|l| {
        l.strip_prefix(&format!("{key}:"))
            .map(|v| v.trim().to_string())
    })
}

/// `pdfinfo -meta`: the XMP packet.
pub(crate) fn pdfinfo_meta(path: &Path) -> String {
    common::run(
        "timeout",
        &["20", "pdfinfo", "-meta", path.to_str().unwrap()],
        None,
    )
    .1
}

/// exiftool's JSON for the Pith tags of several files at once (one process: exiftool starts
/// slowly).
pub(crate) fn exiftool(paths: &[PathBuf]) -> BTreeMap<PathBuf, serde_json::Value> {
    let mut out = BTreeMap::new();
    for chunk in paths.chunks(400) {
        let mut c = Command::new("timeout");
        c.args([
            "600",
            "exiftool",
            "-j",
            "-n",
            "-Warning",
            "-Error",
            "-FileType",
            "-PDF:Producer",
            "-PDF:Creator",
            "-PDF:Title",
            "-PDF:Author",
            "-PDF:CreateDate",
            "-PDF:ModifyDate",
            "-PithNumber",
            "-PithURL",
            "-XMP-xmp:Identifier",
            "-XMP-dc:Relation",
            "-XMP-pith:all",
        ]);
        c.args(chunk);
        let o = c.output().expect("exiftool");
        let v: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap_or_default();
        for (p, v) in chunk.iter().zip(v) {
            assert_eq!(v["SourceFile"].as_str(), p.to_str());
            out.insert(p.clone(), v);
        }
    }
    out
}

fn json_has(v: &serde_json::Value, key: &str, want: &str) -> bool {
    match &v[key] {
        serde_json::Value::String(s) => s == want,
        serde_json::Value::Array(a) => a.iter().any(|x| x.as_str() == Some(want)),
        _ => false,
    }
}

/// Checks one injected file with exiftool's answer; `info` says whether Info keys are
/// expected (not on PDF/A-4).
pub(crate) fn check_exiftool(
    v: &serde_json::Value,
    number: &str,
    url: &str,
    info: bool,
) -> Result<(), String> {
    if info && (v["PithNumber"].as_str() != Some(number) || v["PithURL"].as_str() != Some(url)) {
        return Err(format!("exiftool Info: {v}"));
    }
    // The item of scheme `pith` holds the number without the `pith:` its scheme says.
    if !json_has(
        v,
        "Identifier",
        number.strip_prefix("pith:").unwrap_or(number),
    ) || !json_has(v, "Relation", url)
        || v["Number"].as_str() != Some(number)
        || v["Url"].as_str() != Some(url)
    {
        return Err(format!("exiftool XMP: {v}"));
    }
    Ok(())
}

pub(crate) fn inspect_json(path: &Path, number: Option<&str>) -> (i32, serde_json::Value) {
    let mut c = common::pith();
    c.arg("inspect").arg(path).arg("--json");
    if let Some(n) = number {
        c.args(["--number", n]);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null),
    )
}

/// Properties used in a packet whose namespace is not predefined by PDF/A and is not declared
/// in its extension schemas (ISO 19005-1 §6.7.8).
pub(crate) fn undeclared_properties(xmp: &str) -> BTreeSet<String> {
    const PREDEFINED: &[&str] = &[
        "http://purl.org/dc/elements/1.1/",
        "http://ns.adobe.com/xap/1.0/",
        "http://ns.adobe.com/xap/1.0/rights/",
        "http://ns.adobe.com/xap/1.0/mm/",
        "http://ns.adobe.com/xap/1.0/bj/",
        "http://ns.adobe.com/xap/1.0/t/pg/",
        "http://ns.adobe.com/xmp/1.0/DynamicMedia/",
        "http://ns.adobe.com/pdf/1.3/",
        "http://ns.adobe.com/photoshop/1.0/",
        "http://ns.adobe.com/camera-raw-settings/1.0/",
        "http://ns.adobe.com/tiff/1.0/",
        "http://ns.adobe.com/exif/1.0/",
        "http://ns.adobe.com/exif/1.0/aux/",
        "http://ns.adobe.com/xmp/Identifier/qual/1.0/",
        "http://www.aiim.org/pdfa/ns/id/",
        "http://www.aiim.org/pdfa/ns/extension/",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    ];
    let Ok(doc) = roxmltree::Document::parse(xmp.trim_end_matches('\0')) else {
        return BTreeSet::from(["<not well-formed>".to_string()]);
    };
    let mut declared = BTreeSet::new();
    for n in doc.descendants().filter(|n| {
        n.tag_name().name() == "namespaceURI"
            && n.tag_name().namespace() == Some("http://www.aiim.org/pdfa/ns/schema#")
    }) {
        let ns = n.text().unwrap_or("").trim().to_string();
        if let Some(schema) = n.parent() {
            for p in schema.descendants().filter(|p| {
                p.tag_name().name() == "name"
                    && p.tag_name().namespace() == Some("http://www.aiim.org/pdfa/ns/property#")
            }) {
                declared.insert(format!("{ns}{}", p.text().unwrap_or("").trim()));
            }
        }
    }
    let mut out = BTreeSet::new();
    for d in doc.descendants().filter(|n| {
        n.tag_name().name() == "Description"
            && n.tag_name().namespace() == Some("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
    }) {
        let mut props: Vec<(String, String)> = d
            .children()
            .filter(|c| c.is_element())
            .map(|c| {
                (
                    c.tag_name().namespace().unwrap_or("").to_string(),
                    c.tag_name().name().to_string(),
                )
            })
            .collect();
        props.extend(d.attributes().filter(|a| a.namespace().is_some()).map(|a| {
            (
                a.namespace().unwrap_or("").to_string(),
                a.name().to_string(),
            )
        }));
        for (ns, name) in props {
            if ns.is_empty() || PREDEFINED.contains(&ns.as_str()) {
                continue;
            }
            if !declared.contains(&format!("{ns}{name}")) {
                out.insert(format!("{ns}{name}"));
            }
        }
    }
    out
}

/// Every fixture that must be updated: prefix, qpdf no worse, pdfinfo and exiftool read the
/// values, inspect agrees, the same number again is "unchanged", another number replaces it.
#[test]
fn fixtures_inject_and_read_back() {
    let tools = common::have_tool("qpdf", "fixtures_inject_and_read_back")
        & common::have_tool("pdfinfo", "fixtures_inject_and_read_back")
        & common::have_tool("exiftool", "fixtures_inject_and_read_back");
    let dir = tmpdir();
    let cases = [
        ("minimal.pdf", true),
        ("qpdf-object-stream.pdf", true),
        ("qpdf-hybrid-xref.pdf", true),
        ("qpdf-linearized.pdf", true),
        ("pdfium-pdf12.pdf", true),
        ("pyhanko-signed-twice.pdf", true),
        ("pdf20-offset-start.pdf", true),
        ("pdfa-1b-pass.pdf", true),
        ("pdfa-1b-utf16-xmp-pass.pdf", true),
        ("pdfa-4-pass.pdf", false),
    ];
    let mut outs = Vec::new();
    for (name, info) in cases {
        let input = fixture(name);
        let before = std::fs::read(&input).unwrap();
        let out = dir.path().join(name);
        let (code, stdout, stderr) = inject(&input, A, &out, &[]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(stdout.contains(A), "{name}: {stdout}");
        assert_eq!(
            std::fs::read(&input).unwrap(),
            before,
            "{name}: input changed"
        );
        assert!(
            is_prefix(&input, &out),
            "{name}: input is not a prefix of the output"
        );
        let (code, j) = inspect_json(&out, Some(A));
        assert_eq!(code, 0, "{name}: inspect {j}");
        assert_eq!(j["number"], A, "{name}");
        assert_eq!(j["xmp"]["pith:url"], A_URL, "{name}");
        if info {
            assert_eq!(j["info"]["PithNumber"], A, "{name}");
        } else {
            assert!(
                j["info"]["PithNumber"].is_null(),
                "{name}: PDF/A-4 must not get Info keys"
            );
        }
        // Idempotent: the same number again changes nothing.
        let again = dir.path().join(format!("again-{name}"));
        let (code, stdout, _) = inject(&out, A, &again, &[]);
        assert_eq!(code, 0);
        assert!(stdout.contains("unchanged"), "{name}: {stdout}");
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
        // Another number replaces the first in a new update.
        let other = dir.path().join(format!("other-{name}"));
        let (code, _, stderr) = inject(&out, B, &other, &[]);
        assert_eq!(code, 0, "{stderr}");
        assert!(is_prefix(&out, &other));
        let (code, j) = inspect_json(&other, Some(B));
        assert_eq!(code, 0, "{name}: {j}");
        assert_eq!(j["xmp"]["xmp:Identifier"], serde_json::json!([B]), "{name}");
        assert_eq!(
            j["xmp"]["dc:relation"],
            serde_json::json!([B_URL]),
            "{name}"
        );
        let (code, _) = inspect_json(&other, Some(A));
        assert_eq!(
            code, 1,
            "{name}: inspect must report a mismatch for the old number"
        );
        if tools {
            let (qi, wi) = qpdf_check(&input);
            for o in [&out, &other] {
                let (qo, wo) = qpdf_check(o);
                assert!(
                    qo <= qi && wo <= wi,
                    "{name}: qpdf --check got worse ({qi},{wi}) -> ({qo},{wo})"
                );
            }
            if info {
                assert_eq!(
                    pdfinfo_custom(&out, "PithNumber").as_deref(),
                    Some(A),
                    "{name}: pdfinfo"
                );
                assert_eq!(
                    pdfinfo_custom(&out, "PithURL").as_deref(),
                    Some(A_URL),
                    "{name}: pdfinfo"
                );
            }
            let meta = pdfinfo_meta(&out);
            roxmltree::Document::parse(meta.trim_end_matches('\0'))
                .unwrap_or_else(|e| panic!("{name}: packet not well-formed: {e}"));
            assert!(meta.contains(A), "{name}: pdfinfo -meta lacks the number");
            // exiftool does not recognise files with bytes before `%PDF-` (input neither).
            if before.starts_with(b"%PDF-") {
                outs.push((out, info, input));
            }
        }
    }
    if tools {
        let paths: Vec<PathBuf> = outs.iter().map(|o| o.0.clone()).collect();
        let ex = exiftool(&paths);
        for (out, info, input) in &outs {
            check_exiftool(&ex[out], A, A_URL, *info)
                .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
            // PDF/A-1 to -3 files keep declaring every non-predefined property (PDF/A-4
            // dropped extension schemas).
            if out
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("pdfa-1")
            {
                let before = undeclared_properties(&pdfinfo_meta(input));
                let after = undeclared_properties(&pdfinfo_meta(out));
                assert!(
                    after.is_subset(&before),
                    "{}: undeclared {after:?}",
                    out.display()
                );
            }
        }
    }
}

/// Bad input: one line naming the file and the reason, exit 2, no output file, input untouched.
#[test]
fn refusals_leave_nothing_behind() {
    let dir = tmpdir();
    let notpdf = dir.path().join("notes.pdf");
    std::fs::write(&notpdf, "hello, not a PDF\n").unwrap();
    let truncated = dir.path().join("truncated.pdf");
    let m = std::fs::read(fixture("minimal.pdf")).unwrap();
    std::fs::write(&truncated, &m[..m.len() / 2]).unwrap();
    let empty = dir.path().join("empty.pdf");
    std::fs::write(&empty, "").unwrap();
    let cases: [(PathBuf, &str); 6] = [
        // Files that open with the empty user password are updated now.
        (
            fixture("encrypted/r4-aes128-user-password.pdf"),
            "needs a password",
        ),
        (fixture("qpdf-bad-xref-entry.pdf"), "damaged"),
        (fixture("pyhanko-certified-p1.pdf"), "certified"),
        (notpdf, "not a PDF"),
        (truncated, "damaged"),
        (empty, "not a PDF"),
    ];
    for (input, reason) in cases {
        let before = std::fs::read(&input).unwrap();
        let out = dir.path().join("out.pdf");
        let (code, stdout, stderr) = inject(&input, A, &out, &[]);
        assert_eq!(code, 2, "{}: {stdout} {stderr}", input.display());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("pith: ")
                && stderr.contains(input.to_str().unwrap())
                && stderr.contains(reason),
            "{stderr}"
        );
        assert!(!out.exists(), "{}: output written", input.display());
        assert_eq!(std::fs::read(&input).unwrap(), before);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(".pith-tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }
    // Missing input, unwritable output directory.
    let (code, _, stderr) = inject(
        &dir.path().join("missing.pdf"),
        A,
        &dir.path().join("o.pdf"),
        &[],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.pdf"), "{stderr}");
    // A folder that cannot be made (a file is in its place).
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, b"x").unwrap();
    let (code, _, stderr) = inject(&fixture("minimal.pdf"), A, &blocked.join("d/o.pdf"), &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("a-file/d/o.pdf"), "{stderr}");
    assert_eq!(std::fs::read(&blocked).unwrap(), b"x");
}

#[test]
fn certified_file_is_updated_with_force() {
    let dir = tmpdir();
    let out = dir.path().join("o.pdf");
    let (code, _, stderr) = inject(&fixture("pyhanko-certified-p1.pdf"), A, &out, &["--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(is_prefix(&fixture("pyhanko-certified-p1.pdf"), &out));
}

#[test]
fn same_file_is_refused_and_in_place_appends() {
    let dir = tmpdir();
    let f = dir.path().join("paper.pdf");
    std::fs::copy(fixture("minimal.pdf"), &f).unwrap();
    let before = std::fs::read(&f).unwrap();
    let (code, _, stderr) = inject(&f, A, &f, &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("same file") && stderr.contains("paper.pdf"),
        "{stderr}"
    );
    // A different path to the same file is refused too.
    let alias = dir.path().join("link.pdf");
    std::os::unix::fs::symlink(&f, &alias).unwrap();
    let (code, _, _) = inject(&f, A, &alias, &[]);
    assert_eq!(code, 2);
    assert_eq!(std::fs::read(&f).unwrap(), before);

    // In place, twice: an update appended, then nothing to do.
    let in_place = || {
        common::pith()
            .arg("inject")
            .arg(&f)
            .args(["--number", A, "--in-place"])
            .output()
            .unwrap()
    };
    let o = in_place();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = std::fs::read(&f).unwrap();
    assert!(after.len() > before.len() && after[..before.len()] == before[..]);
    let o = in_place();
    assert!(String::from_utf8_lossy(&o.stdout).contains("unchanged"));
    assert_eq!(std::fs::read(&f).unwrap(), after);
}

#[test]
fn record_input_computes_the_number_and_stdout_output_works() {
    let o = common::pith()
        .arg("inject")
        .arg(fixture("minimal.pdf"))
        .arg("--record")
        .arg(common::example("2402.03791v3.record.json"))
        .args(["-o", "-"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = std::fs::read(fixture("minimal.pdf")).unwrap();
    assert!(o.stdout.starts_with(&m));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains(A) && s.contains(A_URL));
}

#[test]
fn rewrite_repairs_a_damaged_file() {
    if !common::have_tool("qpdf", "rewrite_repairs_a_damaged_file") {
        return;
    }
    let dir = tmpdir();
    let out = dir.path().join("o.pdf");
    let (code, _, stderr) = inject(&fixture("qpdf-bad-xref-entry.pdf"), A, &out, &["--rewrite"]);
    assert_eq!(code, 0, "{stderr}");
    let (rank, _) = qpdf_check(&out);
    assert!(rank <= 1, "qpdf --check on the rewrite");
    assert_eq!(pdfinfo_custom(&out, "PithNumber").as_deref(), Some(A));
    let (code, j) = inspect_json(&out, Some(A));
    assert_eq!(code, 0, "{j}");
}

#[test]
#[ignore = "full tier (pyHanko validates signatures): cargo test -- --include-ignored"]
fn signatures_stay_intact() {
    if !common::have_python_module("pyhanko", "signatures_stay_intact") {
        return;
    }
    let dir = tmpdir();
    let input = fixture("pyhanko-signed-twice.pdf");
    let out = dir.path().join("o.pdf");
    let (code, _, stderr) = inject(&input, A, &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    let script = fixture("check_signatures.py");
    for f in [&input, &out] {
        let (ok, stdout, stderr) = common::run(
            "python3",
            &[script.to_str().unwrap(), f.to_str().unwrap()],
            None,
        );
        assert!(ok, "{stderr}");
        assert_eq!(stdout.lines().count(), 2, "{stdout}");
        for l in stdout.lines() {
            assert!(
                l.contains("intact=True") && l.contains("docmdp_ok=True"),
                "{}: {l}",
                f.display()
            );
        }
    }
    let (_, j) = inspect_json(&out, None);
    assert_eq!(j["signatures"], 2);
}

/// Writes a sparse PDF whose objects and xref (table or stream) lie past 4 GiB.
fn sparse_pdf(path: &Path, stream: bool) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n").unwrap();
    let base: u64 = (4 << 30) + 12345;
    f.seek(SeekFrom::Start(base)).unwrap();
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>",
    ];
    let mut body = Vec::new();
    let mut offs = Vec::new();
    for (i, o) in objs.iter().enumerate() {
        offs.push(base + body.len() as u64);
        body.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = base + body.len() as u64;
    if stream {
        let mut data = vec![0u8, 0, 0, 0, 0, 0, 0xff, 0xff];
        for o in offs.iter().chain([&xref]) {
            data.push(1);
            data.extend_from_slice(&o.to_be_bytes()[3..]);
            data.extend_from_slice(&[0, 0]);
        }
        body.extend_from_slice(
            format!(
                "4 0 obj\n<< /Type /XRef /Size 5 /W [1 5 2] /Root 1 0 R /Length {} >>\nstream\n",
                data.len()
            )
            .as_bytes(),
        );
        body.extend_from_slice(&data);
        body.extend_from_slice(
            format!("\nendstream\nendobj\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
        );
    } else {
        body.extend_from_slice(b"xref\n0 4\n0000000000 65535 f \n");
        for o in &offs {
            body.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        body.extend_from_slice(
            format!("trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
        );
    }
    f.write_all(&body).unwrap();
}

/// Offsets past 4 GiB (64-bit), on sparse files: the library plans the update without reading
/// the hole, the update is appended in place and qpdf and inspect read it.
#[test]
#[ignore = "full tier (bombs of hundreds of MB): cargo test -- --include-ignored"]
fn offsets_beyond_4_gib() {
    let dir = tmpdir();
    for stream in [false, true] {
        let path = dir.path().join(format!("big-{stream}.pdf"));
        sparse_pdf(&path, stream);
        let len = std::fs::metadata(&path).unwrap().len();
        assert!(len > 4 << 30);
        let file = std::fs::File::open(&path).unwrap();
        let number = pith::PithNumber::parse(A).unwrap();
        let inj = pith::pdf::inject(
            &file,
            &number,
            &pith::pdf::Options::new("2024-01-01T00:00:00Z"),
        )
        .unwrap();
        let text = String::from_utf8_lossy(&inj.appended);
        assert_eq!(
            text.contains("/Type /XRef"),
            stream,
            "same xref kind as the file's last section"
        );
        {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            f.write_all(&inj.appended).unwrap();
        }
        let ins = pith::pdf::inspect(std::fs::File::open(&path).unwrap()).unwrap();
        assert_eq!(ins.found().as_deref(), Some(A));
        assert_eq!(ins.info_number.as_deref(), Some(A));
        if common::have_tool("qpdf", "offsets_beyond_4_gib") {
            // `qpdf --check` and pdfinfo read the whole 4 GiB hole (40 s); qpdf's object
            // access only follows the xref chain, and warns when it has to reconstruct it.
            let p = path.to_str().unwrap();
            let (ok, trailer, err) = common::run("qpdf", &["--show-object=trailer", p], None);
            assert!(
                ok && err.is_empty() && trailer.contains("/Info") && trailer.contains("/Prev"),
                "{trailer} {err}"
            );
            let (ok, catalog, err) = common::run("qpdf", &["--show-object=1", p], None);
            assert!(ok && err.is_empty(), "{err}");
            let meta = catalog
                .split("/Metadata ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .expect("catalog has /Metadata")
                .to_string();
            let (ok, packet, err) = common::run(
                "qpdf",
                &[
                    &format!("--show-object={meta}"),
                    "--filtered-stream-data",
                    p,
                ],
                None,
            );
            assert!(ok && err.is_empty() && packet.contains(A), "{err}");
            let (ok, xref, err) = common::run("qpdf", &["--show-xref", p], None);
            assert!(
                ok && err.is_empty() && xref.contains("offset = 42949"),
                "{xref} {err}"
            );
        }
    }
}

/// `\pithnumber{<26>}` (the bare code a record page shows) writes the record URL
/// (Info /PithURL, pith:url, dc:relation) and the short form, but no number. `pith inspect`
/// reports such a file as naming its record by URL only (exit 0, `number` null, `code` and
/// `url` set); `pith inject --number pith:YYYY:<26>` completes it, keeping the URL, and the
/// bare code is refused. Built with the test PDF writer, read back by pdfinfo and exiftool.
#[test]
fn url_only_file_is_reported_and_completed() {
    if !common::have_tool("exiftool", "url_only_file_is_reported_and_completed")
        || !common::have_tool("pdfinfo", "url_only_file_is_reported_and_completed")
    {
        return;
    }
    let code = &A[10..];
    let short = format!("pith:{}", &code[..8]);
    let url_only = |short: &str| {
        let xmp = common::pdfgen::packet(&format!(
            "<pith:url xmlns:pith=\"{ns}\">{A_URL}</pith:url>\
             <pith:shortNumber xmlns:pith=\"{ns}\">{short}</pith:shortNumber>\
             <dc:relation><rdf:Bag><rdf:li>{A_URL}</rdf:li></rdf:Bag></dc:relation>",
            ns = common::PITH_NS
        ));
        let info = format!("<< /PithURL ({A_URL}) >>");
        common::pdfgen::build_pdf(Some(info.as_bytes()), Some(xmp.as_bytes()))
    };
    let dir = tmpdir();
    let input = dir.path().join("bare.pdf");
    std::fs::write(&input, url_only(&short)).unwrap();
    // What the file says, read by tools we did not write.
    assert_eq!(pdfinfo_custom(&input, "PithURL").as_deref(), Some(A_URL));
    assert_eq!(pdfinfo_custom(&input, "PithNumber"), None);
    let ex = common::tools::exif_json(&input, &["-XMP:all"]);
    assert!(
        ex["Relation"] == A_URL && ex["Url"] == A_URL && ex.get("Number").is_none(),
        "{ex}"
    );
    // pith inspect: a URL-only number, consistent, exit 0.
    let (rc, j) = inspect_json(&input, None);
    assert_eq!(rc, 0, "{j}");
    assert_eq!(j["has_number"], true, "{j}");
    assert_eq!(j["url_only"], true, "{j}");
    assert!(j["number"].is_null(), "{j}");
    assert_eq!(j["code"], code, "{j}");
    assert_eq!(j["url"], A_URL, "{j}");
    assert_eq!(j["consistent"], true, "{j}");
    // The expected number matches by its code; another number does not.
    assert_eq!(inspect_json(&input, Some(A)).0, 0);
    assert_eq!(inspect_json(&input, Some(B)).0, 1);
    let o = common::pith().arg("inspect").arg(&input).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("number: - (record URL only: {code})")),
        "{text}"
    );
    assert!(
        text.contains(&format!("pith inject --number pith:YYYY:{code}")),
        "{text}"
    );
    // A short form of another record disagrees: exit 1.
    let bad = dir.path().join("bad.pdf");
    std::fs::write(&bad, url_only("pith:ABCDEFGH")).unwrap();
    let (rc, j) = inspect_json(&bad, None);
    assert_eq!(
        (rc, &j["consistent"]),
        (1, &serde_json::json!(false)),
        "{j}"
    );
    // The bare code cannot complete the file: refused, naming what to give instead.
    let out = dir.path().join("full.pdf");
    let (rc, _, err) = inject(&input, code, &out, &[]);
    assert_eq!(rc, 2, "{err}");
    assert!(
        err.contains("pith:YYYY:") && err.contains("pith number"),
        "{err}"
    );
    assert!(!out.exists());
    // The full number completes it: added beside the URL, not reported as a replacement.
    let (rc, stdout, err) = inject(&input, A, &out, &[]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        !(stdout.clone() + &err).to_lowercase().contains("replac"),
        "{stdout}{err}"
    );
    assert!(is_prefix(&input, &out));
    let (rc, j) = inspect_json(&out, Some(A));
    assert_eq!(rc, 0, "{j}");
    assert!(
        j["number"] == A && j["url_only"] == false && j["consistent"] == true,
        "{j}"
    );
    assert_eq!(pdfinfo_custom(&out, "PithNumber").as_deref(), Some(A));
    assert_eq!(pdfinfo_custom(&out, "PithURL").as_deref(), Some(A_URL));
    let ex = common::tools::exif_json(&out, &["-XMP:all"]);
    check_exiftool(
        &serde_json::json!({
            "Identifier": ex["Identifier"], "Relation": ex["Relation"],
            "Number": ex["Number"], "Url": ex["Url"],
        }),
        A,
        A_URL,
        false,
    )
    .unwrap();
    assert_eq!(ex["Relation"], A_URL, "one dc:relation item: {ex}");
    assert_eq!(ex["ShortNumber"], short, "{ex}");
}
