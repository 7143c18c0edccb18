//! What a PDF says about its Pith Number: [`inspect`] reads the Info entries, the XMP values,
//! what page 1 prints ([`crate::stamp::printed`]: the badge, the stamp, record links, number
//! text), the PDF/A claim, signatures and the update count, and [`Inspection`] lists every
//! place ([`Inspection::places`]) and judges whether they agree. It never writes.

use crate::budget::{Budget, Limits, Stop};
use crate::document::load_checked;
use crate::mark::{code_of, SHORT_LEN};
use crate::reader::{Check, ReadAt, XrefKind};
use crate::signature::{count_signatures, docmdp};
use crate::stamp::printed::{self, Kind, Printed};
use crate::vocab::{NUMBER_SCHEME, URL_BASE};
use crate::Mark;
use crate::{info, xmp, Error};

/// What a PDF says about its Pith Number.
#[derive(Debug, Clone, Default)]
pub struct Inspection {
    /// Header version (`1.7`).
    pub version: String,
    /// Kind of the newest xref section.
    pub xref_stream: bool,
    /// Number of xref sections (1 for a file never updated incrementally).
    pub sections: usize,
    /// Whether the file is encrypted.
    pub encrypted: bool,
    /// For an encrypted file that pith opened, its encryption (e.g. `Standard R6 V5,
    /// AES-256, 256-bit key`).
    pub encryption: Option<String>,
    /// For an encrypted file that pith could not open, why (a password is needed, …): then
    /// no value was read, and [`Inspection::consistent`] says nothing about the file.
    pub not_read: Option<String>,
    /// The error behind [`Inspection::not_read`], for a caller that needs the values (a
    /// verification must refuse the file, not call it numberless).
    pub not_opened: Option<crate::ErrorKind>,
    /// Info `/PithNumber`.
    pub info_number: Option<String>,
    /// Info `/PithURL`.
    pub info_url: Option<String>,
    /// Info `/Subject`, as other tools write it (an arXiv id may be named there:
    /// `arXiv:2402.03791v3`).
    pub info_subject: Option<String>,
    /// Info `/Keywords`.
    pub info_keywords: Option<String>,
    /// Values from XMP, if a packet was read.
    pub xmp: Option<xmp::Values>,
    /// Why the XMP packet could not be read.
    pub xmp_error: Option<String>,
    /// The record links (`https://pith.science/pith/<26>`) of page 1's link annotations: the
    /// stamp's, or the badge link pith.sty writes.
    pub page_links: Vec<String>,
    /// What page 1 prints of a number: the badge, the stamp, record links and number text
    /// pith did not draw ([`crate::stamp::printed`]).
    pub printed: Vec<Printed>,
    /// Signature fields with a value.
    pub signatures: usize,
    /// `/P` of a DocMDP certification signature, when certified.
    pub docmdp: Option<i64>,
    /// Bytes an interrupted `pith` in-place update left after the PDF, uncommitted (readers
    /// do not see them; the values above are the original's).
    pub uncommitted: Option<u64>,
}

impl Inspection {
    /// The number found (XMP `pith:number`, else Info `/PithNumber`).
    pub fn found(&self) -> Option<String> {
        self.xmp
            .as_ref()
            .and_then(|x| x.number.clone())
            .or_else(|| self.info_number.clone())
    }

    /// The full number (`pith:YYYY:CODE`) found, if the file carries one with its year. A
    /// yearless value (written by older `pith.sty` versions for `\pithnumber{<26>}`) is not
    /// a full number: the file then names its record by code only, see [`Inspection::code`].
    pub fn number(&self) -> Option<Mark> {
        self.found().and_then(|n| Mark::parse(&n))
    }

    /// The record URL found: XMP `pith:url`, else Info `/PithURL`, else the first pith
    /// `dc:relation`.
    pub fn url(&self) -> Option<String> {
        let x = self.xmp.as_ref();
        x.and_then(|x| x.url.clone())
            .or_else(|| self.info_url.clone())
            .or_else(|| x.and_then(|x| x.relations.first().cloned()))
    }

    /// The 26-character code of the record the file names: that of the number found, else
    /// that of the record URL. `\pithnumber{<26>}` (the bare code a record page shows) writes
    /// the URL and the short form but no full number: such a file has a code and
    /// no [`Inspection::number`].
    pub fn code(&self) -> Option<String> {
        self.found()
            .or_else(|| self.url())
            .and_then(|v| code_of(&v))
            .or_else(|| self.printed_code())
    }

    /// The code page 1 names when the metadata names none: that of what pith drew first,
    /// else of the first record link or full number text.
    fn printed_code(&self) -> Option<String> {
        let mut ps: Vec<&Printed> = self.printed.iter().filter(|p| p.holds()).collect();
        ps.sort_by_key(|p| !p.marked);
        ps.iter().find_map(|p| {
            p.url
                .as_deref()
                .and_then(code_of)
                .or_else(|| p.text.as_deref().and_then(code_of))
        })
    }

    /// Every place that holds a number, with what it holds and whether it names the
    /// record the file names ([`Inspection::code`]): Info, XMP, then page 1's.
    pub fn places(&self) -> Vec<Place> {
        let code = self.code();
        let agrees = |v: &str| {
            code.as_deref()
                .is_some_and(|c| code_of(v).as_deref() == Some(c))
        };
        let mut out = Vec::new();
        if let Some(v) = self.info_number.as_ref().or(self.info_url.as_ref()) {
            let ok = [&self.info_number, &self.info_url]
                .iter()
                .all(|o| o.as_deref().is_none_or(agrees));
            out.push(Place::new(PlaceKind::Info, v.clone(), None, true, ok));
        }
        if let Some(x) = &self.xmp {
            let first = x
                .number
                .as_ref()
                .or(x.identifiers.first())
                .or(x.url.as_ref())
                .or(x.relations.first());
            if let Some(v) = first {
                let ok = x
                    .number
                    .iter()
                    .chain(&x.identifiers)
                    .chain(&x.url)
                    .chain(&x.relations)
                    .all(|v| agrees(v))
                    && x.short
                        .as_deref()
                        .is_none_or(|s| code.as_deref().is_some_and(|c| printed::text_names(s, c)));
                out.push(Place::new(PlaceKind::Xmp, v.clone(), None, true, ok));
            }
        }
        for p in self.printed.iter().filter(|p| p.holds()) {
            let kind = match p.kind {
                Kind::Badge => PlaceKind::Badge,
                Kind::Stamp => PlaceKind::Stamp,
                Kind::Link => PlaceKind::Link,
                Kind::Text => PlaceKind::Text,
            };
            let holds = p.text.clone().or_else(|| p.url.clone()).unwrap_or_default();
            let ok = code.as_deref().is_some_and(|c| p.names(c));
            out.push(Place::new(kind, holds, p.object, p.marked, ok));
        }
        out
    }

    /// Whether the file names its record by code or URL only, without the full number.
    pub fn url_only(&self) -> bool {
        self.number().is_none() && self.code().is_some()
    }

    /// Whether every place that holds a number or URL holds the same one, and the short form
    /// and URL belong to it. A file without any number agrees trivially; one with the record
    /// URL but no number agrees when every URL and the short form name that record
    /// and no `xmp:Identifier` claims a number.
    pub fn consistent(&self) -> bool {
        let Some(n) = self.found() else {
            let x = self.xmp.as_ref();
            let Some(url) = self.url() else {
                return x.is_none_or(|x| x.identifiers.is_empty())
                    && self.places().iter().all(|p| p.agrees);
            };
            let Some(code) = code_of(&url).filter(|c| format!("{URL_BASE}{c}") == url) else {
                return false;
            };
            let short = format!("{NUMBER_SCHEME}{}", &code[..SHORT_LEN]);
            return self.info_url.as_ref().is_none_or(|u| *u == url)
                && x.is_none_or(|x| {
                    x.url.as_ref().is_none_or(|v| *v == url)
                        && x.short.as_ref().is_none_or(|v| *v == short)
                        && x.identifiers.is_empty()
                        && x.relations.iter().all(|v| *v == url)
                });
        };
        // A full number gives its short form and URL; a yearless value (older `pith.sty`
        // versions wrote the bare code as the number) names its record by code alone.
        let (short, url) = match Mark::parse(&n) {
            Some(m) => (m.short, m.url),
            None => match code_of(&n) {
                Some(c) => (
                    format!("{NUMBER_SCHEME}{}", &c[..SHORT_LEN]),
                    format!("{URL_BASE}{c}"),
                ),
                None => return false,
            },
        };
        let ok_info = self.info_number.as_ref().is_none_or(|i| *i == n)
            && self.info_url.as_ref().is_none_or(|u| *u == url);
        let ok_xmp = self.xmp.as_ref().is_none_or(|x| {
            x.number.as_ref().is_none_or(|v| *v == n)
                && x.short.as_ref().is_none_or(|v| *v == short)
                && x.url.as_ref().is_none_or(|v| *v == url)
                && x.identifiers.iter().all(|v| *v == n)
                && x.relations.iter().all(|v| *v == url)
        });
        ok_info && ok_xmp && self.places().iter().all(|p| p.agrees)
    }

    /// The PDF/A claim, e.g. `PDF/A-1B`.
    pub fn pdfa(&self) -> Option<String> {
        let x = self.xmp.as_ref()?;
        let part = x.pdfa_part.as_ref()?;
        Some(format!(
            "PDF/A-{part}{}",
            x.pdfa_conformance.as_deref().unwrap_or("").to_uppercase()
        ))
    }
}

/// Which place holds a number ([`Place::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PlaceKind {
    /// The Info dictionary (`/PithNumber`, `/PithURL`).
    Info,
    /// The XMP packet (`pith:*`, `xmp:Identifier`, `dc:relation`).
    Xmp,
    /// The badge `pith.sty` printed on page 1.
    Badge,
    /// pith's stamp on page 1.
    Stamp,
    /// A page-1 link annotation to a record URL.
    Link,
    /// Number text on page 1 that pith did not draw and cannot rewrite.
    Text,
}

/// One place a number lives in a file ([`Inspection::places`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Which place.
    pub kind: PlaceKind,
    /// What it holds: the number (full or short form) or the record URL.
    pub holds: String,
    /// The object, for page 1's places.
    pub object: Option<crate::Ref>,
    /// Whether pith wrote it (and can rewrite it).
    pub marked: bool,
    /// Whether it names the record the file names.
    pub agrees: bool,
}

impl Place {
    fn new(
        kind: PlaceKind,
        holds: String,
        object: Option<crate::Ref>,
        marked: bool,
        agrees: bool,
    ) -> Self {
        Place {
            kind,
            holds,
            object,
            marked,
            agrees,
        }
    }
}

/// Reads the Pith values, the PDF/A claim, signatures and update count from a PDF.
///
/// # Errors
/// As [`Pdf::open`](super::Pdf::open); an unreadable XMP packet is reported in
/// [`Inspection::xmp_error`], not as an error.
pub fn inspect<R: ReadAt>(src: R) -> Result<Inspection, Error> {
    inspect_with(src, Check::Sampled, None)
}

/// [`inspect`] with the given xref check: [`Check::Full`] (`pith inspect --deep`) verifies
/// every entry against the file and fails on the first bad one, in file order.
///
/// # Errors
/// As [`inspect`].
pub fn inspect_checked<R: ReadAt>(src: R, check: Check) -> Result<Inspection, Error> {
    inspect_with(src, check, None)
}

/// [`inspect`] for an encrypted file whose user password is not empty: `password` is its
/// user or owner password. A file that cannot be opened is reported in
/// [`Inspection::not_read`], without values, not as an error.
///
/// # Errors
/// As [`inspect`].
pub fn inspect_with_password<R: ReadAt>(
    src: R,
    password: Option<&[u8]>,
) -> Result<Inspection, Error> {
    inspect_with(src, Check::Sampled, password)
}

/// [`inspect`] with both choices: the xref `check` and the `password` of an encrypted file.
///
/// # Errors
/// As [`inspect`].
pub fn inspect_with<R: ReadAt>(
    src: R,
    check: Check,
    password: Option<&[u8]>,
) -> Result<Inspection, Error> {
    inspect_opts(
        src,
        &InspectOptions {
            check,
            password: password.map(<[u8]>::to_vec),
            ..InspectOptions::default()
        },
    )
}

/// How [`inspect_opts`] reads a file: every choice of the `inspect*` functions, and the
/// budget.
#[derive(Debug, Clone, Default)]
pub struct InspectOptions {
    /// How thoroughly the xref is checked ([`Check::Sampled`] by default).
    pub check: Check,
    /// The user or owner password of an encrypted file whose user password is not empty.
    pub password: Option<Vec<u8>>,
    /// The most reading the file may cost ([`Limits::default`]).
    pub limits: Limits,
    /// Stops the work when cancelled or past its deadline ([`Stop::never`] by default).
    pub stop: Stop,
}

/// [`inspect`] with every choice in one value, the budget included.
///
/// # Errors
/// As [`inspect`], and [`ErrorKind::OverLimit`](crate::ErrorKind::OverLimit),
/// [`ErrorKind::Stopped`](crate::ErrorKind::Stopped).
pub fn inspect_opts<R: ReadAt>(src: R, opts: &InspectOptions) -> Result<Inspection, Error> {
    let budget = Budget::new(opts.limits, opts.stop.clone());
    let doc = load_checked(src, opts.check, opts.password.as_deref(), budget)?;
    let mut ins = Inspection {
        version: doc.pdf.version().to_string(),
        xref_stream: doc.pdf.xref_kind() == XrefKind::Stream,
        sections: doc.pdf.sections(),
        encrypted: doc.encrypted,
        uncommitted: doc.pdf.uncommitted(),
        encryption: doc.encryption.clone(),
        not_read: doc.not_opened.clone().map(|k| Error::new(k).to_string()),
        not_opened: doc.not_opened.clone(),
        ..Inspection::default()
    };
    if doc.not_opened.is_none() {
        if let Some((d, _)) = &doc.info {
            (ins.info_number, ins.info_url) = info::read(d);
            (ins.info_subject, ins.info_keywords) = info::described(d);
        }
        if let Some(p) = &doc.packet {
            match xmp::read(p) {
                Ok(v) => ins.xmp = Some(v),
                Err(e) => ins.xmp_error = Some(e.to_string()),
            }
        }
    }
    let cat = doc.catalog();
    if doc.not_opened.is_none() {
        // A page tree pith cannot follow leaves page 1 unread, not the file unreadable. The
        // links to records come from the same walk of page 1 as the rest of what it prints.
        ins.printed = printed::read(&doc.pdf, &cat)
            .map(|p| p.places)
            .unwrap_or_default();
        ins.page_links = ins
            .printed
            .iter()
            .filter(|p| p.kind == Kind::Link)
            .filter_map(|p| p.url.clone())
            .filter(|u| u.starts_with(URL_BASE))
            .collect();
    }
    ins.signatures = count_signatures(&doc.pdf, &cat)?;
    ins.docmdp = docmdp(&doc.pdf, &cat)?;
    // A limit reached or a stop inside a part read tolerantly (page 1) refuses the whole
    // file: never an inspection with parts silently missing.
    doc.pdf.budget().verdict()?;
    Ok(ins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Identifier;

    #[test]
    fn agreement() {
        let n = crate::Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let mut i = Inspection {
            info_number: Some(n.full()),
            info_url: Some(n.url()),
            ..Inspection::default()
        };
        assert!(i.consistent());
        assert_eq!(i.found(), Some(n.full()));
        i.info_url = Some("https://example.org/".into());
        assert!(!i.consistent());
        assert!(Inspection::default().consistent());
        assert_eq!(Inspection::default().pdfa(), None);
    }

    /// `\pithnumber{<26>}` writes the record URL and the short form, no number.
    #[test]
    fn url_only() {
        let n = Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let code = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
        let mut i = Inspection {
            info_url: Some(n.url()),
            xmp: Some(xmp::Values {
                url: Some(n.url()),
                short: Some(n.short()),
                relations: vec![n.url()],
                ..xmp::Values::default()
            }),
            ..Inspection::default()
        };
        assert!(i.consistent());
        assert_eq!(i.found(), None);
        assert!(i.number().is_none());
        assert_eq!(i.code().as_deref(), Some(code));
        assert_eq!(i.url(), Some(n.url()));
        assert!(i.url_only());
        // Another record's short form, or an identifier without a number, disagree.
        i.xmp.as_mut().unwrap().short = Some("pith:AAAAAAAA".into());
        assert!(!i.consistent());
        i.xmp.as_mut().unwrap().short = Some(n.short());
        i.xmp.as_mut().unwrap().identifiers = vec!["pith:2024:X".into()];
        assert!(!i.consistent());
        // Older pith.sty versions wrote the bare code as /PithNumber: a code, no number.
        let old = Inspection {
            info_number: Some(code.into()),
            info_url: Some(n.url()),
            ..Inspection::default()
        };
        assert!(old.consistent() && old.url_only() && old.number().is_none());
        // The full number is not URL-only.
        let full = Inspection {
            info_number: Some("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into()),
            ..Inspection::default()
        };
        assert!(!full.url_only() && full.number().is_some());
    }
}
