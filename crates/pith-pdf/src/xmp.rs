//! XMP packets (ISO 16684-1) for the Pith Number: reading the values back, merging them into
//! an existing packet, and creating a packet where a PDF has none. Bytes in, bytes out; no
//! lopdf and no PDF syntax here.
//!
//! The existing packet is parsed with a real XML parser (roxmltree, no DTDs) and edited by
//! byte ranges, so every property, comment and namespace declaration we do not manage stays
//! exactly as it was ("keeping every existing property"). What is written:
//! - `xmp:Identifier` (bag): the number as an item qualified with `xmpidq:Scheme` `pith`, its
//!   value the number without the `pith:` the scheme already says ([`scheme_value`]), so that
//!   calibre, which shows an identifier as `scheme:value`, shows the full number once; added
//!   beside the other identifiers (an item holding the whole number, as `pith.sty` writes it,
//!   is read as the same number);
//!   when the paper is known ([`Paper`]), its DOI (scheme `doi`) and arXiv id (scheme `arxiv`)
//!   unless the bag already has an item of that scheme;
//! - `dc:relation` (bag): the verification URL, added beside the other relations;
//! - `pith:number`, `pith:shortNumber`, `pith:url` in [`PITH_NS`] (the properties `pith.sty`
//!   writes), and `pith:added`, the list of what else pith wrote ([`vocab::added`]);
//! - for a known paper, only where the packet has none: `dc:identifier` (`doi:…`),
//!   `prism:doi`, `dc:title`, `dc:creator`;
//! - `xmp:MetadataDate`, replaced by the update time;
//! - for PDF/A-1, -2 and -3 a PDF/A extension schema declaring the `pith` properties (and
//!   `prism:doi`, which PDF/A does not predefine) (ISO 19005-1 §6.7.8); PDF/A-4 needs none.
//!
//! Older Pith values (`pith:` identifiers, `https://pith.science/pith/` relations, what an
//! earlier `pith:added` lists) are removed first, so a file names one number only and a
//! publisher's metadata is never touched.

use std::borrow::Cow;
use std::ops::Range;

use roxmltree::{Document, Node};

use crate::vocab::{self, added};
use crate::{Error, ErrorKind};

/// Namespace of the `pith` XMP properties (the same as `pith.sty` writes).
pub use crate::vocab::XMP_NS as PITH_NS;
const RDF_NS: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const XMP_NS: &str = "http://ns.adobe.com/xap/1.0/";
const DC_NS: &str = "http://purl.org/dc/elements/1.1/";
const PDFAID_NS: &str = "http://www.aiim.org/pdfa/ns/id/";
const PDFAEXT_NS: &str = "http://www.aiim.org/pdfa/ns/extension/";
const PDFASCHEMA_NS: &str = "http://www.aiim.org/pdfa/ns/schema#";
const PDFAPROPERTY_NS: &str = "http://www.aiim.org/pdfa/ns/property#";
/// The qualifier namespace of `xmpidq:Scheme` (XMP Specification Part 2, §8.7).
pub const XMPIDQ_NS: &str = "http://ns.adobe.com/xmp/Identifier/qual/1.0/";
/// PRISM basic 2.0, the namespace of `prism:doi` (the one calibre and exiftool read).
pub const PRISM_NS: &str = "http://prismstandard.org/namespaces/basic/2.0/";
use crate::vocab::URL_BASE;
/// Bytes of white-space padding after the packet, so that in-place editors can grow it.
const PADDING: usize = 2048;

/// What is known of the paper a number is of, written where reader tools look for it. Each
/// field is optional; nothing is written for what is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paper {
    /// Its DOI, `10.48550/arXiv.2402.03791`.
    pub doi: Option<String>,
    /// Its arXiv id with the version, `2402.03791v3`.
    pub arxiv: Option<String>,
    /// Its title (`dc:title`, x-default), written only where the file has none.
    pub title: Option<String>,
    /// Its authors in order (`dc:creator`), written only where the file has none.
    pub creators: Vec<String>,
}

/// The values `inject` writes into XMP.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Props {
    /// Full form, `pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`.
    pub number: String,
    /// Short form, `pith:7BMK4ZKT`.
    pub short: String,
    /// Verification URL.
    pub url: String,
    /// The paper, when known.
    pub paper: Paper,
}

/// What a packet says about Pith Numbers and PDF/A.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    /// `pith:number`.
    pub number: Option<String>,
    /// `pith:shortNumber`.
    pub short: Option<String>,
    /// `pith:url`.
    pub url: Option<String>,
    /// Items of `xmp:Identifier` that start with `pith:`.
    pub identifiers: Vec<String>,
    /// Items of `dc:relation` that start with `https://pith.science/pith/`.
    pub relations: Vec<String>,
    /// `pdfaid:part`, when the file claims PDF/A.
    pub pdfa_part: Option<String>,
    /// `pdfaid:conformance`.
    pub pdfa_conformance: Option<String>,
    /// Whether a PDF/A extension schema declares [`PITH_NS`].
    pub pith_schema_declared: bool,
    /// Every item of `xmp:Identifier` qualified with `xmpidq:Scheme`: (scheme, value).
    pub schemes: Vec<(String, String)>,
    /// `dc:identifier`.
    pub dc_identifier: Option<String>,
    /// `prism:doi`.
    pub prism_doi: Option<String>,
    /// `dc:title` (its x-default item, else its first).
    pub title: Option<String>,
    /// The items of `dc:creator`.
    pub creators: Vec<String>,
    /// `pith:added`: what pith wrote beside its own values ([`vocab::added`]).
    pub added: Vec<String>,
    /// The `pith` properties its PDF/A extension schema declares.
    pub pith_declared: Vec<String>,
    /// The `prism` properties a PDF/A extension schema declares (`None`: no schema for it).
    pub prism_declared: Option<Vec<String>>,
}

impl Values {
    /// Whether the packet already carries exactly `p`'s number (qualified with its scheme)
    /// and, for PDF/A-1 to -3, declares it. What a known paper adds is compared by [`current`].
    pub fn carries(&self, p: &Props) -> bool {
        self.number.as_deref() == Some(&p.number)
            && self.short.as_deref() == Some(&p.short)
            && self.url.as_deref() == Some(&p.url)
            && self.identifiers == [p.number.clone()]
            && self.schemes.iter().any(|(s, v)| {
                s == vocab::SCHEME_PITH && (*v == p.number || v == scheme_value(&p.number))
            })
            && self.relations == [p.url.clone()]
            && (!needs_extension_schema(self.pdfa_part.as_deref()) || self.pith_schema_declared)
    }

    /// Whether pith added `what` (one of [`vocab::added`]).
    pub fn added(&self, what: &str) -> bool {
        self.added.iter().any(|a| a == what)
    }

    /// What a comparison of two packets looks at, order aside.
    fn key(&self) -> Values {
        let mut v = self.clone();
        v.schemes.sort();
        v.added.sort();
        v.pith_declared.sort();
        if let Some(p) = &mut v.prism_declared {
            p.sort();
        }
        v
    }
}

/// Whether `packet` already says everything [`merge_with`] would write for `p` and
/// `info_added` (the time aside): then an update would change nothing.
///
/// # Errors
/// As [`merge`].
pub fn current(packet: &[u8], p: &Props, info_added: &[&str]) -> Result<bool, Error> {
    let before = read(packet)?;
    if !before.carries(p) {
        return Ok(false);
    }
    let after = read(&merge_with(Some(packet), p, "", info_added)?)?;
    Ok(before.key() == after.key())
}

fn needs_extension_schema(part: Option<&str>) -> bool {
    matches!(part, Some("1" | "2" | "3"))
}

fn xmp_err(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Xmp(msg.into()))
}

/// Decodes a packet to text: UTF-8 (with or without BOM), UTF-16 or UTF-32 (by BOM or by
/// the zero bytes of `<?`), as XMP allows (ISO 16684-1 §7.1). A mangled BOM inside the
/// `<?xpacket begin="…"?>` attribute (seen in the wild) is repaired; any other invalid UTF-8
/// is an error. UTF-8, what nearly every packet is, is borrowed: a packet up to
/// [`crate::filters::MAX_WHOLE`] is held once, not once per step.
fn text_of(bytes: &[u8]) -> Result<Cow<'_, str>, Error> {
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

fn utf8(b: &[u8]) -> Result<Cow<'_, str>, Error> {
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
const MAX_NESTING: usize = 512;
/// Most attributes accepted on one element: roxmltree checks duplicates pairwise, so a
/// hostile element with 100,000 attributes would take minutes.
const MAX_ATTRIBUTES: usize = 1024;
/// Most elements accepted in a packet: the parsed tree costs about a hundred bytes an element,
/// so a packet of ten million empty elements (60 MB) would take a gigabyte. Real packets hold
/// hundreds; a long author list a few thousand.
const MAX_ELEMENTS: usize = 200_000;

fn parse(s: &str) -> Result<Document<'_>, Error> {
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

fn rdf_root<'a, 'i>(doc: &'a Document<'i>) -> Option<Node<'a, 'i>> {
    doc.descendants().find(|n| {
        n.is_element() && n.tag_name().namespace() == Some(RDF_NS) && n.tag_name().name() == "RDF"
    })
}

fn is(n: &Node, ns: &str, name: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(ns) && n.tag_name().name() == name
}

/// Items of an array property (`rdf:Bag`/`Seq`/`Alt` > `rdf:li`), or its simple value.
fn items<'a, 'i>(prop: Node<'a, 'i>) -> Vec<(Node<'a, 'i>, String)> {
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
fn li_text(li: Node) -> String {
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
fn li_scheme(li: Node) -> Option<String> {
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

/// Reads the Pith values and the PDF/A claim from a packet.
///
/// # Errors
/// [`ErrorKind::Xmp`] when the packet is not UTF-8 or not well-formed XML.
pub fn read(packet: &[u8]) -> Result<Values, Error> {
    let s = text_of(packet)?;
    let doc = parse(&s)?;
    Ok(values(&doc))
}

/// The property names a PDF/A extension schema for `ns` declares, if there is one.
fn declared(prop: Node, ns: &str) -> Option<Vec<String>> {
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

fn values(doc: &Document) -> Values {
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

use crate::xml::escape as esc;

/// One `pdfaProperty` item of an extension schema.
fn property_li(rdf: &str, p: &vocab::XmpProperty) -> String {
    format!(
        "<{rdf}li {rdf}parseType=\"Resource\" xmlns:pdfaProperty=\"{PDFAPROPERTY_NS}\"><pdfaProperty:name>{}</pdfaProperty:name><pdfaProperty:valueType>{}</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>{}</pdfaProperty:description></{rdf}li>",
        p.name, p.value_type, p.description
    )
}

/// The rdf:li of a PDF/A extension schema.
fn schema_li(
    rdf: &str,
    name: &str,
    ns: &str,
    prefix: &str,
    props: &[vocab::XmpProperty],
) -> String {
    format!(
        "<{rdf}li {rdf}parseType=\"Resource\" xmlns:pdfaSchema=\"{PDFASCHEMA_NS}\"><pdfaSchema:schema>{name}</pdfaSchema:schema><pdfaSchema:namespaceURI>{ns}</pdfaSchema:namespaceURI><pdfaSchema:prefix>{prefix}</pdfaSchema:prefix><pdfaSchema:property><{rdf}Seq>{}</{rdf}Seq></pdfaSchema:property></{rdf}li>",
        props.iter().map(|p| property_li(rdf, p)).collect::<String>(),
    )
}

/// The extension schema of the `pith` properties. Same names, value types and descriptions as
/// `pith.sty` declares (src/sty.rs) for the three it writes.
fn pith_schema_li(rdf: &str) -> String {
    schema_li(
        rdf,
        vocab::XMP_SCHEMA_NAME,
        PITH_NS,
        vocab::XMP_PREFIX,
        &vocab::XMP_PROPERTIES,
    )
}

/// `prism:doi`, as a PDF/A extension schema declares it.
const PRISM_DOI: vocab::XmpProperty = vocab::XmpProperty {
    name: "doi",
    value_type: "Text",
    description: "Digital Object Identifier of the resource",
};

fn prism_schema_li(rdf: &str) -> String {
    schema_li(rdf, "PRISM Basic", PRISM_NS, "prism", &[PRISM_DOI])
}

/// The rdf prefix (with its colon) in scope at `n`.
fn rdf_prefix(n: Node) -> String {
    match n.lookup_prefix(RDF_NS) {
        Some("") | None => String::new(),
        Some(p) => format!("{p}:"),
    }
}

/// Start of the end tag of element `n` (`</…>`), or `None` for an empty-element tag.
fn end_tag_start(s: &str, n: Node) -> Option<usize> {
    let r = n.range();
    let body = &s[r.clone()];
    if body.ends_with("/>") && !body.contains("</") {
        return None;
    }
    body.rfind("</").map(|i| r.start + i)
}

/// One `xmp:Identifier` item qualified with its scheme, in the long form (an `rdf:Description`
/// holding `rdf:value` and `xmpidq:Scheme`) that calibre, exiftool and XMP toolkits read.
fn qualified_li(rdf: &str, scheme: &str, value: &str) -> String {
    format!(
        "<{rdf}li><{rdf}Description xmlns:xmpidq=\"{XMPIDQ_NS}\"><{rdf}value>{}</{rdf}value><xmpidq:Scheme>{}</xmpidq:Scheme></{rdf}Description></{rdf}li>",
        esc(value),
        esc(scheme)
    )
}

/// Inserts `items` (rdf:li elements) at the end of the array of property `prop`, or turns a
/// simple value where an array belongs into one, keeping the old value.
fn append_items(s: &str, prop: Node, items: &str, edits: &mut Vec<(Range<usize>, String)>) {
    let container = prop
        .children()
        .find(|c| c.is_element() && c.tag_name().namespace() == Some(RDF_NS));
    let rdfp = rdf_prefix(prop);
    match container {
        Some(c) => match end_tag_start(s, c) {
            Some(at) => edits.push((at..at, items.to_string())),
            None => {
                let name = s[c.range()][1..]
                    .split(|ch: char| ch == '/' || ch.is_whitespace())
                    .next()
                    .unwrap_or("")
                    .to_string();
                edits.push((c.range(), format!("<{name}>{items}</{name}>")));
            }
        },
        None => {
            let old = prop.text().unwrap_or("").trim().to_string();
            let qn = s[prop.range()][1..]
                .split(|ch: char| ch == '/' || ch == '>' || ch.is_whitespace())
                .next()
                .unwrap_or("")
                .to_string();
            let mut lis = String::new();
            if !old.is_empty() {
                lis.push_str(&format!("<{rdfp}li>{}</{rdfp}li>", esc(&old)));
            }
            lis.push_str(items);
            edits.push((
                prop.range(),
                format!("<{qn}><{rdfp}Bag>{lis}</{rdfp}Bag></{qn}>"),
            ));
        }
    }
}

/// What [`merge`] adds for the paper, decided on the packet without pith's older values.
struct Plan {
    doi_item: Option<String>,
    arxiv_item: Option<String>,
    dc_identifier: Option<String>,
    prism_doi: Option<String>,
    title: Option<String>,
    creators: Vec<String>,
}

/// A paper's text as XMP can hold it: characters XML 1.0 does not allow (controls, lone
/// surrogates cannot occur in a `str`, U+FFFE/U+FFFF) dropped, white space collapsed; `None`
/// when nothing is left.
fn xml_text(s: &str) -> Option<String> {
    let kept: String = s
        .chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
                || c >= '\u{10000}'
        })
        .collect();
    let t = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    (!t.is_empty()).then_some(t)
}

impl Plan {
    fn new(v: &Values, p: &Paper) -> Plan {
        let clean = |o: &Option<String>| o.as_deref().and_then(xml_text);
        let p = &Paper {
            doi: clean(&p.doi),
            arxiv: clean(&p.arxiv),
            title: clean(&p.title),
            creators: p.creators.iter().filter_map(|c| xml_text(c)).collect(),
        };
        let has_scheme = |s: &str| v.schemes.iter().any(|(k, _)| k == s);
        let pdfa = needs_extension_schema(v.pdfa_part.as_deref());
        let prism_ok = !pdfa
            || v.prism_declared
                .as_ref()
                .is_none_or(|names| names.iter().any(|n| n == "doi"));
        Plan {
            doi_item: p.doi.clone().filter(|_| !has_scheme(vocab::SCHEME_DOI)),
            arxiv_item: p.arxiv.clone().filter(|_| !has_scheme(vocab::SCHEME_ARXIV)),
            dc_identifier: p
                .doi
                .as_ref()
                .filter(|_| v.dc_identifier.is_none())
                .map(|d| format!("doi:{d}")),
            prism_doi: p.doi.clone().filter(|_| v.prism_doi.is_none() && prism_ok),
            title: p
                .title
                .clone()
                .filter(|t| v.title.is_none() && !t.is_empty()),
            creators: if v.creators.is_empty() {
                p.creators.clone()
            } else {
                Vec::new()
            },
        }
    }

    /// The [`vocab::added`] names of what this plan writes.
    fn added(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut note = |on: bool, name| {
            if on {
                out.push(name);
            }
        };
        note(self.doi_item.is_some(), added::IDENTIFIER_DOI);
        note(self.arxiv_item.is_some(), added::IDENTIFIER_ARXIV);
        note(self.dc_identifier.is_some(), added::DC_IDENTIFIER);
        note(self.prism_doi.is_some(), added::PRISM_DOI);
        note(self.title.is_some(), added::DC_TITLE);
        note(!self.creators.is_empty(), added::DC_CREATOR);
        out
    }
}

/// The metadata the file has that pith would otherwise write: whether `packet` (after pith's
/// own older values are taken out) has a title and authors of the publisher's. The PDF layer
/// asks this before it writes Info `/Title` and `/Author`.
///
/// # Errors
/// As [`read`].
pub fn publisher_has(packet: &[u8]) -> Result<(bool, bool), Error> {
    let s = text_of(packet)?;
    let s = strip_text(&s)?.map_or(s, Cow::Owned);
    let v = values(&parse(&s)?);
    Ok((v.title.is_some(), !v.creators.is_empty()))
}

/// Merges `p` into `packet` (or into a new packet when `packet` is `None`), stamping
/// `xmp:MetadataDate` with `now` (ISO 8601). `info_added` names the Info entries the same
/// update adds for the paper ([`vocab::added::INFO_TITLE`], [`vocab::added::INFO_AUTHOR`]), so
/// that `pith:added` lists them too.
///
/// # Errors
/// [`ErrorKind::Xmp`] when the packet is not UTF-8, not well-formed, or has no `rdf:RDF`.
///
/// # Examples
/// ```
/// use pith_pdf::xmp::{merge, read, Props};
/// let p = Props { number: "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into(),
///     short: "pith:7BMK4ZKT".into(), url: "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5".into(),
///     ..Props::default() };
/// let packet = merge(None, &p, "2024-01-01T00:00:00Z")?;
/// assert!(read(&packet)?.carries(&p));
/// # Ok::<(), pith_pdf::Error>(())
/// ```
pub fn merge(packet: Option<&[u8]>, p: &Props, now: &str) -> Result<Vec<u8>, Error> {
    merge_with(packet, p, now, &[])
}

/// [`merge`], listing `info_added` (the Info entries the same update adds for the paper) in
/// `pith:added`.
///
/// # Errors
/// As [`merge`].
pub fn merge_with(
    packet: Option<&[u8]>,
    p: &Props,
    now: &str,
    info_added: &[&str],
) -> Result<Vec<u8>, Error> {
    let s: Cow<str> = match packet {
        Some(b) => text_of(b)?,
        None => Cow::Owned(format!(
                "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF xmlns:rdf=\"{RDF_NS}\">\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        )),
    };
    // pith's older values out first: what remains is the publisher's, never touched.
    let s = match strip_text(&s)? {
        Some(t) => Cow::Owned(t),
        None => s,
    };
    let s = &*s;
    let doc = parse(s)?;
    let rdf = rdf_root(&doc).ok_or_else(|| xmp_err("no rdf:RDF element"))?;
    let values = values(&doc);
    let plan = Plan::new(&values, &p.paper);
    let mut added_names: Vec<&str> = plan.added();
    added_names.extend(info_added.iter().copied());
    let pdfa = needs_extension_schema(values.pdfa_part.as_deref());
    let want_schema = pdfa && !values.pith_schema_declared;
    let want_added_prop = pdfa
        && values.pith_schema_declared
        && !added_names.is_empty()
        && !values.pith_declared.iter().any(|n| n == vocab::XMP_ADDED);
    let want_prism_schema = pdfa && plan.prism_doi.is_some() && values.prism_declared.is_none();
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut have_identifier = false;
    let mut have_relation = false;
    let mut have_schemas = false;
    let mut about: Option<String> = None;

    let id_items = |rdfp: &str| {
        let mut items = qualified_li(rdfp, vocab::SCHEME_PITH, scheme_value(&p.number));
        if let Some(d) = &plan.doi_item {
            items.push_str(&qualified_li(rdfp, vocab::SCHEME_DOI, d));
        }
        if let Some(a) = &plan.arxiv_item {
            items.push_str(&qualified_li(rdfp, vocab::SCHEME_ARXIV, a));
        }
        items
    };
    let new_schemas = |rdfp: &str| {
        let mut lis = String::new();
        if want_schema {
            lis.push_str(&pith_schema_li(rdfp));
        }
        if want_prism_schema {
            lis.push_str(&prism_schema_li(rdfp));
        }
        lis
    };

    for d in rdf.children().filter(|n| is(n, RDF_NS, "Description")) {
        if about.is_none() {
            about = d.attribute((RDF_NS, "about")).map(str::to_string);
        }
        for a in d.attributes() {
            if matches!((a.namespace(), a.name()), (Some(XMP_NS), "MetadataDate")) {
                edits.push((a.range(), String::new()));
            }
        }
        for prop in d.children().filter(Node::is_element) {
            match (prop.tag_name().namespace(), prop.tag_name().name()) {
                (Some(XMP_NS), "MetadataDate") => edits.push((prop.range(), String::new())),
                (Some(XMP_NS), "Identifier") if !have_identifier => {
                    have_identifier = true;
                    append_items(s, prop, &id_items(&rdf_prefix(prop)), &mut edits);
                }
                (Some(DC_NS), "relation") if !have_relation => {
                    have_relation = true;
                    let r = rdf_prefix(prop);
                    let item = format!("<{r}li>{}</{r}li>", esc(&p.url));
                    append_items(s, prop, &item, &mut edits);
                }
                (Some(PDFAEXT_NS), "schemas") if !have_schemas => {
                    have_schemas = true;
                    let bag = prop
                        .children()
                        .find(|c| c.is_element() && c.tag_name().namespace() == Some(RDF_NS));
                    let Some(bag) = bag else {
                        // An empty schemas property: ours replaces it below.
                        have_schemas = false;
                        edits.push((prop.range(), String::new()));
                        continue;
                    };
                    let r = rdf_prefix(bag);
                    let lis = new_schemas(&r);
                    if !lis.is_empty() {
                        append_items(s, prop, &lis, &mut edits);
                    }
                    if want_added_prop {
                        add_added_property(s, prop, &mut edits);
                    }
                }
                _ => {}
            }
        }
    }

    // Our own rdf:Description, appended as the last child of rdf:RDF.
    let r = "rdf:";
    let mut desc = format!(
        "<rdf:Description rdf:about=\"{}\" xmlns:rdf=\"{RDF_NS}\" xmlns:xmp=\"{XMP_NS}\" xmlns:dc=\"{DC_NS}\" xmlns:pith=\"{PITH_NS}\"",
        esc(about.as_deref().unwrap_or(""))
    );
    if plan.prism_doi.is_some() {
        desc.push_str(&format!(" xmlns:prism=\"{PRISM_NS}\""));
    }
    let schemas_here = !have_schemas && (want_schema || want_prism_schema);
    if schemas_here {
        desc.push_str(&format!(" xmlns:pdfaExtension=\"{PDFAEXT_NS}\""));
    }
    desc.push_str(">\n");
    desc.push_str(&format!(
        "   <xmp:MetadataDate>{}</xmp:MetadataDate>\n",
        esc(now)
    ));
    if !have_identifier {
        desc.push_str(&format!(
            "   <xmp:Identifier><{r}Bag>{}</{r}Bag></xmp:Identifier>\n",
            id_items(r)
        ));
    }
    if !have_relation {
        desc.push_str(&format!(
            "   <dc:relation><{r}Bag><{r}li>{}</{r}li></{r}Bag></dc:relation>\n",
            esc(&p.url)
        ));
    }
    desc.push_str(&format!(
        "   <pith:number>{}</pith:number>\n   <pith:shortNumber>{}</pith:shortNumber>\n   <pith:url>{}</pith:url>\n",
        esc(&p.number),
        esc(&p.short),
        esc(&p.url)
    ));
    if !added_names.is_empty() {
        let lis: String = added_names
            .iter()
            .map(|a| format!("<{r}li>{}</{r}li>", esc(a)))
            .collect();
        desc.push_str(&format!(
            "   <pith:added><{r}Bag>{lis}</{r}Bag></pith:added>\n"
        ));
    }
    if let Some(t) = &plan.title {
        desc.push_str(&format!(
            "   <dc:title><{r}Alt><{r}li xml:lang=\"x-default\">{}</{r}li></{r}Alt></dc:title>\n",
            esc(t)
        ));
    }
    if !plan.creators.is_empty() {
        let lis: String = plan
            .creators
            .iter()
            .map(|c| format!("<{r}li>{}</{r}li>", esc(c)))
            .collect();
        desc.push_str(&format!(
            "   <dc:creator><{r}Seq>{lis}</{r}Seq></dc:creator>\n"
        ));
    }
    if let Some(i) = &plan.dc_identifier {
        desc.push_str(&format!("   <dc:identifier>{}</dc:identifier>\n", esc(i)));
    }
    if let Some(d) = &plan.prism_doi {
        desc.push_str(&format!("   <prism:doi>{}</prism:doi>\n", esc(d)));
    }
    if schemas_here {
        desc.push_str(&format!(
            "   <pdfaExtension:schemas><{r}Bag>{}</{r}Bag></pdfaExtension:schemas>\n",
            new_schemas(r)
        ));
    }
    desc.push_str("  </rdf:Description>\n ");
    match end_tag_start(s, rdf) {
        Some(at) => edits.push((at..at, format!("  {desc}"))),
        None => {
            let qn = s[rdf.range()][1..]
                .split(|ch: char| ch == '/' || ch.is_whitespace())
                .next()
                .unwrap_or("rdf:RDF")
                .to_string();
            let open = &s[rdf.range()];
            let open = open.trim_end_matches("/>").trim_end();
            edits.push((rdf.range(), format!("{open}>\n  {desc}</{qn}>")));
        }
    }

    let out = apply(s, edits);

    // Padding and the xpacket wrapper.
    let pad = padding();
    let out = match out.rfind("<?xpacket end") {
        Some(i) => {
            let head = out[..i].trim_end();
            format!("{head}\n{pad}{}", &out[i..])
        }
        None => {
            let body = out.trim();
            let begin = if body.starts_with("<?xpacket begin") {
                String::new()
            } else {
                "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n".to_string()
            };
            format!("{begin}{body}\n{pad}<?xpacket end=\"w\"?>")
        }
    };
    // The result must still be well-formed, and must carry what we wrote.
    let check = read(out.as_bytes())?;
    if !check.carries(p) || added_names.iter().any(|a| !check.added(a)) {
        return Err(xmp_err(
            "merged packet does not carry the new values (conflicting properties in the packet)",
        ));
    }
    Ok(out.into_bytes())
}

/// Adds the `pith:added` property to the `pith` extension schema in `schemas`, which declares
/// the other three (written by `pith.sty` or an older pith).
fn add_added_property(s: &str, schemas: Node, edits: &mut Vec<(Range<usize>, String)>) {
    let Some(uri) = schemas
        .descendants()
        .find(|n| is(n, PDFASCHEMA_NS, "namespaceURI") && n.text().map(str::trim) == Some(PITH_NS))
    else {
        return;
    };
    let Some(schema) = uri.parent() else { return };
    let seq = schema
        .children()
        .find(|c| is(c, PDFASCHEMA_NS, "property"))
        .and_then(|p| {
            p.children()
                .find(|c| c.is_element() && c.tag_name().namespace() == Some(RDF_NS))
        });
    let prop = vocab::XMP_PROPERTIES
        .iter()
        .find(|p| p.name == vocab::XMP_ADDED)
        .expect("the pith schema lists pith:added");
    if let Some(seq) = seq {
        if let Some(at) = end_tag_start(s, seq) {
            edits.push((at..at, property_li(&rdf_prefix(seq), prop)));
        }
    }
}

/// Applies byte-range edits from the start, skipping any nested in an earlier one; a removal
/// also takes the indentation before it.
fn apply(s: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|e| (e.0.start, e.0.end));
    let mut out = String::with_capacity(s.len() + 4096);
    let mut at = 0;
    for (range, text) in edits {
        if range.start < at {
            continue; // nested in an earlier removal
        }
        let mut start = range.start;
        if text.is_empty() {
            while start > at && matches!(s.as_bytes()[start - 1], b' ' | b'\t') {
                start -= 1;
            }
        }
        out.push_str(&s[at..start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&s[at..]);
    out
}

/// Takes pith's values out of a packet (`pith strip`): every property and
/// attribute in [`PITH_NS`], the `xmp:Identifier` items that are Pith Numbers and the
/// `dc:relation` items that are record URLs (the whole property when nothing else is in it),
/// and what `pith:added` lists (the paper's identifiers, title and authors pith wrote where
/// the file had none). Everything else stays byte for byte. `None` when the packet holds
/// nothing of pith's.
///
/// # Errors
/// [`ErrorKind::Xmp`] when the packet is not UTF-8 or not well-formed XML.
pub fn strip(packet: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    let s = text_of(packet)?;
    Ok(strip_text(&s)?.map(String::into_bytes))
}

fn strip_text(s: &str) -> Result<Option<String>, Error> {
    let doc = parse(s)?;
    let Some(rdf) = rdf_root(&doc) else {
        return Ok(None);
    };
    let listed = values(&doc);
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

fn padding() -> String {
    let line = format!("{}\n", " ".repeat(99));
    line.repeat(PADDING / 100 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_utf8_packet_is_read_in_place_and_others_decoded() {
        let body = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>";
        let padded = format!("\u{feff}{body}\n\0\0  ");
        let t = text_of(padded.as_bytes()).unwrap();
        assert!(matches!(t, Cow::Borrowed(_)), "a UTF-8 packet was copied");
        assert_eq!(t, body);
        let utf16: Vec<u8> = padded.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let t = text_of(&utf16).unwrap();
        assert!(matches!(t, Cow::Owned(_)));
        assert_eq!(t, body);
        assert_eq!(text_of(b"\n\0").unwrap(), "");
    }

    fn props(code: &str) -> Props {
        Props {
            number: format!("pith:2024:{code}"),
            short: format!("pith:{}", &code[..8]),
            url: format!("{URL_BASE}{code}"),
            paper: Paper::default(),
        }
    }
    const A: &str = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
    const B: &str = "AAAAAAAAPUTUY3JKWBANNPOFR5";

    #[test]
    fn strip_takes_out_pith_values_and_keeps_the_rest() {
        let p = props(A);
        let doi = "doi:10.1000/1";
        let other = "https://example.org/a";
        let packet = format!(
            r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:dc="{DC_NS}" xmlns:xmp="{XMP_NS}" xmlns:pith="{PITH_NS}" pith:url="{}"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Kept</rdf:li></rdf:Alt></dc:title><xmp:Identifier><rdf:Bag><rdf:li>{doi}</rdf:li><rdf:li>{}</rdf:li></rdf:Bag></xmp:Identifier><dc:relation><rdf:Bag><rdf:li>{}</rdf:li></rdf:Bag></dc:relation><dc:source>{other}</dc:source><pith:number>{}</pith:number></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#,
            p.url, p.number, p.url, p.number
        );
        let out = strip(packet.as_bytes())
            .unwrap()
            .expect("pith values found");
        let text = String::from_utf8(out.clone()).unwrap();
        assert_eq!(
            read(&out).unwrap(),
            Values {
                title: Some("Kept".into()),
                ..Values::default()
            }
        );
        for kept in ["Kept", doi, other, "xmp:Identifier"] {
            assert!(text.contains(kept), "{kept} lost: {text}");
        }
        assert!(!text.contains("dc:relation") && !text.contains(A), "{text}");
        assert_eq!(strip(&out).unwrap(), None, "nothing left to strip");
        let merged = merge(None, &p, "2024-01-01T00:00:00Z").unwrap();
        let stripped = strip(&merged).unwrap().unwrap();
        assert_eq!(read(&stripped).unwrap().number, None);
    }

    #[test]
    fn a_packet_of_too_many_elements_is_refused_before_it_is_parsed() {
        let packet = |n: usize| {
            format!(
                r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:a="urn:a">{}</rdf:Description></rdf:RDF></x:xmpmeta>"#,
                "<a:b/>".repeat(n)
            )
        };
        // Three elements frame the empty ones.
        assert!(read(packet(MAX_ELEMENTS - 3).as_bytes()).is_ok());
        let e = read(packet(MAX_ELEMENTS).as_bytes()).unwrap_err();
        assert!(e.to_string().contains("more than 200000 elements"), "{e}");
    }

    #[test]
    fn new_packet_is_wrapped_and_padded() {
        let out = merge(None, &props(A), "2024-01-01T00:00:00Z").unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.starts_with("<?xpacket begin=\"\u{feff}\""));
        assert!(s.ends_with("<?xpacket end=\"w\"?>"));
        let pad = s.len() - s.trim_end_matches("<?xpacket end=\"w\"?>").trim_end().len();
        assert!((2048..4096).contains(&pad), "padding {pad}");
        assert!(s.contains("<pith:number>pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5</pith:number>"));
        assert!(!s.contains("pdfaExtension"));
    }

    #[test]
    fn merge_keeps_properties_and_replaces_old_number() {
        let old = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:MetadataDate="2000-01-01" xmp:CreatorTool="TeX">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">T &amp; U</rdf:li></rdf:Alt></dc:title>
<xmp:Identifier><rdf:Bag><rdf:li>doi:10.1/x</rdf:li></rdf:Bag></xmp:Identifier>
<!-- a comment -->
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"#;
        let one = merge(Some(old.as_bytes()), &props(B), "2024-01-01T00:00:00Z").unwrap();
        let two = merge(Some(&one), &props(A), "2024-01-02T00:00:00Z").unwrap();
        let s = String::from_utf8(two.clone()).unwrap();
        assert!(
            s.contains("T &amp; U") && s.contains("doi:10.1/x") && s.contains("<!-- a comment -->")
        );
        assert!(s.contains("xmp:CreatorTool=\"TeX\""));
        assert!(!s.contains("2000-01-01") && !s.contains(B));
        let v = read(&two).unwrap();
        assert!(v.carries(&props(A)));
        assert_eq!(s.matches("MetadataDate>").count(), 2);
    }

    #[test]
    fn pdfa_gets_an_extension_schema_once() {
        let old = r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
</rdf:RDF></x:xmpmeta>"#;
        let one = merge(Some(old.as_bytes()), &props(A), "2024-01-01T00:00:00Z").unwrap();
        let v = read(&one).unwrap();
        assert!(v.pith_schema_declared && v.carries(&props(A)));
        let two = merge(Some(&one), &props(B), "2024-01-01T00:00:00Z").unwrap();
        assert_eq!(
            String::from_utf8(two)
                .unwrap()
                .matches("<pdfaSchema:namespaceURI>")
                .count(),
            1
        );
    }

    fn paper() -> Paper {
        Paper {
            doi: Some("10.48550/arXiv.2402.03791".into()),
            arxiv: Some("2402.03791v3".into()),
            title: Some("A & B".into()),
            creators: vec!["A. One".into(), "B. Two".into()],
        }
    }

    #[test]
    fn a_whole_number_item_as_pith_sty_writes_it_is_the_same_number() {
        let p = props(A);
        let packet = format!(
            r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:dc="{DC_NS}" xmlns:xmp="{XMP_NS}" xmlns:pith="{PITH_NS}"><pith:number>{n}</pith:number><pith:shortNumber>{short}</pith:shortNumber><pith:url>{url}</pith:url><dc:relation><rdf:Bag><rdf:li>{url}</rdf:li></rdf:Bag></dc:relation><xmp:Identifier><rdf:Bag><rdf:li rdf:parseType="Resource" xmlns:xmpidq="{XMPIDQ_NS}"><rdf:value>{n}</rdf:value><xmpidq:Scheme>pith</xmpidq:Scheme></rdf:li></rdf:Bag></xmp:Identifier></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#,
            n = p.number,
            short = p.short,
            url = p.url
        );
        let v = read(packet.as_bytes()).unwrap();
        assert_eq!(v.identifiers, std::slice::from_ref(&p.number));
        assert!(v.carries(&p), "a file pith.sty numbered is done");
        let stripped = String::from_utf8(strip(packet.as_bytes()).unwrap().unwrap()).unwrap();
        assert!(!stripped.contains(A), "{stripped}");
        // The scheme's value form reads back as the same number.
        let ours = merge(None, &p, "2024-01-01T00:00:00Z").unwrap();
        let v = read(&ours).unwrap();
        assert_eq!(v.identifiers, std::slice::from_ref(&p.number));
        assert!(v.carries(&p));
        let text = String::from_utf8(ours).unwrap();
        assert!(
            text.contains(&format!(">{}<", scheme_value(&p.number))),
            "{text}"
        );
    }

    #[test]
    fn a_known_paper_gets_qualified_identifiers_and_strip_takes_exactly_them_out() {
        let p = Props {
            paper: paper(),
            ..props(A)
        };
        let v = read(&merge(None, &p, "2024-01-01T00:00:00Z").unwrap()).unwrap();
        let scheme = |s: &str| {
            v.schemes
                .iter()
                .find(|(k, _)| k == s)
                .map(|(_, v)| v.as_str())
        };
        // The scheme says `pith`, the value the rest: calibre shows `pith:2024:…` once.
        assert_eq!(scheme("pith"), Some(scheme_value(&p.number)));
        assert_eq!(format!("pith:{}", scheme("pith").unwrap()), p.number);
        assert_eq!(scheme("doi"), Some("10.48550/arXiv.2402.03791"));
        assert_eq!(scheme("arxiv"), Some("2402.03791v3"));
        assert_eq!(
            v.dc_identifier.as_deref(),
            Some("doi:10.48550/arXiv.2402.03791")
        );
        assert_eq!(v.prism_doi.as_deref(), Some("10.48550/arXiv.2402.03791"));
        assert_eq!(v.title.as_deref(), Some("A & B"));
        assert_eq!(v.creators, ["A. One", "B. Two"]);
        assert_eq!(v.identifiers, std::slice::from_ref(&p.number));

        // A publisher's title, authors, DOI and identifier scheme stay; only what is missing
        // is added, and strip gives the publisher's packet back byte for byte.
        let publisher = format!(
            r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:dc="{DC_NS}" xmlns:xmp="{XMP_NS}" xmlns:xmpidq="{XMPIDQ_NS}" xmlns:prism="{PRISM_NS}"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Journal title</rdf:li></rdf:Alt></dc:title><dc:creator><rdf:Seq><rdf:li>C. Three</rdf:li></rdf:Seq></dc:creator><prism:doi>10.1000/journal</prism:doi><xmp:Identifier><rdf:Bag><rdf:li rdf:parseType="Resource"><rdf:value>10.1000/journal</rdf:value><xmpidq:Scheme>DOI</xmpidq:Scheme></rdf:li></rdf:Bag></xmp:Identifier></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#
        );
        let merged = merge(Some(publisher.as_bytes()), &p, "2024-01-01T00:00:00Z").unwrap();
        let v = read(&merged).unwrap();
        assert_eq!(v.title.as_deref(), Some("Journal title"));
        assert_eq!(v.creators, ["C. Three"]);
        assert_eq!(v.prism_doi.as_deref(), Some("10.1000/journal"));
        let dois: Vec<_> = v.schemes.iter().filter(|(k, _)| k == "doi").collect();
        assert_eq!(dois.len(), 1, "{:?}", v.schemes);
        assert!(v
            .schemes
            .iter()
            .any(|(k, v)| k == "arxiv" && v == "2402.03791v3"));
        assert_eq!(
            v.dc_identifier.as_deref(),
            Some("doi:10.48550/arXiv.2402.03791")
        );
        assert!(
            current(&merged, &p, &[]).unwrap(),
            "a second merge changes nothing"
        );
        let stripped = String::from_utf8(strip(&merged).unwrap().unwrap()).unwrap();
        let without_date = |t: &str| {
            roxmltree::Document::parse(t).unwrap();
            t.split_whitespace().collect::<String>()
        };
        let stripped = without_date(&stripped);
        assert!(stripped.contains("Journaltitle") && stripped.contains("C.Three"));
        assert!(
            !stripped.contains("arXiv") && !stripped.contains("pith:"),
            "{stripped}"
        );
        // merge replaced xmp:MetadataDate; everything else is the publisher's again.
        let date_free = stripped.replace(
            "<xmp:MetadataDate>2024-01-01T00:00:00Z</xmp:MetadataDate>",
            "",
        );
        let ours_gone = date_free.replace(
            &format!(r#"<rdf:Descriptionrdf:about=""xmlns:rdf="{RDF_NS}"xmlns:xmp="{XMP_NS}"xmlns:dc="{DC_NS}"xmlns:pith="{PITH_NS}"xmlns:prism="{PRISM_NS}"></rdf:Description>"#),
            "",
        ).replace(
            &format!(r#"<rdf:Descriptionrdf:about=""xmlns:rdf="{RDF_NS}"xmlns:xmp="{XMP_NS}"xmlns:dc="{DC_NS}"xmlns:pith="{PITH_NS}"></rdf:Description>"#),
            "",
        );
        assert_eq!(ours_gone, without_date(&publisher));
    }

    #[test]
    fn texts_xml_cannot_hold_are_cleaned_not_refused() {
        let p = Props {
            paper: Paper {
                title: Some("a\u{1}b\u{fffe}  c".into()),
                creators: vec!["\u{7}".into(), "D. E".into()],
                ..paper()
            },
            ..props(A)
        };
        let v = read(&merge(None, &p, "now").unwrap()).unwrap();
        assert_eq!(v.title.as_deref(), Some("ab c"));
        assert_eq!(v.creators, ["D. E"]);
    }

    #[test]
    fn pdfa_declares_prism_and_the_added_list() {
        // A PDF/A-1 packet whose pith schema (as pith.sty writes it) lacks pith:added.
        let sty_schema = format!(
            r#"<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Pith Number</pdfaSchema:schema><pdfaSchema:namespaceURI>{PITH_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>pith</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq>{}</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas>"#,
            vocab::XMP_PROPERTIES[..3]
                .iter()
                .map(|p| property_li("rdf:", p))
                .collect::<String>()
        );
        let old = format!(
            r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="{RDF_NS}"><rdf:Description rdf:about="" xmlns:pdfaid="{PDFAID_NS}" xmlns:pdfaExtension="{PDFAEXT_NS}" xmlns:pdfaSchema="{PDFASCHEMA_NS}" xmlns:pdfaProperty="{PDFAPROPERTY_NS}"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>{sty_schema}</rdf:Description></rdf:RDF></x:xmpmeta>"#
        );
        let p = Props {
            paper: paper(),
            ..props(A)
        };
        let v = read(&merge(Some(old.as_bytes()), &p, "now").unwrap()).unwrap();
        assert!(
            v.pith_declared.iter().any(|n| n == vocab::XMP_ADDED),
            "{v:?}"
        );
        assert_eq!(v.prism_declared, Some(vec!["doi".to_string()]));
        assert!(v.prism_doi.is_some());
    }

    #[test]
    fn broken_packets_are_errors() {
        assert!(merge(Some(b"<x:xmpmeta"), &props(A), "now").is_err());
        assert!(merge(Some(b"<a/>"), &props(A), "now").is_err());
        assert!(read(&[0xFF, 0xFE, 0, 0]).is_err());
    }
}
