//! Where a paper's record or number comes from, as data: the inputs a manifest line, a sidecar
//! or a front end names. Reading them (files, standard input, the network) is the job
//! layer's; this module does no I/O.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{ArxivPaper, Record};

/// One local source of a record or number.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalSource {
    /// A number as text, in any form ([`crate::PithNumber::parse`]).
    Number(String),
    /// A file holding one number as text, in any form, with surrounding whitespace (a
    /// `NAME.pith` sidecar): read when the number is asked for, so that a batch reads each
    /// sidecar in its worker and one unreadable sidecar fails its own PDF, not the run.
    NumberFile(PathBuf),
    /// A canonical record JSON file (`-` for standard input).
    RecordFile(PathBuf),
    /// A canonical record given as a JSON value (inline in a manifest).
    RecordValue(Value),
    /// A record already held (a server's index, a caller's own).
    Record(Box<Record>),
    /// An arXiv Atom entry or feed file (`-` for standard input); `id` picks the entries with
    /// that arXiv id (and version, when it carries one).
    Atom {
        /// The Atom file.
        path: PathBuf,
        /// `2402.03791` or `2402.03791v3`.
        id: Option<String>,
        /// The record of the next version instead (the entry's version + 1, its v1 date and
        /// metadata), as arXiv will announce it; works offline, from the file alone.
        next: bool,
    },
    /// The paper's explicit fields, typed by hand: their categories are checked against
    /// arXiv's taxonomy ([`ArxivPaper::check_categories`]).
    Fields(Box<ArxivPaper>),
}

impl LocalSource {
    /// The file the input is read from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            LocalSource::NumberFile(p)
            | LocalSource::RecordFile(p)
            | LocalSource::Atom { path: p, .. } => Some(p),
            _ => None,
        }
    }
}
