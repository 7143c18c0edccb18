//! How the shapes' bytes are laid out: the objects of an ordinary one-page paper (catalog,
//! page tree, font, page, content), written one by one, and the two ways a file lists them (a
//! classic xref table and trailer, a cross-reference stream). What makes a shape expensive is
//! the parent module's.

use crate::zlib::zeros_after;

pub(crate) const HEADER: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
const FONT: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
pub(crate) const TEXT: &str = "BT /F1 24 Tf 72 700 Td (An expensive page) Tj ET\n";

/// Objects of a document: `objs[n - 1]` is object n, a dictionary (or any object) and the data
/// of a stream given apart.
pub(crate) type Objects = Vec<(String, Option<Vec<u8>>)>;

pub(crate) fn stream(dict: &str, data: Vec<u8>) -> (String, Option<Vec<u8>>) {
    let d = dict.trim_end_matches(">>").trim_end();
    (format!("{d} /Length {} >>", data.len()), Some(data))
}

pub(crate) fn obj(text: impl Into<String>) -> (String, Option<Vec<u8>>) {
    (text.into(), None)
}

/// Writes object `n` at the end of `out`; its offset.
pub(crate) fn put(out: &mut Vec<u8>, n: usize, (dict, data): &(String, Option<Vec<u8>>)) -> usize {
    let at = out.len();
    out.extend_from_slice(format!("{n} 0 obj\n{dict}\n").as_bytes());
    if let Some(d) = data {
        out.extend_from_slice(b"stream\n");
        out.extend_from_slice(d);
        out.extend_from_slice(b"\nendstream\n");
    }
    out.extend_from_slice(b"endobj\n");
    at
}

/// The header and `objs` (object 1 on); their offsets.
pub(crate) fn start(objs: &Objects) -> (Vec<u8>, Vec<usize>) {
    let mut out = HEADER.to_vec();
    let offs = objs
        .iter()
        .enumerate()
        .map(|(i, o)| put(&mut out, i + 1, o))
        .collect();
    (out, offs)
}

/// A classic file: header, the objects, an xref table, a trailer with `/Root 1 0 R` and
/// `trailer` (more entries).
pub(crate) fn classic(objs: &Objects, trailer: &str) -> Vec<u8> {
    let (mut out, offs) = start(objs);
    let x = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f\r\n", objs.len() + 1).as_bytes());
    for o in offs {
        out.extend_from_slice(format!("{o:010} 00000 n\r\n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R{trailer} >>\nstartxref\n{x}\n%%EOF\n",
            objs.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// The one page of every shape, object 4, with its content stream (object 5) and font (3);
/// `extra` goes into the page dictionary.
pub(crate) fn page(extra: &str) -> String {
    format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R \
         /Resources << /Font << /F1 3 0 R >> >>{extra} >>"
    )
}

/// Catalog (with `catalog` entries), page tree root, font, page (with `page_extra`), content:
/// objects 1–5 of an ordinary one-page file.
pub(crate) fn base(catalog: &str, page_extra: &str) -> Objects {
    vec![
        obj(format!("<< /Type /Catalog /Pages 2 0 R{catalog} >>")),
        obj("<< /Type /Pages /Kids [4 0 R] /Count 1 >>"),
        obj(FONT),
        obj(page(page_extra)),
        stream("<< >>", TEXT.as_bytes().to_vec()),
    ]
}

/// Ends `out` with an xref stream of `rows` (objects 0 on) and itself (compressed as a bomb of
/// `bomb` bytes when given), `startxref` and `%%EOF`. Its `/Size` is `size` where older sections
/// list more objects than its rows, and `more` goes into its dictionary (a `/Prev`).
pub(crate) fn xref_stream_tail(
    mut out: Vec<u8>,
    mut rows: Vec<(u8, u32, u16)>,
    bomb: Option<u64>,
    size: Option<u64>,
    more: &str,
) -> Vec<u8> {
    let n = rows.len();
    let x = out.len();
    rows.push((1, x as u32, 0));
    let mut raw = Vec::new();
    for (t, f2, f3) in &rows {
        raw.push(*t);
        raw.extend_from_slice(&f2.to_be_bytes());
        raw.extend_from_slice(&f3.to_be_bytes());
    }
    let (filter, data) = match bomb {
        Some(total) => ("/Filter /FlateDecode ", zeros_after(&raw, total)),
        None => ("", raw),
    };
    out.extend_from_slice(
        format!(
            "{n} 0 obj\n<< /Type /XRef /Size {} /Index [0 {}] /W [1 4 2] /Root 1 0 R{more} \
             {filter}/Length {} >>\nstream\n",
            size.unwrap_or(n as u64 + 1),
            n + 1,
            data.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&data);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{x}\n%%EOF\n").as_bytes());
    out
}
