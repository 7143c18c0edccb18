//! The one way an answer of bytes goes out: its `Content-Type`, an [`Etag`] of the
//! representation, a `Cache-Control`, `nosniff`, CORS for JSON and SVG, the badge's own policy
//! for SVG, and `304 Not Modified` when the client holds the same representation.

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::http::etag::Etag;

/// Cache lifetime of what is named by its own hash (a record under its number).
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Cache lifetime of what a rebuild may change (status, bundles, redirects, badges).
pub const CHANGING: &str = "public, max-age=300";
/// Cache lifetime of answers that something is missing or wrong.
pub const MISSING: &str = "public, max-age=60";

/// Content types: the one list of what answers carry.
pub mod types {
    /// JSON.
    pub const JSON: &str = "application/json";
    /// JSON-LD.
    pub const JSON_LD: &str = "application/ld+json";
    /// SVG.
    pub const SVG: &str = "image/svg+xml";
    /// PDF.
    pub const PDF: &str = "application/pdf";
    /// HTML.
    pub const HTML: &str = "text/html; charset=utf-8";
    /// Plain text.
    pub const TEXT: &str = "text/plain; charset=utf-8";
    /// XML (the sitemap).
    pub const XML: &str = "application/xml; charset=utf-8";
    /// BibTeX.
    pub const BIBTEX: &str = "application/x-bibtex; charset=utf-8";
    /// CSL-JSON.
    pub const CSL_JSON: &str = "application/vnd.citationstyles.csl+json";
    /// RIS.
    pub const RIS: &str = "application/x-research-info-systems; charset=utf-8";
}

/// An answer with an `ETag` of its representation, `Cache-Control`, and CORS for JSON and
/// SVG; `304 Not Modified` when the request's `If-None-Match` names the same representation.
pub fn answer(
    req: &HeaderMap,
    status: StatusCode,
    content_type: &str,
    cache: &'static str,
    body: Vec<u8>,
) -> Response {
    let etag = Etag::of(content_type, &body);
    finish(req, status, content_type, &etag, cache, Body::from(body))
}

/// [`answer`] for a body whose tag is known: one made once and kept, or streamed.
pub fn finish(
    req: &HeaderMap,
    status: StatusCode,
    content_type: &str,
    etag: &Etag,
    cache: &'static str,
    body: Body,
) -> Response {
    let cors = content_type.starts_with("application/") || content_type == types::SVG;
    let mut r = if status == StatusCode::OK && etag.matches(req) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = (status, body).into_response();
        if let Ok(v) = HeaderValue::from_str(content_type) {
            r.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        r
    };
    let h = r.headers_mut();
    h.insert(header::ETAG, etag.value());
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if cors {
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
    if content_type == types::SVG {
        // The badge's own <style> only: an SVG opened directly runs nothing.
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
        );
    }
    r
}

/// Marks `r` as depending on the request's `Accept` (caches keep one answer per kind).
pub fn vary_accept(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Accept"));
    r
}

/// The request headers an answer depends on (`Accept`, `If-None-Match`), copied once per
/// request for the middlewares that answer after the request was handed on: the first to ask
/// ([`asked`]) copies them into the request's extensions, the others share that copy.
#[derive(Debug, Clone)]
pub struct Asked(pub std::sync::Arc<HeaderMap>);

/// The request's [`Asked`] headers.
pub fn asked(req: &mut axum::extract::Request) -> std::sync::Arc<HeaderMap> {
    if let Some(Asked(h)) = req.extensions().get::<Asked>() {
        return std::sync::Arc::clone(h);
    }
    let mut h = HeaderMap::new();
    for name in [header::ACCEPT, header::IF_NONE_MATCH] {
        for v in req.headers().get_all(&name) {
            h.append(name.clone(), v.clone());
        }
    }
    let h = std::sync::Arc::new(h);
    req.extensions_mut()
        .insert(Asked(std::sync::Arc::clone(&h)));
    h
}
