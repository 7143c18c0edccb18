//! The SHA-1 on each line of a batch report: the digest web archives index captures by. A new
//! file's update hashes the input's bytes as it copies them; an update in place, which copies
//! nothing, reads the file for it once updated. Each must match `sha1sum`.

use crate::common;
use crate::common::{copy_writable, fixture, SEED};
use serde_json::Value;
use std::path::Path;

/// The base32 SHA-1 of `p` as coreutils' `sha1sum` computes it.
fn sha1sum(p: &Path) -> String {
    let (ok, out, err) = common::run("sha1sum", &[&p.display().to_string()], None);
    assert!(ok, "{err}");
    let hex = out.split_whitespace().next().unwrap_or_default();
    let raw = data_encoding::HEXLOWER.decode(hex.as_bytes()).unwrap();
    data_encoding::BASE32.encode(&raw)
}

fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v.get("pdf").is_some())
        .collect()
}

#[test]
fn every_line_names_its_input_by_sha1_new_files_and_in_place() {
    if !common::have_tool("sha1sum", "batch digest") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    // Sizes on both sides of the copy's buffer (256 KiB), so that a digest carried across
    // reads is checked too.
    let names = [
        "minimal.pdf",
        "qpdf-object-stream.pdf",
        "qpdf-linearized.pdf",
    ];
    let mut want = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let f = src.join(format!("p{i}.pdf"));
        copy_writable(&fixture(n), &f);
        std::fs::write(f.with_extension("pith"), format!("{SEED}\n")).unwrap();
        want.push((format!("p{i}.pdf"), sha1sum(&f)));
    }
    // Many buffers of the copy each, the last one partial.
    for (name, size) in [("mid.pdf", 700 << 10), ("big.pdf", 17 << 20)] {
        let f = src.join(name);
        std::fs::write(&f, large_pdf(size)).unwrap();
        std::fs::write(f.with_extension("pith"), format!("{SEED}\n")).unwrap();
        want.push((name.into(), sha1sum(&f)));
    }

    let out = dir.path().join("out");
    let o = common::batch(&["--dir"], &src, &out).output().unwrap();
    let copied = lines(&o.stdout);
    let o2 = common::pith()
        .args(["batch", "--in-place", "--dir"])
        .arg(&src)
        .output()
        .unwrap();
    let in_place = lines(&o2.stdout);
    for (name, sha1) in &want {
        let updated = sha1sum(&src.join(name));
        assert_ne!(&updated, sha1, "{name} was updated in place");
        for (how, ls, sha1) in [
            ("new file", &copied, sha1),
            ("in place", &in_place, &updated),
        ] {
            let l = ls
                .iter()
                .find(|l| {
                    l["pdf"]
                        .as_str()
                        .is_some_and(|p| p.ends_with(name.as_str()))
                })
                .unwrap_or_else(|| panic!("{how}: no line for {name}: {ls:?}"));
            assert_eq!(l["status"], "injected", "{how}: {l}");
            assert_eq!(l["sha1"], sha1.as_str(), "{how}: {name}: {l}");
        }
    }
}

/// A one-page PDF whose page content is `size` bytes of white space, with a correct xref table.
fn large_pdf(size: usize) -> Vec<u8> {
    let content = vec![b' '; size];
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    let mut object = |pdf: &mut Vec<u8>, body: &[u8]| {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n", offsets.len()).as_bytes());
        pdf.extend_from_slice(body);
        pdf.extend_from_slice(b"\nendobj\n");
    };
    object(&mut pdf, b"<< /Type /Catalog /Pages 2 0 R >>");
    object(&mut pdf, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    object(
        &mut pdf,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    );
    let mut stream = format!("<< /Length {size} >>\nstream\n").into_bytes();
    stream.extend_from_slice(&content);
    stream.extend_from_slice(b"\nendstream");
    object(&mut pdf, &stream);
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1).as_bytes(),
    );
    for o in &offsets {
        pdf.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            offsets.len() + 1
        )
        .as_bytes(),
    );
    pdf
}
