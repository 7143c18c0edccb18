//! Opening bulk metadata: files or standard input (`-`), decompressed by their magic bytes (not
//! their names), and read line by line with a bound on the line length.
//!
//! Compressions recognised: gzip (also multi-member, as `pigz` and `cat a.gz b.gz` make), bzip2
//! (multi-stream), xz, zstd (multi-frame) and zip (the Kaggle distribution of the snapshot:
//! `arxiv.zip` holding `arxiv-metadata-oai-snapshot.json`, deflated). A zip is streamed from
//! its first local header, so it works from a pipe too; its first entry is read and its CRC-32
//! checked at the end, so a truncated or damaged download is an error, never a short success.
//! Every decoder is pure Rust and streams: memory does not grow with the input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::stream::read_full;
pub use crate::stream::{read_line, LineRead};

/// Buffer size of the readers opened here.
const BUF: usize = 1 << 18;

/// A compressed (or plain) byte stream, recognised by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// No known magic: read as is.
    None,
    /// `1f 8b`.
    Gzip,
    /// `BZh`.
    Bzip2,
    /// `fd 37 7a 58 5a 00`.
    Xz,
    /// `28 b5 2f fd`.
    Zstd,
    /// `PK 03 04`.
    Zip,
}

impl Compression {
    /// Recognises the compression from the first bytes of a stream (up to 6 needed).
    ///
    /// # Examples
    /// ```
    /// use pith::decompress::Compression;
    /// assert_eq!(Compression::sniff(b"\x1f\x8b\x08"), Compression::Gzip);
    /// assert_eq!(Compression::sniff(b"{\"id\":"), Compression::None);
    /// ```
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Compression::Xz
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else if head.starts_with(b"PK\x03\x04") {
            Compression::Zip
        } else {
            Compression::None
        }
    }

    /// Lower-case name (`gzip`, `zip`…; `none`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
            Compression::Zip => "zip",
        }
    }
}

/// A readable, sendable byte stream.
pub type Stream = Box<dyn BufRead + Send>;

/// Opens `path` (`-` is standard input) and wraps it in the decoder its magic bytes call for.
///
/// # Errors
/// The I/O error of opening or of reading the first bytes, or an unsupported zip entry.
pub fn open(path: &Path) -> io::Result<(Compression, Stream)> {
    let raw: Box<dyn Read + Send> = if crate::output::is_stdio(path) {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(path)?)
    };
    decompress(raw)
}

/// Wraps a raw stream in the decoder its magic bytes call for.
///
/// # Errors
/// The I/O error of reading the first bytes, or an unsupported zip entry.
pub fn decompress(mut raw: Box<dyn Read + Send>) -> io::Result<(Compression, Stream)> {
    let mut b = [0u8; 6];
    let n = read_full(&mut raw, &mut b)?;
    let head = b[..n].to_vec();
    let kind = Compression::sniff(&head);
    let joined = BufReader::with_capacity(BUF, io::Cursor::new(head).chain(raw));
    let stream: Stream = match kind {
        Compression::None => Box::new(joined),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUF,
            flate2::bufread::MultiGzDecoder::new(joined),
        )),
        Compression::Bzip2 => Box::new(BufReader::with_capacity(
            BUF,
            bzip2::bufread::MultiBzDecoder::new(joined),
        )),
        Compression::Xz => Box::new(BufReader::with_capacity(
            BUF,
            lzma_rust2::XzReader::new(joined, true),
        )),
        Compression::Zstd => Box::new(BufReader::with_capacity(BUF, ZstdFrames::new(joined))),
        Compression::Zip => Box::new(BufReader::with_capacity(BUF, ZipEntry::new(joined)?)),
    };
    Ok((kind, stream))
}

type ZstdDecoder<R> = ruzstd::decoding::StreamingDecoder<R, ruzstd::decoding::FrameDecoder>;

/// zstd frames one after the other (`zstd -c a b`, `pzstd` output) decoded as one stream.
struct ZstdFrames<R: BufRead> {
    src: Option<R>,
    dec: Option<ZstdDecoder<R>>,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(src: R) -> Self {
        ZstdFrames {
            src: Some(src),
            dec: None,
        }
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(dec) = &mut self.dec {
                let n = dec.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.src = self.dec.take().map(ZstdDecoder::into_inner);
            }
            let Some(mut src) = self.src.take() else {
                return Ok(0);
            };
            if src.fill_buf()?.is_empty() {
                return Ok(0);
            }
            let dec = ZstdDecoder::new(src)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}")))?;
            self.dec = Some(dec);
        }
    }
}

/// The first entry of a zip archive, streamed from its local header.
struct ZipEntry<R: BufRead> {
    data: ZipData<R>,
    crc: flate2::Crc,
    /// CRC-32 from the local header; `None` when it follows the data (flag bit 3).
    header_crc: Option<u32>,
    checked: bool,
}

enum ZipData<R: BufRead> {
    Stored(io::Take<R>),
    Deflated(flate2::bufread::DeflateDecoder<R>),
}

fn le16(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

impl<R: BufRead> ZipEntry<R> {
    fn new(mut r: R) -> io::Result<Self> {
        let mut h = [0u8; 30];
        r.read_exact(&mut h)
            .map_err(|_| bad("zip: truncated local header"))?;
        let flags = le16(&h[6..]);
        let method = le16(&h[8..]);
        let mut csize = u64::from(le32(&h[18..]));
        let (nlen, xlen) = (usize::from(le16(&h[26..])), usize::from(le16(&h[28..])));
        let mut name = vec![0u8; nlen];
        let mut extra = vec![0u8; xlen];
        r.read_exact(&mut name)
            .and_then(|_| r.read_exact(&mut extra))
            .map_err(|_| bad("zip: truncated local header"))?;
        let name = String::from_utf8_lossy(&name).into_owned();
        if flags & 1 != 0 {
            return Err(bad(format!("zip: entry {name:?} is encrypted")));
        }
        if name.ends_with('/') {
            return Err(bad(format!(
                "zip: the first entry {name:?} is a directory; unzip the archive first"
            )));
        }
        // Zip64: sizes of 0xFFFFFFFF are in the extra field 0x0001 (uncompressed, compressed).
        if csize == 0xFFFF_FFFF {
            let mut x = &extra[..];
            while x.len() >= 4 {
                let (id, len) = (le16(x), usize::from(le16(&x[2..])));
                let body = &x[4..(4 + len).min(x.len())];
                if id == 1 && body.len() >= 16 {
                    csize = u64::from_le_bytes(body[8..16].try_into().expect("8 bytes"));
                }
                x = &x[(4 + len).min(x.len())..];
            }
        }
        let data = match method {
            0 if flags & 8 == 0 => ZipData::Stored(r.take(csize)),
            0 => {
                return Err(bad(format!(
                    "zip: entry {name:?} is stored with its size after the data; unzip it first"
                )))
            }
            8 => ZipData::Deflated(flate2::bufread::DeflateDecoder::new(r)),
            m => {
                return Err(bad(format!(
                    "zip: entry {name:?} uses compression method {m} (only stored and deflate are read; unzip it first)"
                )))
            }
        };
        Ok(ZipEntry {
            data,
            crc: flate2::Crc::new(),
            header_crc: (flags & 8 == 0).then(|| le32(&h[14..])),
            checked: false,
        })
    }

    /// At the end of the data: the CRC-32 (from the header, or the data descriptor after the
    /// data) must match what was read.
    fn check(&mut self) -> io::Result<()> {
        let want = match self.header_crc {
            Some(c) => c,
            None => {
                let r: &mut R = match &mut self.data {
                    ZipData::Stored(t) => t.get_mut(),
                    ZipData::Deflated(d) => d.get_mut(),
                };
                let mut w = [0u8; 4];
                r.read_exact(&mut w)
                    .map_err(|_| bad("zip: truncated (no data descriptor after the entry)"))?;
                if le32(&w) == 0x0807_4b50 {
                    r.read_exact(&mut w)
                        .map_err(|_| bad("zip: truncated (no data descriptor after the entry)"))?;
                }
                le32(&w)
            }
        };
        if want != self.crc.sum() {
            return Err(bad(format!(
                "zip: CRC-32 mismatch ({:08x} read, {want:08x} expected): damaged or truncated",
                self.crc.sum()
            )));
        }
        Ok(())
    }
}

impl<R: BufRead> Read for ZipEntry<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.data {
            ZipData::Stored(t) => t.read(buf)?,
            ZipData::Deflated(d) => d.read(buf)?,
        };
        if n > 0 {
            self.crc.update(&buf[..n]);
        } else if !buf.is_empty() && !self.checked {
            self.checked = true;
            if let ZipData::Stored(t) = &self.data {
                if t.limit() > 0 {
                    return Err(bad("zip: truncated entry"));
                }
            }
            self.check()?;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn all(kind_bytes: Vec<u8>) -> (Compression, io::Result<Vec<u8>>) {
        let (kind, mut s) = decompress(Box::new(io::Cursor::new(kind_bytes))).unwrap();
        let mut out = Vec::new();
        let r = s.read_to_end(&mut out).map(|_| out);
        (kind, r)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_members_and_truncation() {
        let text = b"line one\nline two\n".repeat(1000);
        let mut two = gzip(&text[..5000]);
        two.extend(gzip(&text[5000..]));
        let (k, r) = all(two.clone());
        assert_eq!((k, r.unwrap()), (Compression::Gzip, text.clone()));
        two.truncate(two.len() - 20);
        assert!(all(two).1.is_err(), "a truncated gzip must be an error");
    }

    /// A zip written by hand as Kaggle's is: one deflated entry, CRC and sizes in a data
    /// descriptor after the data (flag bit 3).
    fn zip(data: &[u8], descriptor: bool) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        let body = e.finish().unwrap();
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let name = b"arxiv-metadata-oai-snapshot.json";
        let mut z = b"PK\x03\x04\x14\x00".to_vec();
        z.extend_from_slice(&(if descriptor { 8u16 } else { 0 }).to_le_bytes());
        z.extend_from_slice(&8u16.to_le_bytes());
        z.extend_from_slice(&[0; 4]);
        let (c, cs, us) = if descriptor {
            (0, 0, 0)
        } else {
            (crc.sum(), body.len() as u32, data.len() as u32)
        };
        for v in [c, cs, us] {
            z.extend_from_slice(&v.to_le_bytes());
        }
        z.extend_from_slice(&(name.len() as u16).to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes());
        z.extend_from_slice(name);
        z.extend_from_slice(&body);
        if descriptor {
            z.extend_from_slice(b"PK\x07\x08");
            for v in [crc.sum(), body.len() as u32, data.len() as u32] {
                z.extend_from_slice(&v.to_le_bytes());
            }
        }
        z.extend_from_slice(b"PK\x01\x02 central directory follows");
        z
    }

    #[test]
    fn zip_first_entry_with_crc() {
        let text = b"{\"id\":\"0704.0001\"}\n".repeat(500);
        for descriptor in [true, false] {
            let z = zip(&text, descriptor);
            let (k, r) = all(z.clone());
            assert_eq!((k, r.unwrap()), (Compression::Zip, text.clone()));
            let mut damaged = z.clone();
            let at = damaged.len() - 60;
            damaged[at] ^= 0x55;
            assert!(all(damaged).1.is_err());
            let mut cut = z;
            cut.truncate(30 + 32 + 10); // inside the deflated body
            assert!(all(cut).1.is_err());
        }
    }

    #[test]
    fn plain_and_short_inputs() {
        assert_eq!(all(b"{}".to_vec()).1.unwrap(), b"{}");
        assert_eq!(all(Vec::new()).1.unwrap(), b"");
    }

    #[test]
    fn bounded_lines() {
        let mut r = io::Cursor::new(b"short\r\nxxxxxxxxxxxx\nlast".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf, 8).unwrap(), LineRead::Line);
        assert_eq!(buf, b"short");
        assert_eq!(
            read_line(&mut r, &mut buf, 8).unwrap(),
            LineRead::TooLong(12)
        );
        assert!(buf.is_empty());
        assert_eq!(read_line(&mut r, &mut buf, 8).unwrap(), LineRead::Line);
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut r, &mut buf, 8).unwrap(), LineRead::Eof);
    }
}
