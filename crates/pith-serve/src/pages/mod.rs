//! The pages a person uses: the home page with its search field ([`search`]), the record page
//! of `/pith/<26>` for browsers ([`record`]), checking a PDF ([`verify`]), and the stylesheet
//! and script they share ([`assets`]).
//!
//! Pages are Tera templates (`templates/*.html.tera`, compiled into the binary) rendered on
//! the server and readable without JavaScript. Every page answers with a Content-Security-Policy
//! of `default-src 'self'`, sets no cookie and names nothing on another origin except links a
//! reader follows. Numbers, records, badges, snippets and checks are the `pith` library's; this
//! module only lays out what it computes.

use std::sync::LazyLock;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::app::AppState;

pub mod assets;
pub mod export;
pub mod record;
pub mod search;
pub mod verify;

/// The policy every page is served with: nothing from another origin, no inline script, no
/// plugins, no framing, forms post only here.
pub const CSP: &str = "default-src 'self'; base-uri 'none'; form-action 'self'; \
                       frame-ancestors 'none'; object-src 'none'";

/// The pages' routes but the upload: `/` (home and search) and `/assets/<name>`. The record
/// page answers `/pith/<26>` through [`record::page`].
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(search::home))
        .route("/assets/{name}", get(assets::serve))
}

/// `/verify`: the form (GET) and the upload (POST), outside the general body limit: the upload
/// has its own bound (`--max-upload`) and answers a body over it with a page.
pub fn upload_router() -> Router<AppState> {
    Router::new().route("/verify", get(verify::form).post(verify::check))
}

/// What every page's frame needs: where the site is, its assets, whether it is a static copy.
#[derive(Debug, Clone, Serialize)]
pub struct Site {
    /// The path of the site root, `/`.
    pub root: &'static str,
    /// The absolute origin (`http://host:port`), for what readers copy elsewhere (snippets,
    /// the check recipe).
    pub origin: String,
    /// The stylesheet's path.
    pub css: String,
    /// The script's path.
    pub js: String,
    /// Whether the page is written for a static export (no server behind it).
    #[serde(rename = "static")]
    pub is_static: bool,
    /// How many paper versions the index holds, when known.
    pub papers: Option<u64>,
}

impl Site {
    /// The frame of a page served at `origin`.
    pub fn new(origin: String, is_static: bool, papers: Option<u64>) -> Self {
        Site {
            root: "/",
            origin,
            css: format!("/{}", assets::CSS.path()),
            js: format!("/{}", assets::JS.path()),
            is_static,
            papers,
        }
    }

    /// The frame of a page answering a request: the origin is the server's `--base-url`, else
    /// comes from the `Host` header.
    pub fn of_request(state: &AppState, headers: &HeaderMap) -> Self {
        Site::new(origin(state, headers), false, state.index().len().ok())
    }
}

/// The absolute origin readers should copy: the server's `--base-url` when one was given, else
/// `http://` and the request's `Host`.
pub fn origin(state: &AppState, headers: &HeaderMap) -> String {
    if !state.base_url().is_empty() {
        return state.base_url().to_owned();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .unwrap_or("localhost");
    format!("http://{host}")
}

static TERA: LazyLock<tera::Tera> = LazyLock::new(|| {
    let mut t = tera::Tera::default();
    // Names ending in .html are escaped for HTML by Tera; every value reaches a page escaped.
    t.add_raw_templates([
        ("base.html", include_str!("../../templates/base.html.tera")),
        ("home.html", include_str!("../../templates/home.html.tera")),
        (
            "message.html",
            include_str!("../../templates/message.html.tera"),
        ),
        (
            "record.html",
            include_str!("../../templates/record.html.tera"),
        ),
        (
            "verify.html",
            include_str!("../../templates/verify.html.tera"),
        ),
    ])
    .expect("the templates compiled into the binary parse (a unit test renders each)");
    t.set_escape_fn(escape_html);
    t
});

/// Escapes text for HTML text and quoted attributes: `&`, `<`, `>`, `"` and `'`. (Tera's own
/// escaper also writes `/` as `&#x2F;`, which every URL on a page would pay for.)
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Renders `template` with `ctx` (which must hold `site`).
///
/// # Errors
/// A template that fails to render (a bug: the unit tests render every template).
pub fn render(template: &str, ctx: &tera::Context) -> Result<String, tera::Error> {
    TERA.render(template, ctx)
}

/// An HTML answer with the pages' headers: the policy, no referrer, an `ETag` of the body and
/// `Cache-Control: no-cache` (the page can change with the index; the ETag makes asking cheap).
pub fn html(status: StatusCode, body: String, request: &HeaderMap) -> Response {
    let etag = format!(
        "\"{}\"",
        &pith::number::hex(&Sha256::digest(body.as_bytes()))[..32]
    );
    let fresh = status == StatusCode::OK
        && request
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::CACHE_CONTROL, "no-cache"),
        (header::VARY, "Accept"),
    ];
    let etag = HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\""));
    if fresh {
        return (StatusCode::NOT_MODIFIED, headers, [(header::ETAG, etag)]).into_response();
    }
    (status, headers, [(header::ETAG, etag)], body).into_response()
}

/// A page with a heading and sentences: not found, too large, and the like.
#[derive(Debug, Default)]
pub struct Message {
    /// The heading.
    pub heading: String,
    /// The sentences, one paragraph each.
    pub paragraphs: Vec<String>,
    /// Offer the search field again, filled with this query.
    pub search: Option<String>,
    /// Offer to check another PDF.
    pub back_to_verify: bool,
}

impl Message {
    /// Renders the message as a page of `status`.
    pub fn page(&self, status: StatusCode, site: &Site, request: &HeaderMap) -> Response {
        let mut ctx = tera::Context::new();
        ctx.insert("site", site);
        ctx.insert("heading", &self.heading);
        ctx.insert("paragraphs", &self.paragraphs);
        ctx.insert("search", &self.search.is_some());
        ctx.insert("query", self.search.as_deref().unwrap_or(""));
        ctx.insert("back_to_verify", &self.back_to_verify);
        match render("message.html", &ctx) {
            Ok(body) => html(status, body, request),
            Err(e) => internal_error(&e),
        }
    }
}

/// A 500 for a page that failed to render or an index that failed to answer; the error is
/// said in the body (it names no upload and no client).
pub fn internal_error(e: &dyn std::fmt::Display) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("the server could not answer: {e}\n"),
    )
        .into_response()
}

/// A plain 404 for asset names that do not exist.
pub fn not_found_plain() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "no such file\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        assert!(TERA.get_template_names().count() >= 5);
    }
}
