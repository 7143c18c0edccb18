//! Packet text: the decoding of a packet's bytes (UTF-8, UTF-16, UTF-32, a mangled BOM repaired)
//! and its bounded parse into an XML tree.

use std::borrow::Cow;

use roxmltree::Document;

use super::xmp_err;
use crate::Error;

/// Decodes a packet to text: UTF-8 (with or without BOM), UTF-16 or UTF-32 (by BOM or by
/// the zero bytes of `<?`), as XMP allows (ISO 16684-1 §7.1). A mangled BOM inside the
/// `<?xpacket begin="…"?>` attribute (seen in the wild) is repaired; any other invalid UTF-8
/// is an error. UTF-8, what nearly every packet is, is borrowed: a packet up to
/// [`crate::filters::MAX_WHOLE`] is held once, not once per step.
pub(super) fn text_of(bytes: &[u8]) -> Result<Cow<'_, str>, Error> {
    let utf16 = |b: &[u8], be: bool| {
        let units: Vec<u16> = b
            .chunks_exact(2)
            .map(|c| {
                if be {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16(&units)
            .map(Cow::Owned)
            .map_err(|_| xmp_err("packet is not valid UTF-16"))
    };
    let utf32 = |b: &[u8], be: bool| {
        b.chunks_exact(4)
            .map(|c| {
                let v = if be {
                    u32::from_be_bytes([c[0], c[1], c[2], c[3]])
                } else {
                    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                };
                char::from_u32(v)
            })
            .collect::<Option<String>>()
            .map(Cow::Owned)
            .ok_or_else(|| xmp_err("packet is not valid UTF-32"))
    };
    let s = if let Some(b) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        utf8(b)?
    } else if bytes.starts_with(&[0, 0, 0xFE, 0xFF]) || bytes.starts_with(&[0, 0, 0, b'<']) {
        utf32(bytes, true)?
    } else if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) || bytes.starts_with(&[b'<', 0, 0, 0]) {
        utf32(bytes, false)?
    } else if bytes.starts_with(&[0xFE, 0xFF]) || bytes.starts_with(&[0, b'<']) {
        utf16(bytes, true)?
    } else if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[b'<', 0]) {
        utf16(bytes, false)?
    } else {
        utf8(bytes)?
    };
    // A BOM decoded from UTF-16 or UTF-32 leads the text; some writers pad with NULs after
    // the trailer PI. Both are cut by slicing, without a copy.
    let trim = |t: &str| -> (usize, usize) {
        let start = if t.starts_with('\u{feff}') { 3 } else { 0 };
        let end = t
            .trim_end_matches(['\0', ' ', '\t', '\r', '\n'])
            .len()
            .max(start);
        (start, end)
    };
    Ok(match s {
        Cow::Borrowed(t) => {
            let (a, b) = trim(t);
            Cow::Borrowed(&t[a..b])
        }
        Cow::Owned(mut t) => {
            let (a, b) = trim(&t);
            t.truncate(b);
            t.drain(..a);
            Cow::Owned(t)
        }
    })
}

pub(super) fn utf8(b: &[u8]) -> Result<Cow<'_, str>, Error> {
    match std::str::from_utf8(b) {
        Ok(s) => Ok(Cow::Borrowed(s)),
        Err(e) => {
            let bad = e.valid_up_to();
            let pi_end = if b.starts_with(b"<?xpacket begin=") {
                b.windows(2).position(|w| w == b"?>")
            } else {
                None
            };
            match pi_end {
                Some(end) if bad < end && std::str::from_utf8(&b[end..]).is_ok() => {
                    let rest = std::str::from_utf8(&b[end..]).unwrap_or("");
                    let head = String::from_utf8_lossy(&b[..end]);
                    // Keep the id attribute; the begin attribute becomes a proper BOM.
                    let id = head
                        .find(" id=")
                        .map(|i| head[i..].to_string())
                        .unwrap_or_default();
                    Ok(Cow::Owned(format!(
                        "<?xpacket begin=\"\u{feff}\"{id}{rest}"
                    )))
                }
                _ => Err(xmp_err(format!("packet is not UTF-8 (byte {bad})"))),
            }
        }
    }
}

/// Deepest element nesting accepted; real packets nest a handful of levels, and hostile ones
/// must not exhaust the stack of the XML parser.
pub(super) const MAX_NESTING: usize = 512;
/// Most attributes accepted on one element: roxmltree checks duplicates pairwise, so a
/// hostile element with 100,000 attributes would take minutes.
pub(super) const MAX_ATTRIBUTES: usize = 1024;
/// Most elements accepted in a packet: the parsed tree costs about a hundred bytes an element,
/// so a packet of ten million empty elements (60 MB) would take a gigabyte. Real packets hold
/// hundreds; a long author list a few thousand.
pub(super) const MAX_ELEMENTS: usize = 200_000;

pub(super) fn parse(s: &str) -> Result<Document<'_>, Error> {
    let crate::xml::Shape {
        depth,
        attributes: attrs,
        elements,
    } = crate::xml::shape(s);
    if elements > MAX_ELEMENTS {
        return Err(xmp_err(format!(
            "the packet has more than {MAX_ELEMENTS} elements"
        )));
    }
    if depth > MAX_NESTING {
        return Err(xmp_err(format!(
            "elements nest deeper than {MAX_NESTING} levels"
        )));
    }
    if attrs > MAX_ATTRIBUTES {
        return Err(xmp_err(format!(
            "an element has more than {MAX_ATTRIBUTES} attributes"
        )));
    }
    Document::parse(s).map_err(|e| xmp_err(format!("not well-formed XML: {e}")))
}
