//! JSON read within bounds: a document parsed only when its bytes and nesting are within
//! their bounds ([`parse`]), and a large top-level array read one element at a time
//! ([`Array`]), each element counted before it is held and held only up to its own bound, so an
//! answer of a million rows costs one row's memory.

use std::io::{BufRead, ErrorKind as IoKind};

use serde::de::DeserializeOwned;

use super::{Bounds, Error, ErrorKind, Meter};

/// The deepest nesting of arrays and objects accepted (the CDX API's rows nest two levels,
/// a line of `pith refs` one).
pub const MAX_DEPTH: usize = 32;

/// Reads `b` inside a JSON string: whether the string goes on after it (`esc` carries a
/// backslash over to the byte it escapes).
fn string_goes_on(esc: &mut bool, b: u8) -> bool {
    match (*esc, b) {
        (true, _) => {
            *esc = false;
            true
        }
        (false, b'\\') => {
            *esc = true;
            true
        }
        (false, b'"') => false,
        _ => true,
    }
}

/// The nesting depth of the JSON text `bytes` (strings skipped), read in one pass.
fn depth(bytes: &[u8]) -> usize {
    let (mut d, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_str {
            in_str = string_goes_on(&mut esc, b);
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                d += 1;
                max = max.max(d);
            }
            b']' | b'}' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Parses `bytes` as a `T` when they are at most `max_bytes` long and nest at most
/// [`MAX_DEPTH`] levels.
///
/// # Errors
/// [`ErrorKind::Bytes`] over the size, [`ErrorKind::Json`] too deep or not a `T`.
pub fn parse<T: DeserializeOwned>(bytes: &[u8], max_bytes: u64) -> Result<T, Error> {
    if bytes.len() as u64 > max_bytes {
        return Err(ErrorKind::Bytes(max_bytes).into());
    }
    if depth(bytes) > MAX_DEPTH {
        return Err(ErrorKind::Json(format!("it nests deeper than {MAX_DEPTH} levels")).into());
    }
    serde_json::from_slice(bytes).map_err(|e| ErrorKind::Json(e.to_string()).into())
}

/// The elements of a top-level JSON array, read one at a time from a stream: each element's
/// text (at most [`Bounds::line_bytes`]) is handed over before the next is read, and the
/// elements are counted against [`Bounds::lines`] before they are held.
#[derive(Debug)]
pub struct Array<R> {
    input: R,
    buf: Vec<u8>,
    max: usize,
    limit: u64,
    count: u64,
    started: bool,
    ended: bool,
    meter: Meter,
}

impl<R: BufRead> Array<R> {
    /// The elements of the array `input` holds (white space around it allowed).
    pub fn new(input: R, bounds: &Bounds) -> Self {
        Array {
            input,
            buf: Vec::new(),
            max: bounds.line_bytes,
            limit: bounds.lines,
            count: 0,
            started: false,
            ended: false,
            meter: Meter::new(&bounds.stop),
        }
    }

    /// How many elements were read.
    pub fn count(&self) -> u64 {
        self.count
    }

    fn byte(&mut self) -> Result<Option<u8>, Error> {
        loop {
            match self.input.fill_buf() {
                Ok([]) => return Ok(None),
                Ok(b) => {
                    let c = b[0];
                    self.input.consume(1);
                    return Ok(Some(c));
                }
                Err(e) if e.kind() == IoKind::Interrupted => {}
                Err(e) => return Err(Error::from_io(e)),
            }
        }
    }

    fn non_space(&mut self) -> Result<Option<u8>, Error> {
        while let Some(b) = self.byte()? {
            self.meter.step()?;
            if !b.is_ascii_whitespace() {
                return Ok(Some(b));
            }
        }
        Ok(None)
    }

    /// Adds `b` to the row being read, which may hold at most [`Bounds::line_bytes`].
    fn push(&mut self, b: u8) -> Result<(), Error> {
        if self.buf.len() >= self.max {
            return Err(ErrorKind::TooLong {
                what: "row",
                at: self.count,
                limit: self.max as u64,
            }
            .into());
        }
        self.buf.push(b);
        Ok(())
    }

    fn bad(what: &str) -> Error {
        ErrorKind::Json(what.to_owned()).into()
    }

    /// The next element's text; `None` after the array's `]` (and nothing but white space
    /// after it).
    ///
    /// # Errors
    /// [`ErrorKind::Json`] when the text is not an array of values or nests deeper than
    /// [`MAX_DEPTH`], [`ErrorKind::Count`] past the element bound, [`ErrorKind::TooLong`] for an
    /// element over its bound, [`ErrorKind::Stopped`], the stream's errors.
    pub fn next_element(&mut self) -> Result<Option<&[u8]>, Error> {
        if self.ended {
            return Ok(None);
        }
        if !self.started {
            self.started = true;
            if self.non_space()? != Some(b'[') {
                return Err(Self::bad("it is not a JSON array"));
            }
        }
        let first = match self.non_space()? {
            Some(b']') if self.count == 0 => return self.end(),
            Some(b',') if self.count > 0 => self.non_space()?,
            Some(b']') => return self.end(),
            Some(b) if self.count == 0 => Some(b),
            Some(_) => {
                return Err(Self::bad(
                    "the array's elements are not separated by commas",
                ))
            }
            None => return Err(Self::bad("the array ends before its `]`")),
        };
        let Some(first) = first else {
            return Err(Self::bad("the array ends before its `]`"));
        };
        self.count += 1;
        if self.count > self.limit {
            return Err(ErrorKind::Count {
                limit: self.limit,
                what: "rows",
            }
            .into());
        }
        self.buf.clear();
        let (mut depth, mut in_str, mut esc) = (0usize, false, false);
        let mut b = first;
        loop {
            self.meter.step()?;
            self.push(b)?;
            if in_str {
                in_str = string_goes_on(&mut esc, b);
            } else {
                match b {
                    b'"' => in_str = true,
                    b'[' | b'{' => {
                        depth += 1;
                        if depth > MAX_DEPTH {
                            return Err(Self::bad(&format!(
                                "a row nests deeper than {MAX_DEPTH} levels"
                            )));
                        }
                    }
                    b']' | b'}' => {
                        depth = depth
                            .checked_sub(1)
                            .ok_or_else(|| Self::bad("a row closes more than it opens"))?;
                    }
                    _ => {}
                }
            }
            if depth == 0 && !in_str {
                // A scalar ends where a comma, the array's end or white space follows it; an
                // array, object or string where it closes.
                let closed = matches!(b, b']' | b'}' | b'"') && self.buf.len() > 1
                    || (self.buf.len() == 1 && !matches!(b, b'[' | b'{' | b'"'));
                if closed {
                    if self.buf.len() == 1 {
                        // A scalar: read on to its end.
                        while let Ok(avail) = self.input.fill_buf() {
                            match avail.first() {
                                Some(c)
                                    if !matches!(c, b',' | b']') && !c.is_ascii_whitespace() =>
                                {
                                    let c = *c;
                                    self.push(c)?;
                                    self.input.consume(1);
                                }
                                _ => break,
                            }
                        }
                    }
                    return Ok(Some(&self.buf));
                }
            }
            b = self
                .byte()?
                .ok_or_else(|| Self::bad("the array ends inside a row"))?;
        }
    }

    fn end(&mut self) -> Result<Option<&[u8]>, Error> {
        self.ended = true;
        if self.non_space()?.is_some() {
            return Err(Self::bad("text follows the array's `]`"));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str, b: &Bounds) -> Result<Vec<String>, Error> {
        let mut a = Array::new(text.as_bytes(), b);
        let mut out = Vec::new();
        while let Some(e) = a.next_element()? {
            out.push(String::from_utf8(e.to_vec()).unwrap());
        }
        Ok(out)
    }

    #[test]
    fn arrays_stream_element_by_element() {
        let b = Bounds::default();
        assert_eq!(
            all(r#" [["a","b]"], {"x":[1]}, 12 ,"s\"]", true] "#, &b).unwrap(),
            [r#"["a","b]"]"#, r#"{"x":[1]}"#, "12", r#""s\"]""#, "true"]
        );
        assert!(all("[]", &b).unwrap().is_empty());
        for bad in ["", "{}", "[1,", "[1 2]", "[1] x", "[[1]", "[]]"] {
            assert!(all(bad, &b).is_err(), "{bad}");
        }
        let few = Bounds {
            lines: 2,
            line_bytes: 8,
            ..Bounds::default()
        };
        assert!(matches!(
            all("[1,2,3]", &few).unwrap_err().kind(),
            ErrorKind::Count { .. }
        ));
        assert!(matches!(
            all(r#"["0123456789"]"#, &few).unwrap_err().kind(),
            ErrorKind::TooLong { .. }
        ));
        let deep = format!("[{}{}]", "[".repeat(40), "]".repeat(40));
        assert!(all(&deep, &b).is_err());
        assert!(parse::<serde_json::Value>(deep.as_bytes(), 1 << 20).is_err());
        assert!(parse::<Vec<u8>>(b"[1,2]", 4).is_err());
        assert_eq!(parse::<Vec<u8>>(b"[1,2]", 5).unwrap(), [1, 2]);
    }
}
