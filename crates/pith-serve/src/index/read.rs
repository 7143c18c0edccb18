//! Reading an index: [`Index`] opens the file read-only and immutable, and answers lookups
//! with one connection per thread; [`FileId`] and [`FileState`] tell whether the path still
//! names the file opened, another one renamed over it, or the same one written over in place.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use pith::verify::{Flags, Key};
use pith::PithNumber;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use super::{BundleEntry, Entry, Error, ErrorKind, Prefix, SCHEMA_VERSION, TRUSTED_KEYS};

/// An index opened for reading.
///
/// Each thread keeps its own read-only connection ([`Index::read`]), opened at its first
/// lookup; lookups take microseconds, so the server's workers call them directly.
#[derive(Debug)]
pub struct Index {
    path: PathBuf,
    id: u64,
    file: FileId,
    /// Held while the index is; threads drop their connection to it once it is gone, so that
    /// a replaced index file is closed (and its space freed) when no request reads it.
    alive: std::sync::Arc<()>,
    /// Set once the file opened was found written over in place: nothing is read from it.
    overwritten: std::sync::atomic::AtomicBool,
    /// Set once [`Index::first_notice`] said so.
    noticed: std::sync::atomic::AtomicBool,
}

/// What the path of an index names now, against the file opened ([`Index::file_state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileState {
    /// The file opened, unchanged.
    Same,
    /// Another file (a rebuild renamed a new index over the path).
    Replaced(FileId),
    /// The file opened, written over in place: same file, other length or modification time.
    Overwritten,
    /// No file, or one that cannot be examined.
    Gone,
}

/// Which file a path names: a file renamed over it (a rebuilt index) has another identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl FileId {
    /// The identity of the file at `path` now.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when there is no file there or it cannot be examined.
    pub fn of(path: &Path) -> Result<FileId, Error> {
        let m = std::fs::metadata(path).map_err(|e| Error::from(e).at(path))?;
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (m.dev(), m.ino())
        };
        // Elsewhere size and modification time tell a replaced file apart.
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        Ok(FileId {
            dev,
            ino,
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Connections a thread keeps open, to as many indexes.
const MAX_CONNECTIONS_PER_THREAD: usize = 4;

thread_local! {
    static CONNECTIONS: RefCell<Vec<(u64, std::sync::Weak<()>, Connection)>> =
        const { RefCell::new(Vec::new()) };
}

/// The `file:` URI that opens `path` read-only and immutable.
fn immutable_uri(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut uri = String::from("file:");
    for b in abs.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    uri
}

pub(super) fn open_read(path: &Path) -> Result<Connection, Error> {
    let conn = Connection::open_with_flags(
        immutable_uri(path),
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    check_schema(&conn)?;
    Ok(conn)
}

pub(super) fn check_schema(conn: &Connection) -> Result<(), Error> {
    let v: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| ErrorKind::Schema(e.to_string()))?;
    let has = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('records','bundles','meta')",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap_or(0);
    if v != SCHEMA_VERSION || has != 3 {
        return Err(ErrorKind::Schema(format!("user_version {v}, {has} of 3 tables")).into());
    }
    Ok(())
}

impl Index {
    /// Opens the index at `path` for reading, checking that it is one.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`] when the file cannot be opened as SQLite, [`ErrorKind::Schema`]
    /// when it is not an index of this schema version; both about the path.
    ///
    /// # Examples
    /// ```no_run
    /// let index = pith_serve::index::Index::open("arxiv.pith-index".as_ref())?;
    /// if let Some(e) = index.arxiv("2402.03791", None)? {
    ///     println!("{}", e.number);
    /// }
    /// # Ok::<(), pith_serve::index::Error>(())
    /// ```
    pub fn open(path: &Path) -> Result<Index, Error> {
        if !path.is_file() {
            let why = if path.is_dir() {
                "is a folder: give the index file (pith index -o INDEX builds one)"
            } else {
                "no such index file (pith index -o INDEX builds one)"
            };
            return Err(Error::from(ErrorKind::Input(why.into())).at(path));
        }
        // The file checked must be the file kept: a rebuild may rename another one into place
        // meanwhile, and is then read at the next open.
        let before = FileId::of(path)?;
        open_read(path).map_err(|e| e.at(path))?;
        if FileId::of(path)? != before {
            return Err(Error::from(ErrorKind::Replaced).at(path));
        }
        Ok(Index {
            path: path.to_owned(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            file: before,
            alive: std::sync::Arc::new(()),
            overwritten: std::sync::atomic::AtomicBool::new(false),
            noticed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// What the path names now: the file opened, another file renamed over it, or the file
    /// opened written over in place.
    pub fn file_state(&self) -> FileState {
        let Ok(now) = FileId::of(&self.path) else {
            return FileState::Gone;
        };
        if now == self.file {
            FileState::Same
        } else if cfg!(unix) && now.dev == self.file.dev && now.ino == self.file.ino {
            FileState::Overwritten
        } else {
            FileState::Replaced(now)
        }
    }

    /// Marks the file as written over in place ([`FileState::Overwritten`]): every read is
    /// [`ErrorKind::Overwritten`] from now on. True the first time.
    pub fn mark_overwritten(&self) -> bool {
        !self.overwritten.swap(true, Ordering::AcqRel)
    }

    /// True the first time it is asked once the file was found written over in place, so that
    /// it is reported once, whoever found it.
    pub fn first_notice(&self) -> bool {
        self.is_overwritten() && !self.noticed.swap(true, Ordering::AcqRel)
    }

    /// Whether the file was found written over in place.
    pub fn is_overwritten(&self) -> bool {
        self.overwritten.load(Ordering::Acquire)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The identity of the file opened, as it was when the index was opened.
    pub fn file_id(&self) -> FileId {
        self.file
    }

    /// Whether the path still names the file opened (false once a rebuild renamed a new index
    /// over it, or the file is gone).
    pub fn is_current(&self) -> bool {
        FileId::of(&self.path).is_ok_and(|f| f == self.file)
    }

    /// Runs `f` with this thread's connection to the index.
    ///
    /// # Errors
    /// As [`Index::open`], and whatever `f` returns.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T, Error>) -> Result<T, Error> {
        if self.is_overwritten() {
            return Err(Error::from(ErrorKind::Overwritten).at(&self.path));
        }
        let r = self.read_file(f);
        // A file written over while open reads as damaged ("malformed", "not a database"):
        // say what happened instead.
        if matches!(&r, Err(e) if matches!(e.kind(), ErrorKind::Sqlite(_)))
            && self.file_state() == FileState::Overwritten
        {
            self.mark_overwritten();
            return Err(Error::from(ErrorKind::Overwritten).at(&self.path));
        }
        r
    }

    fn read_file<T>(&self, f: impl FnOnce(&Connection) -> Result<T, Error>) -> Result<T, Error> {
        CONNECTIONS.with(|cell| {
            let mut conns = cell.borrow_mut();
            conns.retain(|(_, alive, _)| alive.strong_count() > 0);
            let at = match conns.iter().position(|(id, _, _)| *id == self.id) {
                Some(i) => i,
                None => {
                    // A server opens one index; a process that opens many (tests, tools) keeps
                    // the few it used last, not one connection per index ever opened.
                    if conns.len() >= MAX_CONNECTIONS_PER_THREAD {
                        conns.remove(0);
                    }
                    let conn = open_read(&self.path)?;
                    // A connection opened after a rebuild renamed a new file into place would
                    // read that file under this index's name.
                    if !self.is_current() {
                        return Err(Error::from(ErrorKind::Replaced).at(&self.path));
                    }
                    conns.push((self.id, std::sync::Arc::downgrade(&self.alive), conn));
                    conns.len() - 1
                }
            };
            f(&conns[at].2)
        })
    }

    /// The entry of a 26-character code (upper case).
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn record(&self, code: &str) -> Result<Option<Entry>, Error> {
        self.read(|c| {
            let mut st =
                c.prepare_cached(&format!("SELECT {COLUMNS} FROM records WHERE code = ?1"))?;
            Ok(st.query_row([code], entry).optional()?)
        })
    }

    /// The number that the short alias `prefix` (upper case) leads to.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn prefix(&self, prefix: &str) -> Result<Prefix, Error> {
        self.read(|c| {
            // Base32 codes sort in byte order, and '~' sorts after every base32 character.
            let mut st = c.prepare_cached(
                "SELECT code FROM records WHERE code >= ?1 AND code < ?1 || '~' LIMIT 2",
            )?;
            let codes: Vec<String> = st
                .query_map([prefix], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(match codes.as_slice() {
                [] => Prefix::None,
                [one] => Prefix::Unique(one.clone()),
                _ => Prefix::Ambiguous,
            })
        })
    }

    /// The current entry of arXiv paper `id` at `version`, or at its latest indexed version.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn arxiv(&self, id: &str, version: Option<u32>) -> Result<Option<Entry>, Error> {
        self.read(|c| {
            let r = match version {
                Some(v) => c
                    .prepare_cached(&format!(
                        "SELECT {COLUMNS} FROM records WHERE arxiv_id = ?1 AND version = ?2 \
                         AND superseded = 0"
                    ))?
                    .query_row(params![id, v], entry)
                    .optional()?,
                None => c
                    .prepare_cached(&format!(
                        "SELECT {COLUMNS} FROM records WHERE arxiv_id = ?1 AND superseded = 0 \
                         ORDER BY version DESC LIMIT 1"
                    ))?
                    .query_row([id], entry)
                    .optional()?,
            };
            Ok(r)
        })
    }

    /// Every current version of arXiv paper `id` indexed, as (version, number), oldest first.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn versions(&self, id: &str) -> Result<Vec<(u32, PithNumber)>, Error> {
        self.read(|c| {
            let mut st = c.prepare_cached(
                "SELECT version, code, year FROM records WHERE arxiv_id = ?1 AND superseded = 0 \
                 ORDER BY version",
            )?;
            let v = st
                .query_map([id], |r| Ok((r.get(0)?, number_of(r, 1)?)))?
                .collect::<Result<_, _>>()?;
            Ok(v)
        })
    }

    /// The bundle of a code, when one is indexed.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn bundle(&self, code: &str) -> Result<Option<BundleEntry>, Error> {
        self.read(|c| {
            let mut st = c.prepare_cached("SELECT bundle, flags FROM bundles WHERE code = ?1")?;
            Ok(st
                .query_row([code], |r| {
                    Ok(BundleEntry {
                        bundle: r.get(0)?,
                        flags: flags_of(r, 1)?,
                    })
                })
                .optional()?)
        })
    }

    /// The anchor pith checked for a code when the index was built: the block its
    /// OpenTimestamps proof is anchored in. None when no proof of it verified, and in an index
    /// built before anchors were kept.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn anchor(&self, code: &str) -> Result<Option<super::Anchor>, Error> {
        self.read(|c| {
            let st = c.prepare_cached(
                "SELECT height, time, block_hash, merkle_root FROM anchors WHERE code = ?1",
            );
            let mut st = match st {
                Ok(st) => st,
                Err(e) if e.to_string().contains("no such table") => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            Ok(st
                .query_row([code], |r| {
                    let time: u32 = r.get(1)?;
                    Ok(super::Anchor {
                        height: r.get::<_, i64>(0)? as u64,
                        time,
                        time_utc: pith::ots::check::utc(time),
                        block_hash: r.get(2)?,
                        merkle_root: r.get(3)?,
                    })
                })
                .optional()?)
        })
    }

    /// The Internet Archive capture pith checked for a code when the index was built. None
    /// when none checked, and in an index built before captures were kept.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn stored(&self, code: &str) -> Result<Option<super::Stored>, Error> {
        self.read(|c| Ok(super::captures::read(c, code)?))
    }

    /// The abstract of a code's paper version, as its arXiv metadata gave it. None when the
    /// source gave none, and in an index built before abstracts were kept.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn abstract_of(&self, code: &str) -> Result<Option<String>, Error> {
        self.read(|c| {
            let mut st = match c.prepare_cached("SELECT abstract FROM abstracts WHERE code = ?1") {
                Ok(st) => st,
                Err(e) if e.to_string().contains("no such table") => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            Ok(st.query_row([code], |r| r.get(0)).optional()?)
        })
    }

    /// The number of records indexed (superseded ones included).
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn len(&self) -> Result<u64, Error> {
        self.read(|c| {
            Ok(c.query_row("SELECT count(*) FROM records", [], |r| r.get::<_, i64>(0))? as u64)
        })
    }

    /// Whether no record is indexed.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn is_empty(&self) -> Result<bool, Error> {
        Ok(self.len()? == 0)
    }

    /// Calls `f` on every entry, in code order, with its bundle when one is indexed.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`] (a row that cannot be read included), and the first error `f`
    /// returns.
    pub fn each(
        &self,
        mut f: impl FnMut(&Entry, Option<&BundleEntry>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.each_row(|row| match row {
            Ok((e, b)) => f(e, b),
            Err(bad) => Err(bad.error),
        })
    }

    /// Calls `f` on every row, in code order: an entry with its bundle when one is indexed, or
    /// a row that cannot be read as one ([`BadRow`]), so that a walk can report it and go on.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`] (the walk itself), and the first error `f` returns.
    pub fn each_row(
        &self,
        mut f: impl FnMut(Result<(&Entry, Option<&BundleEntry>), BadRow>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        // A connection of its own: the walk may be long and `f` may look things up.
        let c = open_read(&self.path)?;
        let mut st = c.prepare(&format!(
            "SELECT {COLUMNS}, b.bundle, b.flags FROM records r LEFT JOIN bundles b USING (code) \
             ORDER BY code"
        ))?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let read = entry(r).and_then(|e| {
                let b = match r.get::<_, Option<String>>(COLUMN_COUNT)? {
                    Some(bundle) => Some(BundleEntry {
                        bundle,
                        flags: flags_of(r, COLUMN_COUNT + 1)?,
                    }),
                    None => None,
                };
                Ok((e, b))
            });
            match read {
                Ok((e, b)) => f(Ok((&e, b.as_ref())))?,
                Err(err) => {
                    // Named as stored, whatever it holds (the caller escapes it to say it).
                    let code = match r.get_ref(0) {
                        Ok(
                            rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t),
                        ) => String::from_utf8_lossy(t).into_owned(),
                        _ => String::new(),
                    };
                    f(Err(BadRow {
                        code,
                        error: err.into(),
                    }))?
                }
            }
        }
        Ok(())
    }

    /// Every arXiv id with its latest current version's code, in id order.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`], and the first error `f` returns.
    pub fn each_latest(
        &self,
        mut f: impl FnMut(&str, &str) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let c = open_read(&self.path)?;
        let mut st = c.prepare(
            "SELECT arxiv_id, code FROM records r WHERE superseded = 0 AND version = \
             (SELECT max(version) FROM records s WHERE s.arxiv_id = r.arxiv_id AND superseded = 0) \
             ORDER BY arxiv_id",
        )?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            f(&r.get::<_, String>(0)?, &r.get::<_, String>(1)?)?;
        }
        Ok(())
    }

    /// The number of current records (one per indexed paper version).
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn current_len(&self) -> Result<u64, Error> {
        self.read(|c| {
            let n: i64 = c
                .prepare_cached("SELECT count(*) FROM records WHERE superseded = 0")?
                .query_row([], |r| r.get(0))?;
            Ok(n as u64)
        })
    }

    /// Current records in code order, at most `limit` after the first `skip`: the code and
    /// this version's date (v1's when unknown), as a sitemap lists them.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn current_page(&self, skip: u64, limit: u64) -> Result<Vec<(String, String)>, Error> {
        self.read(|c| {
            let mut st = c.prepare_cached(
                "SELECT code, CASE version_date WHEN '' THEN submitted_at ELSE version_date END \
                 FROM records WHERE superseded = 0 ORDER BY code LIMIT ?1 OFFSET ?2",
            )?;
            let rows = st
                .query_map(params![limit as i64, skip as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    /// The keys the index trusts, those its bundles' receipts were checked with: the registry
    /// key first, then each `pith index --key` given to this or an earlier build (unless
    /// dropped with `--drop-keys`), each once; the registry key alone for an index that does
    /// not say.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn trusted_keys(&self) -> Result<Vec<Key>, Error> {
        let stated = self
            .meta()?
            .into_iter()
            .find(|(k, _)| k == TRUSTED_KEYS)
            .map(|(_, v)| v);
        Ok(super::keys::from_meta(stated.as_deref()))
    }

    /// What the last build stated (`built_at`, counts), as key and value.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn meta(&self) -> Result<Vec<(String, String)>, Error> {
        self.read(|c| {
            let mut st = c.prepare_cached("SELECT key, value FROM meta ORDER BY key")?;
            let v = st
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            Ok(v)
        })
    }
}

const COLUMNS: &str = "code, year, sha256, record, arxiv_id, version, title, authors, \
                       submitted_at, version_date, categories, license, superseded";
const COLUMN_COUNT: usize = 13;

/// The number a row names (column `at` holds the code, the next one the year). Codes in the
/// index were written from the library's numbers; a damaged one is an error of the read, never
/// a number made up.
fn number_of(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<PithNumber> {
    let code: String = r.get(at)?;
    let year: u16 = r.get(at + 1)?;
    PithNumber::parse(&format!("pith:{year:04}:{code}")).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(at, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<Entry> {
    let cats: String = r.get(10)?;
    Ok(Entry {
        number: number_of(r, 0)?,
        canonical_sha256: r.get(2)?,
        record: r.get(3)?,
        arxiv_id: r.get(4)?,
        version: r.get(5)?,
        title: r.get(6)?,
        authors: r.get(7)?,
        submitted_at: r.get(8)?,
        version_date: r.get(9)?,
        categories: cats.split_whitespace().map(str::to_owned).collect(),
        license: r.get(11)?,
        superseded: r.get::<_, i64>(12)? != 0,
    })
}

/// A row of the records table that cannot be read as an entry (an index edited by hand).
#[derive(Debug)]
pub struct BadRow {
    /// The row's code as stored, whatever it holds.
    pub code: String,
    /// Why it cannot be read.
    pub error: Error,
}

/// The flags a row holds (column `at`), as the build wrote them with the library's
/// serialisation; damaged ones are an error of the read.
fn flags_of(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Flags> {
    let text: String = r.get(at)?;
    serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(at, rusqlite::types::Type::Text, Box::new(e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_row_is_an_error_not_a_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i");
        let c = Connection::open(&path).unwrap();
        c.execute_batch(crate::index::SCHEMA).unwrap();
        c.execute_batch(crate::index::INDEXES).unwrap();
        c.execute(
            "INSERT INTO records VALUES ('NOT-A-CODE-0000000000000001', 2024, '', '{}', \
             '2402.03791', 1, '', '', '', '', '', '', 0)",
            [],
        )
        .unwrap();
        c.execute(
            "INSERT INTO bundles VALUES ('NOT-A-CODE-0000000000000001', '{}', 'not json')",
            [],
        )
        .unwrap();
        drop(c);
        let i = Index::open(&path).unwrap();
        assert!(i.arxiv("2402.03791", None).is_err());
        assert!(i.versions("2402.03791").is_err());
        assert!(i.bundle("NOT-A-CODE-0000000000000001").is_err());
        assert!(i.each(|_, _| Ok(())).is_err());
    }

    #[test]
    fn uris_escape_the_path() {
        assert!(immutable_uri(Path::new("/a b/x?.db")).starts_with("file:/a%20b/x%3F.db?mode=ro"));
    }
}
