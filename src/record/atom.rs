//! arXiv API Atom feeds → [`ArxivPaper`]s.
//!
//! Parses what `export.arxiv.org/api/query` returns: an Atom `<feed>` of `<entry>` elements, or a
//! lone `<entry>`. Each entry gives the versioned id (`<id>http://arxiv.org/abs/2402.03791v3</id>`),
//! the v1 date (`<published>`), `<title>`, `<summary>`, `<arxiv:primary_category term=…>`,
//! `<category term=…>` and, when present, the license (`<arxiv:license>` or a
//! `<link rel="license" href=…>`). roxmltree is a real XML parser; it never fetches external
//! entities, and DTDs are refused (arXiv feeds have none). Its tokenizer recurses once per
//! element level, so documents nested deeper than [`MAX_DEPTH`] are refused before parsing
//! (200,000 nested elements overflowed the stack and aborted the process).

use roxmltree::{Document, Node, ParsingOptions};

use super::{ArxivPaper, Error, ErrorKind};

/// The deepest element nesting [`parse`] accepts (an arXiv feed nests 4 levels).
pub const MAX_DEPTH: usize = 256;

const ATOM_NS: &str = "http://www.w3.org/2005/Atom";
const ARXIV_NS: &str = "http://arxiv.org/schemas/atom";

fn is(node: &Node, ns: &str, name: &str) -> bool {
    node.is_element() && node.tag_name().name() == name && node.tag_name().namespace() == Some(ns)
}

fn child<'a>(entry: &Node<'a, 'a>, ns: &str, name: &str) -> Option<Node<'a, 'a>> {
    entry.children().find(|c| is(c, ns, name))
}

fn text_of(entry: &Node, ns: &str, name: &str) -> Option<String> {
    child(entry, ns, name).map(|n| {
        n.descendants()
            .filter(|d| d.is_text())
            .map(|d| d.text().unwrap_or(""))
            .collect()
    })
}

/// Parses every entry of an Atom feed (or a single `<entry>` document).
///
/// # Errors
/// [`super::ErrorKind::Atom`] when the XML is malformed, holds a DTD, has no entries, or an
/// entry lacks its id, title, summary, published date or primary category.
///
/// # Examples
/// ```
/// let xml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.atom.xml"))?;
/// let papers = pith::record::atom::parse(&xml)?;
/// assert_eq!(papers[0].id, "2402.03791");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse(xml: &str) -> Result<Vec<ArxivPaper>, Error> {
    let depth = element_depth(xml);
    if depth > MAX_DEPTH {
        return Err(Error::atom(format!(
            "elements nested {depth} deep, more than the {MAX_DEPTH} accepted"
        )));
    }
    let opts = ParsingOptions {
        allow_dtd: false,
        nodes_limit: 5_000_000,
    };
    let doc =
        Document::parse_with_options(xml, opts).map_err(|e| Error::from(ErrorKind::Xml(e)))?;
    let root = doc.root_element();
    let entries: Vec<Node> = if is(&root, ATOM_NS, "entry") {
        vec![root]
    } else if is(&root, ATOM_NS, "feed") {
        root.children()
            .filter(|c| is(c, ATOM_NS, "entry"))
            .collect()
    } else {
        return Err(Error::atom(format!(
            "root element <{}> is not an Atom <feed> or <entry>",
            root.tag_name().name()
        )));
    };
    if entries.is_empty() {
        return Err(Error::atom(
            "the feed has no <entry> (is the arXiv id right?)",
        ));
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| parse_entry(e).map_err(|m| Error::atom(format!("entry {}: {m}", i + 1))))
        .collect()
}

/// An upper bound of the element nesting depth of `xml`, found without parsing it (no
/// recursion, linear time): start tags outside comments, CDATA sections, processing
/// instructions and quoted attribute values count one level down, end tags and `/>` one up.
/// Markup the scan cannot place only makes the bound larger, never smaller, up to the point
/// where an XML parser would stop with an error; so a parser that recurses per element never
/// goes deeper than this. Useful before handing untrusted XML to roxmltree, whose tokenizer
/// recurses once per level.
///
/// # Examples
/// ```
/// use pith::record::atom::element_depth;
/// assert_eq!(element_depth("<a><b/><c x='/>'>t</c></a>"), 2);
/// assert_eq!(element_depth("<a><!-- <b> --><![CDATA[<c>]]></a>"), 1);
/// ```
pub fn element_depth(xml: &str) -> usize {
    crate::xml::shape(xml).depth
}

fn parse_entry(entry: &Node) -> Result<ArxivPaper, String> {
    let id_url = text_of(entry, ATOM_NS, "id").ok_or("no <id>")?;
    let id_url = id_url.trim();
    // arXiv's API reports a missing paper as an entry titled "Error".
    if id_url.contains("api/errors") {
        let msg = text_of(entry, ATOM_NS, "summary").unwrap_or_default();
        return Err(format!("arXiv API error: {}", msg.trim()));
    }
    let tail = id_url
        .split_once("/abs/")
        .map(|(_, t)| t)
        .ok_or_else(|| format!("<id> {id_url:?} is not an arXiv abstract URL"))?;
    let (id, version) = super::split_versioned_id(tail);
    let version = version.ok_or_else(|| format!("<id> {id_url:?} has no version (vN)"))?;
    let title = text_of(entry, ATOM_NS, "title").ok_or("no <title>")?;
    let abstract_text = text_of(entry, ATOM_NS, "summary").ok_or("no <summary>")?;
    let submitted = text_of(entry, ATOM_NS, "published").ok_or("no <published>")?;
    let primary = child(entry, ARXIV_NS, "primary_category")
        .and_then(|n| n.attribute("term").map(str::to_owned))
        .ok_or("no <arxiv:primary_category term=…>")?;
    let categories = entry
        .children()
        .filter(|c| is(c, ATOM_NS, "category"))
        .filter_map(|c| c.attribute("term").map(str::to_owned))
        .collect();
    let license = text_of(entry, ARXIV_NS, "license")
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| {
            entry
                .children()
                .find(|c| is(c, ATOM_NS, "link") && c.attribute("rel") == Some("license"))
                .and_then(|c| c.attribute("href").map(str::to_owned))
        });
    let authors = entry
        .children()
        .filter(|c| is(c, ATOM_NS, "author"))
        .filter_map(|a| text_of(&a, ATOM_NS, "name"))
        .map(|n| n.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|n| !n.is_empty())
        .collect();
    Ok(ArxivPaper {
        authors,
        id,
        version,
        title,
        abstract_text,
        submitted: submitted.trim().to_owned(),
        primary,
        categories,
        license,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY: &str = r#"<entry xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
      <id>http://arxiv.org/abs/math/0406128v2</id><published>2004-06-07T12:00:00Z</published>
      <title>A  Title</title><summary> An abstract. </summary>
      <arxiv:primary_category term="math.DS"/><category term="math.DS"/><category term="math-ph"/>
      <link rel="license" href="http://creativecommons.org/licenses/by/4.0/"/></entry>"#;

    #[test]
    fn single_entry() {
        let p = &parse(ENTRY).unwrap()[0];
        assert_eq!((p.id.as_str(), p.version), ("math/0406128", 2));
        assert_eq!(
            p.license.as_deref(),
            Some("http://creativecommons.org/licenses/by/4.0/")
        );
        let r = p.to_record().unwrap();
        assert_eq!(r.metadata.cross_cats_sorted, ["math-ph"]);
    }

    #[test]
    fn refuses_dtd_and_garbage() {
        let evil = format!("<!DOCTYPE x [<!ENTITY a \"aaaa\">]>{ENTRY}");
        assert!(parse(&evil).is_err());
        assert!(parse("<feed xmlns=\"http://www.w3.org/2005/Atom\"/>").is_err());
        assert!(parse("not xml").is_err());
        assert!(parse(&ENTRY.replace("v2</id>", "</id>")).is_err());
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        // This overflowed roxmltree's recursive tokenizer and aborted the process.
        let deep = format!("{}{}", "<a>".repeat(200_000), "</a>".repeat(200_000));
        let e = parse(&deep).unwrap_err().to_string();
        assert!(e.contains("nested 200000 deep"), "{e}");
        assert_eq!(element_depth(ENTRY), 2);
        // `/>` inside a quoted value does not close the tag; comments and PIs do not nest.
        assert_eq!(element_depth("<a x=\"/>\"><b y='>'><c/></b></a>"), 2);
        assert_eq!(element_depth("<?x <a>?><!-- <a><a> --><a/>"), 0);
        assert_eq!(element_depth("<a"), 1);
    }
}
