//! The shapes that make a reader's decoders and its object streams expensive: streams naming
//! thousands of filters (each a reader of its own, some with a predictor row to hold), an
//! object stream whose header claims millions of pairs, and page 1 with many large link
//! annotations or megabytes of unfiltered text.

use super::{base, classic, obj, put, stream, xref_stream_tail, Objects, HEADER, RECORD_URL, TEXT};
use crate::zlib::zeros_after;

/// Page 1's content (object 5) and the catalog's XMP stream (object 6) with `filters` as
/// their `/Filter` and `parms` as their `/DecodeParms` (empty data: the cost is the chain).
fn chained(filters: &str, parms: &str) -> Vec<u8> {
    let mut objs: Objects = base(" /Metadata 6 0 R", "");
    objs[4] = stream(&format!("<< /Filter [{filters}]{parms} >>"), Vec::new());
    objs.push(stream(
        &format!("<< /Type /Metadata /Subtype /XML /Filter [{filters}]{parms} >>"),
        Vec::new(),
    ));
    classic(&objs, "")
}

/// Page 1's content and the XMP stream each name `name` (`/AHx`, `/Fl`) `count` times:
/// five bytes a filter on disk, a reader (and its buffers) each for a reader that builds the
/// chain as written.
pub fn filter_chain(name: &str, count: usize) -> Vec<u8> {
    chained(&format!("{name} ").repeat(count), "")
}

/// `count` Flate stages, each with `/Predictor 12 /Columns 1048576`: two rows of 1 MiB held
/// per stage by a reader that allocates what the parameters say.
pub fn predictor_chain(count: usize) -> Vec<u8> {
    let parm = "<< /Predictor 12 /Columns 1048576 >> ";
    chained(
        &"/Fl ".repeat(count),
        &format!(" /DecodeParms [{}]", parm.repeat(count)),
    )
}

/// The catalog lives in an object stream whose header claims `pairs` pairs (`/N`) before a
/// `/First` of up to 200 MB: the stream inflates to `1 0 ` and zeros, some 200 KB on disk.
pub fn objstm_header(pairs: u64) -> Vec<u8> {
    let objs = base("", "");
    let mut out = HEADER.to_vec();
    let mut rows: Vec<(u8, u32, u16)> = vec![(0, 0, 65535), (2, 6, 0)];
    for (i, o) in objs.iter().enumerate().skip(1) {
        rows.push((1, put(&mut out, i + 1, o) as u32, 0));
    }
    let first = pairs.saturating_mul(3).min(200 << 20);
    let z = zeros_after(b"1 0 ", first + (1 << 20));
    rows.push((1, out.len() as u32, 0));
    out.extend_from_slice(
        format!(
            "6 0 obj\n<< /Type /ObjStm /N {pairs} /First {first} /Filter /FlateDecode /Length {} >>\nstream\n",
            z.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&z);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    xref_stream_tail(out, rows, None, None, "")
}

/// Page 1 lists `links` distinct link annotations to a record page, each of about `bytes`
/// bytes (its `/QuadPoints` numbers).
pub fn many_links(links: usize, bytes: usize) -> Vec<u8> {
    let refs: String = (0..links).map(|i| format!("{} 0 R ", 6 + i)).collect();
    let mut objs = base("", &format!(" /Annots [{refs}]"));
    for l in 0..links {
        let mut quad = String::with_capacity(bytes + 16);
        let mut i = l as u32;
        while quad.len() < bytes {
            quad.push_str(&format!("{} ", i % 600));
            i += 1;
        }
        let y = 72 + (l % 600);
        objs.push(obj(format!(
            "<< /Type /Annot /Subtype /Link /Rect [72 {y} 144 {}] /Border [0 0 0] \
             /A << /S /URI /URI ({RECORD_URL}) >> /QuadPoints [{quad}] >>",
            y + 12
        )));
    }
    classic(&objs, "")
}

/// Page 1's content stream is `bytes` bytes of text objects, unfiltered.
pub fn text_content(bytes: u64) -> Vec<u8> {
    let line = b"BT /F1 9 Tf 72 700 Td (Words of a long paper, set line by line) Tj ET\n";
    let mut data = TEXT.as_bytes().to_vec();
    data.reserve(bytes as usize);
    while (data.len() as u64) + (line.len() as u64) <= bytes {
        data.extend_from_slice(line);
    }
    let mut objs = base("", "");
    objs[4] = stream("<< >>", data);
    classic(&objs, "")
}
