//! What external tools we did not write (qpdf, exiftool, pdfinfo) say about a file. Callers
//! check [`super::have_tool`] first.

use std::path::Path;
use std::process::Command;

/// `qpdf --check` ([`qpdf_check`]): whether it reports no error and no warning.
pub fn qpdf_clean(path: &Path) -> bool {
    let (code, warnings) = qpdf_check(path);
    code == 0 && warnings == 0
}

/// `qpdf --check` (60 s limit): its exit code (0 clean, 2 errors, 3 warnings) and the number
/// of `WARNING` lines it printed. A check that runs past the limit (a few corpus files take
/// 20 s alone, and the corpus tests run four at a time on a loaded machine) runs again with
/// ten minutes, so a slow machine is not scored as a worse file.
pub fn qpdf_check(path: &Path) -> (i32, usize) {
    let run = |limit: &str| {
        Command::new("timeout")
            .args([limit, "qpdf", "--check"])
            .arg(path)
            .output()
            .expect("qpdf")
    };
    let mut o = run("60");
    if o.status.code() == Some(124) {
        o = run("600");
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (
        o.status.code().unwrap_or(-1),
        text.lines().filter(|l| l.contains("WARNING")).count(),
    )
}

/// The filtered data of object `num` as qpdf reads it.
pub fn qpdf_stream(path: &Path, num: u32) -> Vec<u8> {
    let o = Command::new("qpdf")
        .arg(format!("--show-object={num}"))
        .arg("--filtered-stream-data")
        .arg(path)
        .output()
        .expect("qpdf");
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(3),
        "qpdf --show-object: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

/// The PDF group (Info entries) as `exiftool -j -PDF:all` reads it.
pub fn exif_info(path: &Path) -> serde_json::Value {
    exif_json(path, &["-PDF:all"])
}

/// `exiftool -j ARGS path`, first object.
pub fn exif_json(path: &Path, args: &[&str]) -> serde_json::Value {
    let o = Command::new("exiftool")
        .arg("-j")
        .args(args)
        .arg(path)
        .output()
        .expect("exiftool");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("exiftool -j");
    v[0].clone()
}

/// One tag's value as `exiftool -s3 -TAG` prints it, trimmed (empty when absent).
pub fn exif_tag(path: &Path, tag: &str) -> String {
    let o = Command::new("exiftool")
        .arg("-s3")
        .arg(format!("-{tag}"))
        .arg(path)
        .output()
        .expect("exiftool");
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

/// A custom Info entry as `pdfinfo -custom` prints it.
pub fn pdfinfo_custom(path: &Path, key: &str) -> Option<String> {
    let o = Command::new("pdfinfo")
        .arg("-custom")
        .arg(path)
        .output()
        .expect("pdfinfo");
    String::from_utf8_lossy(&o.stdout).lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_owned())
    })
}

/// The XMP packet as `pdfinfo -meta` prints it.
pub fn pdfinfo_meta(path: &Path) -> String {
    let o = Command::new("pdfinfo")
        .arg("-meta")
        .arg(path)
        .output()
        .expect("pdfinfo");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub use pith_testkit::python;

/// A binary Netpbm image as pdftoppm writes it (`P5` grey, `P6` RGB): its four header fields
/// (magic, width, height, maxval) and the pixel bytes after them. The fields are separated by
/// white space; these tools write no comments.
pub fn netpbm(data: &[u8]) -> (Vec<String>, &[u8]) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while data[i].is_ascii_whitespace() {
            i += 1;
        }
        let s = i;
        while !data[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&data[s..i]).into_owned());
    }
    (fields, &data[i + 1..])
}

/// Info `/PithNumber` as pikepdf reads it (or pikepdf's error). Callers check
/// [`super::have_python_module`] first.
pub fn pikepdf_number(path: &Path) -> String {
    let (_, out, err) = super::run(
        "python3",
        &[
            "-c",
            "import pikepdf,sys; p=pikepdf.open(sys.argv[1]); print(p.docinfo.get('/PithNumber'))",
            path.to_str().unwrap(),
        ],
        None,
    );
    format!("{}{}", out.trim(), err.trim())
}
