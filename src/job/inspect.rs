//! The inspect job: what a PDF says about its Pith Number, as one report with the keys both
//! front ends print, and the rule for "ok" (a number, consistent, the expected one).
//!
//! A door fills an [`InspectRequest`] (the file or `-`, deep, the number expected) and runs
//! it ([`InspectRequest::run`]); [`inspect`] reads a source already resolved.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::pdf_input::PdfInput;
use super::{Error, ErrorKind, Settings, Source};
use crate::pdf;
use crate::{NumberRef, PithNumber};

/// `pith inspect` and Python's `inspect` as data: the PDF and what to check. Every door
/// builds this from its arguments and nothing else; [`InspectRequest::validate`] refuses what
/// cannot be checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InspectRequest {
    /// The PDF (a file, `-` for standard input; none when its bytes are given to
    /// [`InspectRequest::run`]), its password and deadline.
    #[serde(flatten)]
    pub pdf: PdfInput,
    /// Check every cross-reference entry against the file (reads the whole file).
    pub deep: bool,
    /// The number the file should carry (any form, a short alias included).
    pub expected: Option<String>,
}

impl InspectRequest {
    /// Refuses an expected number that is no number.
    ///
    /// # Errors
    /// [`ErrorKind::BadNumber`].
    pub fn validate(&self) -> Result<(), Error> {
        self.expected_number().map(|_| ())
    }

    /// The number expected, parsed.
    fn expected_number(&self) -> Result<Option<NumberRef>, Error> {
        self.expected
            .as_deref()
            .map(NumberRef::parse)
            .transpose()
            .map_err(|e| Error::new(ErrorKind::BadNumber(e)))
    }

    /// Checks the request and reads the file [`PdfInput::input`] names, standard input's
    /// bytes for `-`, or `bytes`, within the PDF's deadline.
    ///
    /// # Examples
    /// ```
    /// use pith::job::{InspectRequest, pdf_input::PdfInput};
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf");
    /// let pdf = PdfInput { input: Some(path.into()), ..Default::default() };
    /// let r = InspectRequest { pdf, ..Default::default() }.run(None)?;
    /// assert!(!r.has_number && !r.ok());
    /// assert_eq!(serde_json::to_value(&r)?["info"]["PithNumber"], serde_json::Value::Null);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// What [`InspectRequest::validate`] refuses; [`ErrorKind::Request`] when neither a file
    /// nor bytes are given, or both; as [`inspect`].
    pub fn run(&self, bytes: Option<&[u8]>) -> Result<InspectReport, Error> {
        let expected = self.expected_number()?;
        let mut stdin = Vec::new();
        let source = self.pdf.source(bytes, &mut stdin, "inspect")?;
        inspect(source, self.deep, &self.pdf.settings(), expected.as_ref())
    }
}

/// The Info entries pith writes, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoValues {
    /// `/PithNumber`.
    #[serde(rename = "PithNumber")]
    pub number: Option<String>,
    /// `/PithURL`.
    #[serde(rename = "PithURL")]
    pub url: Option<String>,
}

/// The XMP values pith writes, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct XmpValues {
    /// `pith:number`.
    #[serde(rename = "pith:number")]
    pub number: Option<String>,
    /// `pith:shortNumber`.
    #[serde(rename = "pith:shortNumber")]
    pub short: Option<String>,
    /// `pith:url`.
    #[serde(rename = "pith:url")]
    pub url: Option<String>,
    /// Items of `xmp:Identifier` that are Pith Numbers.
    #[serde(rename = "xmp:Identifier")]
    pub identifiers: Vec<String>,
    /// Items of `dc:relation` that are record URLs.
    #[serde(rename = "dc:relation")]
    pub relations: Vec<String>,
    /// Whether a PDF/A extension schema declares the `pith` properties.
    pub pith_schema_declared: bool,
}

/// One place a number lives in the file ([`InspectReport::places`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceReport {
    /// Which place: `info`, `xmp`, `link` (a page-1 link annotation to a record URL),
    /// `badge` (the badge `pith.sty` printed), `stamp` (pith's stamp) or `text` (number text
    /// on page 1 that pith did not draw).
    pub place: pdf::PlaceKind,
    /// What it holds: the number (full or short form) or the record URL.
    pub holds: String,
    /// The object, `NUM GEN`, for page 1's places that are objects.
    pub object: Option<String>,
    /// Whether pith can rewrite it (`inject --replace`, `strip`): false for text it did not
    /// draw.
    pub rewritable: bool,
    /// Whether it names the record the file names (`code`).
    pub agrees: bool,
}

/// The report of an inspect: `pith inspect --json` and Python's `inspect()` dict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InspectReport {
    /// The file (a path, or `-`).
    pub file: String,
    /// Header version (`1.7`).
    pub version: String,
    /// Kind of the newest cross-reference section: `table` or `stream`.
    pub xref: String,
    /// Number of cross-reference sections (1 for a file never updated).
    pub sections: usize,
    /// Whether the file is encrypted.
    pub encrypted: bool,
    /// The encryption of an encrypted file that was opened.
    pub encryption: Option<String>,
    /// Why an encrypted file could not be read (then no values were read).
    pub not_read: Option<String>,
    /// The full number found (XMP `pith:number`, else Info `/PithNumber`), never a yearless
    /// one.
    pub number: Option<String>,
    /// Whether the file names a record: a full number, or the record URL alone.
    pub has_number: bool,
    /// Whether the file names its record by URL (or code) only, without the full number, as
    /// `\pithnumber{<26 characters>}` writes it; `number` is then null.
    pub url_only: bool,
    /// The 26-character code of the record the file names.
    pub code: Option<String>,
    /// The record URL found (XMP `pith:url`, else Info `/PithURL`, else `dc:relation`).
    pub url: Option<String>,
    /// The Info entries.
    pub info: InfoValues,
    /// The XMP values, when a packet was read.
    pub xmp: Option<XmpValues>,
    /// Why the XMP packet could not be read.
    pub xmp_error: Option<String>,
    /// The PDF/A claim (`PDF/A-1B`).
    pub pdfa: Option<String>,
    /// Signature fields with a value.
    pub signatures: usize,
    /// `/P` of a certification signature.
    pub docmdp: Option<i64>,
    /// Every place that holds a number: Info, XMP, then page 1's links, badge, stamp and
    /// text.
    pub places: Vec<PlaceReport>,
    /// Whether every place that holds a number agrees (unknown when not read).
    pub consistent: Option<bool>,
    /// Whether the number is the expected one (when one was given).
    pub matches_expected: Option<bool>,
    /// Bytes of an interrupted in-place update after the PDF (readers do not see them).
    pub uncommitted_bytes: Option<u64>,
}

impl InspectReport {
    /// Whether the file passes: it carries a number, every place agrees, and it is the
    /// expected one when one was given. Front ends exit 1 (Python: `ok` false) otherwise.
    pub fn ok(&self) -> bool {
        self.has_number && self.consistent == Some(true) && self.matches_expected != Some(false)
    }
}

/// Reads what the PDF of `source` says about its number (`deep`: every cross-reference
/// entry checked) with the password, limits and deadline of `settings` (the deadline from
/// now, [`Settings::bounded`]), against the number `expected` when one is given.
///
/// # Errors
/// [`ErrorKind::Pdf`] when the file cannot be read as a PDF (or not in time),
/// [`ErrorKind::Io`] when it cannot be opened.
pub fn inspect(
    source: Source<'_>,
    deep: bool,
    settings: &Settings,
    expected: Option<&NumberRef>,
) -> Result<InspectReport, Error> {
    let check = if deep {
        pdf::Check::Full
    } else {
        pdf::Check::Sampled
    };
    let opts = settings.bounded().inspect_options(check);
    let (name, ins) = match source {
        Source::File(p) => {
            let file = open(p)?;
            let ins = pdf::inspect_opts(&file, &opts).map_err(|e| e.in_file(p))?;
            (p.display().to_string(), ins)
        }
        Source::Bytes { data, name } => (name.to_owned(), pdf::inspect_opts(data, &opts)?),
    };
    Ok(report(name, &ins, expected))
}

fn open(p: &Path) -> Result<std::fs::File, Error> {
    let file = std::fs::File::open(p)
        .map_err(|e| Error::new(ErrorKind::Io("cannot open".into(), e)).in_file(p))?;
    let meta = file
        .metadata()
        .map_err(|e| Error::new(ErrorKind::Io("cannot read".into(), e)).in_file(p))?;
    if !meta.is_file() {
        return Err(Error::from(
            pdf::Error::new(pdf::ErrorKind::NotFile).in_file(p),
        ));
    }
    Ok(file)
}

/// The report of an inspection already made.
pub fn report(file: String, ins: &pdf::Inspection, expected: Option<&NumberRef>) -> InspectReport {
    // The full number, never a yearless one; a file with the record URL only has a code,
    // which is what an expected number is matched against then.
    let found = ins.number().map(|m| m.full);
    let code = ins.code();
    let named = found
        .as_deref()
        .or(code.as_deref())
        .and_then(|n| PithNumber::parse(n).ok());
    let matches_expected = expected.map(|e| named.as_ref().is_some_and(|n| n.matches(e)));
    let has_number = code.is_some();
    InspectReport {
        file,
        version: ins.version.clone(),
        xref: if ins.xref_stream { "stream" } else { "table" }.into(),
        sections: ins.sections,
        encrypted: ins.encrypted,
        encryption: ins.encryption.clone(),
        not_read: ins.not_read.clone(),
        has_number: code.is_some(),
        url_only: found.is_none() && code.is_some(),
        url: ins.url(),
        code,
        number: found,
        info: InfoValues {
            number: ins.info_number.clone(),
            url: ins.info_url.clone(),
        },
        xmp: ins.xmp.as_ref().map(|x| XmpValues {
            number: x.number.clone(),
            short: x.short.clone(),
            url: x.url.clone(),
            identifiers: x.identifiers.clone(),
            relations: x.relations.clone(),
            pith_schema_declared: x.pith_schema_declared,
        }),
        xmp_error: ins.xmp_error.clone(),
        pdfa: ins.pdfa(),
        signatures: ins.signatures,
        docmdp: ins.docmdp,
        places: ins
            .places()
            .into_iter()
            .map(|p| PlaceReport {
                place: p.kind,
                holds: p.holds,
                object: p.object.map(|r| format!("{} {}", r.num, r.gen)),
                rewritable: p.marked || p.kind != pdf::PlaceKind::Text,
                agrees: p.agrees,
            })
            .collect(),
        // Nothing to agree on is no agreement: a file without a number is not "consistent"
        // (the text output says "- (no number)"); leftovers that disagree still say false.
        consistent: match (ins.not_read.is_none(), ins.consistent()) {
            (false, _) => None,
            (true, true) if !has_number => None,
            (true, c) => Some(c),
        },
        matches_expected,
        uncommitted_bytes: ins.uncommitted,
    }
}
