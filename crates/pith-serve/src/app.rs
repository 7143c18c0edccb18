//! The server's shared state ([`AppState`]) and its [`axum::Router`] ([`router`]).
//!
//! The JSON, JSON-LD, SVG and redirect routes are [`crate::routes`], their answers kept in
//! memory by [`crate::cache`] (the index does not change while served). HTML pages join the router
//! in [`pages`], the one place they are added; `/pith/<26>` asks [`record_page`] for the page
//! when a client accepts `text/html`, and answers the JSON-LD document when there is none.

use std::sync::Arc;

use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::cache::{self, Cache};
use crate::index::{Entry, Index};
use crate::limits::{self, Limits};
use crate::routes;

/// What every handler shares: the index, the base URL and the limits.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    index: Index,
    base_url: String,
    limits: Limits,
    max_upload: u64,
}

/// The default bound on a PDF sent to `/verify`: 100 MB.
pub const MAX_UPLOAD: u64 = 100_000_000;

impl AppState {
    /// State serving `index` within `limits`. `base_url` (`https://mirror.example.org`, no
    /// trailing slash) prefixes the URLs the server writes (redirects, JSON-LD `@id`); empty, they
    /// are relative to the server.
    pub fn new(index: Index, base_url: &str, limits: Limits) -> Self {
        AppState {
            inner: Arc::new(Inner {
                index,
                base_url: base_url.trim_end_matches('/').to_owned(),
                limits,
                max_upload: MAX_UPLOAD,
            }),
        }
    }

    /// The same state with another bound, in bytes, on a PDF sent to `/verify`
    /// ([`MAX_UPLOAD`] by default). Call it before the state is shared.
    pub fn with_max_upload(mut self, bytes: u64) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.max_upload = bytes;
        }
        self
    }

    /// The bound on a PDF sent to `/verify`, in bytes.
    pub fn max_upload(&self) -> u64 {
        self.inner.max_upload
    }

    /// The index.
    pub fn index(&self) -> &Index {
        &self.inner.index
    }

    /// The base URL, without a trailing slash; empty for URLs relative to the server.
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }
}

/// The whole application: the resolver's routes, the pages, and the limits around them.
///
/// # Examples
/// ```no_run
/// use pith_serve::{app, index::Index, limits::Limits};
/// let index = Index::open("arxiv.pith-index".as_ref())?;
/// let router = app::router(app::AppState::new(index, "", Limits::default()));
/// # Ok::<(), pith_serve::index::Error>(())
/// ```
pub fn router(state: AppState) -> Router {
    let l = *state.limits();
    // The resolver's routes: answers kept in memory, no request body.
    let resolver = Router::new()
        .route("/pith/{segment}", get(routes::pith))
        .route("/pith/{code}/{file}", get(routes::pith_file))
        .route("/arxiv/{*id}", get(routes::arxiv))
        .route("/badge/{file}", get(routes::badge))
        .route("/healthz", get(routes::healthz))
        .route_layer(axum::middleware::from_fn_with_state(
            Cache::new(l.cache_entries),
            cache::layer,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            l.max_body_bytes,
            limits::body_limit,
        ));
    Router::new()
        .merge(resolver)
        .merge(pages())
        .fallback(routes::fallback)
        .layer(axum::middleware::from_fn(routes::finish))
        .layer(axum::middleware::from_fn_with_state(
            l.request_timeout,
            limits::deadline,
        ))
        // The upload takes bodies up to its own bound and in its own time (`--max-upload`), and
        // answers an oversize one with a page: the general body limit above is not for it.
        .merge(crate::pages::upload_router())
        .with_state(state)
}

/// The HTML pages join the router here: home and search, and the assets
/// ([`crate::pages::router`]); `/verify` is [`crate::pages::upload_router`], outside the body
/// limit.
pub fn pages() -> Router<AppState> {
    crate::pages::router()
}

/// The HTML page of a record, for `/pith/<26>` asked with `Accept: text/html`; `None` answers
/// the JSON-LD document instead, as for a client that asks for JSON.
pub fn record_page(state: &AppState, req: &HeaderMap, entry: &Entry) -> Option<Response> {
    Some(crate::pages::record::page(state, req, entry))
}
