//! The one error type of the handlers ([`Error`]: a status, a kind and one sentence) and how
//! it becomes an answer: JSON for scripts, `{"error": SENTENCE, "kind": KIND}` as `pith …
//! --json` prints an error and Python's exceptions carry it (`kind` is the library's code,
//! [`pith::job::ErrorCode`], where one applies), the message page for a browser, chosen by the
//! request's `Accept` ([`crate::http::negotiate`]) and marked `Vary: Accept`.
//!
//! A handler returns `Result<_, Error>`; [`Error`]'s own [`IntoResponse`] writes the JSON
//! answer and leaves the error in the answer's extensions, and [`layer`], which has the
//! request, turns it into the page when the client prefers HTML. The JSON is complete by
//! itself, so an error answered outside [`layer`] is still well formed.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use pith::job::ErrorCode;

use crate::http::negotiate::{Media, Negotiated};
use crate::http::reply::{self, types, MISSING};
use crate::index;
use crate::state::AppState;
use crate::view::{Message, Site};

/// Something a request asked for is missing or wrong, or the server could not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    status: StatusCode,
    kind: &'static str,
    message: String,
}

impl Error {
    /// An error of `status`, said in `message` (one sentence, no trailing period), of the kind
    /// the status means: `not_found` (404), `request` (another 4xx), `busy` (503), `invalid`
    /// (another 5xx).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        let kind = match status.as_u16() {
            404 => ErrorCode::NotFound.name(),
            503 => "busy",
            400..=499 => ErrorCode::Request.name(),
            _ => ErrorCode::Invalid.name(),
        };
        Error {
            status,
            kind,
            message: message.into(),
        }
    }

    /// The same error, of another kind (an [`ErrorCode`]'s name, or one of the server's own).
    pub fn with_kind(mut self, kind: &'static str) -> Self {
        self.kind = kind;
        self
    }

    /// 404: the index has no such record, id or file.
    pub fn not_found(message: impl Into<String>) -> Self {
        Error::new(StatusCode::NOT_FOUND, message)
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Error::new(StatusCode::BAD_REQUEST, message)
    }

    /// 400: a path whose percent-decoding is not UTF-8 text.
    pub fn bad_path() -> Self {
        Error::bad_request("the path is not valid text once percent-decoded")
    }

    /// 500: an answer that could not be made (a bug: a template, a document).
    pub fn internal(e: &dyn std::fmt::Display) -> Self {
        Error::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the server could not answer: {e}"),
        )
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The sentence.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The kind, as the JSON answer's `kind` names it.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The answer for a request with these headers: the message page when the client
    /// prefers HTML, the JSON otherwise; either way `Vary: Accept`.
    pub fn answer(&self, req: &HeaderMap, state: &AppState) -> Response {
        let r = match Negotiated::of(req).choose(&[Media::Json, Media::Html]) {
            Media::Html => self.page(req, state),
            _ => self.json(req),
        };
        reply::vary_accept(r)
    }

    fn json(&self, req: &HeaderMap) -> Response {
        let mut body =
            serde_json::to_vec(&json_error(&self.message, self.kind)).unwrap_or_default();
        body.push(b'\n');
        reply::answer(req, self.status, types::JSON, MISSING, body)
    }

    fn page(&self, req: &HeaderMap, state: &AppState) -> Response {
        let reason = self.status.canonical_reason().unwrap_or("Error");
        Message {
            heading: format!("{} {reason}", self.status.as_u16()),
            paragraphs: vec![sentence(&self.message)],
            search: (self.status == StatusCode::NOT_FOUND).then(String::new),
            back_to_verify: false,
        }
        .page(self.status, &Site::of(state), req)
    }
}

/// An error as scripts read it, the shape `pith … --json` prints and Python's exceptions
/// carry: `{"error": MESSAGE, "kind": KIND}`.
pub fn json_error(message: &str, kind: &str) -> serde_json::Value {
    serde_json::json!({ "error": message, "kind": kind })
}

/// `message` as a sentence of a page: capitalised, with its period.
fn sentence(message: &str) -> String {
    let mut c = message.chars();
    let mut s: String = c
        .next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default();
    if !s.ends_with(['.', '?', '!']) {
        s.push('.');
    }
    s
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for Error {}

impl From<index::Error> for Error {
    /// The index failed to answer: 500, saying why.
    fn from(e: index::Error) -> Self {
        Error::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the index cannot be read: {e}"),
        )
    }
}

impl From<String> for Error {
    /// An answer that could not be made: 500, saying why.
    fn from(e: String) -> Self {
        Error::internal(&e)
    }
}

impl IntoResponse for Error {
    /// The JSON answer, with the error in its extensions for [`layer`].
    fn into_response(self) -> Response {
        let mut r = reply::vary_accept(self.json(&HeaderMap::new()));
        r.extensions_mut().insert(self);
        r
    }
}

/// Middleware: an answer that is an [`Error`] is rendered for the request, as the client's
/// `Accept` prefers.
pub async fn layer(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let headers = reply::asked(&mut req);
    let mut res = next.run(req).await;
    match res.extensions_mut().remove::<Error>() {
        Some(e) => e.answer(&headers, &state),
        None => res,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_read_as_sentences() {
        assert_eq!(sentence("no record of X"), "No record of X.");
        assert_eq!(sentence("give more characters."), "Give more characters.");
        assert_eq!(sentence(""), ".");
    }
}
