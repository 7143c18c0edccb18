//! The canonical record: the paper metadata whose canonical JSON is hashed into a Pith Number.
//!
//! This module owns and validates the record (`SPEC.md`, "The canonical record"), builds it from
//! a paper's metadata ([`ArxivPaper`], [`atom`]) and canonicalises titles and abstracts ([`canon`]).
//! It knows no output format beyond the canonical JSON itself.
//!
//! ## Text canonicalisation
//! `canon(text)` collapses every run of whitespace to one space, trims, and lower-cases. It is
//! defined to equal Python's `" ".join(text.split()).lower()`, the reading of the SPEC that every
//! published record confirms:
//! - whitespace is Unicode `White_Space` plus U+001C–U+001F (Python's `str.split()` set);
//! - lower-casing is the full Unicode lowercase mapping (Python's `str.lower()`, including the
//!   final-sigma rule and `İ` → `i̇`), not case folding (`ß` stays `ß`);
//! - no Unicode normalisation: NFC and NFD spellings of the same text hash differently, as the
//!   raw arXiv string is what was hashed.
//!
//! Only ASCII texts are confirmed by published records (SPEC, "unconfirmed"); this choice is the
//! one that matches the reference implementation's evident use of Python string methods.

pub mod arxiv;
pub mod atom;
pub mod canonical;
pub mod details;
pub mod input;
pub mod taxonomy;

use std::fmt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::number::{self, PithNumber};

pub use details::{arxiv_doi, split_authors, Details};
pub use input::LocalSource;

/// The schema version this crate writes.
pub const SCHEMA_VERSION: &str = "1.0";

/// Error raised when a record, its inputs or paper metadata are invalid, naming the file when
/// one was read.
#[derive(Debug)]
pub struct Error {
    path: Option<PathBuf>,
    kind: ErrorKind,
}

/// What was wrong with a record or its inputs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when record JSON cannot be parsed or has the wrong shape (missing or unknown
    /// fields, wrong types).
    #[error("not a valid canonical record")]
    Json(#[source] serde_json::Error),
    /// Occurs when a field has a value the SPEC does not allow.
    #[error("{field}: {reason}")]
    Field {
        /// The JSON path of the field, e.g. `metadata.submitted_at`.
        field: &'static str,
        /// Why the value is wrong.
        reason: String,
    },
    /// Occurs when Atom XML is well-formed but is not an arXiv feed or lacks a required
    /// element.
    #[error("arXiv Atom: {0}")]
    Atom(String),
    /// Occurs when Atom XML is not well-formed (or holds a DTD).
    #[error("arXiv Atom: not well-formed XML")]
    Xml(#[source] roxmltree::Error),
    /// Occurs when an input file cannot be read.
    #[error("cannot read")]
    Io(#[source] std::io::Error),
    /// Occurs when an input file is not UTF-8.
    #[error("not valid UTF-8 (byte {valid_up_to})")]
    Utf8 {
        /// Length of the valid prefix.
        valid_up_to: usize,
    },
    /// Occurs when a number given as text does not parse.
    #[error(transparent)]
    Number(#[from] number::Error),
    /// Occurs when a record is needed but the input is a number, which does not determine one.
    #[error("a number does not determine a record")]
    NotARecord,
    /// Occurs when one record is needed and an Atom feed holds several (or none match).
    #[error("the feed has {count} entries matching; exactly one is needed")]
    Entries {
        /// How many entries matched.
        count: usize,
    },
    /// Occurs when the record of one Atom entry cannot be built.
    #[error("entry {id}")]
    Entry {
        /// The entry's arXiv id.
        id: String,
        /// Why its record is invalid.
        #[source]
        source: Box<Error>,
    },
    /// Occurs when no Atom entry has the requested id.
    #[error("no entry with id {0}")]
    NoEntry(String),
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The file the error is about, when one was read.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The same error, about the file `path`.
    pub fn at(mut self, path: &Path) -> Self {
        self.path = Some(path.to_owned());
        self
    }

    pub(crate) fn field(field: &'static str, reason: impl Into<String>) -> Self {
        ErrorKind::Field {
            field,
            reason: reason.into(),
        }
        .into()
    }

    pub(crate) fn atom(reason: impl Into<String>) -> Self {
        ErrorKind::Atom(reason.into()).into()
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error { path: None, kind }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        self.kind.fmt(f)
    }
}

impl std::error::Error for Error {
    /// The cause of the kind (the JSON, XML or I/O error), so the chain has no repeated level.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        ErrorKind::Json(e).into()
    }
}

impl From<number::Error> for Error {
    fn from(e: number::Error) -> Self {
        ErrorKind::Number(e).into()
    }
}

/// Canonicalises a title or abstract: whitespace runs → one space, trimmed, lower-cased.
///
/// See the module docs for the exact (Python-compatible) definition.
///
/// # Examples
/// ```
/// assert_eq!(pith::record::canon("  Deep\n\tLearning  of $\\Phi$ "), "deep learning of $\\phi$");
/// ```
pub fn canon(text: &str) -> String {
    // ASCII fast path (canon was a third of the CPU of numbering the arXiv snapshot):
    // the same split on Python's ASCII whitespace (\t \n \v \f \r, U+001C–U+001F, space) and
    // ASCII lower-casing, byte by byte instead of char by char.
    if text.is_ascii() {
        let mut out = Vec::with_capacity(text.len());
        let space = |b: &u8| matches!(b, b' ' | b'\t'..=b'\r' | 0x1c..=0x1f);
        for word in text.as_bytes().split(space).filter(|w| !w.is_empty()) {
            if !out.is_empty() {
                out.push(b' ');
            }
            out.extend(word.iter().map(u8::to_ascii_lowercase));
        }
        return String::from_utf8(out).expect("ASCII stays ASCII");
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split(is_python_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.to_lowercase()
}

/// Whether `c` is whitespace for Python's `str.split()`.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Lowercase hex SHA-256 of the UTF-8 bytes of [`canon`]`(text)`.
pub fn canon_sha256(text: &str) -> String {
    number::hex(&number::sha256(canon(text).as_bytes()))
}

/// `source` of a record: which paper, at which version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// arXiv identifier without version (`2402.03791`, `math/0406128`).
    pub id: String,
    /// Source kind; `arxiv` for every published record.
    pub kind: String,
    /// Latest version number.
    pub version: u32,
}

/// `metadata` of a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    /// SHA-256 hex of the canonical abstract.
    pub abstract_canon_sha256: String,
    /// Cross-list categories in byte order.
    pub cross_cats_sorted: Vec<String>,
    /// License URL, or `""` when arXiv has none.
    pub license: String,
    /// Primary category.
    pub primary_cat: String,
    /// v1 submission time, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub submitted_at: String,
    /// SHA-256 hex of the canonical title.
    pub title_canon_sha256: String,
}

/// A canonical record (schema 1.0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The hashed metadata.
    pub metadata: Metadata,
    /// Schema version, `"1.0"`.
    pub schema_version: String,
    /// The paper this record is about.
    pub source: Source,
}

fn check_hex64(field: &'static str, v: &str) -> Result<(), Error> {
    if v.len() == 64
        && v.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(())
    } else {
        Err(Error::field(
            field,
            format!("{v:?} is not 64 lowercase hex digits"),
        ))
    }
}

/// Parses `YYYY-MM-DDTHH:MM:SSZ` exactly (the form records carry).
fn parse_submitted(v: &str) -> Option<DateTime<Utc>> {
    let b = v.as_bytes();
    if b.len() != 20 || b[19] != b'Z' || b[10] != b'T' {
        return None;
    }
    DateTime::parse_from_rfc3339(v)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

impl Record {
    /// Parses and validates a record from JSON text.
    ///
    /// # Errors
    /// [`ErrorKind::Json`] for malformed JSON or a wrong shape (unknown fields are refused: a
    /// schema 1.0 record has exactly the SPEC's fields), [`ErrorKind::Field`] for values the SPEC
    /// forbids (hashes not lowercase hex, a malformed `submitted_at`, unsorted cross-lists).
    pub fn from_json(text: &str) -> Result<Self, Error> {
        Record::from_value(&serde_json::from_str(text)?)
    }

    /// Parses and validates a record from a JSON value.
    ///
    /// # Errors
    /// As [`Record::from_json`].
    pub fn from_value(value: &Value) -> Result<Self, Error> {
        if !value.is_object() {
            return Err(Error::field(
                "record",
                "expected a JSON object with metadata, schema_version and source",
            ));
        }
        let r = Record::deserialize(value)?;
        r.validate()?;
        Ok(r)
    }

    /// Checks every field against the SPEC.
    ///
    /// # Errors
    /// [`ErrorKind::Field`] naming the first offending field.
    pub fn validate(&self) -> Result<(), Error> {
        let m = &self.metadata;
        check_hex64("metadata.title_canon_sha256", &m.title_canon_sha256)?;
        check_hex64("metadata.abstract_canon_sha256", &m.abstract_canon_sha256)?;
        if parse_submitted(&m.submitted_at).is_none() {
            return Err(Error::field(
                "metadata.submitted_at",
                format!(
                    "{:?} is not a UTC time of the form YYYY-MM-DDTHH:MM:SSZ",
                    m.submitted_at
                ),
            ));
        }
        if !m
            .cross_cats_sorted
            .windows(2)
            .all(|w| w[0].as_bytes() < w[1].as_bytes())
        {
            return Err(Error::field(
                "metadata.cross_cats_sorted",
                "categories are not unique and in byte order",
            ));
        }
        if m.primary_cat.trim().is_empty() {
            return Err(Error::field("metadata.primary_cat", "is empty"));
        }
        if self.source.id.trim().is_empty() {
            return Err(Error::field("source.id", "is empty"));
        }
        if self.source.kind == "arxiv" && !is_arxiv_id(&self.source.id) {
            return Err(Error::field(
                "source.id",
                format!(
                    "{:?} is not an arXiv id as arXiv writes it (YYMM.NNNNN, or archive/YYMMNNN \
                     with the archive in lower case)",
                    self.source.id
                ),
            ));
        }
        if self.source.version == 0 {
            return Err(Error::field("source.version", "versions start at 1"));
        }
        Ok(())
    }

    /// The record as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("a record always serialises")
    }

    /// The canonical JSON bytes that are hashed (SPEC, "Canonical bytes").
    pub fn canonical_bytes(&self) -> Vec<u8> {
        canonical::to_vec(&self.to_value())
    }

    /// SHA-256 of [`Record::canonical_bytes`].
    pub fn digest(&self) -> [u8; 32] {
        number::sha256(&self.canonical_bytes())
    }

    /// Lowercase hex of [`Record::digest`]: the record's `canonical_sha256`.
    pub fn canonical_sha256(&self) -> String {
        number::hex(&self.digest())
    }

    /// The year of `submitted_at`.
    pub fn year(&self) -> u16 {
        parse_submitted(&self.metadata.submitted_at)
            .map(|d| d.year() as u16)
            .unwrap_or_else(|| self.metadata.submitted_at[..4].parse().unwrap_or(0))
    }

    /// The record's Pith Number, with the year of `submitted_at`.
    pub fn number(&self) -> PithNumber {
        PithNumber::from_digest(&self.digest(), Some(self.year()))
    }
}

/// A paper's metadata as arXiv publishes it, from which a [`Record`] is built.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArxivPaper {
    /// arXiv identifier without version.
    pub id: String,
    /// Latest version number.
    pub version: u32,
    /// Title as arXiv publishes it (raw, LaTeX kept).
    pub title: String,
    /// Abstract of the latest version, raw.
    pub abstract_text: String,
    /// v1 submission time in any RFC 3339 form; converted to UTC.
    pub submitted: String,
    /// Primary category.
    pub primary: String,
    /// Categories; the primary is dropped from the cross-list, the rest sorted and deduplicated.
    pub categories: Vec<String>,
    /// License URL, if arXiv shows one.
    pub license: Option<String>,
    /// The authors, one name each, for display ([`Details`]); never part of the record.
    pub authors: Vec<String>,
}

impl ArxivPaper {
    /// Checks the primary and cross-list categories against arXiv's taxonomy
    /// ([`taxonomy::CATEGORIES`], old archive names included): for metadata typed by hand,
    /// where `cs.dc` for `cs.DC` would silently give another number. Metadata
    /// read from arXiv itself is taken as arXiv states it.
    ///
    /// # Errors
    /// [`ErrorKind::Field`] naming the category, with the likely meant spelling when only the
    /// case differs.
    pub fn check_categories(&self) -> Result<(), Error> {
        let check = |field: &'static str, c: &str| {
            let c = c.trim();
            if taxonomy::lookup(c).is_some() {
                return Ok(());
            }
            Err(Error::field(
                field,
                match taxonomy::suggest(c) {
                    Some(s) => format!("{c:?} is not an arXiv category (did you mean {s}?)"),
                    None => format!("{c:?} is not an arXiv category"),
                },
            ))
        };
        check("metadata.primary_cat", &self.primary)?;
        self.categories
            .iter()
            .filter(|c| !c.trim().is_empty())
            .try_for_each(|c| check("metadata.cross_cats_sorted", c))
    }
}

pub use crate::arxiv_id::{is_id as is_arxiv_id, OLD_ARCHIVES};

/// Splits `2402.03791v3` into (`2402.03791`, `Some(3)`); a bare id gives `None`
/// ([`crate::arxiv_id::split_version`]).
pub fn split_versioned_id(text: &str) -> (String, Option<u32>) {
    let (id, version) = crate::arxiv_id::split_version(text);
    (id.to_owned(), version)
}

impl ArxivPaper {
    /// Builds the canonical record.
    ///
    /// # Errors
    /// [`ErrorKind::Field`] when the id is not an arXiv id, the version is 0, the submission
    /// time cannot be read, or the primary category is empty.
    pub fn to_record(&self) -> Result<Record, Error> {
        let (id, embedded) = split_versioned_id(self.id.trim());
        if !is_arxiv_id(&id) {
            return Err(Error::field(
                "source.id",
                format!(
                    "{:?} is not an arXiv id (YYMM.NNNNN or archive/YYMMNNN)",
                    self.id
                ),
            ));
        }
        if let Some(v) = embedded.filter(|v| self.version != 0 && *v != self.version) {
            // `--id 2402.03791v3 --version 2` silently used 2.
            return Err(Error::field(
                "source.version",
                format!(
                    "the id {:?} says version {v} but version {} was given",
                    self.id, self.version
                ),
            ));
        }
        let version = if self.version == 0 {
            embedded.ok_or_else(|| {
                Error::field(
                    "source.version",
                    "missing: the id carries no version (vN) and none was given",
                )
            })?
        } else {
            self.version
        };
        let submitted = DateTime::parse_from_rfc3339(self.submitted.trim())
            .map_err(|e| {
                Error::field(
                    "metadata.submitted_at",
                    format!("{:?} is not an RFC 3339 time: {e}", self.submitted),
                )
            })?
            .with_timezone(&Utc)
            .to_rfc3339_opts(SecondsFormat::Secs, true);
        let primary = self.primary.trim().to_owned();
        let mut cross: Vec<String> = self
            .categories
            .iter()
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty() && *c != primary)
            .collect();
        cross.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        cross.dedup();
        let record = Record {
            metadata: Metadata {
                abstract_canon_sha256: canon_sha256(&self.abstract_text),
                cross_cats_sorted: cross,
                license: self.license.clone().unwrap_or_default().trim().to_owned(),
                primary_cat: primary,
                submitted_at: submitted,
                title_canon_sha256: canon_sha256(&self.title),
            },
            schema_version: SCHEMA_VERSION.to_owned(),
            source: Source {
                id,
                kind: "arxiv".to_owned(),
                version,
            },
        };
        record.validate()?;
        Ok(record)
    }

    /// The display fields of the paper's record `record` (the one [`ArxivPaper::to_record`] built).
    pub fn details(&self, record: &Record) -> Details {
        Details::with_authors(record, &self.title, self.authors.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canon_collapses_and_lowercases() {
        assert_eq!(canon("\u{a0}A\u{2003}\u{1f}B\r\n c "), "a b c");
        // Final sigma, as Python's str.lower() does it.
        assert_eq!(
            canon("ΟΔΟΣ ΣΑ"),
            "\u{3bf}\u{3b4}\u{3bf}\u{3c2} \u{3c3}\u{3b1}"
        );
        assert_eq!(canon("Straße"), "straße");
        // The ASCII fast path splits and lower-cases as the general path does.
        let ascii: String = (0u8..128).map(char::from).collect::<String>().repeat(3);
        let general = ascii
            .split(is_python_space)
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        assert_eq!(canon(&ascii), general);
        assert_eq!(canon(" A\u{b}B\u{c}C\u{1c}D\r\n"), "a b c d");
        assert_eq!(canon(""), "");
    }

    #[test]
    fn versioned_ids() {
        assert_eq!(
            split_versioned_id("2402.03791v3"),
            ("2402.03791".into(), Some(3))
        );
        assert_eq!(
            split_versioned_id("math/0406128v12"),
            ("math/0406128".into(), Some(12))
        );
        assert_eq!(
            split_versioned_id("2402.03791"),
            ("2402.03791".into(), None)
        );
        assert!(is_arxiv_id("nlin/0208048"));
        assert!(is_arxiv_id("0902.2274"));
        assert!(!is_arxiv_id("2402.037"));
        assert!(!is_arxiv_id("../etc"));
        // One grammar: lower-case archives, no subject class, digits that fit the month.
        for bad in [
            "HEP-TH/9901001",
            "Hep-th/9901001",
            "math.GT/0309136",
            "-x/9901001",
        ] {
            assert!(!is_arxiv_id(bad), "{bad}");
        }
        for bad in ["2402.0379", "1412.12345", "2413.03791", "2400.03791"] {
            assert!(!is_arxiv_id(bad), "{bad}");
        }
        assert!(is_arxiv_id("hep-th/9901001") && is_arxiv_id("1412.1234"));
    }

    #[test]
    fn paper_to_record_normalises() {
        let p = ArxivPaper {
            id: "2402.03791v3".into(),
            version: 0,
            title: "T".into(),
            abstract_text: "A".into(),
            submitted: "2024-02-06T09:14:56+01:00".into(),
            primary: "cs.DC".into(),
            categories: vec![
                "math.DS".into(),
                "cs.DC".into(),
                "math-ph".into(),
                "math.DS".into(),
            ],
            license: None,
            authors: vec![],
        };
        let r = p.to_record().unwrap();
        assert_eq!(r.metadata.submitted_at, "2024-02-06T08:14:56Z");
        assert_eq!(r.metadata.cross_cats_sorted, ["math-ph", "math.DS"]);
        assert_eq!(r.metadata.license, "");
        assert_eq!(r.source.version, 3);
        assert_eq!(r.number().year(), Some(2024));
    }

    #[test]
    fn rejects_bad_records() {
        let good = r#"{"metadata":{"abstract_canon_sha256":"a12d03de8ba64ca0f8b6fc92a580ef2454f23b4607ec0708779ae54d7f1a9020","cross_cats_sorted":[],"license":"","primary_cat":"cs.DC","submitted_at":"2024-02-06T08:14:56Z","title_canon_sha256":"cb8fc3273143939af44632cae52b5fcda13085019ac3cf48deecda29b98ad1e3"},"schema_version":"1.0","source":{"id":"2402.03791","kind":"arxiv","version":3}}"#;
        assert!(Record::from_json(good).is_ok());
        for (from, to) in [
            ("08:14:56Z", "08:14:56"),
            ("\"version\":3", "\"version\":\"3\""),
            (
                "\"cross_cats_sorted\":[]",
                "\"cross_cats_sorted\":[\"b\",\"a\"]",
            ),
            ("a12d03de", "A12D03DE"),
            ("\"kind\":\"arxiv\"", "\"kind\":\"arxiv\",\"x\":1"),
        ] {
            let bad = good.replace(from, to);
            assert!(Record::from_json(&bad).is_err(), "{bad}");
        }
    }
}
