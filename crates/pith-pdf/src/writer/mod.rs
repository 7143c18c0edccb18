//! Writing an incremental update (ISO 32000-2 §7.5.6): new and replaced objects, then an xref
//! section of the same kind as the file's newest one, with a trailer whose `/Prev` points at
//! the previous section. The original bytes are never touched: the result is an [`Appendix`]
//! to write after them (see [`super::commit`] for how it reaches the disk).
//!
//! One [`Update`] serves every feature that changes a file: pith's metadata today, a page stamp
//! tomorrow. New objects get numbers from [`Update::alloc`]; an existing object is
//! replaced by writing it again under its own number (readers take the newest definition);
//! both go through [`Update::object`] ([`Update::value`] for a value built by a typed writer:
//! [`font`], [`annotation`], [`structure`], all on the primitives of [`object`]). When the file has a
//! [`SecurityHandler`] the writers encrypt under each
//! object's identity.
//!
//! ```
//! use pith_pdf::writer::{object::{DictPatch, Value}, Update};
//! use pith_pdf::Pdf;
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/minimal.pdf"))?;
//! let pdf = Pdf::open(&bytes[..])?;
//! let mut up = Update::new(&pdf)?;
//! let id = up.alloc();
//! let mut d = DictPatch::new();
//! d.set("Title", Value::Text("A paper".into()));
//! up.dict(id, &d);
//! let root = pdf.trailer().get(b"Root").and_then(|o| o.as_ref()).unwrap();
//! let app = up.finish(&pith_pdf::writer::object::Trailer { root, info: Some(id), id: None, encrypt: None })?;
//! let mut out = bytes.clone();
//! out.extend_from_slice(&app.bytes);
//! assert_eq!(Pdf::open(&out[..])?.startxref(), app.offsets.startxref);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod annotation;
pub mod content;
pub mod font;
pub mod object;
pub mod structure;
pub mod xref;

use crate::reader::Entry;
use crate::reader::Rebuilt;
use crate::reader::{Pdf, ReadAt, XrefKind};
use crate::security::{SecurityHandler, StreamKind};
use crate::syntax::{Obj, Ref};
use crate::Error;
use object::{DictPatch, Trailer};

/// An incremental update being assembled: objects, then [`Update::finish`].
pub struct Update<'a> {
    base_len: u64,
    delta: u64,
    prev: u64,
    kind: XrefKind,
    size: u32,
    security: Option<&'a dyn SecurityHandler>,
    out: Vec<u8>,
    offsets: Vec<(Ref, u64)>,
    next_num: u32,
    complete: Option<&'a Rebuilt>,
}

/// A finished update: the bytes to append and the offsets the commit needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appendix {
    /// The bytes to write after the original file.
    pub bytes: Vec<u8>,
    /// Where they go and what they point at.
    pub offsets: Offsets,
}

/// The positions of an [`Appendix`], known to the writer, so the commit never re-parses the
/// bytes it was handed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offsets {
    /// Length of the original file (where `bytes` start).
    pub base_len: u64,
    /// The original `startxref` value (the update's `/Prev`), as written in the file.
    pub prev_startxref: u64,
    /// The new `startxref` value, as written in the file.
    pub startxref: u64,
    /// Index in `bytes` of the final `startxref` keyword: the tail `startxref`, the offset
    /// and `%%EOF` that commit the update.
    pub tail_start: usize,
}

impl<'a> Update<'a> {
    /// Starts an update to append to `pdf`.
    ///
    /// # Errors
    /// [`ErrorKind::Io`](super::ErrorKind::Io) when the last byte cannot be read.
    pub fn new<R: ReadAt>(pdf: &'a Pdf<R>) -> Result<Self, Error> {
        let mut last = [0u8; 1];
        pdf.read_last_byte(&mut last)?;
        let mut out = Vec::new();
        // The original file may end without an end-of-line after %%EOF.
        if !matches!(last[0], b'\n' | b'\r') {
            out.push(b'\n');
        }
        Ok(Update {
            base_len: pdf.len(),
            delta: pdf.delta(),
            prev: pdf.startxref(),
            kind: pdf.xref_kind(),
            size: pdf.size(),
            security: pdf.security(),
            out,
            offsets: Vec::new(),
            next_num: pdf.size(),
            complete: None,
        })
    }

    /// Turns this into the update of a repaired file (`--repair`): `pdf` was opened on the
    /// damaged bytes (`base_len` long, ending with `last`) followed by a stand-in section
    /// (a scan's section); the update goes right after the damaged bytes and its
    /// cross-reference section lists every object of `rebuilt` plus the new ones, without
    /// `/Prev` (a table when the file has no object streams and used tables, else a stream).
    pub fn complete(&mut self, rebuilt: &'a Rebuilt, base_len: u64, last: u8) {
        self.base_len = base_len;
        self.prev = rebuilt.startxref;
        self.out.clear();
        if !matches!(last, b'\n' | b'\r') {
            self.out.push(b'\n');
        }
        self.kind = if rebuilt.xref_streams || rebuilt.has_compressed() {
            XrefKind::Stream
        } else {
            XrefKind::Table
        };
        self.complete = Some(rebuilt);
    }

    /// The kind of cross-reference section [`Update::finish`] writes.
    pub fn xref_kind(&self) -> XrefKind {
        self.kind
    }

    /// Reserves a fresh object number (generation 0).
    pub fn alloc(&mut self) -> Ref {
        let n = self.next_num;
        self.next_num += 1;
        Ref::new(n, 0)
    }

    /// The offset the next byte will have, as written in xref entries.
    fn pos(&self) -> u64 {
        self.base_len + self.out.len() as u64 - self.delta
    }

    /// The security handler new strings and streams are encrypted with, if any.
    pub fn security(&self) -> Option<&'a dyn SecurityHandler> {
        self.security
    }

    /// Appends `N G obj <body> endobj` for a new object or a new version of an existing one.
    pub fn object(&mut self, id: Ref, body: &[u8]) {
        let pos = self.pos();
        self.offsets.push((id, pos));
        self.out
            .extend_from_slice(format!("{} {} obj\n", id.num, id.gen).as_bytes());
        self.out.extend_from_slice(body);
        self.out.extend_from_slice(b"\nendobj\n");
    }

    /// Appends object `id` with the value `o` (a dictionary from a typed writer), its strings
    /// encrypted for `id` in an encrypted file.
    pub fn value(&mut self, id: Ref, o: &Obj) {
        let body = object::to_vec(o, object::Strings::of(self.security, id));
        self.object(id, &body);
    }

    /// Appends a dictionary object written by `d`.
    pub fn dict(&mut self, id: Ref, d: &DictPatch<'_>) {
        let body = d.write(id, self.security);
        self.object(id, &body);
    }

    /// Appends the XMP metadata stream `packet` as object `id` (§14.3.2).
    pub fn metadata(&mut self, id: Ref, packet: &[u8]) {
        let body = object::metadata_stream(id, packet, self.security);
        self.object(id, &body);
    }

    /// Appends a stream object with dictionary `entries` (a dictionary value, without
    /// `/Length`) and data ([`object::stream`]).
    pub fn stream(&mut self, id: Ref, entries: &Obj, kind: StreamKind, data: &[u8]) {
        let body = object::stream(id, entries, kind, data, self.security);
        self.object(id, &body);
    }

    /// Writes the xref section (of the kind of the file's newest one) and the trailer.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`](super::ErrorKind::Unsupported) when an offset does not fit a
    /// 10-digit xref table entry.
    pub fn finish(mut self, trailer: &Trailer<'_>) -> Result<Appendix, Error> {
        let xref_pos = self.pos();
        let entries = trailer.entries();
        if let Some(rebuilt) = self.complete {
            let mut rows = rebuilt.entries.clone();
            if self.kind == XrefKind::Stream {
                let id = self.alloc();
                self.offsets.push((id, xref_pos));
            }
            for &(r, off) in &self.offsets {
                rows.insert(r.num, Entry::Offset(off, r.gen));
            }
            let size = self
                .next_num
                .max(rows.keys().next_back().map_or(1, |m| m + 1));
            if self.kind == XrefKind::Stream {
                xref::full_stream(&mut self.out, size, &rows, &entries, xref_pos);
            } else {
                xref::full_table(&mut self.out, size, &rows, &entries, xref_pos)?;
            }
        } else {
            match self.kind {
                XrefKind::Table => {
                    let size = self.size.max(self.next_num);
                    self.offsets.sort();
                    xref::table(
                        &mut self.out,
                        &self.offsets,
                        size,
                        &entries,
                        self.prev,
                        xref_pos,
                    )?;
                }
                XrefKind::Stream => {
                    let id = self.alloc();
                    let size = self.size.max(self.next_num);
                    self.offsets.push((id, xref_pos));
                    self.offsets.sort();
                    xref::stream(
                        &mut self.out,
                        id,
                        &self.offsets,
                        size,
                        &entries,
                        self.prev,
                        xref_pos,
                    );
                }
            }
        }
        let tail_start = super::reader::rfind(&self.out, b"startxref")
            .expect("the xref writers end with startxref");
        Ok(Appendix {
            bytes: self.out,
            offsets: Offsets {
                base_len: self.base_len,
                prev_startxref: self.prev,
                startxref: xref_pos,
                tail_start,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::object::{DictPatch, Trailer, Value};
    use super::*;
    use crate::syntax::Obj;

    fn minimal() -> Vec<u8> {
        crate::testkit::fixture("minimal.pdf")
    }

    #[test]
    fn update_reads_back_through_the_reader() {
        let base = minimal();
        let pdf = Pdf::open(&base[..]).unwrap();
        let root = pdf.trailer().get(b"Root").and_then(Obj::as_ref).unwrap();
        let mut up = Update::new(&pdf).unwrap();
        let info = up.alloc();
        assert_eq!(info.num, pdf.size());
        let mut d = DictPatch::new();
        d.set("Title", Value::Text("Ünïcode".into()));
        up.dict(info, &d);
        let meta = up.alloc();
        up.metadata(meta, b"<x/>");
        let app = up
            .finish(&Trailer {
                root,
                info: Some(info),
                id: None,
                encrypt: None,
            })
            .unwrap();
        assert_eq!(app.offsets.base_len, base.len() as u64);
        assert_eq!(app.offsets.prev_startxref, pdf.startxref());
        assert!(app.bytes[app.offsets.tail_start..].starts_with(b"startxref\n"));
        let mut out = base.clone();
        out.extend_from_slice(&app.bytes);
        let again = Pdf::open(&out[..]).unwrap();
        assert_eq!(again.sections(), pdf.sections() + 1);
        assert_eq!(again.startxref(), app.offsets.startxref);
        let f = again.get(info.num).unwrap().unwrap();
        let title = f.obj.as_dict().unwrap().get(b"Title").cloned();
        assert_eq!(
            title.map(|t| match t {
                Obj::Str(s) => crate::syntax::decode_text(&s),
                _ => String::new(),
            }),
            Some("Ünïcode".to_string())
        );
        let m = again.get(meta.num).unwrap().unwrap();
        assert_eq!(again.decoded(&m, "metadata", 1 << 10).unwrap(), b"<x/>");
        assert_eq!(
            again.trailer().get(b"Info").and_then(Obj::as_ref),
            Some(info)
        );
    }
}
