//! The server's shared state ([`AppState`]) and its [`axum::Router`] ([`router`]).
//!
//! The JSON, JSON-LD, SVG and redirect routes are [`crate::routes`]; HTML pages join the router
//! in [`pages`], the one place they are added, and a record page answers `/pith/<26>` for
//! clients that accept `text/html` through [`record_page`].

use std::sync::Arc;

use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::limits::{self, Limits};
use crate::pages::catalog::Catalog;

/// What every handler shares: the index and the limits.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    limits: Limits,
    catalog: Arc<dyn Catalog>,
    max_upload: u64,
    public_url: Option<String>,
}

/// The default bound on a PDF sent to `/verify`: 100 MB.
pub const MAX_UPLOAD: u64 = 100_000_000;

impl AppState {
    /// State serving `catalog` with `limits`.
    pub fn new(limits: Limits, catalog: Arc<dyn Catalog>) -> Self {
        AppState {
            inner: Arc::new(Inner {
                limits,
                catalog,
                max_upload: MAX_UPLOAD,
                public_url: None,
            }),
        }
    }

    /// The same state with another bound on uploads to `/verify`.
    pub fn with_max_upload(self, bytes: u64) -> Self {
        self.map(|i| i.max_upload = bytes)
    }

    /// The same state with the URL readers use to reach this server (`https://mirror.example`),
    /// for what the pages tell them to copy; without it, the request's `Host` is used.
    pub fn with_public_url(self, url: Option<String>) -> Self {
        self.map(|i| i.public_url = url)
    }

    fn map(self, f: impl FnOnce(&mut Inner)) -> Self {
        let mut inner = Inner {
            limits: self.inner.limits,
            catalog: self.inner.catalog.clone(),
            max_upload: self.inner.max_upload,
            public_url: self.inner.public_url.clone(),
        };
        f(&mut inner);
        AppState {
            inner: Arc::new(inner),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// What the pages look up.
    pub fn catalog(&self) -> &dyn Catalog {
        self.inner.catalog.as_ref()
    }

    /// The bound on uploads to `/verify`, in bytes.
    pub fn max_upload(&self) -> u64 {
        self.inner.max_upload
    }

    /// The public URL, when one was given.
    pub fn public_url(&self) -> Option<&str> {
        self.inner.public_url.as_deref()
    }
}

/// The whole application: the resolver's routes, the pages, and the limits around them.
pub fn router(state: AppState) -> Router {
    let l = *state.limits();
    Router::new()
        .route("/healthz", get(healthz))
        .merge(pages())
        .layer(axum::middleware::from_fn_with_state(
            (l.max_body_bytes, l.request_timeout),
            limits::body_limit,
        ))
        // The upload takes bodies up to its own bound and its own time (`--max-upload`), and
        // answers an oversize one with a page; the general body limit above is not its own.
        .merge(crate::pages::upload_router())
        .with_state(state)
}

/// The HTML pages (home and search, the verify form, assets); the upload is
/// [`crate::pages::upload_router`].
pub fn pages() -> Router<AppState> {
    crate::pages::router()
}

/// The HTML record page of `/pith/<code>` for a client that accepts `text/html`, or `None` to
/// answer the JSON-LD document instead.
pub fn record_page(state: &AppState, headers: &HeaderMap, code: &str) -> Option<Response> {
    crate::pages::record::page(state, headers, code)
}

async fn healthz() -> &'static str {
    "ok\n"
}
