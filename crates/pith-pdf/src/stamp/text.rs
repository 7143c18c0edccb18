//! Number text in page 1's content (`TextScan`): the strings shown between `BT` and `ET`,
//! read byte for byte (how simple fonts encode letters and digits), searched for `pith:` and
//! 8 base32 characters or a full `pith:YYYY:<26>`. The scanner is fed a stream a chunk at a
//! time as it is decoded, and holds its state between chunks and a window of the text shown
//! (a number is at most 37 bytes long with what ends it), never the stream.
//!
//! It reads bytes only; [`super::printed`] decides which streams to read and what a found
//! number means.

use crate::vocab::NUMBER_SCHEME;

/// Number texts kept per page at most: a real page prints one or two; a stream that shows
/// millions is not held whole.
const MAX_TEXTS: usize = 4096;
/// Text shown is searched, and all but its last few bytes dropped, whenever it grows to this.
const TEXT_WINDOW: usize = 64 << 10;
/// What a number may still need past a position of the text to be told: the scheme, 31
/// characters of the full form and the one that ends it.
const LOOKAHEAD: usize = 5 + 32;

/// Where the scanner is in the content.
#[derive(Debug, Clone, Copy, Default)]
enum State {
    /// Between tokens.
    #[default]
    Normal,
    /// In a `%` comment, to the end of the line.
    Comment,
    /// In a literal string `depth` parentheses deep, with an escape under way.
    Str { depth: u32, esc: Esc },
    /// After a `<`: a hexadecimal string, or the `<<` of a dictionary.
    Lt,
    /// In a hexadecimal string, with the high digit of a byte read.
    Hex { hi: Option<u8> },
    /// In a keyword of `len` bytes, of which the first two.
    Word { len: usize, head: [u8; 2] },
    /// In inline image data after `ID`: the last bytes read (up to three), until white space
    /// and `EI`.
    Inline { last: [u8; 3], have: usize },
}

/// An escape inside a literal string.
#[derive(Debug, Clone, Copy)]
enum Esc {
    None,
    /// After the backslash.
    Backslash,
    /// In an octal escape: its value so far and digits read.
    Octal {
        v: u32,
        k: u8,
    },
}

/// The number texts of a content stream, fed in chunks ([`TextScan::feed`]) and collected at
/// the end ([`TextScan::finish`]): the same texts, in the same order, however the stream is
/// cut.
#[derive(Debug, Default)]
pub(crate) struct TextScan {
    state: State,
    /// Text shown since the last `BT` or `ET`, less what has been searched.
    text: Vec<u8>,
    out: Vec<String>,
}

impl TextScan {
    /// Reads the next bytes of the stream.
    pub(crate) fn feed(&mut self, data: &[u8]) {
        let mut i = 0;
        while i < data.len() {
            // Runs of bytes that change nothing but a count are taken at once (most of a
            // page's content: operands, keywords, the letters of strings).
            let rest = &data[i..];
            let run = match self.state {
                State::Normal => rest
                    .iter()
                    .position(|&b| matches!(b, b'%' | b'(' | b'<') || b.is_ascii_alphabetic()),
                State::Comment => rest.iter().position(|&b| b == b'\n' || b == b'\r'),
                State::Word { len, head } => {
                    let n = rest
                        .iter()
                        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'*'))
                        .unwrap_or(rest.len());
                    let mut head = head;
                    for (k, &b) in rest[..n.min(2)].iter().enumerate() {
                        if len + k < 2 {
                            head[len + k] = b;
                        }
                    }
                    self.state = State::Word { len: len + n, head };
                    Some(n)
                }
                State::Str { esc: Esc::None, .. } => {
                    // Most of a page's content is the letters of its strings.
                    let n = memchr::memchr3(b'\\', b'(', b')', rest).unwrap_or(rest.len());
                    if n > 0 {
                        self.text.extend_from_slice(&rest[..n]);
                        self.push_done();
                    }
                    Some(n)
                }
                State::Inline { last, have: 3 } => match inline_skip(last, rest) {
                    n if n >= 3 => {
                        self.state = State::Inline {
                            last: [rest[n - 3], rest[n - 2], rest[n - 1]],
                            have: 3,
                        };
                        Some(n)
                    }
                    _ => Some(0),
                },
                _ => Some(0),
            };
            match run {
                None => return,
                Some(n) => i += n,
            }
            if i < data.len() {
                self.byte(data[i]);
                i += 1;
            }
        }
    }

    /// The number texts found, in order, once the stream has ended.
    pub(crate) fn finish(mut self) -> Vec<String> {
        match self.state {
            State::Str {
                esc: Esc::Backslash,
                ..
            } => self.push(b'\\'),
            State::Str {
                esc: Esc::Octal { v, .. },
                ..
            } => self.push((v & 0xff) as u8),
            State::Hex { hi: Some(h) } => self.push(h << 4),
            _ => {}
        }
        self.flush();
        self.out
    }

    fn push(&mut self, b: u8) {
        self.text.push(b);
        self.push_done();
    }

    /// Searches the text shown when it has grown to the window, keeping what a number
    /// starting near its end may still need.
    fn push_done(&mut self) {
        if self.text.len() >= TEXT_WINDOW {
            let done = find_numbers(&self.text, &mut self.out, false);
            self.text.drain(..done);
            self.out.truncate(MAX_TEXTS);
        }
    }

    fn flush(&mut self) {
        find_numbers(&self.text, &mut self.out, true);
        self.out.truncate(MAX_TEXTS);
        self.text.clear();
    }

    fn byte(&mut self, b: u8) {
        // A byte that ends a token is read again in the state that follows.
        loop {
            match self.state {
                State::Normal => {
                    self.state = match b {
                        b'%' => State::Comment,
                        b'(' => State::Str {
                            depth: 1,
                            esc: Esc::None,
                        },
                        b'<' => State::Lt,
                        c if c.is_ascii_alphabetic() => State::Word {
                            len: 1,
                            head: [c, 0],
                        },
                        _ => State::Normal,
                    };
                    return;
                }
                State::Comment => {
                    if b == b'\n' || b == b'\r' {
                        self.state = State::Normal;
                    }
                    return;
                }
                State::Str { depth, esc } => {
                    let plain = State::Str {
                        depth,
                        esc: Esc::None,
                    };
                    match esc {
                        Esc::Backslash => {
                            self.state = plain;
                            match b {
                                b'n' => self.push(b'\n'),
                                b'r' | b't' | b'b' | b'f' => self.push(b' '),
                                b'0'..=b'7' => {
                                    self.state = State::Str {
                                        depth,
                                        esc: Esc::Octal {
                                            v: u32::from(b - b'0'),
                                            k: 1,
                                        },
                                    };
                                }
                                b'\r' | b'\n' => {}
                                c => self.push(c),
                            }
                            return;
                        }
                        Esc::Octal { v, k } => {
                            if (b'0'..=b'7').contains(&b) {
                                let v = v * 8 + u32::from(b - b'0');
                                if k + 1 == 3 {
                                    self.push((v & 0xff) as u8);
                                    self.state = plain;
                                } else {
                                    self.state = State::Str {
                                        depth,
                                        esc: Esc::Octal { v, k: k + 1 },
                                    };
                                }
                                return;
                            }
                            self.push((v & 0xff) as u8);
                            self.state = plain;
                        }
                        Esc::None => {
                            match b {
                                b'\\' => {
                                    self.state = State::Str {
                                        depth,
                                        esc: Esc::Backslash,
                                    }
                                }
                                b'(' => {
                                    self.state = State::Str {
                                        depth: depth + 1,
                                        esc: Esc::None,
                                    };
                                    self.push(b'(');
                                }
                                b')' if depth == 1 => self.state = State::Normal,
                                b')' => {
                                    self.state = State::Str {
                                        depth: depth - 1,
                                        esc: Esc::None,
                                    };
                                    self.push(b')');
                                }
                                c => self.push(c),
                            }
                            return;
                        }
                    }
                }
                State::Lt => {
                    if b == b'<' {
                        self.state = State::Normal;
                        return;
                    }
                    self.state = State::Hex { hi: None };
                }
                State::Hex { hi } => {
                    if b == b'>' {
                        if let Some(h) = hi {
                            self.push(h << 4);
                        }
                        self.state = State::Normal;
                    } else if let Some(v) = (b as char).to_digit(16) {
                        let v = v as u8;
                        match hi {
                            Some(h) => {
                                self.push(h << 4 | v);
                                self.state = State::Hex { hi: None };
                            }
                            None => self.state = State::Hex { hi: Some(v) },
                        }
                    }
                    return;
                }
                State::Word { len, head } => {
                    if b.is_ascii_alphanumeric() || b == b'*' {
                        let mut head = head;
                        if len < 2 {
                            head[len] = b;
                        }
                        self.state = State::Word { len: len + 1, head };
                        return;
                    }
                    self.state = State::Normal;
                    match (len, &head) {
                        (2, b"BT" | b"ET") => self.flush(),
                        // Inline image data is binary: skip to its `EI`.
                        (2, b"ID") => {
                            self.state = State::Inline {
                                last: [b, 0, 0],
                                have: 1,
                            };
                            return;
                        }
                        _ => {}
                    }
                }
                State::Inline { mut last, have } => {
                    if have < 3 {
                        last[have] = b;
                        self.state = State::Inline {
                            last,
                            have: have + 1,
                        };
                        return;
                    }
                    if last[0].is_ascii_whitespace()
                        && &last[1..] == b"EI"
                        && !b.is_ascii_alphanumeric()
                    {
                        self.state = State::Normal;
                    } else {
                        self.state = State::Inline {
                            last: [last[1], last[2], b],
                            have,
                        };
                        return;
                    }
                }
            }
        }
    }
}

/// How many bytes of inline image data at the start of `rest` cannot end it, `last` being
/// the three bytes read before (0 or fewer than 3: go a byte at a time). The data ends at a
/// byte that follows white space and `EI`, so every byte before the first `E` of `rest` is
/// passed over at once (an image's data is most of a page's content where it has one), except
/// where `last` itself may be the start of its end.
fn inline_skip(last: [u8; 3], rest: &[u8]) -> usize {
    if last[2] == b'E' || last[1..] == *b"EI" {
        return 0;
    }
    memchr::memchr(b'E', rest).unwrap_or(rest.len())
}

/// The number texts (`pith:` and 8 base32 characters, or a full `pith:YYYY:<26>`) in the
/// strings each text object of `data` shows, in order.
pub fn number_texts(data: &[u8]) -> Vec<String> {
    let mut s = TextScan::default();
    s.feed(data);
    s.finish()
}

fn is_b32(c: u8) -> bool {
    c.is_ascii_uppercase() || (b'2'..=b'7').contains(&c)
}

/// How long the number after a scheme is in `rest` (what follows `pith:`): 31 for a full
/// `YYYY:<26 base32>`, 8 for a short `<8 base32>`, each ending where the base32 characters
/// do; 0 for neither.
fn number_after(rest: &[u8]) -> usize {
    let full = rest.len() >= 31
        && rest[..4].iter().all(u8::is_ascii_digit)
        && rest[4] == b':'
        && rest[5..31].iter().all(|&c| is_b32(c))
        && rest.get(31).is_none_or(|&c| !is_b32(c));
    let short = rest.len() >= 8
        && rest[..8].iter().all(|&c| is_b32(c))
        && rest.get(8).is_none_or(|&c| !is_b32(c));
    if full {
        31
    } else if short {
        8
    } else {
        0
    }
}

/// Appends the number texts in `text` to `out`; where it stopped. Words are often not
/// separated by spaces in the strings (a kern in a `TJ` array stands for the space), so a
/// number ends where the base32 characters do. With `all` false, it stops where a number
/// might still run past the end of `text` (more text is to come), so that searching a text
/// in pieces finds what searching it whole does.
fn find_numbers(text: &[u8], out: &mut Vec<String>, all: bool) -> usize {
    let p = NUMBER_SCHEME.as_bytes();
    // The first position searching stops at: where the scheme no longer fits, or where a
    // number might still run past the end.
    let mut end = (text.len() + 1).saturating_sub(p.len());
    if !all {
        end = end.min((text.len() + 1).saturating_sub(LOOKAHEAD));
    }
    let mut i = 0;
    while i < end {
        match memchr::memmem::find(&text[i..], p) {
            Some(k) if i + k < end => i += k,
            _ => return end,
        }
        let len = number_after(&text[i + p.len()..]);
        if len > 0 && out.len() < MAX_TEXTS {
            out.push(String::from_utf8_lossy(&text[i..i + p.len() + len]).into_owned());
        }
        i += p.len() + len;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_text_in_strings_of_a_text_object() {
        let data = b"BT /F1 9 Tf [(pi)-20(th:7BM)10(K4ZKT)] TJ ET\nBT (pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5) Tj ET BT <706974683A41414141414141413F> Tj ET (pith:) Tj BT (pith:abc) Tj ET BT [(See)-333(pith:DDDDDDDD)-334(for)] TJ ET";
        assert_eq!(
            number_texts(data),
            vec![
                "pith:7BMK4ZKT",
                "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5",
                "pith:AAAAAAAA",
                "pith:DDDDDDDD"
            ]
        );
        // Inline image data is not text.
        assert!(number_texts(b"BI /W 1 ID (pith:AAAAAAAA) EI BT ET").is_empty());
        // Octal escapes and comments.
        assert_eq!(
            number_texts(b"BT (\\160ith:BBBBBBBB) Tj % (pith:CCCCCCCC)\nET"),
            vec!["pith:BBBBBBBB"]
        );
    }

    /// The scanner as it was, reading the stream whole: the oracle the streaming one must
    /// agree with.
    fn whole(data: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        let mut text = Vec::new();
        let mut i = 0;
        let n = data.len();
        let flush = |text: &mut Vec<u8>, out: &mut Vec<String>| {
            find_numbers(text, out, true);
            text.clear();
        };
        while i < n {
            match data[i] {
                b'%' => {
                    while i < n && data[i] != b'\n' && data[i] != b'\r' {
                        i += 1;
                    }
                }
                b'(' => {
                    i += 1;
                    let mut depth = 1;
                    while i < n {
                        match data[i] {
                            b'\\' if i + 1 < n => {
                                i += 1;
                                let c = data[i];
                                match c {
                                    b'n' => text.push(b'\n'),
                                    b'r' | b't' | b'b' | b'f' => text.push(b' '),
                                    b'0'..=b'7' => {
                                        let mut v = 0u32;
                                        let mut k = 0;
                                        while k < 3 && i < n && (b'0'..=b'7').contains(&data[i]) {
                                            v = v * 8 + u32::from(data[i] - b'0');
                                            i += 1;
                                            k += 1;
                                        }
                                        i -= 1;
                                        text.push((v & 0xff) as u8);
                                    }
                                    b'\r' | b'\n' => {}
                                    _ => text.push(c),
                                }
                            }
                            b'(' => {
                                depth += 1;
                                text.push(b'(');
                            }
                            b')' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                                text.push(b')');
                            }
                            c => text.push(c),
                        }
                        i += 1;
                    }
                }
                b'<' if data.get(i + 1) == Some(&b'<') => i += 1,
                b'<' => {
                    i += 1;
                    let mut hex = Vec::new();
                    while i < n && data[i] != b'>' {
                        if data[i].is_ascii_hexdigit() {
                            hex.push(data[i]);
                        }
                        i += 1;
                    }
                    if hex.len() % 2 == 1 {
                        hex.push(b'0');
                    }
                    for p in hex.chunks(2) {
                        let s = std::str::from_utf8(p).unwrap_or("00");
                        text.push(u8::from_str_radix(s, 16).unwrap_or(0));
                    }
                }
                c if c.is_ascii_alphabetic() => {
                    let start = i;
                    while i < n && (data[i].is_ascii_alphanumeric() || data[i] == b'*') {
                        i += 1;
                    }
                    match &data[start..i] {
                        b"BT" | b"ET" => flush(&mut text, &mut out),
                        b"ID" => {
                            while i + 2 < n
                                && !(data[i].is_ascii_whitespace()
                                    && &data[i + 1..i + 3] == b"EI"
                                    && data.get(i + 3).is_none_or(|b| !b.is_ascii_alphanumeric()))
                            {
                                i += 1;
                            }
                            i += 3;
                        }
                        _ => {}
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        flush(&mut text, &mut out);
        out
    }

    /// The search for numbers as it was, a position at a time: the oracle of [`find_numbers`]'s
    /// scanning (which the whole read above shares), results and where it stops; both measure
    /// a number with [`number_after`].
    fn find_numbers_bytewise(text: &[u8], out: &mut Vec<String>, all: bool) -> usize {
        let p = NUMBER_SCHEME.as_bytes();
        let mut i = 0;
        while i + p.len() <= text.len() {
            if !all && i + LOOKAHEAD > text.len() {
                break;
            }
            if &text[i..i + p.len()] != p {
                i += 1;
                continue;
            }
            let len = number_after(&text[i + p.len()..]);
            if len > 0 && out.len() < MAX_TEXTS {
                out.push(String::from_utf8_lossy(&text[i..i + p.len() + len]).into_owned());
            }
            i += p.len() + len;
        }
        i
    }

    /// Numbers are found, and the search stops, where the position-at-a-time search finds
    /// and stops, at every length around the lookahead and with numbers at the ends.
    #[test]
    fn the_search_for_numbers_agrees_with_a_bytewise_search() {
        let pieces: [&[u8]; 9] = [
            b"pith:",
            b"7BMK4ZKT",
            b"2024:",
            b"7BMK4ZKTPUTUY3JKWBANNPOFR5",
            b"pi",
            b"th:",
            b"x",
            b" ",
            b"AB",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..5000 {
            let mut text = Vec::new();
            for _ in 0..(next() % 24) {
                text.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]);
            }
            for cut in 0..=text.len().min(80) {
                let t = &text[..text.len() - cut];
                for all in [false, true] {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    let stop = find_numbers(t, &mut a, all);
                    let want = find_numbers_bytewise(t, &mut b, all);
                    assert_eq!(
                        (stop, a),
                        (want, b),
                        "{:?} all={all}",
                        String::from_utf8_lossy(t)
                    );
                }
            }
        }
    }

    /// Fed in pieces of every size, the scanner finds what the whole read finds, on content
    /// built from the tokens that change its state, cut anywhere.
    #[test]
    fn a_stream_fed_in_pieces_finds_what_the_whole_read_finds() {
        let tokens: [&[u8]; 22] = [
            b"BT ",
            b"ET ",
            b"(pith:",
            b"7BMK4ZKT",
            b"2024:",
            b"7BMK4ZKTPUTUY3JKWBANNPOFR5",
            b") Tj ",
            b"\\",
            b"\\160",
            b"\\1",
            b"(",
            b")",
            b"<",
            b"<<",
            b">",
            b"7069",
            b"% c\n",
            b" ID ",
            b" EI ",
            b"EIx",
            b"AB",
            b"\n",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let mut data = Vec::new();
            for _ in 0..(next() % 40) {
                data.extend_from_slice(tokens[(next() % tokens.len() as u64) as usize]);
            }
            let want = whole(&data);
            for piece in [1, 2, 3, 7, 64] {
                let mut s = TextScan::default();
                for c in data.chunks(piece) {
                    s.feed(c);
                }
                assert_eq!(
                    s.finish(),
                    want,
                    "{:?} in pieces of {piece}",
                    String::from_utf8_lossy(&data)
                );
            }
        }
        // Inline image data long enough to be passed over, with `E`s, `EI`s that do not end
        // it (no white space before, a letter after) and the end at any cut.
        let mut image = b"BT (pith:AAAAAAAA) Tj ET BI /W 9 ID ".to_vec();
        for i in 0..5000u32 {
            image.push((i.wrapping_mul(2_654_435_761) >> 13) as u8);
            match i % 701 {
                0 => image.extend_from_slice(b"xEI "),
                1 => image.extend_from_slice(b" EIx"),
                2 => image.extend_from_slice(b"EEE (pith:BBBBBBBB) Tj"),
                _ => {}
            }
        }
        image.extend_from_slice(b"\n EI BT (pith:CCCCCCCC) Tj ET");
        let want = whole(&image);
        assert_eq!(want, ["pith:AAAAAAAA", "pith:CCCCCCCC"]);
        for piece in [1, 2, 3, 4, 5, 64, 4096] {
            let mut s = TextScan::default();
            for c in image.chunks(piece) {
                s.feed(c);
            }
            assert_eq!(s.finish(), want, "in pieces of {piece}");
        }
        // Text shown past the window is searched as it comes, with the same result.
        let mut long = b"BT (".to_vec();
        for i in 0..20_000 {
            long.extend_from_slice(if i % 997 == 0 {
                b"pith:AAAAAAAA"
            } else {
                b"words "
            });
        }
        long.extend_from_slice(b") Tj ET");
        let want = whole(&long);
        assert_eq!(want.len(), 21);
        assert_eq!(number_texts(&long), want);
    }
}
