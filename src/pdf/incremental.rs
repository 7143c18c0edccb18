//! Reading the cross-reference chain of a PDF and appending an incremental update
//! (ISO 32000-2 §7.5.6). The only module that uses lopdf (for stream filters).
//!
//! It owns: finding `startxref`, reading xref tables and xref streams along the `/Prev` chain
//! (hybrid `/XRefStm` included), checking that every in-use entry points at its object,
//! fetching single objects (also from object streams), and writing new objects, an xref
//! section of the same kind as the file's last one and a trailer with `/Prev`.
//! It reads only what it needs through [`ReadAt`], so a 500 MB file costs a few reads, and it
//! never changes a byte of the original file: the caller copies the input and appends
//! [`Update::finish`]'s bytes.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io;

use super::syntax::{is_white, Dict, Obj, Parser, SyntaxError};
use super::{Error, ErrorKind};

/// Largest window read to parse one object (dictionaries, xref tables).
const MAX_WINDOW: usize = 256 << 20;
/// Longest xref `/Prev` chain followed.
const MAX_SECTIONS: usize = 10_000;
/// Largest decoded stream accepted (xref streams, object streams, XMP packets).
const MAX_DECODED: usize = 256 << 20;

/// Random-access reading of a file or buffer: all the reader needs.
pub trait ReadAt {
    /// Total length in bytes.
    fn len(&self) -> u64;
    /// Whether the source is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Reads up to `buf.len()` bytes at `offset`; returns how many were read.
    ///
    /// # Errors
    /// Returns the I/O error of the underlying file.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize>;
}

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn len(&self) -> u64 {
        (**self).len()
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        (**self).read_at(offset, buf)
    }
}

impl ReadAt for std::fs::File {
    fn len(&self) -> u64 {
        self.metadata().map(|m| m.len()).unwrap_or(0)
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let mut done = 0;
        while done < buf.len() {
            match FileExt::read_at(self, &mut buf[done..], offset + done as u64) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }
}

impl ReadAt for [u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(<[u8]>::len(self));
        let n = buf.len().min(<[u8]>::len(self) - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

impl ReadAt for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        self.as_slice().read_at(offset, buf)
    }
}

/// The kind of cross-reference section (§7.5.4 table, §7.5.8 stream).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XrefKind {
    /// A classic `xref` table with a `trailer` dictionary.
    Table,
    /// A cross-reference stream (PDF 1.5+).
    Stream,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Free,
    /// Offset as written in the file (add `delta` for the position), generation.
    Offset(u64, u16),
    /// Object stream number, index.
    InStream(u32, u32),
}

/// One indirect object read from the file.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Object number and generation.
    pub id: (u32, u16),
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

struct ObjStm {
    data: Vec<u8>,
    /// (object number, offset from `first`)
    index: Vec<(u32, usize)>,
    first: usize,
}

/// A PDF opened for reading its xref chain and a few objects.
pub struct Pdf<R: ReadAt> {
    src: R,
    len: u64,
    /// Added to offsets written in the file to get positions (bytes before `%PDF-`).
    delta: u64,
    /// Header version, e.g. "1.7".
    version: String,
    startxref: u64,
    kind: XrefKind,
    sections: usize,
    entries: HashMap<u32, Entry>,
    size: u32,
    trailer: Dict,
    trailer_raw: Vec<u8>,
    objstms: RefCell<HashMap<u32, std::rc::Rc<ObjStm>>>,
    /// Object numbers of the xref streams read: writers often give them stale offsets, and
    /// nothing references them, so [`Pdf::check_offsets`] skips them (like qpdf).
    xref_streams: HashSet<u32>,
    /// Issue 18.3: the security handler of an encrypted file, once opened, and the number of
    /// its encryption dictionary (whose strings are never encrypted, §7.6.1).
    security: Option<(super::crypt::Handler, Option<u32>)>,
}

fn damaged(msg: impl Into<String>, offset: u64) -> Error {
    Error::new(ErrorKind::Damaged(msg.into())).at_offset(offset)
}

fn io_err(e: io::Error) -> Error {
    Error::new(ErrorKind::Io).with_source(e)
}

impl<R: ReadAt> Pdf<R> {
    /// Opens `src`: finds the header and `startxref`, reads the whole xref chain and checks
    /// that every in-use entry points at the object it names.
    ///
    /// # Errors
    /// [`ErrorKind::NotPdf`] without a `%PDF-` header, [`ErrorKind::Damaged`] when the xref
    /// chain is broken (a reader would have to reconstruct it), [`ErrorKind::Io`].
    pub fn open(src: R) -> Result<Self, Error> {
        let len = src.len();
        let head = read_window(&src, 0, 1024)?;
        let hdr = find(&head, b"%PDF-").ok_or_else(|| Error::new(ErrorKind::NotPdf))?;
        let version: String = head[hdr + 5..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'.')
            .map(|&b| b as char)
            .collect();
        let tail_len = len.min(4096);
        let tail = read_window(&src, len - tail_len, tail_len as usize)?;
        let sx = rfind(&tail, b"startxref")
            .ok_or_else(|| damaged("no startxref near the end of the file", len))?;
        let mut p = Parser::new(&tail, sx + 9, true);
        let startxref = p
            .uint()
            .map_err(|_| damaged("startxref has no offset", len - tail_len + sx as u64))?;
        let mut pdf = Pdf {
            src,
            len,
            delta: 0,
            version,
            startxref,
            kind: XrefKind::Table,
            sections: 0,
            entries: HashMap::new(),
            size: 0,
            trailer: Dict::default(),
            trailer_raw: Vec::new(),
            objstms: RefCell::new(HashMap::new()),
            xref_streams: HashSet::new(),
            security: None,
        };
        // Files with bytes before `%PDF-` may count offsets from the header: when the chain
        // does not read with absolute offsets, try offsets relative to the header.
        let first = pdf.read_chain().and_then(|_| pdf.check_offsets());
        if let Err(e) = first {
            if hdr == 0 || !matches!(e.kind(), ErrorKind::Damaged(_)) {
                return Err(e);
            }
            pdf.reset(hdr as u64);
            if pdf.read_chain().and_then(|_| pdf.check_offsets()).is_err() {
                return Err(e);
            }
        }
        Ok(pdf)
    }

    fn reset(&mut self, delta: u64) {
        self.delta = delta;
        self.sections = 0;
        self.entries.clear();
        self.size = 0;
        self.trailer = Dict::default();
        self.trailer_raw.clear();
        self.objstms.borrow_mut().clear();
        self.xref_streams.clear();
    }

    /// Installs the security handler of an encrypted file (issue 18.3): from now on strings
    /// of fetched objects and stream data are decrypted with the per-object keys; the
    /// encryption dictionary `encrypt` (when indirect) is left as it is, and objects inside
    /// object streams are decrypted with their container.
    pub fn set_security(&mut self, handler: super::crypt::Handler, encrypt: Option<u32>) {
        self.objstms.borrow_mut().clear();
        self.security = Some((handler, encrypt));
    }

    /// The security handler installed by [`Pdf::set_security`].
    pub fn security(&self) -> Option<&super::crypt::Handler> {
        self.security.as_ref().map(|(h, _)| h)
    }

    /// Whether object `num` lies in an object stream (its strings are then stored in clear
    /// inside the encrypted container).
    pub fn in_object_stream(&self, num: u32) -> bool {
        matches!(self.entries.get(&num), Some(Entry::InStream(..)))
    }

    fn handler_for(&self, num: u32) -> Option<&super::crypt::Handler> {
        match &self.security {
            Some((h, enc)) if *enc != Some(num) => Some(h),
            _ => None,
        }
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

    /// Reads the file's last byte (to know whether the update must start on a new line).
    ///
    /// # Errors
    /// [`ErrorKind::Io`].
    pub fn read_last_byte(&self, out: &mut [u8; 1]) -> Result<(), Error> {
        if self.len > 0 {
            self.src.read_at(self.len - 1, out).map_err(io_err)?;
        }
        Ok(())
    }

    /// Total file length.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty (never true for an opened PDF).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn read_chain(&mut self) -> Result<(), Error> {
        let mut next = Some(self.startxref);
        let mut seen = HashSet::new();
        let mut first = true;
        while let Some(off) = next {
            if !seen.insert(off) || self.sections >= MAX_SECTIONS {
                return Err(damaged("the /Prev chain loops", off));
            }
            self.sections += 1;
            let pos = off + self.delta;
            let w = read_window(&self.src, pos, 64)?;
            let mut p = Parser::new(&w, 0, true);
            p.skip_ws();
            let (kind, trailer, raw) = if w[p.pos..].starts_with(b"xref") {
                let (t, raw) = self.read_table(pos)?;
                (XrefKind::Table, t, raw)
            } else {
                let (t, raw) = self.read_xref_stream(pos, false)?;
                (XrefKind::Stream, t, raw)
            };
            if first {
                self.kind = kind;
                self.trailer = trailer.clone();
                self.trailer_raw = raw;
                first = false;
            } else {
                // Older trailers fill keys the newest one lacks (lenient, like most readers).
                for (k, v, _) in &trailer.entries {
                    if matches!(k.as_slice(), b"Root" | b"Info" | b"ID" | b"Encrypt")
                        && self.trailer.get(k).is_none()
                    {
                        self.trailer.entries.push((k.clone(), v.clone(), 0..0));
                    }
                }
            }
            if let Some(s) = trailer.get(b"Size").and_then(Obj::as_int) {
                self.size = self
                    .size
                    .max(u32::try_from(s.clamp(0, i64::from(u32::MAX))).unwrap_or(0));
            }
            next = match trailer.get(b"Prev") {
                None => None,
                Some(Obj::Int(v)) if *v >= 0 => Some(*v as u64),
                Some(_) => return Err(damaged("/Prev is not an offset", pos)),
            };
        }
        let max_num = self.entries.keys().copied().max().unwrap_or(0);
        self.size = self.size.max(max_num.saturating_add(1));
        if self.trailer.get(b"Root").and_then(Obj::as_ref).is_none() {
            return Err(damaged("the trailer has no /Root", self.startxref));
        }
        Ok(())
    }

    fn insert(&mut self, num: u32, e: Entry) {
        self.entries.entry(num).or_insert(e);
    }

    fn read_table(&mut self, pos: u64) -> Result<(Dict, Vec<u8>), Error> {
        let (parsed, buf) = parse_growing(&self.src, pos, |p| {
            p.keyword(b"xref")?;
            let mut found = Vec::new();
            loop {
                p.skip_ws();
                let save = p.pos;
                if p.keyword(b"trailer").is_ok() {
                    break;
                }
                p.pos = save;
                let start = p.uint()?;
                let count = p.uint()?;
                for i in 0..count {
                    let off = p.uint()?;
                    let gen = p.uint()?;
                    p.skip_ws();
                    let at = p.pos;
                    let kind = match p.byte_at(at) {
                        Some(b'n') => true,
                        Some(b'f') => false,
                        Some(_) => return Err(SyntaxError::Invalid(at)),
                        None => return Err(SyntaxError::Eof),
                    };
                    p.pos += 1;
                    // Tolerate junk after the n/f flag up to the end of the line, as qpdf does.
                    while let Some(b) = p.byte_at(p.pos) {
                        if b == b'\r' || b == b'\n' {
                            break;
                        }
                        p.pos += 1;
                    }
                    let num = start + i;
                    if num <= u64::from(u32::MAX) {
                        found.push((num as u32, off, gen, kind));
                    }
                }
            }
            let d = p.dict()?;
            Ok((found, d))
        })
        .map_err(|e| e.context_msg("cross-reference table"))?;
        let (found, trailer) = parsed;
        // Hybrid files (§7.5.8.4): entries of /XRefStm come before the table's free entries
        // and before older sections.
        for &(num, off, gen, used) in &found {
            if used && off > 0 {
                self.insert(num, Entry::Offset(off, gen.min(65535) as u16));
            }
        }
        if let Some(Obj::Int(x)) = trailer.get(b"XRefStm") {
            if *x >= 0 {
                self.read_xref_stream(*x as u64 + self.delta, true)?;
            }
        }
        for &(num, off, _, used) in &found {
            if !used || off == 0 {
                self.insert(num, Entry::Free);
            }
        }
        Ok((trailer, buf))
    }

    fn read_xref_stream(&mut self, pos: u64, hybrid: bool) -> Result<(Dict, Vec<u8>), Error> {
        let f = self
            .fetch_at(pos, None)
            .map_err(|e| e.context_msg("cross-reference stream"))?;
        let d = f
            .obj
            .as_dict()
            .cloned()
            .ok_or_else(|| damaged("xref stream has no dictionary", pos))?;
        self.xref_streams.insert(f.id.0);
        if d.get(b"Type").and_then(Obj::as_name) != Some(b"XRef") {
            return Err(damaged(
                "startxref or /Prev points at an object that is not an xref stream",
                pos,
            ));
        }
        let data =
            decode_stream(&d, f.stream.as_deref().unwrap_or(&[])).map_err(|e| e.at_offset(pos))?;
        let w: Vec<usize> = match d.get(b"W") {
            Some(Obj::Array(a)) if a.len() == 3 => a
                .iter()
                .map(|o| o.as_int().unwrap_or(-1))
                .map(|v| if (0..=8).contains(&v) { v as usize } else { 99 })
                .collect(),
            _ => return Err(damaged("xref stream without a valid /W", pos)),
        };
        if w.iter().any(|&x| x > 8) || w.iter().sum::<usize>() == 0 {
            return Err(damaged("xref stream /W is out of range", pos));
        }
        let size = d.get(b"Size").and_then(Obj::as_int).unwrap_or(0).max(0);
        let index: Vec<(u64, u64)> = match d.get(b"Index") {
            Some(Obj::Array(a)) => a
                .chunks(2)
                .filter_map(|c| Some((c[0].as_int()? as u64, c.get(1)?.as_int()? as u64)))
                .collect(),
            _ => vec![(0, size as u64)],
        };
        let rec = w.iter().sum::<usize>();
        let mut at = 0usize;
        let field = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        for (start, count) in index {
            for i in 0..count {
                if at + rec > data.len() {
                    return Err(damaged("xref stream is shorter than its /Index says", pos));
                }
                let r = &data[at..at + rec];
                at += rec;
                let t = if w[0] == 0 { 1 } else { field(&r[..w[0]]) };
                let f2 = field(&r[w[0]..w[0] + w[1]]);
                let f3 = field(&r[w[0] + w[1]..]);
                let num = start + i;
                if num > u64::from(u32::MAX) {
                    continue;
                }
                let num = num as u32;
                match t {
                    0 if !hybrid => self.insert(num, Entry::Free),
                    1 => {
                        if f2 > 0 {
                            self.insert(num, Entry::Offset(f2, f3.min(65535) as u16))
                        } else if !hybrid {
                            self.insert(num, Entry::Free)
                        }
                    }
                    2 => self.insert(
                        num,
                        Entry::InStream(
                            f2.min(u64::from(u32::MAX)) as u32,
                            f3.min(u64::from(u32::MAX)) as u32,
                        ),
                    ),
                    _ => {}
                }
            }
        }
        Ok((d, f.raw))
    }

    /// Checks that each in-use entry points at `N G obj` (white space allowed before it), and
    /// that each compressed object's stream is itself an in-use object.
    fn check_offsets(&self) -> Result<(), Error> {
        // The objects to check, in file order, so that neighbours are read together: one read
        // of up to WINDOW bytes covers every object header in it. A file with 100,000 objects
        // costs a few dozen reads instead of 100,000 (the 500 MB benchmark, issue #6); a file
        // with a few objects far apart still reads only a few bytes around each.
        const HEADER: u64 = 48;
        const WINDOW: u64 = 1 << 20;
        let mut at: Vec<(u64, u32, u16)> = Vec::new();
        for (&num, &e) in &self.entries {
            match e {
                Entry::Offset(_, _) if self.xref_streams.contains(&num) => {}
                Entry::Offset(off, gen) => {
                    let pos = off.saturating_add(self.delta);
                    if pos >= self.len {
                        return Err(damaged(
                            format!("object {num} {gen} lies past the end of the file"),
                            pos,
                        ));
                    }
                    at.push((pos, num, gen));
                }
                Entry::InStream(stm, _) => {
                    if !matches!(self.entries.get(&stm), Some(Entry::Offset(..))) {
                        return Err(damaged(
                            format!("object {num} lies in object stream {stm}, which is missing"),
                            self.startxref,
                        ));
                    }
                }
                Entry::Free => {}
            }
        }
        at.sort_unstable();
        let mut i = 0;
        while i < at.len() {
            let start = at[i].0;
            let mut j = i;
            while j + 1 < at.len() && at[j + 1].0 + HEADER <= start + WINDOW {
                j += 1;
            }
            let end = (at[j].0 + HEADER).min(self.len);
            let buf = read_window(&self.src, start, (end - start) as usize)?;
            for &(pos, num, gen) in &at[i..=j] {
                let from = (pos - start) as usize;
                let to = (from + HEADER as usize).min(buf.len());
                let mut p = Parser::new(&buf[from..to], 0, start + to as u64 >= self.len);
                match p.obj_header() {
                    Ok((n2, _)) if n2 == num => {}
                    _ => {
                        return Err(damaged(
                            format!("object {num} {gen} is not at the offset the xref gives"),
                            pos,
                        ))
                    }
                }
            }
            i = j + 1;
        }
        Ok(())
    }

    /// Smallest object number not used by the file (the trailer's `/Size`).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The offset of the newest xref section as written in the file (the new `/Prev`).
    pub fn startxref(&self) -> u64 {
        self.startxref
    }

    /// Offset added to positions when writing xref entries (bytes before `%PDF-`).
    pub fn delta(&self) -> u64 {
        self.delta
    }

    /// The generation of an in-use object, if it exists.
    pub fn generation(&self, num: u32) -> Option<u16> {
        match self.entries.get(&num)? {
            Entry::Offset(_, g) => Some(*g),
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
        match self.entries.get(&num).copied() {
            None | Some(Entry::Free) => Ok(None),
            Some(Entry::Offset(off, _)) => {
                let mut f = self.fetch_at_depth(off + self.delta, Some(num), depth)?;
                if let Some(h) = self.handler_for(num) {
                    h.decrypt_obj(f.id, &mut f.obj);
                }
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
                if start > os.data.len() {
                    return Err(damaged(
                        format!("object {num}: offset outside object stream {stm}"),
                        0,
                    ));
                }
                let mut p = Parser::new(&os.data, start, true);
                let obj = p.object().map_err(|_| {
                    damaged(
                        format!("object {num} in object stream {stm} does not parse"),
                        0,
                    )
                })?;
                Ok(Some(Fetched {
                    id: (num, 0),
                    obj,
                    raw: os.data.clone(),
                    stream: None,
                }))
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
        let data = self.decoded(&f)?;
        let n = d.get(b"N").and_then(Obj::as_int).unwrap_or(-1);
        let first = d.get(b"First").and_then(Obj::as_int).unwrap_or(-1);
        if n < 0 || first < 0 || first as usize > data.len() || n as usize > data.len() {
            return Err(damaged(
                format!("object stream {stm} has a bad /N or /First"),
                0,
            ));
        }
        let mut p = Parser::new(&data[..first as usize], 0, true);
        let mut index = Vec::with_capacity(n as usize);
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
        let os = std::rc::Rc::new(ObjStm {
            data,
            index,
            first: first as usize,
        });
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
            Obj::Ref(n, _) => Ok(self.get(*n)?.map(|f| f.obj).unwrap_or(Obj::Null)),
            other => Ok(other.clone()),
        }
    }

    fn fetch_at(&self, pos: u64, expect: Option<u32>) -> Result<Fetched, Error> {
        self.fetch_at_depth(pos, expect, 0)
    }

    fn fetch_at_depth(
        &self,
        pos: u64,
        expect: Option<u32>,
        depth: usize,
    ) -> Result<Fetched, Error> {
        let ((id, obj, data_start), raw) = parse_growing(&self.src, pos, |p| {
            let id = p.obj_header()?;
            let obj = p.object()?;
            let ds = if matches!(obj, Obj::Dict(_)) {
                p.stream_start()?
            } else {
                None
            };
            Ok((id, obj, ds))
        })?;
        if let Some(n) = expect {
            if id.0 != n {
                return Err(damaged(
                    format!("object {n} is not at the offset the xref gives"),
                    pos,
                ));
            }
        }
        let stream = match data_start {
            None => None,
            Some(ds) => {
                let d = obj.as_dict().expect("stream_start only after a dictionary");
                let abs = pos + ds as u64;
                let len = match d.get(b"Length") {
                    Some(Obj::Int(l)) if *l >= 0 => Some(*l as u64),
                    Some(Obj::Ref(n, _)) if Some(*n) != expect => {
                        match self.get_depth(*n, depth + 1) {
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
        Ok(Fetched {
            id,
            obj,
            raw,
            stream,
        })
    }

    /// Reads stream data at `abs`: `len` bytes when `endstream` follows them, else (a wrong
    /// or missing `/Length`, which qpdf also tolerates) up to the next `endstream`.
    fn stream_data(&self, abs: u64, len: Option<u64>) -> Result<Vec<u8>, Error> {
        if let Some(l) = len {
            if abs.checked_add(l).is_some_and(|e| e <= self.len) && l as usize <= MAX_DECODED {
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
            if abs + w.len() as u64 >= self.len || size >= MAX_DECODED {
                return Err(damaged("stream without endstream", abs));
            }
            size *= 4;
        }
    }

    /// Decodes the data of a fetched stream object.
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`] when a filter fails or is unsupported.
    pub fn decoded(&self, f: &Fetched) -> Result<Vec<u8>, Error> {
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object {} is not a stream", f.id.0), 0))?;
        let data = f.stream.as_deref().unwrap_or(&[]);
        match self.handler_for(f.id.0) {
            Some(h) => decode_stream(d, &h.decrypt_stream(f.id, d, data)),
            None => decode_stream(d, data),
        }
    }
}

/// Decodes stream data through its `/Filter` chain: Flate, LZW and ASCII85 through lopdf,
/// ASCIIHex, RunLength and the PNG/TIFF predictors here (lopdf 0.36 lacks them or TIFF).
fn decode_stream(d: &Dict, data: &[u8]) -> Result<Vec<u8>, Error> {
    let filters: Vec<Vec<u8>> = match d.get(b"Filter") {
        None | Some(Obj::Null) => return Ok(data.to_vec()),
        Some(Obj::Name(n)) => vec![n.clone()],
        Some(Obj::Array(a)) => a
            .iter()
            .filter_map(|o| o.as_name().map(<[u8]>::to_vec))
            .collect(),
        Some(_) => return Err(damaged("bad /Filter", 0)),
    };
    let parms: Vec<Option<&Dict>> = match d.get(b"DecodeParms").or_else(|| d.get(b"DP")) {
        Some(Obj::Dict(p)) => vec![Some(p)],
        Some(Obj::Array(a)) => a.iter().map(Obj::as_dict).collect(),
        _ => vec![],
    };
    let mut cur = data.to_vec();
    for (i, f) in filters.iter().enumerate() {
        let parm = parms.get(i).copied().flatten();
        let name: &[u8] = match f.as_slice() {
            b"Fl" => b"FlateDecode",
            b"LZW" => b"LZWDecode",
            b"A85" => b"ASCII85Decode",
            b"AHx" => b"ASCIIHexDecode",
            b"RL" => b"RunLengthDecode",
            other => other,
        };
        // Issue 18.3: a /Crypt filter is undone by the security handler before decoding.
        if name == b"Crypt" {
            continue;
        }
        cur = match name {
            b"ASCIIHexDecode" => ascii_hex(&cur),
            b"RunLengthDecode" => run_length(&cur),
            b"FlateDecode" | b"LZWDecode" | b"ASCII85Decode" => {
                let mut ld = lopdf::Dictionary::new();
                ld.set("Filter", lopdf::Object::Name(name.to_vec()));
                if let (Some(p), b"LZWDecode") = (parm, name) {
                    if let Some(Obj::Int(e)) = p.get(b"EarlyChange") {
                        let mut pd = lopdf::Dictionary::new();
                        pd.set("EarlyChange", lopdf::Object::Integer(*e));
                        ld.set("DecodeParms", lopdf::Object::Dictionary(pd));
                    }
                }
                let raw = lopdf::Stream::new(ld, cur)
                    .decompressed_content()
                    .map_err(|e| {
                        damaged(
                            format!("cannot decode a {} stream: {e}", String::from_utf8_lossy(f)),
                            0,
                        )
                    })?;
                if name == b"ASCII85Decode" {
                    raw
                } else {
                    unpredict(raw, parm)?
                }
            }
            other => {
                return Err(damaged(
                    format!("unsupported filter /{}", String::from_utf8_lossy(other)),
                    0,
                ))
            }
        };
        if cur.len() > MAX_DECODED {
            return Err(damaged("decoded stream is too large", 0));
        }
    }
    Ok(cur)
}

fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut hi: Option<u8> = None;
    for &b in data {
        if b == b'>' {
            break;
        }
        let v = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => continue,
        };
        match hi.take() {
            Some(h) => out.push(h << 4 | v),
            None => hi = Some(v),
        }
    }
    if let Some(h) = hi {
        out.push(h << 4);
    }
    out
}

fn run_length(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let n = data[i] as usize;
        i += 1;
        if n == 128 {
            break;
        } else if n < 128 {
            let end = (i + n + 1).min(data.len());
            out.extend_from_slice(&data[i..end]);
            i = end;
        } else if i < data.len() {
            out.extend(std::iter::repeat_n(data[i], 257 - n));
            i += 1;
        }
    }
    out
}

/// Undoes a PNG (10–15) or TIFF (2) predictor (§7.4.4.4).
fn unpredict(data: Vec<u8>, parm: Option<&Dict>) -> Result<Vec<u8>, Error> {
    let Some(p) = parm else { return Ok(data) };
    let get = |k: &[u8], d: i64| p.get(k).and_then(Obj::as_int).unwrap_or(d);
    let predictor = get(b"Predictor", 1);
    if predictor < 2 {
        return Ok(data);
    }
    let colors = get(b"Colors", 1).clamp(1, 64) as usize;
    let bpc = get(b"BitsPerComponent", 8).clamp(1, 16) as usize;
    let columns = get(b"Columns", 1).clamp(1, 1 << 24) as usize;
    let bpp = (colors * bpc).div_ceil(8).max(1);
    let row = (colors * bpc * columns).div_ceil(8);
    if predictor == 2 {
        if bpc != 8 {
            return Err(damaged(
                "TIFF predictor with BitsPerComponent other than 8",
                0,
            ));
        }
        let mut out = data;
        for r in out.chunks_mut(row) {
            for i in bpp..r.len() {
                r[i] = r[i].wrapping_add(r[i - bpp]);
            }
        }
        return Ok(out);
    }
    let mut out = Vec::with_capacity(data.len());
    let mut prev = vec![0u8; row];
    for chunk in data.chunks(row + 1) {
        if chunk.len() < 2 {
            break;
        }
        let (ft, src) = (chunk[0], &chunk[1..]);
        let mut cur = vec![0u8; row];
        cur[..src.len()].copy_from_slice(src);
        for i in 0..row {
            let a = if i >= bpp { cur[i - bpp] } else { 0 };
            let b = prev[i];
            let c = if i >= bpp { prev[i - bpp] } else { 0 };
            cur[i] = match ft {
                0 => cur[i],
                1 => cur[i].wrapping_add(a),
                2 => cur[i].wrapping_add(b),
                3 => cur[i].wrapping_add(((u16::from(a) + u16::from(b)) / 2) as u8),
                4 => {
                    let pa = (i16::from(b) - i16::from(c)).abs();
                    let pb = (i16::from(a) - i16::from(c)).abs();
                    let pc = (i16::from(a) + i16::from(b) - 2 * i16::from(c)).abs();
                    let pr = if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    };
                    cur[i].wrapping_add(pr)
                }
                _ => return Err(damaged("bad PNG predictor row type", 0)),
            };
        }
        out.extend_from_slice(&cur[..src.len()]);
        prev = cur;
    }
    Ok(out)
}

fn read_window<R: ReadAt + ?Sized>(src: &R, pos: u64, len: usize) -> Result<Vec<u8>, Error> {
    let avail = src.len().saturating_sub(pos);
    let n = (len as u64).min(avail) as usize;
    let mut buf = vec![0u8; n];
    let got = src.read_at(pos, &mut buf).map_err(io_err)?;
    buf.truncate(got);
    Ok(buf)
}

/// Runs `f` on a window at `pos`, growing the window while `f` runs out of bytes.
fn parse_growing<R: ReadAt + ?Sized, T>(
    src: &R,
    pos: u64,
    f: impl Fn(&mut Parser<'_>) -> Result<T, SyntaxError>,
) -> Result<(T, Vec<u8>), Error> {
    let mut size = 4096usize;
    loop {
        let buf = read_window(src, pos, size)?;
        let at_eof = pos + buf.len() as u64 >= src.len();
        let mut p = Parser::new(&buf, 0, at_eof);
        match f(&mut p) {
            Ok(t) => return Ok((t, buf)),
            Err(SyntaxError::Eof) if !at_eof && size < MAX_WINDOW => size *= 4,
            Err(SyntaxError::Eof) => return Err(damaged("object too large or cut off", pos)),
            Err(SyntaxError::Invalid(i)) => return Err(damaged("syntax error", pos + i as u64)),
        }
    }
}

/// Position of the first `needle` in `hay`.
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// An incremental update being assembled: new object bodies, then [`Update::finish`].
pub struct Update {
    base_len: u64,
    delta: u64,
    out: Vec<u8>,
    offsets: Vec<(u32, u16, u64)>,
    next_num: u32,
}

impl Update {
    /// Starts an update appended to `pdf`.
    pub fn new<R: ReadAt>(pdf: &Pdf<R>, last_byte: u8) -> Self {
        let mut out = Vec::new();
        // The original file may end without an end-of-line after %%EOF.
        if !matches!(last_byte, b'\n' | b'\r') {
            out.push(b'\n');
        }
        Update {
            base_len: pdf.len(),
            delta: pdf.delta(),
            out,
            offsets: Vec::new(),
            next_num: pdf.size(),
        }
    }

    /// Reserves a fresh object number.
    pub fn new_number(&mut self) -> u32 {
        let n = self.next_num;
        self.next_num += 1;
        n
    }

    fn pos(&self) -> u64 {
        self.base_len + self.out.len() as u64 - self.delta
    }

    /// Appends `num gen obj <body> endobj`, where `body` is the object's text (for a
    /// stream, its dictionary, `stream`, data and `endstream`).
    pub fn object(&mut self, num: u32, gen: u16, body: &[u8]) {
        let pos = self.pos();
        self.offsets.push((num, gen, pos));
        self.out
            .extend_from_slice(format!("{num} {gen} obj\n").as_bytes());
        self.out.extend_from_slice(body);
        self.out.extend_from_slice(b"\nendobj\n");
    }

    /// Appends a stream object whose dictionary entries are `dict_entries` (without
    /// `/Length`, which is added) and whose data is written unfiltered.
    pub fn stream(&mut self, num: u32, gen: u16, dict_entries: &str, data: &[u8]) {
        let mut body =
            format!("<< {dict_entries} /Length {} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.object(num, gen, &body);
    }

    /// Writes the xref section (of `kind`) and trailer; returns the bytes to append.
    /// `trailer` holds the trailer entries other than `/Size` and `/Prev` (`/Root`, `/Info`,
    /// `/ID`), as text.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] when an offset does not fit a 10-digit xref table entry.
    pub fn finish(
        mut self,
        kind: XrefKind,
        prev: u64,
        trailer: &[u8],
        size: u32,
    ) -> Result<Vec<u8>, Error> {
        let xref_pos = self.pos();
        match kind {
            XrefKind::Table => {
                let size = size.max(self.next_num);
                self.offsets.sort();
                let mut s = String::from("xref\n");
                let mut i = 0;
                while i < self.offsets.len() {
                    let mut j = i + 1;
                    while j < self.offsets.len() && self.offsets[j].0 == self.offsets[j - 1].0 + 1 {
                        j += 1;
                    }
                    s.push_str(&format!("{} {}\n", self.offsets[i].0, j - i));
                    for &(_, gen, off) in &self.offsets[i..j] {
                        if off > 9_999_999_999 {
                            return Err(Error::new(ErrorKind::Unsupported(
                                "offset too large for an xref table entry (over 10 digits)".into(),
                            ))
                            .at_offset(off));
                        }
                        s.push_str(&format!("{off:010} {gen:05} n\r\n"));
                    }
                    i = j;
                }
                s.push_str(&format!("trailer\n<< /Size {size} "));
                self.out.extend_from_slice(s.as_bytes());
                self.out.extend_from_slice(trailer);
                self.out.extend_from_slice(
                    format!(" /Prev {prev} >>\nstartxref\n{xref_pos}\n%%EOF\n").as_bytes(),
                );
            }
            XrefKind::Stream => {
                let num = self.new_number();
                let size = size.max(self.next_num);
                self.offsets.push((num, 0, xref_pos));
                self.offsets.sort();
                let w2 =
                    bytes_needed(xref_pos.max(self.offsets.iter().map(|o| o.2).max().unwrap_or(0)));
                let mut data = Vec::new();
                let mut index = String::new();
                for &(n, gen, off) in &self.offsets {
                    index.push_str(&format!("{n} 1 "));
                    data.push(1u8);
                    data.extend_from_slice(&off.to_be_bytes()[8 - w2..]);
                    data.extend_from_slice(&gen.to_be_bytes());
                }
                let mut body = format!(
                    "<< /Type /XRef /Size {size} /W [1 {w2} 2] /Index [{}] ",
                    index.trim_end()
                )
                .into_bytes();
                body.extend_from_slice(trailer);
                body.extend_from_slice(
                    format!(" /Prev {prev} /Length {} >>\nstream\n", data.len()).as_bytes(),
                );
                body.extend_from_slice(&data);
                body.extend_from_slice(b"\nendstream");
                self.out
                    .extend_from_slice(format!("{num} 0 obj\n").as_bytes());
                self.out.extend_from_slice(&body);
                self.out.extend_from_slice(b"\nendobj\n");
                self.out
                    .extend_from_slice(format!("startxref\n{xref_pos}\n%%EOF\n").as_bytes());
            }
        }
        Ok(self.out)
    }
}

fn bytes_needed(v: u64) -> usize {
    let mut n = 1;
    while n < 8 && v >> (8 * n) != 0 {
        n += 1;
    }
    n
}

/// Rebuilds a cross-reference table for a damaged file by scanning it for `N G obj` (the last
/// definition of an object wins, objects in object streams included) and appends it, without
/// `/Prev`, to the bytes from `%PDF-` on. The result is a readable file for
/// [`rewrite_document`]; it is not meant to be kept as is.
///
/// # Errors
/// [`ErrorKind::NotPdf`] without a header, [`ErrorKind::Encrypted`] when a trailer has
/// `/Encrypt`, [`ErrorKind::Damaged`] when no catalog can be found.
pub fn repair(data: &[u8]) -> Result<Vec<u8>, Error> {
    let hdr = find(&data[..data.len().min(1024)], b"%PDF-")
        .ok_or_else(|| Error::new(ErrorKind::NotPdf))?;
    let data = &data[hdr..];
    let mut objs: HashMap<u32, (u16, usize)> = HashMap::new();
    let mut root: Option<(u32, u16)> = None;
    let mut info: Option<(u32, u16)> = None;
    let mut catalog: Option<(u32, u16)> = None;
    let mut objstms: Vec<u32> = Vec::new();
    let mut i = 0;
    while let Some(k) = find(&data[i..], b"obj") {
        let at = i + k;
        i = at + 3;
        if data
            .get(at + 3)
            .is_some_and(|&b| !is_white(b) && !b"<[(/%".contains(&b))
        {
            continue;
        }
        // Walk back over `N G `.
        let mut j = at;
        let skip_ws = |j: &mut usize| {
            while *j > 0 && is_white(data[*j - 1]) {
                *j -= 1
            }
        };
        let digits = |j: &mut usize| {
            let e = *j;
            while *j > 0 && data[*j - 1].is_ascii_digit() {
                *j -= 1;
            }
            e - *j
        };
        skip_ws(&mut j);
        if digits(&mut j) == 0 {
            continue;
        }
        skip_ws(&mut j);
        if digits(&mut j) == 0 {
            continue;
        }
        if j > 0 && !is_white(data[j - 1]) && !b">])}".contains(&data[j - 1]) {
            continue;
        }
        let mut p = Parser::new(data, j, true);
        let Ok((num, gen)) = p.obj_header() else {
            continue;
        };
        let Ok(obj) = p.object() else { continue };
        objs.insert(num, (gen, j));
        if let Obj::Dict(d) = &obj {
            match d.get(b"Type").and_then(Obj::as_name) {
                Some(b"Catalog") => catalog = Some((num, gen)),
                Some(b"ObjStm") => objstms.push(num),
                Some(b"XRef") => {
                    if d.get(b"Encrypt").is_some() {
                        return Err(Error::new(ErrorKind::Encrypted));
                    }
                    root = d.get(b"Root").and_then(Obj::as_ref).or(root);
                    info = d.get(b"Info").and_then(Obj::as_ref).or(info);
                }
                _ => {}
            }
        }
    }
    let mut i = 0;
    while let Some(k) = find(&data[i..], b"trailer") {
        let at = i + k;
        i = at + 7;
        let mut p = Parser::new(data, at + 7, true);
        if let Ok(d) = p.dict() {
            if d.get(b"Encrypt").is_some() {
                return Err(Error::new(ErrorKind::Encrypted));
            }
            root = d.get(b"Root").and_then(Obj::as_ref).or(root);
            info = d.get(b"Info").and_then(Obj::as_ref).or(info);
        }
    }
    let root = root
        .filter(|r| objs.contains_key(&r.0))
        .or(catalog)
        .ok_or_else(|| {
            Error::new(ErrorKind::Damaged(
                "no catalog found while rebuilding the xref".into(),
            ))
        })?;
    let mut entries: HashMap<u32, Entry> = objs
        .iter()
        .map(|(&n, &(g, off))| (n, Entry::Offset(off as u64, g)))
        .collect();
    // Objects in object streams (only where no direct definition exists).
    let src: &[u8] = data;
    for stm in objstms {
        let Some(&(_, off)) = objs.get(&stm) else {
            continue;
        };
        let Ok(f) = fetch_for_repair(src, off as u64) else {
            continue;
        };
        let Some(d) = f.obj.as_dict() else { continue };
        let Ok(content) = decode_stream(d, f.stream.as_deref().unwrap_or(&[])) else {
            continue;
        };
        let n = d
            .get(b"N")
            .and_then(Obj::as_int)
            .unwrap_or(0)
            .clamp(0, 1 << 20);
        let first = d
            .get(b"First")
            .and_then(Obj::as_int)
            .unwrap_or(0)
            .clamp(0, content.len() as i64) as usize;
        let mut p = Parser::new(&content[..first], 0, true);
        for idx in 0..n {
            let Ok(num) = p.uint() else { break };
            if p.uint().is_err() {
                break;
            }
            let num = u32::try_from(num).unwrap_or(u32::MAX);
            entries
                .entry(num)
                .or_insert(Entry::InStream(stm, idx as u32));
        }
    }
    let max = entries.keys().copied().max().unwrap_or(0);
    let size = max + 1;
    let mut out = data.to_vec();
    if !matches!(out.last(), Some(b'\n' | b'\r')) {
        out.push(b'\n');
    }
    let xref_pos = out.len() as u64;
    let mut trailer = format!("/Size {} /Root {} {} R", size + 1, root.0, root.1);
    if let Some(i) = info.filter(|i| entries.contains_key(&i.0)) {
        trailer.push_str(&format!(" /Info {} {} R", i.0, i.1));
    }
    // Always an xref stream: it can express objects in object streams. Its own number is
    // `size`.
    let w2 = bytes_needed(xref_pos.max(u64::from(max)));
    let mut rows = Vec::new();
    for n in 0..=size {
        let (t, f2, f3): (u8, u64, u64) = match entries.get(&n) {
            _ if n == size => (1, xref_pos, 0),
            Some(Entry::Offset(o, g)) => (1, *o, u64::from(*g)),
            Some(Entry::InStream(s, i)) => (2, u64::from(*s), u64::from(*i)),
            _ => (0, 0, if n == 0 { 65535 } else { 0 }),
        };
        rows.push(t);
        rows.extend_from_slice(&f2.to_be_bytes()[8 - w2..]);
        rows.extend_from_slice(&(f3.min(65535) as u16).to_be_bytes());
    }
    out.extend_from_slice(
        format!(
            "{size} 0 obj\n<< /Type /XRef {trailer} /W [1 {w2} 2] /Length {} >>\nstream\n",
            rows.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&rows);
    out.extend_from_slice(
        format!("\nendstream\nendobj\nstartxref\n{xref_pos}\n%%EOF\n").as_bytes(),
    );
    Ok(out)
}

fn fetch_for_repair(src: &[u8], off: u64) -> Result<Fetched, Error> {
    let mut p = Parser::new(src, off as usize, true);
    let id = p.obj_header().map_err(|_| damaged("bad object", off))?;
    let obj = p.object().map_err(|_| damaged("bad object", off))?;
    let ds = p
        .stream_start()
        .map_err(|_| damaged("bad stream", off))?
        .ok_or_else(|| damaged("not a stream", off))?;
    let d = obj.as_dict().ok_or_else(|| damaged("not a stream", off))?;
    let len = d
        .get(b"Length")
        .and_then(Obj::as_int)
        .filter(|l| *l >= 0 && ds + (*l as usize) <= src.len());
    let end = match len {
        Some(l)
            if src[ds + l as usize..]
                .trim_ascii_start()
                .starts_with(b"endstream") =>
        {
            ds + l as usize
        }
        _ => find(&src[ds..], b"endstream")
            .map(|e| ds + e)
            .ok_or_else(|| damaged("stream without endstream", off))?,
    };
    Ok(Fetched {
        id,
        obj: obj.clone(),
        raw: Vec::new(),
        stream: Some(src[ds..end].to_vec()),
    })
}

/// A full rewrite with lopdf: loads `data`, lets `edit` turn the old XMP packet into the new
/// one and name the Info entries, and saves the whole document (compact, new xref, no
/// `/Prev`; signatures do not survive this).
///
/// # Errors
/// [`ErrorKind::Damaged`] when lopdf cannot load the file, [`ErrorKind::Encrypted`], and what
/// `edit` returns.
pub fn rewrite_document(
    data: &[u8],
    edit: impl FnOnce(Option<Vec<u8>>) -> Result<(Vec<u8>, Vec<(String, String)>), Error>,
) -> Result<Vec<u8>, Error> {
    use lopdf::{Dictionary as LD, Object as LO, Stream as LS};
    let mut doc = lopdf::Document::load_mem(data)
        .map_err(|e| damaged(format!("lopdf cannot load it: {e}"), 0))?;
    if doc.trailer.get(b"Encrypt").is_ok() {
        return Err(Error::new(ErrorKind::Encrypted));
    }
    let root = doc
        .trailer
        .get(b"Root")
        .and_then(LO::as_reference)
        .map_err(|_| damaged("no /Root", 0))?;
    let meta_id = doc
        .get_dictionary(root)
        .ok()
        .and_then(|c| c.get(b"Metadata").ok())
        .and_then(|m| m.as_reference().ok());
    let old = meta_id
        .and_then(|id| doc.get_object(id).ok())
        .and_then(|o| o.as_stream().ok())
        .map(|s| {
            s.decompressed_content()
                .unwrap_or_else(|_| s.content.clone())
        });
    let (packet, entries) = edit(old)?;
    let mut md = LD::new();
    md.set("Type", LO::Name(b"Metadata".to_vec()));
    md.set("Subtype", LO::Name(b"XML".to_vec()));
    let stream = LO::Stream(LS::new(md, packet).with_compression(false));
    let meta_id = match meta_id {
        Some(id) => {
            doc.objects.insert(id, stream);
            id
        }
        None => doc.add_object(stream),
    };
    doc.get_dictionary_mut(root)
        .map_err(|_| damaged("the catalog is missing", 0))?
        .set("Metadata", LO::Reference(meta_id));
    let info_id = match doc.trailer.get(b"Info") {
        Ok(LO::Reference(id)) if doc.get_dictionary(*id).is_ok() => *id,
        Ok(LO::Dictionary(d)) => {
            let d = d.clone();
            doc.add_object(LO::Dictionary(d))
        }
        _ => doc.add_object(LO::Dictionary(LD::new())),
    };
    if let Ok(d) = doc.get_dictionary_mut(info_id) {
        for (k, _) in &entries {
            d.remove(k.as_bytes());
        }
        d.remove(b"PithNumber");
        d.remove(b"PithURL");
        for (k, v) in &entries {
            d.set(
                k.as_bytes().to_vec(),
                LO::String(v.as_bytes().to_vec(), lopdf::StringFormat::Literal),
            );
        }
    }
    doc.trailer.set("Info", LO::Reference(info_id));
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| Error::new(ErrorKind::Io).with_source(io::Error::other(e.to_string())))?;
    Ok(out)
}
