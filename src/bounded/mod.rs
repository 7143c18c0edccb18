//! Reading outside bytes within bounds: the one layer every reader of a file or an answer that
//! pith did not write goes through (WARC and CDX files, the CDX API's answers, `.bbl` files and
//! tar members, JSON Lines inputs), so that what a file claims never decides what it costs.
//!
//! It owns four things, each counted before anything is held:
//! - **bytes** ([`Reader`]): every byte read (after decompression) counts against
//!   [`Bounds::bytes`], so a gzip bomb or an endless stream ends in [`ErrorKind::Bytes`];
//! - **lines** ([`Lines`]): a line is held only up to [`Bounds::line_bytes`] (a longer one is
//!   skipped to its end and reported, never kept), and lines are counted against
//!   [`Bounds::lines`] however short they are;
//! - **JSON** ([`json`]): a document is parsed only within a byte and a nesting bound, and a
//!   large array is read element by element ([`json::Array`]), each counted before it is held;
//! - **output** ([`Output`]): strings made from input (text, identifiers) are counted against a
//!   bound of their own.
//!
//! The deadline and cancellation are the PDF engine's [`Stop`] token, seen inside every loop
//! here ([`Meter`]: every few thousand steps, and at every buffer refill), so a file past its
//! time ends at once instead of reading on. It knows nothing of the formats: those are
//! [`crate::capture`]'s, [`crate::refs`]' and the job layer's.

pub mod json;
mod lines;

use std::io::{self, Read};

pub use crate::pdf::{Halt, Stop};
pub use lines::{Line, Lines};

/// The bounds of one input (a file, an answer): what reading it may cost.
#[derive(Debug, Clone)]
pub struct Bounds {
    /// The most bytes read from it, after decompression.
    pub bytes: u64,
    /// The longest line held, in bytes.
    pub line_bytes: usize,
    /// The most lines (or records, or rows) read from it.
    pub lines: u64,
    /// Stops the reading when cancelled or past its deadline.
    pub stop: Stop,
}

impl Default for Bounds {
    /// 1 GiB, lines of 64 KiB, 10,000,000 lines, no deadline.
    fn default() -> Self {
        Bounds {
            bytes: 1 << 30,
            line_bytes: 64 << 10,
            lines: 10_000_000,
            stop: Stop::never(),
        }
    }
}

kind_error! {
    /// An input read past its bounds, stopped, or unreadable.
}

/// What went wrong reading an input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when the input cannot be read (or its compression is damaged).
    #[error("cannot read it: {0}")]
    Io(#[source] io::Error),
    /// Occurs when the input holds (or decompresses to) more than the bound.
    #[error("it holds more than {0} bytes")]
    Bytes(u64),
    /// Occurs when the input holds more lines, records or rows than the bound.
    #[error("it holds more than {limit} {what}")]
    Count {
        /// The bound.
        limit: u64,
        /// What was counted (`lines`, `records`, `rows`).
        what: &'static str,
    },
    /// Occurs when one line or element is longer than its bound (where it cannot be skipped).
    #[error("{what} {at} is longer than {limit} bytes")]
    TooLong {
        /// What it is (`line`, `row`).
        what: &'static str,
        /// Its number, from 1.
        at: u64,
        /// The bound.
        limit: u64,
    },
    /// Occurs when JSON does not parse, nests deeper than its bound or is not the shape asked.
    #[error("{0}")]
    Json(String),
    /// Occurs when more output than its bound would be made from the input.
    #[error("it makes more than {0} bytes of text")]
    Output(u64),
    /// Occurs when the reading was stopped (its deadline passed, or it was cancelled).
    #[error("{}", match .0 { Halt::Deadline => "it took longer than the time one file may take", _ => "the run was stopped" })]
    Stopped(Halt),
}

impl Error {
    /// The bounded error an I/O error carries (one this layer raised inside a reader), else
    /// [`ErrorKind::Io`].
    pub fn from_io(e: io::Error) -> Error {
        if e.get_ref().is_some_and(|i| i.is::<Error>()) {
            if let Some(Ok(b)) = e.into_inner().map(|b| b.downcast::<Error>()) {
                return *b;
            }
            return ErrorKind::Io(io::Error::other("read failed")).into();
        }
        ErrorKind::Io(e).into()
    }

    /// The I/O error, for [`ErrorKind::Io`].
    pub fn into_io(self) -> Option<io::Error> {
        match self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the reading was stopped by its token (not refused for its content).
    pub fn is_stopped(&self) -> bool {
        matches!(self.kind, ErrorKind::Stopped(_))
    }
}

impl From<Error> for io::Error {
    /// Carries the bounded error through readers that speak `io::Error` (decoders, `BufRead`);
    /// [`Error::from_io`] takes it out again.
    fn from(e: Error) -> Self {
        match e.kind {
            ErrorKind::Io(io) => io,
            _ => io::Error::other(e),
        }
    }
}

/// How often a loop looks at its [`Stop`] token: every this many steps.
const STOP_EVERY: u32 = 4096;

/// A step counter for a loop over input: [`Meter::step`] looks at the stop token every
/// 4,096 steps (a clock read per step would cost more than the step).
#[derive(Debug, Clone)]
pub struct Meter {
    stop: Stop,
    steps: u32,
}

impl Meter {
    /// A meter for `stop`.
    pub fn new(stop: &Stop) -> Meter {
        Meter {
            stop: stop.clone(),
            steps: 0,
        }
    }

    /// Counts one step.
    ///
    /// # Errors
    /// [`ErrorKind::Stopped`] once the token says stop (seen within 4,096 steps).
    pub fn step(&mut self) -> Result<(), Error> {
        self.steps += 1;
        if self.steps >= STOP_EVERY {
            self.steps = 0;
            return check(&self.stop);
        }
        Ok(())
    }
}

/// `Err(Stopped)` when `stop` says stop.
///
/// # Errors
/// [`ErrorKind::Stopped`].
pub fn check(stop: &Stop) -> Result<(), Error> {
    match stop.halted() {
        Some(h) => Err(ErrorKind::Stopped(h).into()),
        None => Ok(()),
    }
}

/// A reader that counts the bytes through it against a bound and looks at a stop token at
/// every read: put it after the decompressor, so what is counted is what the input becomes.
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    left: u64,
    limit: u64,
    stop: Stop,
}

impl<R: Read> Reader<R> {
    /// `inner`, read within `bounds.bytes` and stopped by `bounds.stop`.
    pub fn new(inner: R, bounds: &Bounds) -> Self {
        Reader {
            inner,
            left: bounds.bytes,
            limit: bounds.bytes,
            stop: bounds.stop.clone(),
        }
    }

    /// How many bytes came through.
    pub fn read_so_far(&self) -> u64 {
        self.limit - self.left
    }
}

impl<R: Read> Read for Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        check(&self.stop)?;
        // At most one byte past the bound is asked for: enough to know the bound was passed.
        let room = usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX);
        let want = buf.len().min(room);
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(Error::from(ErrorKind::Bytes(self.limit)).into());
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Reads `r` to its end, at most `bounds.bytes` of it.
///
/// # Errors
/// [`ErrorKind::Bytes`] past the bound, [`ErrorKind::Stopped`], [`ErrorKind::Io`].
pub fn read_all(r: impl Read, bounds: &Bounds) -> Result<Vec<u8>, Error> {
    // Room for a small input's first read: a sidecar or a record is read in one call and
    // its end found by the next (an empty vector starts with a probe of 32 bytes).
    let first =
        usize::try_from(bounds.bytes.saturating_add(1)).map_or(FIRST_READ, |b| b.min(FIRST_READ));
    let mut out = Vec::with_capacity(first);
    let mut r = Reader::new(r, bounds);
    // The one place the layer reads an input whole: within its bound.
    r.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok(out)
}

/// The room [`read_all`] starts with.
const FIRST_READ: usize = 8 << 10;

/// The most bytes read from a file the user names whole, as text or JSON (a record, an Atom
/// feed, a bundle, a list of mirrors): far above any real one, far below what would exhaust
/// memory when the name is `/dev/zero`, a FIFO or a disk image.
pub const FILE_BYTES: u64 = 32 << 20;

/// Reads the file at `path` whole (`-` is standard input), at most `limit` bytes of it: the
/// one way pith reads a small file a user names, so a name that points at an endless or huge
/// file ends in an error instead of exhausting memory.
///
/// # Errors
/// The file's own I/O error, or one saying it holds more than `limit` bytes
/// ([`ErrorKind::Bytes`] inside, for [`Error::from_io`]).
pub fn read_file(path: &std::path::Path, limit: u64) -> io::Result<Vec<u8>> {
    let bounds = Bounds {
        bytes: limit,
        ..Bounds::default()
    };
    let read = if crate::output::is_stdio(path) {
        read_all(io::stdin().lock(), &bounds)
    } else {
        read_path(path, &bounds)
    };
    read.map_err(io::Error::from)
}

/// Reads the file at `path` whole within `bounds` (its bytes, and its stop token seen at every
/// read): [`read_file`] for a reader that keeps the errors of this layer and the time one file
/// may take. `-` is a file's name here, not standard input.
///
/// # Errors
/// [`ErrorKind::Io`] when it cannot be opened or read, [`ErrorKind::Bytes`] past the bound,
/// [`ErrorKind::Stopped`].
pub fn read_path(path: &std::path::Path, bounds: &Bounds) -> Result<Vec<u8>, Error> {
    read_all(std::fs::File::open(path).map_err(ErrorKind::Io)?, bounds)
}

/// [`read_file`], as UTF-8 text.
///
/// # Errors
/// As [`read_file`], and [`io::ErrorKind::InvalidData`] saying where the text stops being
/// UTF-8.
pub fn read_text_file(path: &std::path::Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_file(path, limit)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}

/// A bound on the text made from an input (decoded strings, identifiers, rows kept): each
/// piece is counted before it is made.
#[derive(Debug, Clone)]
pub struct Output {
    left: u64,
    limit: u64,
}

impl Output {
    /// At most `limit` bytes.
    pub fn new(limit: u64) -> Output {
        Output { left: limit, limit }
    }

    /// Counts `n` bytes about to be made.
    ///
    /// # Errors
    /// [`ErrorKind::Output`] past the bound.
    pub fn spend(&mut self, n: usize) -> Result<(), Error> {
        match self.left.checked_sub(n as u64) {
            Some(l) => {
                self.left = l;
                Ok(())
            }
            None => Err(ErrorKind::Output(self.limit).into()),
        }
    }

    /// Whether `n` more bytes fit (nothing is counted).
    pub fn fits(&self, n: usize) -> bool {
        n as u64 <= self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_counted_and_the_token_is_seen() {
        let small = Bounds {
            bytes: 10,
            ..Bounds::default()
        };
        assert_eq!(read_all(&b"0123456789"[..], &small).unwrap().len(), 10);
        let e = read_all(&b"0123456789x"[..], &small).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Bytes(10)), "{e}");
        let stop = Stop::new();
        stop.cancel();
        let stopped = Bounds {
            stop,
            ..Bounds::default()
        };
        assert!(read_all(&b"abc"[..], &stopped).unwrap_err().is_stopped());
        // Through a decoder, the bound's error comes out as itself.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        io::Write::write_all(&mut gz, &[0u8; 100_000]).unwrap();
        let gz = gz.finish().unwrap();
        let mut r = flate2::read::GzDecoder::new(Reader::new(&gz[..], &small));
        let mut sink = Vec::new();
        let e = Error::from_io(r.read_to_end(&mut sink).unwrap_err());
        assert!(matches!(e.kind(), ErrorKind::Bytes(_)), "{e}");
        let mut out = Output::new(4);
        assert!(out.spend(3).is_ok() && out.spend(2).is_err());
    }

    #[test]
    fn a_named_file_is_read_within_its_bounds() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ten");
        std::fs::write(&p, b"0123456789").unwrap();
        let ten = Bounds {
            bytes: 10,
            ..Bounds::default()
        };
        assert_eq!(read_path(&p, &ten).unwrap(), b"0123456789");
        let nine = Bounds { bytes: 9, ..ten };
        assert!(matches!(
            read_path(&p, &nine).unwrap_err().kind(),
            ErrorKind::Bytes(9)
        ));
        let e = read_file(&p, 9).unwrap_err();
        assert!(matches!(Error::from_io(e).kind(), ErrorKind::Bytes(9)));
        let stop = Stop::new();
        stop.cancel();
        let stopped = Bounds {
            stop,
            ..Bounds::default()
        };
        assert!(read_path(&p, &stopped).unwrap_err().is_stopped());
        let e = read_path(&dir.path().join("absent"), &Bounds::default()).unwrap_err();
        assert!(matches!(
            e.into_io().map(|e| e.kind()),
            Some(io::ErrorKind::NotFound)
        ));
    }

    #[test]
    fn a_meter_sees_the_token_within_its_period() {
        let stop = Stop::new();
        let mut m = Meter::new(&stop);
        stop.cancel();
        let steps = (0..10_000).take_while(|_| m.step().is_ok()).count();
        assert!(steps < STOP_EVERY as usize, "{steps}");
    }
}
