//! Verifying a PDF: the number it carries ([`claim`]: XMP `pith:number`, else Info
//! `/PithNumber`, else the record link alone: XMP `pith:url`/`dc:relation`, Info `/PithURL`,
//! else the link of the stamp or badge on page 1),
//! the record of that number (from the resolver, or given: a record or a bundle), and the
//! checks ([`verify()`]): the record's hash against the number, what a wrapper or bundle states
//! beside it, and the receipt signatures.
//!
//! A number the resolver has no record of is an unmade check ([`CheckKind::Lookup`], whose
//! verdict is [`verify::Verdict::Unknown`]), never a pass and never a mismatch: the number may
//! name a version not yet announced. A PDF carrying only the record link (a bare 26-character code) is checked through
//! the link's code. What the PDF claims to be (arXiv id and version) is the record's source.

use super::client::Client;
use super::mirrors::Mirror;
use super::resolver;
use super::{Error, ErrorKind};
use crate::number::{NumberRef, PithNumber};
use crate::pdf::Inspection;
use crate::record::Record;
use crate::verify::{self, Bundle, Check, CheckKind, CheckStatus as Status, Key, Report};

/// Where in the PDF the number was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// XMP `pith:number`.
    Xmp,
    /// Info `/PithNumber`.
    Info,
    /// Only the record link: XMP `pith:url` or `dc:relation`, or Info `/PithURL`.
    Link,
    /// Only a link on page 1: the stamp's, or the badge link pith.sty writes.
    Page,
}

impl Place {
    /// A short name: `XMP`, `Info`, `record link`, `page 1 link`.
    pub fn name(self) -> &'static str {
        match self {
            Place::Xmp => "XMP",
            Place::Info => "Info",
            Place::Link => "record link",
            Place::Page => "page 1 link",
        }
    }
}

/// The number a PDF carries, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The number (without a year when the PDF gives only the code).
    pub number: PithNumber,
    /// Where it was found.
    pub place: Place,
}

/// The number a PDF carries: XMP, else Info, else the record link, else a record link on
/// page 1 (stamp or badge); the first that parses.
pub fn claim(ins: &Inspection) -> Option<Claim> {
    let x = ins.xmp.as_ref();
    let candidates = [
        (x.and_then(|x| x.number.clone()), Place::Xmp),
        (ins.info_number.clone(), Place::Info),
        (x.and_then(|x| x.url.clone()), Place::Link),
        (ins.info_url.clone(), Place::Link),
        (x.and_then(|x| x.relations.first().cloned()), Place::Link),
        (ins.page_links.first().cloned(), Place::Page),
    ];
    candidates.into_iter().find_map(|(v, place)| {
        let n = PithNumber::parse(v?.trim()).ok()?;
        Some(Claim { number: n, place })
    })
}

/// A resolver: where the record and bundle of a code are looked up. The network client
/// ([`Client`], with its cache) is one; a server answering from its own index is another, and
/// because both go through [`verify()`] the same way, a PDF checked by either gets the same
/// checks.
pub trait Lookup: std::fmt::Debug + Sync {
    /// The record of `code` (26 characters), with what the resolver states beside it.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] when the resolver has no record of `code` (an unmade check, not
    /// an error, to [`verify()`]); any other error stops the check.
    fn record(&self, code: &str) -> Result<resolver::Resolved, Error>;
    /// The bundle of `code`, `None` when the resolver has none.
    ///
    /// # Errors
    /// [`ErrorKind::NotCached`] when offline and never fetched (its receipts are then
    /// unchecked); any other error stops the check.
    fn bundle(&self, code: &str) -> Result<Option<Bundle>, Error>;
    /// The URL of the record of `code`, named when the resolver has none.
    fn record_url(&self, code: &str) -> String;
    /// How the checks name this resolver in their sentences (`the resolver`; a server
    /// checking an upload against its own index says `this mirror`).
    fn name(&self) -> &str {
        "the resolver"
    }
    /// The record of `code` as [`Lookup::record`] gives it, with the mirror that answered
    /// when mirrors are asked in turn (`None`: this resolver alone, or its cache).
    ///
    /// # Errors
    /// As [`Lookup::record`].
    fn record_from(&self, code: &str) -> Result<(resolver::Resolved, Option<Mirror>), Error> {
        self.record(code).map(|r| (r, None))
    }
    /// The bundle of `code` as [`Lookup::bundle`] gives it, with the mirror that answered;
    /// mirrors asked in turn believe a bundle only when a receipt in it verifies with `keys`,
    /// the keys the user pinned.
    ///
    /// # Errors
    /// As [`Lookup::bundle`].
    fn bundle_from(&self, code: &str, keys: &[Key]) -> Result<resolver::BundleAnswer, Error> {
        let _ = keys;
        self.bundle(code).map(|bundle| resolver::BundleAnswer {
            bundle,
            mirror: None,
        })
    }
}

impl Lookup for Client {
    fn record(&self, code: &str) -> Result<resolver::Resolved, Error> {
        resolver::record(self, code)
    }
    fn bundle(&self, code: &str) -> Result<Option<Bundle>, Error> {
        resolver::bundle(self, code)
    }
    fn record_url(&self, code: &str) -> String {
        resolver::record_url(&self.settings().resolver_url, code)
    }
    fn record_from(&self, code: &str) -> Result<(resolver::Resolved, Option<Mirror>), Error> {
        resolver::record_from(self, code)
    }
    fn bundle_from(&self, code: &str, keys: &[Key]) -> Result<resolver::BundleAnswer, Error> {
        resolver::bundle_from(self, code, keys)
    }
}

/// Where the record to check against comes from.
#[derive(Debug)]
pub enum Against<'a> {
    /// A resolver: the network client (and its cache), or a server's own index.
    Resolver(&'a dyn Lookup),
    /// A record given by the caller.
    Record(Record),
    /// A bundle given by the caller.
    Bundle(Bundle),
}

/// What verifying a PDF found.
#[derive(Debug, Clone)]
pub struct PdfReport {
    /// The number the PDF carries.
    pub claim: Claim,
    /// The record checked against, when one was found.
    pub record: Option<Record>,
    /// The checks; its [`Report::verdict`] is the answer.
    pub report: Report,
    /// A newer version of the paper, when the resolver names one (a note, not a check).
    pub newer_version: Option<resolver::NewerVersion>,
    /// The mirror that answered (the bundle's, else the record's), when a mirror manifest
    /// named the mirrors asked.
    pub mirror: Option<Mirror>,
}

impl PdfReport {
    /// The versioned arXiv id the PDF claims to be (`2402.03791v3`), from the record.
    pub fn arxiv_id(&self) -> Option<String> {
        self.record
            .as_ref()
            .map(|r| format!("{}v{}", r.source.id, r.source.version))
    }
}

/// Verifies what an inspected PDF carries against its record.
///
/// # Errors
/// [`ErrorKind::NoNumber`] when the PDF carries none; from the resolver, as
/// [`resolver::record`] and [`resolver::bundle`] (a 404 for the record is an unmade
/// [`CheckKind::Lookup`] check, not an error).
pub fn verify(ins: &Inspection, source: Against<'_>, keys: &[Key]) -> Result<PdfReport, Error> {
    let claim = claim(ins).ok_or_else(|| Error::from(ErrorKind::NoNumber))?;
    let code = claim.number.code().to_owned();
    let claimed = NumberRef::Full(claim.number.clone());
    let mut report = Report::default();
    let mut bundle = None;
    let mut newer_version = None;
    let mut mirror = None;
    let record = match source {
        Against::Record(r) => Some(r),
        Against::Bundle(b) => {
            let r = b.record().clone();
            bundle = Some(b);
            Some(r)
        }
        Against::Resolver(lookup) => match lookup.record_from(&code) {
            Ok((res, from)) => {
                mirror = from;
                let hash = res.record.canonical_sha256();
                let n = res.record.number();
                if let Some(s) = &res.stated_sha256 {
                    report.push(Check::new(
                        CheckKind::Claim,
                        "canonical_sha256",
                        if s.eq_ignore_ascii_case(&hash) {
                            Status::Ok
                        } else {
                            Status::Mismatch
                        },
                        format!("{} states {s}; the record hashes to {hash}", lookup.name()),
                    ));
                }
                if let Some(s) = &res.stated_number {
                    let ok =
                        PithNumber::parse(s).is_ok_and(|p| p.matches(&NumberRef::Full(n.clone())));
                    report.push(Check::new(
                        CheckKind::Claim,
                        "stated pith_number",
                        if ok { Status::Ok } else { Status::Mismatch },
                        format!("{} states {s}; the record's number is {n}", lookup.name()),
                    ));
                }
                let missing = match lookup.bundle_from(&code, keys) {
                    Ok(resolver::BundleAnswer {
                        bundle: Some(b),
                        mirror: from,
                    }) => {
                        bundle = Some(b);
                        if from.is_some() {
                            mirror = from;
                        }
                        None
                    }
                    Ok(_) => Some(format!(
                        "{} has no bundle (and so no receipt) for this number",
                        lookup.name()
                    )),
                    // Offline, a bundle never fetched (or that the resolver did not have) is
                    // not known: its receipts are unchecked, not failed.
                    Err(e) if matches!(e.kind(), ErrorKind::NotCached) => Some(
                        "no bundle in the cache (offline), so no receipt was checked".to_owned(),
                    ),
                    Err(e) => return Err(e),
                };
                if let Some(why) = missing {
                    report.push(Check::new(
                        CheckKind::Receipts,
                        "receipt",
                        Status::Unverified,
                        why,
                    ));
                }
                newer_version = res.newer_version;
                Some(res.record)
            }
            Err(e) if matches!(e.kind(), ErrorKind::NotFound) => {
                report.push(Check::new(
                    CheckKind::Lookup,
                    "record",
                    Status::Unverified,
                    format!(
                        "{} has no record of {} ({})",
                        lookup.name(),
                        claim.number,
                        lookup.record_url(&code)
                    ),
                ));
                None
            }
            Err(e) => return Err(e),
        },
    };
    if let Some(r) = &record {
        report.checks.insert(
            0,
            Check::new(
                CheckKind::Record,
                "canonical_record",
                Status::Ok,
                format!("canonical sha256 {}", r.canonical_sha256()),
            ),
        );
        report.push(verify::record_against_number(r, &claimed));
    }
    if let Some(b) = &bundle {
        report.checks.extend(
            b.check(keys)
                .checks
                .into_iter()
                .filter(|c| c.kind != CheckKind::Record),
        );
        if let Some(r) = &record {
            if b.record() != r {
                report.push(Check::new(
                    CheckKind::Claim,
                    "bundle",
                    Status::Mismatch,
                    "the bundle's record is not the record it was checked against",
                ));
            }
        }
    }
    // A later update can rewrite one place and leave the others: the number read first is then
    // not the only one the file claims, and the file cannot be said to carry it.
    if ins.not_read.is_none() && !ins.consistent() {
        report.push(Check::new(
            CheckKind::Metadata,
            "pdf metadata",
            Status::Mismatch,
            format!(
                "the places in the PDF that hold the number do not agree (XMP {}, Info {})",
                ins.xmp
                    .as_ref()
                    .and_then(|x| x.number.as_deref())
                    .unwrap_or("none"),
                ins.info_number.as_deref().unwrap_or("none")
            ),
        ));
    }
    Ok(PdfReport {
        claim,
        record,
        report,
        newer_version,
        mirror,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stamp_link_is_read_when_nothing_else_is() {
        let pdf = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/minimal.pdf"
        ))
        .unwrap();
        let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let mut opts = crate::pdf::Options::new("2024-01-01T00:00:00Z");
        opts.stamp = Some(crate::pdf::stamp::Stamp::default());
        let inj = crate::pdf::inject(pdf.clone(), &n, &opts).unwrap();
        let mut out = pdf;
        out.extend_from_slice(&inj.appended);
        let mut ins = crate::pdf::inspect(out).unwrap();
        assert_eq!(ins.page_links, [n.url()]);
        assert_eq!(claim(&ins).unwrap().place, Place::Xmp);
        // Without the metadata, the stamp's link still names the code.
        ins.xmp = None;
        ins.info_number = None;
        ins.info_url = None;
        let c = claim(&ins).unwrap();
        assert_eq!((c.place, c.number.code()), (Place::Page, n.code()));
        assert_eq!(c.number.year(), None);
    }

    #[test]
    fn metadata_that_disagree_fail_the_check() {
        let pdf = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/minimal.pdf"
        ))
        .unwrap();
        let recs: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
        let record = Record::from_value(&recs[0]["canonical_record"]).unwrap();
        let n = record.number();
        let opts = crate::pdf::Options::new("2024-01-01T00:00:00Z");
        let inj = crate::pdf::inject(pdf.clone(), &n, &opts).unwrap();
        let mut out = pdf;
        out.extend_from_slice(&inj.appended);
        let mut ins = crate::pdf::inspect(out).unwrap();
        let keys = [Key::registry()];
        let holds = |ins: &Inspection| {
            verify(ins, Against::Record(record.clone()), &keys)
                .unwrap()
                .report
                .holds()
        };
        assert!(holds(&ins));
        ins.info_number = Some("pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA".into());
        assert!(!holds(&ins));
    }
}
