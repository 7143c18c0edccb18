//! Stream filters (ISO 32000-2 §7.4): decoding the data of the streams pith reads (xref
//! streams, object streams, XMP packets, page contents) as a stream of bytes, never whole.
//!
//! [`Decoder`] chains one streaming reader per filter (Flate through flate2, LZW through
//! weezl, ASCIIHex, ASCII85, RunLength and the PNG/TIFF predictors here) over the encoded
//! bytes, so a caller that scans (the q/Q balance of page contents, an object stream up to the
//! object it wants, an xref stream up to its rows) holds one buffer of each filter, whatever
//! the stream inflates to (lopdf 0.36 decoded with `read_to_end`, so a 20 MB bomb
//! cost 20 GB before any check). [`decode`] collects the output up to a bound and stops there,
//! reading at most one byte past it: nothing is allocated beyond the bound.
//!
//! A leaf: it knows the object model of [`super::syntax`] and nothing of the
//! reader or the document; its errors are its own [`FilterError`], which the reader maps to
//! the `pdf` error with the object's identity. Decoding only: pith writes its streams
//! unfiltered.

use std::io::{self, Read};

use crate::budget::{Limits, Resource};
use crate::syntax::{Dict, Obj};

mod ascii;
mod lzw;
mod predictor;
mod run_length;

use ascii::{Ascii85, AsciiHex};
use lzw::Lzw;
use predictor::{predicted, predictor_held};
use run_length::RunLength;

/// The largest decoded stream read whole where the whole is needed and no smaller bound is
/// documented (an xref stream's rows, an object stream's prefix up to an object).
pub const MAX_DECODED: u64 = 256 << 20;

/// The largest XMP packet (or other stream needed whole to be parsed and rewritten) that pith
/// holds in memory: 64 MiB, far beyond any real packet (a few KB to a few hundred KB).
pub const MAX_WHOLE: u64 = 64 << 20;

/// Longest predictor row accepted (`/Colors` × `/BitsPerComponent` × `/Columns`): xref and
/// object streams use rows of a few bytes; a row of over 1 MiB is a hostile parameter set.
const MAX_ROW: usize = 1 << 20;

/// What one Flate stage holds: flate2's 32 KiB input buffer, miniz_oxide's inflate state
/// (its 32 KiB window and tables) and the 32 KiB the stage decodes into, rounded up.
const FLATE_HELD: u64 = 112 << 10;
/// What one LZW stage holds: its 8 KiB input and output buffers and weezl's code table,
/// rounded up.
const LZW_HELD: u64 = 56 << 10;
/// What a byte-wise stage (ASCIIHex, ASCII85, RunLength) holds: its 8 KiB buffer and what
/// one step decodes.
const BYTES_HELD: u64 = 9 << 10;

/// Why a stream could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FilterError {
    /// Occurs when `/Filter` is neither a name nor an array of names.
    #[error("bad /Filter")]
    BadFilter,
    /// Occurs when a filter is not one pith decodes (image filters such as `/DCTDecode`,
    /// `/JBIG2Decode`), or a predictor it does not undo.
    #[error("unsupported filter /{0}")]
    Unsupported(String),
    /// Occurs when the encoded data is invalid for its filter (the filter's name and why).
    #[error("cannot decode a {0} stream: {1}")]
    Corrupt(String, String),
    /// Occurs when the decoded data exceeds the bound the caller set (the bound, in bytes).
    #[error("the stream decodes to more than {0} bytes")]
    TooLarge(u64),
    /// Occurs when the chain goes over a limit of one stream ([`Limits::filters`],
    /// [`Limits::decoder_bytes`]) before anything of it is built: the resource and its limit.
    #[error("its decoders go over the limit `{0}` ({1})")]
    OverLimit(Resource, u64),
}

/// The `/Filter` chain with abbreviated names (§8.9.7, Table 92) spelled out, refused when it
/// names more than `max` filters (counted before anything is collected).
fn filters(d: &Dict, max: u64) -> Result<Vec<Vec<u8>>, FilterError> {
    let names: Vec<Vec<u8>> = match d.get(b"Filter") {
        None | Some(Obj::Null) => vec![],
        Some(Obj::Name(n)) => vec![n.clone()],
        Some(Obj::Array(a)) if a.len() as u64 > max => {
            return Err(FilterError::OverLimit(Resource::Filters, max))
        }
        Some(Obj::Array(a)) => a
            .iter()
            .filter_map(|o| o.as_name().map(<[u8]>::to_vec))
            .collect(),
        Some(_) => return Err(FilterError::BadFilter),
    };
    Ok(names
        .into_iter()
        .map(|n| match n.as_slice() {
            b"Fl" => b"FlateDecode".to_vec(),
            b"LZW" => b"LZWDecode".to_vec(),
            b"A85" => b"ASCII85Decode".to_vec(),
            b"AHx" => b"ASCIIHexDecode".to_vec(),
            b"RL" => b"RunLengthDecode".to_vec(),
            _ => n,
        })
        .collect())
}

/// The decoded bytes of a stream, read through its filter chain as they are asked for.
///
/// Reads fail with an [`io::Error`] whose inner error is a [`FilterError`] (see
/// [`FilterError::from_io`]); a Flate or LZW stream cut short ends where its data ends, as in
/// other readers.
pub struct Decoder<'a> {
    inner: Box<dyn Read + 'a>,
}

impl<'a> Decoder<'a> {
    /// A decoder of the stream with dictionary `d` whose encoded data `src` yields, within
    /// the limits of one stream: at most [`Limits::filters`] filters, and what they hold
    /// (each filter's buffers, a predictor's rows) at most [`Limits::decoder_bytes`], both
    /// counted from the dictionary before any decoder is built. The chain's depth is so
    /// bounded too (each filter reads through the one before). A `/Crypt` filter (§7.4.10)
    /// is skipped: the security handler undid it before.
    ///
    /// # Errors
    /// [`FilterError::BadFilter`] and [`FilterError::Unsupported`] for a chain it cannot
    /// decode, [`FilterError::OverLimit`] for one over the limits.
    pub fn new(d: &Dict, src: impl Read + 'a, limits: &Limits) -> Result<Self, FilterError> {
        let names = filters(d, limits.filters)?;
        let parms: Vec<Option<&Dict>> = match d.get(b"DecodeParms").or_else(|| d.get(b"DP")) {
            Some(Obj::Dict(p)) => vec![Some(p)],
            Some(Obj::Array(a)) => a.iter().take(names.len()).map(Obj::as_dict).collect(),
            _ => vec![],
        };
        // What the whole chain will hold, allowed before the first buffer is allocated.
        let mut held = 0u64;
        for (i, name) in names.iter().enumerate() {
            let parm = parms.get(i).copied().flatten();
            held = held.saturating_add(match name.as_slice() {
                b"FlateDecode" => FLATE_HELD.saturating_add(predictor_held(parm)?),
                b"LZWDecode" => LZW_HELD.saturating_add(predictor_held(parm)?),
                b"Crypt" => 0,
                _ => BYTES_HELD,
            });
        }
        if held > limits.decoder_bytes {
            return Err(FilterError::OverLimit(
                Resource::DecoderBytes,
                limits.decoder_bytes,
            ));
        }
        let mut cur: Box<dyn Read + 'a> = Box::new(src);
        for (i, name) in names.iter().enumerate() {
            let parm = parms.get(i).copied().flatten();
            cur = match name.as_slice() {
                b"Crypt" => cur,
                b"ASCIIHexDecode" => Box::new(AsciiHex::new(cur)),
                b"ASCII85Decode" => Box::new(Ascii85::new(cur)),
                b"RunLengthDecode" => Box::new(RunLength::new(cur)),
                b"FlateDecode" => predicted(
                    Box::new(Tolerant::new(flate2::read::ZlibDecoder::new(cur))),
                    parm,
                )?,
                b"LZWDecode" => {
                    let early = parm
                        .and_then(|p| p.get(b"EarlyChange"))
                        .and_then(Obj::as_int)
                        != Some(0);
                    predicted(Box::new(Lzw::new(cur, early)), parm)?
                }
                other => {
                    return Err(FilterError::Unsupported(
                        String::from_utf8_lossy(other).into_owned(),
                    ))
                }
            };
        }
        Ok(Decoder { inner: cur })
    }
}

impl Read for Decoder<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}

impl FilterError {
    /// The filter error an [`io::Error`] from a [`Decoder`] carries (a failed read of the
    /// source becomes [`FilterError::Corrupt`]).
    pub fn from_io(e: io::Error) -> FilterError {
        match e.get_ref().and_then(|i| i.downcast_ref::<FilterError>()) {
            Some(f) => f.clone(),
            None => FilterError::Corrupt("filtered".into(), e.to_string()),
        }
    }

    fn into_io(self) -> io::Error {
        io::Error::other(self)
    }
}

/// Decodes `data` through the filter chain of `d` (within `limits`, as [`Decoder::new`]) and
/// returns the whole output, refusing past `bound` bytes: it reads at most one byte more than
/// `bound`, so memory never exceeds it.
///
/// # Errors
/// [`FilterError::TooLarge`] past the bound, and the errors of [`Decoder`].
pub fn decode(d: &Dict, data: &[u8], bound: u64, limits: &Limits) -> Result<Vec<u8>, FilterError> {
    if filters(d, limits.filters)?.iter().all(|n| n == b"Crypt") {
        if data.len() as u64 > bound {
            return Err(FilterError::TooLarge(bound));
        }
        return Ok(data.to_vec());
    }
    read_bounded(Decoder::new(d, data, limits)?, bound)
}

/// Reads everything `r` yields, refusing past `bound` bytes (reading one byte past it at most).
///
/// # Errors
/// [`FilterError::TooLarge`] past the bound, and the errors `r` carries.
pub fn read_bounded(r: impl Read, bound: u64) -> Result<Vec<u8>, FilterError> {
    let mut out = Vec::new();
    let n = r
        .take(bound.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(FilterError::from_io)?;
    if n as u64 > bound {
        return Err(FilterError::TooLarge(bound));
    }
    Ok(out)
}

/// Reads exactly `want` bytes from `r`, or fewer when it ends first (never more).
///
/// # Errors
/// The errors `r` carries.
pub fn read_prefix(r: impl Read, want: u64) -> Result<Vec<u8>, FilterError> {
    let mut out = Vec::new();
    r.take(want)
        .read_to_end(&mut out)
        .map_err(FilterError::from_io)?;
    Ok(out)
}

/// Ends a Flate stream at its first error with the data decoded so far, as lopdf, pdf.js and
/// poppler do for streams cut short or with a bad checksum. The decoder is read into a buffer
/// of its own, a fixed size at a time, so that where a broken stream ends does not depend on
/// how much its reader asks for at once (flate2 drops what one read decoded before an error).
struct Tolerant<R> {
    inner: R,
    /// Allocated at the first read that needs it (a reader of whole buffers never does).
    out: Vec<u8>,
    pos: usize,
    len: usize,
    done: bool,
}

/// The buffer [`Tolerant`] reads its decoder into.
const TOLERANT_BUF: usize = 32 << 10;

impl<R: Read> Tolerant<R> {
    fn new(inner: R) -> Self {
        Tolerant {
            inner,
            out: Vec::new(),
            pos: 0,
            len: 0,
            done: false,
        }
    }
}

impl<R: Read> Read for Tolerant<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.len && !self.done {
            // A reader asking for a whole buffer or more is given one read of the decoder,
            // made into its own memory (what one read decodes depends only on the space
            // given, so the stream ends where it would through the buffer), a copy less.
            if buf.len() >= TOLERANT_BUF {
                let n = loop {
                    match self.inner.read(&mut buf[..TOLERANT_BUF]) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => break 0,
                    }
                };
                self.done = n == 0;
                return Ok(n);
            }
            self.pos = 0;
            self.out.resize(TOLERANT_BUF, 0);
            self.len = loop {
                match self.inner.read(&mut self.out[..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break 0,
                }
            };
            self.done = self.len == 0;
        }
        let n = buf.len().min(self.len - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Byte-at-a-time access to a reader through a small buffer.
struct Bytes<R> {
    src: R,
    buf: Box<[u8; 8192]>,
    pos: usize,
    len: usize,
}

impl<R: Read> Bytes<R> {
    fn new(src: R) -> Self {
        Bytes {
            src,
            buf: Box::new([0; 8192]),
            pos: 0,
            len: 0,
        }
    }

    fn next(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.len {
            self.len = loop {
                match self.src.read(&mut self.buf[..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            self.pos = 0;
            if self.len == 0 {
                return Ok(None);
            }
        }
        self.pos += 1;
        Ok(Some(self.buf[self.pos - 1]))
    }
}

/// Output a decoder has produced but not handed out yet.
#[derive(Default)]
struct Pending {
    data: Vec<u8>,
    at: usize,
}

impl Pending {
    fn drain(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len().min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        n
    }
    fn is_empty(&self) -> bool {
        self.at == self.data.len()
    }
    fn reset(&mut self) {
        self.data.clear();
        self.at = 0;
    }
}

#[cfg(test)]
mod tests;
