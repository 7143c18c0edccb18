//! The stamp's link in the structure tree of a tagged PDF (ISO 32000-2 §14.7,
//! PDF/UA-1 §7.18.5): a `Link` structure element whose `/K` holds an object reference (`OBJR`)
//! to the link annotation, the annotation's `/StructParent` key, and that key's entry in the
//! parent tree (`/ParentTree`, a number tree, §7.9.7) pointing back at the element, with
//! `/ParentTreeNextKey` moved past it. The stamp's text stays an artifact (`/Artifact BMC`), so
//! the element holds the annotation only.
//!
//! [`Tags::read`] finds what to change (the structure tree root, the element the link goes
//! under, the parent tree node that takes the new entry); [`Tags::write`] adds new versions of
//! those objects to the update. Shapes it does not know (a `/Kids` array given by reference,
//! a number tree deeper than 32 levels or of more than 100,000 nodes) leave the tree as it is: `read` gives `None`.

use crate::budget::Resource;
use crate::reader::{Pdf, ReadAt};
use crate::syntax::{Dict, Obj, Ref};
use crate::writer::Update;
use crate::Error;

use crate::writer::structure::{number_leaf, objr, Elem};

/// Deepest number tree followed.
const MAX_DEPTH: usize = 32;
/// Most number tree nodes read to find the largest key.
const MAX_NODES: usize = 100_000;

/// Where the parent tree takes the new entry.
#[derive(Debug, Clone)]
enum Entry {
    /// A leaf node with `/Nums` (the root itself, or direct in the structure tree root when
    /// `node` is `None`): the pair is appended.
    Nums(Option<Ref>, Dict),
    /// A root with `/Kids` (`None`: direct in the structure tree root): a new leaf is added
    /// after the last kid.
    Kids(Option<Ref>, Dict),
}

/// A tagged document's structure tree, as the stamp changes it.
#[derive(Debug, Clone)]
pub struct Tags {
    root_ref: Ref,
    root: Dict,
    /// The element the link goes under (`None`: the structure tree root itself) and its dict.
    parent: Option<(Ref, Dict)>,
    entry: Entry,
    /// The new key: `/ParentTreeNextKey`, or one past the largest key in the tree.
    key: i64,
}

/// Whether `catalog` says the document is tagged: `/MarkInfo << /Marked true >>` and a
/// `/StructTreeRoot`.
fn is_tagged<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> bool {
    let marked = match catalog.get(b"MarkInfo").map(|m| pdf.resolve(m)) {
        Some(Ok(Obj::Dict(d))) => d.get(b"Marked") == Some(&Obj::Bool(true)),
        _ => false,
    };
    marked && catalog.get(b"StructTreeRoot").is_some()
}

fn dict_of<R: ReadAt>(pdf: &Pdf<R>, r: Ref) -> Result<Option<Dict>, Error> {
    Ok(pdf.get(r.num)?.and_then(|f| match f.obj {
        Obj::Dict(d) if f.stream.is_none() => Some(d),
        _ => None,
    }))
}

/// The largest key under a number tree node, `None` when it has none.
fn max_key<R: ReadAt>(
    pdf: &Pdf<R>,
    node: &Dict,
    depth: usize,
    budget: &mut usize,
) -> Result<Option<i64>, Error> {
    if depth > MAX_DEPTH || *budget == 0 {
        // Keys past here are unknown: the caller must not pick one.
        *budget = 0;
        return Ok(None);
    }
    *budget -= 1;
    pdf.budget().spend(Resource::WalkNodes, 1)?;
    let mut best = None;
    if let Some(Obj::Array(nums)) = node.get(b"Nums").map(|n| pdf.resolve(n)).transpose()? {
        best = nums.iter().step_by(2).filter_map(Obj::as_int).max();
    }
    if let Some(Obj::Array(kids)) = node.get(b"Kids").map(|k| pdf.resolve(k)).transpose()? {
        for k in kids {
            let Obj::Dict(d) = pdf.resolve(&k)? else {
                continue;
            };
            if let Some(m) = max_key(pdf, &d, depth + 1, budget)? {
                best = Some(best.map_or(m, |b: i64| b.max(m)));
            }
        }
    }
    Ok(best)
}

impl Tags {
    /// Reads the structure tree of a tagged document; `None` when the document is not tagged
    /// or its tree has a shape this module does not change.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Damaged`] when an object on the way cannot be parsed.
    pub fn read<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> Result<Option<Tags>, Error> {
        if !is_tagged(pdf, catalog) {
            return Ok(None);
        }
        let Some(root_ref) = catalog.get(b"StructTreeRoot").and_then(Obj::as_ref) else {
            return Ok(None);
        };
        let Some(root) = dict_of(pdf, root_ref)? else {
            return Ok(None);
        };
        // The link goes under the document's one top element when there is one (PDF/UA
        // documents have a single Document element), else under the root.
        let parent = match root.get(b"K") {
            Some(Obj::Ref(r)) => dict_of(pdf, *r)?
                .filter(|d| {
                    matches!(
                        d.get(b"K"),
                        None | Some(Obj::Array(_) | Obj::Dict(_) | Obj::Int(_) | Obj::Ref(_))
                    )
                })
                .map(|d| (*r, d)),
            _ => None,
        };
        let entry = match root.get(b"ParentTree") {
            Some(Obj::Ref(r)) => match dict_of(pdf, *r)? {
                Some(d) if d.get(b"Kids").is_some() => Entry::Kids(Some(*r), d),
                Some(d) => Entry::Nums(Some(*r), d),
                None => return Ok(None),
            },
            Some(Obj::Dict(d)) if d.get(b"Kids").is_some() => Entry::Kids(None, d.clone()),
            Some(Obj::Dict(d)) => Entry::Nums(None, d.clone()),
            None => Entry::Nums(None, Dict::default()),
            Some(_) => return Ok(None),
        };
        let node = match &entry {
            Entry::Nums(_, d) | Entry::Kids(_, d) => d,
        };
        // Only direct arrays are extended.
        let direct = |k: &[u8]| matches!(node.get(k), None | Some(Obj::Array(_)));
        if !direct(b"Nums") || !direct(b"Kids") {
            return Ok(None);
        }
        let mut budget = MAX_NODES;
        let next = max_key(pdf, node, 0, &mut budget)?.map_or(0, |m| m.saturating_add(1));
        if budget == 0 {
            // A tree too deep or too large to know its largest key: a key picked could clash.
            return Ok(None);
        }
        let declared = root
            .get(b"ParentTreeNextKey")
            .and_then(Obj::as_int)
            .unwrap_or(0);
        Ok(Some(Tags {
            root_ref,
            root,
            parent,
            entry,
            key: next.max(declared).max(0),
        }))
    }

    /// The `/StructParent` key the annotation gets.
    pub fn key(&self) -> i64 {
        self.key
    }

    /// Adds the `Link` element for annotation `annot` on page `page`, with `alt` as its
    /// alternate description, and the new versions of the objects that point at it; returns
    /// the element.
    pub fn write(&self, up: &mut Update, annot: Ref, page: Ref, alt: &str) -> Ref {
        let link = up.alloc();
        let parent_ref = self.parent.as_ref().map_or(self.root_ref, |(r, _)| *r);
        let elem = Elem {
            s: "Link",
            parent: parent_ref,
            page,
            kid: objr(annot, page),
            alt: Some(alt),
        };
        up.value(link, &elem.to_obj());

        let mut root = self.root.clone();
        // The element's /K: the link appended to its kids.
        let add_kid = |d: &mut Dict| {
            let kids = match d.get(b"K") {
                None => vec![],
                Some(Obj::Array(a)) => a.clone(),
                Some(k) => vec![k.clone()],
            };
            let mut kids = kids;
            kids.push(Obj::Ref(link));
            set(d, b"K", Obj::Array(kids));
        };
        if let Some((r, d)) = &self.parent {
            let mut d = d.clone();
            add_kid(&mut d);
            up.value(*r, &Obj::Dict(d));
        } else {
            add_kid(&mut root);
        }

        // The parent tree: the pair (key, element) after the largest key.
        let key = Obj::Int(self.key);
        let node = match &self.entry {
            Entry::Nums(at, d) => {
                let mut d = d.clone();
                let mut nums = match d.get(b"Nums") {
                    Some(Obj::Array(a)) => a.clone(),
                    _ => vec![],
                };
                nums.push(key);
                nums.push(Obj::Ref(link));
                set(&mut d, b"Nums", Obj::Array(nums));
                if d.get(b"Limits").is_some() {
                    if let Some(Obj::Array(l)) = d.get(b"Limits").cloned() {
                        if let Some(lo) = l.first().cloned() {
                            set(&mut d, b"Limits", Obj::Array(vec![lo, Obj::Int(self.key)]));
                        }
                    }
                }
                (*at, d)
            }
            Entry::Kids(at, d) => {
                let leaf = up.alloc();
                up.value(leaf, &number_leaf(self.key, Obj::Ref(link)));
                let mut d = d.clone();
                let mut kids = match d.get(b"Kids") {
                    Some(Obj::Array(a)) => a.clone(),
                    _ => vec![],
                };
                kids.push(Obj::Ref(leaf));
                set(&mut d, b"Kids", Obj::Array(kids));
                (*at, d)
            }
        };
        match node {
            (Some(r), d) => up.value(r, &Obj::Dict(d)),
            (None, d) => set(&mut root, b"ParentTree", Obj::Dict(d)),
        }
        set(
            &mut root,
            b"ParentTreeNextKey",
            Obj::Int(self.key.saturating_add(1)),
        );
        up.value(self.root_ref, &Obj::Dict(root));
        link
    }
}

/// Sets `key` in `d` (replacing every earlier occurrence).
fn set(d: &mut Dict, key: &[u8], v: Obj) {
    d.entries.retain(|(k, _, _)| k != key);
    d.entries.push((key.to_vec(), v, 0..0));
}
