//! Internet Archive captures, read and checked offline: what the Wayback Machine holds of a
//! paper's PDF.
//!
//! A capture says "this URL answered these bytes at this time". pith reads two forms of it:
//! WARC files ([`warc`]: the Archive's own records, gzip per record or plain, each `response`
//! record with its HTTP answer and `WARC-Payload-Digest`) and CDX lines ([`cdx`]: the index of
//! captures, classic space-separated or the CDX API's JSON, each with the payload's base32 SHA-1).
//! Both end as a [`Capture`]: the URL, the 14-digit Wayback timestamp and the payload's digest.
//!
//! This module owns the formats, their bounds ([`Limits`]: record and header sizes, header
//! lines, records per file, bytes decompressed, so a gzip bomb is refused), the payload digest
//! ([`sha1_base32`]) and what a capture's URL says of the paper ([`arxiv_of_url`]). It decides
//! whether a WARC record's payload is what its digest says, and nothing about a paper's
//! number: whether the payload is a version's PDF is the job layer's question, which reads
//! PDFs; the network (the CDX API) is `net::wayback`'s.

pub mod cdx;
pub mod evidence;
pub mod warc;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha1::Digest;

/// The bounds on what a capture file may ask pith to hold or read, and the token that stops
/// reading it ([`crate::bounded`] counts them).
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest record content (WARC `Content-Length`), and the largest payload once its
    /// chunked or gzip coding is decoded. Default 64 MiB (arXiv takes submissions up to 50 MB).
    pub record_bytes: u64,
    /// The longest header line (WARC or HTTP) or CDX line (JSON row), in bytes.
    pub line_bytes: usize,
    /// The most header lines of one WARC record or HTTP answer, folded continuation lines
    /// included.
    pub header_lines: usize,
    /// The most records one WARC file may hold.
    pub records: usize,
    /// The most bytes one file may decompress to (all its gzip members together).
    pub decompressed_bytes: u64,
    /// The most lines one file may hold: WARC and HTTP header lines, the empty lines between
    /// records, CDX lines or JSON rows.
    pub lines: u64,
    /// Stops the reading of the file (its deadline, or the run's cancellation).
    pub stop: crate::pdf::Stop,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            record_bytes: 64 << 20,
            line_bytes: 16 << 10,
            header_lines: 512,
            records: 1_000_000,
            decompressed_bytes: 16 << 30,
            lines: 10_000_000,
            stop: crate::pdf::Stop::never(),
        }
    }
}

impl Limits {
    /// The bounds of one file's reading: its bytes decompressed, its lines, its token.
    pub fn bounds(&self) -> crate::bounded::Bounds {
        crate::bounded::Bounds {
            bytes: self.decompressed_bytes,
            line_bytes: self.line_bytes,
            lines: self.lines,
            stop: self.stop.clone(),
        }
    }
}

/// One capture: a URL the Archive fetched, when, and the SHA-1 of what it answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capture {
    /// The URL captured (`https://arxiv.org/pdf/2402.03791v3`).
    pub url: String,
    /// The Wayback timestamp, `YYYYMMDDhhmmss` (UTC).
    pub timestamp: String,
    /// The payload's SHA-1, base32 (32 characters), as the Archive writes it.
    pub digest: String,
    /// The HTTP status of the answer, when the source gives it.
    pub status: Option<u16>,
    /// The answer's media type, when the source gives it.
    pub mime: Option<String>,
}

impl Capture {
    /// The raw capture at the Wayback Machine: `https://web.archive.org/web/<timestamp>id_/<url>`
    /// (the `id_` form answers the bytes captured, not the replay page).
    pub fn raw_url(&self) -> String {
        format!("{WAYBACK}/web/{}id_/{}", self.timestamp, self.url)
    }

    /// The capture time as ISO 8601 UTC (`2024-02-07T10:11:12Z`), or the timestamp as given
    /// when it is not 14 digits.
    pub fn time_utc(&self) -> String {
        time_utc(&self.timestamp)
    }

    /// The arXiv id and version of the PDF this capture is of, when its URL is a versioned
    /// arXiv PDF URL ([`arxiv_of_url`]).
    pub fn arxiv_version(&self) -> Option<(String, u32)> {
        match arxiv_of_url(&self.url)? {
            (id, Some(v), true) => Some((id, v)),
            _ => None,
        }
    }
}

/// The Wayback Machine's address, as the raw capture links name it.
pub const WAYBACK: &str = "https://web.archive.org";

/// A Wayback timestamp (`20240207101112`) as ISO 8601 UTC; the text as given when it is not
/// 14 digits.
pub fn time_utc(ts: &str) -> String {
    if ts.len() != 14 || !ts.bytes().all(|b| b.is_ascii_digit()) {
        return ts.to_owned();
    }
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        &ts[0..4],
        &ts[4..6],
        &ts[6..8],
        &ts[8..10],
        &ts[10..12],
        &ts[12..14]
    )
}

/// A WARC date (`2024-02-07T10:11:12Z`, fractions of a second allowed) as a Wayback
/// timestamp; `None` when it is not one.
pub fn timestamp_of_warc_date(date: &str) -> Option<String> {
    let d = date.trim();
    let digits: String = d.chars().filter(char::is_ascii_digit).take(14).collect();
    let shape = d.len() >= 20
        && d.as_bytes()[4] == b'-'
        && d.as_bytes()[7] == b'-'
        && d.as_bytes()[10] == b'T'
        && d.ends_with('Z');
    (shape && digits.len() == 14).then_some(digits)
}

/// The SHA-1 of `bytes` in base32 (RFC 4648, 32 characters): how WARC payload digests and CDX
/// lines write it.
///
/// # Examples
/// ```
/// assert_eq!(pith::capture::sha1_base32(b""), "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
/// ```
pub fn sha1_base32(bytes: &[u8]) -> String {
    data_encoding::BASE32.encode(&sha1::Sha1::digest(bytes))
}

/// The arXiv paper a URL names: `(id, version, is_pdf)` for `arxiv.org/pdf/<id>[vN][.pdf]`
/// and `arxiv.org/abs/<id>[vN]` (http or https, `www.` and `export.` hosts too, old-style ids
/// `hep-th/9901001` included); `None` for any other URL.
///
/// # Examples
/// ```
/// use pith::capture::arxiv_of_url;
/// assert_eq!(arxiv_of_url("https://arxiv.org/pdf/2402.03791v3"),
///            Some(("2402.03791".into(), Some(3), true)));
/// assert_eq!(arxiv_of_url("http://export.arxiv.org/abs/hep-th/9901001"),
///            Some(("hep-th/9901001".into(), None, false)));
/// assert_eq!(arxiv_of_url("https://example.org/pdf/2402.03791v3"), None);
/// ```
pub fn arxiv_of_url(url: &str) -> Option<(String, Option<u32>, bool)> {
    crate::arxiv_id::of_url(url)
}

/// An error reading a capture file.
#[derive(Debug)]
pub struct Error {
    file: Option<PathBuf>,
    kind: ErrorKind,
}

/// What is wrong with a capture file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when the file cannot be read.
    #[error("cannot read it: {0}")]
    Io(#[source] std::io::Error),
    /// Occurs when the bytes are not a WARC file (no `WARC/1.x` version line where a record
    /// starts), or a record's header cannot be read.
    #[error("not a WARC file: {0}")]
    NotWarc(String),
    /// Occurs when a gzip member cannot be decompressed.
    #[error("bad gzip data: {0}")]
    Gzip(String),
    /// Occurs when a record, a header, the number of records or the bytes decompressed go
    /// past [`Limits`].
    #[error("{0}")]
    Limit(String),
    /// Occurs when a CDX file is neither CDX lines nor the CDX API's JSON.
    #[error("not CDX: {0}")]
    NotCdx(String),
    /// Occurs when the reading was stopped: the file's deadline passed or the run was
    /// cancelled.
    #[error("{0}")]
    Stopped(crate::bounded::Error),
}

impl From<crate::bounded::Error> for Error {
    /// A bound of [`crate::bounded`] as a capture file's error: its bytes and counts are
    /// [`ErrorKind::Limit`], a damaged gzip stream [`ErrorKind::Gzip`].
    fn from(e: crate::bounded::Error) -> Self {
        use crate::bounded::ErrorKind as B;
        let kind = match e.kind() {
            B::Stopped(_) => ErrorKind::Stopped(e),
            B::Io(io)
                if matches!(
                    io.kind(),
                    std::io::ErrorKind::InvalidInput
                        | std::io::ErrorKind::InvalidData
                        | std::io::ErrorKind::UnexpectedEof
                ) =>
            {
                ErrorKind::Gzip(io.to_string())
            }
            B::Io(_) => match e.into_io() {
                Some(io) => ErrorKind::Io(io),
                None => ErrorKind::Limit("it cannot be read".into()),
            },
            B::Bytes(n) => ErrorKind::Limit(format!("it decompresses to more than {n} bytes")),
            B::Json(m) => ErrorKind::NotCdx(m.clone()),
            _ => ErrorKind::Limit(e.to_string()),
        };
        Error { file: None, kind }
    }
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The file the error is in, when known.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The same error, naming `file`.
    pub fn in_file(mut self, file: &Path) -> Self {
        self.file = Some(file.to_owned());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(p) => write!(f, "{}: {}", p.display(), self.kind),
            None => self.kind.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error { file: None, kind }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_papers() {
        assert_eq!(
            arxiv_of_url("https://arxiv.org/pdf/2402.03791v3.pdf"),
            Some(("2402.03791".into(), Some(3), true))
        );
        assert_eq!(
            arxiv_of_url("http://www.arxiv.org/pdf/hep-th/9901001v2"),
            Some(("hep-th/9901001".into(), Some(2), true))
        );
        assert_eq!(arxiv_of_url("https://arxiv.org/pdf/2402.03791v0"), None);
        assert_eq!(arxiv_of_url("https://arxiv.org/list/cs.LG/recent"), None);
        assert_eq!(
            arxiv_of_url("https://arxiv.org.evil/pdf/2402.03791v3"),
            None
        );
        assert_eq!(time_utc("20240207101112"), "2024-02-07T10:11:12Z");
        assert_eq!(
            timestamp_of_warc_date("2024-02-07T10:11:12.123456Z").as_deref(),
            Some("20240207101112")
        );
        assert_eq!(timestamp_of_warc_date("yesterday"), None);
    }

    #[test]
    fn digests_are_base32_sha1() {
        // sha1("abc") = a9993e36...; base32 as the Wayback Machine writes it.
        assert_eq!(sha1_base32(b"abc"), "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
    }
}
