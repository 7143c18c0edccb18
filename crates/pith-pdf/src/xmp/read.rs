//! Reading a packet's values back: the RDF tree walked for pith's properties, the identifiers
//! and relations, PDF/A's part and extension schemas, and the paper's metadata; and a packet
//! decoded and parsed once ([`Text`], [`Parsed`]) for all of an update's questions and its merge.

use std::borrow::Cow;

use roxmltree::{Document, Node};

use super::text::{parse, text_of};
use super::{
    Values, DC_NS, PDFAEXT_NS, PDFAID_NS, PDFAPROPERTY_NS, PDFASCHEMA_NS, PITH_NS, PRISM_NS,
    RDF_NS, XMPIDQ_NS, XMP_NS,
};
use crate::vocab::{self, URL_BASE};
use crate::{Error, ErrorKind};

pub(super) fn rdf_root<'a, 'i>(doc: &'a Document<'i>) -> Option<Node<'a, 'i>> {
    doc.descendants().find(|n| {
        n.is_element() && n.tag_name().namespace() == Some(RDF_NS) && n.tag_name().name() == "RDF"
    })
}

pub(super) fn is(n: &Node, ns: &str, name: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(ns) && n.tag_name().name() == name
}

/// Items of an array property (`rdf:Bag`/`Seq`/`Alt` > `rdf:li`), or its simple value.
pub(super) fn items<'a, 'i>(prop: Node<'a, 'i>) -> Vec<(Node<'a, 'i>, String)> {
    let container = prop
        .children()
        .find(|c| c.is_element() && c.tag_name().namespace() == Some(RDF_NS));
    match container {
        Some(c) => c
            .children()
            .filter(|li| is(li, RDF_NS, "li"))
            .map(|li| (li, li_text(li)))
            .collect(),
        None => vec![(prop, prop.text().unwrap_or("").trim().to_string())],
    }
}

/// The value of an array item: its text, or the `rdf:value` of a qualified item (either
/// `rdf:parseType="Resource"` or a nested `rdf:Description`, child element or attribute).
pub(super) fn li_text(li: Node) -> String {
    let holder = li
        .children()
        .find(|c| is(c, RDF_NS, "Description"))
        .unwrap_or(li);
    if let Some(v) = holder.children().find(|c| is(c, RDF_NS, "value")) {
        return v.text().unwrap_or("").trim().to_string();
    }
    if let Some(v) = holder.attribute((RDF_NS, "value")) {
        return v.trim().to_string();
    }
    li.text().unwrap_or("").trim().to_string()
}

/// The value of the `xmp:Identifier` item of scheme `pith` for the full `number`: the number
/// without its `pith:` prefix (`2024:7BMK…`), as a DOI item's value is the DOI without `doi:`.
pub fn scheme_value(number: &str) -> &str {
    number.strip_prefix(vocab::NUMBER_SCHEME).unwrap_or(number)
}

/// The `xmpidq:Scheme` qualifier of an array item, lower-cased, if it has one.
pub(super) fn li_scheme(li: Node) -> Option<String> {
    let holder = li
        .children()
        .find(|c| is(c, RDF_NS, "Description"))
        .unwrap_or(li);
    holder
        .children()
        .find(|c| is(c, XMPIDQ_NS, "Scheme"))
        .and_then(|c| c.text())
        .or_else(|| holder.attribute((XMPIDQ_NS, "Scheme")))
        .map(|s| s.trim().to_ascii_lowercase())
}

/// A packet's text, decoded once; [`Text::parse`] parses it once. An update asks every
/// question of that one parse and merges into it: a packet decoded and parsed for each step
/// cost an update more than anything but the file system.
pub(crate) struct Text<'a>(Result<Cow<'a, str>, ErrorKind>);

impl<'a> Text<'a> {
    /// Decodes `packet` ([`text_of`]); an error is kept for [`Text::parse`] to return.
    pub(crate) fn of(packet: &'a [u8]) -> Self {
        Text(text_of(packet).map_err(|e| e.kind().clone()))
    }

    /// The packet parsed, with what it says.
    ///
    /// # Errors
    /// [`ErrorKind::Xmp`] when the packet is not UTF-8 (or UTF-16, UTF-32) or not
    /// well-formed XML within the bounds [`parse`] sets.
    pub(crate) fn parse(&self) -> Result<Parsed<'_>, Error> {
        let s = self.0.as_deref().map_err(|k| Error::new(k.clone()))?;
        let doc = parse(s)?;
        let values = values(&doc);
        Ok(Parsed { s, doc, values })
    }
}

/// A packet parsed once: its text, its tree and what it says.
pub(crate) struct Parsed<'t> {
    pub(super) s: &'t str,
    pub(super) doc: Document<'t>,
    pub(super) values: Values,
}

impl Parsed<'_> {
    /// What the packet says about Pith Numbers and PDF/A ([`super::read`]'s answer).
    pub(crate) fn values(&self) -> &Values {
        &self.values
    }
}

/// Reads the Pith values and the PDF/A claim from a packet.
///
/// # Errors
/// [`ErrorKind::Xmp`](crate::ErrorKind::Xmp) when the packet is not UTF-8 or not well-formed XML.
pub fn read(packet: &[u8]) -> Result<Values, Error> {
    let s = text_of(packet)?;
    let doc = parse(&s)?;
    Ok(values(&doc))
}

/// The property names a PDF/A extension schema for `ns` declares, if there is one.
pub(super) fn declared(prop: Node, ns: &str) -> Option<Vec<String>> {
    let mut found = None;
    for n in prop
        .descendants()
        .filter(|n| is(n, PDFASCHEMA_NS, "namespaceURI") && n.text().map(str::trim) == Some(ns))
    {
        let names = found.get_or_insert_with(Vec::new);
        if let Some(schema) = n.parent() {
            names.extend(
                schema
                    .descendants()
                    .filter(|p| is(p, PDFAPROPERTY_NS, "name"))
                    .map(|p| p.text().unwrap_or("").trim().to_string()),
            );
        }
    }
    found
}

pub(super) fn values(doc: &Document) -> Values {
    let mut v = Values::default();
    let Some(rdf) = rdf_root(doc) else {
        return v;
    };
    for d in rdf.children().filter(|n| is(n, RDF_NS, "Description")) {
        for a in d.attributes() {
            let value = || Some(a.value().trim().to_string());
            match (a.namespace(), a.name()) {
                (Some(PITH_NS), vocab::XMP_NUMBER) => v.number = Some(a.value().to_string()),
                (Some(PITH_NS), vocab::XMP_SHORT_NUMBER) => v.short = Some(a.value().to_string()),
                (Some(PITH_NS), vocab::XMP_URL) => v.url = Some(a.value().to_string()),
                (Some(PDFAID_NS), "part") => v.pdfa_part = value(),
                (Some(PDFAID_NS), "conformance") => v.pdfa_conformance = value(),
                (Some(DC_NS), "identifier") => v.dc_identifier = value(),
                (Some(PRISM_NS), "doi") => v.prism_doi = value(),
                _ => {}
            }
        }
        for p in d.children().filter(Node::is_element) {
            let text = || p.text().unwrap_or("").trim().to_string();
            let texts = || items(p).into_iter().map(|(_, t)| t);
            match (p.tag_name().namespace(), p.tag_name().name()) {
                (Some(PITH_NS), vocab::XMP_NUMBER) => v.number = Some(text()),
                (Some(PITH_NS), vocab::XMP_SHORT_NUMBER) => v.short = Some(text()),
                (Some(PITH_NS), vocab::XMP_URL) => v.url = Some(text()),
                (Some(PITH_NS), vocab::XMP_ADDED) => v.added.extend(texts()),
                (Some(PDFAID_NS), "part") => v.pdfa_part = Some(text()),
                (Some(PDFAID_NS), "conformance") => v.pdfa_conformance = Some(text()),
                (Some(DC_NS), "identifier") => v.dc_identifier = Some(text()),
                (Some(PRISM_NS), "doi") => v.prism_doi = Some(text()),
                (Some(DC_NS), "title") => {
                    let all = items(p);
                    let default = all
                        .iter()
                        .find(|(li, _)| {
                            li.attribute(("http://www.w3.org/XML/1998/namespace", "lang"))
                                == Some("x-default")
                        })
                        .or(all.first());
                    v.title = default.map(|(_, t)| t.clone()).filter(|t| !t.is_empty());
                }
                (Some(DC_NS), "creator") => v.creators.extend(texts().filter(|t| !t.is_empty())),
                (Some(XMP_NS), "Identifier") => {
                    for (li, t) in items(p) {
                        let scheme = li_scheme(li);
                        if t.starts_with(vocab::NUMBER_SCHEME) {
                            v.identifiers.push(t.clone());
                        } else if scheme.as_deref() == Some(vocab::SCHEME_PITH) && !t.is_empty() {
                            // The scheme's value form: the number is its scheme and value.
                            v.identifiers.push(format!("{}{t}", vocab::NUMBER_SCHEME));
                        }
                        if let Some(scheme) = scheme {
                            v.schemes.push((scheme, t));
                        }
                    }
                }
                (Some(DC_NS), "relation") => v
                    .relations
                    .extend(texts().filter(|t| t.starts_with(URL_BASE))),
                (Some(PDFAEXT_NS), "schemas") => {
                    if let Some(names) = declared(p, PITH_NS) {
                        v.pith_schema_declared = true;
                        v.pith_declared.extend(names);
                    }
                    if let Some(names) = declared(p, PRISM_NS) {
                        v.prism_declared.get_or_insert_with(Vec::new).extend(names);
                    }
                }
                _ => {}
            }
        }
    }
    v
}
