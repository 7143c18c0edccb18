//! A new file of one page drawn from filled boxes and lines of text ([`Drawing`], [`one_page`]):
//! a small picture another document includes (LaTeX's `\includegraphics` of a PDF), not an
//! update of an existing file.
//!
//! The file is PDF 1.7 with a classic xref table: a catalog, one page whose media box is the
//! drawing, a content stream ([`crate::writer::content::Content`]), the text font embedded ([`crate::stamp::font::TEXT`], DejaVu Sans
//! cut down to printable ASCII, with a `/ToUnicode` CMap so that text extraction reads the
//! characters), an optional link annotation ([`crate::writer::annotation::Link`]: no border, a URI)
//! and an Info dictionary with its `/Title`. Same drawing, same bytes: no date and no `/ID` is
//! written. It knows nothing of what is drawn: the caller lays out boxes and text in points.

use std::collections::BTreeMap;

use crate::reader::Entry;
use crate::security::StreamKind;
use crate::stamp::font::{self, Body, FontRefs};
use crate::syntax::{Obj, Ref};
use crate::writer::annotation::Link;
use crate::writer::content::Content;
use crate::writer::object::{self, dict, name_obj, rect, Strings};
use crate::writer::xref;
use crate::{Error, ErrorKind};

/// An RGB colour, each component in 0..=1.
pub type Rgb = [f64; 3];

/// A filled box, with its left and right corners rounded by a radius each (0: square).
#[derive(Debug, Clone, PartialEq)]
pub struct Fill {
    /// Left, bottom, width, height in points (PDF's default user space: y grows upwards).
    pub rect: [f64; 4],
    /// Radius of the two left corners.
    pub left_radius: f64,
    /// Radius of the two right corners.
    pub right_radius: f64,
    /// The colour.
    pub colour: Rgb,
}

/// A line of text centred on a point, squeezed or stretched to a width.
#[derive(Debug, Clone, PartialEq)]
pub struct Text<'a> {
    /// The text (printable ASCII: the characters the font holds).
    pub text: &'a str,
    /// The horizontal centre, in points.
    pub centre: f64,
    /// The baseline, in points from the bottom.
    pub baseline: f64,
    /// The font size, in points.
    pub size: f64,
    /// The width the text is drawn in (horizontal scaling, `Tz`), as SVG's `textLength`;
    /// `None`: its natural width.
    pub width: Option<f64>,
    /// The colour.
    pub colour: Rgb,
}

/// A link over part of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Area<'a> {
    /// Left, bottom, right, top in points.
    pub rect: [f64; 4],
    /// The URI it opens.
    pub uri: &'a str,
    /// Its alternate description (`/Contents`).
    pub contents: &'a str,
}

/// What the page shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawing<'a> {
    /// Page width in points.
    pub width: f64,
    /// Page height in points.
    pub height: f64,
    /// The document's `/Title` (Info).
    pub title: &'a str,
    /// Boxes, drawn in order.
    pub fills: Vec<Fill>,
    /// Text, drawn after the boxes.
    pub texts: Vec<Text<'a>>,
    /// A link annotation.
    pub link: Option<Area<'a>>,
}

/// The circle's control-point factor for a quarter arc drawn as one Bézier curve.
const KAPPA: f64 = 0.552_284_75;

/// The path of a box with rounded left and right corners, filled (§8.5.2, §8.5.3).
fn fill_path(f: &Fill, c: &mut Content) {
    let [x, y, w, h] = f.rect;
    let max = (w / 2.0).min(h / 2.0).max(0.0);
    let (l, r) = (
        f.left_radius.clamp(0.0, max),
        f.right_radius.clamp(0.0, max),
    );
    let (x1, y1) = (x + w, y + h);
    c.move_to(x + l, y).line_to(x1 - r, y);
    if r > 0.0 {
        let k = r * KAPPA;
        c.cubic_to([x1 - r + k, y, x1, y + r - k, x1, y + r])
            .line_to(x1, y1 - r)
            .cubic_to([x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1]);
    } else {
        c.line_to(x1, y1);
    }
    c.line_to(x + l, y1);
    if l > 0.0 {
        let k = l * KAPPA;
        c.cubic_to([x + l - k, y1, x, y1 - l + k, x, y1 - l])
            .line_to(x, y + l)
            .cubic_to([x, y + l - k, x + l - k, y, x + l, y]);
    } else {
        c.line_to(x, y);
    }
    c.close_path().fill_nonzero();
}

/// The page's content stream (§8, §9.4): each box filled, then each text in `BT … ET`.
///
/// # Errors
/// [`ErrorKind::Unsupported`] naming a character the font does not hold.
fn content(d: &Drawing<'_>) -> Result<Vec<u8>, Error> {
    let mut c = Content::new();
    for f in &d.fills {
        c.set_fill_rgb(f.colour[0], f.colour[1], f.colour[2]);
        fill_path(f, &mut c);
    }
    for t in &d.texts {
        let enc = font::TEXT.encode(t.text)?;
        let natural = enc.extent.advance * t.size;
        let width = t.width.unwrap_or(natural);
        let scale = if natural > 0.0 {
            100.0 * width / natural
        } else {
            100.0
        };
        c.begin_text()
            .set_fill_rgb(t.colour[0], t.colour[1], t.colour[2])
            .set_font(b"F1", t.size)
            .set_horizontal_scaling(scale)
            .set_text_matrix([1.0, 0.0, 0.0, 1.0, t.centre - width / 2.0, t.baseline])
            .show_bytes(&enc.bytes)
            .end_text();
    }
    Ok(c.finish())
}

/// Writes `d` as a new one-page PDF file.
///
/// # Errors
/// [`ErrorKind::Unsupported`] when a text holds a character the font does not (outside
/// printable ASCII) or the size is not a positive finite number.
///
/// # Examples
/// ```
/// use pith_pdf::page::{one_page, Drawing, Fill, Text};
/// let d = Drawing {
///     width: 60.0,
///     height: 20.0,
///     title: "A box",
///     fills: vec![Fill { rect: [0.0, 0.0, 60.0, 20.0], left_radius: 3.0, right_radius: 3.0, colour: [0.0, 0.4, 0.8] }],
///     texts: vec![Text { text: "pith", centre: 30.0, baseline: 6.0, size: 11.0, width: None, colour: [1.0; 3] }],
///     link: None,
/// };
/// let pdf = one_page(&d)?;
/// assert!(pdf.starts_with(b"%PDF-1.7") && pdf.ends_with(b"%%EOF\n"));
/// assert!(pith_pdf::Pdf::open(&pdf[..]).is_ok());
/// # Ok::<(), pith_pdf::Error>(())
/// ```
pub fn one_page(d: &Drawing<'_>) -> Result<Vec<u8>, Error> {
    let ok = |v: f64| v.is_finite() && v > 0.0;
    if !ok(d.width) || !ok(d.height) {
        return Err(Error::new(ErrorKind::Unsupported(
            "a page needs a positive width and height".into(),
        )));
    }
    let content = content(d)?;
    let r = |n: u32| Ref::new(n, 0);
    let (catalog, pages, page, contents, info, annot) = (r(1), r(2), r(3), r(4), r(5), r(6));
    let refs = FontRefs {
        type0: r(7),
        cid: r(8),
        descriptor: r(9),
        file: r(10),
        to_unicode: r(11),
        cid_set: r(12),
    };
    let mut objects: Vec<(Ref, Vec<u8>)> = Vec::new();
    let val = |o: &Obj, id: Ref| object::to_vec(o, Strings::of(None, id));
    objects.push((
        catalog,
        val(
            &dict(vec![
                ("Type", name_obj("Catalog")),
                ("Pages", Obj::Ref(pages)),
            ]),
            catalog,
        ),
    ));
    objects.push((
        pages,
        val(
            &dict(vec![
                ("Type", name_obj("Pages")),
                ("Kids", Obj::Array(vec![Obj::Ref(page)])),
                ("Count", Obj::Int(1)),
            ]),
            pages,
        ),
    ));
    let mut page_entries = vec![
        ("Type", name_obj("Page")),
        ("Parent", Obj::Ref(pages)),
        ("MediaBox", rect(0.0, 0.0, d.width, d.height)),
        (
            "Resources",
            dict(vec![("Font", dict(vec![("F1", Obj::Ref(refs.type0))]))]),
        ),
        ("Contents", Obj::Ref(contents)),
    ];
    if d.link.is_some() {
        page_entries.push(("Annots", Obj::Array(vec![Obj::Ref(annot)])));
    }
    objects.push((page, val(&dict(page_entries), page)));
    objects.push((
        contents,
        object::stream(contents, &dict(vec![]), StreamKind::Other, &content, None),
    ));
    objects.push((
        info,
        val(&dict(vec![("Title", Obj::Str(text_string(d.title)))]), info),
    ));
    if let Some(a) = &d.link {
        let [x0, y0, x1, y1] = a.rect;
        let link = Link {
            rect: [x0, y0, x1, y1],
            page,
            uri: a.uri,
            contents: a.contents,
            struct_parent: None,
            mark: None,
        };
        objects.push((annot, val(&link.to_obj(), annot)));
    }
    for (id, body) in refs_objects(&refs)? {
        objects.push((id, body));
    }
    objects.sort_by_key(|(id, _)| id.num);

    let mut out = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut rows = BTreeMap::new();
    for (id, body) in &objects {
        rows.insert(id.num, Entry::Offset(out.len() as u64, id.gen));
        out.extend_from_slice(format!("{} {} obj\n", id.num, id.gen).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let size = objects.iter().map(|(id, _)| id.num).max().unwrap_or(0) + 1;
    let xref_pos = out.len() as u64;
    let entries = format!("/Root {catalog} /Info {info}");
    xref::full_table(&mut out, size, &rows, entries.as_bytes(), xref_pos)?;
    Ok(out)
}

/// The font objects as object bodies.
fn refs_objects(refs: &FontRefs) -> Result<Vec<(Ref, Vec<u8>)>, Error> {
    font::TEXT
        .objects(refs)?
        .into_iter()
        .map(|(id, b)| {
            Ok(match b {
                Body::Dict(d) => (id, object::to_vec(&d, Strings::of(None, id))),
                Body::Stream(entries, data) => (
                    id,
                    object::stream(id, &entries, StreamKind::Other, &data, None),
                ),
            })
        })
        .collect()
}

/// A text string (§7.9.2.2): the bytes for ASCII, else UTF-16BE with its byte order mark.
fn text_string(s: &str) -> Vec<u8> {
    if s.is_ascii() {
        return s.as_bytes().to_vec();
    }
    let mut out = vec![0xFE, 0xFF];
    for u in s.encode_utf16() {
        out.extend_from_slice(&u.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawing() -> Drawing<'static> {
        Drawing {
            width: 80.0,
            height: 20.0,
            title: "Pith Number é",
            fills: vec![
                Fill {
                    rect: [0.0, 0.0, 40.0, 20.0],
                    left_radius: 3.0,
                    right_radius: 0.0,
                    colour: [0.2, 0.2, 0.2],
                },
                Fill {
                    rect: [40.0, 0.0, 40.0, 20.0],
                    left_radius: 0.0,
                    right_radius: 3.0,
                    colour: [0.0, 0.4, 0.75],
                },
            ],
            texts: vec![Text {
                text: "pith 7BMK",
                centre: 40.0,
                baseline: 6.0,
                size: 11.0,
                width: Some(50.0),
                colour: [1.0; 3],
            }],
            link: Some(Area {
                rect: [0.0, 0.0, 80.0, 20.0],
                uri: "https://pith.science/pith/X",
                contents: "Pith Number",
            }),
        }
    }

    #[test]
    fn the_file_opens_and_holds_its_parts() {
        let pdf = one_page(&drawing()).unwrap();
        assert_eq!(
            pdf,
            one_page(&drawing()).unwrap(),
            "same drawing, same bytes"
        );
        let doc = crate::Pdf::open(&pdf[..]).unwrap();
        assert!(doc.trailer().get(b"Root").is_some());
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/MediaBox [0 0 80 20]"), "{text}");
        assert!(text.contains("/Border [0 0 0]"));
        assert!(text.contains("/FontFile2"));
        assert!(text.contains(" Tz\n"));
        assert!(
            text.contains(" c\n") && text.contains("h\nf\n"),
            "rounded corners"
        );
    }

    #[test]
    fn refusals() {
        let mut d = drawing();
        d.texts[0].text = "é";
        assert!(one_page(&d).is_err());
        let mut d = drawing();
        d.width = 0.0;
        assert!(one_page(&d).is_err());
    }
}
