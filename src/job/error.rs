//! The job layer's error: an [`ErrorKind`] callers match on, the file it is about, and the
//! refusal kind a report carries ([`RefusalKind`]).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

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
}

/// The kind of a refusal or failure in a report (`"refusal": "damaged"`), a stable name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RefusalKind {
    /// The output is the input itself.
    SameFile,
    /// The output exists and may not be replaced.
    Exists,
    /// The output would leave its output folder.
    LeavesOutDir,
    /// Bytes in memory cannot be updated in place.
    NotInPlace,
    /// The stamp's settings are not allowed.
    Stamp,
    /// Not a PDF.
    NotPdf,
    /// Not a regular file.
    NotFile,
    /// A damaged cross-reference table.
    Damaged,
    /// Encrypted (a rewrite would drop the encryption).
    Encrypted,
    /// Encrypted and not opened (a password is needed, or wrong, or unsupported encryption).
    Password,
    /// A certification signature forbids changes.
    Certified,
    /// Signed: a stamp would change signed page content.
    Signed,
    /// An unparsable XMP packet.
    Xmp,
    /// No margin of page 1 has room for a legible stamp.
    NoStampRoom,
    /// A stream would decode past its documented bound.
    TooLarge,
    /// A full rewrite would lose pages.
    PagesLost,
    /// A feature pith does not write.
    Unsupported,
    /// The number could not be resolved.
    Number,
    /// Reading or writing failed.
    Io,
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

    /// The stable name of the kind, for reports.
    pub fn refusal(&self) -> RefusalKind {
        use pdf::ErrorKind as P;
        match &*self.kind {
            ErrorKind::SameFile => RefusalKind::SameFile,
            ErrorKind::Exists => RefusalKind::Exists,
            ErrorKind::LeavesOutDir => RefusalKind::LeavesOutDir,
            ErrorKind::NotInPlace => RefusalKind::NotInPlace,
            ErrorKind::Stamp(_) => RefusalKind::Stamp,
            ErrorKind::Number(_) => RefusalKind::Number,
            ErrorKind::Io(..) => RefusalKind::Io,
            ErrorKind::Pdf(e) => match e.kind() {
                P::Io => RefusalKind::Io,
                P::NotFile => RefusalKind::NotFile,
                P::NotPdf => RefusalKind::NotPdf,
                P::Damaged(_) => RefusalKind::Damaged,
                P::Encrypted => RefusalKind::Encrypted,
                P::Crypt(_) => RefusalKind::Password,
                P::Certified => RefusalKind::Certified,
                P::Signed(..) => RefusalKind::Signed,
                P::Xmp(_) => RefusalKind::Xmp,
                P::NoStampRoom => RefusalKind::NoStampRoom,
                P::TooLarge { .. } => RefusalKind::TooLarge,
                P::PagesLost { .. } => RefusalKind::PagesLost,
                _ => RefusalKind::Unsupported,
            },
        }
    }

    /// Whether this is a refusal (the file or request cannot be handled safely) rather than
    /// a failure (I/O, an unresolvable number).
    pub fn is_refusal(&self) -> bool {
        match &*self.kind {
            ErrorKind::Pdf(e) => e.is_refusal(),
            ErrorKind::Io(..) | ErrorKind::Number(_) => false,
            _ => true,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&*self.kind, &self.path) {
            (ErrorKind::Pdf(e), _) if e.path().is_some() => e.fmt(f),
            (ErrorKind::Number(e), _) => e.fmt(f),
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
            k => std::error::Error::source(k),
        }
    }
}

impl From<pdf::Error> for Error {
    fn from(e: pdf::Error) -> Self {
        Error::new(ErrorKind::Pdf(e))
    }
}

impl From<crate::output::Error> for Error {
    fn from(e: crate::output::Error) -> Self {
        let (path, what, source) = e.into_parts();
        Error::new(ErrorKind::Io(what, source)).in_file(&path)
    }
}
