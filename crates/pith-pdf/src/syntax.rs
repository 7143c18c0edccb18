//! PDF object syntax (ISO 32000-2 §7.2–7.3): a small, strict lexer and object parser that works
//! on a byte window and remembers where every dictionary entry came from.
//!
//! It owns tokenizing and parsing of direct objects and of `N G obj` headers. It must not do
//! I/O or know about xref tables: [`super::reader`] feeds it windows of the file. The
//! spans let [`super::writer::object::DictPatch`] keep the original text of entries pith does
//! not change (Info, Catalog) instead of re-serialising objects it does not understand
//! ("never lose anything").

use std::ops::Range;

/// Deepest nesting of arrays and dictionaries accepted; deeper input is rejected instead of
/// risking a stack overflow on hostile files.
const MAX_DEPTH: u64 = 64;

/// A direct PDF object as read from the file.
#[derive(Debug, Clone, PartialEq)]
pub enum Obj {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A real number.
    Real(f64),
    /// A string (literal or hexadecimal), decoded to its bytes.
    Str(Vec<u8>),
    /// A name, without the slash and with `#xx` escapes decoded.
    Name(Vec<u8>),
    /// An array.
    Array(Vec<Obj>),
    /// A dictionary.
    Dict(Dict),
    /// An indirect reference `N G R`.
    Ref(Ref),
}

/// An indirect object's identity (§7.3.10): object number and generation. Written as
/// `N G R` in a reference and `N G obj` in a definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ref {
    /// The object number (1 and up; 0 is the head of the free list).
    pub num: u32,
    /// The generation number.
    pub gen: u16,
}

impl Ref {
    /// The reference to object `num`, generation `gen`.
    pub const fn new(num: u32, gen: u16) -> Self {
        Ref { num, gen }
    }
}

impl std::fmt::Display for Ref {
    /// `N G R`, the reference syntax.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} R", self.num, self.gen)
    }
}

/// A dictionary with the byte span of each entry in the parsed buffer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dict {
    /// Entries in file order: key (decoded name), value, span from the key's slash to the
    /// value's end.
    pub entries: Vec<(Vec<u8>, Obj, Range<usize>)>,
    /// Span from `<<` to `>>` inclusive.
    pub span: Range<usize>,
}

impl Dict {
    /// The value of `key`, if present (the last one wins when a key repeats, like qpdf).
    pub fn get(&self, key: &[u8]) -> Option<&Obj> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, _)| v)
    }
}

impl Obj {
    /// The integer value, if this is an integer.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Obj::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The name bytes, if this is a name.
    pub fn as_name(&self) -> Option<&[u8]> {
        match self {
            Obj::Name(n) => Some(n),
            _ => None,
        }
    }
    /// The dictionary, if this is one.
    pub fn as_dict(&self) -> Option<&Dict> {
        match self {
            Obj::Dict(d) => Some(d),
            _ => None,
        }
    }
    /// The reference, if this is one.
    pub fn as_ref(&self) -> Option<Ref> {
        match self {
            Obj::Ref(r) => Some(*r),
            _ => None,
        }
    }
}

/// Why a parse failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxError {
    /// The window ended before the object did; a larger window may succeed.
    Eof,
    /// The bytes at this offset are not valid PDF syntax.
    Invalid(usize),
    /// Arrays and dictionaries nest deeper than the parser's limit (the limit): the reader
    /// refuses it as going over the budget's `nesting` limit.
    TooDeep(u64),
}

type PResult<T> = Result<T, SyntaxError>;

/// Whether `b` is PDF white space (§7.2.3).
pub fn is_white(b: u8) -> bool {
    matches!(b, 0 | 9 | 10 | 12 | 13 | 32)
}

fn is_delim(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// Whether `b` is a regular character (§7.2.3): neither white space nor a delimiter.
pub fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delim(b)
}

/// A cursor over a byte window.
#[derive(Debug, Clone)]
pub struct Parser<'a> {
    buf: &'a [u8],
    /// Current position in `buf`.
    pub pos: usize,
    /// Whether `buf` ends at the end of the file (so running out of bytes is final).
    at_eof: bool,
    /// Deepest nesting of arrays and dictionaries parsed (the recursion of the parser).
    max_depth: u64,
}

impl<'a> Parser<'a> {
    /// A parser at `pos` in `buf`; `at_eof` says whether `buf` reaches the end of the file.
    pub fn new(buf: &'a [u8], pos: usize, at_eof: bool) -> Self {
        Parser {
            buf,
            pos,
            at_eof,
            max_depth: MAX_DEPTH,
        }
    }

    /// The same parser, refusing arrays and dictionaries nested deeper than `max` levels
    /// ([`SyntaxError::TooDeep`]); the default is the budget's default `nesting`, 64.
    pub fn nesting(mut self, max: u64) -> Self {
        self.max_depth = max;
        self
    }

    fn eof(&self) -> SyntaxError {
        if self.at_eof {
            SyntaxError::Invalid(self.buf.len())
        } else {
            SyntaxError::Eof
        }
    }

    /// The byte at `i`, if inside the window.
    pub fn byte_at(&self, i: usize) -> Option<u8> {
        self.buf.get(i).copied()
    }

    /// Skips white space and comments.
    pub fn skip_ws(&mut self) {
        while self.pos < self.buf.len() {
            let b = self.buf[self.pos];
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while self.pos < self.buf.len() && !matches!(self.buf[self.pos], b'\r' | b'\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> PResult<u8> {
        self.buf.get(self.pos).copied().ok_or_else(|| self.eof())
    }

    /// Reads a run of regular characters (a keyword or number) without skipping space first.
    fn regular(&mut self) -> PResult<&'a [u8]> {
        let start = self.pos;
        while self.pos < self.buf.len() && is_regular(self.buf[self.pos]) {
            self.pos += 1;
        }
        if self.pos == self.buf.len() && !self.at_eof {
            // The token may continue past the window.
            return Err(SyntaxError::Eof);
        }
        Ok(&self.buf[start..self.pos])
    }

    /// Reads the keyword `kw` (after white space), or fails.
    pub fn keyword(&mut self, kw: &[u8]) -> PResult<()> {
        self.skip_ws();
        let start = self.pos;
        let t = self.regular()?;
        if t == kw {
            Ok(())
        } else {
            Err(SyntaxError::Invalid(start))
        }
    }

    /// Reads an unsigned integer token (after white space).
    pub fn uint(&mut self) -> PResult<u64> {
        self.skip_ws();
        let start = self.pos;
        let t = self.regular()?;
        parse_uint(t).ok_or(SyntaxError::Invalid(start))
    }

    /// Reads an `N G obj` header and returns its [`Ref`].
    pub fn obj_header(&mut self) -> PResult<Ref> {
        let start = self.pos;
        let n = self.uint()?;
        let g = self.uint()?;
        self.keyword(b"obj")?;
        match (u32::try_from(n), u16::try_from(g)) {
            (Ok(n), Ok(g)) => Ok(Ref::new(n, g)),
            _ => Err(SyntaxError::Invalid(start)),
        }
    }

    /// Parses one direct object.
    pub fn object(&mut self) -> PResult<Obj> {
        self.object_at_depth(0)
    }

    fn object_at_depth(&mut self, depth: usize) -> PResult<Obj> {
        if depth as u64 > self.max_depth {
            return Err(SyntaxError::TooDeep(self.max_depth));
        }
        self.skip_ws();
        let start = self.pos;
        match self.peek()? {
            b'/' => {
                self.pos += 1;
                Ok(Obj::Name(self.name_body()?))
            }
            b'(' => self.literal_string(),
            b'<' => {
                if self.buf.get(self.pos + 1) == Some(&b'<') {
                    Ok(Obj::Dict(self.dict_at_depth(depth)?))
                } else if self.pos + 1 >= self.buf.len() {
                    Err(self.eof())
                } else {
                    self.hex_string()
                }
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    if self.peek()? == b']' {
                        self.pos += 1;
                        return Ok(Obj::Array(items));
                    }
                    items.push(self.object_at_depth(depth + 1)?);
                }
            }
            b if is_regular(b) => {
                let t = self.regular()?;
                match t {
                    b"true" => return Ok(Obj::Bool(true)),
                    b"false" => return Ok(Obj::Bool(false)),
                    b"null" => return Ok(Obj::Null),
                    _ => {}
                }
                if let Some(n) = parse_uint(t) {
                    // Maybe `N G R`.
                    let save = self.pos;
                    if let Some(r) = self.try_ref(n)? {
                        return Ok(r);
                    }
                    self.pos = save;
                    return i64::try_from(n)
                        .map(Obj::Int)
                        .map_err(|_| SyntaxError::Invalid(start));
                }
                parse_number(t).ok_or(SyntaxError::Invalid(start))
            }
            _ => Err(SyntaxError::Invalid(start)),
        }
    }

    /// Skips white space; whether the input ends there (an error where the window ends
    /// before the input does: more bytes are needed).
    fn at_end(&mut self) -> PResult<bool> {
        self.skip_ws();
        if self.pos < self.buf.len() {
            Ok(false)
        } else if self.at_eof {
            Ok(true)
        } else {
            Err(SyntaxError::Eof)
        }
    }

    fn try_ref(&mut self, n: u64) -> PResult<Option<Obj>> {
        if self.at_end()? {
            return Ok(None);
        }
        if !self.buf[self.pos].is_ascii_digit() {
            return Ok(None);
        }
        let g = match parse_uint(self.regular()?) {
            Some(g) => g,
            None => return Ok(None),
        };
        if self.at_end()? {
            return Ok(None);
        }
        if self.buf[self.pos] != b'R' {
            return Ok(None);
        }
        let r_end = self.pos + 1;
        if r_end < self.buf.len() && is_regular(self.buf[r_end]) {
            return Ok(None);
        }
        if r_end >= self.buf.len() && !self.at_eof {
            return Err(SyntaxError::Eof);
        }
        self.pos = r_end;
        match (u32::try_from(n), u16::try_from(g)) {
            (Ok(n), Ok(g)) => Ok(Some(Obj::Ref(Ref::new(n, g)))),
            _ => Ok(Some(Obj::Null)),
        }
    }

    /// Parses a dictionary `<< … >>` at the current position (after white space).
    pub fn dict(&mut self) -> PResult<Dict> {
        self.skip_ws();
        self.dict_at_depth(0)
    }

    fn dict_at_depth(&mut self, depth: usize) -> PResult<Dict> {
        let start = self.pos;
        if !self.buf[self.pos..].starts_with(b"<<") {
            return if self.buf.len() - self.pos < 2 {
                Err(self.eof())
            } else {
                Err(SyntaxError::Invalid(start))
            };
        }
        self.pos += 2;
        let mut entries = Vec::new();
        loop {
            self.skip_ws();
            let kstart = self.pos;
            match self.peek()? {
                b'>' => {
                    if self.buf.get(self.pos + 1) == Some(&b'>') {
                        self.pos += 2;
                        return Ok(Dict {
                            entries,
                            span: start..self.pos,
                        });
                    }
                    return Err(if self.pos + 1 >= self.buf.len() {
                        self.eof()
                    } else {
                        SyntaxError::Invalid(self.pos)
                    });
                }
                b'/' => {
                    self.pos += 1;
                    let key = self.name_body()?;
                    let value = self.object_at_depth(depth + 1)?;
                    entries.push((key, value, kstart..self.pos));
                }
                _ => return Err(SyntaxError::Invalid(kstart)),
            }
        }
    }

    fn name_body(&mut self) -> PResult<Vec<u8>> {
        let raw = self.regular()?;
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'#' && i + 2 < raw.len() {
                // A malformed escape is kept literally, as qpdf does.
                if let (Some(h), Some(l)) = (hex_val(raw[i + 1]), hex_val(raw[i + 2])) {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
            }
            out.push(raw[i]);
            i += 1;
        }
        Ok(out)
    }

    fn literal_string(&mut self) -> PResult<Obj> {
        self.pos += 1;
        let mut depth = 1usize;
        let mut out = Vec::new();
        while self.pos < self.buf.len() {
            let b = self.buf[self.pos];
            self.pos += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(Obj::Str(out));
                    }
                    out.push(b);
                }
                b'\\' => {
                    let Some(&e) = self.buf.get(self.pos) else {
                        break;
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'\r' => {
                            if self.buf.get(self.pos) == Some(&b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.buf.get(self.pos) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((v & 0xff) as u8);
                        }
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
        Err(self.eof())
    }

    fn hex_string(&mut self) -> PResult<Obj> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        let mut hi: Option<u8> = None;
        while self.pos < self.buf.len() {
            let b = self.buf[self.pos];
            self.pos += 1;
            if b == b'>' {
                if let Some(h) = hi {
                    out.push(h << 4);
                }
                return Ok(Obj::Str(out));
            }
            if is_white(b) {
                continue;
            }
            let v = hex_val(b).ok_or(SyntaxError::Invalid(start))?;
            match hi.take() {
                Some(h) => out.push(h << 4 | v),
                None => hi = Some(v),
            }
        }
        Err(self.eof())
    }

    /// After a stream dictionary: consumes `stream` and its end-of-line and returns the
    /// position where the data starts, or `None` when no `stream` keyword follows.
    pub fn stream_start(&mut self) -> PResult<Option<usize>> {
        self.skip_ws();
        if self.buf.len() - self.pos < 7 {
            return if self.at_eof {
                Ok(None)
            } else {
                Err(SyntaxError::Eof)
            };
        }
        if !self.buf[self.pos..].starts_with(b"stream") {
            return Ok(None);
        }
        let mut p = self.pos + 6;
        match self.buf.get(p) {
            Some(b'\r') => {
                p += 1;
                if self.buf.get(p) == Some(&b'\n') {
                    p += 1;
                }
            }
            Some(b'\n') => p += 1,
            // Lenient like qpdf: some writers put a space before the newline.
            Some(b' ') => {
                p += 1;
                while self.buf.get(p) == Some(&b' ') {
                    p += 1;
                }
                if self.buf.get(p) == Some(&b'\r') {
                    p += 1;
                }
                if self.buf.get(p) == Some(&b'\n') {
                    p += 1;
                }
            }
            None => return Err(self.eof()),
            _ => return Ok(None),
        }
        self.pos = p;
        Ok(Some(p))
    }
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Parses a token made only of ASCII digits.
pub fn parse_uint(t: &[u8]) -> Option<u64> {
    if t.is_empty() || t.len() > 19 || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(t).ok()?.parse().ok()
}

fn parse_number(t: &[u8]) -> Option<Obj> {
    let s = std::str::from_utf8(t).ok()?;
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty()
        || !body.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || body.bytes().filter(|b| *b == b'.').count() > 1
    {
        return None;
    }
    if !body.contains('.') {
        return s.parse().ok().map(Obj::Int);
    }
    let v: f64 = if body == "." { 0.0 } else { s.parse().ok()? };
    Some(Obj::Real(v))
}

/// Writes a PDF text string for ASCII text as a literal string, otherwise as UTF-16BE with a
/// byte-order mark in hexadecimal (§7.9.2.2).
pub fn text_string(s: &str) -> Vec<u8> {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        let mut out = vec![b'('];
        for b in s.bytes() {
            if matches!(b, b'(' | b')' | b'\\') {
                out.push(b'\\');
            }
            out.push(b);
        }
        out.push(b')');
        out
    } else {
        let mut out = b"<FEFF".to_vec();
        for u in s.encode_utf16() {
            out.extend_from_slice(format!("{u:04X}").as_bytes());
        }
        out.push(b'>');
        out
    }
}

/// Decodes a PDF text string: UTF-16BE with BOM, UTF-8 with BOM (PDF 2.0), else
/// PDFDocEncoding (read as Latin-1, which agrees for the ASCII range used by numbers and URLs).
pub fn decode_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    bytes.iter().map(|&b| b as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &[u8]) -> Obj {
        Parser::new(s, 0, true).object().unwrap()
    }

    #[test]
    fn objects() {
        assert_eq!(parse(b"12 0 R"), Obj::Ref(Ref::new(12, 0)));
        assert_eq!(parse(b"12 0"), Obj::Int(12));
        assert_eq!(parse(b"-3.5"), Obj::Real(-3.5));
        assert_eq!(parse(b"/A#20B"), Obj::Name(b"A B".to_vec()));
        assert_eq!(parse(b"(a(b)\\)\\101)"), Obj::Str(b"a(b))A".to_vec()));
        assert_eq!(parse(b"<48 65 6>"), Obj::Str(b"He`".to_vec()));
        let d = parse(b"<< /Type /Catalog /Pages 2 0 R /K [1 2 (x)] >>");
        let d = d.as_dict().unwrap();
        assert_eq!(d.get(b"Pages"), Some(&Obj::Ref(Ref::new(2, 0))));
        assert_eq!(d.entries[0].2, 3..17);
        assert_eq!(d.span, 0..46);
    }

    #[test]
    fn truncated_window_asks_for_more() {
        assert_eq!(
            Parser::new(b"<< /A 1", 0, false).object(),
            Err(SyntaxError::Eof)
        );
        assert!(matches!(
            Parser::new(b"<< /A 1", 0, true).object(),
            Err(SyntaxError::Invalid(_))
        ));
        assert_eq!(
            Parser::new(b"12 0", 0, false).object(),
            Err(SyntaxError::Eof)
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let s = vec![b'['; 10_000];
        assert!(Parser::new(&s, 0, true).object().is_err());
    }

    #[test]
    fn text_strings() {
        assert_eq!(text_string("a(b)"), b"(a\\(b\\))".to_vec());
        assert_eq!(text_string("é"), b"<FEFF00E9>".to_vec());
        assert_eq!(decode_text(&[0xFE, 0xFF, 0, b'a']), "a");
    }
}
