//! The headers every answer carries, whichever code made it (a route, a page, an error, the
//! framework's own 405 or a limit's 413 and 503): `X-Content-Type-Options: nosniff` on all, and
//! on HTML the pages' `Content-Security-Policy` ([`CSP`]) and
//! `Referrer-Policy: no-referrer`. An answer that set its own keeps it.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The policy every page is served with: nothing from another origin, no inline script, no
/// plugins, no framing, forms post only here.
pub const CSP: &str = "default-src 'self'; base-uri 'none'; form-action 'self'; \
                       frame-ancestors 'none'; object-src 'none'";

/// Middleware: adds the headers an answer lacks ([`complete`]).
pub async fn secure(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    complete(res.headers_mut());
    res
}

/// Adds to the headers of an answer those it lacks: nosniff, and on HTML the policy and no
/// referrer. (The answer cache keeps answers so completed.)
pub fn complete(h: &mut HeaderMap) {
    h.entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    let html = h
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.trim_start().to_ascii_lowercase().starts_with("text/html"));
    if html {
        h.entry(header::CONTENT_SECURITY_POLICY)
            .or_insert(HeaderValue::from_static(CSP));
        h.entry(header::REFERRER_POLICY)
            .or_insert(HeaderValue::from_static("no-referrer"));
    }
}
