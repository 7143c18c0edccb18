//! Where a tar stream reads from and writes to: the input read through or read where it lies
//! ([`Source`]), the output that takes a member where it lies ([`RangeWrite`]), and the
//! counting and md5 of both ([`Hashing`]).

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::sync::Arc;

use md5::{Digest, Md5};

use super::body::TarOut;
use super::buffers::Buffers;
use super::format::{read_entry, read_entry_at, Next};
use super::ErrorKind;

/// Counts bytes, and hashes them as they pass when asked to.
pub(super) struct Hashing<T> {
    inner: T,
    md5: Option<Md5>,
    pub(super) n: u64,
}

impl<T> Hashing<T> {
    pub(super) fn new(inner: T, hash: bool) -> Self {
        Hashing {
            inner,
            md5: hash.then(Md5::new),
            n: 0,
        }
    }

    pub(super) fn finish(self) -> (Option<String>, u64) {
        (self.md5.map(|m| format!("{:x}", m.finalize())), self.n)
    }
}

impl<T: Read> Read for Hashing<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(m) = &mut self.md5 {
            m.update(&buf[..n]);
        }
        self.n += n as u64;
        Ok(n)
    }
}

impl<T: Write> Write for Hashing<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        if let Some(m) = &mut self.md5 {
            m.update(&buf[..n]);
        }
        self.n += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: RangeWrite> TarOut for Hashing<io::BufWriter<W>> {
    fn range(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()> {
        if self.md5.is_some() {
            // Hashed as it passes.
            return crate::output::copy_stretch(from, offset, len, self);
        }
        self.inner.flush()?;
        self.inner.get_mut().write_range(from, offset, len)?;
        self.n += len;
        Ok(())
    }
}

/// Where a tar stream writes: any writer, given a member where it lies in its tar by reading
/// it, or a file being written ([`crate::output::Writeback`]), for which the kernel copies it.
pub trait RangeWrite: Write {
    /// Writes `len` bytes of `from` at `offset`.
    ///
    /// # Errors
    /// The error reading `from` or writing.
    fn write_range(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()> {
        crate::output::copy_stretch(from, offset, len, self)
    }
}

impl<W: Write + ?Sized> RangeWrite for &mut W {}

impl RangeWrite for crate::output::Writeback<'_> {
    fn write_range(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()> {
        self.copy_range(from, offset, len)
    }
}

/// Where a stream's entries come from.
pub(super) enum Source<R> {
    /// Read as they come (a pipe, or a tar whose md5 is wanted): every byte passes through.
    Stream {
        r: Hashing<BufReader<R>>,
        offset: u64,
    },
    /// A tar that is a regular file of `len` bytes: headers and padding read through `r`,
    /// members left where they lie in `file`.
    File {
        r: BufReader<File>,
        file: Arc<File>,
        len: u64,
        offset: u64,
    },
}

impl<R: Read> Source<R> {
    pub(super) fn next(
        &mut self,
        spool: Option<&std::path::Path>,
        buffers: &Buffers,
    ) -> Result<Next, ErrorKind> {
        match self {
            Source::Stream { r, offset } => read_entry(r, offset, spool, buffers),
            Source::File {
                r,
                file,
                len,
                offset,
            } => read_entry_at(r, file, *len, offset),
        }
    }

    /// The bytes read so far.
    pub(super) fn read(&self) -> u64 {
        match self {
            Source::Stream { r, .. } => r.n,
            Source::File { offset, .. } => *offset,
        }
    }

    /// The input's md5 (when asked for) and size.
    pub(super) fn finish(self) -> (Option<String>, u64) {
        match self {
            Source::Stream { r, .. } => r.finish(),
            Source::File { offset, .. } => (None, offset),
        }
    }
}
