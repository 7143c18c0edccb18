//! The server's shared state ([`AppState`]): the index served, the answers kept of it, the
//! upload budget, the base URL and the limits.
//!
//! A rebuild renames a new index over the served file; [`watch`] notices (the path's identity,
//! checked about once a second, and on SIGHUP) and [`AppState::reload`] opens the new file and
//! swaps it in for new requests: each request reads the index it started with ([`pinned`]),
//! and the kept answers are forgotten. A replacement that is not a usable index is left alone
//! and the old one served.

use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use crate::cache::{Cache, Generation};
use crate::index::{self, FileId, Index};
use crate::limits::Limits;
use crate::rendered::Rendered;

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
    rendered: Rendered,
    uploads: crate::upload::Budget,
    base_url: String,
    limits: Limits,
    max_upload: u64,
}

tokio::task_local! {
    /// The index a request started with ([`pinned`]), and its generation.
    static PINNED: (Arc<Index>, Generation);
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

/// The default bound on a PDF sent to `/verify` (a limit, kept with the others).
pub use crate::limits::MAX_UPLOAD;

impl AppState {
    /// State serving `index` within `limits`. `base_url` (`https://mirror.example.org`, no
    /// trailing slash) prefixes the URLs the server writes (redirects, JSON-LD `@id`); empty, they
    /// are relative to the server.
    pub fn new(index: Index, base_url: &str, limits: Limits) -> Self {
        // A quarter of the memory for answers keeps what the record routes made (the answers'
        // cache keeps the small ones again, for the fastest path).
        let made = limits.cache_bytes / 4;
        // Making pages takes at most half the cores: the other routes keep the rest.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get() / 2);
        let rendered = Rendered::new(made, index.path(), threads);
        AppState {
            inner: Arc::new(Inner {
                current: RwLock::new((Arc::new(index), Generation(0))),
                rejected: Mutex::new(None),
                cache: Cache::new(limits.cache_bytes - made),
                rendered,
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
            .try_with(|p| Arc::clone(&p.0))
            .unwrap_or_else(|_| self.current().0)
    }

    /// The generation of [`AppState::index`].
    pub fn generation(&self) -> Generation {
        PINNED
            .try_with(|p| p.1)
            .unwrap_or_else(|_| self.current().1)
    }

    /// The record representations made for the index served.
    pub fn rendered(&self) -> &Rendered {
        &self.inner.rendered
    }

    /// The index served now, and its generation.
    pub fn current(&self) -> (Arc<Index>, Generation) {
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
            self.inner.rendered.clear();
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
                    self.inner.rendered.clear();
                    return Reload::Overwritten;
                }
                return Reload::Ignored;
            }
            // Found by a request, before the watcher looked: said here, once.
            index::FileState::Same if old.first_notice() => {
                self.inner.cache.close();
                self.inner.rendered.clear();
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

/// Runs `f` (a request's handling) reading `index` to its end, even when a rebuilt one is
/// swapped in meanwhile ([`AppState::index`] gives it inside).
pub async fn pinned<F: Future>(index: Arc<Index>, generation: Generation, f: F) -> F::Output {
    PINNED.scope((index, generation), f).await
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
