//! Checking a PDF: `GET /verify` shows the form, `POST /verify` takes the file (a multipart form
//! field, or the request body itself) and checks it with the same library call as
//! `pith verify PAPER.pdf`, against this server's index instead of the network. The answer is a
//! page in words, or with `Accept: application/json` the document `pith verify --json` prints.
//! Receipts are checked with the keys the index trusts, and a file the library refuses is
//! refused here with the library's kind (`{error, kind}`, as the CLI and Python give it): the
//! verdict is the library's, never decided again here.
//!
//! The upload is held in memory only for the check and never written or logged. A body over
//! the server's `--max-upload` is read to its end (so that the browser shows the answer rather
//! than a reset connection) without being kept, and answered 413 with a page.

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use pith::job::{self, VerifyReport, VerifyRequest};
use pith::net::pdfcheck::Lookup;
use pith::net::resolver::{NewerVersion, Resolved};
use pith::verify::{Bundle, CheckKind, CheckStatus, Verdict};
use serde::{Deserialize, Serialize};

use super::{html, internal_error, render, Message, Site};
use crate::http::negotiate::{Media, Negotiated};
use crate::state::AppState;
use crate::upload::Failure;
use pith::job::ErrorCode;

/// The form page.
pub async fn form(State(state): State<AppState>, headers: HeaderMap) -> Response {
    page(&state, &Site::of(&state), None, StatusCode::OK, &headers)
}

/// The query of a raw-body upload: the file's name, for the report's `file` key.
#[derive(Debug, Deserialize)]
pub struct UploadName {
    file: Option<String>,
}

/// Why a file could not be checked, each with its own sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No file in the request.
    NoFile,
    /// Larger than `--max-upload`.
    TooLarge,
    /// Not a PDF.
    NotPdf,
    /// Encrypted, and it cannot be opened without a password.
    Encrypted,
    /// Damaged: its structure cannot be read.
    Damaged,
    /// Reading it would cost more than a limit per file allows.
    OverLimit,
    /// A PDF without a number.
    NoNumber,
    /// The upload stopped before its end.
    CutOff,
    /// The form around the file cannot be read.
    Malformed,
    /// The upload came too slowly.
    TooSlow,
    /// The server is checking as many files as it can.
    Busy,
    /// The check took too long.
    TimedOut,
}

impl From<Failure> for Refusal {
    fn from(f: Failure) -> Self {
        match f {
            Failure::NoFile => Refusal::NoFile,
            Failure::TooLarge => Refusal::TooLarge,
            Failure::Malformed => Refusal::Malformed,
            Failure::CutOff => Refusal::CutOff,
            Failure::TooSlow => Refusal::TooSlow,
            Failure::TimedOut => Refusal::TimedOut,
            _ => Refusal::Busy,
        }
    }
}

impl Refusal {
    /// The refusal of a file the library's verify job refused, by the kind of its error.
    fn of_kind(kind: ErrorCode) -> Self {
        match kind {
            ErrorCode::NotPdf => Refusal::NotPdf,
            ErrorCode::Password | ErrorCode::Encrypted => Refusal::Encrypted,
            ErrorCode::OverLimit | ErrorCode::TooLarge => Refusal::OverLimit,
            ErrorCode::OverTime | ErrorCode::Interrupted => Refusal::TimedOut,
            _ => Refusal::Damaged,
        }
    }

    /// The server's own kind of a refusal that is not the library's (an upload that could not
    /// be received or checked), as the JSON answer's `kind` names it.
    fn key(self) -> &'static str {
        match self {
            Refusal::NoFile => "no_file",
            Refusal::TooLarge => "too_large",
            Refusal::NotPdf => "not_pdf",
            Refusal::Encrypted => "encrypted",
            Refusal::Damaged => "damaged",
            Refusal::OverLimit => "over_limit",
            Refusal::NoNumber => "no_number",
            Refusal::CutOff => "cut_off",
            Refusal::Malformed => "malformed_form",
            Refusal::TooSlow => "too_slow",
            Refusal::Busy => "busy",
            Refusal::TimedOut => "timed_out",
        }
    }

    fn status(self) -> StatusCode {
        match self {
            Refusal::NoFile | Refusal::CutOff | Refusal::Malformed => StatusCode::BAD_REQUEST,
            Refusal::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::TooSlow => StatusCode::REQUEST_TIMEOUT,
            Refusal::Busy | Refusal::TimedOut => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Refusal::NoFile => "No file was sent",
            Refusal::TooLarge => "This file is too large to check here",
            Refusal::NotPdf => "This file is not a PDF",
            Refusal::Encrypted => "This PDF is encrypted",
            Refusal::Damaged => "This PDF is damaged",
            Refusal::OverLimit => "This PDF costs more to read than this server allows",
            Refusal::NoNumber => "This PDF carries no Pith Number",
            Refusal::CutOff => "The upload stopped before the end of the file",
            Refusal::Malformed => "The form sent cannot be read",
            Refusal::TooSlow => "The upload came too slowly",
            Refusal::Busy => "This server is busy checking other files",
            Refusal::TimedOut => "Checking this file took too long",
        }
    }

    fn sentence(self, limit: &str, detail: &str) -> String {
        match self {
            Refusal::NoFile => "Choose a PDF file, then press Check.".into(),
            Refusal::TooLarge => format!(
                "This server checks files of at most {limit}. Check a larger file on your own computer with pith verify paper.pdf."
            ),
            Refusal::NotPdf => "It does not begin with the %PDF- header every PDF has. Choose the paper's PDF file, not a page, an image or a text file.".into(),
            Refusal::Encrypted => format!(
                "It opens only with a password, so its metadata cannot be read here ({detail}). Check it on your own computer with pith verify and the password, or check a copy without the password."
            ),
            Refusal::Damaged => format!(
                "Its structure cannot be read ({detail}). A PDF viewer may still show it by repairing it; save a repaired copy and check that."
            ),
            Refusal::OverLimit => format!(
                "Reading it would pass a limit this server keeps for every file ({detail}). Check it on your own computer with pith verify paper.pdf."
            ),
            Refusal::NoNumber => format!("{detail} There is no number in its XMP metadata, its document information or a record link on page 1. Its authors may not have added one; look the paper up by its arXiv id instead."),
            Refusal::CutOff => "Try again; if it happens again, the connection is too slow for a file this large.".into(),
            Refusal::Malformed => "The request says it holds a form (multipart/form-data) but its parts cannot be read. Send the file with the page's form, or as the request body itself (curl --data-binary @paper.pdf).".into(),
            Refusal::TooSlow => "The connection sent the file more slowly than this server accepts. Try again on a faster connection, or check the file on your own computer with pith verify paper.pdf.".into(),
            Refusal::Busy => "Try again in a few seconds, or check the file on your own computer with pith verify paper.pdf.".into(),
            Refusal::TimedOut => "The server stopped waiting for the check of this file. Check it on your own computer with pith verify paper.pdf, which has no such limit.".into(),
        }
    }
}

/// What the result page shows.
#[derive(Debug, Serialize)]
struct ResultView {
    headline: String,
    tone: &'static str,
    sentences: Vec<String>,
    file: String,
    number: Option<String>,
    found_in: Option<String>,
    paper: Option<PaperLink>,
    newer: Option<NewerLink>,
    checks: Vec<CheckRow>,
}

/// The newest indexed version of the paper, when the file is of an older one.
#[derive(Debug, Serialize)]
struct NewerLink {
    version: u32,
    number: String,
    code: String,
}

#[derive(Debug, Serialize)]
struct PaperLink {
    code: String,
    title: String,
    arxiv_id: String,
}

#[derive(Debug, Serialize)]
struct CheckRow {
    status: String,
    subject: String,
    detail: String,
}

fn page(
    state: &AppState,
    site: &Site,
    result: Option<&ResultView>,
    status: StatusCode,
    headers: &HeaderMap,
) -> Response {
    let mut ctx = tera::Context::new();
    ctx.insert("site", site);
    ctx.insert("r", &result);
    ctx.insert("max_upload", &size_text(state.max_upload()));
    match render("verify.html", &ctx) {
        Ok(body) => html(status, body, headers),
        Err(e) => internal_error(&e),
    }
}

/// `100 MB`, `64 KB`, `512 bytes`.
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1_000_000 && bytes.is_multiple_of(1_000_000) {
        format!("{} MB", bytes / 1_000_000)
    } else if bytes >= 1_000 && bytes.is_multiple_of(1_000) {
        format!("{} KB", bytes / 1_000)
    } else {
        format!("{bytes} bytes")
    }
}

fn wants_json(headers: &HeaderMap) -> bool {
    Negotiated::of(headers).choose(&[Media::Html, Media::Json]) == Media::Json
}

/// The index as the resolver a PDF is checked against: what it states beside a record is what
/// this server's JSON states, so the checks are those `pith verify` makes with
/// `PITH_RESOLVER_URL` pointing here.
struct IndexLookup {
    state: AppState,
    origin: String,
}

impl std::fmt::Debug for IndexLookup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexLookup")
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Lookup for IndexLookup {
    fn record(&self, code: &str) -> Result<Resolved, pith::net::Error> {
        let bad = |m: String| pith::net::Error::from(pith::net::ErrorKind::BadAnswer(m));
        let index = self.state.index();
        match index.record(code) {
            Ok(Some(e)) => {
                // What this server's JSON-LD states beside the record, the newest indexed
                // version of the paper included, at the origin the check page names.
                let versions = index
                    .versions(&e.arxiv_id)
                    .map_err(|x| bad(x.to_string()))?;
                let newer_version =
                    crate::documents::newer(e.version, &versions).map(|(v, n)| NewerVersion {
                        version: *v,
                        pith_number: n.full(),
                        url: format!("{}/pith/{}", self.origin.trim_end_matches('/'), n.code()),
                    });
                Ok(Resolved {
                    record: pith::Record::from_json(&e.record).map_err(|x| bad(x.to_string()))?,
                    stated_number: Some(e.number.full()),
                    stated_sha256: Some(e.canonical_sha256),
                    newer_version,
                    cached: false,
                })
            }
            Ok(None) => Err(pith::net::Error::from(pith::net::ErrorKind::NotFound)),
            Err(e) => Err(bad(e.to_string())),
        }
    }

    fn bundle(&self, code: &str) -> Result<Option<Bundle>, pith::net::Error> {
        let bad = |m: String| pith::net::Error::from(pith::net::ErrorKind::BadAnswer(m));
        match self.state.index().bundle(code) {
            Ok(Some(b)) => Bundle::from_json(&b.bundle)
                .map(Some)
                .map_err(|e| bad(e.to_string())),
            Ok(None) => Ok(None),
            Err(e) => Err(bad(e.to_string())),
        }
    }

    fn record_url(&self, code: &str) -> String {
        pith::net::resolver::record_url(&self.origin, code)
    }

    fn name(&self) -> &str {
        "this mirror"
    }
}

/// A file's name as the report gives it: its last path component, without control characters.
fn clean_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base.chars().filter(|c| !c.is_control()).take(200).collect();
    if clean.trim().is_empty() {
        "upload.pdf".into()
    } else {
        clean
    }
}

/// `POST /verify`.
pub async fn check(
    State(state): State<AppState>,
    Query(named): Query<UploadName>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let limit = state.max_upload();
    let json = wants_json(&headers);
    let site = Site::of(&state);
    let refuse =
        |r: Refusal, detail: &str| refusal(&state, &site, &headers, json, (r, r.key()), detail);
    let boundary = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|ct| multer::parse_boundary(ct).ok());
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let budget = state.uploads().clone();
    let upload = match budget.slot() {
        Ok(slot) => budget.receive(&slot, body, boundary, limit, declared).await,
        Err(f) => Err(f),
    };
    let upload = match upload {
        Ok(u) => u,
        Err(f) => return refuse(f.into(), ""),
    };
    let name = upload
        .name
        .or(named.file)
        .unwrap_or_else(|| "upload.pdf".into());
    let file = upload.file;
    let name = clean_name(&name);
    let lookup = IndexLookup {
        state: state.clone(),
        origin: site.origin.clone(),
    };
    let checked = budget
        .check(upload.held, move |stop| {
            // Receipts are checked with the keys the index trusts, as its badges were: the
            // library's job decides, as for `pith verify` and Python.
            // The job adds the registry's and those PITH_KEYS pins, as at every door.
            let keys = lookup.state.index().trusted_keys().unwrap_or_default();
            let req = VerifyRequest {
                pdf_bytes: Some(job::verify::PdfBytes {
                    data: Vec::from(file),
                    name,
                }),
                keys: keys.iter().map(pith::verify::Key::to_base64).collect(),
                resolver: Some(std::sync::Arc::new(lookup)),
                stop,
                ..VerifyRequest::default()
            };
            job::verify::run(&req)
        })
        .await;
    let report = match checked {
        Err(Failure::Panicked) => {
            return internal_error(&"the check of this file failed; it was not completed")
        }
        Err(f) => return refuse(f.into(), ""),
        // Scripts get the report as `pith verify --json` prints it, `no_number` included.
        Ok(Ok(r)) if json => r,
        // The page says the report's headline, as `pith verify` does, then what to do.
        Ok(Ok(r)) if r.verdict == Verdict::NoNumber => {
            return refuse(Refusal::NoNumber, r.headline())
        }
        Ok(Ok(r)) => r,
        // A file the library refused (encrypted and not opened, damaged, not a PDF, over a
        // limit): refused here by the library's kind, the kind the CLI and Python give.
        Ok(Err(e)) if is_file_error(&e) => {
            let kind = e.kind_of();
            return refusal(
                &state,
                &site,
                &headers,
                json,
                (Refusal::of_kind(kind), kind.name()),
                &e.to_string(),
            );
        }
        Ok(Err(e)) => return internal_error(&e),
    };
    if json {
        let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
        text.push('\n');
        return (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, crate::http::reply::types::JSON),
                (header::CACHE_CONTROL, "no-store"),
            ],
            text,
        )
            .into_response();
    }
    let view = describe(&state, &report);
    page(&state, &site, Some(&view), StatusCode::OK, &headers)
}

/// Whether a verify job's error is about the file sent (its kind is a PDF's), rather than
/// this server's index.
fn is_file_error(e: &job::Error) -> bool {
    matches!(e.kind(), job::ErrorKind::Pdf(_))
}

/// The answer refusing a file: the page, or for scripts `{"error": SENTENCE, "kind": KIND}`,
/// `kind` being the library's code when the library refused the file.
fn refusal(
    state: &AppState,
    site: &Site,
    headers: &HeaderMap,
    json: bool,
    (r, kind): (Refusal, &str),
    detail: &str,
) -> Response {
    let sentence = r.sentence(&size_text(state.max_upload()), detail);
    let mut resp = if json {
        let v = crate::error::json_error(&format!("{}. {sentence}", r.heading()), kind);
        (
            r.status(),
            [(header::CONTENT_TYPE, crate::http::reply::types::JSON)],
            format!("{v}\n"),
        )
            .into_response()
    } else {
        Message {
            heading: r.heading().into(),
            paragraphs: vec![sentence],
            search: None,
            back_to_verify: true,
        }
        .page(r.status(), site, headers)
    };
    if matches!(r, Refusal::Busy | Refusal::TimedOut) {
        resp.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    }
    if matches!(r, Refusal::TooLarge | Refusal::TooSlow | Refusal::Busy) {
        // What was not read of the body is not read now: say the connection ends here.
        resp.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
    }
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    resp
}

/// The place a number was found (the report's `found_in`), as a reader says it.
fn place_words(found_in: &str) -> String {
    match found_in {
        "XMP" => "the file's XMP metadata".into(),
        "Info" => "the file's document information".into(),
        "record link" => "the record link in the file's metadata".into(),
        "page 1 link" => "the link on page 1".into(),
        other => format!("the file ({other})"),
    }
}

fn describe(state: &AppState, report: &VerifyReport) -> ResultView {
    let n = report.pith_number.clone().unwrap_or_default();
    let found_in = place_words(report.found_in.as_deref().unwrap_or(""));
    let entry = pith::PithNumber::parse(&n)
        .ok()
        .and_then(|p| state.index().record(p.code()).ok().flatten());
    let paper = match (&report.arxiv_id, report.arxiv_version) {
        (Some(id), Some(v)) => Some(PaperLink {
            code: entry
                .as_ref()
                .map(|e| e.number.code().to_owned())
                .unwrap_or_default(),
            title: entry.as_ref().map(|e| e.title.clone()).unwrap_or_default(),
            arxiv_id: format!("{id}v{v}"),
        }),
        _ => None,
    };
    let failed: Vec<&pith::verify::Check> = report
        .checks
        .iter()
        .filter(|c| c.status == CheckStatus::Mismatch)
        .collect();
    let agree = !failed.iter().any(|c| c.kind == CheckKind::Metadata);
    let mut sentences = vec![format!("The number {n} was found in {found_in}.")];
    sentences.push(if agree {
        "The file's XMP metadata and document information do not name another number.".into()
    } else {
        "The places in the file that hold the number do not agree: a later change to the file wrote another number beside it.".into()
    });
    if let Some(p) = &paper {
        sentences.push(format!(
            "The record it was checked against is that of “{}” (arXiv:{}).",
            p.title, p.arxiv_id
        ));
    }
    // The verdict and its sentence are the library's, the same `pith verify` prints; only
    // the colour of the box is this page's.
    let tone = match report.verdict {
        Verdict::Verified => "ok",
        Verdict::Unverified | Verdict::Unknown => "warn",
        _ => "bad",
    };
    let headline = report.headline().to_owned();
    ResultView {
        headline,
        tone,
        sentences,
        file: report.file.clone().unwrap_or_default(),
        number: Some(n),
        found_in: Some(found_in),
        paper,
        newer: report.newer_version.as_ref().and_then(|v| {
            let n = pith::PithNumber::parse(&v.pith_number).ok()?;
            Some(NewerLink {
                version: v.version,
                number: n.full(),
                code: n.code().to_owned(),
            })
        }),
        checks: report
            .checks
            .iter()
            .map(|c| CheckRow {
                status: c.status.to_string().to_lowercase(),
                subject: c.subject.clone(),
                detail: c.detail.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names() {
        assert_eq!(size_text(100_000_000), "100 MB");
        assert_eq!(size_text(64_000), "64 KB");
        assert_eq!(size_text(1234), "1234 bytes");
        assert_eq!(clean_name("C:\\papers\\a.pdf"), "a.pdf");
        assert_eq!(clean_name("../x/\u{7}b.pdf"), "b.pdf");
        assert_eq!(clean_name(""), "upload.pdf");
    }
}
