//! Where the reader gets its bytes: the [`ReadAt`] trait (positioned reads of a file or a
//! buffer) and the two window helpers every parser in [`super`] uses. Nothing here knows PDF
//! objects beyond asking the [`Parser`] to try again with a larger window.

use std::io;

use super::{damaged, io_err, MAX_WINDOW};
use crate::budget::Resource;
use crate::syntax::{Parser, SyntaxError};
use crate::Error;

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

/// A source whose length is taken once: [`ReadAt::len`] of a [`std::fs::File`] asks the
/// kernel each time (a `statx` per read), and the reader only opens files that do not change
/// under it (in place, they are locked).
pub(crate) struct KnownLen<R> {
    src: R,
    len: u64,
}

impl<R: ReadAt> KnownLen<R> {
    pub(crate) fn new(src: R) -> Self {
        let len = src.len();
        KnownLen { src, len }
    }
}

impl<R: ReadAt> ReadAt for KnownLen<R> {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        self.src.read_at(offset, buf)
    }
}

pub(crate) fn read_window<R: ReadAt + ?Sized>(
    src: &R,
    pos: u64,
    len: usize,
) -> Result<Vec<u8>, Error> {
    let avail = src.len().saturating_sub(pos);
    let n = (len as u64).min(avail) as usize;
    let mut buf = vec![0u8; n];
    let got = src.read_at(pos, &mut buf).map_err(io_err)?;
    buf.truncate(got);
    Ok(buf)
}

/// Runs `f` on a window at `pos`, growing the window while `f` runs out of bytes. A larger
/// window reads only the bytes past the one before, so a large object (a page tree root
/// listing every page) is read from the file once.
pub(crate) fn parse_growing<R: ReadAt + ?Sized, T>(
    src: &R,
    pos: u64,
    nesting: u64,
    f: impl Fn(&mut Parser<'_>) -> Result<T, SyntaxError>,
) -> Result<(T, Vec<u8>), Error> {
    let mut size = 4096usize;
    let mut buf = Vec::new();
    loop {
        // Read into the window itself, not through a buffer of its own (a copy less).
        let have = buf.len();
        let avail = src.len().saturating_sub(pos + have as u64);
        buf.resize(have + ((size - have) as u64).min(avail) as usize, 0);
        let got = src
            .read_at(pos + have as u64, &mut buf[have..])
            .map_err(io_err)?;
        buf.truncate(have + got);
        let at_eof = pos + buf.len() as u64 >= src.len();
        let mut p = Parser::new(&buf, 0, at_eof).nesting(nesting);
        match f(&mut p) {
            Ok(t) => return Ok((t, buf)),
            Err(SyntaxError::Eof) if !at_eof && size < MAX_WINDOW => size *= 4,
            Err(SyntaxError::Eof) => return Err(damaged("object too large or cut off", pos)),
            Err(SyntaxError::Invalid(i)) => return Err(damaged("syntax error", pos + i as u64)),
            Err(SyntaxError::TooDeep(limit)) => {
                return Err(crate::budget::over(Resource::Nesting, limit).at_offset(pos))
            }
        }
    }
}

/// Position of the first `needle` in `hay`.
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Position of the last `needle` in `hay`.
pub fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_read_what_they_have() {
        let data: &[u8] = b"0123456789";
        let mut buf = [0u8; 4];
        assert_eq!(data.read_at(8, &mut buf).unwrap(), 2);
        assert_eq!(&buf[..2], b"89");
        assert_eq!(data.read_at(99, &mut buf).unwrap(), 0);
        assert_eq!(read_window(data, 3, 4).unwrap(), b"3456");
        assert_eq!(read_window(data, 9, 100).unwrap(), b"9");
    }

    #[test]
    fn files_read_at_offsets() {
        let mut f = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut f, b"hello world").unwrap();
        assert_eq!(ReadAt::len(&f), 11);
        assert_eq!(read_window(&f, 6, 5).unwrap(), b"world");
    }

    #[test]
    fn windows_grow_until_the_object_ends() {
        let mut data = b"<< /A (".to_vec();
        data.extend(std::iter::repeat_n(b'x', 20_000));
        data.extend_from_slice(b") >> tail");
        let (d, buf) = parse_growing(&data[..], 0, 64, |p| p.dict()).unwrap();
        assert!(buf.len() >= 20_000);
        assert_eq!(d.entries.len(), 1);
        assert!(parse_growing(&data[..20], 0, 64, |p| p.dict()).is_err());
    }

    #[test]
    fn find_and_rfind() {
        assert_eq!(find(b"a startxref b startxref", b"startxref"), Some(2));
        assert_eq!(rfind(b"a startxref b startxref", b"startxref"), Some(14));
        assert_eq!(find(b"abc", b"x"), None);
    }
}
