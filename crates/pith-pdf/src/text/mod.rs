//! The text of a PDF's pages, line by line, for reading what a paper cites: every page in
//! page-tree order, each page's content streams read through the fonts' `ToUnicode` CMaps
//! and encodings (`font`), operators followed as `content` says.
//!
//! It is a reader of text, not of layout: lines come in the order the content draws them
//! (reading order for TeX's output), form XObjects are not entered, and a glyph without a
//! known text reads as its code's ASCII character or as nothing. Everything it reads is
//! spent from the document's [`Budget`]: page-tree nodes ([`Resource::WalkNodes`]), decoded
//! bytes, operators; a page's content is decoded to at most [`MAX_PAGE_CONTENT`] bytes. An
//! encrypted file is read when the empty user password opens it.
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

/// The text of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    /// The page's number, from 1.
    pub page: u32,
    /// Its lines, in the order drawn; none empty.
    pub lines: Vec<Line>,
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
        out.push(PageText {
            page: u32::try_from(out.len() + 1).unwrap_or(u32::MAX),
            lines,
        });
    }
    Ok(out)
}

fn page_lines<R: ReadAt>(
    pdf: &Pdf<R>,
    page: &Dict,
    resources: Option<&Obj>,
    cache: &mut HashMap<u32, Rc<Font>>,
) -> Result<Vec<Line>, Error> {
    let mut fonts = HashMap::new();
    if let Some(res) = resources {
        if let Obj::Dict(res) = pdf.resolve(res)? {
            if let Some(Obj::Dict(fd)) = res.get(b"Font").map(|f| pdf.resolve(f)).transpose()? {
                for (name, v, _) in &fd.entries {
                    pdf.budget().spend(Resource::WalkNodes, 1)?;
                    let font = match v {
                        Obj::Ref(r) => match cache.get(&r.num) {
                            Some(f) => f.clone(),
                            None => {
                                let f = match pdf.resolve(v)? {
                                    Obj::Dict(d) => Rc::new(Font::read(pdf, &d)?),
                                    _ => Rc::new(Font::default()),
                                };
                                cache.insert(r.num, f.clone());
                                f
                            }
                        },
                        Obj::Dict(d) => Rc::new(Font::read(pdf, d)?),
                        _ => continue,
                    };
                    fonts.insert(name.clone(), font);
                }
            }
        }
    }
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
    content::show(&data, &fonts, pdf.budget(), &mut lines)?;
    Ok(lines.finish())
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
