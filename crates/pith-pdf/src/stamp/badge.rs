//! Redrawing the badge `pith.sty` printed ([`super::printed`]) with another number, in the same
//! box: a new version of its Form XObject, same `/BBox` and `/Matrix`, drawn with the stamp's
//! embedded font ([`super::font`]) in the badge's two segments (grey label `pith`, blue number,
//! white text, as `pith.sty` and `pith badge` draw them), or as plain text for a badge of style
//! `plain`; and new versions of the links to the old record with the new record URL.
//!
//! It writes into an [`Update`]; what to redraw is the caller's decision.

use crate::reader::{Pdf, ReadAt};
use crate::security::StreamKind;
use crate::syntax::Obj;
use crate::writer::content::Content;
use crate::writer::object::{dict, name_obj};
use crate::writer::Update;
use crate::{Error, ErrorKind};

use super::font;
use super::printed::{Printed, KEY_TEXT, KEY_URL};

/// The badge's colours (DeviceRGB): the label segment, the number segment, the text.
const LABEL: [f64; 3] = [0.333, 0.333, 0.333];
const VALUE: [f64; 3] = [0.043, 0.4, 0.765];
/// The font resource name in a redrawn badge's own resources.
const FONT_NAME: &[u8] = b"PithBadge";
/// Horizontal padding of the text in each segment, in ems (`pith.sty`'s .4em).
const PAD_EM: f64 = 0.4;
/// The font size for the badge's height: `pith.sty` makes the badge as tall as a strut of
/// its font (`\footnotesize`, 8 pt on a 9.5 pt baseline), its baseline 0.3 of the height up.
const SIZE_PER_HEIGHT: f64 = 8.0 / 9.5;
const BASELINE: f64 = 0.3;

/// Writes a new version of `badge`'s form showing `text` and naming `url`, with the font
/// objects it uses; returns the line describing it.
///
/// # Errors
/// [`ErrorKind::Unsupported`] when the badge has no readable `/BBox` or `text` has a character
/// the font lacks.
pub fn redraw(up: &mut Update, badge: &Printed, text: &str, url: &str) -> Result<String, Error> {
    let (Some(r), Some(d), Some(b)) = (badge.object, badge.dict.as_ref(), badge.bbox) else {
        return Err(Error::new(ErrorKind::Unsupported(
            "a badge on page 1 without a readable form box".into(),
        )));
    };
    let plain = d.get(b"PithStyle").and_then(Obj::as_name) == Some(b"plain");
    let enc = font::encode(text)?;
    let (w, h) = (b.width(), b.height());
    let size = (h * SIZE_PER_HEIGHT).min(w / (enc.extent.advance + 2.0 * PAD_EM));
    let text_w = enc.extent.advance * size;
    let x = b.x0 + (w - text_w) / 2.0;
    let y = b.y0 + h * BASELINE;
    let mut c = Content::new();
    c.save_state();
    if plain {
        c.set_fill_gray(0.0);
    } else {
        // The label segment ends in the middle of the colon, as pith.sty draws it.
        let label = font::encode("pith")?.extent.advance + font::encode(":")?.extent.advance / 2.0;
        let split = x + label * size;
        c.set_fill_rgb(LABEL[0], LABEL[1], LABEL[2])
            .rect(b.x0, b.y0, split - b.x0, h)
            .fill_nonzero()
            .set_fill_rgb(VALUE[0], VALUE[1], VALUE[2])
            .rect(split, b.y0, b.x1 - split, h)
            .fill_nonzero()
            .set_fill_rgb(1.0, 1.0, 1.0);
    }
    c.reset_text_state()
        .begin_text()
        .set_font(FONT_NAME, size)
        .set_text_matrix([1.0, 0.0, 0.0, 1.0, x, y])
        .show_bytes(&enc.bytes)
        .end_text()
        .restore_state();

    let refs = font::write(up)?;
    let mut entries = d.clone();
    entries.entries.retain(|(k, _, _)| {
        ![
            KEY_TEXT,
            KEY_URL,
            b"Length",
            b"Filter",
            b"DecodeParms",
            b"Resources",
            b"Group",
        ]
        .contains(&k.as_slice())
    });
    let fonts = dict(vec![("PithBadge", Obj::Ref(refs.type0))]);
    for (k, v) in [
        (&b"Resources"[..], dict(vec![("Font", fonts)])),
        (KEY_TEXT, Obj::Str(text.as_bytes().to_vec())),
        (KEY_URL, Obj::Str(url.as_bytes().to_vec())),
    ] {
        entries.entries.push((k.to_vec(), v, 0..0));
    }
    up.stream(r, &Obj::Dict(entries), StreamKind::Other, &c.finish());
    Ok(format!(
        "page 1: the badge (form {} {}) redrawn in its box: {text} (was {}), in DejaVu Sans (objects {}–{})",
        r.num,
        r.gen,
        badge.text.as_deref().unwrap_or("-"),
        refs.type0.num,
        refs.cid_set.num
    ))
}

/// Writes a new version of link annotation `link` opening `url`; returns the line describing
/// it, or `None` for a link that is not an object of its own (it is left as it is). The
/// annotation is read again here, one at a time, rather than kept with every place found.
///
/// # Errors
/// The reader's (the file's budget, read errors) when the annotation is read again.
pub fn relink<R: ReadAt>(
    pdf: &Pdf<R>,
    up: &mut Update,
    link: &Printed,
    url: &str,
) -> Result<Option<String>, Error> {
    let Some(r) = link.object else {
        return Ok(None);
    };
    let Some(Obj::Dict(mut d)) = pdf.get(r.num)?.map(|f| f.obj) else {
        return Ok(None);
    };
    d.entries.retain(|(k, _, _)| k.as_slice() != b"A");
    d.entries.push((
        b"A".to_vec(),
        dict(vec![
            ("Type", name_obj("Action")),
            ("S", name_obj("URI")),
            ("URI", Obj::Str(url.as_bytes().to_vec())),
        ]),
        0..0,
    ));
    up.value(r, &Obj::Dict(d));
    Ok(Some(format!(
        "page 1: link annotation {} {} now opens {url} (was {})",
        r.num,
        r.gen,
        link.url.as_deref().unwrap_or("-")
    )))
}
