//! The identifier a PDF is marked with, as the strings this crate writes.
//!
//! The engine does not compute or validate identifiers: the `pith` crate does. It takes an
//! [`Identifier`] (the full form, the short form and the record URL) and writes those strings
//! into the Info dictionary, the XMP packet and the stamp. [`Mark`] is the plain-strings
//! identifier; [`Mark::parse`] recognises the shape of a full form read back from a file
//! (`pith:YYYY:` and 26 base32 characters) so that [`crate::Inspection`] can tell whether the
//! places of a file agree, without knowing how a number is computed.

use crate::vocab::{NUMBER_SCHEME, URL_BASE};

/// Length of the code of a full number (26 base32 characters).
pub const CODE_LEN: usize = 26;

/// Length of the code prefix shown in the short form (`pith:7BMK4ZKT`).
pub const SHORT_LEN: usize = 8;

/// What the engine writes for an identifier: its full form (Info `/PithNumber`,
/// `pith:number`, `xmp:Identifier`), its short form (`pith:shortNumber`, the stamp's short
/// form) and its record URL (Info `/PithURL`, `dc:relation`, `pith:url`, the stamp's link).
pub trait Identifier {
    /// The full form, e.g. `pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`.
    fn full(&self) -> String;
    /// The short form, e.g. `pith:7BMK4ZKT`.
    fn short(&self) -> String;
    /// The record URL, e.g. `https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5`.
    fn url(&self) -> String;
}

/// An identifier given as its three strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The full form.
    pub full: String,
    /// The short form.
    pub short: String,
    /// The record URL.
    pub url: String,
}

impl Mark {
    /// The mark of a full form read from a file: `pith:`, four digits, `:` and 26 characters
    /// of the RFC 4648 base32 alphabet; `None` for anything else.
    ///
    /// # Examples
    /// ```
    /// let m = pith_pdf::Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
    /// assert_eq!(m.short, "pith:7BMK4ZKT");
    /// assert_eq!(m.url, "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5");
    /// assert!(pith_pdf::Mark::parse("pith:24:7BMK").is_none());
    /// ```
    pub fn parse(full: &str) -> Option<Mark> {
        let rest = full.strip_prefix(NUMBER_SCHEME)?;
        let (year, code) = rest.split_once(':')?;
        if !is_year(year) || !is_code(code) {
            return None;
        }
        Some(Mark {
            full: full.to_string(),
            short: format!("{NUMBER_SCHEME}{}", &code[..SHORT_LEN]),
            url: format!("{URL_BASE}{code}"),
        })
    }
}

/// The 26-character code a value read from a file names: a full form (`pith:YYYY:CODE`), the
/// code alone, or a record URL (`https://pith.science/pith/CODE`); letters in any case, the
/// code returned in upper case. `None` for anything else, short forms included (they name no
/// record by themselves).
///
/// # Examples
/// ```
/// use pith_pdf::mark::code_of;
/// let code = Some("7BMK4ZKTPUTUY3JKWBANNPOFR5".to_string());
/// assert_eq!(code_of("https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5"), code);
/// assert_eq!(code_of("pith:2024:7bmk4zktputuy3jkwbannpofr5"), code);
/// assert_eq!(code_of("pith:7BMK4ZKT"), None);
/// ```
pub fn code_of(value: &str) -> Option<String> {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    let code = if lower.starts_with(URL_BASE) {
        &v[URL_BASE.len()..]
    } else if lower.starts_with(NUMBER_SCHEME) {
        let (year, code) = v[NUMBER_SCHEME.len()..].split_once(':')?;
        if !is_year(year) {
            return None;
        }
        code
    } else {
        v
    };
    let code = code.to_ascii_uppercase();
    is_code(&code).then_some(code)
}

/// Four digits: the year of a full form.
fn is_year(s: &str) -> bool {
    s.len() == 4 && s.bytes().all(|c| c.is_ascii_digit())
}

/// [`CODE_LEN`] characters of the RFC 4648 base32 alphabet, upper case.
fn is_code(s: &str) -> bool {
    s.len() == CODE_LEN
        && s.bytes()
            .all(|c| c.is_ascii_uppercase() || (b'2'..=b'7').contains(&c))
}

impl Identifier for Mark {
    fn full(&self) -> String {
        self.full.clone()
    }
    fn short(&self) -> String {
        self.short.clone()
    }
    fn url(&self) -> String {
        self.url.clone()
    }
}
