//! The one error type of the `pdf` module: an [`ErrorKind`] callers match on, plus where it
//! happened (file, object context, byte offset) and the underlying I/O error, chained through
//! [`std::error::Error::source`].
//!
//! Messages describe the file, never the command line: a front end adds how to get past an
//! error in its own terms (the `pith` CLI's "use --force", a Python keyword), so the engine
//! serves every front end alike.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error reading or updating a PDF.
#[derive(Debug, thiserror::Error)]
pub struct Error {
    kind: ErrorKind,
    offset: Option<u64>,
    context: Option<String>,
    path: Option<PathBuf>,
    #[source]
    source: Option<std::io::Error>,
}

/// What page 1 prints that disagrees with the number being written
/// ([`ErrorKind::Printed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedNumber {
    /// The number page 1 shows (a short or full form, or a record URL).
    pub printed: String,
    /// The number being written.
    pub writing: String,
    /// Whether pith drew it (its badge, stamp or links, which replacing redraws), or not
    /// (text pith cannot rewrite).
    pub drawn: bool,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when reading or writing a file fails (the I/O error is the [`Error`]'s source).
    Io,
    /// Occurs when the file has no `%PDF-` header in its first 1024 bytes.
    NotPdf,
    /// Occurs when the path is not a regular file (a directory, device or FIFO) where one is
    /// read and updated.
    NotFile,
    /// Occurs when the xref chain or an object needed is broken, so a reader would have to
    /// reconstruct the cross-reference table; appending to such a file would lose objects.
    Damaged(String),
    /// Occurs when a full rewrite is asked of an encrypted file: it would drop the
    /// encryption (the incremental update keeps it).
    Encrypted,
    /// Occurs when an encrypted file cannot be opened: it needs a password that was not
    /// given, the password is wrong, or its encryption is unsupported or malformed.
    Crypt(CryptError),
    /// Occurs when a certification signature (`/DocMDP` with `/P 1`) forbids any change.
    Certified,
    /// Occurs when a visible stamp is asked for a file with approval or certification
    /// signatures (the number of signatures, whether certified): the stamp changes page
    /// content, which validators report.
    Signed(usize, bool),
    /// Occurs when the existing XMP packet cannot be parsed (not UTF-8, not well-formed).
    Xmp(String),
    /// Occurs when a stream decodes to more than pith reads of it: `what` names
    /// the stream ("the XMP metadata stream"), `object` its number when it has one, `bound`
    /// the limit in bytes ([`super::filters::MAX_WHOLE`] for the XMP packet,
    /// [`super::filters::MAX_DECODED`] for xref and object streams, the stamp's bound on page
    /// contents). Decoding stops at the bound: such a stream costs no more memory than it.
    TooLarge {
        /// The stream, in words.
        what: String,
        /// Its object number, when it is an indirect object.
        object: Option<u32>,
        /// The bound, in bytes.
        bound: u64,
    },
    /// Occurs when a visible stamp is asked for and no margin of page 1 has room for a legible
    /// one: the page's content (text, drawings, images, annotations) reaches every edge, or the
    /// page is too small. The stamp is never drawn over content; the number can
    /// still be written as metadata only.
    NoStampRoom,
    /// Occurs when page 1 prints another number than the one being written (see
    /// [`PrintedNumber`]). Nothing is written: the page would contradict the metadata.
    Printed(Box<PrintedNumber>),
    /// Occurs when a full rewrite would lose pages: its result has no readable
    /// page tree, or fewer pages (`kept`) than a tolerant reading of the file finds (`found`:
    /// its page tree, or for a damaged file every object that is a page). Nothing is written.
    PagesLost {
        /// Pages found in the file.
        found: usize,
        /// Pages in the rewritten result's page tree.
        kept: usize,
    },
    /// Occurs when the file needs a feature pith does not write (e.g. a table offset over
    /// ten digits).
    Unsupported(String),
    /// Occurs when reading the file would cost more of a `resource` than its `limit` per
    /// document ([`super::budget::Limits`]): a file built to multiply work (shared objects
    /// walked as trees, millions of entries, loops). Work stops at the limit; nothing is
    /// written. The setting that raises it is [`super::budget::Resource::setting`].
    OverLimit {
        /// What went over its limit.
        resource: Resource,
        /// The limit it went over.
        limit: u64,
    },
    /// Occurs when the work was stopped by its [`super::budget::Stop`] token: its deadline
    /// passed or it was cancelled. Work stops where it was; nothing is written.
    Stopped(Halt),
}

impl Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            offset: None,
            context: None,
            path: None,
            source: None,
        }
    }
    /// An [`ErrorKind::Io`] error: `what` failed (e.g. "cannot append") because of `e`.
    pub fn io(what: &str, e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io).context_msg(what).with_source(e)
    }
    /// Sets the byte offset where the problem was found (if none is set yet).
    pub fn at_offset(mut self, offset: u64) -> Self {
        if self.offset.is_none() && offset > 0 {
            self.offset = Some(offset);
        }
        self
    }
    /// Adds what was being read or done (e.g. "cross-reference table"), if none is set yet.
    pub fn context_msg(mut self, what: &str) -> Self {
        if self.context.is_none() {
            self.context = Some(what.to_string());
        }
        self
    }
    /// Names the file the error is about (if none is named yet); it prefixes the message.
    pub fn in_file(mut self, path: &Path) -> Self {
        if self.path.is_none() {
            self.path = Some(path.to_path_buf());
        }
        self
    }
    /// Attaches the underlying I/O error.
    pub fn with_source(mut self, e: std::io::Error) -> Self {
        self.source = Some(e);
        self
    }
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
    /// The byte offset in the file, when known.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }
    /// The file the error is about, when known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
    /// Whether this is a refusal (the file cannot be updated safely: not a PDF, damaged,
    /// encrypted, certified, unparsable XMP, unsupported, over a limit) rather than a failure
    /// (I/O, not a regular file, stopped).
    pub fn is_refusal(&self) -> bool {
        !matches!(
            self.kind,
            ErrorKind::Io | ErrorKind::NotFile | ErrorKind::Stopped(_)
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        match &self.kind {
            ErrorKind::Io => write!(f, "{}", self.context.as_deref().unwrap_or("read error"))?,
            ErrorKind::NotPdf => write!(f, "not a PDF (no %PDF- header)")?,
            ErrorKind::NotFile => write!(f, "not a regular file")?,
            ErrorKind::Damaged(m) => {
                write!(
                    f,
                    "damaged PDF, its cross-reference table would have to be reconstructed ("
                )?;
                if let Some(c) = &self.context {
                    write!(f, "{c}: ")?;
                }
                write!(f, "{m}")?;
                if let Some(o) = self.offset {
                    write!(f, " at offset {o}")?;
                }
                return write!(f, ")");
            }
            ErrorKind::Encrypted => write!(
                f,
                "encrypted PDF; a full rewrite would drop its encryption (the incremental update keeps it)"
            )?,
            ErrorKind::Crypt(e) => write!(f, "encrypted PDF: {e}")?,
            ErrorKind::Certified => write!(
                f,
                "certified PDF whose signature forbids any change (DocMDP /P 1)"
            )?,
            ErrorKind::Signed(n, certified) => write!(
                f,
                "{} PDF ({n} signature{}); a visible stamp changes page content, which signature validators report",
                if *certified { "certified" } else { "signed" },
                if *n == 1 { "" } else { "s" }
            )?,
            ErrorKind::Xmp(m) => write!(f, "existing XMP packet is unusable: {m}")?,
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}")?,
            ErrorKind::Printed(p) if p.drawn => write!(
                f,
                "page 1 prints {}, not {} being written; replacing redraws the badge and its link with it",
                p.printed, p.writing
            )?,
            ErrorKind::Printed(p) => write!(
                f,
                "page 1 shows {} in its own text, which pith did not draw and cannot rewrite, not {} being written",
                p.printed, p.writing
            )?,
            ErrorKind::NoStampRoom => write!(
                f,
                "page 1 has no free margin with room for a legible stamp (its content reaches every edge, or the page is too small)"
            )?,
            ErrorKind::PagesLost { found, kept: 0 } => write!(
                f,
                "a full rewrite would leave no readable page tree ({found} page{} found in the file); not rewritten",
                if *found == 1 { "" } else { "s" }
            )?,
            ErrorKind::PagesLost { found, kept } => write!(
                f,
                "a full rewrite would keep {kept} of the {found} pages found in the file; not rewritten"
            )?,
            ErrorKind::OverLimit { resource, limit } => write!(
                f,
                "reading it takes more than {limit} {}, the limit per {} (setting `{}`)",
                resource.counted(),
                resource.scope(),
                resource.setting()
            )?,
            ErrorKind::Stopped(Halt::Deadline) => {
                write!(f, "stopped: the time allowed for this file ran out")?
            }
            ErrorKind::Stopped(Halt::Cancelled) => {
                write!(f, "stopped: the work was cancelled")?
            }
            ErrorKind::TooLarge {
                what,
                object,
                bound,
            } => {
                write!(f, "{what}")?;
                if let Some(n) = object {
                    write!(f, " (object {n})")?;
                }
                write!(
                    f,
                    " decodes to more than {}, the most pith reads of it",
                    size(*bound)
                )?;
            }
        }
        if let Some(o) = self.offset {
            write!(f, " at offset {o}")?;
        }
        Ok(())
    }
}

/// An error and its causes ([`std::error::Error::source`]) on one line, `: `-separated, each
/// cause once (one whose text the line already holds is left out), with operating-system
/// errors in words: `cannot open: no such file or directory`, not Rust's `No such file or
/// directory (os error 2)`. Every front end and report reason writes errors through this.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = reason(e);
    let mut cause = e.source();
    while let Some(c) = cause {
        let t = reason(c);
        // A message that quoted its cause as Rust prints it gets the words instead.
        let raw = c.to_string();
        if t != raw && text.contains(&raw) {
            text = text.replace(&raw, &t);
        } else if !t.is_empty() && !text.contains(&t) {
            text.push_str(": ");
            text.push_str(&t);
        }
        cause = c.source();
    }
    text
}

/// One error's own text; an I/O error's without the `(os error N)` its Display adds, and with
/// a lower-case first letter, as the rest of the line.
fn reason(e: &(dyn std::error::Error + 'static)) -> String {
    let text = e.to_string();
    let Some(io) = e.downcast_ref::<std::io::Error>() else {
        return text;
    };
    let Some(code) = io.raw_os_error() else {
        return text;
    };
    let words = text
        .strip_suffix(&format!(" (os error {code})"))
        .unwrap_or(&text);
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => words.to_owned(),
    }
}

/// A byte count in words: whole MiB when it is one, else bytes.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn chains_put_os_errors_in_words() {
        let missing = std::fs::File::open("/nonexistent/pith-test").unwrap_err();
        let e = Error::io("cannot open", missing).in_file(Path::new("a.pdf"));
        assert_eq!(chain(&e), "a.pdf: cannot open: no such file or directory");
        // Errors that are not the OS's are kept as they are, and a cause is written once.
        let other = Error::io("cannot append", std::io::Error::other("Disk full"));
        assert_eq!(chain(&other), "cannot append: Disk full");
        let repeated = Error::io("Disk full", std::io::Error::other("Disk full"));
        assert_eq!(chain(&repeated), "Disk full");
    }

    #[test]
    fn messages_name_the_file_and_chain_the_cause() {
        let e = Error::io("cannot append", std::io::Error::other("disk full"))
            .in_file(Path::new("a.pdf"));
        assert_eq!(e.to_string(), "a.pdf: cannot append");
        assert_eq!(e.source().unwrap().to_string(), "disk full");
        assert!(!e.is_refusal());
        let d = Error::new(ErrorKind::Damaged("no /Root".into()))
            .context_msg("trailer")
            .at_offset(42);
        assert_eq!(
            d.to_string(),
            "damaged PDF, its cross-reference table would have to be reconstructed \
             (trailer: no /Root at offset 42)"
        );
        assert!(d.is_refusal());
        assert!(
            !d.to_string().contains("--"),
            "no CLI flags in library messages"
        );
        let big = Error::new(ErrorKind::TooLarge {
            what: "the XMP metadata stream".into(),
            object: Some(7),
            bound: 64 << 20,
        });
        assert_eq!(
            big.to_string(),
            "the XMP metadata stream (object 7) decodes to more than 64 MiB, the most pith reads of it"
        );
        assert!(big.is_refusal());
    }
}

/// One counted resource of [`crate::budget::Limits`] (what [`ErrorKind::OverLimit`] names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Resource {
    /// [`crate::budget::Limits::decoded_bytes`].
    DecodedBytes,
    /// [`crate::budget::Limits::objects`].
    Objects,
    /// [`crate::budget::Limits::xref_entries`].
    XrefEntries,
    /// [`crate::budget::Limits::walk_nodes`].
    WalkNodes,
    /// [`crate::budget::Limits::parsed_bytes`].
    ParsedBytes,
    /// [`crate::budget::Limits::operators`].
    Operators,
    /// [`crate::budget::Limits::filters`].
    Filters,
    /// [`crate::budget::Limits::decoder_bytes`].
    DecoderBytes,
    /// [`crate::budget::Limits::nesting`].
    Nesting,
}

impl Resource {
    /// Every resource, in the order of [`crate::budget::Limits`]' fields.
    pub const ALL: [Resource; 9] = [
        Resource::DecodedBytes,
        Resource::Objects,
        Resource::XrefEntries,
        Resource::WalkNodes,
        Resource::ParsedBytes,
        Resource::Operators,
        Resource::Filters,
        Resource::DecoderBytes,
        Resource::Nesting,
    ];

    /// The setting that raises the limit: the [`crate::budget::Limits`] field's name (`objects`), which
    /// front ends spell as their own option.
    pub fn setting(self) -> &'static str {
        match self {
            Resource::DecodedBytes => "decoded_bytes",
            Resource::Objects => "objects",
            Resource::XrefEntries => "xref_entries",
            Resource::WalkNodes => "walk_nodes",
            Resource::ParsedBytes => "parsed_bytes",
            Resource::Operators => "operators",
            Resource::Filters => "filters",
            Resource::DecoderBytes => "decoder_bytes",
            Resource::Nesting => "nesting",
        }
    }

    /// What is counted, in words, plural ("objects parsed").
    pub fn counted(self) -> &'static str {
        match self {
            Resource::DecodedBytes => "bytes decoded from streams",
            Resource::Objects => "objects parsed",
            Resource::XrefEntries => "cross-reference entries",
            Resource::WalkNodes => {
                "nodes visited in its page tree, annotations, form fields and other trees"
            }
            Resource::ParsedBytes => "bytes of parsed objects",
            Resource::Operators => "content operators scanned",
            Resource::Filters => "filters named by one stream",
            Resource::DecoderBytes => "bytes held by one stream's decoders",
            Resource::Nesting => "levels of arrays and dictionaries nested in one object",
        }
    }

    /// What the limit counts over: `file` for the totals, `stream` or `object` for the limits
    /// of one item.
    pub fn scope(self) -> &'static str {
        match self {
            Resource::Filters | Resource::DecoderBytes => "stream",
            Resource::Nesting => "object",
            _ => "file",
        }
    }

    /// The resource whose [`Resource::setting`] is `name`.
    pub fn from_setting(name: &str) -> Option<Resource> {
        Resource::ALL.into_iter().find(|r| r.setting() == name)
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.setting())
    }
}

/// Why work stopped ([`ErrorKind::Stopped`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Halt {
    /// The [`crate::budget::Stop`]'s deadline passed.
    Deadline,
    /// [`crate::budget::Stop::cancel`] was called.
    Cancelled,
}

/// An error opening an encryption dictionary: why the file key could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CryptError {
    /// Occurs when the empty password does not open the file and no password was given.
    #[error("it needs a password (its user password is not empty)")]
    PasswordRequired,
    /// Occurs when the given password is neither the user nor the owner password (and the
    /// empty password does not open the file either).
    #[error("the password given is neither its user nor its owner password")]
    WrongPassword,
    /// Occurs when the file uses a security handler or method pith does not implement
    /// (public-key handlers, `/V 3`, unknown crypt filter methods).
    #[error("unsupported encryption: {0}")]
    Unsupported(String),
    /// Occurs when the encryption dictionary lacks a value it needs or has one out of range.
    #[error("malformed encryption dictionary: {0}")]
    Malformed(String),
}
