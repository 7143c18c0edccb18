//! The whole application: the [`axum::Router`] ([`router`]) joining the resolver's routes
//! ([`crate::routes`], their answers kept in memory by [`crate::cache`]), the pages
//! ([`crate::pages`]), the limits around them ([`crate::limits`]) and the headers every answer
//! carries ([`crate::http::secure`]).
//!
//! The state every handler shares is [`crate::state`]'s; it is named here too, for the binary.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::error::Error;
use crate::http::{reply, secure};
use crate::{agent, cache, error, limits, pages, routes, state};

pub use crate::state::{watch, AppState, Reload, MAX_UPLOAD};

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
    // The resolver's routes and the pages: answers kept in memory, errors rendered for the
    // client (the one error layer) before they are kept. A new route is one line here.
    let resolver = Router::new()
        .route("/pith/{segment}", get(routes::pith))
        .route("/pith/{code}/{file}", get(routes::pith_file))
        .route("/arxiv/{*id}", get(routes::arxiv))
        .route("/badge/{file}", get(routes::badge::<routes::NumberBadge>))
        .route(
            "/badge/arxiv/{*file}",
            get(routes::badge::<routes::ConceptBadge>),
        )
        .route("/sitemap.xml", get(routes::sitemap_index))
        .route("/sitemap/{file}", get(routes::sitemap))
        .route("/healthz", get(routes::healthz))
        .route("/.well-known/pith/{code}/{file}", get(agent::well_known))
        .route("/api/pith-number/{code}/{file}", get(agent::api))
        .route("/pith-signing-key.json", get(agent::signing_key))
        .route("/pith-mirrors.json", get(agent::mirrors))
        .merge(pages::router())
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::layer,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            state.cache().clone(),
            cache::layer,
        ));
    let routed = Router::new()
        .merge(resolver)
        .fallback(routes::fallback)
        // One body rule for every route but the upload's, the fallback included.
        .layer(axum::middleware::from_fn_with_state(
            l.max_body_bytes,
            limits::body_limit,
        ))
        .layer(axum::middleware::from_fn(routes::finish))
        .layer(axum::middleware::from_fn_with_state(
            l.request_timeout,
            limits::deadline,
        ))
        // The upload takes bodies up to its own bound and in its own time (`--max-upload`), and
        // answers an oversize one with a page: the general body limit above is not for it.
        .merge(pages::upload_router())
        .layer(axum::middleware::from_fn_with_state(state.clone(), pin))
        .layer(axum::middleware::from_fn(secure::secure))
        .with_state(state.clone());
    // Outermost: an answer already kept goes out before routing and the layers above. A
    // router's own layers run after its routing (each route holds a copy of the stack), so
    // the cache wraps the whole router instead, as the one service of a router of no routes.
    let hot = tower::ServiceBuilder::new()
        .layer(axum::middleware::from_fn_with_state(
            state.cache().clone(),
            cache::hot,
        ))
        .service(routed);
    Router::new().fallback_service(hot)
}

/// The application as the accept loops run it ([`limits::serve`]): a request whose answer is
/// kept for the index served goes out from memory at once, without the router's routing,
/// layers and boxed futures (the badge asked again and again, the record page of a link
/// shared); any other goes through [`router`], which looks the cache up no second time.
#[derive(Clone)]
pub struct App {
    cache: cache::Cache,
    router: Router,
}

impl App {
    /// The application serving `state`.
    pub fn new(state: AppState) -> Self {
        App {
            cache: state.cache().clone(),
            router: router(state),
        }
    }
}

impl limits::Answers for App {
    async fn answer(&self, mut req: Request<hyper::body::Incoming>) -> Response {
        match self.cache.kept(&mut req) {
            Some(r) => r,
            None => self.router.answer(req).await,
        }
    }
}

/// Middleware: the request reads the index served when it arrived, to its end, even when a
/// rebuilt one is swapped in meanwhile ([`state::pinned`]); its generation goes in its
/// extensions for the cache. While the file served is one written over in place, 503.
pub async fn pin(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let (index, generation) = state.current();
    if index.is_overwritten() {
        return unavailable(req.headers(), &state);
    }
    req.extensions_mut().insert(generation);
    let headers = reply::asked(&mut req);
    let res = state::pinned(Arc::clone(&index), generation, next.run(req)).await;
    // Found while answering, before the watcher looked.
    if res.status().is_server_error() && index.is_overwritten() {
        return unavailable(&headers, &state);
    }
    res
}

/// The answer while the file served is one written over in place ([`Reload::Overwritten`]).
fn unavailable(req: &HeaderMap, state: &AppState) -> Response {
    let mut r = Error::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "this mirror's index file was overwritten while served and cannot be read; \
         it answers again once a new index is renamed into place",
    )
    .answer(req, state);
    let h = r.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
    r
}
