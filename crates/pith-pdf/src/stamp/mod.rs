//! A visible, linked Pith Number on page 1: `pith inject --stamp`.
//!
//! [`plan`] reads page 1 (following the page tree from the catalog, with `/Resources`,
//! `/MediaBox`, `/CropBox` and `/Rotate` inherited from `/Pages` ancestors), places the text
//! with [`geometry`], and [`Plan::write`] adds to an incremental update:
//! - the stamp's content stream: `Q q /Artifact BMC … EMC Q`, text in the embedded font
//!   ([`font`]) in grey; the page's original content is wrapped between a new `q` stream and
//!   it (`/Contents [q-stream original… stamp-stream]`), so a graphics state the page leaves
//!   behind cannot move or hide the stamp, and tagged documents see the stamp as an artifact;
//! - a link annotation (`/Subtype /Link`, `/URI` of the record, `/Border [0 0 0]`, alt text in
//!   `/Contents`) whose `/Rect` covers the text;
//! - the font objects, and a new version of the page dictionary with its *own* resources (a
//!   copy of the inherited or shared dictionary plus the font), so no other page changes.
//!
//! The stamp is recognised again by private `/PithStamp` keys on its content stream (with the
//! text it shows in `/PithText` and its record in `/PithURL`) and annotation: stamping again with the same text is [`Plan::is_current`] (nothing to write);
//! with another number, form, size or position the same two objects get new versions, so a
//! page never carries two stamps. This module decides nothing about signatures or encryption
//! (see [`super::inject()`]) and does no I/O beyond reading objects through [`Pdf`].
//!
//! [`printed`] reads what page 1 prints of a number (the badge `pith.sty` draws, the stamp,
//! record links, number text pith did not draw); [`badge`] redraws the badge in its box.

use crate::budget::Resource;
use crate::filters::MAX_WHOLE;
use crate::reader::{too_large, Inherited, Pdf, ReadAt};
use crate::syntax::{Dict, Obj, Ref};
use crate::Identifier;
use crate::{Error, ErrorKind};

pub mod badge;
pub mod balance;
pub mod content;
pub mod font;
pub mod geometry;
pub mod printed;
pub mod tagged;
pub mod text;
mod write;

pub use geometry::Position;
use geometry::{Page, Rect};

/// Which form of the number the stamp shows (`--stamp-form`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// `pith:7BMK4ZKT` (the default).
    #[default]
    Short,
    /// `pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`.
    Full,
}

/// How the stamp looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stamp {
    /// Short or full number.
    pub form: Form,
    /// Which margin.
    pub position: Position,
    /// Font size in points (on paper, whatever the page's `/UserUnit`); the stamp shrinks
    /// when it would not fit its band of the page.
    pub size: f64,
    /// Grey text (DeviceGray); off draws in the initial black without a colour operator
    /// (see [`grey_allowed`]).
    pub grey: bool,
}

/// Default font size in points.
pub const DEFAULT_SIZE: f64 = 9.0;

impl Default for Stamp {
    fn default() -> Self {
        Stamp {
            form: Form::Short,
            position: Position::Left,
            size: DEFAULT_SIZE,
            grey: true,
        }
    }
}

impl Form {
    /// Every form with its name, as front ends take them (`short`, `full`).
    pub const NAMES: [(&'static str, Form); 2] = [("short", Form::Short), ("full", Form::Full)];
}

impl std::str::FromStr for Form {
    type Err = String;
    /// A form from its name ([`Form::NAMES`]); the error names the ones there are.
    fn from_str(s: &str) -> Result<Self, String> {
        Form::NAMES
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, f)| *f)
            .ok_or_else(|| format!("form {s:?} is not short or full"))
    }
}

impl Position {
    /// Every position with its name, as front ends take them.
    pub const NAMES: [(&'static str, Position); 4] = [
        ("left", Position::Left),
        ("right", Position::Right),
        ("top", Position::Top),
        ("bottom", Position::Bottom),
    ];
}

impl std::str::FromStr for Position {
    type Err = String;
    /// A position from its name ([`Position::NAMES`]); the error names the ones there are.
    fn from_str(s: &str) -> Result<Self, String> {
        Position::NAMES
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, p)| *p)
            .ok_or_else(|| format!("position {s:?} is not left, right, top or bottom"))
    }
}

impl Stamp {
    /// The text the stamp shows for `number`.
    pub fn text(&self, number: &dyn Identifier) -> String {
        match self.form {
            Form::Short => number.short(),
            Form::Full => number.full(),
        }
    }
}

/// The most of page 1's decoded content the stamp walks: 256 MiB, far beyond
/// real pages (a dense vector map is a few tens of MB); past it the stamp is refused rather
/// than spend minutes on a page whose contents inflate without end.
pub const MAX_CONTENT: u64 = 256 << 20;

/// Value of the `/PithStamp` key on the objects this module writes.
const MARK_STAMP: &[u8] = b"Stamp";
const MARK_LINK: &[u8] = b"Link";
/// Fill colour of the stamp text (DeviceGray), a mid grey like arXiv's stamp.
const GREY: f64 = 0.35;
/// The least luminance of a background the grey text stands out from without a plate: text of
/// luminance 0.10 (`0.35 g`) on it has a contrast of 4.5:1 (WCAG 2's level AA for small text).
const PLATE_LUMINANCE: f64 = 0.63;
/// How far the plate reaches beyond the text's box, in ems of the stamp's font.
const PLATE_PAD_EM: f64 = 0.2;

/// Whether the stamp may set a DeviceGray colour: PDF/A (ISO 19005-2 §6.2.4.3) allows device
/// colour only with a PDF/A output intent, so a file that claims PDF/A without one gets the
/// initial black (no colour operator) instead of grey.
pub fn grey_allowed(catalog: &Dict, claims_pdfa: bool) -> bool {
    !claims_pdfa || catalog.get(b"OutputIntents").is_some()
}

/// A stamp that is already on the page.
#[derive(Debug, Clone)]
struct Existing {
    stream: Ref,
    data: Vec<u8>,
    annot: Option<(Ref, Dict)>,
}

/// The planned stamp for page 1.
#[derive(Debug, Clone)]
pub struct Plan {
    page_ref: Ref,
    page: Dict,
    resources: Option<Obj>,
    /// The resources' `/Font` dictionary when it is an indirect object.
    font_dict: Option<Dict>,
    contents: Vec<Obj>,
    /// How the page's own content nests `q`/`Q`.
    nesting: balance::Nesting,
    annots: Vec<Obj>,
    existing: Option<Existing>,
    font_name: Vec<u8>,
    placement: geometry::Placement,
    grey: bool,
    /// A white plate behind the text: the stamp sits on a background it would not stand out
    /// from.
    plate: bool,
    text: String,
    encoded: Vec<u8>,
    url: String,
    /// The structure tree to add the link to (a tagged file whose stamp link has none yet).
    tags: Option<tagged::Tags>,
    /// The annotation's `/StructParent`: kept from a stamp written before, or the new key.
    struct_parent: Option<i64>,
}

/// No page 1 to stamp: the page tree is empty or broken. Not [`ErrorKind::Damaged`] (whose
/// remedy is rebuilding the xref): the xref holds, metadata-only injection works.
fn damaged(m: String) -> Error {
    Error::new(ErrorKind::Unsupported(format!("no page 1 to stamp: {m}")))
}

/// Letter, the media box PDF readers assume when a page has none (pdfium, MuPDF, poppler).
const DEFAULT_MEDIA: Rect = Rect {
    x0: 0.0,
    y0: 0.0,
    x1: 612.0,
    y1: 792.0,
};

/// The content streams of `page` as its `/Contents` lists them: one stream, or the items of
/// an array (direct or indirect); nothing for anything else.
pub(crate) fn page_contents<R: ReadAt>(pdf: &Pdf<R>, page: &Dict) -> Vec<Obj> {
    match page.get(b"Contents") {
        // An unreadable object is kept as it is, as if it were a stream.
        Some(c @ Obj::Ref(r)) => match pdf.get(r.num).unwrap_or(None) {
            Some(f) if f.stream.is_some() => vec![c.clone()],
            Some(f) => match f.obj {
                Obj::Array(a) => a,
                _ => vec![],
            },
            None => vec![],
        },
        Some(Obj::Array(a)) => a.clone(),
        _ => vec![],
    }
}

/// Page 1: its reference, dictionary and inherited attributes, as the reader read it once
/// for the document ([`Pdf::first_page`]); a page tree without page 1 is "no page 1 to stamp".
fn first_page<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> Result<(Ref, Dict, Inherited), Error> {
    match pdf.first_page(catalog) {
        Ok(p) => Ok((p.page_ref, p.page, p.inherited)),
        Err(e) => match e.kind() {
            ErrorKind::Unsupported(m) => Err(damaged(
                m.strip_prefix("no page 1: ").unwrap_or(m).to_string(),
            )),
            _ => Err(e),
        },
    }
}

fn as_f64(o: &Obj) -> Option<f64> {
    match o {
        Obj::Int(i) => Some(*i as f64),
        Obj::Real(r) if r.is_finite() => Some(*r),
        _ => None,
    }
}

/// A rectangle value, `None` when missing or unreadable (the caller then falls back).
fn rect<R: ReadAt>(pdf: &Pdf<R>, o: Option<&Obj>) -> Option<Rect> {
    match pdf.resolve(o?).ok()? {
        Obj::Array(a) if a.len() == 4 => {
            let v: Vec<f64> = a
                .iter()
                .filter_map(|o| pdf.resolve(o).ok().as_ref().and_then(as_f64))
                .collect();
            (v.len() == 4).then(|| Rect::new(v[0], v[1], v[2], v[3]))
        }
        _ => None,
    }
}

/// The most annotations of page 1 looked at by [`page_links`].
const MAX_ANNOTS: usize = 4096;

/// The `/URI`s of page 1's link annotations that start with `prefix`: the stamp's link, and
/// the badge link `pith.sty` writes (a PDF's number read from what its page shows
/// when its metadata carries none). Reads page 1 and its annotations only.
///
/// # Errors
/// [`ErrorKind::Unsupported`] when there is no page 1; [`ErrorKind::Damaged`] when an object
/// on the way cannot be parsed; [`ErrorKind::Io`].
pub fn page_links<R: ReadAt>(
    pdf: &Pdf<R>,
    catalog: &Dict,
    prefix: &str,
) -> Result<Vec<String>, Error> {
    let (_, page, _) = first_page(pdf, catalog)?;
    let annots = match page.get(b"Annots").map(|a| pdf.resolve(a)).transpose()? {
        Some(Obj::Array(a)) => a,
        _ => vec![],
    };
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for a in annots.iter().take(MAX_ANNOTS) {
        // An annotation listed again is the same link: looked at once.
        if let Obj::Ref(r) = a {
            if !seen.insert(r.num) {
                continue;
            }
        }
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        let Some((_, action)) = printed::link_action(pdf, a) else {
            continue;
        };
        if let Some(Ok(Obj::Str(uri))) = action.get(b"URI").map(|x| pdf.resolve(x)) {
            if let Ok(uri) = String::from_utf8(uri) {
                if uri.starts_with(prefix) {
                    out.push(uri);
                }
            }
        }
    }
    Ok(out)
}

/// Reads page 1 and plans the stamp showing `number` as `stamp` says.
///
/// The stamp goes in a free margin of the page ([`geometry::place_free`]): the
/// position asked for, else the left margin, else the other edges, at the size asked for or
/// smaller down to [`geometry::MIN_SIZE_PT`], never over the page's content (as the walk of
/// [`content`] bounds it) nor outside the crop box.
///
/// # Errors
/// [`ErrorKind::NoStampRoom`] when no edge has room for a legible stamp;
/// [`ErrorKind::TooLarge`] when page 1's content decodes to more than [`MAX_CONTENT`];
/// [`ErrorKind::Unsupported`] when there is no page 1 (an empty or broken page tree);
/// [`ErrorKind::Damaged`] when an object on the way cannot be parsed; [`ErrorKind::Io`].
pub fn plan<R: ReadAt>(
    pdf: &Pdf<R>,
    catalog: &Dict,
    number: &dyn Identifier,
    stamp: &Stamp,
) -> Result<Plan, Error> {
    let (page_ref, page, inh) = first_page(pdf, catalog)?;
    let media = rect(pdf, inh.media.as_ref())
        .filter(|r| r.width() > 0.0 && r.height() > 0.0)
        .unwrap_or(DEFAULT_MEDIA);
    let crop = rect(pdf, inh.crop.as_ref());
    let rotate = match inh.rotate.as_ref().map(|r| pdf.resolve(r)).transpose()? {
        Some(Obj::Int(i)) => i,
        _ => 0,
    };
    let user_unit = page.get(b"UserUnit").and_then(as_f64);
    let geo = Page::new(media, crop, rotate, user_unit);

    let contents = page_contents(pdf, &page);
    let annots = match page.get(b"Annots").map(|a| pdf.resolve(a)).transpose()? {
        Some(Obj::Array(a)) => a,
        _ => vec![],
    };

    // A stamp written before: the last content stream and an annotation carry /PithStamp.
    let mut existing = None;
    if let Some(Obj::Ref(r)) = contents.last() {
        if let Some(f) = pdf.get(r.num).unwrap_or(None) {
            let mark = f
                .obj
                .as_dict()
                .and_then(|d| d.get(b"PithStamp"))
                .and_then(Obj::as_name);
            if f.stream.is_some() && mark == Some(MARK_STAMP) {
                existing = Some(Existing {
                    stream: *r,
                    data: pdf.decoded(&f, "the stamp's content stream", MAX_WHOLE)?,
                    annot: None,
                });
            }
        }
    }
    if let Some(ex) = existing.as_mut() {
        let mut seen = std::collections::HashSet::new();
        for a in &annots {
            let Obj::Ref(r) = a else { continue };
            if !seen.insert(r.num) {
                continue;
            }
            pdf.budget().spend(Resource::WalkNodes, 1)?;
            let Some(Obj::Dict(d)) = pdf.get(r.num).unwrap_or(None).map(|f| f.obj) else {
                continue;
            };
            if d.get(b"PithStamp").and_then(Obj::as_name) == Some(MARK_LINK) {
                ex.annot = Some((*r, d));
                break;
            }
        }
    }

    let resources = match inh.resources.as_ref().map(|r| pdf.resolve(r)).transpose()? {
        Some(Obj::Dict(d)) => Some(Obj::Dict(d)),
        _ => None,
    };
    let font_dict = match resources
        .as_ref()
        .and_then(Obj::as_dict)
        .and_then(|d| d.get(b"Font"))
    {
        Some(r @ Obj::Ref(..)) => match pdf.resolve(r)? {
            Obj::Dict(d) => Some(d),
            _ => None,
        },
        _ => None,
    };
    let font_name = match &existing {
        Some(ex) => font_name_in(&ex.data).unwrap_or_else(|| b"PithStamp".to_vec()),
        None => free_font_name(pdf, resources.as_ref())?,
    };
    // The page's own content, walked as it is decoded, for its q/Q nesting (not
    // needed to replace a stamp: the Q count is in it already) and its extent. A content
    // stream that cannot be read or decoded is walked as far as it decodes (the page keeps it
    // as it is; the stamp then assumes the rest balanced and empty).
    let xobjects = match resources
        .as_ref()
        .and_then(Obj::as_dict)
        .and_then(|d| d.get(b"XObject"))
        .map(|x| pdf.resolve(x))
        .transpose()?
    {
        Some(Obj::Dict(d)) => d,
        _ => Dict::default(),
    };
    let scopes = Scopes {
        pdf,
        dicts: std::cell::RefCell::new(vec![xobjects]),
    };
    let mut walk = content::Walk::new(MAX_CONTENT, |scope, n| scopes.xobject(scope, n))
        .with_page(geo.crop)
        .with_budget(pdf.budget());
    for c in &contents {
        let Obj::Ref(r) = c else { continue };
        if existing.as_ref().is_some_and(|ex| ex.stream == *r) {
            continue;
        }
        let Some(f) = pdf.get(r.num).ok().flatten().filter(|f| f.stream.is_some()) else {
            continue;
        };
        let Ok(dec) = pdf.decoder(&f) else { continue };
        if let Err(e) = walk.feed(dec) {
            if e.get_ref().is_some_and(|i| i.is::<content::TooLong>()) {
                return Err(too_large(
                    "page 1's content",
                    Some(page_ref.num),
                    MAX_CONTENT,
                ));
            }
            // A limit reached or a stop ends the plan; other read errors end this stream's
            // walk only.
            pdf.budget().verdict()?;
        }
    }
    let found = walk.finish();
    let nesting = if existing.is_none() {
        found.nesting
    } else {
        balance::Nesting::default()
    };
    let text = stamp.text(number);
    let enc = font::encode(&text)?;
    // Where the page has content: the marks of its content streams and the boxes
    // of its annotations (pith's own link excepted, and popups, which are not drawn on the
    // page); an unclipped shading covers the whole page.
    let mut occupied = found.boxes;
    if found.everything {
        occupied.push(geo.crop);
    }
    // A page colour or full-page picture drawn before any text is background, not content:
    // the stamp may sit on it where the text leaves a margin, on a plate where it needs one.
    // A page that is one picture and nothing else (a scanned page, a screenshot, a photo) is
    // stamped on it too, in the margin where a scan's margin is, as arXiv stamps such pages.
    let background = found.background;
    // An annotation listed again occupies the same box: looked at once.
    let mut seen = std::collections::HashSet::new();
    for a in &annots {
        if let Obj::Ref(r) = a {
            if !seen.insert(r.num) {
                continue;
            }
        }
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        let own = existing
            .as_ref()
            .and_then(|ex| ex.annot.as_ref())
            .is_some_and(|(r, _)| Obj::Ref(*r) == *a);
        let Ok(Obj::Dict(d)) = pdf.resolve(a) else {
            continue;
        };
        if own || d.get(b"Subtype").and_then(Obj::as_name) == Some(b"Popup") {
            continue;
        }
        if let Some(r) = rect(pdf, d.get(b"Rect")) {
            occupied.push(r);
        }
    }
    // The edge asked for first, then the left margin, then the other edges.
    let mut order = vec![stamp.position];
    for p in [
        Position::Left,
        Position::Right,
        Position::Bottom,
        Position::Top,
    ] {
        if !order.contains(&p) {
            order.push(p);
        }
    }
    let placement = geometry::place_free(&geo, &order, stamp.size, &enc.extent, &occupied)
        .ok_or_else(|| Error::new(ErrorKind::NoStampRoom))?;
    // A plate where the stamp meets a background that is not a light uniform colour. Without
    // a DeviceGray (PDF/A without an output intent) there is no plate: the text is black.
    let plate = stamp.grey
        && background.iter().any(|b| {
            b.rect.intersect(&placement.rect).is_some()
                && b.luminance.is_none_or(|l| l < PLATE_LUMINANCE)
        });
    // Tagged files: the link gets a structure element, unless the stamp's
    // annotation already has its /StructParent.
    let kept_key = existing
        .as_ref()
        .and_then(|ex| ex.annot.as_ref())
        .and_then(|(_, d)| d.get(b"StructParent"))
        .and_then(Obj::as_int);
    let tags = match kept_key {
        Some(_) => None,
        None => tagged::Tags::read(pdf, catalog)?,
    };
    let struct_parent = kept_key.or(tags.as_ref().map(tagged::Tags::key));
    Ok(Plan {
        tags,
        struct_parent,
        page_ref,
        page,
        resources,
        font_dict,
        contents,
        nesting,
        annots,
        existing,
        font_name,
        placement,
        grey: stamp.grey,
        plate,
        text,
        encoded: enc.bytes,
        url: number.url(),
    })
}

/// The largest form XObject content the stamp's walk goes into (a form past it counts by its
/// box): forms are figures and page wrappers of a few KB to a few MB.
const MAX_FORM: u64 = 16 << 20;

/// The `/XObject` dictionaries of the scopes of a page's walk: 0 is the page's resources, each
/// form walked into adds its own (or its parent's when it has none).
struct Scopes<'p, R: ReadAt> {
    pdf: &'p Pdf<R>,
    dicts: std::cell::RefCell<Vec<Dict>>,
}

impl<R: ReadAt> Scopes<'_, R> {
    /// What XObject `name` of scope `scope` is: an image, a form with its box, matrix, content
    /// and scope, or `None` when it cannot be read (the walk then takes it as an image).
    fn xobject(&self, scope: usize, name: &[u8]) -> Option<content::XObject> {
        let pdf = self.pdf;
        let r = self.dicts.borrow().get(scope)?.get(name)?.as_ref()?;
        let f = pdf.get(r.num).ok()??;
        let d = f.obj.as_dict()?;
        match d.get(b"Subtype").and_then(Obj::as_name)? {
            b"Image" => Some(content::XObject::Image),
            b"Form" => {
                let bbox = rect(pdf, d.get(b"BBox"))?;
                let matrix = match d.get(b"Matrix").map(|m| pdf.resolve(m)) {
                    Some(Ok(Obj::Array(a))) if a.len() == 6 => {
                        let v: Vec<f64> = a.iter().filter_map(as_f64).collect();
                        <[f64; 6]>::try_from(v).ok()?
                    }
                    _ => [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                };
                let content = self.form_content(&f, scope);
                Some(content::XObject::Form {
                    bbox,
                    matrix,
                    content,
                })
            }
            _ => None,
        }
    }

    /// A form's decoded content (up to [`MAX_FORM`]) and the scope of its resources.
    fn form_content(&self, f: &crate::reader::Fetched, parent: usize) -> Option<(Vec<u8>, usize)> {
        let pdf = self.pdf;
        let d = f.obj.as_dict()?;
        let data = pdf.decoded(f, "a form XObject", MAX_FORM).ok()?;
        let own = match d.get(b"Resources").map(|r| pdf.resolve(r)) {
            Some(Ok(Obj::Dict(res))) => match res.get(b"XObject").map(|x| pdf.resolve(x)) {
                Some(Ok(Obj::Dict(x))) => Some(x),
                _ => Some(Dict::default()),
            },
            _ => None,
        };
        let mut dicts = self.dicts.borrow_mut();
        if dicts.len() >= 1000 {
            return None;
        }
        let x = own.unwrap_or_else(|| dicts[parent].clone());
        dicts.push(x);
        Some((data, dicts.len() - 1))
    }
}

/// The font resource name in a stamp stream written before (`/Name size Tf`).
fn font_name_in(data: &[u8]) -> Option<Vec<u8>> {
    let i = data.windows(4).position(|w| w == b"BT\n/")?;
    let rest = &data[i + 4..];
    let end = rest.iter().position(|&b| b == b' ')?;
    Some(rest[..end].to_vec())
}

/// A `/Font` resource name not used on the page.
fn free_font_name<R: ReadAt>(pdf: &Pdf<R>, resources: Option<&Obj>) -> Result<Vec<u8>, Error> {
    let fonts = match resources
        .and_then(|r| r.as_dict())
        .and_then(|d| d.get(b"Font"))
    {
        Some(f) => match pdf.resolve(f)? {
            Obj::Dict(d) => d,
            _ => Dict::default(),
        },
        None => Dict::default(),
    };
    let mut i = 1;
    let mut name = b"PithStamp".to_vec();
    while fonts.get(&name).is_some() {
        i += 1;
        name = format!("PithStamp{i}").into_bytes();
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::write::{leading_closes, set};
    use super::*;
    use crate::syntax::Parser;

    fn dict(t: &[u8]) -> Dict {
        Parser::new(t, 0, true).dict().unwrap()
    }

    #[test]
    fn grey_needs_an_output_intent_only_on_pdfa() {
        let with = dict(b"<< /Type /Catalog /OutputIntents [5 0 R] >>");
        let without = dict(b"<< /Type /Catalog >>");
        assert!(grey_allowed(&with, true));
        assert!(!grey_allowed(&without, true));
        assert!(grey_allowed(&without, false));
    }

    #[test]
    fn a_stamp_written_before_is_read_back() {
        let data = b"Q\nQ\nq\n/Artifact BMC\n1 0 0 1 0 0 cm\nBT\n/PithStamp2 9 Tf\n";
        assert_eq!(leading_closes(data), 2);
        assert_eq!(font_name_in(data), Some(b"PithStamp2".to_vec()));
        assert_eq!(leading_closes(b"q\n"), 0);
    }

    #[test]
    fn set_replaces_every_occurrence() {
        let mut d = dict(b"<< /A 1 /B 2 /A 3 >>");
        set(&mut d, b"A", Obj::Int(4));
        assert_eq!(d.get(b"A"), Some(&Obj::Int(4)));
        assert_eq!(d.entries.len(), 2);
    }
}
