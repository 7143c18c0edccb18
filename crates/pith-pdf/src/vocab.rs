//! The Pith vocabulary: every name and address a Pith Number is written under, in one place.
//!
//! This module owns the facts that `number`, `sty`, `pdf::xmp`, `pdf::info` and `badge` must
//! spell the same way ("one fact, one place"): the record URL base, the XMP
//! namespace, its prefix and property names, and the document Info keys. It holds constants
//! only: no logic and no dependency on any other pith module.
//!
//! ```
//! use pith_pdf::vocab;
//! assert_eq!(format!("{}{}", vocab::URL_BASE, "7BMK4ZKTPUTUY3JKWBANNPOFR5"),
//!            "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5");
//! assert_eq!(vocab::XMP_PREFIX, "pith");
//! ```

/// Base URL of record pages; the verification link is this followed by the 26-character code
/// (`https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5`).
pub const URL_BASE: &str = "https://pith.science/pith/";

/// Scheme prefix of every textual number: `pith:YYYY:CODE` and the short aliases `pith:CODE8`.
pub const NUMBER_SCHEME: &str = "pith:";

/// Namespace URI of the `pith` XMP properties (written by `pith.sty` and `pith inject`).
pub const XMP_NS: &str = "https://pith.science/ns/1.0/";

/// Preferred prefix of [`XMP_NS`] in XMP packets (`pith:number`).
pub const XMP_PREFIX: &str = "pith";

/// XMP property holding the full number, `pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5` (Text).
pub const XMP_NUMBER: &str = "number";

/// XMP property holding the short number, `pith:7BMK4ZKT` (Text).
pub const XMP_SHORT_NUMBER: &str = "shortNumber";

/// XMP property holding the verification URL (URL).
pub const XMP_URL: &str = "url";

/// Name of the PDF/A extension schema that declares the `pith` properties
/// (`pdfaSchema:schema`, ISO 19005-1 §6.7.8).
pub const XMP_SCHEMA_NAME: &str = "Pith Number";

/// One property of the `pith` XMP schema, as PDF/A extension schemas declare it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XmpProperty {
    /// Local name in [`XMP_NS`].
    pub name: &'static str,
    /// PDF/A value type (`Text`, `URL`).
    pub value_type: &'static str,
    /// The `pdfaProperty:description`.
    pub description: &'static str,
}

/// XMP property listing what pith wrote into the file beside its own values, so that `strip`
/// takes out exactly that and nothing of the publisher's (bag of Text: the names in [`added`](mod@added)).
pub const XMP_ADDED: &str = "added";

/// The names [`XMP_ADDED`] lists: the paper's identifiers pith added to `xmp:Identifier`
/// (by their scheme), the properties it added because the file had none, and the Info keys.
pub mod added {
    /// An `xmp:Identifier` item of scheme `doi`.
    pub const IDENTIFIER_DOI: &str = "xmp:Identifier/doi";
    /// An `xmp:Identifier` item of scheme `arxiv`.
    pub const IDENTIFIER_ARXIV: &str = "xmp:Identifier/arxiv";
    /// `dc:identifier`.
    pub const DC_IDENTIFIER: &str = "dc:identifier";
    /// `prism:doi`.
    pub const PRISM_DOI: &str = "prism:doi";
    /// `dc:title`.
    pub const DC_TITLE: &str = "dc:title";
    /// `dc:creator`.
    pub const DC_CREATOR: &str = "dc:creator";
    /// The Info entry `/Title`.
    pub const INFO_TITLE: &str = "Info/Title";
    /// The Info entry `/Author`.
    pub const INFO_AUTHOR: &str = "Info/Author";
}

/// `xmpidq:Scheme` of the number's own `xmp:Identifier` item.
pub const SCHEME_PITH: &str = "pith";
/// `xmpidq:Scheme` of the paper's DOI item.
pub const SCHEME_DOI: &str = "doi";
/// `xmpidq:Scheme` of the paper's arXiv id item.
pub const SCHEME_ARXIV: &str = "arxiv";

/// The four `pith` XMP properties, in the order they are written.
pub const XMP_PROPERTIES: [XmpProperty; 4] = [
    XmpProperty {
        name: XMP_NUMBER,
        value_type: "Text",
        description: "Pith Number of the paper in its full form, pith:YYYY:CODE",
    },
    XmpProperty {
        name: XMP_SHORT_NUMBER,
        value_type: "Text",
        description: "Short form of the Pith Number, pith: and its first 8 characters",
    },
    XmpProperty {
        name: XMP_URL,
        value_type: "URL",
        description: "Verification page of the Pith Number",
    },
    XmpProperty {
        name: XMP_ADDED,
        value_type: "bag Text",
        description:
            "Metadata pith wrote beside the Pith Number, so that it can be taken out again",
    },
];

/// Document Info key (ISO 32000-2 §14.3.3, without the slash) of the full number, a text
/// string.
pub const INFO_NUMBER: &str = "PithNumber";

/// Document Info key of the verification URL, a text string.
pub const INFO_URL: &str = "PithURL";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_consistent() {
        assert!(URL_BASE.starts_with("https://") && URL_BASE.ends_with('/'));
        assert!(XMP_NS.ends_with('/'));
        assert_eq!(NUMBER_SCHEME, format!("{XMP_PREFIX}:"));
        let names: Vec<_> = XMP_PROPERTIES.iter().map(|p| p.name).collect();
        assert_eq!(names, [XMP_NUMBER, XMP_SHORT_NUMBER, XMP_URL, XMP_ADDED]);
    }
}
