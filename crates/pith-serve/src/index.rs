//! The index: one SQLite file holding every indexed version of every paper with its number,
//! canonical record and display fields, and the bundles with their status flags.
//!
//! This module owns the file's schema ([`SCHEMA`], [`INDEXES`]), building it ([`build`]) and reading it
//! ([`Index`]). It computes nothing itself: numbers come from the `pith` library's bulk arXiv
//! run ([`pith::record::arxiv::bulk`]), records are read with the resolver's reader
//! ([`pith::net::resolver::read_record`]) and bundles are checked by [`pith::verify::Bundle`].
//!
//! Building never touches the index being replaced: the new index is written to a temporary
//! file beside it (a copy of the old one when it exists, so a rebuild from a newer snapshot
//! keeps what it had and updates what changed), synced, and renamed over it. A crash or
//! `kill -9` at any point leaves the previous index whole (and, at worst, a stray
//! `.pith-index-*` temporary file).
//!
//! A number once indexed stays resolvable: when a paper's version is indexed again with other
//! metadata (a new number), the old record is kept and marked superseded, and the version's
//! arXiv id then leads to the new one.
//!
//! While served, the file is opened read-only and immutable (SQLite takes no locks and never
//! looks for changes): a rebuild renames a new file into place, it never writes the old one,
//! and a server notices the path's new identity ([`FileId`], [`Index::is_current`]) and opens
//! the new file as another [`Index`].

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use pith::record::arxiv::bulk::{self, Meaning, Unit};
use pith::record::arxiv::date;
use pith::verify::{Bundle, Flags, Key, Verdict};
use pith::PithNumber;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

/// The schema, created in a new index. `user_version` names its version.
pub const SCHEMA: &str = "
CREATE TABLE records (
  code TEXT NOT NULL,          -- the 26 characters
  year INTEGER NOT NULL,       -- of submitted_at, for the full form pith:YYYY:CODE
  sha256 TEXT NOT NULL,        -- canonical hash, lowercase hex
  record TEXT NOT NULL,        -- canonical bytes (keys sorted, no whitespace)
  arxiv_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  title TEXT NOT NULL,         -- whitespace collapsed; empty when the source had none
  authors TEXT NOT NULL,
  submitted_at TEXT NOT NULL,  -- v1, UTC
  version_date TEXT NOT NULL,  -- this version's date, UTC, or empty when unknown
  categories TEXT NOT NULL,    -- space-separated, primary first
  license TEXT NOT NULL,
  superseded INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE bundles (
  code TEXT PRIMARY KEY,
  bundle TEXT NOT NULL,        -- the bundle as given
  flags TEXT NOT NULL          -- pith::verify::Flags as JSON
) WITHOUT ROWID;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
PRAGMA user_version = 1;
";

/// The secondary indexes of [`SCHEMA`]'s `records`. A new index file gets them after its bulk
/// rows are in: one sort instead of two B-tree insertions per row.
pub const INDEXES: &str = "
CREATE UNIQUE INDEX IF NOT EXISTS records_code ON records(code);
CREATE UNIQUE INDEX IF NOT EXISTS records_current ON records(arxiv_id, version)
  WHERE superseded = 0;
";

/// The `meta` key of the keys receipts were checked with (a JSON list of base64 keys).
const TRUSTED_KEYS: &str = "trusted_keys";

/// The schema version [`SCHEMA`] writes and [`Index::open`] reads.
pub const SCHEMA_VERSION: i64 = 1;

/// Error of the index.
#[derive(Debug, thiserror::Error)]
#[error("{}{kind}", .path.as_ref().map(|p| format!("{}: ", p.display())).unwrap_or_default())]
pub struct Error {
    path: Option<PathBuf>,
    // The kind's text says it all; its own cause stays reachable through `kind()`.
    kind: ErrorKind,
}

/// What went wrong with an index.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when SQLite fails (a file that is not an index, a full disk).
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Occurs when a file cannot be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Occurs when the file is an SQLite database of another schema or version.
    #[error("not a pith index of schema version {SCHEMA_VERSION} (found {0})")]
    Schema(String),
    /// Occurs when an input cannot be read at all (missing file, unknown form).
    #[error("{0}")]
    Input(String),
    /// Occurs under `strict` at the first input that cannot be indexed.
    #[error("{0}")]
    Bad(String),
    /// Occurs when the file at the index's path was replaced (a rebuild renamed a new index
    /// over it) since the index was opened; open it again to read the new one.
    #[error("the index file was replaced since it was opened")]
    Replaced,
    /// Occurs when the file served was written over in place (`cp` onto it) instead of a new
    /// file being renamed over its path: what it holds now is not the index opened.
    #[error(
        "the index file was overwritten in place while served; rename a new index over it \
         (pith index -o, or cp to a temporary name beside it and mv that over it)"
    )]
    Overwritten,
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    fn at(mut self, path: &Path) -> Self {
        self.path.get_or_insert_with(|| path.to_owned());
        self
    }
}

impl<E: Into<ErrorKind>> From<E> for Error {
    fn from(e: E) -> Self {
        Error {
            path: None,
            kind: e.into(),
        }
    }
}

/// One indexed version of a paper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The number.
    #[serde(skip)]
    pub number: PithNumber,
    /// The canonical hash, lowercase hex.
    pub canonical_sha256: String,
    /// The canonical record's bytes.
    #[serde(skip)]
    pub record: String,
    /// arXiv id without version.
    pub arxiv_id: String,
    /// The version this record is of.
    pub version: u32,
    /// Title, whitespace collapsed (empty when the source gave none).
    pub title: String,
    /// Authors, whitespace collapsed (empty when the source gave none).
    pub authors: String,
    /// v1 submission time, UTC.
    pub submitted_at: String,
    /// This version's date, UTC (empty when unknown).
    pub version_date: String,
    /// Categories, primary first.
    pub categories: Vec<String>,
    /// License URL, or empty.
    pub license: String,
    /// Whether a later indexing of the same version gave another record.
    pub superseded: bool,
}

/// A bundle and the flags derived from it when it was indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleEntry {
    /// The bundle's JSON as given.
    pub bundle: String,
    /// Its status flags.
    pub flags: Flags,
}

/// What a short alias (8, 12 or 16 characters) leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prefix {
    /// One number starts so.
    Unique(String),
    /// None does.
    None,
    /// Several do.
    Ambiguous,
}

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

fn open_read(path: &Path) -> Result<Connection, Error> {
    let conn = Connection::open_with_flags(
        immutable_uri(path),
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    check_schema(&conn)?;
    Ok(conn)
}

fn check_schema(conn: &Connection) -> Result<(), Error> {
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
            return Err(Error::from(ErrorKind::Input("no such index file".into())).at(path));
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
                .query_map([id], |r| {
                    Ok((r.get(0)?, number_of(&r.get::<_, String>(1)?, r.get(2)?)))
                })?
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
                    let flags: String = r.get(1)?;
                    Ok(BundleEntry {
                        bundle: r.get(0)?,
                        flags: flags_from_json(&flags),
                    })
                })
                .optional()?)
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
    /// [`ErrorKind::Sqlite`], and the first error `f` returns.
    pub fn each(
        &self,
        mut f: impl FnMut(&Entry, Option<&BundleEntry>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        // A connection of its own: the walk may be long and `f` may look things up.
        let c = open_read(&self.path)?;
        let mut st = c.prepare(&format!(
            "SELECT {COLUMNS}, b.bundle, b.flags FROM records r LEFT JOIN bundles b USING (code) \
             ORDER BY code"
        ))?;
        let mut rows = st.query([])?;
        while let Some(r) = rows.next()? {
            let e = entry(r)?;
            let b = match r.get::<_, Option<String>>(COLUMN_COUNT)? {
                Some(bundle) => Some(BundleEntry {
                    bundle,
                    flags: flags_from_json(&r.get::<_, String>(COLUMN_COUNT + 1)?),
                }),
                None => None,
            };
            f(&e, b.as_ref())?;
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

    /// The keys the last build checked the bundles' receipts with (the registry key and
    /// each `--key`); the registry key alone for an index that does not say.
    ///
    /// # Errors
    /// [`ErrorKind::Sqlite`].
    pub fn trusted_keys(&self) -> Result<Vec<Key>, Error> {
        let stated = self
            .meta()?
            .into_iter()
            .find(|(k, _)| k == TRUSTED_KEYS)
            .and_then(|(_, v)| serde_json::from_str::<Vec<String>>(&v).ok())
            .unwrap_or_default();
        let mut keys = vec![Key::registry()];
        keys.extend(stated.iter().filter_map(|k| Key::parse(k).ok()));
        Ok(keys)
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

fn number_of(code: &str, year: u16) -> PithNumber {
    // Codes in the index were written from digests; a damaged row still gives a number.
    PithNumber::parse(&format!("pith:{year:04}:{code}"))
        .unwrap_or_else(|_| PithNumber::from_digest(&[0; 32], Some(year)))
}

fn entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<Entry> {
    let code: String = r.get(0)?;
    let cats: String = r.get(10)?;
    Ok(Entry {
        number: number_of(&code, r.get(1)?),
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

fn flags_from_json(text: &str) -> Flags {
    serde_json::from_str(text).unwrap_or_default()
}

/// What to index.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// arXiv metadata snapshots (JSON Lines, any compression `pith number` reads).
    pub snapshots: Vec<PathBuf>,
    /// OAI-PMH `ListRecords` harvests in `arXivRaw` (pages, any compression).
    pub oai: Vec<PathBuf>,
    /// Folders of records: `*.json` files holding a record, bare or as the resolver wraps it
    /// (`canonical_record` with `pith_number`, optionally `title` and `authors`), or an array of
    /// them.
    pub records: Vec<PathBuf>,
    /// Folders of bundles (`*.json`).
    pub bundles: Vec<PathBuf>,
    /// Keys whose receipt signatures make a bundle's record "verified" (the registry key by
    /// default).
    pub keys: Vec<Key>,
}

/// How to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    /// Worker threads computing numbers.
    pub threads: usize,
    /// Stop at the first input that cannot be indexed, leaving the old index as it was.
    pub strict: bool,
    /// Start from an empty index even when the output exists.
    pub fresh: bool,
}

/// What a build did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Versions indexed for the first time.
    pub added: u64,
    /// Versions indexed again with another record (the old one is kept, superseded).
    pub changed: u64,
    /// Versions indexed again with the same record.
    pub unchanged: u64,
    /// Deleted arXiv records met (their numbers stay indexed when they were).
    pub deleted: u64,
    /// Bundles indexed (new or replaced).
    pub bundles: u64,
    /// Lines, records, files or bundles that could not be indexed.
    pub bad: u64,
    /// Records in the index after the build, superseded ones included.
    pub records: u64,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} added, {} changed, {} unchanged, {} deleted, {} bundles, {} bad; {} records",
            self.added,
            self.changed,
            self.unchanged,
            self.deleted,
            self.bundles,
            self.bad,
            self.records
        )
    }
}

/// A version ready to be stored.
struct Row {
    code: String,
    year: u16,
    sha256: String,
    record: String,
    arxiv_id: String,
    version: u32,
    title: String,
    authors: String,
    submitted_at: String,
    version_date: String,
    categories: String,
    license: String,
}

fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

impl Row {
    /// The row of `record`; `title` and `authors` are whitespace-collapsed already.
    fn of_record(
        record: &pith::Record,
        title: String,
        authors: String,
        version_date: String,
    ) -> Row {
        let bytes = record.canonical_bytes();
        let digest = pith::number::sha256(&bytes);
        let n = PithNumber::from_digest(&digest, Some(record.year()));
        let m = &record.metadata;
        let mut categories = m.primary_cat.clone();
        for c in &m.cross_cats_sorted {
            categories.push(' ');
            categories.push_str(c);
        }
        Row {
            code: n.code().to_owned(),
            year: record.year(),
            sha256: pith::number::hex(&digest),
            // Canonical JSON is UTF-8 (serde_json writes nothing else).
            record: String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            arxiv_id: record.source.id.clone(),
            version: record.source.version,
            title,
            authors,
            submitted_at: m.submitted_at.clone(),
            version_date,
            categories,
            license: m.license.clone(),
        }
    }
}

/// One unit of bulk input, numbered by a worker.
enum Work {
    Row(Box<Row>),
    Deleted,
    Bad(String),
    Nothing,
}

fn number_unit(u: Unit) -> Work {
    let place = u.place.clone();
    match u.meaning() {
        Meaning::Meta(mut m) => {
            let authors = std::mem::take(&mut m.authors);
            let latest = m.latest_version().ok();
            let version_date = m
                .versions
                .iter()
                .find(|(l, _)| pith::record::arxiv::version_number(l) == latest)
                .and_then(|(_, d)| date::rfc2822_to_utc(d).ok())
                .unwrap_or_default();
            let title = collapse(&m.title);
            // The record is serialised and hashed once, here (`bulk::number_paper` would do it
            // too, and the row needs the canonical bytes besides the digest).
            match m
                .into_paper()
                .and_then(|p| p.to_record().map_err(|e| e.to_string()))
            {
                Ok(record) => Work::Row(Box::new(Row::of_record(
                    &record,
                    title,
                    collapse(&authors),
                    version_date,
                ))),
                Err(reason) => Work::Bad(format!("{place}: {reason}")),
            }
        }
        Meaning::Deleted(_) => Work::Deleted,
        Meaning::Bad(reason) => Work::Bad(format!("{place}: {reason}")),
        Meaning::Notice(_) | Meaning::Nothing => Work::Nothing,
    }
}

/// The writer side of a build: one connection to the temporary file, in one transaction.
struct Writer<'c> {
    conn: &'c Connection,
    counts: Counts,
    /// While a new file is filled without its [`INDEXES`]: hashes of the codes and of the
    /// (arXiv id, version) pairs inserted so far.
    deferred: Option<Deferred>,
}

/// What a new file's bulk rows are checked against while it has no [`INDEXES`]. Distinct
/// hashes mean distinct keys, so a row whose two hashes are new is new; any other row (a
/// version met again, or a hash collision) creates the indexes and takes the indexed path.
#[derive(Default)]
struct Deferred {
    hasher: std::collections::hash_map::RandomState,
    codes: std::collections::HashSet<u64>,
    versions: std::collections::HashSet<u64>,
}

impl Writer<'_> {
    /// Creates the secondary indexes if they were deferred.
    fn index(&mut self) -> Result<(), Error> {
        if self.deferred.take().is_some() {
            self.conn.execute_batch(INDEXES)?;
        }
        Ok(())
    }

    /// Inserts `row`; with `or_ignore`, a row whose code or current version is indexed
    /// already is left out. Returns the rows inserted (0 or 1).
    fn insert(&self, row: &Row, or_ignore: bool) -> Result<usize, Error> {
        // Constant statements: the cache finds them without a string built per row.
        const INSERT: &str = "INSERT INTO records (code, year, sha256, record, arxiv_id, \
            version, title, authors, submitted_at, version_date, categories, license) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
        const INSERT_OR_IGNORE: &str = "INSERT OR IGNORE INTO records (code, year, sha256, \
            record, arxiv_id, version, title, authors, submitted_at, version_date, categories, \
            license) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
        Ok(self
            .conn
            .prepare_cached(if or_ignore { INSERT_OR_IGNORE } else { INSERT })?
            .execute(params![
                row.code,
                row.year,
                row.sha256,
                row.record,
                row.arxiv_id,
                row.version,
                row.title,
                row.authors,
                row.submitted_at,
                row.version_date,
                row.categories,
                row.license
            ])?)
    }

    fn put(&mut self, row: &Row) -> Result<(), Error> {
        if let Some(d) = &self.deferred {
            use std::hash::BuildHasher;
            let code = d.hasher.hash_one(&row.code);
            let version = d.hasher.hash_one((&row.arxiv_id, row.version));
            if !d.codes.contains(&code) && !d.versions.contains(&version) {
                self.insert(row, false)?;
                if let Some(d) = &mut self.deferred {
                    d.codes.insert(code);
                    d.versions.insert(version);
                }
                self.counts.added += 1;
                return Ok(());
            }
            self.index()?;
        }
        let c = self.conn;
        let inserted = self.insert(row, true)?;
        if inserted == 1 {
            self.counts.added += 1;
            return Ok(());
        }
        // Either this record is indexed already, or this version has another record.
        let current: Option<String> = c
            .prepare_cached(
                "SELECT code FROM records WHERE arxiv_id = ?1 AND version = ?2 AND superseded = 0",
            )?
            .query_row(params![row.arxiv_id, row.version], |r| r.get(0))
            .optional()?;
        if current.as_deref() == Some(row.code.as_str()) {
            self.counts.unchanged += 1;
            // Display fields may be filled in by a richer source (a snapshot after a record).
            c.prepare_cached(
                "UPDATE records SET title = CASE WHEN ?2 = '' THEN title ELSE ?2 END, \
                 authors = CASE WHEN ?3 = '' THEN authors ELSE ?3 END, \
                 version_date = CASE WHEN ?4 = '' THEN version_date ELSE ?4 END WHERE code = ?1 \
                 AND (?2 <> '' AND title <> ?2 OR ?3 <> '' AND authors <> ?3 \
                 OR ?4 <> '' AND version_date <> ?4)",
            )?
            .execute(params![row.code, row.title, row.authors, row.version_date])?;
            return Ok(());
        }
        self.counts.changed += 1;
        c.prepare_cached(
            "UPDATE records SET superseded = 1 WHERE arxiv_id = ?1 AND version = ?2 AND superseded = 0",
        )?
        .execute(params![row.arxiv_id, row.version])?;
        // The record may be an older one coming back: make it current again.
        let back = c
            .prepare_cached("UPDATE records SET superseded = 0 WHERE code = ?1")?
            .execute([&row.code])?;
        if back == 0 {
            self.insert(row, false)?;
        }
        Ok(())
    }

    fn put_bundle(&mut self, bundle: &Bundle, keys: &[Key]) -> Result<(), Error> {
        let record = bundle.record();
        let row = Row::of_record(record, String::new(), String::new(), String::new());
        // A bundle may come before (or without) its paper's metadata: its record is indexed too.
        let has: bool = self
            .conn
            .prepare_cached("SELECT 1 FROM records WHERE code = ?1")?
            .exists([&row.code])?;
        if !has {
            self.put(&row)?;
        }
        let flags = serde_json::to_string(&bundle.flags(keys)).unwrap_or_default();
        self.conn
            .prepare_cached(
                "INSERT OR REPLACE INTO bundles (code, bundle, flags) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![row.code, bundle.to_json(), flags])?;
        self.counts.bundles += 1;
        Ok(())
    }
}

/// The `*.json` files under `dir`, recursively, in path order.
fn json_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| Error::from(e).at(&d))?;
        for e in rd {
            let e = e.map_err(|e| Error::from(e).at(&d))?;
            let p = e.path();
            let t = e.file_type().map_err(|e| Error::from(e).at(&p))?;
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() && p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// What a file of a records or bundles folder holds.
enum Item {
    Row(Box<Row>),
    Bundle(Box<Bundle>),
}

/// The bundle a file of a bundles folder holds, or why it is not served: a bundle whose own
/// statements disagree with its record is left out.
fn bundle_in(text: &str, keys: &[Key]) -> Result<Box<Bundle>, String> {
    let b = Bundle::from_json(text).map_err(|e| e.to_string())?;
    match b.check(keys).verdict() {
        Verdict::Mismatch => {
            Err("the bundle does not verify (`pith verify --bundle` says why)".to_owned())
        }
        _ => Ok(Box::new(b)),
    }
}

/// The records a file of a records folder holds: `(record, title, authors)`, or why not.
fn records_in(text: &str) -> Vec<Result<(pith::Record, String, String), String>> {
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![Err(format!("not JSON: {e}"))],
    };
    let items = match v {
        serde_json::Value::Array(a) => a,
        one => vec![one],
    };
    items
        .into_iter()
        .map(|item| {
            let bytes = serde_json::to_vec(&item).map_err(|e| e.to_string())?;
            let r = pith::net::resolver::read_record(&bytes).map_err(|e| e.to_string())?;
            let n = r.record.number();
            if let Some(stated) = &r.stated_number {
                let ok = PithNumber::parse(stated).is_ok_and(|s| {
                    s.code() == n.code() && s.year().is_none_or(|y| Some(y) == n.year())
                });
                if !ok {
                    return Err(format!("states {stated} but the record's number is {n}"));
                }
            }
            if let Some(sha) = &r.stated_sha256 {
                if !sha.eq_ignore_ascii_case(&r.record.canonical_sha256()) {
                    return Err(format!(
                        "states canonical_sha256 {sha}, the record hashes to {}",
                        r.record.canonical_sha256()
                    ));
                }
            }
            let text = |k: &str| {
                item.get(k)
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            Ok((r.record, text("title"), text("authors")))
        })
        .collect()
}

/// Builds the index at `out` from `sources`: into a temporary file beside `out` (starting from
/// a copy of `out` unless `opts.fresh`), then renamed over `out`. Problems with single lines,
/// records, files or bundles go to `report` (one line each) and are counted as bad; under
/// `opts.strict` the first one ends the build and `out` is left as it was.
///
/// # Errors
/// [`ErrorKind::Input`] for an input that cannot be opened, [`ErrorKind::Bad`] under
/// `strict`, [`ErrorKind::Schema`] when `out` exists and is not an index, [`ErrorKind::Io`]
/// and [`ErrorKind::Sqlite`] for the file itself.
///
/// # Examples
/// ```no_run
/// use pith_serve::index::{build, BuildOptions, Sources};
/// let sources = Sources {
///     snapshots: vec!["arxiv-metadata-oai-snapshot.json".into()],
///     keys: vec![pith::verify::Key::registry()],
///     ..Sources::default()
/// };
/// let opts = BuildOptions { threads: 4, strict: false, fresh: false };
/// let counts = build("arxiv.pith-index".as_ref(), &sources, opts, &mut |line| eprintln!("{line}"))?;
/// println!("{counts}");
/// # Ok::<(), pith_serve::index::Error>(())
/// ```
pub fn build(
    out: &Path,
    sources: &Sources,
    opts: BuildOptions,
    report: &mut dyn FnMut(&str),
) -> Result<Counts, Error> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "index".into());
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.pith-index-"))
        .tempfile_in(&dir)
        .map_err(|e| Error::from(e).at(&dir))?;
    let existing = !opts.fresh && out.exists();
    if existing {
        // Check before copying: never replace something that is not an index.
        open_read(out).map_err(|e| e.at(out))?;
        std::fs::copy(out, tmp.path()).map_err(|e| Error::from(e).at(out))?;
    }
    let conn = Connection::open(tmp.path()).map_err(|e| Error::from(e).at(tmp.path()))?;
    // The temporary file is thrown away on any failure, so no journal is needed while building.
    conn.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; \
         PRAGMA cache_size = -65536; PRAGMA temp_store = FILE;",
    )?;
    if existing {
        check_schema(&conn).map_err(|e| e.at(out))?;
    } else {
        conn.execute_batch(&format!("PRAGMA page_size = 8192; {SCHEMA}"))?;
    }
    conn.execute_batch("BEGIN")?;
    let mut w = Writer {
        conn: &conn,
        counts: Counts::default(),
        deferred: (!existing).then(Deferred::default),
    };
    let mut failure: Option<Error> = None;
    let mut bad = |w: &mut Writer, line: String, failure: &mut Option<Error>| {
        w.counts.bad += 1;
        if opts.strict {
            failure.get_or_insert(ErrorKind::Bad(line).into());
        } else {
            report(&line);
        }
    };
    // arXiv bulk metadata: numbers computed on every core, stored in input order.
    let inputs: Vec<bulk::Input> = sources
        .snapshots
        .iter()
        .map(|p| (p, bulk::Format::Snapshot))
        .chain(sources.oai.iter().map(|p| (p, bulk::Format::Oai)))
        .map(|(p, f)| bulk::Input {
            path: p.clone(),
            format: Some(f),
        })
        .collect();
    if !inputs.is_empty() {
        bulk::scan(&inputs, opts.threads.max(1), number_unit, |work| {
            match work {
                Work::Row(row) => {
                    if let Err(e) = w.put(&row) {
                        failure = Some(e);
                    }
                }
                Work::Deleted => w.counts.deleted += 1,
                Work::Bad(line) => bad(&mut w, line, &mut failure),
                Work::Nothing => {}
            }
            failure.is_none()
        })
        .map_err(|e| Error::from(ErrorKind::Input(e.to_string())))?;
    }
    if let Some(e) = failure.take() {
        return Err(e);
    }
    w.index()?;
    // Folders of records, then folders of bundles: every item stored, or reported.
    let folders = (sources.records.iter().map(|d| (d, false)))
        .chain(sources.bundles.iter().map(|d| (d, true)));
    for (dir, bundles) in folders {
        for file in json_files(dir)? {
            let text = std::fs::read_to_string(&file).map_err(|e| Error::from(e).at(&file))?;
            let items: Vec<Result<Item, String>> = if bundles {
                vec![bundle_in(&text, &sources.keys).map(Item::Bundle)]
            } else {
                records_in(&text)
                    .into_iter()
                    .map(|r| {
                        r.map(|(rec, t, a)| {
                            Item::Row(Box::new(Row::of_record(
                                &rec,
                                collapse(&t),
                                collapse(&a),
                                String::new(),
                            )))
                        })
                    })
                    .collect()
            };
            for item in items {
                match item {
                    Ok(Item::Row(row)) => w.put(&row)?,
                    Ok(Item::Bundle(b)) => w.put_bundle(&b, &sources.keys)?,
                    Err(reason) => bad(
                        &mut w,
                        format!("{}: {reason}", file.display()),
                        &mut failure,
                    ),
                }
                if let Some(e) = failure.take() {
                    return Err(e);
                }
            }
        }
    }
    let mut counts = w.counts;
    counts.records =
        conn.query_row("SELECT count(*) FROM records", [], |r| r.get::<_, i64>(0))? as u64;
    let built_at = pith::job::now();
    let mut meta = conn.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?;
    meta.execute(params!["built_at", built_at])?;
    meta.execute(params![
        "last_build",
        serde_json::to_string(&counts).unwrap_or_default()
    ])?;
    meta.execute(params![
        "builder",
        concat!("pith-serve ", env!("CARGO_PKG_VERSION"))
    ])?;
    // The keys the bundles' receipts were checked with: the server checks an uploaded PDF's
    // receipts with the same ones, so its check page and its badges agree.
    let keys: Vec<String> = sources.keys.iter().map(Key::to_base64).collect();
    meta.execute(params![
        TRUSTED_KEYS,
        serde_json::to_string(&keys).unwrap_or_default()
    ])?;
    drop(meta);
    conn.execute_batch("COMMIT")?;
    conn.execute_batch("PRAGMA journal_mode = DELETE")?;
    drop(conn);
    // Temporary files are private (0600); an index is served, often by another user (a
    // container's), so it gets the old index's permissions, or rw-r--r--.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let perms = match std::fs::metadata(out) {
            Ok(m) if existing => m.permissions(),
            _ => std::fs::Permissions::from_mode(0o644),
        };
        std::fs::set_permissions(tmp.path(), perms).map_err(|e| Error::from(e).at(tmp.path()))?;
    }
    // On disk before it takes the old index's name, and the name change on disk after.
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::from(e).at(tmp.path()))?;
    tmp.persist(out).map_err(|e| Error::from(e.error).at(out))?;
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_escape_the_path() {
        assert!(immutable_uri(Path::new("/a b/x?.db")).starts_with("file:/a%20b/x%3F.db?mode=ro"));
    }
}
