//! Glyph names to text (the part of the Adobe Glyph List that TeX's fonts and the standard
//! encodings use) and the standard single-byte encodings (ISO 32000-2 Annex D), as far as
//! they differ from ASCII in the printable range or fill the upper half with characters a
//! reference list prints.
//!
//! Names outside the list give `None`, and the caller falls back to the code's ASCII reading:
//! a reference list's identifiers are ASCII, so what matters is that letters, digits and the
//! punctuation of DOIs and URLs come out right.

/// The text of glyph `name`: a letter or digit as itself, `uniXXXX` and `uXXXX[XX]` by code
/// point, ligatures as their letters, punctuation by its Adobe name; accents alone give the
/// empty string (TeX draws an accent as a glyph of its own).
pub fn text_of(name: &[u8]) -> Option<String> {
    let name = std::str::from_utf8(name).ok()?;
    // `a.sc`, `one.oldstyle`, `f_f_i`: the base name before a suffix; ligatures by their parts.
    let base = name.split('.').next().unwrap_or(name);
    if base.contains('_') && base.len() > 1 {
        return base.split('_').map(text_of_base).collect();
    }
    text_of_base(base)
}

fn text_of_base(name: &str) -> Option<String> {
    if name.len() == 1 && name.as_bytes()[0].is_ascii_alphabetic() {
        return Some(name.to_owned());
    }
    if let Some(hex) = name.strip_prefix("uni") {
        if hex.len() >= 4 && hex.len() % 4 == 0 {
            return hex
                .as_bytes()
                .chunks(4)
                .map(|c| {
                    let c = std::str::from_utf8(c).ok()?;
                    char::from_u32(u32::from_str_radix(c, 16).ok()?)
                })
                .collect();
        }
    }
    if let Some(hex) = name.strip_prefix('u') {
        if (4..=6).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return char::from_u32(u32::from_str_radix(hex, 16).ok()?).map(String::from);
        }
    }
    let s = match name {
        "zero" => "0",
        "one" => "1",
        "two" => "2",
        "three" => "3",
        "four" => "4",
        "five" => "5",
        "six" => "6",
        "seven" => "7",
        "eight" => "8",
        "nine" => "9",
        "space" | "visiblespace" | "nbspace" => " ",
        "exclam" | "exclamdown" => "!",
        "quotedbl" | "quotedblleft" | "quotedblright" | "quotedblbase" => "\"",
        "numbersign" => "#",
        "dollar" => "$",
        "percent" => "%",
        "ampersand" => "&",
        "quotesingle" | "quoteright" | "quoteleft" | "quotesinglbase" => "'",
        "parenleft" => "(",
        "parenright" => ")",
        "asterisk" => "*",
        "plus" => "+",
        "comma" => ",",
        "hyphen" | "sfthyphen" | "hyphenchar" => "-",
        "minus" => "\u{2212}",
        "period" => ".",
        "slash" => "/",
        "colon" => ":",
        "semicolon" => ";",
        "less" | "guilsinglleft" => "<",
        "equal" => "=",
        "greater" | "guilsinglright" => ">",
        "question" | "questiondown" => "?",
        "at" => "@",
        "bracketleft" => "[",
        "backslash" => "\\",
        "bracketright" => "]",
        "asciicircum" => "^",
        "underscore" => "_",
        "grave" | "acute" | "circumflex" | "tilde" | "macron" | "breve" | "dotaccent"
        | "dieresis" | "ring" | "cedilla" | "hungarumlaut" | "ogonek" | "caron" => "",
        "braceleft" => "{",
        "bar" => "|",
        "braceright" => "}",
        "asciitilde" => "~",
        "endash" => "\u{2013}",
        "emdash" => "\u{2014}",
        "bullet" => "\u{2022}",
        "ellipsis" => "...",
        "ff" => "ff",
        "fi" => "fi",
        "fl" => "fl",
        "ffi" => "ffi",
        "ffl" => "ffl",
        "dotlessi" => "i",
        "dotlessj" => "j",
        "germandbls" => "ss",
        "ae" => "ae",
        "AE" => "AE",
        "oe" => "oe",
        "OE" => "OE",
        "oslash" => "o",
        "Oslash" => "O",
        "lslash" => "l",
        "Lslash" => "L",
        "section" => "\u{a7}",
        "paragraph" => "\u{b6}",
        "dagger" => "\u{2020}",
        "daggerdbl" => "\u{2021}",
        "copyright" => "\u{a9}",
        "registered" => "\u{ae}",
        "degree" => "\u{b0}",
        "multiply" => "\u{d7}",
        "divide" => "\u{f7}",
        _ => return accented(name),
    };
    Some(s.to_owned())
}

/// `eacute`, `Odieresis`, `ccedilla`: the base letter (the accent says nothing an
/// identifier needs, and a name's spelling is matched without it).
fn accented(name: &str) -> Option<String> {
    const ACCENTS: [&str; 12] = [
        "acute",
        "grave",
        "circumflex",
        "dieresis",
        "tilde",
        "ring",
        "cedilla",
        "caron",
        "macron",
        "breve",
        "ogonek",
        "hungarumlaut",
    ];
    let mut chars = name.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    (first.is_ascii_alphabetic() && ACCENTS.contains(&rest)).then(|| first.to_string())
}

/// A standard base encoding (§9.6.5, Annex D).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// `/StandardEncoding`: Adobe's, the default of a Type 1 font without one of its own.
    Standard,
    /// `/WinAnsiEncoding`.
    WinAnsi,
    /// `/MacRomanEncoding`.
    MacRoman,
}

impl Base {
    /// The encoding `/Name` names.
    pub fn from_name(name: &[u8]) -> Option<Base> {
        match name {
            b"StandardEncoding" => Some(Base::Standard),
            b"WinAnsiEncoding" => Some(Base::WinAnsi),
            b"MacRomanEncoding" | b"MacExpertEncoding" => Some(Base::MacRoman),
            _ => None,
        }
    }

    /// The text of `code` in this encoding.
    pub fn text(self, code: u8) -> Option<String> {
        let s = match (self, code) {
            (Base::Standard, 39) => "'",
            (Base::Standard, 96) => "'",
            (Base::Standard, 0xAE) => "fi",
            (Base::Standard, 0xAF) => "fl",
            (Base::Standard, 0xB1) => "\u{2013}",
            (Base::Standard, 0xD0) => "\u{2014}",
            (Base::WinAnsi, 0x93 | 0x94) => "\"",
            (Base::WinAnsi, 0x91 | 0x92) => "'",
            (Base::WinAnsi, 0x96) => "\u{2013}",
            (Base::WinAnsi, 0x97) => "\u{2014}",
            (Base::WinAnsi, 0xA0) => " ",
            (Base::WinAnsi, 0xAD) => "-",
            (Base::MacRoman, 0xD0) => "\u{2013}",
            (Base::MacRoman, 0xD1) => "\u{2014}",
            (Base::MacRoman, 0xDE) => "fi",
            (Base::MacRoman, 0xDF) => "fl",
            (_, 32..=126) => return Some(char::from(code).to_string()),
            (Base::WinAnsi, 0xC0..=0xFF) => return Some(latin1_base(code)),
            _ => return None,
        };
        Some(s.to_owned())
    }
}

/// The Latin-1 letter `code` (WinAnsi agrees with Latin-1 from 0xC0), without its accent.
fn latin1_base(code: u8) -> String {
    let c = char::from(code);
    match code {
        0xC0..=0xC5 => "A".into(),
        0xC7 => "C".into(),
        0xC8..=0xCB => "E".into(),
        0xCC..=0xCF => "I".into(),
        0xD1 => "N".into(),
        0xD2..=0xD6 | 0xD8 => "O".into(),
        0xD9..=0xDC => "U".into(),
        0xDF => "ss".into(),
        0xE0..=0xE5 => "a".into(),
        0xE7 => "c".into(),
        0xE8..=0xEB => "e".into(),
        0xEC..=0xEF => "i".into(),
        0xF1 => "n".into(),
        0xF2..=0xF6 | 0xF8 => "o".into(),
        0xF9..=0xFC => "u".into(),
        _ => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_text() {
        for (name, text) in [
            ("a", "a"),
            ("zero", "0"),
            ("slash", "/"),
            ("hyphen", "-"),
            ("period", "."),
            ("underscore", "_"),
            ("fi", "fi"),
            ("f_f_i", "ffi"),
            ("uni0041", "A"),
            ("uni00410042", "AB"),
            ("u1D400", "\u{1D400}"),
            ("eacute", "e"),
            ("one.oldstyle", "1"),
            ("acute", ""),
        ] {
            assert_eq!(text_of(name.as_bytes()).as_deref(), Some(text), "{name}");
        }
        assert_eq!(text_of(b"g123"), None);
        assert_eq!(text_of(b"uniZZZZ"), None);
    }

    #[test]
    fn base_encodings() {
        assert_eq!(Base::Standard.text(b'A').as_deref(), Some("A"));
        assert_eq!(Base::Standard.text(96).as_deref(), Some("'"));
        assert_eq!(Base::WinAnsi.text(0x96).as_deref(), Some("\u{2013}"));
        assert_eq!(Base::WinAnsi.text(0xE9).as_deref(), Some("e"));
        assert_eq!(Base::MacRoman.text(0x01), None);
    }
}
