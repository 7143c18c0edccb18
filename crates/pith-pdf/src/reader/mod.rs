//! Reading a PDF without loading it: the header, `startxref`, the xref chain
//! ([`xref`]; regular classic tables are indexed and their entries read when needed, see
//! `table`), the check of the xref against the file ([`check`]), and single objects fetched
//! by number, also from object streams. Everything goes through [`ReadAt`], so a 500 MB file
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
use crate::filters::{Decoder, FilterError, MAX_DECODED};
use crate::journal;
use crate::security::{decrypt_obj, SecurityHandler};
use crate::syntax::{is_white, Dict, Obj, Parser, Ref, SyntaxError};
use crate::{Error, ErrorKind};

pub mod check;
mod entry;
pub mod pages;
mod rebuilt;
pub mod source;
mod table;
pub mod xref;

pub(crate) use entry::Entry;
pub use pages::{FirstPage, Inherited};
pub use rebuilt::Rebuilt;
pub use source::{find, rfind, ReadAt};
use source::{parse_growing, read_window, KnownLen};
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

/// An object stream decoded as far as the objects asked for so far: its data is
/// a prefix of the decoded stream, extended when an object lies past it, up to
/// [`MAX_DECODED`]; the decoder keeps its place in between.
struct ObjStm {
    num: u32,
    data: RefCell<Vec<u8>>,
    /// The decoder, until the stream ends.
    rest: RefCell<Option<Decoder<'static>>>,
    /// (object number, offset from `first`)
    index: Vec<(u32, usize)>,
    first: usize,
}

impl ObjStm {
    /// Decodes more of the stream: at least doubles the prefix (64 KiB at first), or up to
    /// `want` bytes, never past [`MAX_DECODED`]. False when the stream has ended.
    fn more(&self, want: usize, budget: &Budget) -> Result<bool, Error> {
        let mut rest = self.rest.borrow_mut();
        let Some(dec) = rest.as_mut() else {
            return Ok(false);
        };
        let mut data = self.data.borrow_mut();
        let have = data.len() as u64;
        if have >= MAX_DECODED {
            return Err(too_large("object stream", Some(self.num), MAX_DECODED));
        }
        let target = (have * 2).max(64 << 10).max(want as u64).min(MAX_DECODED);
        let mut m = Metered::new(dec.by_ref(), budget);
        let got = (&mut m)
            .take(target - have)
            .read_to_end(&mut data)
            .map_err(|e| m.error(e, "object stream", Some(self.num)))?;
        if (got as u64) < target - have {
            *rest = None;
        }
        Ok(true)
    }

    fn ended(&self) -> bool {
        self.rest.borrow().is_none()
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

/// Parsed objects kept by number, oldest out first when they would hold more than the
/// budget's `cache_bytes`.
#[derive(Default)]
struct Cache {
    map: HashMap<u32, Fetched>,
    order: std::collections::VecDeque<u32>,
    bytes: u64,
}

impl Cache {
    /// What an object costs held: its text, its stream data and its parsed tree (about as
    /// many bytes again as the text, times the size of a node over the size of a token).
    fn cost(f: &Fetched) -> u64 {
        (f.raw.len() as u64).saturating_mul(4) + f.stream.as_ref().map_or(0, |s| s.len() as u64)
    }

    fn get(&self, num: u32) -> Option<&Fetched> {
        self.map.get(&num)
    }

    fn put(&mut self, num: u32, f: &Fetched, cap: u64) {
        let cost = Cache::cost(f);
        // One object may take a quarter of the cache: larger ones are read again.
        if cost > cap / 4 || self.map.contains_key(&num) {
            return;
        }
        while self.bytes + cost > cap {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(o) = self.map.remove(&old) {
                self.bytes -= Cache::cost(&o);
            }
        }
        self.bytes += cost;
        self.order.push_back(num);
        self.map.insert(num, f.clone());
    }

    fn clear(&mut self) {
        *self = Cache::default();
    }
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

    /// Reads object `num`. Missing and free objects are `Ok(None)` (they are `null`).
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`] when the object cannot be parsed.
    pub fn get(&self, num: u32) -> Result<Option<Fetched>, Error> {
        self.get_depth(num, 0)
    }

    fn get_depth(&self, num: u32, depth: usize) -> Result<Option<Fetched>, Error> {
        if depth > 8 {
            return Err(damaged(
                format!("object {num}: references nest too deep"),
                0,
            ));
        }
        self.budget.check()?;
        if let Some(f) = self.cache.borrow().get(num) {
            return Ok(Some(f.clone()));
        }
        let f = self.parse_object(num, depth)?;
        if let Some(f) = &f {
            self.cache
                .borrow_mut()
                .put(num, f, self.budget.limits().cache_bytes);
        }
        Ok(f)
    }

    /// Counts one object parsed, of `bytes` bytes, against the budget.
    fn spend_object(&self, bytes: usize) -> Result<(), Error> {
        self.budget.spend(Resource::Objects, 1)?;
        self.budget.spend(Resource::ParsedBytes, bytes as u64)
    }

    /// Parses object `num` from the file (no cache).
    fn parse_object(&self, num: u32, depth: usize) -> Result<Option<Fetched>, Error> {
        match self.entry(num)? {
            None | Some(Entry::Free) => Ok(None),
            Some(Entry::Offset(off, _)) => {
                let f = self.fetch_at_depth(off + self.delta, Some(num), depth, true)?;
                Ok(Some(f))
            }
            Some(Entry::InStream(stm, idx)) => {
                let os = self.objstm(stm, depth)?;
                let (n2, rel) = *os.index.get(idx as usize).ok_or_else(|| {
                    damaged(
                        format!("object {num}: index {idx} outside object stream {stm}"),
                        0,
                    )
                })?;
                if n2 != num {
                    return Err(damaged(
                        format!(
                            "object stream {stm} holds object {n2} where the xref expects {num}"
                        ),
                        0,
                    ));
                }
                let start = os.first.saturating_add(rel);
                // Decode as far as the object reaches: past its start, then further while
                // the parser runs out of bytes.
                while os.data.borrow().len() <= start && os.more(start + 1, &self.budget)? {}
                loop {
                    let data = os.data.borrow();
                    if start > data.len() {
                        return Err(damaged(
                            format!("object {num}: offset outside object stream {stm}"),
                            0,
                        ));
                    }
                    let mut p = Parser::new(&data, start, os.ended());
                    match p.object() {
                        Ok(_) => {
                            // The object's own bytes, parsed again so its spans index them.
                            let raw = data[start..p.pos].to_vec();
                            drop(data);
                            self.spend_object(raw.len())?;
                            let obj = Parser::new(&raw, 0, true).object().map_err(|_| {
                                damaged(
                                    format!("object {num} in object stream {stm} does not parse"),
                                    0,
                                )
                            })?;
                            // Already decrypted with its object stream.
                            return Ok(Some(Fetched {
                                id: Ref::new(num, 0),
                                obj,
                                raw,
                                stream: None,
                            }));
                        }
                        Err(SyntaxError::Eof) if !os.ended() => {
                            drop(data);
                            os.more(0, &self.budget)?;
                        }
                        Err(_) => {
                            return Err(damaged(
                                format!("object {num} in object stream {stm} does not parse"),
                                0,
                            ))
                        }
                    }
                }
            }
        }
    }

    fn objstm(&self, stm: u32, depth: usize) -> Result<std::rc::Rc<ObjStm>, Error> {
        if let Some(o) = self.objstms.borrow().get(&stm) {
            return Ok(o.clone());
        }
        let f = self
            .get_depth(stm, depth + 1)?
            .ok_or_else(|| damaged(format!("object stream {stm} is missing"), 0))?;
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object stream {stm} is not a stream"), 0))?;
        let n = d.get(b"N").and_then(Obj::as_int).unwrap_or(-1);
        let first = d.get(b"First").and_then(Obj::as_int).unwrap_or(-1);
        let bad = || damaged(format!("object stream {stm} has a bad /N or /First"), 0);
        if n < 0 || first < 0 || first as u64 > MAX_DECODED {
            return Err(bad());
        }
        // The header's claims are checked before any of it is decoded: each of the /N
        // objects counts against the objects limit, and the pairs before /First take at
        // least three bytes each ("1 0") and at most two numbers and their white space
        // (32 bytes is ample), so a /First far past them is not a header.
        let (n_u, first_u) = (n as u64, first as u64);
        let limits = self.budget.limits();
        if n_u
            > limits
                .objects
                .saturating_sub(self.budget.used(Resource::Objects))
        {
            return Err(crate::budget::over(Resource::Objects, limits.objects));
        }
        if n_u.saturating_mul(3) > first_u.saturating_add(1)
            || first_u > n_u.saturating_mul(32).saturating_add(4096)
        {
            return Err(bad());
        }
        let dec = Decoder::new(
            d,
            std::io::Cursor::new(f.stream.unwrap_or_default()),
            limits,
        )
        .map_err(|e| filter_err(e, "object stream", Some(stm)))?;
        let os = ObjStm {
            num: stm,
            data: RefCell::new(Vec::new()),
            rest: RefCell::new(Some(dec)),
            index: Vec::new(),
            first: first as usize,
        };
        // The header (pairs of numbers before /First) first.
        while os.data.borrow().len() < first as usize && os.more(first as usize, &self.budget)? {}
        let data = os.data.borrow();
        if first as usize > data.len() || n as usize > data.len() {
            return Err(bad());
        }
        let mut p = Parser::new(&data[..first as usize], 0, true);
        // Grown as pairs parse: a claim is not an allocation.
        let mut index = Vec::with_capacity((n as usize).min(4096));
        for _ in 0..n {
            let (a, b) = match (p.uint(), p.uint()) {
                (Ok(a), Ok(b)) => (a, b),
                _ => return Err(damaged(format!("object stream {stm} has a bad header"), 0)),
            };
            index.push((
                u32::try_from(a).unwrap_or(u32::MAX),
                usize::try_from(b).unwrap_or(usize::MAX),
            ));
        }
        drop(data);
        let os = std::rc::Rc::new(ObjStm { index, ..os });
        self.objstms.borrow_mut().insert(stm, os.clone());
        Ok(os)
    }

    /// Resolves a reference one level: `Ref` → the object it names (or `Null`), other objects
    /// unchanged.
    ///
    /// # Errors
    /// As [`Pdf::get`].
    pub fn resolve(&self, o: &Obj) -> Result<Obj, Error> {
        match o {
            Obj::Ref(r) => Ok(self.get(r.num)?.map(|f| f.obj).unwrap_or(Obj::Null)),
            other => Ok(other.clone()),
        }
    }

    fn fetch_at(&self, pos: u64, expect: Option<u32>) -> Result<Fetched, Error> {
        self.fetch_at_depth(pos, expect, 0, true)
    }

    /// Object `num` as [`Pdf::get`] reads it, but without a stream's data (`stream` is
    /// `None`): for looking at a stream's dictionary without reading what may be megabytes
    /// of image or content.
    ///
    /// # Errors
    /// As [`Pdf::get`].
    pub fn get_dict(&self, num: u32) -> Result<Option<Fetched>, Error> {
        self.budget.check()?;
        if let Some(f) = self.cache.borrow().get(num) {
            return Ok(Some(Fetched {
                stream: None,
                ..f.clone()
            }));
        }
        match self.entry(num)? {
            Some(Entry::Offset(off, _)) => Ok(Some(self.fetch_at_depth(
                off + self.delta,
                Some(num),
                0,
                false,
            )?)),
            // Objects in object streams are never streams.
            _ => self.get(num),
        }
    }

    fn fetch_at_depth(
        &self,
        pos: u64,
        expect: Option<u32>,
        depth: usize,
        with_data: bool,
    ) -> Result<Fetched, Error> {
        let nesting = self.budget.limits().nesting;
        let ((id, obj, data_start), raw) = parse_growing(&self.src, pos, nesting, |p| {
            let id = p.obj_header()?;
            let obj = p.object()?;
            let ds = if matches!(obj, Obj::Dict(_)) {
                p.stream_start()?
            } else {
                None
            };
            Ok((id, obj, ds))
        })?;
        self.spend_object(raw.len())?;
        if let Some(n) = expect {
            if id.num != n {
                return Err(damaged(
                    format!("object {n} is not at the offset the xref gives"),
                    pos,
                ));
            }
        }
        let stream = match data_start {
            None => None,
            Some(_) if !with_data => None,
            Some(ds) => {
                let d = obj.as_dict().expect("stream_start only after a dictionary");
                let abs = pos + ds as u64;
                let len = match d.get(b"Length") {
                    Some(Obj::Int(l)) if *l >= 0 => Some(*l as u64),
                    Some(Obj::Ref(r)) if Some(r.num) != expect => {
                        match self.get_depth(r.num, depth + 1) {
                            Ok(Some(Fetched {
                                obj: Obj::Int(l), ..
                            })) if l >= 0 => Some(l as u64),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                Some(self.stream_data(abs, len)?)
            }
        };
        let mut f = Fetched {
            id,
            obj,
            raw,
            stream,
        };
        // Xref streams (fetched without `expect`) are never encrypted (§7.5.8.2).
        if let (Some(h), Some(_)) = (self.security.as_deref(), expect) {
            decrypt_obj(h, id, &mut f.obj);
            if let (Some(data), Some(d)) = (&mut f.stream, f.obj.as_dict()) {
                *data = h.decrypt_stream(id, d, data);
            }
        }
        Ok(f)
    }

    /// Reads stream data at `abs`: `len` bytes when `endstream` follows them, else (a wrong
    /// or missing `/Length`, which qpdf also tolerates) up to the next `endstream`.
    fn stream_data(&self, abs: u64, len: Option<u64>) -> Result<Vec<u8>, Error> {
        if let Some(l) = len {
            if abs.checked_add(l).is_some_and(|e| e <= self.len) && l <= MAX_DECODED {
                let data = read_window(&self.src, abs, l as usize)?;
                let after = read_window(&self.src, abs + l, 32)?;
                let mut p = Parser::new(&after, 0, true);
                p.skip_ws();
                if after[p.pos..].starts_with(b"endstream") {
                    return Ok(data);
                }
            }
        }
        let mut size = 4096usize;
        loop {
            let w = read_window(&self.src, abs, size)?;
            if let Some(i) = find(&w, b"endstream") {
                let mut end = i;
                if end > 0 && w[end - 1] == b'\n' {
                    end -= 1;
                }
                if end > 0 && w[end - 1] == b'\r' {
                    end -= 1;
                }
                let mut data = w;
                data.truncate(end);
                return Ok(data);
            }
            if abs + w.len() as u64 >= self.len || size as u64 >= MAX_DECODED {
                return Err(damaged("stream without endstream", abs));
            }
            size *= 4;
        }
    }

    /// Decodes the whole data of a fetched stream object, refusing past `bound` bytes
    /// (decoding stops there); `what` names the stream in that refusal ("the XMP metadata
    /// stream").
    ///
    /// # Errors
    /// [`ErrorKind::TooLarge`] past the bound, [`ErrorKind::Damaged`] when a filter fails or
    /// is unsupported.
    pub fn decoded(&self, f: &Fetched, what: &str, bound: u64) -> Result<Vec<u8>, Error> {
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object {} is not a stream", f.id.num), 0))?;
        let data = f.stream.as_deref().unwrap_or(&[]);
        let dec = Decoder::new(d, data, self.budget.limits())
            .map_err(|e| filter_err(e, what, Some(f.id.num)))?;
        let mut m = Metered::new(dec, &self.budget);
        let mut out = Vec::new();
        let n = (&mut m)
            .take(bound.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| m.error(e, what, Some(f.id.num)))?;
        if n as u64 > bound {
            return Err(too_large(what, Some(f.id.num), bound));
        }
        Ok(out)
    }

    /// A decoder of a fetched stream object's data, for callers that scan it as it comes
    /// (and set their own bound).
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`] when the object is not a stream or its filters are unsupported.
    pub fn decoder<'f>(&'f self, f: &'f Fetched) -> Result<Metered<'f, Decoder<'f>>, Error> {
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object {} is not a stream", f.id.num), 0))?;
        let dec = Decoder::new(d, f.stream.as_deref().unwrap_or(&[]), self.budget.limits())
            .map_err(|e| filter_err(e, "content stream", Some(f.id.num)))?;
        Ok(Metered::new(dec, &self.budget))
    }
}

#[cfg(test)]
pub(crate) mod testpdf;

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

#[cfg(test)]
mod tests {
    use super::testpdf::{build, DOC};
    use super::*;

    use crate::testkit::fixture;

    #[test]
    fn opens_and_fetches() {
        let b = build(b"", &DOC, "");
        let pdf = Pdf::open(&b[..]).unwrap();
        assert_eq!(pdf.version(), "1.4");
        assert_eq!(pdf.sections(), 1);
        assert_eq!(pdf.size(), 4);
        assert_eq!(pdf.xref_kind(), XrefKind::Table);
        assert_eq!(pdf.delta(), 0);
        let root = pdf.trailer().get(b"Root").and_then(Obj::as_ref).unwrap();
        assert_eq!(root, Ref::new(1, 0));
        let cat = pdf.get(1).unwrap().unwrap();
        assert_eq!(cat.id, root);
        let pages = pdf.resolve(cat.obj.as_dict().unwrap().get(b"Pages").unwrap());
        assert_eq!(
            pages.unwrap().as_dict().unwrap().get(b"Count"),
            Some(&Obj::Int(1))
        );
        assert!(pdf.get(9).unwrap().is_none(), "missing objects are null");
        let (d, text) = cat.dict_text().unwrap();
        assert_eq!(text, b"<< /Type /Catalog /Pages 2 0 R >>");
        assert_eq!(d.entries.len(), 2);
    }

    #[test]
    fn wrong_offsets_and_loops_are_damage() {
        let mut b = build(b"", &DOC, "");
        // Renumber object 2 as 92 and shift what follows by one byte.
        let at = find(&b, b"2 0 obj").unwrap();
        b.insert(at, b'9');
        // Keep startxref right: the table moved by one byte too.
        let sx = rfind(&b, b"startxref\n").unwrap() + 10;
        let end = sx + b[sx..].iter().position(|&c| c == b'\n').unwrap();
        let v: u64 = std::str::from_utf8(&b[sx..end]).unwrap().parse().unwrap();
        b.splice(sx..end, (v + 1).to_string().bytes());
        let e = Pdf::open(&b[..]).err().unwrap();
        assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
        let looped = build(b"", &DOC, "/Prev 9999999");
        let e = Pdf::open(&looped[..]).err().unwrap();
        assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
        assert!(matches!(
            Pdf::open(&b"hello"[..]).err().unwrap().kind(),
            ErrorKind::NotPdf
        ));
        let cut = build(b"", &DOC, "");
        let e = Pdf::open(&cut[..cut.len() - 30]).err().unwrap();
        assert!(matches!(e.kind(), ErrorKind::Damaged(_)), "{e}");
    }

    #[test]
    fn object_streams_xref_streams_and_hybrids() {
        for name in [
            "qpdf-object-stream.pdf",
            "qpdf-hybrid-xref.pdf",
            "qpdf-linearized.pdf",
        ] {
            let b = fixture(name);
            let pdf = Pdf::open(&b[..]).unwrap();
            let root = pdf.trailer().get(b"Root").and_then(Obj::as_ref).unwrap();
            let cat = pdf.get(root.num).unwrap().unwrap();
            let d = cat.obj.as_dict().unwrap();
            assert_eq!(
                d.get(b"Type").and_then(Obj::as_name),
                Some(&b"Catalog"[..]),
                "{name}"
            );
        }
        let b = fixture("qpdf-object-stream.pdf");
        let pdf = Pdf::open(&b[..]).unwrap();
        assert_eq!(pdf.xref_kind(), XrefKind::Stream);
        assert!(
            (0..pdf.size()).any(|n| matches!(pdf.entry(n), Ok(Some(Entry::InStream(..))))),
            "the fixture has compressed objects"
        );
    }

    #[test]
    fn the_security_hook_decrypts_fetched_strings() {
        struct Upper;
        impl SecurityHandler for Upper {
            fn decrypt_string(&self, _: Ref, d: &[u8]) -> Vec<u8> {
                d.to_ascii_uppercase()
            }
            fn decrypt_stream(&self, _: Ref, _: &Dict, d: &[u8]) -> Vec<u8> {
                d.to_vec()
            }
            fn encrypt_string(&self, _: Ref, d: &[u8]) -> Vec<u8> {
                d.to_vec()
            }
            fn encrypt_stream(&self, _: Ref, _: crate::security::StreamKind, d: &[u8]) -> Vec<u8> {
                d.to_vec()
            }
        }
        let b = build(b"", &DOC, "");
        let mut pdf = Pdf::open(&b[..]).unwrap();
        pdf.set_security(Box::new(Upper));
        let page = pdf.get(3).unwrap().unwrap();
        assert_eq!(
            page.obj.as_dict().unwrap().get(b"Title"),
            Some(&Obj::Str(b"SECRET".to_vec()))
        );
        // The original text stays as stored, for verbatim copies.
        assert!(find(page.dict_text().unwrap().1, b"(secret)").is_some());
    }
}
