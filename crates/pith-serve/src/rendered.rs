//! A record's representations made once per index: the record page, its JSON and its
//! citations, rendered on a bounded pool of threads the first time one is asked for and kept
//! for the index served, whatever their size.
//!
//! A representation up to [`IN_MEMORY`] is kept in memory; a larger one (a collaboration of
//! tens of thousands of authors) is written once to a file in a folder beside the index (or the
//! system's temporary folder when that one cannot be written) and streamed from it: it weighs
//! on the memory bound only as a file name. Requests that arrive while one is being made wait
//! for it rather than make it again. Making runs on at most [`Rendered::new`]'s `threads` at
//! once, off the workers that answer requests, so other routes never queue behind it.
//!
//! This module keeps bytes; what they are is decided by its callers. It never reads a path
//! from a request: the files it writes are named by the temporary-file library.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use tokio::sync::Semaphore;

use crate::cache::Generation;
use crate::http::etag::Etag;

/// The largest representation kept in memory, in bytes; larger ones go to a file.
pub const IN_MEMORY: usize = 256 << 10;
/// What an entry costs besides its body in memory (the map's bookkeeping, the key, the tag).
const OVERHEAD: u64 = 512;
/// Read from a file this many bytes at a time when streaming it.
const CHUNK: usize = 64 << 10;

/// One representation made: its content type, its tag, its bytes (or the file holding them).
#[derive(Debug)]
pub struct Made {
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its `ETag`.
    pub etag: Etag,
    len: u64,
    held: Held,
}

#[derive(Debug)]
enum Held {
    Memory(Bytes),
    /// Removed when the last request streaming it is done and it is no longer kept.
    File(tempfile::TempPath),
}

impl Made {
    /// Its length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The answer to a request with these headers (`304` when it holds this one), streamed
    /// from its file when it has one: [`crate::http::reply::finish`] with its length.
    pub fn answer(self: &Arc<Self>, req: &HeaderMap, cache: &'static str) -> Response {
        let mut r = crate::http::reply::finish(
            req,
            StatusCode::OK,
            self.content_type,
            &self.etag,
            cache,
            self.body(),
        );
        if r.status() == StatusCode::OK {
            r.headers_mut()
                .insert(header::CONTENT_LENGTH, HeaderValue::from(self.len));
        }
        r
    }

    /// Its body: the bytes, or a stream of its file's bytes.
    pub fn body(self: &Arc<Self>) -> Body {
        match &self.held {
            Held::Memory(b) => Body::from(b.clone()),
            Held::File(path) => match std::fs::File::open(path) {
                Ok(f) => stream(tokio::fs::File::from_std(f), Arc::clone(self)),
                // Removed behind the server's back: the client sees a cut answer, as when a
                // disk fails; the next request makes it again.
                Err(e) => {
                    Body::from_stream(futures_util::stream::once(
                        async move { Err::<Bytes, _>(e) },
                    ))
                }
            },
        }
    }
}

/// The bytes of `file`, a chunk at a time; `keep` holds the file's entry until the end.
fn stream(file: tokio::fs::File, keep: Arc<Made>) -> Body {
    use tokio::io::AsyncReadExt;
    let s = futures_util::stream::unfold((file, keep), |(mut f, keep)| async move {
        let mut buf = Vec::with_capacity(CHUNK);
        match (&mut f).take(CHUNK as u64).read_to_end(&mut buf).await {
            Ok(0) => None,
            Ok(_) => Some((Ok(Bytes::from(buf)), (f, keep))),
            Err(e) => Some((Err(e), (f, keep))),
        }
    });
    Body::from_stream(s)
}

#[derive(Debug, Clone)]
struct Weigh;

impl quick_cache::Weighter<(u64, String), Arc<Made>> for Weigh {
    fn weight(&self, key: &(u64, String), val: &Arc<Made>) -> u64 {
        let body = match val.held {
            Held::Memory(ref b) => b.len() as u64,
            // A file costs its name in memory; its bytes are bounded apart, below.
            Held::File(_) => val.len / 64,
        };
        OVERHEAD + key.1.len() as u64 + body
    }
}

type Map = quick_cache::sync::Cache<(u64, String), Arc<Made>, Weigh>;

/// The representations made for the index served, and the pool that makes them.
#[derive(Clone)]
pub struct Rendered {
    map: Option<Arc<Map>>,
    dir: Option<Arc<tempfile::TempDir>>,
    pool: Arc<Semaphore>,
}

impl std::fmt::Debug for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rendered")
            .field("kept", &self.map.as_ref().map_or(0, |m| m.len()))
            .field("dir", &self.dir.as_ref().map(|d| d.path().to_owned()))
            .finish()
    }
}

impl Rendered {
    /// A store of at most `bytes` in memory (0 keeps nothing; every request makes its answer
    /// again, still on the pool), its large files in a new folder beside `index`, making at
    /// most `threads` representations at once.
    pub fn new(bytes: u64, index: &Path, threads: usize) -> Self {
        let beside = index.parent().filter(|p| !p.as_os_str().is_empty());
        let dir = beside
            .and_then(|p| {
                tempfile::Builder::new()
                    .prefix(".pith-pages-")
                    .tempdir_in(p)
                    .ok()
            })
            .or_else(|| {
                tempfile::Builder::new()
                    .prefix("pith-pages-")
                    .tempdir()
                    .ok()
            });
        let items = usize::try_from(bytes / 8192).unwrap_or(usize::MAX).max(16);
        Rendered {
            map: (bytes > 0).then(|| Arc::new(Map::with_weighter(items, bytes, Weigh))),
            dir: dir.map(Arc::new),
            pool: Arc::new(Semaphore::new(threads.max(1))),
        }
    }

    /// Forgets everything made (a rebuilt index is served).
    pub fn clear(&self) {
        if let Some(m) = &self.map {
            m.clear();
        }
    }

    /// The folder large representations are written to, if one could be made.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref().map(tempfile::TempDir::path)
    }

    /// The representation `key` of the index of `generation`: kept, or made by `make` on the
    /// pool (once, however many requests ask at the same time) and kept.
    ///
    /// # Errors
    /// `make`'s error, or a sentence when it could not run (the pool is gone, it panicked).
    pub async fn get<E>(
        &self,
        generation: Generation,
        key: &str,
        content_type: &'static str,
        make: impl FnOnce() -> Result<Vec<u8>, E> + Send + 'static,
    ) -> Result<Arc<Made>, E>
    where
        E: From<String> + Send + 'static,
    {
        let Some(map) = &self.map else {
            return self.make(content_type, make).await.map(Arc::new);
        };
        let k = (generation.0, key.to_owned());
        map.get_or_insert_async(&k, async {
            self.make(content_type, make).await.map(Arc::new)
        })
        .await
    }

    async fn make<E>(
        &self,
        content_type: &'static str,
        make: impl FnOnce() -> Result<Vec<u8>, E> + Send + 'static,
    ) -> Result<Made, E>
    where
        E: From<String> + Send + 'static,
    {
        let _turn = self
            .pool
            .acquire()
            .await
            .map_err(|_| E::from("the server is stopping".to_owned()))?;
        let dir = self.dir.clone();
        tokio::task::spawn_blocking(move || {
            let bytes = make()?;
            let etag = Etag::of(content_type, &bytes);
            let len = bytes.len() as u64;
            let held = match dir {
                Some(d) if bytes.len() > IN_MEMORY => match to_file(d.path(), &bytes) {
                    Ok(p) => Held::File(p),
                    // A full disk: kept in memory for this answer only (too large to keep).
                    Err(_) => Held::Memory(Bytes::from(bytes)),
                },
                _ => Held::Memory(Bytes::from(bytes)),
            };
            Ok(Made {
                content_type,
                etag,
                len,
                held,
            })
        })
        .await
        .map_err(|e| E::from(format!("the answer could not be made: {e}")))?
    }
}

fn to_file(dir: &Path, bytes: &[u8]) -> std::io::Result<tempfile::TempPath> {
    let mut f = tempfile::NamedTempFile::new_in(dir)?;
    f.write_all(bytes)?;
    f.flush()?;
    Ok(f.into_temp_path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn made_once_kept_and_large_ones_go_to_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let r = Rendered::new(1 << 20, &dir.path().join("x.pith-index"), 1);
        assert!(r.dir().unwrap().starts_with(dir.path()));
        let made = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let big = vec![b'a'; IN_MEMORY + 1];
        for _ in 0..3 {
            let (m, b) = (made.clone(), big.clone());
            let got = r
                .get(Generation(0), "k", "text/plain", move || {
                    m.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    Ok::<_, String>(b)
                })
                .await
                .unwrap();
            assert!(matches!(got.held, Held::File(_)));
            let body = axum::body::to_bytes(got.body(), usize::MAX).await.unwrap();
            assert_eq!(body.len(), big.len());
        }
        assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(std::fs::read_dir(r.dir().unwrap()).unwrap().count(), 1);
        r.clear();
        assert_eq!(std::fs::read_dir(r.dir().unwrap()).unwrap().count(), 0);
        // Another index: made again.
        let small = r
            .get(Generation(1), "k", "text/plain", || {
                Ok::<_, String>(b"x".to_vec())
            })
            .await
            .unwrap();
        assert!(matches!(small.held, Held::Memory(_)));
    }
}
