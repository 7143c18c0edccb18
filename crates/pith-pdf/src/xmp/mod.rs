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
//!   when the paper is known ([`PaperFacts`]), its DOI (scheme `doi`) and arXiv id (scheme `arxiv`)
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

//!
//! Its rooms: text decoding and the bounded parse (`text`), reading values back
//! (`read`), merging (`merge`) and stripping (`strip`); the packet's namespaces, the values'
//! types and the byte-range edits both writers apply are here.

use std::ops::Range;

use crate::vocab;
use crate::{Error, ErrorKind};

mod merge;
mod read;
mod strip;
#[cfg(test)]
mod tests;
mod text;

pub(crate) use merge::merge_new;
pub use merge::{current, merge, merge_with};
pub use read::{read, scheme_value};
pub(crate) use read::{Parsed, Text};
pub use strip::{publisher_has, strip};

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
/// Bytes of white-space padding after the packet, so that in-place editors can grow it.
const PADDING: usize = 2048;

/// What is known of the paper a number is of, written where reader tools look for it. Each
/// field is optional; nothing is written for what is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaperFacts {
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
    pub paper: PaperFacts,
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

fn needs_extension_schema(part: Option<&str>) -> bool {
    matches!(part, Some("1" | "2" | "3"))
}

fn xmp_err(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Xmp(msg.into()))
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
