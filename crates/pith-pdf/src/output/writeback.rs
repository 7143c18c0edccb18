//! Writeback started while a large file is still being written ([`Writeback`]), so that the
//! sync before its commit waits for its last stretch only instead of for all of it. Only a
//! hint to the kernel: the bytes written and the guarantees of the commit are the same
//! without it.

use std::fs::File;
use std::io::{self, Write};

/// How much a [`Writeback`] lets through before it starts the writeback of that stretch: a
/// few megabytes, so that the calls are few and the disk has work while the file grows.
const STRETCH: u64 = 8 << 20;

/// A writer to a file being written from its start (a staged file: see
/// [`super::write_file_with`]) that starts the writeback of every 8 MiB written as the
/// next is being written: the disk writes a long stream while pith works on what follows,
/// and the sync at the commit finds most of it on disk already (a tar of hundreds of
/// megabytes otherwise waits for all of it there, at the end).
pub struct Writeback<'a> {
    file: &'a mut File,
    written: u64,
    started: u64,
}

impl<'a> Writeback<'a> {
    /// A writer to `file`, empty and written from its start.
    pub fn new(file: &'a mut File) -> Self {
        Writeback {
            file,
            written: 0,
            started: 0,
        }
    }

    /// A writer to `file` from where it stands (standard output redirected to a file, perhaps
    /// after other output).
    ///
    /// # Errors
    /// The error asking the file where it stands.
    pub fn from_here(file: &'a mut File) -> io::Result<Self> {
        use std::io::Seek;
        let at = file.stream_position()?;
        Ok(Writeback {
            file,
            written: at,
            started: at,
        })
    }
}

impl Writeback<'_> {
    /// Counts `n` bytes more written, and starts the writeback of a full stretch.
    fn wrote(&mut self, n: u64) {
        self.written += n;
        if self.written - self.started >= STRETCH {
            start(self.file, self.started, self.written - self.started);
            self.started = self.written;
        }
    }

    /// Writes `len` bytes of `from` at `offset` (a member where it lies in its tar), copied
    /// by the kernel (`copy_file_range`: the bytes do not pass through this process's memory)
    /// where the two files allow it, else read and written.
    ///
    /// # Errors
    /// The error reading `from` (`UnexpectedEof` when it ends before `offset + len`) or
    /// writing the file.
    pub fn copy_range(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()> {
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        return copy_stretch(from, offset, len, self);
        #[cfg(any(target_os = "linux", target_os = "android"))]
        self.copy_by_kernel(from, offset, len)
    }

    /// [`Writeback::copy_range`] by `copy_file_range`.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn copy_by_kernel(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()> {
        use rustix::io::Errno;
        let mut at = offset;
        let end = offset.saturating_add(len);
        while at < end {
            let want = usize::try_from(end - at).unwrap_or(usize::MAX).min(1 << 30);
            match rustix::fs::copy_file_range(from, Some(&mut at), &*self.file, None, want) {
                Ok(0) => return Err(ends_early()),
                Ok(n) => self.wrote(n as u64),
                Err(Errno::INTR) => {}
                // Files the kernel cannot copy between (other file systems on older kernels,
                // special files): read and written.
                Err(Errno::XDEV | Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP | Errno::BADF) => {
                    return copy_stretch(from, at, end - at, self)
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

impl Write for Writeback<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.wrote(n as u64);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Copies `len` bytes of `from` at `offset` to `to` through a buffer (at most 256 KiB).
///
/// # Errors
/// The error reading `from` (`UnexpectedEof` when it ends before `offset + len`) or writing
/// `to`.
pub fn copy_stretch(
    from: &File,
    offset: u64,
    len: u64,
    to: &mut (impl Write + ?Sized),
) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; usize::try_from(len).unwrap_or(usize::MAX).min(256 << 10)];
    let mut done = 0u64;
    while done < len {
        let n = usize::try_from(len - done)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        from.read_exact_at(&mut buf[..n], offset + done)
            .map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => ends_early(),
                _ => e,
            })?;
        to.write_all(&buf[..n])?;
        done += n as u64;
    }
    Ok(())
}

/// The error of a file copied from that is shorter than the stretch asked of it.
fn ends_early() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the file copied from ends before the stretch does",
    )
}

/// Asks the kernel to start writing `len` bytes of `file` from `offset` to disk now (all of
/// it from `offset` when `len` is `None`), without waiting. Only a hint: nothing depends on it
/// but speed. On Linux `POSIX_FADV_DONTNEED` starts the writeback (and drops pages already
/// clean, so outputs do not fill the page cache); `sync_file_range` would do the same but has
/// no safe wrapper in our dependencies.
pub(super) fn start(file: &File, offset: u64, len: u64) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = rustix::fs::fadvise(
        file,
        offset,
        std::num::NonZeroU64::new(len),
        rustix::fs::Advice::DontNeed,
    );
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = (file, offset, len);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek};

    #[test]
    fn passes_every_byte_through_across_stretches() {
        let mut f = tempfile::tempfile().unwrap();
        let data: Vec<u8> = (0..(STRETCH as usize * 2 + 12345))
            .map(|i| (i % 251) as u8)
            .collect();
        let mut w = Writeback::new(&mut f);
        for chunk in data.chunks(100_000) {
            w.write_all(chunk).unwrap();
        }
        w.flush().unwrap();
        // Started at the first write past each stretch: two of them, the tail left to the sync.
        assert!(
            (STRETCH * 2..STRETCH * 2 + 100_000).contains(&w.started),
            "two stretches started: {}",
            w.started
        );
        let mut back = Vec::new();
        f.rewind().unwrap();
        f.read_to_end(&mut back).unwrap();
        assert_eq!(back, data);
    }
}
