//! Lines read within bounds: each held up to a length, every one counted (empty lines and
//! folded header lines too), the stop token seen as they are read.

use std::io::BufRead;

use super::{Bounds, Error, ErrorKind, Meter};
use crate::stream::{read_line, LineRead};

/// One line as [`Lines::next_line`] read it.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The line, without its `\n` (nor a `\r` before it).
    Text(&'a [u8]),
    /// A line longer than the bound: read to its end and dropped; its length.
    TooLong(u64),
}

/// The lines of a stream, read within [`Bounds::line_bytes`] and [`Bounds::lines`].
#[derive(Debug)]
pub struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    max: usize,
    limit: u64,
    count: u64,
    meter: Meter,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `input` (put a [`super::Reader`] under it to bound its bytes too).
    pub fn new(input: R, bounds: &Bounds) -> Self {
        Lines {
            input,
            buf: Vec::new(),
            max: bounds.line_bytes,
            limit: bounds.lines,
            count: 0,
            meter: Meter::new(&bounds.stop),
        }
    }

    /// How many lines were read.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The stream under the lines, for a reader that takes bytes after some lines (a WARC
    /// record's block after its header).
    pub fn input(&mut self) -> &mut R {
        &mut self.input
    }

    /// The next line; `None` at the end of the stream.
    ///
    /// # Errors
    /// [`ErrorKind::Count`] past [`Bounds::lines`], [`ErrorKind::Stopped`], and the stream's
    /// errors ([`super::Error::from_io`]: a bound of the bytes under it, a damaged gzip).
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, Error> {
        self.meter.step()?;
        let read = read_line(&mut self.input, &mut self.buf, self.max).map_err(Error::from_io)?;
        if read == LineRead::Eof {
            return Ok(None);
        }
        self.count += 1;
        if self.count > self.limit {
            return Err(ErrorKind::Count {
                limit: self.limit,
                what: "lines",
            }
            .into());
        }
        Ok(Some(match read {
            LineRead::TooLong(len) => Line::TooLong(len),
            _ => Line::Text(&self.buf),
        }))
    }

    /// The next line, a line over the bound being an error.
    ///
    /// # Errors
    /// As [`Lines::next_line`], and [`ErrorKind::TooLong`].
    pub fn next_text(&mut self) -> Result<Option<&[u8]>, Error> {
        let at = self.count + 1;
        let max = self.max as u64;
        match self.next_line()? {
            None => Ok(None),
            Some(Line::Text(t)) => Ok(Some(t)),
            Some(Line::TooLong(_)) => Err(ErrorKind::TooLong {
                what: "line",
                at,
                limit: max,
            }
            .into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_counted() {
        let b = Bounds {
            line_bytes: 4,
            lines: 4,
            ..Bounds::default()
        };
        let mut l = Lines::new(&b"ab\r\ntoo long\n\nlast"[..], &b);
        assert_eq!(l.next_line().unwrap(), Some(Line::Text(b"ab")));
        assert_eq!(l.next_line().unwrap(), Some(Line::TooLong(8)));
        assert_eq!(l.next_line().unwrap(), Some(Line::Text(b"")));
        assert_eq!(l.next_text().unwrap(), Some(&b"last"[..]));
        assert_eq!(l.next_line().unwrap(), None);
        let e = Lines::new(&b"\n\n\n\n\n"[..], &b)
            .next_text()
            .map(|_| ())
            .and_then(|()| {
                let mut l = Lines::new(&b"\n\n\n\n\n"[..], &b);
                while l.next_line()?.is_some() {}
                Ok(())
            })
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Count { limit: 4, .. }), "{e}");
    }
}
