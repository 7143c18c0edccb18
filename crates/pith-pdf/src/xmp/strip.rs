//! Taking pith's values out of a packet, and what the publisher's metadata holds once they
//! are out.

use std::ops::Range;

use roxmltree::Node;

use super::read::{is, items, li_scheme, rdf_root, read, values};
use super::read::{Parsed, Text};
use super::text::parse;
use super::{apply, xmp_err, Values, DC_NS, PITH_NS, PRISM_NS, RDF_NS, XMP_NS};
use crate::vocab::{self, added, URL_BASE};
use crate::Error;

/// The metadata the file has that pith would otherwise write: whether `packet` (after pith's
/// own older values are taken out) has a title and authors of the publisher's. The PDF layer
/// asks this before it writes Info `/Title` and `/Author`.
///
/// # Errors
/// As [`read`].
pub fn publisher_has(packet: &[u8]) -> Result<(bool, bool), Error> {
    Text::of(packet).parse()?.publisher_has()
}

impl Parsed<'_> {
    /// [`publisher_has`] of this packet.
    pub(crate) fn publisher_has(&self) -> Result<(bool, bool), Error> {
        let has = |v: &Values| (v.title.is_some(), !v.creators.is_empty());
        Ok(match strip_doc(&self.doc, self.s, &self.values)? {
            Some(t) => has(&values(&parse(&t)?)),
            None => has(&self.values),
        })
    }
}

/// Takes pith's values out of a packet (`pith strip`): every property and
/// attribute in [`PITH_NS`], the `xmp:Identifier` items that are Pith Numbers and the
/// `dc:relation` items that are record URLs (the whole property when nothing else is in it),
/// and what `pith:added` lists (the paper's identifiers, title and authors pith wrote where
/// the file had none). Everything else stays byte for byte. `None` when the packet holds
/// nothing of pith's.
///
/// # Errors
/// [`ErrorKind::Xmp`](crate::ErrorKind::Xmp) when the packet is not UTF-8 or not well-formed XML.
pub fn strip(packet: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    let text = Text::of(packet);
    let p = text.parse()?;
    Ok(strip_doc(&p.doc, p.s, &p.values)?.map(String::into_bytes))
}

/// [`strip`] of the text `s`, parsed already as `doc`, which says `listed`.
pub(super) fn strip_doc(
    doc: &roxmltree::Document<'_>,
    s: &str,
    listed: &Values,
) -> Result<Option<String>, Error> {
    let Some(rdf) = rdf_root(doc) else {
        return Ok(None);
    };
    let ours_whole = |ns: Option<&str>, name: &str| match (ns, name) {
        (Some(DC_NS), "identifier") => listed.added(added::DC_IDENTIFIER),
        (Some(PRISM_NS), "doi") => listed.added(added::PRISM_DOI),
        (Some(DC_NS), "title") => listed.added(added::DC_TITLE),
        (Some(DC_NS), "creator") => listed.added(added::DC_CREATOR),
        _ => false,
    };
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    for d in rdf.children().filter(|n| is(n, RDF_NS, "Description")) {
        for a in d.attributes() {
            if a.namespace() == Some(PITH_NS) || ours_whole(a.namespace(), a.name()) {
                edits.push((a.range(), String::new()));
            }
        }
        for prop in d.children().filter(Node::is_element) {
            let (ns, name) = (prop.tag_name().namespace(), prop.tag_name().name());
            if ns == Some(PITH_NS) || ours_whole(ns, name) {
                edits.push((prop.range(), String::new()));
                continue;
            }
            let ours: &dyn Fn(Node, &str) -> bool = match (ns, name) {
                (Some(XMP_NS), "Identifier") => &|li: Node, t: &str| {
                    t.starts_with(vocab::NUMBER_SCHEME)
                        || match li_scheme(li).as_deref() {
                            Some(vocab::SCHEME_PITH) => true,
                            Some(vocab::SCHEME_DOI) => listed.added(added::IDENTIFIER_DOI),
                            Some(vocab::SCHEME_ARXIV) => listed.added(added::IDENTIFIER_ARXIV),
                            _ => false,
                        }
                },
                (Some(DC_NS), "relation") => &|_: Node, t: &str| t.starts_with(URL_BASE),
                _ => continue,
            };
            let items = items(prop);
            let mine: Vec<_> = items.iter().filter(|(li, t)| ours(*li, t)).collect();
            if mine.is_empty() {
                continue;
            }
            if mine.len() == items.len() {
                edits.push((prop.range(), String::new()));
            } else {
                edits.extend(mine.iter().map(|(li, _)| (li.range(), String::new())));
            }
        }
    }
    if edits.is_empty() {
        return Ok(None);
    }
    let out = apply(s, edits);
    // Still well-formed, and free of pith's values.
    let check = read(out.as_bytes())?;
    if check.number.is_some()
        || check.short.is_some()
        || check.url.is_some()
        || !check.identifiers.is_empty()
        || !check.relations.is_empty()
        || !check.added.is_empty()
    {
        return Err(xmp_err(
            "the packet still carries Pith values after they were removed",
        ));
    }
    Ok(Some(out))
}
