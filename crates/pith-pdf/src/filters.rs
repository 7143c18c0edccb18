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
    out: Box<[u8; TOLERANT_BUF]>,
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
            out: Box::new([0; TOLERANT_BUF]),
            pos: 0,
            len: 0,
            done: false,
        }
    }
}

impl<R: Read> Read for Tolerant<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.len && !self.done {
            self.pos = 0;
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

/// `/ASCIIHexDecode` (§7.4.2): pairs of hexadecimal digits, white space ignored, `>` ends
/// the data, an odd last digit is followed by 0.
struct AsciiHex<R> {
    src: Bytes<R>,
    done: bool,
}

impl<R: Read> AsciiHex<R> {
    fn new(src: R) -> Self {
        AsciiHex {
            src: Bytes::new(src),
            done: false,
        }
    }
}

impl<R: Read> Read for AsciiHex<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        let mut hi: Option<u8> = None;
        while n < buf.len() && !self.done {
            let Some(b) = self.src.next()? else {
                self.done = true;
                break;
            };
            let v = match b {
                b'>' => {
                    self.done = true;
                    break;
                }
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => continue,
            };
            match hi.take() {
                Some(h) => {
                    buf[n] = h << 4 | v;
                    n += 1;
                }
                None => hi = Some(v),
            }
        }
        // A digit read when the buffer filled up cannot happen: a pair completes before the
        // check; an odd last digit at the end of the data stands for its high half.
        if let Some(h) = hi {
            buf[n] = h << 4;
            n += 1;
        }
        Ok(n)
    }
}

/// `/ASCII85Decode` (§7.4.3): groups of five characters `!`..`u` for four bytes, `z` for four
/// zero bytes, white space ignored, `~>` ends the data; a final partial group of k characters
/// gives k−1 bytes.
struct Ascii85<R> {
    src: Bytes<R>,
    out: Pending,
    done: bool,
}

impl<R: Read> Ascii85<R> {
    fn new(src: R) -> Self {
        Ascii85 {
            src: Bytes::new(src),
            out: Pending::default(),
            done: false,
        }
    }

    /// Decodes the next group into `out`; false at the end of the data.
    fn group(&mut self) -> io::Result<bool> {
        let bad = |m: &str| FilterError::Corrupt("ASCII85Decode".into(), m.into()).into_io();
        let mut acc: u32 = 0;
        let mut count = 0;
        while count < 5 {
            let Some(c) = self.src.next()? else { break };
            match c {
                b'z' if count == 0 => {
                    self.out.data.extend_from_slice(&[0; 4]);
                    return Ok(true);
                }
                b'z' => return Err(bad("z inside a group")),
                b'~' => break,
                b'!'..=b'u' => {
                    acc = acc
                        .checked_mul(85)
                        .and_then(|a| a.checked_add(u32::from(c - b'!')))
                        .ok_or_else(|| bad("a group exceeds four bytes"))?;
                    count += 1;
                }
                c if c.is_ascii_whitespace() || c == 0 => {}
                _ => return Err(bad("a character outside the alphabet")),
            }
        }
        if count == 5 {
            self.out.data.extend_from_slice(&acc.to_be_bytes());
            return Ok(true);
        }
        // The end: a partial group is padded with `u` (84).
        if count > 1 {
            for _ in count..5 {
                acc = acc
                    .checked_mul(85)
                    .and_then(|a| a.checked_add(84))
                    .ok_or_else(|| bad("a group exceeds four bytes"))?;
            }
            self.out
                .data
                .extend_from_slice(&acc.to_be_bytes()[..count - 1]);
        }
        Ok(false)
    }
}

impl<R: Read> Read for Ascii85<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.out.reset();
            if !self.group()? {
                self.done = true;
            }
        }
        Ok(self.out.drain(buf))
    }
}

/// `/RunLengthDecode` (§7.4.5): a length byte n, then n+1 literal bytes (n < 128) or one byte
/// repeated 257−n times (n > 128); 128 ends the data.
struct RunLength<R> {
    src: Bytes<R>,
    out: Pending,
    done: bool,
}

impl<R: Read> RunLength<R> {
    fn new(src: R) -> Self {
        RunLength {
            src: Bytes::new(src),
            out: Pending::default(),
            done: false,
        }
    }
}

impl<R: Read> Read for RunLength<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.out.reset();
            match self.src.next()? {
                None | Some(128) => self.done = true,
                Some(n) if n < 128 => {
                    for _ in 0..=n {
                        match self.src.next()? {
                            Some(b) => self.out.data.push(b),
                            None => {
                                self.done = true;
                                break;
                            }
                        }
                    }
                }
                Some(n) => match self.src.next()? {
                    Some(b) => self
                        .out
                        .data
                        .extend(std::iter::repeat_n(b, 257 - usize::from(n))),
                    None => self.done = true,
                },
            }
        }
        Ok(self.out.drain(buf))
    }
}

/// `/LZWDecode` (§7.4.4) through weezl: MSB-first codes from 9 bits, the code width growing
/// one code early unless `/EarlyChange 0`. A stream that breaks off ends there.
struct Lzw<R> {
    src: R,
    dec: weezl::decode::Decoder,
    inbuf: Box<[u8; 8192]>,
    pos: usize,
    len: usize,
    eof: bool,
    done: bool,
    /// What was decoded and not read yet: `out[opos..olen]`.
    out: Vec<u8>,
    opos: usize,
    olen: usize,
}

impl<R: Read> Lzw<R> {
    fn new(src: R, early_change: bool) -> Self {
        use weezl::{decode::Decoder, BitOrder};
        let dec = if early_change {
            Decoder::with_tiff_size_switch(BitOrder::Msb, 8)
        } else {
            Decoder::new(BitOrder::Msb, 8)
        };
        Lzw {
            src,
            dec,
            inbuf: Box::new([0; 8192]),
            pos: 0,
            len: 0,
            eof: false,
            done: false,
            out: vec![0; 8192],
            opos: 0,
            olen: 0,
        }
    }
}

impl<R: Read> Lzw<R> {
    /// Decodes into `buf`; 0 at the end.
    fn decode_into(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use weezl::LzwStatus;
        while !self.done && !buf.is_empty() {
            if self.pos == self.len && !self.eof {
                self.len = self.src.read(&mut self.inbuf[..])?;
                self.pos = 0;
                self.eof = self.len == 0;
            }
            let r = self.dec.decode_bytes(&self.inbuf[self.pos..self.len], buf);
            self.pos += r.consumed_in;
            match r.status {
                Ok(LzwStatus::Done) | Err(_) => self.done = true,
                Ok(LzwStatus::NoProgress) if self.eof => self.done = true,
                Ok(_) if self.eof && r.consumed_out == 0 && r.consumed_in == 0 => self.done = true,
                Ok(_) => {}
            }
            if r.consumed_out > 0 {
                return Ok(r.consumed_out);
            }
        }
        Ok(0)
    }
}

impl<R: Read> Read for Lzw<R> {
    /// Decodes a fixed 8 KiB at a time into a buffer of its own, so that where a broken
    /// stream ends does not depend on how much its reader asks for at once.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.opos == self.olen {
            let mut out = std::mem::take(&mut self.out);
            let n = self.decode_into(&mut out[..]);
            self.out = out;
            self.olen = n?;
            self.opos = 0;
        }
        let n = buf.len().min(self.olen - self.opos);
        buf[..n].copy_from_slice(&self.out[self.opos..self.opos + n]);
        self.opos += n;
        Ok(n)
    }
}

/// A predictor's parameters (§7.4.4.4): whether it is PNG's, bytes per pixel, bytes per row.
struct Predicting {
    png: bool,
    bpp: usize,
    row: usize,
}

/// The predictor `parm` asks for (`None`: none), checked: rows of at most [`MAX_ROW`] bytes,
/// a TIFF predictor of 8-bit components only.
fn predicting(parm: Option<&Dict>) -> Result<Option<Predicting>, FilterError> {
    let Some(p) = parm else { return Ok(None) };
    let get = |k: &[u8], d: i64| p.get(k).and_then(Obj::as_int).unwrap_or(d);
    let predictor = get(b"Predictor", 1);
    if predictor < 2 {
        return Ok(None);
    }
    let colors = get(b"Colors", 1).clamp(1, 64) as usize;
    let bpc = get(b"BitsPerComponent", 8).clamp(1, 16) as usize;
    let columns = get(b"Columns", 1).clamp(1, 1 << 24) as usize;
    let bpp = (colors * bpc).div_ceil(8).max(1);
    let row = (colors * bpc * columns).div_ceil(8);
    if row > MAX_ROW {
        return Err(FilterError::Unsupported(format!(
            "predictor rows of {row} bytes"
        )));
    }
    let png = predictor >= 10;
    if !png && (predictor != 2 || bpc != 8) {
        return Err(FilterError::Unsupported(format!(
            "TIFF predictor {predictor} with {bpc} bits per component"
        )));
    }
    Ok(Some(Predicting { png, bpp, row }))
}

/// What the predictor of `parm` holds: its two rows and its input buffer.
fn predictor_held(parm: Option<&Dict>) -> Result<u64, FilterError> {
    Ok(predicting(parm)?.map_or(0, |p| 2 * p.row as u64 + BYTES_HELD))
}

/// The reader undoing the predictor of `parm` (§7.4.4.4) over `src`, or `src` itself.
fn predicted<'a>(
    src: Box<dyn Read + 'a>,
    parm: Option<&Dict>,
) -> Result<Box<dyn Read + 'a>, FilterError> {
    let Some(Predicting { png, bpp, row }) = predicting(parm)? else {
        return Ok(src);
    };
    Ok(Box::new(Predictor {
        src: Bytes::new(src),
        png,
        bpp,
        prev: vec![0; row],
        cur: vec![0; row],
        out: Pending::default(),
        done: false,
    }))
}

/// Undoes a PNG (10–15, a filter-type byte per row) or TIFF 2 predictor row by row.
struct Predictor<R> {
    src: Bytes<R>,
    png: bool,
    bpp: usize,
    prev: Vec<u8>,
    cur: Vec<u8>,
    out: Pending,
    done: bool,
}

impl<R: Read> Predictor<R> {
    /// Decodes the next row into `out`; a last partial row is decoded as if padded with zeros
    /// and yields its own length.
    fn row(&mut self) -> io::Result<()> {
        let ft = if self.png {
            match self.src.next()? {
                Some(t) => t,
                None => {
                    self.done = true;
                    return Ok(());
                }
            }
        } else {
            0
        };
        let mut got = 0;
        while got < self.cur.len() {
            match self.src.next()? {
                Some(b) => {
                    self.cur[got] = b;
                    got += 1;
                }
                None => break,
            }
        }
        if got < self.cur.len() {
            self.done = true;
            if got == 0 {
                return Ok(());
            }
            self.cur[got..].fill(0);
        }
        let bpp = self.bpp;
        if !self.png {
            for i in bpp..self.cur.len() {
                self.cur[i] = self.cur[i].wrapping_add(self.cur[i - bpp]);
            }
        } else {
            let (cur, prev) = (&mut self.cur, &self.prev);
            for i in 0..cur.len() {
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
                    _ => {
                        return Err(FilterError::Corrupt(
                            "predicted".into(),
                            "bad PNG predictor row type".into(),
                        )
                        .into_io())
                    }
                };
            }
        }
        self.out.data.extend_from_slice(&self.cur[..got]);
        std::mem::swap(&mut self.prev, &mut self.cur);
        Ok(())
    }
}

impl<R: Read> Read for Predictor<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.out.reset();
            self.row()?;
        }
        Ok(self.out.drain(buf))
    }
}

#[cfg(test)]
mod tests;
