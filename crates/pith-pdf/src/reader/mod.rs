//! Reading a PDF without loading it: the header, `startxref`, the xref chain
//! ([`xref`]; regular classic tables are indexed and their entries read when needed, see
//! `table`), the check of the xref against the file ([`check`]), and single objects fetched
//! by number, also from object streams (`fetch`). Everything goes through [`ReadAt`], so a 500 MB file
//! with a million objects costs a few hundred small reads, and memory follows the objects
//! read.
//!
//! It never writes. Offsets in the xref are counted from a base decided once at open time
//! ([`Pdf::delta`]) and the writer uses the same base for the entries it appends.
//! A [`SecurityHandler`] set with [`Pdf::set_security`]
//! decrypts the strings and streams of fetched objects (the hook for encrypted files).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io::{self, Read};

use crate::budget::{Budget, Resource};
use crate::filters::FilterError;
use crate::journal;
use crate::security::SecurityHandler;
use crate::syntax::{is_white, Dict, Obj, Parser, Ref};
use crate::{Error, ErrorKind};

pub mod check;
mod entry;
mod fetch;
pub mod pages;
mod rebuilt;
pub mod source;
mod table;
#[cfg(test)]
pub(crate) mod testpdf;
#[cfg(test)]
mod tests;
pub mod xref;

pub(crate) use entry::Entry;
use fetch::{Cache, ObjStm};
pub use pages::{FirstPage, Inherited};
pub use rebuilt::Rebuilt;
pub use source::{find, rfind, ReadAt};
use source::{read_window, KnownLen};
use xref::Layer;
pub use xref::XrefKind;

/// Largest window read to parse one object (dictionaries, xref tables).
const MAX_WINDOW: usize = 256 << 20;
/// Longest xref `/Prev` chain followed.
const MAX_SECTIONS: usize = 10_000;

/// A reader of decoded stream data that spends what it yields from a document's budget
/// ([`Resource::DecodedBytes`]) and stops when the budget's token does: every decoder the
/// reader hands out or runs goes through one.
pub struct Metered<'b, R> {
    inner: R,
    budget: &'b Budget,
}

impl<'b, R: Read> Metered<'b, R> {
    pub(crate) fn new(inner: R, budget: &'b Budget) -> Self {
        Metered { inner, budget }
    }

    /// The `pdf` error for a read error of this reader while decoding `what` (object
    /// `object`): the budget's refusal or stop when that is what ended it.
    pub(crate) fn error(&self, e: io::Error, what: &str, object: Option<u32>) -> Error {
        match self.budget.verdict() {
            Err(b) => b,
            Ok(()) => filter_err(FilterError::from_io(e), what, object),
        }
    }
}

impl<R: Read> Read for Metered<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.budget.check().map_err(io::Error::other)?;
        let n = self.inner.read(buf)?;
        self.budget
            .spend(Resource::DecodedBytes, n as u64)
            .map_err(io::Error::other)?;
        Ok(n)
    }
}

/// One indirect object read from the file.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Object number and generation.
    pub id: Ref,
    /// The object (for a stream, its dictionary).
    pub obj: Obj,
    /// The buffer the object was parsed from; spans in `obj` index into it.
    pub raw: Vec<u8>,
    /// The stream's encoded data, for stream objects.
    pub stream: Option<Vec<u8>>,
}

impl Fetched {
    /// The original text of the object's dictionary (`<< … >>`), if it is a dictionary.
    pub fn dict_text(&self) -> Option<(&Dict, &[u8])> {
        let d = self.obj.as_dict()?;
        Some((d, &self.raw[d.span.clone()]))
    }
}

/// The error for a stream that decodes to more than `bound` bytes.
pub(crate) fn too_large(what: &str, object: Option<u32>, bound: u64) -> Error {
    Error::new(ErrorKind::TooLarge {
        what: what.to_string(),
        object,
        bound,
    })
}

/// The `pdf` error for a filter error while decoding `what` (object `object`).
pub(crate) fn filter_err(e: FilterError, what: &str, object: Option<u32>) -> Error {
    match e {
        FilterError::TooLarge(bound) => too_large(what, object, bound),
        FilterError::OverLimit(r, limit) => crate::budget::over(r, limit),
        other => {
            let at = object.map(|n| format!("object {n}: ")).unwrap_or_default();
            Error::new(ErrorKind::Damaged(format!("{at}{other}")))
        }
    }
}

/// Page 1 as the reader found it: the page, or why there is none (the refusal's kind and
/// offset).
type PageOne = Result<FirstPage, (ErrorKind, Option<u64>)>;

/// A PDF opened for reading its xref chain and a few objects.
pub struct Pdf<R: ReadAt> {
    src: KnownLen<R>,
    /// Length of the PDF: the file's, or less when it ends with an uncommitted update.
    len: u64,
    /// Length of the file.
    file_len: u64,
    /// Added to offsets written in the file to get positions (bytes before `%PDF-`).
    delta: u64,
    /// Header version, e.g. "1.7".
    version: String,
    startxref: u64,
    kind: XrefKind,
    sections: usize,
    /// The xref sections, newest first (see [`xref::Layer`]).
    layers: Vec<Layer>,
    /// Entries looked up so far.
    looked_up: RefCell<HashMap<u32, Option<Entry>>>,
    size: u32,
    trailer: Dict,
    trailer_raw: Vec<u8>,
    objstms: RefCell<HashMap<u32, std::rc::Rc<ObjStm>>>,
    /// Objects parsed, kept for the next read of them up to [`Limits::cache_bytes`]
    /// (crate::budget::Limits): a shared object (one annotation listed 4,096 times, a page
    /// tree node every level points at, the page tree root each step of an update reads) is
    /// parsed once.
    cache: RefCell<Cache>,
    /// Object numbers of the xref streams read: writers often give them stale offsets, and
    /// nothing references them, so [`Pdf::check_offsets`] skips them (like qpdf).
    xref_streams: HashSet<u32>,
    /// Decrypts fetched strings and streams (encrypted files); `None` reads bytes as stored.
    security: Option<Box<dyn SecurityHandler>>,
    /// What reading this document may cost, and what it has cost so far.
    budget: Budget,
    /// Page 1, once read ([`Pdf::first_page`]).
    page_one: RefCell<Option<PageOne>>,
}

pub(crate) fn damaged(msg: impl Into<String>, offset: u64) -> Error {
    Error::new(ErrorKind::Damaged(msg.into())).at_offset(offset)
}

pub(crate) fn io_err(e: io::Error) -> Error {
    Error::new(ErrorKind::Io).with_source(e)
}

impl<R: ReadAt> Pdf<R> {
    /// Opens `src`: finds the header and `startxref`, reads the xref chain (indexing regular
    /// classic tables rather than reading them) and checks a sample of entries against the
    /// file ([`Check::Sampled`]).
    ///
    /// # Errors
    /// [`ErrorKind::NotPdf`] without a `%PDF-` header, [`ErrorKind::Damaged`] when the xref
    /// chain is broken (a reader would have to reconstruct it), [`ErrorKind::Io`].
    pub fn open(src: R) -> Result<Self, Error> {
        Self::open_checked(src, Check::Sampled)
    }

    /// [`Pdf::open`] with the given thoroughness: [`Check::Full`] reads every table whole,
    /// verifies every entry and reports the first bad one in file order.
    ///
    /// # Errors
    /// As [`Pdf::open`].
    pub fn open_checked(src: R, check: Check) -> Result<Self, Error> {
        Self::open_within(src, check, Budget::default())
    }

    /// [`Pdf::open_checked`] spending from `budget`: every object parsed, xref entry held,
    /// byte decoded and node walked in this document counts against its
    /// [`Limits`](crate::budget::Limits), and its [`Stop`](crate::budget::Stop) token is
    /// checked in every loop.
    ///
    /// # Errors
    /// As [`Pdf::open`], and [`ErrorKind::OverLimit`], [`ErrorKind::Stopped`].
    pub fn open_within(src: R, check: Check, budget: Budget) -> Result<Self, Error> {
        budget.check()?;
        let src = KnownLen::new(src);
        let len = src.len();
        let head = read_window(&src, 0, 1024)?;
        let hdr = find(&head, b"%PDF-").ok_or_else(|| Error::new(ErrorKind::NotPdf))?;
        let version: String = head[hdr + 5..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'.')
            .map(|&b| b as char)
            .collect();
        let file_len = len;
        let mut tail_len = len.min(4096);
        let mut tail = read_window(&src, len - tail_len, tail_len as usize)?;
        // An interrupted in-place update of pith's own: the file is its first
        // `base` bytes; what follows was never committed.
        let mut len = len;
        if let Some(m) = journal::recognise(&tail, len).filter(|m| !m.committed) {
            len = m.base;
            tail_len = len.min(4096);
            tail = read_window(&src, len - tail_len, tail_len as usize)?;
        }
        let sx = rfind(&tail, b"startxref")
            .ok_or_else(|| damaged("no startxref near the end of the file", len))?;
        let mut p = Parser::new(&tail, sx + 9, true);
        let startxref = p
            .uint()
            .map_err(|_| damaged("startxref has no offset", len - tail_len + sx as u64))?;
        let mut pdf = Pdf {
            src,
            len,
            file_len,
            delta: 0,
            version,
            startxref,
            kind: XrefKind::Table,
            sections: 0,
            layers: Vec::new(),
            looked_up: RefCell::new(HashMap::new()),
            size: 0,
            trailer: Dict::default(),
            trailer_raw: Vec::new(),
            objstms: RefCell::new(HashMap::new()),
            cache: RefCell::new(Cache::default()),
            xref_streams: HashSet::new(),
            security: None,
            budget,
            page_one: RefCell::new(None),
        };
        // Offsets count from the `%PDF-` header, decided once here for reading and writing
        // alike: that is how qpdf and mupdf read a file with bytes before the
        // header. A file whose offsets only work counted from the start of the file is one
        // those readers have to reconstruct, so it is damaged here too, with a message that
        // says so. (The old reader tried absolute offsets first; when `startxref` landed on
        // white space before `xref` that "worked", and the update was written with offsets
        // no reader could follow.)
        pdf.delta = hdr as u64;
        if let Err(e) = pdf.read_chain(check).and_then(|_| pdf.check_offsets(check)) {
            if hdr > 0 && matches!(e.kind(), ErrorKind::Damaged(_)) {
                let delta = pdf.delta;
                pdf.reset(0);
                let absolute = pdf
                    .read_chain(check)
                    .and_then(|_| pdf.check_offsets(check))
                    .is_ok();
                pdf.reset(delta);
                if absolute {
                    return Err(damaged(
                        format!(
                            "its offsets count from the start of the file, not from the %PDF- header {hdr} bytes in, where readers count them"
                        ),
                        0,
                    ));
                }
            }
            return Err(e);
        }
        Ok(pdf)
    }

    fn reset(&mut self, delta: u64) {
        self.delta = delta;
        self.sections = 0;
        self.layers.clear();
        self.looked_up.borrow_mut().clear();
        self.cache.borrow_mut().clear();
        self.size = 0;
        self.trailer = Dict::default();
        self.trailer_raw.clear();
        self.objstms.borrow_mut().clear();
        self.xref_streams.clear();
        self.page_one.borrow_mut().take();
        self.budget.reset();
    }

    /// This document's budget: its limits, its stop token and what it has spent.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Header version (`1.4`, `2.0`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Kind of the newest xref section.
    pub fn xref_kind(&self) -> XrefKind {
        self.kind
    }

    /// Number of xref sections: 1 for a file never updated (a linearized file counts 2).
    pub fn sections(&self) -> usize {
        self.sections
    }

    /// The merged trailer dictionary (newest keys win).
    pub fn trailer(&self) -> &Dict {
        &self.trailer
    }

    /// The original text of a trailer entry's value (used to copy `/ID` verbatim).
    pub fn trailer_value_text(&self, key: &[u8]) -> Option<&[u8]> {
        let (_, _, span) = self
            .trailer
            .entries
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)?;
        let text = self
            .trailer_raw
            .get(span.clone())
            .filter(|t| !t.is_empty())?;
        // Skip `/Key` (which may be written with #xx escapes) to reach the value.
        let mut i = 1;
        while i < text.len() && !is_white(text[i]) && !b"()<>[]{}/%".contains(&text[i]) {
            i += 1;
        }
        Some(text[i..].trim_ascii())
    }

    /// Reads the PDF's last byte (to know whether the update must start on a new line).
    ///
    /// # Errors
    /// [`ErrorKind::Io`].
    pub fn read_last_byte(&self, out: &mut [u8; 1]) -> Result<(), Error> {
        if self.len > 0 {
            self.src.read_at(self.len - 1, out).map_err(io_err)?;
        }
        Ok(())
    }

    /// Length of the PDF: the file's length, or the length before an interrupted in-place
    /// update of pith's (see [`Pdf::uncommitted`]).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The number of bytes after the PDF that an interrupted `pith` in-place update left
    /// uncommitted (readers do not see them; an in-place run removes them first), or `None`.
    pub fn uncommitted(&self) -> Option<u64> {
        (self.file_len > self.len).then(|| self.file_len - self.len)
    }

    /// Whether the file is empty (never true for an opened PDF).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Installs the handler that decrypts the strings and streams of every object fetched
    /// from now on (see [`super::security`]); the writer encrypts new objects with it too.
    pub fn set_security(&mut self, handler: Box<dyn SecurityHandler>) {
        self.objstms.borrow_mut().clear();
        self.cache.borrow_mut().clear();
        self.page_one.borrow_mut().take();
        self.security = Some(handler);
    }

    /// The installed security handler, if any.
    pub fn security(&self) -> Option<&dyn SecurityHandler> {
        self.security.as_deref()
    }

    /// Whether object `num` lies in an object stream: an encrypted file stores its strings
    /// in clear there, inside the encrypted container.
    pub fn in_object_stream(&self, num: u32) -> bool {
        matches!(self.entry(num), Ok(Some(Entry::InStream(..))))
    }

    /// Smallest object number not used by the file (the trailer's `/Size`).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The offset of the newest xref section as written in the file (the new `/Prev`).
    pub fn startxref(&self) -> u64 {
        self.startxref
    }

    /// Where offsets count from: the position of the `%PDF-` header (bytes before it are
    /// not counted), for the file's entries and for the ones the writer appends.
    pub fn delta(&self) -> u64 {
        self.delta
    }

    /// The generation of an in-use object, if it exists.
    pub fn generation(&self, num: u32) -> Option<u16> {
        match self.entry(num).ok()?? {
            Entry::Offset(_, g) => Some(g),
            Entry::InStream(..) => Some(0),
            Entry::Free => None,
        }
    }
}

/// How thoroughly [`Pdf::open_checked`] verifies the xref against the file before anything
/// is appended to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Check {
    /// A bounded, deterministic sample of entries spread over the file starts with its
    /// `N G obj`: for decoded sections (xref streams, tables read whole) the first and last
    /// [`check::SAMPLE_ENDS`] by position and [`check::SAMPLE_SPREAD`] between; for indexed classic tables
    /// (never read whole) the same counts by rank in the table. Systematic damage — offsets shifted by
    /// line-ending conversion, bytes inserted or cut, a truncated tail — moves every object
    /// after the damage, so a spread sample catches it while reading a few KB. The objects an
    /// update fetches or references are checked besides ([`Pdf::check_objects`]).
    #[default]
    Sampled,
    /// Every in-use entry is checked (`pith inspect --deep`): the whole file is read.
    Full,
}
