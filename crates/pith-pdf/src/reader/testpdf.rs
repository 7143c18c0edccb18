//! Small PDFs built in memory for the reader's and writer's unit tests.

/// A PDF 1.4 file with `prefix` before `%PDF-`, objects `1..=objs.len()` (bodies given),
/// a classic xref table whose offsets count from the header, and a trailer with
/// `/Root 1 0 R` plus `extra` entries.
pub fn build<B: AsRef<[u8]>>(prefix: &[u8], objs: &[B], extra: &str) -> Vec<u8> {
    let mut out = prefix.to_vec();
    let base = out.len();
    out.extend_from_slice(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
    let mut offs = Vec::new();
    for (i, body) in objs.iter().enumerate() {
        offs.push(out.len() - base);
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body.as_ref());
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len() - base;
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f\r\n", objs.len() + 1).as_bytes());
    for o in offs {
        out.extend_from_slice(format!("{o:010} 00000 n\r\n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R {extra} >>\nstartxref\n{xref}\n%%EOF\n",
            objs.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// The catalog, pages and one page of a minimal document.
pub const DOC: [&str; 3] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Title (secret) >>",
];
