//! The cache of raw responses: one file per answer under the cache directory, written whole
//! (temporary file, then rename) so that a reader never sees half an answer, and only after
//! the answer was read and understood (a truncated or malformed answer is never cached).
//!
//! Layout (relative to the cache directory):
//! - `arxiv/<id>/v<N>.xml`: arXiv's `GetRecord` answer for `<id>` when its latest version was
//!   `N` (old-style ids keep their slash, so `arxiv/hep-th/9901001/v2.xml`). An older
//!   answer stays: it holds that version's title and abstract, which arXiv no longer serves;
//! - `resolver/<26>.json`, `resolver/<26>.bundle.json`: the resolver's record and bundle;
//! - `arxiv.lock`, `resolver.lock`: the spacing locks and timestamps ([`super::client`]).
//!
//! The module decides file names and freshness; it does no network I/O.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::{Error, ErrorKind};

/// How long a cached answer to an unversioned arXiv request is used before arXiv is asked
/// again (a new version may have appeared). Offline, any age is used.
pub const ARXIV_FRESH: Duration = Duration::from_secs(24 * 3600);

/// A cache directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// A cached file and its age.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// How long ago it was written (zero when the clock says it is from the future).
    pub age: Duration,
}

fn cache_err(path: &Path, source: std::io::Error) -> Error {
    ErrorKind::Cache {
        path: path.to_owned(),
        source,
    }
    .into()
}

impl Cache {
    /// The cache at `dir` (created when first written to).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Cache { dir: dir.into() }
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The directory holding the answers about arXiv paper `id` (no version).
    pub fn arxiv_dir(&self, id: &str) -> PathBuf {
        let mut p = self.dir.join("arxiv");
        for part in id.split('/') {
            p.push(part);
        }
        p
    }

    /// The file of arXiv's answer for `id` whose latest version is `version`.
    pub fn arxiv_file(&self, id: &str, version: u32) -> PathBuf {
        self.arxiv_dir(id).join(format!("v{version}.xml"))
    }

    /// The cached arXiv answers for `id`, as (latest version, entry), highest version first.
    ///
    /// # Errors
    /// [`ErrorKind::Cache`] when the directory exists but cannot be read.
    pub fn arxiv_entries(&self, id: &str) -> Result<Vec<(u32, Entry)>, Error> {
        let dir = self.arxiv_dir(id);
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
            Err(e) => return Err(cache_err(&dir, e)),
        };
        let mut out = Vec::new();
        for de in rd {
            let de = de.map_err(|e| cache_err(&dir, e))?;
            let name = de.file_name();
            let Some(v) = name
                .to_str()
                .and_then(|n| n.strip_suffix(".xml"))
                .and_then(crate::record::arxiv::version_number)
            else {
                continue;
            };
            if let Some(e) = entry(&de.path()) {
                out.push((v, e));
            }
        }
        out.sort_by_key(|e| std::cmp::Reverse(e.0));
        Ok(out)
    }

    /// The file of the resolver's record (`bundle` false) or bundle for a code.
    pub fn resolver_file(&self, code: &str, bundle: bool) -> PathBuf {
        let name = if bundle {
            format!("{code}.bundle.json")
        } else {
            format!("{code}.json")
        };
        self.dir.join("resolver").join(name)
    }

    /// The lock and timestamp file of a service (`arxiv`, `resolver`).
    pub fn lock_file(&self, service: &str) -> PathBuf {
        self.dir.join(format!("{service}.lock"))
    }

    /// Reads a cached file, if there is one: within the bound of a small file read whole
    /// ([`crate::bounded::FILE_BYTES`], above the largest answer pith stores), so a file put
    /// in the cache's place that never ends (a FIFO, a device) or is far larger is refused,
    /// not held.
    ///
    /// # Errors
    /// [`ErrorKind::Cache`] when it exists but cannot be read, or is larger than any answer.
    pub fn read(&self, path: &Path) -> Result<Option<Vec<u8>>, Error> {
        match crate::bounded::read_file(path, crate::bounded::FILE_BYTES) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(cache_err(path, e)),
        }
    }

    /// Reads a cached file younger than `max_age` (of any age when `offline`: nothing newer
    /// can be asked for), if there is one.
    ///
    /// # Errors
    /// As [`Cache::read`].
    pub fn read_fresh(
        &self,
        path: &Path,
        max_age: Duration,
        offline: bool,
    ) -> Result<Option<Vec<u8>>, Error> {
        let fresh = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| offline || age < max_age);
        if fresh {
            self.read(path)
        } else {
            Ok(None)
        }
    }

    /// Stores `bytes` at `path` (inside the cache), whole or not at all.
    ///
    /// # Errors
    /// [`ErrorKind::Cache`] when the directory cannot be created or the file written.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), Error> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| cache_err(parent, e))?;
        }
        crate::output::write_file_with(path, None, |f| std::io::Write::write_all(f, bytes)).map_err(
            |e| {
                let (p, _, io) = e.into_parts();
                cache_err(&p, io)
            },
        )
    }
}

/// The entry of an existing file.
fn entry(path: &Path) -> Option<Entry> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let age = meta
        .modified()
        .ok()
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .unwrap_or_default();
    Some(Entry {
        path: path.to_owned(),
        age,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::new(dir.path());
        assert_eq!(
            c.arxiv_file("hep-th/9901001", 2),
            dir.path().join("arxiv/hep-th/9901001/v2.xml")
        );
        assert!(c.arxiv_entries("2402.03791").unwrap().is_empty());
        c.write(&c.arxiv_file("2402.03791", 3), b"three").unwrap();
        c.write(&c.arxiv_file("2402.03791", 12), b"twelve").unwrap();
        std::fs::write(c.arxiv_dir("2402.03791").join("junk.xml"), b"").unwrap();
        let e = c.arxiv_entries("2402.03791").unwrap();
        assert_eq!(e.iter().map(|x| x.0).collect::<Vec<_>>(), [12, 3]);
        assert_eq!(c.read(&e[0].1.path).unwrap().unwrap(), b"twelve");
        assert_eq!(c.read(&c.resolver_file("X", true)).unwrap(), None);
    }
}
