//! The job layer's error: an [`ErrorKind`] callers match on, the file it is about, and its
//! stable name in the table of kinds ([`ErrorCode`]).

use std::fmt;
use std::path::{Path, PathBuf};

use super::kind::{self, ErrorCode};
use crate::pdf;

/// Why a job did not do what it was asked.
#[derive(Debug)]
pub struct Error {
    path: Option<PathBuf>,
    // Boxed: results stay small (the PDF layer's error is large).
    kind: Box<ErrorKind>,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when the output is the input file itself (it is updated only in place).
    #[error("input and output are the same file")]
    SameFile,
    /// Occurs when the output exists and the request forbids replacing it.
    #[error("exists, not replaced")]
    Exists,
    /// Occurs when a batch output would be written outside its output folder (`..`).
    #[error("the path leaves the output folder (\"..\")")]
    LeavesOutDir,
    /// Occurs when bytes held in memory are asked to be updated in place.
    #[error("bytes in memory cannot be updated in place")]
    NotInPlace,
    /// Occurs when the stamp's settings are not allowed (form, position, size).
    #[error("stamp {0}")]
    Stamp(String),
    /// Occurs when the PDF is refused or cannot be read or written (the PDF layer's error,
    /// which names its file).
    #[error(transparent)]
    Pdf(pdf::Error),
    /// Occurs when a batch item's number cannot be resolved (which names its file).
    #[error(transparent)]
    Number(crate::batch::Error),
    /// Occurs when a file cannot be read or written.
    #[error("{0}")]
    Io(String, #[source] std::io::Error),
    /// Occurs when a record input cannot be read or makes no record (which names its file).
    #[error(transparent)]
    Input(crate::record::Error),
    /// Occurs when arXiv or the resolver cannot give what an input needs.
    #[error(transparent)]
    Net(Box<crate::net::Error>),
    /// Occurs when a number given as text does not parse.
    #[error(transparent)]
    BadNumber(crate::number::Error),
    /// Occurs when a bare code is to be written and its record, which gives the year, cannot
    /// be had.
    #[error(
        "{code}: {} (its record could not be read to find the year: {why})",
        crate::number::ErrorKind::NoYear
    )]
    NoYear {
        /// The code.
        code: String,
        /// Why its record could not be had.
        why: Box<crate::net::Error>,
    },
    /// Occurs when a request is incomplete or contradicts itself.
    #[error("{0}")]
    Request(String),
    /// Occurs when the record inputs of a request contradict each other or are incomplete.
    #[error(transparent)]
    Given(Conflict),
    /// Occurs when a run of PDFs does not say where its outputs go, or says two places.
    #[error(transparent)]
    Placement(Placement),
    /// Occurs when a signature, key or bundle cannot be decoded.
    #[error(transparent)]
    Verify(crate::verify::Error),
    /// Occurs when the PDFs to match with arXiv metadata cannot be listed (a bad manifest
    /// line, an unreadable directory).
    #[error(transparent)]
    Arxiv(crate::batch::arxiv::Error),
    /// Occurs when arXiv bulk metadata cannot be read.
    #[error(transparent)]
    Metadata(crate::record::arxiv::bulk::Error),
    /// Occurs when arXiv's manifest of bulk tars cannot be read or is not one (which names its
    /// file).
    #[error(transparent)]
    Manifest(crate::batch::manifest::Error),
    /// Occurs when an OpenTimestamps proof or a headers file cannot be read or is refused
    /// (which the job names).
    #[error(transparent)]
    Ots(crate::ots::Error),
    /// Occurs when a line of a JSON Lines input (one record a line) is no record.
    #[error("line {line}: {source}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// Why it is no record.
        source: crate::record::Error,
    },
}

impl Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            path: None,
            kind: Box::new(kind),
        }
    }

    /// Names the file the error is about (if none is named yet).
    pub fn in_file(mut self, path: &Path) -> Self {
        if self.path.is_none() {
            self.path = Some(path.to_owned());
        }
        self
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The file the error is about, when known.
    pub fn path(&self) -> Option<&Path> {
        match &*self.kind {
            ErrorKind::Pdf(e) => e.path().or(self.path.as_deref()),
            ErrorKind::Input(e) => e.path().or(self.path.as_deref()),
            _ => self.path.as_deref(),
        }
    }

    /// The PDF layer's error, when it is one.
    pub fn pdf(&self) -> Option<&pdf::Error> {
        match &*self.kind {
            ErrorKind::Pdf(e) => Some(e),
            _ => None,
        }
    }

    /// The kind's stable name in the table ([`ErrorCode`]), for reports, `--json` and Python.
    pub fn kind_of(&self) -> ErrorCode {
        match &*self.kind {
            ErrorKind::SameFile => ErrorCode::SameFile,
            ErrorKind::Exists => ErrorCode::Exists,
            ErrorKind::LeavesOutDir => ErrorCode::LeavesOutDir,
            ErrorKind::NotInPlace => ErrorCode::NotInPlace,
            ErrorKind::Stamp(_) => ErrorCode::Stamp,
            ErrorKind::Number(e) => kind::of_batch(e),
            ErrorKind::Io(..) => ErrorCode::Io,
            ErrorKind::Pdf(e) => kind::of_pdf(e),
            ErrorKind::Input(e) => kind::of_record(e),
            ErrorKind::Net(e) => kind::of_net(e),
            ErrorKind::BadNumber(e) => kind::of_number(e),
            ErrorKind::NoYear { .. } => ErrorCode::NoYear,
            ErrorKind::Request(_) | ErrorKind::Given(_) | ErrorKind::Placement(_) => {
                ErrorCode::Request
            }
            ErrorKind::Verify(e) => kind::of_verify(e),
            ErrorKind::Arxiv(e) => match e.kind() {
                crate::batch::arxiv::ErrorKind::Io(_) => ErrorCode::Io,
                _ => ErrorCode::Manifest,
            },
            ErrorKind::Metadata(_) => ErrorCode::Metadata,
            ErrorKind::Manifest(e) => match e.kind() {
                crate::batch::manifest::ErrorKind::Read(_) => ErrorCode::Io,
                _ => ErrorCode::Manifest,
            },
            ErrorKind::Ots(e) => match e.kind() {
                crate::ots::ErrorKind::Io(_) => ErrorCode::Io,
                _ => ErrorCode::Invalid,
            },
            ErrorKind::Line { source, .. } => kind::of_record(source),
        }
    }

    /// [`Error::kind_of`]'s name (`"damaged"`).
    pub fn kind_name(&self) -> &'static str {
        self.kind_of().name()
    }

    /// Whether this is a refusal (the file or request cannot be handled safely) rather than
    /// a failure (I/O, an unresolvable number).
    pub fn is_refusal(&self) -> bool {
        match &*self.kind {
            ErrorKind::Pdf(e) => e.is_refusal(),
            ErrorKind::Io(..)
            | ErrorKind::Number(_)
            | ErrorKind::Input(_)
            | ErrorKind::Net(_)
            | ErrorKind::BadNumber(_)
            | ErrorKind::NoYear { .. }
            | ErrorKind::Verify(_)
            | ErrorKind::Arxiv(_)
            | ErrorKind::Metadata(_)
            | ErrorKind::Manifest(_)
            | ErrorKind::Ots(_)
            | ErrorKind::Line { .. } => false,
            _ => true,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&*self.kind, &self.path) {
            (ErrorKind::Pdf(e), _) if e.path().is_some() => e.fmt(f),
            (ErrorKind::Number(e), _) => e.fmt(f),
            (ErrorKind::Input(e), _) if e.path().is_some() => e.fmt(f),
            // `FILE:LINE: …`, as compilers and grep name a line.
            (ErrorKind::Line { line, source }, Some(p)) => {
                write!(f, "{}:{line}: {source}", p.display())
            }
            (k, Some(p)) => write!(f, "{}: {k}", p.display()),
            (k, None) => k.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.kind {
            ErrorKind::Pdf(e) => std::error::Error::source(e),
            ErrorKind::Number(e) => std::error::Error::source(e),
            ErrorKind::Input(e) => std::error::Error::source(e),
            ErrorKind::Arxiv(e) => std::error::Error::source(e),
            ErrorKind::Net(e) => std::error::Error::source(e.as_ref()),
            ErrorKind::Line { source, .. } => std::error::Error::source(source),
            k => std::error::Error::source(k),
        }
    }
}

impl From<pdf::Error> for Error {
    fn from(e: pdf::Error) -> Self {
        Error::new(ErrorKind::Pdf(e))
    }
}

impl From<crate::batch::manifest::Error> for Error {
    fn from(e: crate::batch::manifest::Error) -> Self {
        Error::new(ErrorKind::Manifest(e))
    }
}

impl From<crate::output::Error> for Error {
    fn from(e: crate::output::Error) -> Self {
        let (path, what, source) = e.into_parts();
        Error::new(ErrorKind::Io(what, source)).in_file(&path)
    }
}

/// Why a run of PDFs cannot be told where its outputs go: an output folder (numbered copies)
/// or in place (the files themselves updated), exactly one of them. The message says it in
/// words; a front end may name its own spelling of the two (the command line's flags) by the
/// variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Placement {
    /// Neither an output folder nor in place: where the outputs go is not said.
    #[error("a batch needs an output folder, or to update the files themselves in place")]
    Unsaid,
    /// An output folder and in place together.
    #[error("a batch writes into an output folder or in place, not both")]
    Both,
}

/// Why the inputs given cannot name one record. The message names the inputs in words; a
/// front end may name its own spelling of them (the command line's flags) by the variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Conflict {
    /// A number and a record input together.
    #[error("give either a number or a record input, not both")]
    NumberAndRecord,
    /// More than one of an arXiv id, a record, an Atom file and the paper's fields.
    #[error("give one source of the record (an arXiv id, a record, an Atom file or the paper's fields), not several")]
    Several,
    /// Nothing that names a number or a record.
    #[error("no number: give a number, an arXiv id, a record, an Atom file or the paper's fields")]
    Nothing,
    /// The next version asked for without the paper's latest (an arXiv id or an Atom file).
    #[error("the next version's record needs the paper's latest version: give its arXiv id or an Atom file")]
    NextWithoutLatest,
    /// An id, a version or a v1 date beside an arXiv id, which gives them.
    #[error("arXiv gives the id, version and v1 date: an id, a version and a submission time do not go with an arXiv id")]
    ArxivGivesThem,
    /// An id beside a record, which has its own.
    #[error("an id cannot be combined with a record")]
    IdWithRecord,
    /// The paper's fields without an id.
    #[error("no record input: give a record, an Atom file, or the paper's id with its title, abstract, submission time and primary category")]
    NoId,
    /// The paper's fields without a title.
    #[error("the paper's fields need its title")]
    NoTitle,
    /// The paper's fields without an abstract.
    #[error("the paper's fields need its abstract")]
    NoAbstract,
    /// The paper's fields without a submission time.
    #[error("the paper's fields need its v1 submission time")]
    NoSubmitted,
    /// The paper's fields without a primary category.
    #[error("the paper's fields need its primary category")]
    NoPrimary,
    /// A value and a file holding it, both given (a title, an abstract, a password).
    #[error("give the {0} or a file that holds it, not both")]
    ValueAndFile(&'static str),
    /// More than one source of the numbers a command prints (arXiv ids, a record input,
    /// records as JSON Lines, arXiv's bulk metadata).
    #[error("give one source of numbers (arXiv ids, a record input, records as JSON Lines, or arXiv snapshot and OAI files), not several")]
    SeveralNumberSources,
    /// A number asked for both as a LaTeX line and as JSON.
    #[error("print the number as a LaTeX line or as JSON, not both")]
    TexAndJson,
    /// How bulk metadata is read (stop at the first bad line, worker threads) without arXiv
    /// snapshot or OAI files to read.
    #[error("stopping at the first bad line and worker threads go with arXiv snapshot or OAI files: give them, or leave both out")]
    BulkOptionsAlone,
    /// More than one thing a timestamp proof is to be of.
    #[error("a proof is of one thing: give a number or record, a file or a digest, not several")]
    SeveralSubjects,
    /// Nothing a timestamp proof is to be of.
    #[error("say what the proof is of: a number or record, a file or a digest")]
    NoSubject,
}
