//! The index: one SQLite file holding every indexed version of every paper with its number,
//! canonical record and display fields, and the bundles with their status flags.
//!
//! This module owns the file's schema ([`SCHEMA`], [`INDEXES`]), building it ([`build()`]) and
//! reading it ([`Index`]). It computes nothing itself: numbers come from the `pith` library's bulk arXiv
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

//!
//! The read side is [`read`] ([`Index`], opened read-only while served), the build side
//! [`build`](mod@build) ([`build()`], writing a new file renamed into place); this module holds what both
//! share: the schema, the errors, and the rows as read ([`Entry`], [`BundleEntry`]).

use std::path::{Path, PathBuf};

use pith::verify::Flags;
use pith::PithNumber;
use serde::Serialize;

pub mod build;
pub mod captures;
pub mod cites;
mod keys;
pub mod open_citations;
pub mod read;
pub mod request;

pub use build::{build, BuildOptions, Counts, Sources};
pub use captures::Stored;
pub use pith::ots::Anchor;
pub use read::{BadRow, FileId, FileState, Index};

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

/// The proofs of anchoring pith checked: one row per record whose OpenTimestamps proof
/// verified against Bitcoin block headers when the index was built. A side table, created in
/// any index a build touches (an index built before it has none, and reads as anchoring
/// nothing).
pub const ANCHORS: &str = "
CREATE TABLE IF NOT EXISTS anchors (
  code TEXT PRIMARY KEY,
  height INTEGER NOT NULL,     -- the block the proof is anchored in
  time INTEGER NOT NULL,       -- the block header's time, seconds since the Unix epoch
  block_hash TEXT NOT NULL,    -- as explorers write it
  merkle_root TEXT NOT NULL,   -- as explorers write it
  proof BLOB NOT NULL          -- the .ots file as given
) WITHOUT ROWID;
";

/// Each paper version's abstract as its arXiv metadata gives it (whitespace collapsed), for the
/// record page's description and the reference managers that save it. A side table, created
/// in any index a build touches; an index built before it reads as having no abstracts.
pub const ABSTRACTS: &str = "
CREATE TABLE IF NOT EXISTS abstracts (
  code TEXT PRIMARY KEY,
  abstract TEXT NOT NULL
) WITHOUT ROWID;
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
    /// Occurs when a file cannot be read or written (the operating system's reason in words).
    #[error("{}", pith::pdf::chain(.0))]
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

    /// The kind's stable name in the library's table, as `--json` reports it.
    pub fn code(&self) -> pith::job::ErrorCode {
        match &self.kind {
            ErrorKind::Io(e) if e.kind() == std::io::ErrorKind::IsADirectory => {
                pith::job::ErrorCode::NotFile
            }
            ErrorKind::Io(_) => pith::job::ErrorCode::Io,
            _ => pith::job::ErrorCode::Invalid,
        }
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
