//! The verify job: a PDF's number against its record (the resolver's, or one the caller
//! holds), a record against a number and texts, a bundle and its receipts, a signature. One
//! request, one report ([`VerifyReport`]): `pith verify --json` prints it, Python returns it,
//! a server answers with it. The verdict is one key, `verdict`.
//!
//! A PDF that carries no number is a report too ([`Verdict::NoNumber`]), not an error: the
//! front ends exit 1 for it as for a mismatch. The network is used only for a PDF with no
//! record or bundle given (the resolver, or its cache) and for an arXiv input.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::input::RecordSource;
use super::{Error, ErrorKind, Source};
use crate::net::pdfcheck::{self, Claim};
use crate::net::resolver::NewerVersion;
use crate::net::{self};
use crate::number::NumberRef;
use crate::pdf;
use crate::record::Record;
use crate::verify::{self, Bundle, Check, CheckKind, CheckStatus, Key, Report, TextField, Verdict};

/// What to verify: `pith verify` (with its capture form) and Python's verify functions as
/// data. Give a PDF, or a record (or bundle) with what to check against it. Every door builds
/// this from its arguments and nothing else; [`VerifyRequest::validate`] refuses what does not
/// hold together, and the job resolves the keys ([`super::pinned_keys`]) and the deadline
/// ([`super::stop::file_bound`]).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerifyRequest {
    /// A PDF file whose number is checked against its record.
    pub pdf: Option<PathBuf>,
    /// A PDF's bytes instead of a file (a server's upload), with the name reports give it.
    #[serde(skip)]
    pub pdf_bytes: Option<PdfBytes>,
    /// The password of an encrypted PDF (never written out with the request).
    #[serde(skip)]
    pub password: Option<Vec<u8>>,
    /// The number to check the record against (any form; a short alias by its prefix).
    pub number: Option<String>,
    /// The record (for a PDF: instead of the resolver's).
    pub record: Option<RecordSource>,
    /// A bundle: its record, numbers and receipts (for a PDF: instead of the resolver's).
    pub bundle: Option<Bundle>,
    /// Texts to check against the record's canonical-text hashes.
    pub texts: Vec<(TextField, String)>,
    /// A base64 receipt signature over the record's canonical hash (or `sha256`).
    pub signature: Option<String>,
    /// With a signature and no record: the canonical sha256 (hex) that was signed.
    pub sha256: Option<String>,
    /// Public keys accepted besides the registry's and those `PITH_KEYS` pins, as given
    /// (base64, hex, or a file holding one): `--key`, Python's `keys=`, an index's trusted
    /// keys. The job reads them with the others ([`super::pinned_keys`]).
    pub keys: Vec<String>,
    /// How long reading the PDF (or a capture) may take, in seconds: 0 is no bound, left out
    /// the library's per-file deadline ([`super::stop::file_bound`]). A caller's own
    /// stop token (`stop`) that bounds the work is used instead.
    pub file_timeout: Option<f64>,
    /// How arXiv and the resolver are asked (the door's environment: cache, callbacks).
    #[serde(skip)]
    pub net: net::Settings,
    /// For a PDF with no record or bundle given: the resolver to ask instead of the network's
    /// (a server checking an upload against its own index). `None`: the network client, with
    /// `net`'s settings.
    #[serde(skip)]
    pub resolver: Option<Arc<dyn pdfcheck::Lookup + Send>>,
    /// Stops reading the PDF when cancelled or past its deadline: a server's check that timed
    /// out ends, and frees what it held.
    #[serde(skip)]
    pub stop: pdf::Stop,
    /// Internet Archive captures to compare the PDF with, byte for byte ([`run_captures`]):
    /// that question takes the PDF alone, nothing to check it against.
    pub captures: Vec<super::capture::CaptureSource>,
}

/// A PDF given as bytes ([`VerifyRequest::pdf_bytes`]).
#[derive(Debug, Clone, Default)]
pub struct PdfBytes {
    /// The file's bytes.
    pub data: Vec<u8>,
    /// The name reports give it (an upload's file name).
    pub name: String,
}

/// The report of a verification: `pith verify --json`, Python's verify functions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The PDF verified, when one was.
    pub file: Option<String>,
    /// The number the PDF carries (`pith:YYYY:<26>`, or the code alone when it gives no year).
    pub pith_number: Option<String>,
    /// Where the PDF carries it: `XMP`, `Info`, `record link`, `page 1 link`.
    pub found_in: Option<String>,
    /// The arXiv id of the record checked against.
    pub arxiv_id: Option<String>,
    /// Its version.
    pub arxiv_version: Option<u32>,
    /// Whether no check is a mismatch (and a PDF carries a number).
    pub holds: bool,
    /// The verdict: `verified`, `unverified`, `mismatch`, `no_number` or `unknown`.
    pub verdict: Verdict,
    /// The verdict as one sentence, the same at every door (the last line of `pith verify`,
    /// the check page's headline): the verdict in capitals, then what it means for this file.
    pub headline: String,
    /// The checks, in order.
    pub checks: Vec<Check>,
    /// A newer version of the paper than the record checked, when the resolver (a mirror)
    /// names one. A note for the reader: it changes no check and no verdict, since a newer
    /// version does not make the older number wrong.
    pub newer_version: Option<NewerVersion>,
    /// The mirror that answered, when a mirror manifest named the mirrors asked (`None`: the
    /// resolver alone, the cache, or a record or bundle given). Its answer was believed only
    /// as far as its checks hold, so it changes no verdict.
    pub mirror: Option<AnsweredBy>,
}

/// The mirror that answered a verification, as the manifest names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnsweredBy {
    /// Its name in the manifest.
    pub name: String,
    /// Its base URL.
    pub base_url: String,
}

impl VerifyReport {
    fn of(report: Report) -> Self {
        VerifyReport {
            file: None,
            pith_number: None,
            found_in: None,
            arxiv_id: None,
            arxiv_version: None,
            holds: report.holds(),
            verdict: report.verdict(),
            headline: String::new(),
            checks: report.checks,
            newer_version: None,
            mirror: None,
        }
    }

    /// Sets the headline from the other fields. It names no resolver and quotes no check's
    /// detail: the same file gets the same sentence from the CLI, Python and a mirror's check
    /// page, whose checks then say who was asked (`the resolver`, `this mirror`).
    fn finish(mut self) -> Self {
        self.headline = self.compose_headline();
        self
    }

    fn compose_headline(&self) -> String {
        let v = self.verdict;
        // What the first check of a status was about (`receipt`, `pith_number`).
        let about = |status: CheckStatus| {
            self.checks
                .iter()
                .find(|c| c.status == status)
                .map_or("a check", |c| c.subject.as_str())
        };
        let number = self.pith_number.as_deref().unwrap_or("the number");
        let paper = match (&self.arxiv_id, self.arxiv_version) {
            (Some(id), Some(ver)) => format!(" (arXiv:{id}v{ver})"),
            _ => String::new(),
        };
        let file = self.file.as_deref().unwrap_or("paper.pdf");
        let pdf = self.file.is_some();
        let text = match v {
            Verdict::Verified if pdf => {
                format!("{number} is the number of its record{paper}, and every check holds.")
            }
            Verdict::Verified => "every check holds.".to_owned(),
            Verdict::Unverified if !self.compares() => {
                "the record is valid, but nothing was checked against it.".to_owned()
            }
            Verdict::Unverified => {
                let lead = if pdf {
                    format!("{number} is the number of its record{paper}, but")
                } else {
                    "no check fails, but".to_owned()
                };
                let what = about(CheckStatus::Unverified);
                format!("{lead} the {what} could not be checked, so this is not a verified match.")
            }
            Verdict::Mismatch => {
                let what = about(CheckStatus::Mismatch);
                if pdf {
                    format!("{number} does not match its record: the {what} check fails.")
                } else {
                    format!("the {what} check fails.")
                }
            }
            Verdict::NoNumber => {
                format!("{file} carries no Pith Number (XMP, Info, record link, page 1).")
            }
            Verdict::Unknown => format!(
                "no record of {number} was found. It may name a version not yet announced: \
                 check it against arXiv with pith verify {file} --arxiv ID --next, ID being the \
                 paper's arXiv id."
            ),
        };
        format!("{v}: {text}")
    }

    /// The verdict as one sentence: the verdict in capitals, then what it means here
    /// (`UNKNOWN: no record of pith:… was found. …`). Every door prints this sentence.
    pub fn headline(&self) -> &str {
        &self.headline
    }

    /// Whether the front ends exit 0: every check holds and a number was found and known.
    pub fn is_ok(&self) -> bool {
        self.holds && self.verdict.is_ok()
    }

    /// Whether nothing was compared with the record (a record alone is valid, not verified).
    pub fn compares(&self) -> bool {
        self.checks.iter().any(|c| c.kind != CheckKind::Record)
    }
}

impl VerifyRequest {
    /// Refuses a request whose parts contradict each other, once for every door: the
    /// capture form takes the PDF file alone (a bundle, key, record, number, text or
    /// signature is refused, not dropped; a capture given as the PDF is named as swapped); a
    /// PDF is checked against the record it names (no number, texts, signature or sha256); a
    /// record comes from a bundle or a record input, not both; a number, a text or a
    /// signature needs something to be checked against; and something must be asked.
    ///
    /// # Errors
    /// [`ErrorKind::Request`], one sentence for each contradiction.
    pub fn validate(&self) -> Result<(), Error> {
        if !self.captures.is_empty() {
            return self.validate_captures();
        }
        if self.record.is_some() && self.bundle.is_some() {
            return Err(request(
                "a bundle carries its own record: give a bundle or a record, not both",
            ));
        }
        if self.pdf.is_some() || self.pdf_bytes.is_some() {
            if self.signature.is_some() || self.sha256.is_some() {
                return Err(request("a signature and a sha256 check a record, not a PDF; the PDF's receipts come with its bundle"));
            }
            if self.number.is_some() || !self.texts.is_empty() {
                return Err(request(
                    "a PDF is checked against the number it carries: give no number or texts with it",
                ));
            }
            return Ok(());
        }
        let has_record = self.record.is_some() || self.bundle.is_some();
        if self.number.is_some() && !has_record {
            return Err(request(
                "a number alone cannot be verified: give its record, bundle or the paper's fields",
            ));
        }
        if !self.texts.is_empty() && !has_record {
            return Err(request(
                "a title or abstract needs a record to check against",
            ));
        }
        if self.signature.is_some() && !has_record && self.sha256.is_none() {
            return Err(request("a signature needs a record or a sha256"));
        }
        if !has_record && self.signature.is_none() {
            return Err(request(
                "nothing to verify: give a PDF, a record, a bundle or a signature",
            ));
        }
        Ok(())
    }

    /// The capture form's part of [`VerifyRequest::validate`].
    fn validate_captures(&self) -> Result<(), Error> {
        use super::capture::CaptureSource;
        let Some(pdf) = self.pdf.as_deref() else {
            return Err(request(
                "a capture is compared with a PDF: give the PDF before --capture",
            ));
        };
        let named = |p: &std::path::Path| p.to_string_lossy().to_ascii_lowercase();
        let capture_like = |p: &std::path::Path| {
            let n = named(p);
            [".warc", ".warc.gz", ".cdx", ".cdx.json"]
                .iter()
                .any(|e| n.ends_with(e))
        };
        let pdf_capture = self.captures.iter().find_map(|c| match c {
            CaptureSource::File(f) if named(f).ends_with(".pdf") => Some(f),
            _ => None,
        });
        if let (true, Some(f)) = (capture_like(pdf), pdf_capture) {
            return Err(request(&format!(
                "the PDF and the captures are the wrong way round: pith verify {} --capture {}",
                f.display(),
                pdf.display()
            )));
        }
        if self.bundle.is_some() || !self.keys.is_empty() {
            return Err(request(
                "a capture is compared with the PDF's bytes alone: give no --bundle or --key with --capture (verify the receipts without --capture)",
            ));
        }
        if self.record.is_some()
            || self.number.is_some()
            || !self.texts.is_empty()
            || self.signature.is_some()
            || self.sha256.is_some()
        {
            return Err(request(
                "a capture is compared with the PDF's bytes alone: give no record, number, text or signature with --capture",
            ));
        }
        Ok(())
    }
}

fn request(m: &str) -> Error {
    Error::new(ErrorKind::Request(m.into()))
}

/// The keys of this run: the registry's, those given and those `PITH_KEYS` pins.
fn keys(given: &[String]) -> Result<Vec<Key>, Error> {
    super::pinned_keys(given)
}

impl VerifyRequest {
    /// The token that bounds reading the PDF and its captures: the caller's when it bounds
    /// the work, else one with the request's deadline ([`super::stop::file_bound`]: 0 is no
    /// bound, left out the per-file deadline).
    fn stop(&self) -> pdf::Stop {
        if !self.stop.is_never() {
            return self.stop.clone();
        }
        match super::stop::file_bound(self.file_timeout) {
            Some(bound) => pdf::Stop::after(bound),
            None => pdf::Stop::never(),
        }
    }

    /// The PDF to read, file or bytes.
    fn source(&self) -> Option<Source<'_>> {
        match (&self.pdf, &self.pdf_bytes) {
            (Some(p), _) => Some(Source::File(p)),
            (None, Some(b)) => Some(Source::Bytes {
                data: &b.data,
                name: &b.name,
            }),
            (None, None) => None,
        }
    }
}

/// Runs a verification.
///
/// # Errors
/// [`ErrorKind::Request`] when there is nothing to verify or the inputs contradict each
/// other; [`ErrorKind::Pdf`] when the PDF cannot be read; [`ErrorKind::Input`],
/// [`ErrorKind::BadNumber`], [`ErrorKind::Verify`] for inputs that cannot be read or
/// decoded; [`ErrorKind::Net`] when the resolver or arXiv cannot answer. A mismatch is a
/// report, never an error.
pub fn run(req: &VerifyRequest) -> Result<VerifyReport, Error> {
    if !req.captures.is_empty() {
        return Err(request(
            "captures are compared with a PDF by their own check, whose report is another",
        ));
    }
    req.validate()?;
    match req.source() {
        Some(pdf) => run_pdf(req, pdf),
        None => run_record(req),
    }
}

/// What the one argument of a verification names, at every door that takes it as text: a PDF
/// to check (`Some`), or the number to check a record against (`None`; parsed as the request
/// runs).
///
/// # Errors
/// [`ErrorKind::Request`] for a folder: a verification checks one PDF.
pub fn pdf_or_number(arg: &str) -> Result<Option<std::path::PathBuf>, Error> {
    let path = std::path::Path::new(arg);
    if crate::NumberRef::parse(arg).is_ok() {
        return Ok(None);
    }
    if path.is_dir() {
        return Err(request(
            "is a folder: a verification checks one PDF, or a record against a number",
        )
        .in_file(path));
    }
    let pdf = arg.to_ascii_lowercase().ends_with(".pdf") || path.is_file();
    Ok(pdf.then(|| path.to_path_buf()))
}

/// Whether the PDF of `req` is, byte for byte, what one of its captures holds: `pith verify
/// PDF --capture …` at every door.
///
/// # Errors
/// [`ErrorKind::Request`] when no PDF file is given, when anything is given to check it
/// against (a record, bundle, key, number, text or signature: a capture is compared with the
/// bytes alone), and when the PDF and a capture are given the wrong way round; then the
/// errors of [`super::capture::compare`].
pub fn run_captures(
    req: &VerifyRequest,
) -> Result<super::capture::CaptureReport, super::capture::CaptureError> {
    req.validate()?;
    let Some(pdf) = req.pdf.as_deref() else {
        return Err(
            request("a capture is compared with a PDF: give the PDF before --capture").into(),
        );
    };
    // A capture file is read within the time one file may take, as every file of a run is.
    let limits = crate::capture::Limits {
        stop: req.stop(),
        ..Default::default()
    };
    super::capture::compare(pdf, &req.captures, &limits, &req.net)
}

fn run_pdf(req: &VerifyRequest, source: Source<'_>) -> Result<VerifyReport, Error> {
    let keys = keys(&req.keys)?;
    let in_file = |e: pdf::Error| match source {
        Source::File(p) => Error::from(e.in_file(p)),
        Source::Bytes { .. } => Error::from(e),
    };
    let opts = pdf::InspectOptions {
        check: pdf::Check::Sampled,
        password: req.password.clone(),
        stop: req.stop(),
        ..pdf::InspectOptions::default()
    };
    let ins = match source {
        Source::File(p) => {
            let file =
                std::fs::File::open(p).map_err(|e| in_file(pdf::Error::io("cannot open", e)))?;
            pdf::inspect_opts(&file, &opts)
        }
        Source::Bytes { data, .. } => pdf::inspect_opts(data, &opts),
    }
    .map_err(in_file)?;
    // A file that cannot be opened has no values to read: that is an error (a password is
    // needed, or wrong), not a file without a number.
    if let Some(kind) = ins.not_opened.clone() {
        return Err(in_file(pdf::Error::new(kind)));
    }
    let file = Some(match source {
        Source::File(p) => p.display().to_string(),
        Source::Bytes { name, .. } => name.to_owned(),
    });
    let Some(claim) = pdfcheck::claim(&ins) else {
        let mut r = VerifyReport::of(Report::default());
        r.file = file;
        r.holds = false;
        r.verdict = Verdict::NoNumber;
        return Ok(r.finish());
    };
    let against = match (&req.record, &req.bundle) {
        (Some(input), _) => pdfcheck::Against::Record(input.record(&req.net)?),
        (None, Some(b)) => pdfcheck::Against::Bundle(b.clone()),
        (None, None) => {
            let client;
            let lookup: &dyn pdfcheck::Lookup = match &req.resolver {
                Some(l) => l.as_ref(),
                None => {
                    client = net::Client::new(&req.net).map_err(net_error)?;
                    &client
                }
            };
            let found = pdfcheck::verify(&ins, pdfcheck::Against::Resolver(lookup), &keys)
                .map_err(net_error)?;
            let mut r = pdf_report(file, &found.claim, found.record.as_ref(), found.report);
            r.newer_version = found.newer_version;
            r.mirror = found.mirror.map(|m| AnsweredBy {
                name: m.name,
                base_url: m.base_url,
            });
            return Ok(r.finish());
        }
    };
    let found = pdfcheck::verify(&ins, against, &keys).map_err(net_error)?;
    Ok(pdf_report(file, &claim, found.record.as_ref(), found.report).finish())
}

fn net_error(e: net::Error) -> Error {
    Error::new(ErrorKind::Net(Box::new(e)))
}

fn pdf_report(
    file: Option<String>,
    claim: &Claim,
    record: Option<&Record>,
    report: Report,
) -> VerifyReport {
    let mut r = VerifyReport::of(report);
    r.file = file;
    r.pith_number = Some(claim.number.full());
    r.found_in = Some(claim.place.name().to_owned());
    r.arxiv_id = record.map(|r| r.source.id.clone());
    r.arxiv_version = record.map(|r| r.source.version);
    r
}

fn run_record(req: &VerifyRequest) -> Result<VerifyReport, Error> {
    let keys = keys(&req.keys)?;
    let mut report = Report::default();
    let record = match (&req.bundle, &req.record) {
        (Some(bundle), _) => {
            report.checks.extend(bundle.check(&keys).checks);
            Some(bundle.record().clone())
        }
        (None, Some(input)) => {
            let r = input.record(&req.net)?;
            report.push(Check::new(
                CheckKind::Record,
                "canonical_record",
                CheckStatus::Ok,
                format!(
                    "canonical sha256 {}, number {}",
                    r.canonical_sha256(),
                    r.number()
                ),
            ));
            Some(r)
        }
        (None, None) => None,
    };
    if let Some(n) = &req.number {
        let claimed = NumberRef::parse(n).map_err(|e| Error::new(ErrorKind::BadNumber(e)))?;
        if let Some(r) = &record {
            report.push(verify::record_against_number(r, &claimed));
        }
    }
    if let Some(r) = &record {
        for (field, text) in &req.texts {
            report.push(verify::text_against_record(*field, text, r));
        }
    }
    // What a signature signs: the sha256 given, else the record's hash
    // ([`VerifyRequest::validate`] refuses a signature with neither).
    let signed = match &req.sha256 {
        Some(h) => Some(verify::parse_sha256(h).map_err(verify_error)?),
        None => record.as_ref().map(Record::digest),
    };
    if let (Some(sig), Some(digest)) = (&req.signature, signed) {
        report.push(verify::signature(&digest, sig.trim(), &keys).map_err(verify_error)?);
    }
    let mut r = VerifyReport::of(report);
    r.arxiv_id = record.as_ref().map(|r| r.source.id.clone());
    r.arxiv_version = record.as_ref().map(|r| r.source.version);
    Ok(r.finish())
}

fn verify_error(e: verify::Error) -> Error {
    Error::new(ErrorKind::Verify(e))
}

/// Verifies the PDF at `path` against a record the caller holds, without the network.
///
/// # Errors
/// As [`run`].
pub fn pdf_against_record(path: &Path, record: Record) -> Result<VerifyReport, Error> {
    run(&VerifyRequest {
        pdf: Some(path.to_path_buf()),
        record: Some(RecordSource::Local(crate::record::LocalSource::Record(
            Box::new(record),
        ))),
        ..VerifyRequest::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(p: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
    }

    fn record() -> Record {
        Record::from_json(
            &std::fs::read_to_string(root("examples/2402.03791v3.record.json")).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn a_pdf_is_verified_against_a_record_held() {
        let pdf = std::fs::read(root("tests/fixtures/minimal.pdf")).unwrap();
        let n = record().number();
        let (numbered, _) = super::super::inject_bytes(&pdf, &n, &Default::default()).unwrap();
        let req = |data: &[u8], r: Record| {
            run(&VerifyRequest {
                pdf_bytes: Some(PdfBytes {
                    data: data.to_vec(),
                    name: "x".into(),
                }),
                record: Some(RecordSource::Local(crate::record::LocalSource::Record(
                    Box::new(r),
                ))),
                ..VerifyRequest::default()
            })
            .unwrap()
        };
        let ok = req(&numbered, record());
        assert_eq!(ok.verdict, Verdict::Verified, "{ok:?}");
        assert!(ok.is_ok());
        assert_eq!(ok.pith_number.as_deref(), Some(n.full().as_str()));
        let mut other = record();
        other.metadata.title_canon_sha256 = "0".repeat(64);
        let bad = req(&numbered, other);
        assert_eq!(bad.verdict, Verdict::Mismatch);
        let none = req(&pdf, record());
        assert_eq!(none.verdict, Verdict::NoNumber);
        assert!(!none.is_ok());
        let json = serde_json::to_value(&none).unwrap();
        assert_eq!(json["verdict"], "no_number");
        assert!(json.get("verified").is_none());
    }

    #[test]
    fn a_record_is_checked_against_a_number() {
        let input = || {
            Some(RecordSource::Local(crate::record::LocalSource::Record(
                Box::new(record()),
            )))
        };
        let r = run(&VerifyRequest {
            record: input(),
            number: Some("pith:7BMK4ZKT".into()),
            ..VerifyRequest::default()
        })
        .unwrap();
        assert_eq!(r.verdict, Verdict::Verified);
        let r = run(&VerifyRequest {
            record: input(),
            number: Some("pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA".into()),
            ..VerifyRequest::default()
        })
        .unwrap();
        assert_eq!(r.verdict, Verdict::Mismatch);
        let e = run(&VerifyRequest::default()).unwrap_err();
        assert_eq!(e.kind_name(), "request");
    }

    /// The caller's token reaches the readers of the PDF and its captures: a stopped check
    /// reads nothing to its end, and says why. (Without one, the per-file deadline bounds the
    /// files.)
    #[test]
    fn a_capture_file_is_read_under_the_callers_token() {
        let dir = tempfile::tempdir().unwrap();
        let cdx = dir.path().join("captures.cdx");
        let line = "org,arxiv)/pdf/2402.03791v3 20240301000000 https://arxiv.org/pdf/2402.03791v3 application/pdf 200 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA 1000\n";
        std::fs::write(&cdx, line.repeat(20_000)).unwrap();
        let pdf = root("tests/fixtures/minimal.pdf");
        let stop = pdf::Stop::new();
        stop.cancel();
        let e = run_captures(&VerifyRequest {
            pdf: Some(pdf.clone()),
            captures: vec![super::super::capture::CaptureSource::File(cdx.clone())],
            stop,
            ..VerifyRequest::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("stopped"), "{e}");
        let read = run_captures(&VerifyRequest {
            pdf: Some(pdf.clone()),
            captures: vec![super::super::capture::CaptureSource::File(cdx)],
            ..VerifyRequest::default()
        })
        .unwrap();
        assert_eq!(read.captures.len() + read.unlisted, 20_000);
    }
}
