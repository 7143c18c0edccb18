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

/// What every handler shares: the index and the limits.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    limits: Limits,
}

impl AppState {
    /// State serving with `limits`.
    pub fn new(limits: Limits) -> Self {
        AppState {
            inner: Arc::new(Inner { limits }),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
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
        .with_state(state)
}

/// The HTML pages (home, record page, verify, assets). None are served yet: a client asking
/// for `text/html` gets the JSON documents.
pub fn pages() -> Router<AppState> {
    Router::new()
}

/// The HTML record page of `/pith/<26>` for a client that accepts `text/html`, or `None` to
/// answer the JSON-LD document instead (as now: no pages are served yet).
pub fn record_page(_state: &AppState, _headers: &HeaderMap) -> Option<Response> {
    None
}

async fn healthz() -> &'static str {
    "ok\n"
}
