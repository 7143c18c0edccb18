//! A member's data where the stream keeps it ([`Body`]): in memory, spooled, or where it lies
//! in its tar ([`Window`]), and how it is written out ([`TarOut`]). No tar headers here.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::Arc;

/// A member's data: in memory, or spooled to a temporary file when larger than
/// [`SPOOL_BOUND`](super::SPOOL_BOUND), or where it lies in the tar when the tar is a regular file.
#[derive(Debug)]
pub enum Body {
    /// Held in memory.
    Mem(Vec<u8>),
    /// In an unnamed temporary file (removed when dropped), with the base32 SHA-1 of its
    /// bytes, computed as they were spooled (so the file is not read again for it).
    Spool(File, String),
    /// In the tar itself, a regular file: `len` bytes at `offset`, read where they lie by
    /// whoever needs them (the update reads what it parses; the writer has the kernel copy the
    /// rest).
    At(Arc<File>, u64, u64),
}

/// A stretch of a file read as a file of its own: a member where it lies in its tar.
#[derive(Debug, Clone, Copy)]
pub struct Window<'a> {
    file: &'a File,
    offset: u64,
    len: u64,
}

impl<'a> Window<'a> {
    /// The `len` bytes of `file` at `offset` (a [`Body::At`]'s fields).
    pub fn new(file: &'a File, offset: u64, len: u64) -> Self {
        Window { file, offset, len }
    }
}

impl crate::pdf::ReadAt for Window<'_> {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.len.saturating_sub(offset);
        let n = usize::try_from(left).unwrap_or(usize::MAX).min(buf.len());
        let got = crate::pdf::ReadAt::read_at(self.file, self.offset + offset, &mut buf[..n])?;
        if got < n {
            return Err(changed());
        }
        Ok(got)
    }
}

/// The error of a tar that is shorter than when its headers were read.
fn changed() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the tar changed while it was read: a member ends past its end",
    )
}

/// Where entries are written: a writer that can also be given a stretch of a file (a member
/// where it lies in its tar), which the kernel may copy without it passing through memory.
pub(crate) trait TarOut: Write {
    /// Writes `len` bytes of `from` at `offset`.
    fn range(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()>;
}

impl Body {
    /// Size of the data in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Body::Mem(v) => v.len() as u64,
            Body::Spool(f, _) => f.metadata().map_or(0, |m| m.len()),
            Body::At(_, _, len) => *len,
        }
    }

    /// The base32 SHA-1 of the data, as the Internet Archive writes digests: computed here for
    /// data in memory or in its tar (read in pieces), kept from the spooling for a spooled
    /// member.
    ///
    /// # Errors
    /// The error reading a member where it lies.
    pub fn sha1(&self) -> io::Result<String> {
        match self {
            Body::Mem(v) => Ok(crate::capture::sha1_base32(v)),
            Body::Spool(_, sha1) => Ok(sha1.clone()),
            Body::At(file, offset, len) => {
                let mut hash = sha1::Sha1::default();
                crate::output::copy_stretch(file, *offset, *len, &mut hash)?;
                Ok(data_encoding::BASE32.encode(&sha1::Digest::finalize(hash)))
            }
        }
    }

    /// Whether the data is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the first `len` bytes to `w`.
    pub(super) fn write_prefix(&self, len: u64, w: &mut impl TarOut) -> io::Result<()> {
        match self {
            Body::At(file, offset, n) => w.range(file, *offset, len.min(*n)),
            Body::Mem(v) => w.write_all(&v[..usize::try_from(len).unwrap_or(v.len()).min(v.len())]),
            Body::Spool(f, _) => {
                let mut f = f;
                f.seek(SeekFrom::Start(0))?;
                let n = io::copy(&mut f.take(len), &mut *w)?;
                if n != len {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the spool file shrank",
                    ));
                }
                Ok(())
            }
        }
    }
}
