//! The content stream's lexer: tokens read from any `Read` through one 64 KiB buffer, within a
//! byte bound, skipping what cannot hold an operator (strings are counted, not kept; comments,
//! dictionaries and inline image data are read past).

use std::io::{self, Read};

/// A token of a content stream; strings are counted, not kept.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Num(f64),
    /// A string: its length in bytes and how many of them are spaces (32).
    Str(u64, u64),
    Name(Vec<u8>),
    ArrOpen,
    ArrClose,
    /// An operator (or any other bare word), at most 8 bytes kept.
    Op([u8; 8], usize),
}

/// Longest name kept (longer ones are cut: they name nothing pith looks up).
pub(super) const MAX_NAME: usize = 127;

/// Reads tokens from a [`Read`] through one buffer.
pub(super) struct Lexer<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    /// Bytes taken from `src` so far.
    pub(super) read: u64,
    bound: u64,
}

pub(super) fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

pub(super) fn is_delim(b: u8) -> bool {
    b"()<>[]{}/%".contains(&b)
}

/// The lexer went past the byte bound.
#[derive(Debug)]
pub struct TooLong;

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("content longer than the bound")
    }
}

impl std::error::Error for TooLong {}

impl<R: Read> Lexer<R> {
    pub(super) fn new(src: R, bound: u64) -> Self {
        Lexer {
            src,
            buf: vec![0; 64 << 10],
            pos: 0,
            len: 0,
            read: 0,
            bound,
        }
    }

    pub(super) fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.len {
            if self.read > self.bound {
                return Err(io::Error::other(TooLong));
            }
            self.len = loop {
                match self.src.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            self.pos = 0;
            self.read += self.len as u64;
            if self.len == 0 {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.pos]))
    }

    pub(super) fn bump(&mut self) -> io::Result<Option<u8>> {
        let b = self.peek()?;
        if b.is_some() {
            self.pos += 1;
        }
        Ok(b)
    }

    /// The next token, `None` at the end.
    pub(super) fn next(&mut self) -> io::Result<Option<Tok>> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(None);
            };
            if is_white(b) {
                self.pos += 1;
                continue;
            }
            self.pos += 1;
            return Ok(Some(match b {
                b'%' => {
                    while let Some(c) = self.peek()? {
                        if c == b'\n' || c == b'\r' {
                            break;
                        }
                        self.pos += 1;
                    }
                    continue;
                }
                b'(' => self.literal()?,
                b'<' => {
                    if self.peek()? == Some(b'<') {
                        self.pos += 1;
                        self.dict()?;
                        continue;
                    }
                    self.hex()?
                }
                b'/' => {
                    let mut n = Vec::new();
                    while let Some(c) = self.peek()? {
                        if is_white(c) || is_delim(c) {
                            break;
                        }
                        if n.len() < MAX_NAME {
                            n.push(c);
                        }
                        self.pos += 1;
                    }
                    Tok::Name(n)
                }
                b'[' => Tok::ArrOpen,
                b']' => Tok::ArrClose,
                b'>' | b')' | b'{' | b'}' => continue,
                _ => {
                    // A bare word: a number or an operator. Up to 32 bytes are kept (numbers
                    // that long are written by some producers); an operator longer than 8
                    // bytes is none pith knows.
                    let mut w = [0u8; 32];
                    w[0] = b;
                    let mut n = 1;
                    while let Some(c) = self.peek()? {
                        if is_white(c) || is_delim(c) {
                            break;
                        }
                        if n < 32 {
                            w[n] = c;
                        }
                        n += 1;
                        self.pos += 1;
                    }
                    let word = &w[..n.min(32)];
                    match std::str::from_utf8(word).ok().and_then(number) {
                        Some(v) => Tok::Num(v),
                        None => {
                            let mut op = [0u8; 8];
                            let k = n.min(8);
                            op[..k].copy_from_slice(&w[..k]);
                            Tok::Op(op, k)
                        }
                    }
                }
            }));
        }
    }

    /// A literal string after `(`: balanced parentheses, backslash escapes.
    pub(super) fn literal(&mut self) -> io::Result<Tok> {
        let (mut len, mut spaces, mut level) = (0u64, 0u64, 1usize);
        while let Some(c) = self.bump()? {
            match c {
                b'\\' => {
                    // An escape stands for one byte (octal digits, a letter, or nothing
                    // before an end of line); counting it as one overstates slightly.
                    if let Some(e) = self.bump()? {
                        if !matches!(e, b'\n' | b'\r') {
                            len += 1;
                        }
                        if e.is_ascii_digit() {
                            for _ in 0..2 {
                                if self.peek()?.is_some_and(|d| d.is_ascii_digit()) {
                                    self.pos += 1;
                                }
                            }
                        }
                    }
                    continue;
                }
                b'(' => level += 1,
                b')' => {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                }
                _ => {}
            }
            len += 1;
            if c == b' ' {
                spaces += 1;
            }
        }
        Ok(Tok::Str(len, spaces))
    }

    /// A hexadecimal string after `<`.
    pub(super) fn hex(&mut self) -> io::Result<Tok> {
        let mut digits = 0u64;
        while let Some(c) = self.bump()? {
            if c == b'>' {
                break;
            }
            if c.is_ascii_hexdigit() {
                digits += 1;
            }
        }
        Ok(Tok::Str(digits.div_ceil(2), 0))
    }

    /// Skips a dictionary after `<<` (an operand of `BDC`, `DP`, `BI`), nested ones included.
    pub(super) fn dict(&mut self) -> io::Result<()> {
        let mut level = 1usize;
        while let Some(c) = self.bump()? {
            match c {
                b'(' => {
                    self.literal()?;
                }
                b'<' if self.peek()? == Some(b'<') => {
                    self.pos += 1;
                    level += 1;
                }
                b'<' => {
                    self.hex()?;
                }
                b'>' if self.peek()? == Some(b'>') => {
                    self.pos += 1;
                    level -= 1;
                    if level == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// After `ID`: skips the inline image data up to an `EI` between white space (or the end).
    pub(super) fn skip_inline_image(&mut self) -> io::Result<()> {
        // One white-space byte follows ID (§8.9.7).
        let mut prev = b' ';
        let mut state = 0u8; // 1: saw white then `E`; 2: saw white, `E`, `I`
        while let Some(c) = self.bump()? {
            state = match (state, c) {
                (0, b'E') if is_white(prev) => 1,
                (1, b'I') => 2,
                (2, c) if is_white(c) => return Ok(()),
                _ => 0,
            };
            prev = c;
        }
        Ok(())
    }
}

/// Parses a PDF number (§7.3.3): optional sign, digits with at most one point.
pub(super) fn number(s: &str) -> Option<f64> {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}
