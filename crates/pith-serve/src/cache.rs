//! Answers kept in memory: an index is read-only while served, so the same request (path,
//! the options its query names and the kind of document asked for) always gets the same
//! bytes, and a badge or record asked for again is sent without another lookup, render or
//! hash.
//!
//! When the server swaps in a rebuilt index (`AppState::reload`) the cache is
//! emptied ([`Cache::clear`]), and every answer is kept with the generation of the index it was
//! made from ([`Generation`]): an answer of the old index that a request still in flight keeps
//! afterwards is never given for the new one.
//!
//! The cache is bounded in bytes ([`Cache::new`]): every answer weighs its body, headers and
//! key, and the least useful answers make room for new ones (quick_cache's CLOCK-Pro, which
//! keeps the popular ones). An answer larger than [`MAX_ENTRY`] is sent as it is made, streamed,
//! and not kept. Keys are normalised: a query counts only through the badge options it names
//! ([`crate::http::badge::BadgeRequest`]), so unknown keys or the same options spelt another
//! way cannot add entries, and other routes take no query at all. Only `GET` answers with an
//! `ETag`, a size known in advance and a status of 200, 301, 303 or 404 are kept; a `304` is
//! answered from the kept `ETag`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, Method, Response, StatusCode};
use axum::middleware::Next;

use crate::http::badge::BadgeRequest;
use crate::http::negotiate::Negotiated;

/// The largest answer kept, in bytes: larger ones are streamed to the client as they are made.
pub const MAX_ENTRY: u64 = 1 << 20;
/// What an entry costs besides its body and headers (the map's own bookkeeping), in bytes.
const OVERHEAD: u64 = 256;

/// Which index a request is answered from: the server counts the indexes it swapped in.
/// The application's `pin` middleware puts it in each request's extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generation(pub u64);

#[derive(Debug)]
struct Kept {
    generation: Generation,
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Kept {
    fn weight(&self, key: &str) -> u64 {
        let headers: usize = self
            .headers
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 32)
            .sum();
        OVERHEAD + key.len() as u64 + headers as u64 + self.body.len() as u64
    }
}

#[derive(Debug, Clone)]
struct Weigh;

impl quick_cache::Weighter<String, Arc<Kept>> for Weigh {
    fn weight(&self, key: &String, val: &Arc<Kept>) -> u64 {
        val.weight(key)
    }
}

type Map = quick_cache::sync::Cache<String, Arc<Kept>, Weigh>;

/// A map from request to answer bounded in bytes, shared by the server's workers.
#[derive(Clone)]
pub struct Cache {
    map: Option<Arc<Map>>,
    max_entry: u64,
    /// The generation of the index served now, for [`hot`]; `u64::MAX` while nothing may be
    /// answered from memory ([`Cache::close`]).
    serving: Arc<AtomicU64>,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("bytes", &self.bytes())
            .field("max_entry", &self.max_entry)
            .finish()
    }
}

impl Cache {
    /// A cache of at most `bytes` of answers (0 keeps none).
    pub fn new(bytes: u64) -> Self {
        // Badges and records weigh a few KiB each: the item estimate only sizes the tables.
        let items = usize::try_from(bytes / 4096).unwrap_or(usize::MAX).max(16);
        Cache {
            map: (bytes > 0).then(|| Arc::new(Map::with_weighter(items, bytes, Weigh))),
            max_entry: MAX_ENTRY.min(bytes),
            serving: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Forgets every answer and answers from now on for the index of `generation` (a rebuilt
    /// one swapped in).
    pub fn serve(&self, generation: Generation) {
        self.serving.store(generation.0, Ordering::Release);
        self.clear();
    }

    /// Forgets every answer and gives none from memory any more (the file served was written
    /// over in place): requests go to the routes, which say so.
    pub fn close(&self) {
        self.serving.store(u64::MAX, Ordering::Release);
        self.clear();
    }

    /// Bytes kept now (bodies, headers and keys).
    pub fn bytes(&self) -> u64 {
        self.map.as_ref().map_or(0, |m| m.weight())
    }

    /// Answers kept now.
    pub fn len(&self) -> usize {
        self.map.as_ref().map_or(0, |m| m.len())
    }

    /// Whether no answer is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, key: &str, generation: Generation) -> Option<Arc<Kept>> {
        self.map
            .as_ref()?
            .get(key)
            .filter(|k| k.generation == generation)
    }

    /// Forgets every answer (the index they were made from was replaced).
    pub fn clear(&self) {
        if let Some(m) = &self.map {
            m.clear();
        }
    }

    fn put(&self, key: String, kept: Kept) {
        if let Some(m) = &self.map {
            if kept.weight(&key) <= self.max_entry.saturating_add(64 * 1024) {
                m.insert(key, Arc::new(kept));
            }
        }
    }
}

/// A request's key, made by [`hot`] for [`layer`].
#[derive(Clone)]
struct Keyed(String);

/// The text of a search (`/?q=`), the only part of its query a search reads.
#[derive(serde::Deserialize)]
struct SearchKey {
    q: Option<String>,
}

/// The key of a request: what kind of document the client asked for (the answers of
/// `/pith/<26>` depend on it), the path, and for a badge the options its query names; `None`
/// when the query cannot be read (the route answers 400, which is not kept).
fn key<B>(req: &mut axum::http::Request<B>) -> Option<String> {
    let h = req.headers();
    let accept = Negotiated::of(h);
    let path = req.uri().path();
    let mut key = String::with_capacity(path.len() + 48);
    key.push_str(&accept.key());
    // No answer depends on the request's Host: the only host the server names is its own
    // --base-url.
    key.push_str(path);
    // A search answers by its text alone.
    if path == "/" {
        // A query that cannot be read is answered by the route, not kept.
        let Query(s) = Query::<SearchKey>::try_from_uri(req.uri()).ok()?;
        if let Some(q) = s.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
            key.push_str("?q=");
            key.push_str(q);
        }
    }
    // A paged list answers by its page alone (page 1 when none is named).
    if path.starts_with("/pith/")
        && (path.ends_with("/references.json") || path.ends_with("/cited-by.json"))
    {
        let page = crate::index::cites::page_of(req.uri().query())?;
        if page > 1 {
            key.push_str(&format!("?page={page}"));
        }
    }
    if path.starts_with("/badge/") && req.uri().query().is_some() {
        let badge = match req.extensions().get::<BadgeRequest>() {
            Some(b) => b.key(),
            None => {
                let b = BadgeRequest::read(req.uri());
                let k = b.key();
                // Read once: the route's extractor takes it from here.
                req.extensions_mut().insert(b);
                k
            }
        };
        key.push('?');
        key.push_str(&badge?);
    }
    Some(key)
}

fn build(kept: &Kept, not_modified: bool) -> Response<Body> {
    let (status, body) = if not_modified {
        (StatusCode::NOT_MODIFIED, Body::empty())
    } else {
        (kept.status, Body::from(kept.body.clone()))
    };
    let mut r = Response::new(body);
    *r.status_mut() = status;
    *r.headers_mut() = kept.headers.clone();
    if not_modified {
        r.headers_mut().remove(header::CONTENT_TYPE);
        r.headers_mut().remove(header::CONTENT_LENGTH);
    }
    r
}

impl Cache {
    /// The answer kept for `req` from the index served now, if there is one, for a `GET` or
    /// `HEAD` without a body; else `None`, and `req` carries the key its answer is kept under
    /// (for [`layer`]). A request already looked up is not looked up again.
    pub fn kept<B>(&self, req: &mut axum::http::Request<B>) -> Option<Response<Body>> {
        let serving = self.serving.load(Ordering::Acquire);
        let plain = (req.method() == Method::GET || req.method() == Method::HEAD)
            && serving != u64::MAX
            && self.map.is_some()
            && !req.headers().contains_key(header::CONTENT_LENGTH)
            && !req.headers().contains_key(header::TRANSFER_ENCODING)
            && req.extensions().get::<Keyed>().is_none();
        if !plain {
            return None;
        }
        let key = key(req)?;
        match self.get(&key, Generation(serving)) {
            Some(kept) => {
                let nm = kept
                    .headers
                    .get(header::ETAG)
                    .is_some_and(|e| crate::http::etag::matches(req.headers(), e.as_bytes()));
                Some(build(&kept, nm))
            }
            None => {
                // Made once: the layer that keeps the answer reads it from here.
                req.extensions_mut().insert(Keyed(key));
                None
            }
        }
    }
}

/// Middleware, outside everything else: a `GET` or `HEAD` whose answer is kept for the index
/// served now is answered from memory ([`Cache::kept`]), before routing, negotiation and the
/// layers that make answers run; any other request goes on. A request with a body goes on too
/// (the body rule answers it).
pub async fn hot(State(cache): State<Cache>, mut req: Request, next: Next) -> Response<Body> {
    match cache.kept(&mut req) {
        Some(r) => r,
        None => next.run(req).await,
    }
}

/// Middleware: answers from the cache, or runs the route and keeps its answer.
pub async fn layer(State(cache): State<Cache>, mut req: Request, next: Next) -> Response<Body> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return next.run(req).await;
    }
    let key = match req.extensions_mut().remove::<Keyed>() {
        Some(Keyed(k)) => Some(k),
        None => key(&mut req),
    };
    let Some(key) = key else {
        return next.run(req).await;
    };
    // A HEAD answer has no body to keep: it is answered from a kept GET, or runs the route.
    let is_get = req.method() == Method::GET;
    let generation = req
        .extensions()
        .get::<Generation>()
        .copied()
        .unwrap_or_default();
    let headers = crate::http::reply::asked(&mut req);
    if let Some(kept) = cache.get(&key, generation) {
        let etag = kept
            .headers
            .get(header::ETAG)
            .map(|v| v.as_bytes().to_vec());
        let nm = etag.is_some_and(|e| crate::http::etag::matches(&headers, &e));
        return build(&kept, nm);
    }
    // The route answers without If-None-Match, so that the full answer can be kept.
    let mut req = req;
    req.headers_mut().remove(header::IF_NONE_MATCH);
    let res = next.run(req).await;
    // A large answer goes out as it is, streamed: it is not read into memory to be kept.
    let size = res.body().size_hint().exact();
    let keep = is_get
        && cache.map.is_some()
        && size.is_some_and(|n| n <= cache.max_entry)
        && matches!(res.status().as_u16(), 200 | 301 | 303 | 404)
        && res.headers().contains_key(header::ETAG);
    if !keep {
        return not_modified_or(res, &headers);
    }
    let (mut parts, body) = res.into_parts();
    // Kept as the layers outside would finish it: the hot path adds nothing.
    crate::http::secure::complete(&mut parts.headers);
    let Ok(bytes) =
        axum::body::to_bytes(body, usize::try_from(cache.max_entry).unwrap_or(usize::MAX)).await
    else {
        return Response::builder()
            .status(StatusCode::INTERNAL_SERVER_ERROR)
            .body(Body::from("the answer could not be made\n"))
            .unwrap_or_default();
    };
    let kept = Kept {
        generation,
        status: parts.status,
        headers: parts.headers,
        body: bytes,
    };
    let nm = kept
        .headers
        .get(header::ETAG)
        .is_some_and(|e| crate::http::etag::matches(&headers, e.as_bytes()));
    let r = build(&kept, nm);
    cache.put(key, kept);
    r
}

/// An answer not kept, or `304` when its `ETag` matches the request's `If-None-Match` (the
/// route was asked without it).
fn not_modified_or(res: Response<Body>, req: &HeaderMap) -> Response<Body> {
    let matches = res.status() == StatusCode::OK
        && res
            .headers()
            .get(header::ETAG)
            .is_some_and(|e| crate::http::etag::matches(req, e.as_bytes()));
    if !matches {
        return res;
    }
    let (mut parts, _) = res.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(g: u64, body: &'static [u8]) -> Kept {
        Kept {
            generation: Generation(g),
            status: StatusCode::OK,
            headers: HeaderMap::new(),
            body: Bytes::from_static(body),
        }
    }

    #[test]
    fn the_cache_holds_its_byte_budget() {
        let budget = 256 * 1024;
        let c = Cache::new(budget);
        static BODY: [u8; 10_000] = [b'x'; 10_000];
        for i in 0..1000 {
            c.put(format!("k{i}"), kept(0, &BODY));
        }
        assert!(c.bytes() <= budget, "{} > {budget}", c.bytes());
        assert!(c.len() >= 10, "{} entries kept", c.len());
        assert!(Cache::new(0).get("k", Generation(0)).is_none());
        // An entry over the per-entry bound is not kept.
        static BIG: [u8; 300_000] = [b'x'; 300_000];
        let c = Cache::new(budget);
        c.put("big".into(), kept(0, &BIG));
        assert!(c.get("big", Generation(0)).is_none());
    }

    #[test]
    fn answers_of_another_index_are_not_given() {
        let c = Cache::new(1 << 20);
        c.put("k".into(), kept(0, b"old"));
        assert!(c.get("k", Generation(0)).is_some());
        assert!(c.get("k", Generation(1)).is_none());
        c.put("k".into(), kept(1, b"new"));
        c.clear();
        assert!(c.get("k", Generation(1)).is_none());
    }

    #[test]
    fn queries_count_only_through_the_options_they_name() {
        let key_of = |uri: &str| key(&mut Request::builder().uri(uri).body(Body::empty()).unwrap());
        let b = "/badge/7BMK4ZKTPUTUY3JKWBANNPOFR5.svg";
        let plain = key_of(b).unwrap();
        assert_eq!(key_of(&format!("{b}?n=1")), key_of(&format!("{b}?n=2")));
        assert_eq!(key_of(&format!("{b}?full=0")), key_of(&format!("{b}?n=2")));
        assert_eq!(
            key_of(&format!("{b}?full=1")),
            key_of(&format!("{b}?full=yes"))
        );
        assert_ne!(key_of(&format!("{b}?full=1")).unwrap(), plain);
        // Repeated keys and bad values: no key (the route answers 400, which is not kept).
        assert_eq!(key_of(&format!("{b}?full=1&full=0")), None);
        assert_eq!(key_of(&format!("{b}?style=nope")), None);
        // A search is its text; one that cannot be read has no key.
        assert_ne!(key_of("/?q=2402.03791"), key_of("/"));
        assert_eq!(key_of("/?q=2402.03791&x=1"), key_of("/?q=%202402.03791"));
        assert_eq!(key_of("/?q=a&q=b"), None);
        // Other routes take no query.
        let r = "/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5.json";
        assert_eq!(key_of(&format!("{r}?n=1")), key_of(r));
    }
}
