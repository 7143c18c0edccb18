//! Merging pith's values into a packet (or a new one): the items, properties and PDF/A
//! extension schemas written, as byte-range edits that keep everything else as it was.

use std::ops::Range;

use roxmltree::{Document, Node};

use super::read::{is, rdf_root, scheme_value, values};
use super::read::{Parsed, Text};
use super::strip::strip_doc;
use super::text::parse;
use super::{
    apply, needs_extension_schema, xmp_err, PaperFacts, Props, Values, DC_NS, PADDING, PDFAEXT_NS,
    PDFAPROPERTY_NS, PDFASCHEMA_NS, PITH_NS, PRISM_NS, RDF_NS, XMPIDQ_NS, XMP_NS,
};
use crate::vocab::{self, added};
use crate::Error;

/// Whether `packet` already says everything [`merge_with`] would write for `p` and
/// `info_added` (the time aside): then an update would change nothing.
///
/// # Errors
/// As [`merge`].
pub fn current(packet: &[u8], p: &Props, info_added: &[&str]) -> Result<bool, Error> {
    Text::of(packet).parse()?.current(p, info_added)
}

/// A merged packet and what it says, as read back to check it.
pub(crate) struct Merged {
    pub(crate) bytes: Vec<u8>,
    pub(crate) values: Values,
}

impl Parsed<'_> {
    /// [`current`] of this packet.
    pub(crate) fn current(&self, p: &Props, info_added: &[&str]) -> Result<bool, Error> {
        if !self.values.carries(p) {
            return Ok(false);
        }
        Ok(self.values.key() == self.merge(p, "", info_added)?.values.key())
    }

    /// [`merge_with`] into this packet.
    pub(crate) fn merge(&self, p: &Props, now: &str, info_added: &[&str]) -> Result<Merged, Error> {
        merge_parsed(self.s, &self.doc, &self.values, p, now, info_added)
    }
}

/// [`merge_with`] into no packet: a new one.
pub(crate) fn merge_new(p: &Props, now: &str, info_added: &[&str]) -> Result<Merged, Error> {
    let s = format!(
        "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF xmlns:rdf=\"{RDF_NS}\">\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
    );
    let doc = parse(&s)?;
    merge_parsed(&s, &doc, &values(&doc), p, now, info_added)
}

use crate::xml::escape as esc;

/// One `pdfaProperty` item of an extension schema.
pub(super) fn property_li(rdf: &str, p: &vocab::XmpProperty) -> String {
    format!(
        "<{rdf}li {rdf}parseType=\"Resource\" xmlns:pdfaProperty=\"{PDFAPROPERTY_NS}\"><pdfaProperty:name>{}</pdfaProperty:name><pdfaProperty:valueType>{}</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>{}</pdfaProperty:description></{rdf}li>",
        p.name, p.value_type, p.description
    )
}

/// The rdf:li of a PDF/A extension schema.
pub(super) fn schema_li(
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
pub(super) fn pith_schema_li(rdf: &str) -> String {
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

pub(super) fn prism_schema_li(rdf: &str) -> String {
    schema_li(rdf, "PRISM Basic", PRISM_NS, "prism", &[PRISM_DOI])
}

/// The rdf prefix (with its colon) in scope at `n`.
pub(super) fn rdf_prefix(n: Node) -> String {
    match n.lookup_prefix(RDF_NS) {
        Some("") | None => String::new(),
        Some(p) => format!("{p}:"),
    }
}

/// Start of the end tag of element `n` (`</…>`), or `None` for an empty-element tag.
pub(super) fn end_tag_start(s: &str, n: Node) -> Option<usize> {
    let r = n.range();
    let body = &s[r.clone()];
    if body.ends_with("/>") && !body.contains("</") {
        return None;
    }
    body.rfind("</").map(|i| r.start + i)
}

/// One `xmp:Identifier` item qualified with its scheme, in the long form (an `rdf:Description`
/// holding `rdf:value` and `xmpidq:Scheme`) that calibre, exiftool and XMP toolkits read.
pub(super) fn qualified_li(rdf: &str, scheme: &str, value: &str) -> String {
    format!(
        "<{rdf}li><{rdf}Description xmlns:xmpidq=\"{XMPIDQ_NS}\"><{rdf}value>{}</{rdf}value><xmpidq:Scheme>{}</xmpidq:Scheme></{rdf}Description></{rdf}li>",
        esc(value),
        esc(scheme)
    )
}

/// Inserts `items` (rdf:li elements) at the end of the array of property `prop`, or turns a
/// simple value where an array belongs into one, keeping the old value.
pub(super) fn append_items(
    s: &str,
    prop: Node,
    items: &str,
    edits: &mut Vec<(Range<usize>, String)>,
) {
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
pub(super) fn xml_text(s: &str) -> Option<String> {
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
    fn new(v: &Values, p: &PaperFacts) -> Plan {
        let clean = |o: &Option<String>| o.as_deref().and_then(xml_text);
        let p = &PaperFacts {
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

/// Merges `p` into `packet` (or into a new packet when `packet` is `None`), stamping
/// `xmp:MetadataDate` with `now` (ISO 8601). `info_added` names the Info entries the same
/// update adds for the paper ([`vocab::added::INFO_TITLE`], [`vocab::added::INFO_AUTHOR`]), so
/// that `pith:added` lists them too.
///
/// # Errors
/// [`ErrorKind::Xmp`](crate::ErrorKind::Xmp) when the packet is not UTF-8, not well-formed, or has no `rdf:RDF`.
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
    let merged = match packet {
        Some(b) => Text::of(b).parse()?.merge(p, now, info_added)?,
        None => merge_new(p, now, info_added)?,
    };
    Ok(merged.bytes)
}

/// [`merge_with`] into the text `s`, parsed already as `first`, which says `said`.
fn merge_parsed(
    s: &str,
    first: &Document,
    said: &Values,
    p: &Props,
    now: &str,
    info_added: &[&str],
) -> Result<Merged, Error> {
    // pith's older values out first: what remains is the publisher's, never touched. A packet
    // with none of them (most) is merged into as it was parsed.
    let (stripped, reparsed, fresh);
    let (s, doc, known) = match strip_doc(first, s, said)? {
        Some(t) => {
            stripped = t;
            reparsed = parse(&stripped)?;
            fresh = values(&reparsed);
            (stripped.as_str(), &reparsed, &fresh)
        }
        None => (s, first, said),
    };
    let rdf = rdf_root(doc).ok_or_else(|| xmp_err("no rdf:RDF element"))?;
    let plan = Plan::new(known, &p.paper);
    let mut added_names: Vec<&str> = plan.added();
    added_names.extend(info_added.iter().copied());
    let pdfa = needs_extension_schema(known.pdfa_part.as_deref());
    let want_schema = pdfa && !known.pith_schema_declared;
    let want_added_prop = pdfa
        && known.pith_schema_declared
        && !added_names.is_empty()
        && !known.pith_declared.iter().any(|n| n == vocab::XMP_ADDED);
    let want_prism_schema = pdfa && plan.prism_doi.is_some() && known.prism_declared.is_none();
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
    // The result must still be well-formed, and must carry what we wrote. Checked before the
    // padding and the wrapper, which add only white space and processing instructions outside
    // the root element (parsing the padding cost as much as the rest).
    let check = values(&parse(&out)?);
    if !check.carries(p) || added_names.iter().any(|a| !check.added(a)) {
        return Err(xmp_err(
            "merged packet does not carry the new values (conflicting properties in the packet)",
        ));
    }

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
    Ok(Merged {
        bytes: out.into_bytes(),
        values: check,
    })
}

/// Adds the `pith:added` property to the `pith` extension schema in `schemas`, which declares
/// the other three (written by `pith.sty` or an older pith).
pub(super) fn add_added_property(s: &str, schemas: Node, edits: &mut Vec<(Range<usize>, String)>) {
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

pub(super) fn padding() -> String {
    let line = format!("{}\n", " ".repeat(99));
    line.repeat(PADDING / 100 + 1)
}
