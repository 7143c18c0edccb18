//! XMP packets (ISO 16684-1) for the Pith Number: reading the values back, merging them into
//! an existing packet, and creating a packet where a PDF has none. Bytes in, bytes out; no
//! lopdf and no PDF syntax here.
//!
//! The existing packet is parsed with a real XML parser (roxmltree, no DTDs) and edited by
//! byte ranges, so every property, comment and namespace declaration we do not manage stays
//! exactly as it was ("keeping every existing property"). What is written:
//! - `xmp:Identifier` (bag): the full number, added beside the other identifiers;
//! - `dc:relation` (bag): the verification URL, added beside the other relations;
//! - `pith:number`, `pith:shortNumber`, `pith:url` in [`PITH_NS`] (the properties `pith.sty`
//!   writes);
//! - `xmp:MetadataDate`, replaced by the update time;
//! - for PDF/A-1, -2 and -3 a PDF/A extension schema declaring the `pith` properties
//!   (ISO 19005-1 §6.7.8); PDF/A-4 needs none.
//!
//! Older Pith values (`pith:` identifiers, `https://pith.science/pith/` relations) are removed,
//! so a file names one number only.

use std::ops::Range;

use roxmltree::{Document, Node};

use crate::vocab;
use crate::{Error, ErrorKind};

/// Namespace of the `pith` XMP properties (the same as `pith.sty` writes).
pub use crate::vocab::XMP_NS as PITH_NS;
const RDF_NS: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const XMP_NS: &str = "http://ns.adobe.com/xap/1.0/";
const DC_NS: &str = "http://purl.org/dc/elements/1.1/";
const PDFAID_NS: &str = "http://www.aiim.org/pdfa/ns/id/";
const PDFAEXT_NS: &str = "http://www.aiim.org/pdfa/ns/extension/";
const PDFASCHEMA_NS: &str = "http://www.aiim.org/pdfa/ns/schema#";
use crate::vocab::URL_BASE;
/// Bytes of white-space padding after the packet, so that in-place editors can grow it.
const PADDING: usize = 2048;

/// The values `inject` writes into XMP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Props {
    /// Full form, `pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`.
    pub number: String,
    /// Short form, `pith:7BMK4ZKT`.
    pub short: String,
    /// Verification URL.
    pub url: String,
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
}

impl Values {
    /// Whether the packet already carries exactly `p` (and, for PDF/A-1 to -3, declares it).
    pub fn carries(&self, p: &Props) -> bool {
        self.number.as_deref() == Some(&p.number)
            && self.short.as_deref() == Some(&p.short)
            && self.url.as_deref() == Some(&p.url)
            && self.identifiers == [p.number.clone()]
            && self.relations == [p.url.clone()]
            && (!needs_extension_schema(self.pdfa_part.as_deref()) || self.pith_schema_declared)
    }
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
/// is an error.
fn text_of(bytes: &[u8]) -> Result<String, Error> {
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
        String::from_utf16(&units).map_err(|_| xmp_err("packet is not valid UTF-16"))
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
    let s = s.strip_prefix('\u{feff}').unwrap_or(&s);
    // Some writers pad with NULs after the trailer PI.
    Ok(s.trim_end_matches(['\0', ' ', '\t', '\r', '\n'])
        .to_string())
}

fn utf8(b: &[u8]) -> Result<String, Error> {
    match std::str::from_utf8(b) {
        Ok(s) => Ok(s.to_string()),
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
                    Ok(format!("<?xpacket begin=\"\u{feff}\"{id}{rest}"))
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

fn li_text(li: Node) -> String {
    if let Some(v) = li.children().find(|c| is(c, RDF_NS, "value")) {
        return v.text().unwrap_or("").trim().to_string();
    }
    li.text().unwrap_or("").trim().to_string()
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

fn values(doc: &Document) -> Values {
    let mut v = Values::default();
    let Some(rdf) = rdf_root(doc) else {
        return v;
    };
    for d in rdf.children().filter(|n| is(n, RDF_NS, "Description")) {
        for a in d.attributes() {
            match (a.namespace(), a.name()) {
                (Some(PITH_NS), vocab::XMP_NUMBER) => v.number = Some(a.value().to_string()),
                (Some(PITH_NS), vocab::XMP_SHORT_NUMBER) => v.short = Some(a.value().to_string()),
                (Some(PITH_NS), vocab::XMP_URL) => v.url = Some(a.value().to_string()),
                (Some(PDFAID_NS), "part") => v.pdfa_part = Some(a.value().trim().to_string()),
                (Some(PDFAID_NS), "conformance") => {
                    v.pdfa_conformance = Some(a.value().trim().to_string())
                }
                _ => {}
            }
        }
        for p in d.children().filter(Node::is_element) {
            let text = || p.text().unwrap_or("").trim().to_string();
            match (p.tag_name().namespace(), p.tag_name().name()) {
                (Some(PITH_NS), vocab::XMP_NUMBER) => v.number = Some(text()),
                (Some(PITH_NS), vocab::XMP_SHORT_NUMBER) => v.short = Some(text()),
                (Some(PITH_NS), vocab::XMP_URL) => v.url = Some(text()),
                (Some(PDFAID_NS), "part") => v.pdfa_part = Some(text()),
                (Some(PDFAID_NS), "conformance") => v.pdfa_conformance = Some(text()),
                (Some(XMP_NS), "Identifier") => v.identifiers.extend(
                    items(p)
                        .into_iter()
                        .map(|(_, t)| t)
                        .filter(|t| t.starts_with("pith:")),
                ),
                (Some(DC_NS), "relation") => v.relations.extend(
                    items(p)
                        .into_iter()
                        .map(|(_, t)| t)
                        .filter(|t| t.starts_with(URL_BASE)),
                ),
                (Some(PDFAEXT_NS), "schemas")
                    if p.descendants().any(|n| {
                        is(&n, PDFASCHEMA_NS, "namespaceURI")
                            && n.text().map(str::trim) == Some(PITH_NS)
                    }) =>
                {
                    v.pith_schema_declared = true;
                }
                _ => {}
            }
        }
    }
    v
}

use crate::xml::escape as esc;

/// The rdf:li of the PDF/A extension schema for the `pith` namespace.
fn schema_li(rdf: &str) -> String {
    // Same names, value types and descriptions as `pith.sty` declares (src/sty.rs).
    let prop = |p: &vocab::XmpProperty| {
        format!(
            "<{rdf}li {rdf}parseType=\"Resource\"><pdfaProperty:name>{}</pdfaProperty:name><pdfaProperty:valueType>{}</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>{}</pdfaProperty:description></{rdf}li>",
            p.name, p.value_type, p.description
        )
    };
    format!(
        "<{rdf}li {rdf}parseType=\"Resource\" xmlns:pdfaSchema=\"{PDFASCHEMA_NS}\" xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\"><pdfaSchema:schema>{}</pdfaSchema:schema><pdfaSchema:namespaceURI>{PITH_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>{}</pdfaSchema:prefix><pdfaSchema:property><{rdf}Seq>{}</{rdf}Seq></pdfaSchema:property></{rdf}li>",
        vocab::XMP_SCHEMA_NAME,
        vocab::XMP_PREFIX,
        vocab::XMP_PROPERTIES.iter().map(prop).collect::<String>(),
    )
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

/// Merges `p` into `packet` (or into a new packet when `packet` is `None`), stamping
/// `xmp:MetadataDate` with `now` (ISO 8601).
///
/// # Errors
/// [`ErrorKind::Xmp`] when the packet is not UTF-8, not well-formed, or has no `rdf:RDF`.
///
/// # Examples
/// ```
/// use pith_pdf::xmp::{merge, read, Props};
/// let p = Props { number: "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into(),
///     short: "pith:7BMK4ZKT".into(), url: "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5".into() };
/// let packet = merge(None, &p, "2024-01-01T00:00:00Z")?;
/// assert!(read(&packet)?.carries(&p));
/// # Ok::<(), pith_pdf::Error>(())
/// ```
pub fn merge(packet: Option<&[u8]>, p: &Props, now: &str) -> Result<Vec<u8>, Error> {
    let s: String = match packet {
        Some(b) => text_of(b)?,
        None => format!(
                "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF xmlns:rdf=\"{RDF_NS}\">\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        ),
    };
    let s = s.as_str();
    let doc = parse(s)?;
    let rdf = rdf_root(&doc).ok_or_else(|| xmp_err("no rdf:RDF element"))?;
    let values = values(&doc);
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut have_identifier = false;
    let mut have_relation = false;
    let mut have_schemas = false;
    let mut about: Option<String> = None;
    let want_schema =
        needs_extension_schema(values.pdfa_part.as_deref()) && !values.pith_schema_declared;

    // Edits one array property: drops stale Pith items, adds ours once.
    let edit_bag = |prop: Node,
                    ours: &str,
                    stale: &dyn Fn(&str) -> bool,
                    edits: &mut Vec<(Range<usize>, String)>| {
        let container = prop
            .children()
            .find(|c| c.is_element() && c.tag_name().namespace() == Some(RDF_NS));
        let rdfp = rdf_prefix(prop);
        match container {
            Some(c) => {
                let mut found = false;
                for li in c.children().filter(|li| is(li, RDF_NS, "li")) {
                    let t = li_text(li);
                    if t == ours && !found {
                        found = true;
                    } else if stale(&t) {
                        edits.push((li.range(), String::new()));
                    }
                }
                if !found {
                    let item = format!("<{rdfp}li>{}</{rdfp}li>", esc(ours));
                    match end_tag_start(s, c) {
                        Some(at) => edits.push((at..at, item)),
                        None => {
                            let name = &s[c.range()][1..]
                                .split(|ch: char| ch == '/' || ch.is_whitespace())
                                .next()
                                .unwrap_or("")
                                .to_string();
                            edits.push((c.range(), format!("<{name}>{item}</{name}>")));
                        }
                    }
                }
            }
            None => {
                // A simple value where a bag belongs: make it a bag, keeping the old value.
                let old = prop.text().unwrap_or("").trim().to_string();
                let qn = &s[prop.range()][1..]
                    .split(|ch: char| ch == '/' || ch == '>' || ch.is_whitespace())
                    .next()
                    .unwrap_or("")
                    .to_string();
                let mut lis = String::new();
                if !old.is_empty() && !stale(&old) && old != ours {
                    lis.push_str(&format!("<{rdfp}li>{}</{rdfp}li>", esc(&old)));
                }
                lis.push_str(&format!("<{rdfp}li>{}</{rdfp}li>", esc(ours)));
                edits.push((
                    prop.range(),
                    format!("<{qn}><{rdfp}Bag>{lis}</{rdfp}Bag></{qn}>"),
                ));
            }
        }
    };

    for d in rdf.children().filter(|n| is(n, RDF_NS, "Description")) {
        if about.is_none() {
            about = d.attribute((RDF_NS, "about")).map(str::to_string);
        }
        for a in d.attributes() {
            let drop = matches!(
                (a.namespace(), a.name()),
                (Some(PITH_NS), _) | (Some(XMP_NS), "MetadataDate")
            );
            if drop {
                edits.push((a.range(), String::new()));
            }
        }
        for prop in d.children().filter(Node::is_element) {
            match (prop.tag_name().namespace(), prop.tag_name().name()) {
                (Some(PITH_NS), _) | (Some(XMP_NS), "MetadataDate") => {
                    edits.push((prop.range(), String::new()))
                }
                (Some(XMP_NS), "Identifier") if !have_identifier => {
                    have_identifier = true;
                    edit_bag(prop, &p.number, &|t| t.starts_with("pith:"), &mut edits);
                }
                (Some(DC_NS), "relation") if !have_relation => {
                    have_relation = true;
                    edit_bag(prop, &p.url, &|t| t.starts_with(URL_BASE), &mut edits);
                }
                (Some(PDFAEXT_NS), "schemas") if !have_schemas => {
                    have_schemas = true;
                    if want_schema {
                        if let Some(bag) = prop
                            .children()
                            .find(|c| c.is_element() && c.tag_name().namespace() == Some(RDF_NS))
                        {
                            if let Some(at) = end_tag_start(s, bag) {
                                edits.push((at..at, schema_li(&rdf_prefix(bag))));
                            } else {
                                let r = rdf_prefix(bag);
                                edits.push((
                                    bag.range(),
                                    format!("<{r}Bag>{}</{r}Bag>", schema_li(&r)),
                                ));
                            }
                        } else {
                            have_schemas = false;
                            edits.push((prop.range(), String::new()));
                        }
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
    if want_schema && !have_schemas {
        desc.push_str(&format!(" xmlns:pdfaExtension=\"{PDFAEXT_NS}\""));
    }
    desc.push_str(">\n");
    desc.push_str(&format!(
        "   <xmp:MetadataDate>{}</xmp:MetadataDate>\n",
        esc(now)
    ));
    if !have_identifier {
        desc.push_str(&format!(
            "   <xmp:Identifier><{r}Bag><{r}li>{}</{r}li></{r}Bag></xmp:Identifier>\n",
            esc(&p.number)
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
    if want_schema && !have_schemas {
        desc.push_str(&format!(
            "   <pdfaExtension:schemas><{r}Bag>{}</{r}Bag></pdfaExtension:schemas>\n",
            schema_li(r)
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

    // Apply edits from the end so earlier ranges stay valid; attribute removal also takes
    // the white space before it.
    edits.sort_by_key(|e| (e.0.start, e.0.end));
    let mut out = String::with_capacity(s.len() + 4096);
    let mut at = 0;
    for (range, text) in edits {
        if range.start < at {
            continue; // nested in an earlier removal
        }
        let mut start = range.start;
        if text.is_empty() {
            // Remove the indentation before a removed element or attribute too.
            while start > at && matches!(s.as_bytes()[start - 1], b' ' | b'\t') {
                start -= 1;
            }
        }
        out.push_str(&s[at..start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&s[at..]);

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
    if !check.carries(p) {
        return Err(xmp_err(
            "merged packet does not carry the new values (conflicting properties in the packet)",
        ));
    }
    Ok(out.into_bytes())
}

/// Takes pith's values out of a packet (`pith strip`): every property and
/// attribute in [`PITH_NS`], the `xmp:Identifier` items that are Pith Numbers and the
/// `dc:relation` items that are record URLs (the whole property when nothing else is in it).
/// Everything else stays byte for byte. `None` when the packet holds nothing of pith's.
///
/// # Errors
/// [`ErrorKind::Xmp`] when the packet is not UTF-8 or not well-formed XML.
pub fn strip(packet: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    let s = text_of(packet)?;
    let doc = parse(&s)?;
    let Some(rdf) = rdf_root(&doc) else {
        return Ok(None);
    };
    let mut edits: Vec<Range<usize>> = Vec::new();
    for d in rdf.children().filter(|n| is(n, RDF_NS, "Description")) {
        for a in d.attributes() {
            if a.namespace() == Some(PITH_NS) {
                edits.push(a.range());
            }
        }
        for prop in d.children().filter(Node::is_element) {
            let ours: &dyn Fn(&str) -> bool =
                match (prop.tag_name().namespace(), prop.tag_name().name()) {
                    (Some(PITH_NS), _) => {
                        edits.push(prop.range());
                        continue;
                    }
                    (Some(XMP_NS), "Identifier") => &|t: &str| t.starts_with(vocab::NUMBER_SCHEME),
                    (Some(DC_NS), "relation") => &|t: &str| t.starts_with(URL_BASE),
                    _ => continue,
                };
            let items = items(prop);
            let mine: Vec<_> = items.iter().filter(|(_, t)| ours(t)).collect();
            if mine.is_empty() {
                continue;
            }
            if mine.len() == items.len() {
                edits.push(prop.range());
            } else {
                edits.extend(mine.iter().map(|(li, _)| li.range()));
            }
        }
    }
    if edits.is_empty() {
        return Ok(None);
    }
    edits.sort_by_key(|r| (r.start, r.end));
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for range in edits {
        if range.start < at {
            continue; // nested in an earlier removal
        }
        let mut start = range.start;
        while start > at && matches!(s.as_bytes()[start - 1], b' ' | b'\t') {
            start -= 1;
        }
        out.push_str(&s[at..start]);
        at = range.end;
    }
    out.push_str(&s[at..]);
    // Still well-formed, and free of pith's values.
    let check = read(out.as_bytes())?;
    if check.number.is_some()
        || check.short.is_some()
        || check.url.is_some()
        || !check.identifiers.is_empty()
        || !check.relations.is_empty()
    {
        return Err(xmp_err(
            "the packet still carries Pith values after they were removed",
        ));
    }
    Ok(Some(out.into_bytes()))
}

fn padding() -> String {
    let line = format!("{}\n", " ".repeat(99));
    line.repeat(PADDING / 100 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(code: &str) -> Props {
        Props {
            number: format!("pith:2024:{code}"),
            short: format!("pith:{}", &code[..8]),
            url: format!("{URL_BASE}{code}"),
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
        assert_eq!(read(&out).unwrap(), Values::default());
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

    #[test]
    fn broken_packets_are_errors() {
        assert!(merge(Some(b"<x:xmpmeta"), &props(A), "now").is_err());
        assert!(merge(Some(b"<a/>"), &props(A), "now").is_err());
        assert!(read(&[0xFF, 0xFE, 0, 0]).is_err());
    }
}
