//! A font as text extraction needs it (ISO 32000-2 §9.6–9.10): from a character code to its
//! text and its advance width. The text comes, in order of trust, from the font's `ToUnicode`
//! CMap (§9.10.3), its `/Encoding` (a standard encoding with `/Differences` by glyph name,
//! §9.6.5), the encoding built into an embedded Type 1 program (`dup 65 /A put`, as TeX's
//! fonts carry theirs), and last the code's ASCII reading. Widths come from `/Widths`, and for
//! a Type 0 font from its CIDFont's `/W` and `/DW` (§9.7.4.3).
//!
//! Every stream read here is decoded through the reader, inside the document's budget, and
//! held to a bound of its own; a CMap's ranges are counted, so a range of a million codes
//! costs what its size in the table costs, not more.

use std::collections::HashMap;

use super::glyphs::{text_of, Base};
use crate::reader::{Pdf, ReadAt};
use crate::syntax::{Dict, Obj};
use crate::Error;

/// Largest `ToUnicode` CMap or embedded font program decoded (real ones are under 100 KB and
/// 1 MB; the encoding of a Type 1 program sits in its first few kilobytes).
const MAX_FONT_STREAM: u64 = 8 << 20;
/// Longest line of text kept, in bytes: glyphs decoded past it add no text (they still
/// advance the pen).
pub(crate) const MAX_LINE_TEXT: usize = 16 << 10;
/// Most codes one CMap maps (two-byte fonts hold at most 65,536 codes).
const MAX_CMAP_CODES: usize = 1 << 16;
/// Longest text one code maps to, in UTF-16 units (a ligature or an accented letter is a few;
/// TN 5014 allows 512 bytes). A longer destination is cut to it.
const MAX_CODE_TEXT: usize = 64;
/// Most bytes of text one CMap's mappings hold together: beyond it, further codes read as
/// unmapped, so a range of 65,536 codes to long strings costs a bounded table.
const MAX_CMAP_TEXT: usize = 1 << 20;

/// A font's codes read as text.
#[derive(Debug, Default)]
pub(crate) struct Font {
    /// Codes are two bytes (a Type 0 font with a two-byte CMap, such as `Identity-H`).
    two_byte: bool,
    /// From the `ToUnicode` CMap.
    to_unicode: HashMap<u32, Box<str>>,
    /// From the encoding, for a simple font (256 entries).
    simple: Vec<Option<Box<str>>>,
    /// `/FirstChar` and `/Widths`, in thousandths of text space.
    first_char: u32,
    widths: Vec<f64>,
    /// A Type 0 font's widths by code, from its CIDFont's `/W`.
    cid_widths: HashMap<u32, f64>,
    /// The width of a code `/Widths` (or `/W`) does not give.
    missing_width: f64,
}

impl Font {
    /// Reads the font dictionary `d`.
    ///
    /// # Errors
    /// The reader's errors: the budget's refusal, a stop, an I/O error. A malformed font
    /// entry is read as absent (the codes then read as ASCII).
    pub(crate) fn read<R: ReadAt>(pdf: &Pdf<R>, d: &Dict) -> Result<Font, Error> {
        let subtype = d.get(b"Subtype").and_then(Obj::as_name).unwrap_or(b"");
        let mut f = Font {
            two_byte: subtype == b"Type0",
            missing_width: if subtype == b"Type0" { 1000.0 } else { 500.0 },
            ..Font::default()
        };
        if let Some(tu) = d.get(b"ToUnicode") {
            if let Some(data) = stream_data(pdf, tu, "a ToUnicode CMap")? {
                f.to_unicode = parse_cmap(&data);
            }
        }
        if f.two_byte {
            f.read_cid_widths(pdf, d)?;
            return Ok(f);
        }
        f.first_char = d
            .get(b"FirstChar")
            .and_then(Obj::as_int)
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(0);
        if let Obj::Array(ws) = pdf.resolve(d.get(b"Widths").unwrap_or(&Obj::Null))? {
            f.widths = ws.iter().take(256).map(number).collect();
        }
        let descriptor = match d.get(b"FontDescriptor") {
            Some(o) => pdf.resolve(o)?,
            None => Obj::Null,
        };
        if let Some(mw) = descriptor.as_dict().and_then(|fd| fd.get(b"MissingWidth")) {
            f.missing_width = number(mw);
        }
        // The base: the font program's own encoding, else Standard for Type 1.
        let mut simple: Vec<Option<Box<str>>> = vec![None; 256];
        let mut base = None;
        let encoding = match d.get(b"Encoding") {
            Some(o) => pdf.resolve(o)?,
            None => Obj::Null,
        };
        let (named, differences) = match &encoding {
            Obj::Name(n) => (Base::from_name(n), None),
            Obj::Dict(e) => (
                e.get(b"BaseEncoding")
                    .and_then(Obj::as_name)
                    .and_then(Base::from_name),
                Some(pdf.resolve(e.get(b"Differences").unwrap_or(&Obj::Null))?),
            ),
            _ => (None, None),
        };
        if let Some(b) = named {
            base = Some(b);
        } else if let Some(fd) = descriptor.as_dict() {
            if let Some(ff) = fd.get(b"FontFile") {
                if let Some(program) = stream_data(pdf, ff, "an embedded Type 1 font")? {
                    match builtin_encoding(&program) {
                        Some(Builtin::Standard) => base = Some(Base::Standard),
                        Some(Builtin::Names(names)) => {
                            for (code, name) in names {
                                simple[usize::from(code)] = text_of(&name).map(Into::into);
                            }
                        }
                        None => {}
                    }
                }
            }
        }
        if let Some(b) = base {
            for (code, slot) in simple.iter_mut().enumerate() {
                if slot.is_none() {
                    *slot = b.text(code as u8).map(Into::into);
                }
            }
        }
        if let Some(Obj::Array(diffs)) = differences {
            let mut code: i64 = 0;
            for o in diffs {
                match o {
                    Obj::Int(n) => code = n,
                    Obj::Name(name) => {
                        if let Some(slot) =
                            usize::try_from(code).ok().and_then(|c| simple.get_mut(c))
                        {
                            *slot = text_of(&name).map(Into::into);
                        }
                        code += 1;
                    }
                    _ => {}
                }
            }
        }
        f.simple = simple;
        Ok(f)
    }

    /// A Type 0 font's widths: its descendant CIDFont's `/DW` for every code, and `/W`'s
    /// (`c [w1 w2 …]` and `cfirst clast w`) by CID, which under `Identity-H` and `Identity-V`
    /// (the encodings XeTeX, LuaTeX and office software write) is the code itself; under
    /// another CMap the codes keep `/DW`. Without them every glyph would advance a full em,
    /// and the pen would run past the words drawn after it. At most [`MAX_CMAP_CODES`] widths
    /// are set, counted as they are written: ranges written over the same codes again and
    /// again cost no more than one table.
    fn read_cid_widths<R: ReadAt>(&mut self, pdf: &Pdf<R>, d: &Dict) -> Result<(), Error> {
        let identity = matches!(
            d.get(b"Encoding").and_then(Obj::as_name),
            Some(b"Identity-H" | b"Identity-V")
        );
        let Obj::Array(descendants) =
            pdf.resolve(d.get(b"DescendantFonts").unwrap_or(&Obj::Null))?
        else {
            return Ok(());
        };
        let Some(first) = descendants.first() else {
            return Ok(());
        };
        let cid_font = pdf.resolve(first)?;
        let Some(cd) = cid_font.as_dict() else {
            return Ok(());
        };
        if let Some(dw) = cd.get(b"DW") {
            self.missing_width = number(&pdf.resolve(dw)?);
        }
        if !identity {
            return Ok(());
        }
        let Obj::Array(w) = pdf.resolve(cd.get(b"W").unwrap_or(&Obj::Null))? else {
            return Ok(());
        };
        let code = |o: &Obj| {
            o.as_int()
                .and_then(|v| u32::try_from(v).ok())
                .filter(|&c| c <= 0xFFFF)
        };
        let mut i = 0;
        let mut written = 0;
        while i < w.len() && written < MAX_CMAP_CODES {
            let Some(start) = code(&w[i]) else { break };
            match w.get(i + 1).map(|o| pdf.resolve(o)).transpose()? {
                Some(Obj::Array(ws)) => {
                    for (k, wk) in ws.iter().enumerate().take(MAX_CMAP_CODES) {
                        let Some(c) = u32::try_from(k).ok().and_then(|k| start.checked_add(k))
                        else {
                            break;
                        };
                        if c > 0xFFFF || written >= MAX_CMAP_CODES {
                            break;
                        }
                        written += 1;
                        self.cid_widths.insert(c, number(wk));
                    }
                    i += 2;
                }
                Some(last) => {
                    let (Some(end), Some(width)) = (code(&last), w.get(i + 2)) else {
                        break;
                    };
                    let width = number(width);
                    for c in start..=end {
                        if written >= MAX_CMAP_CODES {
                            break;
                        }
                        written += 1;
                        self.cid_widths.insert(c, width);
                    }
                    i += 3;
                }
                None => break,
            }
        }
        Ok(())
    }

    /// Appends the text of the codes in `bytes` to `out` and gives each code's advance in
    /// thousandths of text space and whether it is the single-byte code 32 (which word
    /// spacing applies to), through `advance`.
    pub(crate) fn decode(
        &self,
        bytes: &[u8],
        out: &mut String,
        mut advance: impl FnMut(f64, bool),
    ) {
        let step = if self.two_byte { 2 } else { 1 };
        for c in bytes.chunks(step) {
            let code = c.iter().fold(0u32, |a, &b| a << 8 | u32::from(b));
            let full = out.len() >= MAX_LINE_TEXT;
            match self.to_unicode.get(&code) {
                _ if full => {}
                Some(t) => out.push_str(t),
                None if !self.two_byte => match self.simple.get(code as usize) {
                    Some(Some(t)) => out.push_str(t),
                    _ if (32..127).contains(&code) => out.push(char::from(code as u8)),
                    _ => {}
                },
                None => {}
            }
            let w = if self.two_byte {
                self.cid_widths.get(&code).copied()
            } else {
                code.checked_sub(self.first_char)
                    .and_then(|i| self.widths.get(i as usize))
                    .copied()
            }
            .unwrap_or(self.missing_width);
            advance(w, !self.two_byte && code == 32);
        }
    }
}

fn number(o: &Obj) -> f64 {
    match o {
        Obj::Int(i) => *i as f64,
        Obj::Real(r) => *r,
        _ => 0.0,
    }
}

/// The decoded data of the stream `o` refers to, or `None` when it is not a stream.
fn stream_data<R: ReadAt>(pdf: &Pdf<R>, o: &Obj, what: &str) -> Result<Option<Vec<u8>>, Error> {
    let Some(r) = o.as_ref() else {
        return Ok(None);
    };
    let Some(f) = pdf.get(r.num)? else {
        return Ok(None);
    };
    if f.stream.is_none() {
        return Ok(None);
    }
    match pdf.decoded(&f, what, MAX_FONT_STREAM) {
        Ok(d) => Ok(Some(d)),
        // A font that will not decode reads as absent; the budget's refusal and a stop do not.
        Err(e)
            if matches!(
                e.kind(),
                crate::ErrorKind::OverLimit { .. } | crate::ErrorKind::Stopped(_)
            ) =>
        {
            Err(e)
        }
        Err(_) => Ok(None),
    }
}

/// A token of a CMap (§9.10.3, Adobe TN 5014): hex strings and brackets matter, words name
/// the sections.
enum CTok<'a> {
    Hex(Vec<u8>),
    Open,
    Close,
    Word(&'a [u8]),
}

fn cmap_tokens(data: &[u8]) -> impl Iterator<Item = CTok<'_>> {
    let mut i = 0;
    std::iter::from_fn(move || loop {
        let b = *data.get(i)?;
        match b {
            b'<' => {
                let end = data[i..]
                    .iter()
                    .position(|&c| c == b'>')
                    .map_or(data.len(), |p| i + p);
                let digits: Vec<u8> = data[i + 1..end]
                    .iter()
                    .filter(|c| c.is_ascii_hexdigit())
                    .copied()
                    .collect();
                i = end + 1;
                let bytes = digits
                    .chunks(2)
                    .map(|p| {
                        let h = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                        h(p[0]) << 4 | p.get(1).map_or(0, |&c| h(c))
                    })
                    .collect();
                return Some(CTok::Hex(bytes));
            }
            b'[' => {
                i += 1;
                return Some(CTok::Open);
            }
            b']' => {
                i += 1;
                return Some(CTok::Close);
            }
            b'%' => {
                while i < data.len() && !matches!(data[i], b'\n' | b'\r') {
                    i += 1;
                }
            }
            b'(' => {
                // Strings appear only in the CMap's header (its name, registry); skip them.
                while i < data.len() && data[i] != b')' {
                    i += 1;
                }
                i += 1;
            }
            _ if b.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < data.len() && !b"<>[]()% \t\r\n\x0c\0".contains(&data[i]) {
                    i += 1;
                }
                if i == start {
                    i += 1;
                }
                return Some(CTok::Word(&data[start..i]));
            }
        }
    })
}

fn utf16(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks(2)
        .take(MAX_CODE_TEXT)
        .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
        .collect();
    String::from_utf16_lossy(&units)
}

fn code_of(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .take(4)
        .fold(0u32, |a, &b| a << 8 | u32::from(b))
}

/// A CMap's table as it is filled: its codes, their text's bytes and the mappings tried.
struct Table {
    map: HashMap<u32, Box<str>>,
    text: usize,
    steps: usize,
}

impl Table {
    /// Maps `code` to `text` while the table is within its bounds.
    fn put(&mut self, code: u32, text: String) {
        self.steps += 1;
        if self.map.len() < MAX_CMAP_CODES && self.text + text.len() <= MAX_CMAP_TEXT {
            self.text += text.len();
            self.map.insert(code, text.into());
        }
    }

    /// Whether no more mappings are read: the table holds [`MAX_CMAP_CODES`] codes or
    /// [`MAX_CMAP_TEXT`] bytes, or four times as many mappings were tried (ranges that map the
    /// same codes again and again).
    fn full(&self) -> bool {
        self.map.len() >= MAX_CMAP_CODES
            || self.text >= MAX_CMAP_TEXT
            || self.steps >= 4 * MAX_CMAP_CODES
    }
}

/// The `bfchar` and `bfrange` mappings of a `ToUnicode` CMap, within [`MAX_CMAP_CODES`]
/// codes and [`MAX_CMAP_TEXT`] bytes of text.
fn parse_cmap(data: &[u8]) -> HashMap<u32, Box<str>> {
    let mut t = Table {
        map: HashMap::new(),
        text: 0,
        steps: 0,
    };
    let mut toks = cmap_tokens(data);
    let mut section = None::<bool>; // Some(false): bfchar, Some(true): bfrange
    let mut hexes: Vec<Vec<u8>> = Vec::new();
    while let Some(tok) = toks.next() {
        if t.full() {
            break;
        }
        match tok {
            CTok::Word(b"beginbfchar") => (section, hexes) = (Some(false), Vec::new()),
            CTok::Word(b"beginbfrange") => (section, hexes) = (Some(true), Vec::new()),
            CTok::Word(b"endbfchar" | b"endbfrange") => section = None,
            CTok::Hex(h) if section == Some(false) => {
                hexes.push(h);
                if let [src, dst] = &hexes[..] {
                    t.put(code_of(src), utf16(dst));
                    hexes.clear();
                }
            }
            CTok::Hex(h) if section == Some(true) => {
                hexes.push(h);
                if let [lo, hi, dst] = &hexes[..] {
                    let (lo, hi) = (code_of(lo), code_of(hi));
                    let mut dst = dst.clone();
                    for code in lo..=hi.min(lo.saturating_add(MAX_CMAP_CODES as u32)) {
                        if t.full() {
                            break;
                        }
                        t.put(code, utf16(&dst));
                        // The last byte counts up (TN 5014 §1.4.2).
                        if let Some(last) = dst.last_mut() {
                            *last = last.wrapping_add(1);
                        }
                    }
                    hexes.clear();
                }
            }
            CTok::Open if section == Some(true) && hexes.len() == 2 => {
                let lo = code_of(&hexes[0]);
                let mut code = lo;
                for tok in toks.by_ref() {
                    match tok {
                        CTok::Hex(d) => {
                            t.put(code, utf16(&d));
                            code = code.saturating_add(1);
                        }
                        _ => break,
                    }
                }
                hexes.clear();
            }
            _ => {}
        }
    }
    t.map
}

/// The encoding an embedded Type 1 program declares in its clear-text part.
#[derive(Debug, PartialEq)]
enum Builtin {
    Standard,
    Names(Vec<(u8, Vec<u8>)>),
}

/// Reads `/Encoding StandardEncoding def` or the `dup CODE /NAME put` lines from the clear
/// text of a Type 1 program (before `eexec`).
fn builtin_encoding(program: &[u8]) -> Option<Builtin> {
    let clear = match find(program, b"eexec") {
        Some(i) => &program[..i],
        None => program,
    };
    let at = find(clear, b"/Encoding")?;
    let rest = &clear[at + 9..];
    let head = &rest[..rest.len().min(40)];
    if find(head, b"StandardEncoding").is_some() {
        return Some(Builtin::Standard);
    }
    // The encoding ends at its `readonly def` (found once: each `dup` is then read in one
    // pass, however many a program holds).
    let rest = match find(rest, b"readonly def") {
        Some(e) => &rest[..e],
        None => rest,
    };
    let mut names = Vec::new();
    let mut i = 0;
    while let Some(p) = find(&rest[i..], b"dup ") {
        let s = &rest[i + p + 4..];
        let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
        let code = std::str::from_utf8(&s[..digits])
            .ok()
            .and_then(|d| d.parse::<u8>().ok());
        let after = &s[digits..];
        let after = &after[after.iter().take_while(|b| **b == b' ').count()..];
        if let (Some(code), Some(name)) = (code, after.strip_prefix(b"/")) {
            let len = name
                .iter()
                .take_while(|b| !b.is_ascii_whitespace() && !b"/[]{}()<>%".contains(b))
                .count();
            names.push((code, name[..len].to_vec()));
        }
        i += p + 4;
        if names.len() > 256 {
            break;
        }
    }
    Some(Builtin::Names(names))
}

fn find(h: &[u8], n: &[u8]) -> Option<usize> {
    h.windows(n.len()).position(|w| w == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmap_bfchar_bfrange_and_arrays() {
        let cmap = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
            /CMapName /Adobe-Identity-UCS def\n1 begincodespacerange <00> <FF> endcodespacerange\n\
            2 beginbfchar <01> <0066006C> <02> <0041> endbfchar\n\
            2 beginbfrange <30> <32> <0030> <10> <11> [<0078> <0079>] endbfrange\nendcmap";
        let m = parse_cmap(cmap);
        assert_eq!(m.get(&1).map(|s| &**s), Some("fl"));
        assert_eq!(m.get(&2).map(|s| &**s), Some("A"));
        assert_eq!(m.get(&0x31).map(|s| &**s), Some("1"));
        assert_eq!(m.get(&0x32).map(|s| &**s), Some("2"));
        assert_eq!(m.get(&0x11).map(|s| &**s), Some("y"));
    }

    #[test]
    fn cmap_range_is_bounded() {
        let m = parse_cmap(b"beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange");
        assert!(m.len() <= MAX_CMAP_CODES);
    }

    #[test]
    fn type1_builtin_encoding() {
        let p = b"%!PS-AdobeFont-1.0: CMR10\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n\
            dup 12 /fi put\ndup 48 /zero put\ndup 65 /A put\nreadonly def\ncurrentfile eexec\x00\x01";
        assert_eq!(
            builtin_encoding(p),
            Some(Builtin::Names(vec![
                (12, b"fi".to_vec()),
                (48, b"zero".to_vec()),
                (65, b"A".to_vec())
            ]))
        );
        assert_eq!(
            builtin_encoding(b"/Encoding StandardEncoding def\ncurrentfile eexec"),
            Some(Builtin::Standard)
        );
    }
}
