//! A small writer of hostile test PDFs and XMP packets: classic xref table, correct offsets.

use pith::pdf::xmp::Props;

use super::{DC_NS, RDF_NS, SEED, SEED_SHORT, SEED_URL};

/// The XMP values of the seed number.
pub fn props() -> Props {
    Props {
        number: SEED.into(),
        short: SEED_SHORT.into(),
        url: SEED_URL.into(),
        ..Props::default()
    }
}

/// A one-page PDF with `info` as object 5 (the Info dictionary) and `xmp` as the metadata
/// stream, object 4, of the catalog.
pub fn build_pdf(info: Option<&[u8]>, xmp: Option<&[u8]>) -> Vec<u8> {
    build_pdf_filtered(info, xmp, "")
}

/// As [`build_pdf`], with `filter` (e.g. `/Filter /FlateDecode`) in the metadata stream's
/// dictionary.
pub fn build_pdf_filtered(info: Option<&[u8]>, xmp: Option<&[u8]>, filter: &str) -> Vec<u8> {
    let catalog = match xmp {
        Some(_) => "<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>",
        None => "<< /Type /Catalog /Pages 2 0 R >>",
    };
    // The packet and the Info dictionary go in as bytes: a test may give invalid UTF-8.
    let mut objs: Vec<(Vec<u8>, Option<Vec<u8>>)> = vec![
        (catalog.into(), None),
        ("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(), None),
        (
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>".into(),
            None,
        ),
    ];
    objs.push(match xmp {
        Some(x) => (
            format!(
                "<< /Type /Metadata /Subtype /XML {filter} /Length {} >>",
                x.len()
            )
            .into(),
            Some(x.to_vec()),
        ),
        None => (b"null".to_vec(), None),
    });
    objs.push((info.map_or(b"null".to_vec(), <[u8]>::to_vec), None));
    let layout = Layout {
        trailer: if info.is_some() { " /Info 5 0 R" } else { "" },
        ..Layout::default()
    };
    classic_bytes(&objs, &layout)
}

/// A well-formed XMP packet whose rdf:Description holds `inner`.
pub fn packet(inner: &str) -> String {
    format!(
        "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"{RDF_NS}\"><rdf:Description rdf:about=\"\" xmlns:dc=\"{DC_NS}\">{inner}</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>"
    )
}

/// XML entities for `& < > "`.
pub fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A PDF literal string: `\`, `(` and `)` escaped.
pub fn pdf_literal(s: &str) -> String {
    let mut o = String::from("(");
    for c in s.chars() {
        if matches!(c, '\\' | '(' | ')') {
            o.push('\\');
        }
        o.push(c);
    }
    o.push(')');
    o
}

pub const LAUGHS: &str = concat!(
    "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n",
    " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n",
    " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n",
    " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n",
    " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n",
    " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n",
    " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n",
    " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n",
    " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n",
    " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n",
    "]>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">",
    "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:format>&lol9;</dc:format>",
    "</rdf:Description></rdf:RDF></x:xmpmeta>"
);

/// An external entity naming a local file and a URL: must be neither read nor fetched.
pub fn external_entity() -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\"><!ENTITY n SYSTEM \"http://127.0.0.1:9/x\">]>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"{RDF_NS}\"><rdf:Description rdf:about=\"\" xmlns:dc=\"{DC_NS}\"><dc:format>&e;&n;</dc:format></rdf:Description></rdf:RDF></x:xmpmeta>"
    )
}

/// How [`classic_with`] lays a file out around its objects: what the defaults of
/// [`classic`] leave out, for tests of readers that must cope with it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout<'a> {
    /// Bytes before `%PDF-` (junk a reader skips; offsets count from the header).
    pub prefix: &'a [u8],
    /// Offsets count from the start of the file instead of the header (wrong after a
    /// prefix: readers reconstruct such a file).
    pub absolute: bool,
    /// Bytes between the last `endobj` and `xref`; `startxref` points at them.
    pub before_xref: &'a [u8],
    /// Trailer entries after `/Size` and `/Root` (` /Info 5 0 R`).
    pub trailer: &'a str,
}

/// The one builder of test PDFs from objects: object n is `objs[n-1]` (a dictionary, and the
/// data of a stream given apart), catalog 1 0 R, a classic xref table.
pub fn classic(objs: &[(String, Option<Vec<u8>>)]) -> Vec<u8> {
    classic_with(objs, &Layout::default())
}

/// [`classic`] laid out as `layout` says.
pub fn classic_with(objs: &[(String, Option<Vec<u8>>)], layout: &Layout<'_>) -> Vec<u8> {
    let objs: Vec<(Vec<u8>, Option<Vec<u8>>)> = objs
        .iter()
        .map(|(d, data)| (d.clone().into_bytes(), data.clone()))
        .collect();
    classic_bytes(&objs, layout)
}

/// [`classic_with`] of dictionaries given as bytes (which may be no UTF-8).
pub fn classic_bytes(objs: &[(Vec<u8>, Option<Vec<u8>>)], layout: &Layout<'_>) -> Vec<u8> {
    let mut out = layout.prefix.to_vec();
    let base = if layout.absolute { 0 } else { out.len() };
    out.extend_from_slice(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
    let mut offs = Vec::new();
    for (i, (dict, data)) in objs.iter().enumerate() {
        offs.push(out.len() - base);
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(dict);
        out.push(b'\n');
        if let Some(d) = data {
            out.extend_from_slice(b"stream\n");
            out.extend_from_slice(d);
            out.extend_from_slice(b"\nendstream\n");
        }
        out.extend_from_slice(b"endobj\n");
    }
    let x = out.len() - base;
    out.extend_from_slice(layout.before_xref);
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f\r\n", objs.len() + 1).as_bytes());
    for o in offs {
        out.extend_from_slice(format!("{o:010} 00000 n\r\n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R{} >>\nstartxref\n{x}\n%%EOF\n",
            objs.len() + 1,
            layout.trailer
        )
        .as_bytes(),
    );
    out
}

/// [`classic`] of objects written out whole (streams included in their text).
pub fn classic_text<S: AsRef<str>>(objs: &[S]) -> Vec<u8> {
    let objs: Vec<(String, Option<Vec<u8>>)> =
        objs.iter().map(|o| (o.as_ref().to_owned(), None)).collect();
    classic(&objs)
}
