//! The capture jobs: whether the Internet Archive holds a version's PDF, from captures pith
//! checks itself, by the one rule of [`crate::capture::evidence`].
//!
//! This module gathers what the rule is given: the PDFs pith read ([`pdf_read`]: a file, a
//! WARC payload; [`report_reads`]: the lines of batch and tar reports that show a PDF pith
//! recognised), the version a capture is judged for, and for a WARC record, whether its
//! payload is what its digest says ([`judge_warc`]). [`compare`] (`pith verify PDF --capture
//! …`) asks whether a user's file is, byte for byte, a capture that counts; `pith index
//! --captures` asks the same rule of every capture it is given.
//!
//! Reading the capture files is [`crate::capture`]'s, asking the CDX API [`crate::net::wayback`]'s.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::capture::evidence::{self, Payload, Read, Verdict, Version};
use crate::capture::{self, cdx, warc, Capture, Limits};
use crate::net::{self, pdfcheck};
use crate::number::PithNumber;
use crate::pdf;

/// A PDF pith reads, as evidence: its SHA-1, the number it carries and the arXiv version its
/// XMP names (what `pith inject` writes), or why it is not a PDF pith reads.
///
/// # Errors
/// The reason, one line.
pub fn pdf_read(bytes: &[u8], what: &str) -> Result<Read, String> {
    let opts = pdf::InspectOptions {
        check: pdf::Check::Sampled,
        ..pdf::InspectOptions::default()
    };
    let ins = pdf::inspect_opts(bytes, &opts)
        .map_err(|e| format!("{what} is not a PDF pith reads: {e}"))?;
    let names = ins.xmp.as_ref().and_then(|x| {
        x.schemes
            .iter()
            .find(|(k, _)| k == crate::vocab::SCHEME_ARXIV)
            .and_then(|(_, v)| arxiv_version_of(v))
    });
    Ok(Read {
        what: what.to_owned(),
        sha1: capture::sha1_base32(bytes),
        number: pdfcheck::claim(&ins).map(|c| c.number),
        names,
    })
}

/// `2402.03791v3` as its id and version.
fn arxiv_version_of(text: &str) -> Option<(String, u32)> {
    match crate::arxiv_id::split_version(text) {
        (id, Some(v)) if v > 0 && crate::arxiv_id::is_id(id) => Some((id.to_owned(), v)),
        _ => None,
    }
}

/// The PDFs a batch or tar report shows pith read: every line whose `status` is `injected` or
/// `unchanged` with a `number` and a `sha1` (a refused or failed member is no PDF pith
/// recognised, whatever its line says). `file` names the report in the reads' sentences.
pub fn report_reads(text: &str, file: &str) -> Vec<Read> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if !matches!(v["status"].as_str(), Some("injected" | "unchanged")) {
            continue;
        }
        let (Some(n), Some(sha1)) = (v["number"].as_str(), v["sha1"].as_str()) else {
            continue;
        };
        let (Ok(number), true) = (PithNumber::parse(n), cdx::is_digest(sha1)) else {
            continue;
        };
        let names = match (v["id"].as_str(), v["version"].as_u64()) {
            (Some(id), Some(ver)) => u32::try_from(ver).ok().map(|ver| (id.to_owned(), ver)),
            _ => None,
        };
        out.push(Read {
            what: format!("{file} line {}", i + 1),
            sha1: sha1.to_ascii_uppercase(),
            number: Some(number),
            names,
        });
    }
    out
}

/// Judges a WARC record as evidence for `version` ([`evidence::judge`]): pith hashed its
/// payload, and the payload itself is a read when it is a PDF pith reads. `reads` are the
/// other PDFs pith read (reports). The capture is `None` when the record's date is not a WARC
/// date; the verdict then says so.
pub fn judge_warc(
    r: &warc::Response,
    version: &Version,
    reads: &[Read],
) -> (Option<Capture>, Verdict) {
    let Some(c) = r.capture() else {
        let mut v = evidence::judge(&undated(r), &Payload::Stated, version, &[]);
        v.stored = false;
        v.checks.retain(|c| c.check != "date");
        v.checks.insert(
            0,
            evidence::Check {
                check: "date",
                outcome: evidence::Outcome::Fails,
                detail: format!("its WARC-Date {:?} is not a WARC date", r.date),
            },
        );
        return (None, v);
    };
    let holds = r.digest_holds();
    let mut all = reads.to_vec();
    if holds.is_ok() {
        if let Ok(read) = pdf_read(&r.payload, &format!("record {}'s payload", r.index)) {
            all.push(read);
        }
    }
    let verdict = evidence::judge(&c, &Payload::Hashed(holds), version, &all);
    (Some(c), verdict)
}

fn undated(r: &warc::Response) -> Capture {
    Capture {
        url: r.target_uri.clone(),
        timestamp: String::new(),
        digest: String::new(),
        status: Some(r.status),
        mime: None,
    }
}

/// The version a capture's URL names, when it is a versioned arXiv PDF URL.
pub fn version_of_url(url: &str) -> Option<Version> {
    match capture::arxiv_of_url(url)? {
        (id, Some(v), true) => Some(Version::new(&id, v)),
        _ => None,
    }
}

/// The verdict on a capture that names no version to judge it for.
pub fn no_version(c: &Capture) -> Verdict {
    Verdict {
        version: String::new(),
        stored: false,
        checks: vec![evidence::Check {
            check: "url",
            outcome: evidence::Outcome::Fails,
            detail: format!("{} is not the URL of a version's PDF at arxiv.org", c.url),
        }],
    }
}

/// Where captures come from: a file (WARC or CDX, told by content), or the CDX API asked for
/// the captures of a URL.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureSource {
    /// A WARC file (plain or gzip) or a CDX file (lines or JSON).
    File(PathBuf),
    /// The CDX API at [`net::wayback::base_url`], asked for the captures of this URL.
    Online(String),
}

impl CaptureSource {
    /// A file when `text` names one that exists, else the CDX API for a URL.
    pub fn parse(text: &str) -> Self {
        if (text.starts_with("http://") || text.starts_with("https://"))
            && !Path::new(text).exists()
        {
            CaptureSource::Online(text.to_owned())
        } else {
            CaptureSource::File(PathBuf::from(text))
        }
    }
}

/// One capture looked at by [`compare`], and what it showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Compared {
    /// Where it came from (the file, or the CDX API's URL).
    pub source: String,
    /// The capture.
    pub capture: Capture,
    /// The capture time, ISO 8601 UTC.
    pub time_utc: String,
    /// The raw capture at the Wayback Machine.
    pub raw_url: String,
    /// Whether its payload is the file, byte for byte (its digest is the file's SHA-1).
    pub same: bool,
    /// Why a capture of the file does not count as the Archive holding it (the first check of
    /// [`Compared::verdict`] that fails).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Whether it counts as the Archive holding the version's PDF, and every check made.
    pub verdict: Verdict,
}

/// The answer of [`compare`]: `pith verify PDF --capture … --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaptureReport {
    /// The file compared.
    pub file: String,
    /// Its SHA-1, base32 (as the Archive writes digests).
    pub sha1: String,
    /// `stored` when a capture that counts ([`evidence::judge`]) is the file, else
    /// `not_stored`.
    pub verdict: &'static str,
    /// The verdict as one sentence, naming what was not checked.
    pub headline: String,
    /// The captures looked at: every one that matched, and the first [`MAX_LISTED`] others.
    pub captures: Vec<Compared>,
    /// How many more captures were looked at than are listed.
    #[serde(skip_serializing_if = "is_zero")]
    pub unlisted: usize,
}

/// The most captures a [`CaptureReport`] lists besides those that matched.
pub const MAX_LISTED: usize = 1000;

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CaptureReport {
    /// Whether a capture holds the file.
    pub fn is_stored(&self) -> bool {
        self.verdict == "stored"
    }
}

/// Why captures could not be compared.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// Occurs when a capture file or the PDF cannot be read, or is refused.
    #[error(transparent)]
    Capture(#[from] capture::Error),
    /// Occurs when the CDX API cannot answer.
    #[error("the Wayback Machine's CDX API: {0}")]
    Net(#[from] net::Error),
    /// Occurs when the request is incomplete or contradicts itself.
    #[error(transparent)]
    Request(#[from] super::Error),
}

impl CaptureError {
    /// The kind's stable name in the table, as every door reports it.
    pub fn code(&self) -> super::ErrorCode {
        use super::ErrorCode as C;
        match self {
            CaptureError::Capture(c) => match c.kind() {
                capture::ErrorKind::Io(e) if e.kind() == std::io::ErrorKind::IsADirectory => {
                    C::NotFile
                }
                capture::ErrorKind::Io(_) => C::Io,
                capture::ErrorKind::Limit(_) => C::OverLimit,
                _ => C::Invalid,
            },
            CaptureError::Net(n) => super::kind::of_net(n),
            CaptureError::Request(e) => e.kind_of(),
        }
    }
}

fn is_report(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "jsonl")
}

/// Compares the file at `pdf` with the captures of `sources`: stored when a capture that
/// counts for a version ([`evidence::judge`]) is the file byte for byte. The version is the
/// one an online source's URL names, else the one the file's XMP names, else the capture's
/// own URL's. A batch or tar report among `sources` (`*.jsonl`) recognises a file that carries
/// no number by its SHA-1.
///
/// # Errors
/// [`CaptureError`] for a file that cannot be read or refused (past [`Limits`]) and for the
/// CDX API's failures; a capture that does not match is a report, never an error.
pub fn compare(
    pdf: &Path,
    sources: &[CaptureSource],
    limits: &Limits,
    net: &net::Settings,
) -> Result<CaptureReport, CaptureError> {
    let io = |p: &Path, e| capture::Error::from(capture::ErrorKind::Io(e)).in_file(p);
    let bytes = read_bounded(pdf, limits)?;
    let sha1 = capture::sha1_base32(&bytes);
    let file_read = pdf_read(&bytes, "the file given").unwrap_or_else(|_| Read {
        what: "the file given".into(),
        sha1: sha1.clone(),
        number: None,
        names: None,
    });
    drop(bytes);
    let file_version = file_read.names.as_ref().map(|(id, v)| Version::new(id, *v));
    let mut reads = vec![file_read];
    for s in sources {
        if let CaptureSource::File(p) = s {
            if is_report(p) {
                let text = read_text(p, limits)?;
                let name = p.display().to_string();
                // Only lines about this file: a report recognises it, never another PDF.
                reads.extend(
                    report_reads(&text, &name)
                        .into_iter()
                        .filter(|r| r.sha1 == sha1),
                );
            }
        }
    }
    let mut out = Vec::new();
    let mut unlisted = 0usize;
    // Every capture is compared; the report lists the matches and the first
    // [`MAX_LISTED`] others, and counts the rest, so a file of millions of lines costs a
    // page of report.
    let mut push = |source: &str, c: Capture, verdict: Verdict| {
        // A record whose payload is not what its digest says is refused whatever it names;
        // another capture that is the file is refused with the first check it fails.
        let tampered = verdict
            .checks
            .iter()
            .find(|k| k.check == "payload" && k.outcome == evidence::Outcome::Fails)
            .map(|k| k.detail.clone());
        let same = tampered.is_none() && c.digest.eq_ignore_ascii_case(&sha1);
        let refused =
            tampered.or_else(|| same.then(|| verdict.reason().map(str::to_owned)).flatten());
        if !same && out.len() >= MAX_LISTED {
            unlisted += 1;
            return;
        }
        out.push(Compared {
            source: source.to_owned(),
            time_utc: c.time_utc(),
            raw_url: c.raw_url(),
            same,
            refused,
            verdict,
            capture: c,
        })
    };
    let version_for = |pinned: Option<&Version>, c: &Capture| {
        pinned
            .or(file_version.as_ref())
            .cloned()
            .or_else(|| version_of_url(&c.url))
    };
    let judge = |pinned: Option<&Version>, c: &Capture| match version_for(pinned, c) {
        Some(v) => evidence::judge(c, &Payload::Stated, &v, &reads),
        None => no_version(c),
    };
    let mut client = None;
    for s in sources {
        match s {
            CaptureSource::File(p) if is_report(p) => {}
            CaptureSource::File(p) => {
                let name = p.display().to_string();
                if is_warc(p).map_err(|e| io(p, e))? {
                    warc::read_file(p, limits, &mut |r| {
                        let Some(c) = r.capture() else {
                            return true;
                        };
                        let verdict = match version_for(None, &c) {
                            Some(v) => judge_warc(&r, &v, &reads).1,
                            None => no_version(&c),
                        };
                        push(&name, c, verdict);
                        true
                    })?;
                } else {
                    cdx::read_file(p, limits, &mut |r| {
                        if let Ok(c) = r {
                            let verdict = judge(None, &c);
                            push(&name, c, verdict);
                        }
                        true
                    })?;
                }
            }
            CaptureSource::Online(url) => {
                if client.is_none() {
                    client = Some(net::Client::new(net)?);
                }
                let cl = client.as_ref().expect("made above");
                let base = net::wayback::base_url();
                // The version asked for is the user's: rows the CDX API lists for any other
                // URL are judged for it, and do not count.
                let asked = version_of_url(url);
                for cap in net::wayback::captures(cl, &base, url)? {
                    let verdict = match &asked {
                        Some(v) => evidence::judge(&cap, &Payload::Stated, v, &reads),
                        None => no_version(&cap),
                    };
                    push(&net::wayback::cdx_url(&base, url), cap, verdict);
                }
            }
        }
    }
    let file = pdf.display().to_string();
    let hit = out.iter().find(|c| c.same && c.verdict.stored);
    let headline = headline(&file, &sha1, hit, &out, out.len() + unlisted);
    Ok(CaptureReport {
        file,
        sha1,
        verdict: if hit.is_some() {
            "stored"
        } else {
            "not_stored"
        },
        headline,
        captures: out,
        unlisted,
    })
}

fn headline(
    file: &str,
    sha1: &str,
    hit: Option<&Compared>,
    out: &[Compared],
    looked_at: usize,
) -> String {
    if let Some(c) = hit {
        let not: Vec<&str> = c.verdict.not_checked().collect();
        let not = if not.is_empty() {
            String::new()
        } else {
            format!(" Not checked here: {}.", not.join("; "))
        };
        return format!(
            "STORED: {file} is, byte for byte, what the Internet Archive captured at {} on {} ({}), an HTTP 200 answer for {}'s PDF.{not}",
            c.capture.url, c.time_utc, c.raw_url, c.verdict.version
        );
    }
    if let Some(why) = out.iter().find_map(|c| c.refused.as_deref()) {
        return format!("NOT STORED: a capture of {file} was found but does not count: {why}.");
    }
    if out.is_empty() {
        format!("NOT STORED: no capture was found to compare {file} with.")
    } else {
        format!("NOT STORED: none of the {looked_at} captures is {file} (its SHA-1 is {sha1}).")
    }
}

/// Whether a file is a WARC file: `WARC/` or gzip at its start (a gzip CDX file is not read).
///
/// # Errors
/// The file cannot be read.
pub fn is_warc(p: &Path) -> std::io::Result<bool> {
    let mut head = [0u8; 5];
    let mut f = std::fs::File::open(p)?;
    let n = std::io::Read::read(&mut f, &mut head)?;
    Ok(head[..n].starts_with(b"WARC/") || head[..n].starts_with(&[0x1f, 0x8b]))
}

/// A CDX file's text, at most [`Limits::record_bytes`] of it (read within
/// [`crate::bounded`]).
///
/// # Errors
/// [`capture::ErrorKind::Io`] and [`capture::ErrorKind::Limit`], naming the file.
pub fn read_text(p: &Path, limits: &Limits) -> Result<String, capture::Error> {
    // Valid UTF-8 (every report and CDX file pith writes) becomes the string without a copy.
    Ok(String::from_utf8(read_bounded(p, limits)?)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The bytes of the file `p`, at most [`Limits::record_bytes`] of them (read within
/// [`crate::bounded`]).
///
/// # Errors
/// [`capture::ErrorKind::Io`] and [`capture::ErrorKind::Limit`], naming the file.
fn read_bounded(p: &Path, limits: &Limits) -> Result<Vec<u8>, capture::Error> {
    let bounds = crate::bounded::Bounds {
        bytes: limits.record_bytes,
        ..limits.bounds()
    };
    crate::bounded::read_path(p, &bounds).map_err(|e| {
        let kind = match e.kind() {
            crate::bounded::ErrorKind::Bytes(n) => {
                capture::ErrorKind::Limit(format!("it is larger than {n} bytes"))
            }
            // A file that cannot be opened or read says so, never as damaged compression.
            crate::bounded::ErrorKind::Io(_) => match e.into_io() {
                Some(io) => capture::ErrorKind::Io(io),
                None => capture::ErrorKind::Limit("it cannot be read".into()),
            },
            _ => return capture::Error::from(e).in_file(p),
        };
        capture::Error::from(kind).in_file(p)
    })
}
