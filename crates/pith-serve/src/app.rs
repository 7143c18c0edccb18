//! The whole application: the [`axum::Router`] ([`router`]) joining the resolver's routes
//! ([`crate::routes`], their answers kept in memory by [`crate::cache`]), the pages
//! ([`crate::pages`]) and the limits around them ([`crate::limits`]).
//!
//! The state every handler shares is [`crate::state`]'s; it is named here too, for the binary.

use axum::routing::get;
use axum::Router;

use crate::{cache, error, limits, pages, routes};

pub use crate::state::{pin, watch, AppState, Reload, MAX_UPLOAD};

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
    // The resolver's routes: answers kept in memory (errors rendered for the client before
    // they are kept), no request body.
    let resolver = Router::new()
        .route("/pith/{segment}", get(routes::pith))
        .route("/pith/{code}/{file}", get(routes::pith_file))
        .route("/arxiv/{*id}", get(routes::arxiv))
        .route("/badge/{file}", get(routes::badge))
        .route("/badge/arxiv/{*file}", get(routes::concept_badge))
        .route("/healthz", get(routes::healthz))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::layer,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            state.cache().clone(),
            cache::layer,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            l.max_body_bytes,
            limits::body_limit,
        ));
    Router::new()
        .merge(resolver)
        .merge(pages::router())
        .fallback(routes::fallback)
        .layer(axum::middleware::from_fn(routes::finish))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::layer,
        ))
        .layer(axum::middleware::from_fn_with_state(
            l.request_timeout,
            limits::deadline,
        ))
        // The upload takes bodies up to its own bound and in its own time (`--max-upload`), and
        // answers an oversize one with a page: the general body limit above is not for it.
        .merge(pages::upload_router())
        .layer(axum::middleware::from_fn_with_state(state.clone(), pin))
        .with_state(state)
}
