//! Reading the page tree (ISO 32000-2 §7.7.3): page 1 with the attributes it inherits
//! ([`Pdf::first_page`], read once per document and kept), and the count of every page
//! ([`Pdf::count_pages`]). Both are walks over references: each node visited is counted
//! against the document's budget ([`Resource::WalkNodes`]), a node met twice is recognised
//! (a shared node is a DAG, not a larger tree), and the stop token is checked at each node.
//!
//! Nothing here decides what to do with a page: the stamp, the strip and what page 1 prints
//! take it from here.

use std::collections::HashSet;

use super::{Pdf, ReadAt};
use crate::budget::Resource;
use crate::syntax::{Dict, Obj, Ref};
use crate::{Error, ErrorKind};

/// Deepest page tree followed (real files have 2–5 levels).
const MAX_PAGE_DEPTH: usize = 64;

/// Inheritable page attributes (§7.7.3.4) found on the way down the page tree.
#[derive(Debug, Clone, Default)]
pub struct Inherited {
    /// `/Resources`.
    pub resources: Option<Obj>,
    /// `/MediaBox`.
    pub media: Option<Obj>,
    /// `/CropBox`.
    pub crop: Option<Obj>,
    /// `/Rotate`.
    pub rotate: Option<Obj>,
}

impl Inherited {
    fn take(&mut self, d: &Dict) {
        let set = |slot: &mut Option<Obj>, k: &[u8]| {
            if let Some(v) = d.get(k).filter(|v| !matches!(v, Obj::Null)) {
                *slot = Some(v.clone());
            }
        };
        set(&mut self.resources, b"Resources");
        set(&mut self.media, b"MediaBox");
        set(&mut self.crop, b"CropBox");
        set(&mut self.rotate, b"Rotate");
    }
}

/// Page 1 of a document: its reference, its dictionary and what it inherits.
#[derive(Debug, Clone)]
pub struct FirstPage {
    /// The page object.
    pub page_ref: Ref,
    /// Its dictionary.
    pub page: Dict,
    /// Attributes inherited from the nodes above it.
    pub inherited: Inherited,
}

/// No page 1: the page tree is empty or broken. Not [`ErrorKind::Damaged`] (whose remedy is
/// rebuilding the xref): the xref holds, and metadata can be written.
fn no_page(m: String) -> Error {
    Error::new(ErrorKind::Unsupported(format!("no page 1: {m}")))
}

impl<R: ReadAt> Pdf<R> {
    /// Page 1 of the page tree whose root the catalog names: at each level the first kid
    /// that holds a page (an empty `/Pages` node, `/Count 0`, is skipped). Read once per
    /// document: later calls return the page read first.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] when there is no page 1 (the tree is empty, loops, or is
    /// broken), [`ErrorKind::OverLimit`], [`ErrorKind::Stopped`], and the reader's errors.
    pub fn first_page(&self, catalog: &Dict) -> Result<FirstPage, Error> {
        if let Some(p) = &*self.page_one.borrow() {
            return p.clone().map_err(|(kind, at)| match at {
                Some(at) => Error::new(kind).at_offset(at),
                None => Error::new(kind),
            });
        }
        let p = self.find_first_page(catalog);
        // What the file says is kept; a refusal of the budget, a stop or an I/O error is
        // not (it is not the file's answer).
        match &p {
            Ok(page) => *self.page_one.borrow_mut() = Some(Ok(page.clone())),
            Err(e) if matches!(e.kind(), ErrorKind::Damaged(_) | ErrorKind::Unsupported(_)) => {
                *self.page_one.borrow_mut() = Some(Err((e.kind().clone(), e.offset())))
            }
            Err(_) => {}
        }
        p
    }

    fn find_first_page(&self, catalog: &Dict) -> Result<FirstPage, Error> {
        let mut node = catalog
            .get(b"Pages")
            .and_then(Obj::as_ref)
            .ok_or_else(|| no_page("the catalog has no /Pages reference".into()))?;
        let mut inh = Inherited::default();
        let mut path = HashSet::new();
        // Kids already looked at and found to hold no page: a node listed again (a DAG) is
        // not read again.
        let mut empty = HashSet::new();
        for _ in 0..MAX_PAGE_DEPTH {
            if !path.insert(node.num) {
                return Err(no_page(format!(
                    "the page tree loops at object {}",
                    node.num
                )));
            }
            self.budget.spend(Resource::WalkNodes, 1)?;
            let f = self
                .get(node.num)?
                .ok_or_else(|| no_page(format!("page tree node {} is missing", node.num)))?;
            let d = f.obj.as_dict().cloned().ok_or_else(|| {
                no_page(format!("page tree node {} is not a dictionary", node.num))
            })?;
            inh.take(&d);
            let is_pages = match d.get(b"Type").and_then(Obj::as_name) {
                Some(b"Pages") => true,
                Some(b"Page") => false,
                _ => d.get(b"Kids").is_some(),
            };
            if !is_pages {
                return Ok(FirstPage {
                    page_ref: node,
                    page: d,
                    inherited: inh,
                });
            }
            let kids = match d.get(b"Kids").map(|k| self.resolve(k)).transpose()? {
                Some(Obj::Array(a)) => a,
                _ => return Err(no_page(format!("page tree node {} has no /Kids", node.num))),
            };
            let mut next = None;
            for k in &kids {
                let Some(r) = k.as_ref() else { continue };
                if empty.contains(&r.num) {
                    continue;
                }
                self.budget.spend(Resource::WalkNodes, 1)?;
                let Some(kf) = self.get(r.num)? else { continue };
                let Some(kd) = kf.obj.as_dict() else { continue };
                let is_empty = kd.get(b"Type").and_then(Obj::as_name) == Some(b"Pages")
                    && kd.get(b"Count").and_then(Obj::as_int) == Some(0);
                if !is_empty {
                    next = Some(r);
                    break;
                }
                empty.insert(r.num);
            }
            node =
                next.ok_or_else(|| no_page(format!("page tree node {} has no page", node.num)))?;
        }
        Err(no_page(format!(
            "the page tree is deeper than {MAX_PAGE_DEPTH} levels"
        )))
    }

    /// Counts the pages under the page tree node `node`, refusing a tree with a missing or
    /// malformed node, or one that lists a node twice (a reader would count its pages twice,
    /// or loop): `what` names the reading in the refusal. Each node is counted against the
    /// budget; depth is bounded.
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`], [`ErrorKind::OverLimit`], [`ErrorKind::Stopped`].
    pub fn count_pages(&self, node: Option<&Obj>, what: &str) -> Result<u64, Error> {
        let broken = |m: &str| {
            Error::new(ErrorKind::Damaged(format!(
                "the page tree is broken {what} ({m})"
            )))
        };
        let mut stack = vec![(node.cloned().unwrap_or(Obj::Null), 0usize)];
        let mut seen = HashSet::new();
        let mut pages = 0u64;
        while let Some((o, depth)) = stack.pop() {
            self.budget.spend(Resource::WalkNodes, 1)?;
            if let Obj::Ref(r) = &o {
                if !seen.insert(r.num) {
                    return Err(broken(&format!("object {} appears twice", r.num)));
                }
            }
            if depth > MAX_PAGE_DEPTH {
                return Err(broken("too deep"));
            }
            let d = match self.resolve(&o)? {
                Obj::Dict(d) => d,
                _ => {
                    return Err(broken(&match o {
                        Obj::Ref(r) => format!("object {} is missing or not a dictionary", r.num),
                        _ => "a node is not a dictionary".into(),
                    }))
                }
            };
            match d.get(b"Kids") {
                Some(kids) => {
                    if let Obj::Ref(r) = kids {
                        if !seen.insert(r.num) {
                            return Err(broken(&format!("object {} appears twice", r.num)));
                        }
                    }
                    let Obj::Array(kids) = self.resolve(kids)? else {
                        return Err(broken("/Kids is not an array"));
                    };
                    stack.extend(kids.into_iter().map(|k| (k, depth + 1)));
                }
                None => match d.get(b"Type").and_then(Obj::as_name) {
                    None | Some(b"Page") => pages += 1,
                    Some(_) => return Err(broken("a leaf is not a page")),
                },
            }
        }
        Ok(pages)
    }
}
