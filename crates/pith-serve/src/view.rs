//! The frame every HTML answer shares: the templates (`templates/*.html.tera`, compiled into
//! the binary), the page's [`Site`], the headers of a page ([`html`]) and the message page
//! ([`Message`]) that errors and refusals use.
//!
//! Every page answers with a Content-Security-Policy of `default-src 'self'`, sets no cookie
//! and names nothing on another origin except links a reader follows. Values reach a page
//! escaped by the library's escaper ([`pith::escape::html_attr`]).

use std::sync::LazyLock;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::http::etag::Etag;
use crate::http::reply::{self, types};
use crate::http::secure;
use crate::state::AppState;

/// The policy every page is served with ([`crate::http::secure::CSP`]).
pub use crate::http::secure::CSP;

/// What every page's frame needs: where the site is, its assets, whether it is a static copy.
#[derive(Debug, Clone, Serialize)]
pub struct Site {
    /// The path of the site root, `/`.
    pub root: &'static str,
    /// The absolute origin (`https://mirror.example.org`) for what readers copy elsewhere
    /// (snippets, the check recipe); empty when the server knows no public address of its own,
    /// and URLs are then relative to it.
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
            css: format!("/{}", crate::assets::CSS.path()),
            js: format!("/{}", crate::assets::JS.path()),
            is_static,
            papers,
        }
    }

    /// The frame of a page the server answers: URLs under its `--base-url`, or relative to the
    /// server when none was given (never taken from the request, so that no client can make a
    /// page name another host).
    pub fn of(state: &AppState) -> Self {
        Site::new(state.base_url().to_owned(), false, state.index().len().ok())
    }
}

static TERA: LazyLock<tera::Tera> = LazyLock::new(|| {
    let mut t = tera::Tera::default();
    // Names ending in .html are escaped for HTML by Tera; every value reaches a page escaped.
    t.add_raw_templates([
        ("base.html", include_str!("../templates/base.html.tera")),
        ("home.html", include_str!("../templates/home.html.tera")),
        (
            "message.html",
            include_str!("../templates/message.html.tera"),
        ),
        ("cites.html", include_str!("../templates/cites.html.tera")),
        ("record.html", include_str!("../templates/record.html.tera")),
        ("verify.html", include_str!("../templates/verify.html.tera")),
    ])
    .expect("the templates compiled into the binary parse (a unit test renders each)");
    // The library's escaper: `&`, `<`, `>`, `"` and `'` (Tera's own also writes `/` as
    // `&#x2F;`, which every URL on a page would pay for).
    t.set_escape_fn(pith::escape::html_attr);
    t
});

/// Renders `template` with `ctx` (which must hold `site`).
///
/// # Errors
/// A template that fails to render (a bug: the unit tests render every template).
pub fn render(template: &str, ctx: &tera::Context) -> Result<String, tera::Error> {
    TERA.render(template, ctx)
}

/// An HTML answer with the pages' headers: the answer's own ([`reply::finish`]: an `ETag` of
/// the body, `304` when the client holds it, `Cache-Control: no-cache`, since the page can
/// change with the index and the ETag makes asking cheap), the pages' policy
/// ([`crate::http::secure`]) and `Vary: Accept`.
pub fn html(status: StatusCode, body: String, request: &HeaderMap) -> Response {
    let etag = Etag::of(types::HTML, body.as_bytes());
    let mut r = reply::finish(
        request,
        status,
        types::HTML,
        &etag,
        "no-cache",
        axum::body::Body::from(body),
    );
    secure::complete(r.headers_mut());
    reply::vary_accept(r)
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
        [(header::CONTENT_TYPE, types::TEXT)],
        format!("the server could not answer: {e}\n"),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_is_compiled_in_and_the_frame_renders() {
        // Every file of templates/ is one the binary holds, under its name without `.tera`.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/templates");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .replace(".tera", "")
            })
            .collect();
        let mut held: Vec<String> = TERA.get_template_names().map(str::to_owned).collect();
        files.sort();
        held.sort();
        assert_eq!(files, held);
        let site = Site::new("https://m.example".into(), false, Some(3));
        let mut ctx = tera::Context::new();
        ctx.insert("site", &site);
        ctx.insert("heading", "A <b>heading</b>");
        ctx.insert("paragraphs", &["It's here."]);
        ctx.insert("search", &false);
        ctx.insert("query", "");
        ctx.insert("back_to_verify", &false);
        let page = render("message.html", &ctx).unwrap();
        // Escaped by the library's escaper: no `&#x2F;` in URLs, quotes and brackets escaped.
        assert!(page.contains("A &lt;b&gt;heading&lt;/b&gt;"), "{page}");
        assert!(page.contains("It&#39;s here."), "{page}");
        assert!(page.contains(&format!("href=\"{}\"", site.css)), "{page}");
        assert!(page.contains("class=\"mark\""), "the mark is on every page");
    }
}
