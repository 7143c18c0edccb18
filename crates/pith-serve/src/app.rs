//! The server's shared state ([`AppState`]) and its [`axum::Router`] ([`router`]).
//!
//! The JSON, JSON-LD, SVG and redirect routes are [`crate::routes`], their answers kept in
//! memory by [`crate::cache`] (an index does not change while served).
//!
//! A rebuild renames a new index over the served file; [`watch`] notices (the path's identity,
//! checked about once a second, and on SIGHUP) and [`AppState::reload`] opens the new file and
//! swaps it in for new requests: each request reads the index it started with ([`pin`]), and
//! the kept answers are forgotten. A replacement that is not a usable index is left alone and
//! the old one served. HTML pages join the router
//! in [`pages`], the one place they are added; `/pith/<26>` asks [`record_page`] for the page
//! when a client accepts `text/html`, and answers the JSON-LD document when there is none.

use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use crate::cache::{self, Cache, Generation};
use crate::index::{self, Entry, FileId, Index};
use crate::limits::{self, Limits};
use crate::routes;

/// What every handler shares: the index, the base URL and the limits.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    /// The index served to new requests, and how many were swapped in before it.
    current: RwLock<(Arc<Index>, Generation)>,
    /// The replacement last found unusable: it is reported once, not once a second.
    rejected: Mutex<Option<FileId>>,
    cache: Cache,
    uploads: crate::upload::Budget,
    base_url: String,
    limits: Limits,
    max_upload: u64,
}

tokio::task_local! {
    /// The index a request started with ([`pin`]).
    static PINNED: Arc<Index>;
}

/// What [`AppState::reload`] did.
#[derive(Debug)]
#[non_exhaustive]
pub enum Reload {
    /// The path still names the file served.
    Unchanged,
    /// A new file was found and is served from now on; the number of its records.
    Reloaded(u64),
    /// A new file was found but is not a usable index: the old one is still served.
    Rejected(index::Error),
    /// The file served was written over in place: requests are answered 503 until a new index
    /// is renamed over the path.
    Overwritten,
    /// Unusable as reported before, or the path names no file now (a rebuild renames its file
    /// into place, it never leaves the path empty): nothing to say again.
    Ignored,
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
                current: RwLock::new((Arc::new(index), Generation(0))),
                rejected: Mutex::new(None),
                cache: Cache::new(limits.cache_bytes),
                uploads: crate::upload::Budget::new(&limits),
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

    /// The index: the one the current request started with, or the one served now.
    pub fn index(&self) -> Arc<Index> {
        PINNED
            .try_with(Arc::clone)
            .unwrap_or_else(|_| self.current().0)
    }

    /// The index served now, and its generation.
    fn current(&self) -> (Arc<Index>, Generation) {
        let c = self.inner.current.read().unwrap_or_else(|e| e.into_inner());
        (Arc::clone(&c.0), c.1)
    }

    /// The answers kept in memory.
    pub fn cache(&self) -> &Cache {
        &self.inner.cache
    }

    /// The budget uploads and checks share.
    pub fn uploads(&self) -> &crate::upload::Budget {
        &self.inner.uploads
    }

    /// Serves `index` to new requests from now on (requests in flight finish on the old one)
    /// and forgets the answers kept from the old one.
    pub fn replace(&self, index: Index) {
        {
            let mut c = self
                .inner
                .current
                .write()
                .unwrap_or_else(|e| e.into_inner());
            let next = Generation(c.1 .0 + 1);
            *c = (Arc::new(index), next);
            self.inner.cache.serve(next);
        }
    }

    /// Swaps in the file at the served index's path if it is another one than served (a rebuild
    /// renamed a new index over it) and a usable index; otherwise the old one stays.
    pub fn reload(&self) -> Reload {
        let (old, _) = self.current();
        let now = match old.file_state() {
            index::FileState::Replaced(now) => now,
            index::FileState::Overwritten => {
                old.mark_overwritten();
                if old.first_notice() {
                    self.inner.cache.close();
                    return Reload::Overwritten;
                }
                return Reload::Ignored;
            }
            // Found by a request, before the watcher looked: said here, once.
            index::FileState::Same if old.first_notice() => {
                self.inner.cache.close();
                return Reload::Overwritten;
            }
            index::FileState::Same => return Reload::Unchanged,
            _ => return Reload::Ignored,
        };
        let mut rejected = self
            .inner
            .rejected
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if *rejected == Some(now) {
            return Reload::Ignored;
        }
        match Index::open(old.path()).and_then(|i| Ok((i.len()?, i))) {
            Ok((n, new)) => {
                *rejected = None;
                self.replace(new);
                Reload::Reloaded(n)
            }
            // Caught mid-rename: the next look finds the file that stays.
            Err(e) if matches!(e.kind(), index::ErrorKind::Replaced) => Reload::Unchanged,
            Err(e) => {
                *rejected = Some(now);
                Reload::Rejected(e)
            }
        }
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
    // The resolver's routes: answers kept in memory.
    let resolver = Router::new()
        .route("/pith/{segment}", get(routes::pith))
        .route("/pith/{code}/{file}", get(routes::pith_file))
        .route("/arxiv/{*id}", get(routes::arxiv))
        .route("/badge/{file}", get(routes::badge))
        .route("/healthz", get(routes::healthz))
        .route_layer(axum::middleware::from_fn_with_state(
            state.cache().clone(),
            cache::layer,
        ));
    Router::new()
        .merge(resolver)
        .merge(pages())
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
        .merge(crate::pages::upload_router())
        .layer(axum::middleware::from_fn_with_state(state.clone(), pin))
        .layer(axum::middleware::from_fn(crate::headers::secure))
        // Outermost: an answer already kept goes out before routing and the layers above.
        .layer(axum::middleware::from_fn_with_state(
            state.cache().clone(),
            cache::hot,
        ))
        .with_state(state)
}

/// Middleware: the request reads the index served when it arrived, to its end, even when a
/// rebuilt one is swapped in meanwhile; its [`Generation`] goes in its extensions for the cache.
pub async fn pin(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let (index, generation) = state.current();
    if index.is_overwritten() {
        return unavailable(req.headers());
    }
    req.extensions_mut().insert(generation);
    let headers = routes::negotiation(req.headers());
    let res = PINNED.scope(Arc::clone(&index), next.run(req)).await;
    // Found while answering, before the watcher looked.
    if res.status().is_server_error() && index.is_overwritten() {
        return unavailable(&headers);
    }
    res
}

/// The answer while the file served is one written over in place ([`Reload::Overwritten`]).
fn unavailable(req: &HeaderMap) -> Response {
    let mut r = routes::error(
        req,
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "this mirror's index file was overwritten while served and cannot be read; \
         it answers again once a new index is renamed into place",
    );
    let h = r.headers_mut();
    h.insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    h.insert(
        axum::http::header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("30"),
    );
    r
}

/// Watches the served index's path: about every `every`, and on SIGHUP, [`AppState::reload`];
/// `report` gets every reload that was not [`Reload::Unchanged`] or [`Reload::Ignored`]. The
/// future runs until the runtime ends; call this inside the runtime, before the server says it
/// listens: SIGHUP is taken over here, at the call, so from then on it no longer ends the
/// process.
pub fn watch(
    state: AppState,
    every: Duration,
    report: impl Fn(&Path, &Reload) + Send + 'static,
) -> impl std::future::Future<Output = ()> + Send {
    #[cfg(unix)]
    let mut hup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
    async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            #[cfg(unix)]
            {
                let hangup = async {
                    match hup.as_mut() {
                        Some(h) => h.recv().await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = hangup => {}
                }
            }
            #[cfg(not(unix))]
            tick.tick().await;
            let s = state.clone();
            // Opening and checking the new file reads it: off the workers that answer requests.
            let Ok(r) = tokio::task::spawn_blocking(move || s.reload()).await else {
                continue;
            };
            if !matches!(r, Reload::Unchanged | Reload::Ignored) {
                report(state.current().0.path(), &r);
            }
        }
    }
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
