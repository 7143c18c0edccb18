//! The capture jobs: whether the Internet Archive holds a version's PDF, from captures pith
//! checks itself.
//!
//! Two questions, one rule each:
//! - [`stored_version`]: is a WARC `response` record evidence that the Archive holds version N
//!   of a paper? Its URL is `arxiv.org/pdf/<id>vN`, its answer 200, its payload digest the
//!   SHA-1 of its body, its payload a PDF pith reads, and a number the PDF carries (if any) is
//!   the version's. A CDX line is such evidence when its URL is that version's and its digest
//!   is the SHA-1 of a PDF pith read for that version ([`cdx_stored`]).
//! - [`compare`] (`pith verify PDF --capture …`): is a user's file byte for byte what the
//!   Archive captured? Its SHA-1 against each capture's digest (a WARC record's only when the
//!   record's own digest holds).
//!
//! Reading the capture files is [`crate::capture`]'s, asking the CDX API [`crate::net::wayback`]'s.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::capture::{self, cdx, warc, Capture, Limits};
use crate::net::{self, pdfcheck};
use crate::number::PithNumber;
use crate::pdf;

/// Whether a WARC record is evidence that the Archive holds version `version` of `id`, whose
/// number is `number` (the index's, when it has the version): the capture when it is, else
/// why not (one line).
///
/// # Errors
/// The reason, one line.
pub fn stored_version(
    r: &warc::Response,
    expected: Option<(&str, u32, &PithNumber)>,
) -> Result<Capture, String> {
    let (id, version) = match capture::arxiv_of_url(&r.target_uri) {
        Some((id, Some(v), true)) => (id, v),
        _ => {
            return Err(format!(
                "{} is not the URL of a version's PDF at arxiv.org",
                r.target_uri
            ))
        }
    };
    if r.status != 200 {
        return Err(format!("the Archive's answer was HTTP {}", r.status));
    }
    r.digest_holds()?;
    if let Some((eid, ev, _)) = expected {
        if (eid, ev) != (id.as_str(), version) {
            return Err(format!(
                "it is of arXiv:{id}v{version}, not arXiv:{eid}v{ev}"
            ));
        }
    }
    let opts = pdf::InspectOptions {
        check: pdf::Check::Sampled,
        ..pdf::InspectOptions::default()
    };
    let ins = pdf::inspect_opts(r.payload.as_slice(), &opts)
        .map_err(|e| format!("its payload is not a PDF pith reads: {e}"))?;
    if let (Some(claim), Some((_, _, n))) = (pdfcheck::claim(&ins), expected) {
        if claim.number.code() != n.code() {
            return Err(format!(
                "its PDF carries {}, not this version's {}",
                claim.number.full(),
                n.full()
            ));
        }
    }
    r.capture()
        .ok_or_else(|| format!("its WARC-Date {:?} is not a WARC date", r.date))
}

/// Whether a CDX line is evidence that the Archive holds version `version` of `id`: its URL is
/// that version's PDF, its status 200 (when given), and its digest is `sha1`, the base32 SHA-1
/// of a PDF pith read for that version.
///
/// # Errors
/// The reason, one line.
pub fn cdx_stored(c: &Capture, id: &str, version: u32, sha1: &str) -> Result<(), String> {
    match c.arxiv_version() {
        Some((cid, cv)) if cid == id && cv == version => {}
        _ => return Err(format!("{} is not arXiv:{id}v{version}'s PDF", c.url)),
    }
    if c.status.is_some_and(|s| s != 200) {
        return Err(format!(
            "the Archive's answer was HTTP {}",
            c.status.unwrap_or(0)
        ));
    }
    if !c.digest.eq_ignore_ascii_case(sha1) {
        return Err(format!(
            "its digest {} is not the SHA-1 of the PDF read for this version ({sha1})",
            c.digest
        ));
    }
    Ok(())
}

/// Where captures come from: a file (WARC or CDX, told by content), or the CDX API asked for
/// the captures of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Whether its payload is the file, byte for byte.
    pub same: bool,
    /// Why it was not compared (a WARC record whose own digest does not hold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// The answer of [`compare`]: `pith verify PDF --capture … --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaptureReport {
    /// The file compared.
    pub file: String,
    /// Its SHA-1, base32 (as the Archive writes digests).
    pub sha1: String,
    /// `stored` when a capture's payload is the file, else `not_stored`.
    pub verdict: &'static str,
    /// The verdict as one sentence.
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

/// Compares the file at `pdf` with the captures of `sources`: stored when one capture's
/// payload is the file byte for byte.
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
    let f = std::fs::File::open(pdf).map_err(|e| io(pdf, e))?;
    let bounds = crate::bounded::Bounds {
        bytes: limits.record_bytes,
        ..limits.bounds()
    };
    let bytes = crate::bounded::read_all(f, &bounds).map_err(|e| match e.kind() {
        crate::bounded::ErrorKind::Bytes(n) => capture::Error::from(capture::ErrorKind::Limit(
            format!("it is larger than {n} bytes"),
        ))
        .in_file(pdf),
        _ => capture::Error::from(e).in_file(pdf),
    })?;
    let sha1 = capture::sha1_base32(&bytes);
    let mut out = Vec::new();
    let mut unlisted = 0usize;
    // Every capture is compared; the report lists the matches and the first
    // [`MAX_LISTED`] others, and counts the rest, so a file of millions of lines costs a
    // page of report.
    let mut push = |source: &str, c: Capture, refused: Option<String>| {
        let same = refused.is_none() && c.digest.eq_ignore_ascii_case(&sha1);
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
            capture: c,
        })
    };
    let mut client = None;
    for s in sources {
        match s {
            CaptureSource::File(p) => {
                let name = p.display().to_string();
                if is_warc(p).map_err(|e| io(p, e))? {
                    warc::read_file(p, limits, &mut |r| {
                        if let Some(c) = r.capture() {
                            push(&name, c, r.digest_holds().err());
                        }
                        true
                    })?;
                } else {
                    cdx::read_file(p, limits, &mut |r| {
                        if let Ok(c) = r {
                            push(&name, c, None);
                        }
                        true
                    })?;
                }
            }
            CaptureSource::Online(url) => {
                if client.is_none() {
                    client = Some(net::Client::new(net)?);
                }
                let c = client.as_ref().expect("made above");
                let base = net::wayback::base_url();
                for cap in net::wayback::captures(c, &base, url)? {
                    push(&net::wayback::cdx_url(&base, url), cap, None);
                }
            }
        }
    }
    let file = pdf.display().to_string();
    let hit = out.iter().find(|c| c.same);
    let headline = match hit {
        Some(c) => format!(
            "STORED: {file} is, byte for byte, what the Internet Archive captured at {} on {} ({}).",
            c.capture.url, c.time_utc, c.raw_url
        ),
        None if out.is_empty() => format!("NOT STORED: no capture was found to compare {file} with."),
        None => format!(
            "NOT STORED: none of the {} captures is {file} (its SHA-1 is {sha1}).",
            out.len() + unlisted
        ),
    };
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
    let f = std::fs::File::open(p)
        .map_err(|e| capture::Error::from(capture::ErrorKind::Io(e)).in_file(p))?;
    let bounds = crate::bounded::Bounds {
        bytes: limits.record_bytes,
        ..limits.bounds()
    };
    let bytes = crate::bounded::read_all(f, &bounds).map_err(|e| match e.kind() {
        crate::bounded::ErrorKind::Bytes(n) => capture::Error::from(capture::ErrorKind::Limit(
            format!("it is larger than {n} bytes"),
        ))
        .in_file(p),
        _ => capture::Error::from(e).in_file(p),
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
