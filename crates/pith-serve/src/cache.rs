//! Answers kept in memory: an index is read-only while served, so the same request (path,
//! query and the kind of document asked for) always gets the same bytes, and a badge or record
//! asked for again is sent without another lookup, render or hash.
//!
//! When the server swaps in a rebuilt index (`AppState::reload`) the cache is
//! emptied ([`Cache::clear`]), and every answer is kept with the generation of the index it was
//! made from ([`Generation`]): an answer of the old index that a request still in flight keeps
//! afterwards is never given for the new one.
//!
//! The cache is bounded ([`Cache::new`]): entries are spread over shards by a hash of their
//! key, and a full shard is emptied before it takes a new entry (popular answers come back on
//! their next request). Only `GET`/`HEAD` answers with an `ETag` and a status of 200, 301,
//! 303 or 404 are kept; a `304` is answered from the kept `ETag`.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, Response, StatusCode};
use axum::middleware::Next;

use crate::negotiate::{Media, Negotiated};

/// The largest answer kept, in bytes.
const MAX_BODY: usize = 256 * 1024;
const SHARDS: usize = 16;

/// Which index a request is answered from: the server counts the indexes it swapped in.
/// The state's `pin` middleware puts it in each request's extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generation(pub u64);

#[derive(Debug)]
struct Kept {
    generation: Generation,
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

/// One shard of the cache: request key to answer.
type Shard = Mutex<HashMap<String, Arc<Kept>>>;

/// A bounded map from request to answer, shared by the server's workers.
#[derive(Debug, Clone)]
pub struct Cache {
    shards: Arc<Vec<Shard>>,
    per_shard: usize,
    hasher: std::collections::hash_map::RandomState,
}

impl Cache {
    /// A cache of about `entries` answers (0 keeps none).
    pub fn new(entries: usize) -> Self {
        Cache {
            shards: Arc::new((0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect()),
            per_shard: entries.div_ceil(SHARDS),
            hasher: std::collections::hash_map::RandomState::new(),
        }
    }

    fn shard(&self, key: &str) -> &Shard {
        &self.shards[(self.hasher.hash_one(key) as usize) % SHARDS]
    }

    fn get(&self, key: &str, generation: Generation) -> Option<Arc<Kept>> {
        self.shard(key)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .filter(|k| k.generation == generation)
            .cloned()
    }

    /// Forgets every answer (the index they were made from was replaced).
    pub fn clear(&self) {
        for s in self.shards.iter() {
            s.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    fn put(&self, key: String, kept: Kept) {
        if self.per_shard == 0 {
            return;
        }
        let mut shard = self.shard(&key).lock().unwrap_or_else(|e| e.into_inner());
        if shard.len() >= self.per_shard {
            shard.clear();
        }
        shard.insert(key, Arc::new(kept));
    }
}

/// The key of a request: path and query, and what kind of document the client asked for
/// (the answers of `/pith/<26>` depend on it).
fn key(req: &Request) -> String {
    let h = req.headers();
    let accept = Negotiated::of(h);
    let pq = req
        .uri()
        .path_and_query()
        .map_or(req.uri().path(), |p| p.as_str());
    // A record page names the server it was asked from (its snippets and check recipe, when no
    // --base-url is given), so the same page asked through another host name is another answer.
    if accept.accepts(Media::Html) {
        let host = h
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        return format!("{}{host}{pq}", accept.key());
    }
    format!("{}{pq}", accept.key())
}

fn etag_matches(req: &HeaderMap, etag: &[u8]) -> bool {
    req.get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t.as_bytes() == etag || t == "*")
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

/// Middleware: answers from the cache, or runs the route and keeps its answer.
pub async fn layer(State(cache): State<Cache>, req: Request, next: Next) -> Response<Body> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return next.run(req).await;
    }
    // A HEAD answer has no body to keep: it is answered from a kept GET, or runs the route.
    let is_get = req.method() == Method::GET;
    let key = key(&req);
    let generation = req
        .extensions()
        .get::<Generation>()
        .copied()
        .unwrap_or_default();
    let headers = crate::reply::negotiation(req.headers());
    if let Some(kept) = cache.get(&key, generation) {
        let etag = kept
            .headers
            .get(header::ETAG)
            .map(|v| v.as_bytes().to_vec());
        let nm = etag.is_some_and(|e| etag_matches(&headers, &e));
        return build(&kept, nm);
    }
    // The route answers without If-None-Match, so that the full answer can be kept.
    let mut req = req;
    req.headers_mut().remove(header::IF_NONE_MATCH);
    let res = next.run(req).await;
    let keep = is_get
        && matches!(res.status().as_u16(), 200 | 301 | 303 | 404)
        && res.headers().contains_key(header::ETAG);
    if !keep {
        return res;
    }
    let (parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return Response::builder()
            .status(StatusCode::INTERNAL_SERVER_ERROR)
            .body(Body::from("the answer was too large\n"))
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
        .is_some_and(|e| etag_matches(&headers, e.as_bytes()));
    let r = build(&kept, nm);
    cache.put(key, kept);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_shards_are_emptied() {
        let c = Cache::new(SHARDS);
        for i in 0..1000 {
            c.put(
                format!("k{i}"),
                Kept {
                    generation: Generation(0),
                    status: StatusCode::OK,
                    headers: HeaderMap::new(),
                    body: Bytes::new(),
                },
            );
        }
        let total: usize = c.shards.iter().map(|s| s.lock().unwrap().len()).sum();
        assert!(total <= SHARDS, "{total}");
        assert!(Cache::new(0).get("k", Generation(0)).is_none());
    }

    #[test]
    fn answers_of_another_index_are_not_given() {
        let c = Cache::new(SHARDS);
        let kept = |g| Kept {
            generation: Generation(g),
            status: StatusCode::OK,
            headers: HeaderMap::new(),
            body: Bytes::from_static(b"old"),
        };
        c.put("k".into(), kept(0));
        assert!(c.get("k", Generation(0)).is_some());
        assert!(c.get("k", Generation(1)).is_none());
        c.put("k".into(), kept(1));
        c.clear();
        assert!(c.get("k", Generation(1)).is_none());
    }
}
