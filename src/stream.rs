//! Reading streams whole: a buffer filled to its end or to the stream's, however the reader
//! splits its reads; and line by line, each line held up to a length. A leaf: it knows nothing
//! of pith.

use std::io::{self, BufRead, Read};

/// Reads until `buf` is full or the input ends; the number of bytes read. A read the signal
/// interrupted is tried again.
///
/// # Errors
/// The first error of `r` other than [`io::ErrorKind::Interrupted`].
pub fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives one byte a read and is interrupted before each.
    struct Trickle<'a>(&'a [u8], bool);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let Some((&b, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = b;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn fills_the_buffer_or_stops_at_the_end() {
        let mut buf = [0u8; 4];
        assert_eq!(
            read_full(&mut Trickle(b"abcdef", false), &mut buf).unwrap(),
            4
        );
        assert_eq!(&buf, b"abcd");
        let mut buf = [0u8; 8];
        assert_eq!(read_full(&mut Trickle(b"ab", false), &mut buf).unwrap(), 2);
        assert_eq!(&buf[..2], b"ab");
    }
}

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRead {
    /// The end of the stream; nothing was read.
    Eof,
    /// A line, now in the buffer without its `\n` (nor a `\r` before it).
    Line,
    /// A line longer than the limit: skipped to its end without being kept; its length.
    TooLong(u64),
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes: a longer line is
/// skipped to its end and reported, so a stream without newlines cannot exhaust memory.
///
/// # Errors
/// The I/O error of the underlying stream (a truncated gzip, an unreadable file).
pub fn read_line(r: &mut dyn BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<LineRead> {
    buf.clear();
    let mut len: u64 = 0;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i, true),
            None => (avail.len(), false),
        };
        len += take as u64;
        if len <= max as u64 {
            buf.extend_from_slice(&avail[..take]);
        }
        r.consume(take + usize::from(done));
        if done {
            break;
        }
    }
    if !any {
        return Ok(LineRead::Eof);
    }
    if len > max as u64 {
        buf.clear();
        return Ok(LineRead::TooLong(len));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(LineRead::Line)
}
