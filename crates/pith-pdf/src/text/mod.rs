//! The text of a PDF's pages, line by line, for reading what a paper cites: every page in
//! page-tree order, each page's content streams read through the fonts' `ToUnicode` CMaps
//! and encodings (`font`), operators followed as `content` says.
//!
//! It is a reader of text, not of layout: lines come in the order the content draws them
//! (reading order for TeX's output), a form XObject's content is read where it is drawn
//! (under its `/Matrix`, with its own `/Resources` or else its drawer's), and a glyph without
//! a known text reads as its code's ASCII character or as nothing. Each page also gives the
//! URIs its link annotations point to, with their rectangles ([`Link`]).
//!
//! Everything it reads is spent from the document's [`Budget`]: page-tree nodes, forms and
//! annotations ([`Resource::WalkNodes`]), decoded bytes, operators. A page's content is
//! decoded to at most [`MAX_PAGE_CONTENT`] bytes; its forms are entered at most
//! [`MAX_FORM_DEPTH`] deep, never inside themselves, and at most [`MAX_PAGE_FORMS`] bytes of
//! form content are read for one page, every drawing of a form counted (a form drawn a
//! million times costs no more than that); at most [`MAX_PAGE_LINKS`] annotations are looked
//! at on one page. An encrypted file is read when the empty user password opens it.
//!
//! It knows nothing of references, arXiv or DOIs: the `pith` library reads those in the text.
//!
//! ```
//! use pith_pdf::text::pages;
//! use pith_pdf::budget::Budget;
//! let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/minimal.pdf"))?;
//! let text = pages(&pdf[..], Budget::default())?;
//! assert_eq!(text.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod content;
mod font;
mod glyphs;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::budget::{Budget, Resource};
use crate::document::load;
use crate::reader::{Pdf, ReadAt};
use crate::syntax::{Dict, Obj};
use crate::{Error, ErrorKind};
use content::Lines;
use font::Font;

/// Most bytes of one page's content decoded (all its streams together).
pub const MAX_PAGE_CONTENT: u64 = 64 << 20;
/// Deepest page tree walked.
const MAX_DEPTH: usize = 64;
/// Most form XObjects entered one inside another (real stamps nest two or three).
pub const MAX_FORM_DEPTH: usize = 16;
/// Most bytes of form content read for one page, each drawing of a form counted.
pub const MAX_PAGE_FORMS: u64 = 16 << 20;
/// Most annotations looked at on one page (a real page of references links a few hundred).
pub const MAX_PAGE_LINKS: usize = 4096;
/// Longest link target kept (longer URIs are no identifier's).
const MAX_URI: usize = 2048;

/// The text of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    /// The page's number, from 1.
    pub page: u32,
    /// Its lines, in the order drawn; none empty.
    pub lines: Vec<Line>,
    /// The URIs its link annotations point to, in the page's order.
    pub links: Vec<Link>,
}

/// Where a link annotation on a page points, and where it lies.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Its rectangle: left, bottom, right, top, in points (user space).
    pub rect: [f32; 4],
    /// The URI its action opens, as written.
    pub uri: String,
}

/// One line of text and where it lies across the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The text, spaces between words, without leading or trailing space.
    pub text: String,
    /// Where its first glyph starts and its last one ends, in points from the page's left
    /// (user space, before any page rotation).
    pub x0: f32,
    /// See [`Line::x0`].
    pub x1: f32,
    /// Its baseline, in points from the page's bottom.
    pub y: f32,
    /// The size of its first font, in points.
    pub size: f32,
    /// Whether it runs other than left to right across the page (set sideways, as arXiv's
    /// stamp up the margin, or upside down); then `x0` and `y` are where it starts.
    pub rotated: bool,
}

/// The text of every page of the PDF in `src`, spending from `budget`.
///
/// # Errors
/// [`ErrorKind::NotPdf`], [`ErrorKind::Damaged`] (a broken xref or page tree),
/// [`ErrorKind::Crypt`] when an encrypted file needs a password, [`ErrorKind::OverLimit`],
/// [`ErrorKind::Stopped`], [`ErrorKind::Io`]. A page whose content will not decode reads as
/// a page without text.
pub fn pages<R: ReadAt>(src: R, budget: Budget) -> Result<Vec<PageText>, Error> {
    let doc = load(src, None, budget)?;
    if let Some(k) = doc.not_opened {
        return Err(Error::new(k));
    }
    let pdf = &doc.pdf;
    let root = doc.catalog();
    let mut out = Vec::new();
    let mut fonts: HashMap<u32, Rc<Font>> = HashMap::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(
        root.get(b"Pages").cloned().unwrap_or(Obj::Null),
        None,
        0usize,
    )];
    while let Some((node, inherited, depth)) = stack.pop() {
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        if let Obj::Ref(r) = &node {
            if !seen.insert(r.num) {
                continue;
            }
        }
        if depth > MAX_DEPTH {
            return Err(Error::new(ErrorKind::Damaged(
                "the page tree is too deep".into(),
            )));
        }
        let Obj::Dict(d) = pdf.resolve(&node)? else {
            continue;
        };
        let resources = d.get(b"Resources").cloned().or(inherited);
        if let Some(kids) = d.get(b"Kids") {
            if let Obj::Array(kids) = pdf.resolve(kids)? {
                for k in kids.into_iter().rev() {
                    stack.push((k, resources.clone(), depth + 1));
                }
            }
            continue;
        }
        let lines = page_lines(pdf, &d, resources.as_ref(), &mut fonts)?;
        let links = page_links(pdf, &d)?;
        out.push(PageText {
            page: u32::try_from(out.len() + 1).unwrap_or(u32::MAX),
            lines,
            links,
        });
    }
    Ok(out)
}

/// A resource name's font, read once per document.
type Fonts = HashMap<Vec<u8>, Rc<Font>>;

/// The fonts and XObjects a content stream names.
#[derive(Clone, Default)]
struct Res {
    fonts: Rc<Fonts>,
    xobjects: Rc<Dict>,
}

/// A form XObject as read once for a page.
struct Form {
    content: Vec<u8>,
    matrix: crate::matrix::Matrix,
    /// Its own resources; `None` where it has none and uses its drawer's.
    res: Option<Res>,
}

/// One page's reading: its forms, each read once, and what its forms have cost.
struct PageReader<'p, R: ReadAt> {
    pdf: &'p Pdf<R>,
    cache: &'p mut HashMap<u32, Rc<Font>>,
    /// Forms by object number (`None`: not a form, or unreadable).
    forms: HashMap<u32, Option<Rc<Form>>>,
    /// Bytes of form content read on this page, every drawing counted.
    form_bytes: u64,
    /// The forms being drawn, outermost first.
    open: Vec<u32>,
}

impl<R: ReadAt> PageReader<'_, R> {
    fn resources(&mut self, res: &Obj) -> Result<Res, Error> {
        let pdf = self.pdf;
        let Obj::Dict(res) = pdf.resolve(res)? else {
            return Ok(Res::default());
        };
        let mut fonts = HashMap::new();
        if let Some(Obj::Dict(fd)) = res.get(b"Font").map(|f| pdf.resolve(f)).transpose()? {
            for (name, v, _) in &fd.entries {
                pdf.budget().spend(Resource::WalkNodes, 1)?;
                let font = match v {
                    Obj::Ref(r) => match self.cache.get(&r.num) {
                        Some(f) => f.clone(),
                        None => {
                            let f = match pdf.resolve(v)? {
                                Obj::Dict(d) => Rc::new(Font::read(pdf, &d)?),
                                _ => Rc::new(Font::default()),
                            };
                            self.cache.insert(r.num, f.clone());
                            f
                        }
                    },
                    Obj::Dict(d) => Rc::new(Font::read(pdf, d)?),
                    _ => continue,
                };
                fonts.insert(name.clone(), font);
            }
        }
        let xobjects = match res.get(b"XObject").map(|x| pdf.resolve(x)).transpose()? {
            Some(Obj::Dict(x)) => x,
            _ => Dict::default(),
        };
        Ok(Res {
            fonts: Rc::new(fonts),
            xobjects: Rc::new(xobjects),
        })
    }

    /// Reads `content` drawn with `res` under `ctm`, entering the forms it draws.
    fn show(
        &mut self,
        content: &[u8],
        res: &Res,
        ctm: crate::matrix::Matrix,
        out: &mut Lines,
    ) -> Result<(), Error> {
        let budget = self.pdf.budget();
        content::show(
            content,
            &res.fonts,
            ctm,
            budget,
            out,
            &mut |name, ctm, out| self.draw(res, name, ctm, out),
        )
    }

    /// Draws the XObject `res` names `name`, when it is a form that may be entered.
    fn draw(
        &mut self,
        res: &Res,
        name: &[u8],
        ctm: &crate::matrix::Matrix,
        out: &mut Lines,
    ) -> Result<(), Error> {
        let Some(Obj::Ref(r)) = res.xobjects.get(name) else {
            return Ok(());
        };
        // Never inside itself (a cycle), never deeper than real stamps go.
        if self.open.len() >= MAX_FORM_DEPTH || self.open.contains(&r.num) {
            return Ok(());
        }
        let form = match self.forms.get(&r.num) {
            Some(f) => f.clone(),
            None => {
                let f = self.read_form(r.num)?;
                self.forms.insert(r.num, f.clone());
                f
            }
        };
        let Some(form) = form else { return Ok(()) };
        // Every drawing is counted: past the page's bound, forms are no longer read.
        let len = form.content.len() as u64;
        if self.form_bytes + len > MAX_PAGE_FORMS {
            self.form_bytes = MAX_PAGE_FORMS;
            return Ok(());
        }
        self.form_bytes += len;
        let inner = form.res.clone().unwrap_or_else(|| res.clone());
        self.open.push(r.num);
        let r = self.show(
            &form.content,
            &inner,
            crate::matrix::mul(&form.matrix, ctm),
            out,
        );
        self.open.pop();
        r
    }

    /// The form XObject `num`, decoded within what the page may still read of forms.
    fn read_form(&mut self, num: u32) -> Result<Option<Rc<Form>>, Error> {
        let pdf = self.pdf;
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        let Some(f) = pdf.get(num)? else {
            return Ok(None);
        };
        let Some(d) = f.obj.as_dict() else {
            return Ok(None);
        };
        if !matches!(d.get(b"Subtype"), Some(Obj::Name(n)) if n == b"Form") {
            return Ok(None);
        }
        let left = MAX_PAGE_FORMS.saturating_sub(self.form_bytes);
        let content = match pdf.decoded(&f, "form content", left) {
            Ok(c) => c,
            Err(e) if matches!(e.kind(), ErrorKind::Stopped(_)) => return Err(e),
            // A form that will not decode, or would pass the page's bound, shows nothing.
            Err(_) => return Ok(None),
        };
        let mut matrix = crate::matrix::IDENTITY;
        if let Some(Obj::Array(m)) = d.get(b"Matrix").map(|m| pdf.resolve(m)).transpose()? {
            let nums: Vec<f64> = m.iter().filter_map(number).collect();
            if let Ok(m) = <[f64; 6]>::try_from(nums) {
                matrix = m;
            }
        }
        let res = match d.get(b"Resources") {
            Some(r) => Some(self.resources(r)?),
            None => None,
        };
        Ok(Some(Rc::new(Form {
            content,
            matrix,
            res,
        })))
    }
}

fn number(o: &Obj) -> Option<f64> {
    match o {
        Obj::Int(i) => Some(*i as f64),
        Obj::Real(r) if r.is_finite() => Some(*r),
        _ => None,
    }
}

fn page_lines<R: ReadAt>(
    pdf: &Pdf<R>,
    page: &Dict,
    resources: Option<&Obj>,
    cache: &mut HashMap<u32, Rc<Font>>,
) -> Result<Vec<Line>, Error> {
    let mut reader = PageReader {
        pdf,
        cache,
        forms: HashMap::new(),
        form_bytes: 0,
        open: Vec::new(),
    };
    let res = match resources {
        Some(r) => reader.resources(r)?,
        None => Res::default(),
    };
    let streams = match page.get(b"Contents").map(|c| pdf.resolve(c)).transpose()? {
        Some(Obj::Array(a)) => a,
        Some(_) => vec![page.get(b"Contents").cloned().unwrap_or(Obj::Null)],
        None => Vec::new(),
    };
    let mut data = Vec::new();
    for s in &streams {
        let Some(r) = s.as_ref() else { continue };
        let Some(f) = pdf.get(r.num)? else { continue };
        let left = MAX_PAGE_CONTENT.saturating_sub(data.len() as u64);
        match pdf.decoded(&f, "page content", left) {
            Ok(d) => data.extend_from_slice(&d),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::OverLimit { .. } | ErrorKind::Stopped(_)
                ) =>
            {
                return Err(e)
            }
            // A stream that will not decode shows nothing; the rest of the page still reads.
            Err(_) => {}
        }
        data.push(b'\n');
    }
    let mut lines = Lines::new();
    reader.show(&data, &res, crate::matrix::IDENTITY, &mut lines)?;
    Ok(lines.finish())
}

/// The URIs of the page's link annotations (`/Subtype /Link` with a `/URI` action), at most
/// [`MAX_PAGE_LINKS`] annotations looked at.
fn page_links<R: ReadAt>(pdf: &Pdf<R>, page: &Dict) -> Result<Vec<Link>, Error> {
    let mut out = Vec::new();
    let Some(Obj::Array(annots)) = page.get(b"Annots").map(|a| pdf.resolve(a)).transpose()? else {
        return Ok(out);
    };
    for a in annots.iter().take(MAX_PAGE_LINKS) {
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        let Obj::Dict(a) = pdf.resolve(a)? else {
            continue;
        };
        if !matches!(a.get(b"Subtype"), Some(Obj::Name(n)) if n == b"Link") {
            continue;
        }
        let Some(Obj::Dict(action)) = a.get(b"A").map(|x| pdf.resolve(x)).transpose()? else {
            continue;
        };
        let Some(Obj::Str(uri)) = action.get(b"URI").map(|x| pdf.resolve(x)).transpose()? else {
            continue;
        };
        if uri.len() > MAX_URI {
            continue;
        }
        let Some(Obj::Array(rect)) = a.get(b"Rect").map(|x| pdf.resolve(x)).transpose()? else {
            continue;
        };
        let r: Vec<f32> = rect.iter().filter_map(number).map(|v| v as f32).collect();
        let Ok([x0, y0, x1, y1]) = <[f32; 4]>::try_from(r) else {
            continue;
        };
        out.push(Link {
            rect: [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)],
            uri: String::from_utf8_lossy(&uri).into_owned(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::fixture;

    #[test]
    fn reads_the_minimal_fixture() {
        let pdf = fixture("minimal.pdf");
        let t = pages(&pdf[..], Budget::default()).unwrap();
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn operators_are_counted() {
        let pdf = fixture("minimal.pdf");
        let limits = crate::Limits {
            operators: 0,
            ..Default::default()
        };
        let b = Budget::new(limits, crate::Stop::never());
        let r = pages(&pdf[..], b);
        let t = pages(&pdf[..], Budget::default()).unwrap();
        // A page with operators is refused at once; one without passes.
        assert!(r.is_err() || t.iter().all(|p| p.lines.is_empty()));
    }
}
