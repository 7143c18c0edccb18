//! Pith Numbers: bytes → SHA-256 → base32, and parsing of the textual forms.
//!
//! This module owns the number itself (`SPEC.md`, "Canonical bytes, hash and number"): the
//! 26-character code taken from the RFC 4648 base32 encoding of the full 32-byte SHA-256 digest,
//! its full form `pith:YYYY:CODE`, its short aliases (`pith:` + 8, 12 or 16 characters) and its
//! verification URL. It is pure: no I/O, and it depends on no other pith module.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// Number of base32 characters in a Pith Number.
pub const CODE_LEN: usize = 26;

/// Prefix lengths accepted as short aliases (`pith:7BMK4ZKT` and its 12/16-character kin).
pub const ALIAS_LENS: [usize; 3] = [8, 12, 16];

/// Error returned when a Pith Number (or alias) cannot be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid Pith Number {:?}: {kind}", .input.chars().take(80).collect::<String>())]
pub struct Error {
    input: String,
    kind: ErrorKind,
}

/// What was wrong with a Pith Number string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when the code has a length other than 26 (or 8/12/16 for an alias).
    #[error("the code has {found} characters, expected {expected}")]
    WrongLength {
        /// The length found.
        found: usize,
        /// A human description of the accepted lengths.
        expected: &'static str,
    },
    /// Occurs when the code holds a character outside the base32 alphabet `A-Z2-7`.
    #[error("character {found:?} at position {position} is not in the base32 alphabet A-Z2-7")]
    BadCharacter {
        /// The offending character.
        found: char,
        /// Its 1-based position in the code.
        position: usize,
    },
    /// Occurs when the year part of `pith:YYYY:CODE` is not four digits.
    #[error("year {found:?} is not four digits (expected pith:YYYY:<26 characters>)")]
    BadYear {
        /// The year text found.
        found: String,
    },
    /// Occurs when a number must be written into metadata but is a bare code: the year is part
    /// of the full form `pith:YYYY:CODE` (a bare code was accepted, then failed deep
    /// inside the XMP merge).
    #[error(
        "a bare code has no year, and metadata carries the full form pith:YYYY:<26 characters>; give the full number (`pith number <arXiv id>` prints it) or the paper's record"
    )]
    NoYear,
    /// Occurs when the text is not shaped like any accepted form.
    #[error(
        "expected pith:YYYY:<26 characters>, <26 characters>, pith:<8|12|16 characters> or {}<26 characters>",
        crate::vocab::URL_BASE
    )]
    BadForm,
}

impl Error {
    fn new(input: &str, kind: ErrorKind) -> Self {
        Error {
            input: input.to_owned(),
            kind,
        }
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The text that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }
}

/// SHA-256 of `bytes`.
///
/// # Examples
/// ```
/// let d = pith::number::sha256(b"");
/// assert_eq!(pith::number::hex(&d)[..8], *"e3b0c442");
/// ```
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Lowercase hexadecimal of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(bytes)
}

/// Decodes a 64-character hex SHA-256 digest (either case); `None` when it is not one.
pub fn digest_from_hex(text: &str) -> Option<[u8; 32]> {
    let v = data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.as_bytes())
        .ok()?;
    v.try_into().ok()
}

/// The 26-character code of a digest: the first 26 characters of the RFC 4648 base32 encoding
/// of all 32 bytes (not of the first 16 bytes, which differs in the last character).
///
/// # Examples
/// ```
/// let digest = pith::number::digest_from_hex(
///     "f858ae65537d274c6d2ab040d6bdc58f56e405d9a90f6fe1018ac133bbda80a2").unwrap();
/// assert_eq!(pith::number::code_of_digest(&digest), "7BMK4ZKTPUTUY3JKWBANNPOFR5");
/// ```
pub fn code_of_digest(digest: &[u8; 32]) -> String {
    let mut s = data_encoding::BASE32_NOPAD.encode(digest);
    s.truncate(CODE_LEN);
    s
}

fn check_code(
    input: &str,
    code: &str,
    lens: &[usize],
    expected: &'static str,
) -> Result<String, Error> {
    let n = code.chars().count();
    if !lens.contains(&n) {
        return Err(Error::new(
            input,
            ErrorKind::WrongLength { found: n, expected },
        ));
    }
    let mut out = String::with_capacity(n);
    for (i, c) in code.chars().enumerate() {
        let u = c.to_ascii_uppercase();
        if !(u.is_ascii_uppercase() || ('2'..='7').contains(&u)) {
            return Err(Error::new(
                input,
                ErrorKind::BadCharacter {
                    found: c,
                    position: i + 1,
                },
            ));
        }
        out.push(u);
    }
    Ok(out)
}

fn check_year(input: &str, year: &str) -> Result<u16, Error> {
    if year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()) {
        Ok(year.parse().expect("four ASCII digits"))
    } else {
        Err(Error::new(
            input,
            ErrorKind::BadYear {
                found: year.to_owned(),
            },
        ))
    }
}

/// The code part of a resolver URL (`https://pith.science/pith/<code>`, `http://` too, host in
/// any case, one trailing `/` tolerated), or `None` when `t` is not one.
fn strip_resolver(t: &str) -> Option<&str> {
    let base = crate::vocab::URL_BASE;
    let (scheme, rest) = base.split_once("://")?;
    let (t_scheme, t_rest) = t.split_once("://")?;
    if !(t_scheme.eq_ignore_ascii_case(scheme) || t_scheme.eq_ignore_ascii_case("http")) {
        return None;
    }
    let head = t_rest.get(..rest.len())?;
    let (host, path) = rest.split_once('/')?;
    let (t_host, t_path) = head.split_once('/')?;
    if !(t_host.eq_ignore_ascii_case(host) && t_path == path) {
        return None;
    }
    let code = &t_rest[rest.len()..];
    Some(code.strip_suffix('/').unwrap_or(code))
}

/// A complete Pith Number: the 26-character code, with the submission year when known.
///
/// Parsing accepts `pith:YYYY:<26>`, a bare `<26>` and the resolver URL, in any case
/// (normalised to upper case).
///
/// # Examples
/// ```
/// let n: pith::PithNumber = "pith:2024:7bmk4zktputuy3jkwbannpofr5".parse()?;
/// assert_eq!(n.to_string(), "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
/// assert_eq!(n.short(), "pith:7BMK4ZKT");
/// assert_eq!(n.url(), "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5");
/// # Ok::<(), pith::number::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PithNumber {
    code: String,
    year: Option<u16>,
}

impl PithNumber {
    /// Builds the number of a SHA-256 digest, with an optional year.
    pub fn from_digest(digest: &[u8; 32], year: Option<u16>) -> Self {
        PithNumber {
            code: code_of_digest(digest),
            year,
        }
    }

    /// Parses `pith:YYYY:<26>` (also without its `pith:`, as XMP readers show it), a bare
    /// `<26>` code, or the resolver URL
    /// `https://pith.science/pith/<26>` (as DOI tools accept doi.org URLs). A bare
    /// code and a URL carry no year.
    ///
    /// # Errors
    /// Returns an [`Error`] naming what was expected when the text is none of these.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let t = text.trim();
        if let Some(code) = strip_resolver(t) {
            let code = check_code(text, code, &[CODE_LEN], "26 after the resolver URL")?;
            return Ok(PithNumber { code, year: None });
        }
        let lower = t.to_ascii_lowercase();
        if lower.starts_with("pith:") {
            // "pith:" is ASCII, so byte 5 is a character boundary of `t` too.
            let parts: Vec<&str> = t[5..].split(':').collect();
            return match parts.as_slice() {
                [year, code] => {
                    let year = check_year(text, year)?;
                    let code =
                        check_code(text, code, &[CODE_LEN], "26 (pith:YYYY:<26 characters>)")?;
                    Ok(PithNumber {
                        code,
                        year: Some(year),
                    })
                }
                [code] if code.chars().count() != CODE_LEN => {
                    // pith:<8|12|16> is an alias, not a full number.
                    Err(Error::new(
                        text,
                        if ALIAS_LENS.contains(&code.chars().count()) {
                            ErrorKind::WrongLength {
                                found: code.chars().count(),
                                expected: "26 here (a short alias pith:<8|12|16> does not identify a record by itself)",
                            }
                        } else {
                            ErrorKind::BadForm
                        },
                    ))
                }
                [code] => {
                    let code = check_code(text, code, &[CODE_LEN], "26")?;
                    Ok(PithNumber { code, year: None })
                }
                _ => Err(Error::new(text, ErrorKind::BadForm)),
            };
        }
        // `YYYY:<26>`: the number as XMP readers such as exiftool show pith's xmp:Identifier
        // (the value without its `pith:` scheme).
        if let Some((year, code)) = t.split_once(':') {
            if year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()) && !code.contains(':') {
                let year = check_year(text, year)?;
                let code = check_code(text, code, &[CODE_LEN], "26 (YYYY:<26 characters>)")?;
                return Ok(PithNumber {
                    code,
                    year: Some(year),
                });
            }
            return Err(Error::new(text, ErrorKind::BadForm));
        }
        let code = check_code(text, t, &[CODE_LEN], "26 (or pith:YYYY:<26 characters>)")?;
        Ok(PithNumber { code, year: None })
    }

    /// The 26-character code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The submission year, when known.
    pub fn year(&self) -> Option<u16> {
        self.year
    }

    /// Checks that the number is complete enough to be written into a PDF's metadata: it has
    /// its year. A bare code names the record (checks and badges accept it) but is not the
    /// full number.
    ///
    /// # Errors
    /// [`ErrorKind::NoYear`] for a bare code.
    ///
    /// # Examples
    /// ```
    /// use pith::PithNumber;
    /// assert!(PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?.require_year().is_ok());
    /// assert!(PithNumber::parse("7BMK4ZKTPUTUY3JKWBANNPOFR5")?.require_year().is_err());
    /// # Ok::<(), pith::number::Error>(())
    /// ```
    pub fn require_year(&self) -> Result<(), Error> {
        match self.year {
            Some(_) => Ok(()),
            None => Err(Error::new(&self.code, ErrorKind::NoYear)),
        }
    }

    /// The same number with the year set.
    pub fn with_year(mut self, year: u16) -> Self {
        self.year = Some(year);
        self
    }

    /// The full form: `pith:YYYY:CODE` when the year is known, else the bare 26 characters.
    pub fn full(&self) -> String {
        match self.year {
            Some(y) => format!("pith:{y:04}:{}", self.code),
            None => self.code.clone(),
        }
    }

    /// The short form `pith:` + first 8 characters.
    pub fn short(&self) -> String {
        self.alias(8)
    }

    /// The alias `pith:` + first `len` characters (`len` is 8, 12 or 16 in use).
    pub fn alias(&self, len: usize) -> String {
        format!("pith:{}", &self.code[..len.min(CODE_LEN)])
    }

    /// The verification link `https://pith.science/pith/<26>`.
    pub fn url(&self) -> String {
        format!("{}{}", crate::vocab::URL_BASE, self.code)
    }

    /// Whether `other` names this number (same code; years must agree when both are known).
    pub fn matches(&self, other: &NumberRef) -> bool {
        match other {
            NumberRef::Full(n) => {
                n.code == self.code
                    && (n.year.is_none() || self.year.is_none() || n.year == self.year)
            }
            NumberRef::Alias(a) => self.code.starts_with(a.prefix()),
        }
    }
}

impl fmt::Display for PithNumber {
    /// Writes [`PithNumber::full`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.full())
    }
}

impl FromStr for PithNumber {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        PithNumber::parse(s)
    }
}

/// A short alias `pith:<8|12|16 characters>`: a prefix of a code, not a full number.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Alias {
    prefix: String,
}

impl Alias {
    /// The upper-case prefix (8, 12 or 16 characters).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }
}

impl fmt::Display for Alias {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pith:{}", self.prefix)
    }
}

/// Any textual reference to a record: a full number or a short alias.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NumberRef {
    /// `pith:YYYY:<26>` or `<26>`.
    Full(PithNumber),
    /// `pith:<8|12|16>`.
    Alias(Alias),
}

impl NumberRef {
    /// Parses every accepted form: `pith:YYYY:<26>`, `<26>`, `pith:<8|12|16>`, any case.
    ///
    /// # Errors
    /// Returns an [`Error`] saying what was expected (wrong length, bad character, bad year).
    ///
    /// # Examples
    /// ```
    /// use pith::number::NumberRef;
    /// assert!(matches!(NumberRef::parse("pith:7bmk4zkt")?, NumberRef::Alias(_)));
    /// assert!(NumberRef::parse("pith:7BMK4ZK").is_err());
    /// # Ok::<(), pith::number::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let t = text.trim();
        // `get` rather than indexing: byte 5 may fall inside a character (fuzz input).
        let body = t
            .get(..5)
            .filter(|p| p.eq_ignore_ascii_case("pith:"))
            .map(|_| &t[5..]);
        if let Some(body) = body.filter(|b| !b.is_empty() && !b.contains(':')) {
            let n = body.chars().count();
            if n != CODE_LEN {
                let prefix = check_code(
                    text,
                    body,
                    &ALIAS_LENS,
                    "8, 12 or 16 for a short alias, or 26 for a full number",
                )?;
                return Ok(NumberRef::Alias(Alias { prefix }));
            }
        }
        PithNumber::parse(text).map(NumberRef::Full)
    }

    /// Parses the last path segment of a record URL (`…/pith/<segment>`): the bare 26
    /// characters of a number or the bare 8, 12 or 16 of a short alias, any case. What follows
    /// the segment (`.json`, a query) is the caller's to remove first.
    ///
    /// # Errors
    /// Returns an [`Error`] saying what was expected (wrong length, bad character).
    ///
    /// # Examples
    /// ```
    /// use pith::number::NumberRef;
    /// assert!(matches!(NumberRef::parse_segment("7bmk4zkt")?, NumberRef::Alias(_)));
    /// assert!(matches!(NumberRef::parse_segment("7BMK4ZKTPUTUY3JKWBANNPOFR5")?, NumberRef::Full(_)));
    /// assert!(NumberRef::parse_segment("pith:7BMK4ZKT").is_err());
    /// # Ok::<(), pith::number::Error>(())
    /// ```
    pub fn parse_segment(text: &str) -> Result<Self, Error> {
        let n = text.chars().count();
        if n == CODE_LEN {
            let code = check_code(text, text, &[CODE_LEN], "26")?;
            return Ok(NumberRef::Full(PithNumber { code, year: None }));
        }
        let prefix = check_code(
            text,
            text,
            &ALIAS_LENS,
            "26 for a number, or 8, 12 or 16 for a short alias",
        )?;
        Ok(NumberRef::Alias(Alias { prefix }))
    }

    /// The year, when the reference carries one.
    pub fn year(&self) -> Option<u16> {
        match self {
            NumberRef::Full(n) => n.year(),
            NumberRef::Alias(_) => None,
        }
    }

    /// The verification URL, available only for full numbers.
    pub fn url(&self) -> Option<String> {
        match self {
            NumberRef::Full(n) => Some(n.url()),
            NumberRef::Alias(_) => None,
        }
    }
}

impl fmt::Display for NumberRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberRef::Full(n) => n.fmt(f),
            NumberRef::Alias(a) => a.fmt(f),
        }
    }
}

impl FromStr for NumberRef {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        NumberRef::parse(s)
    }
}

/// What the PDF engine writes for a number: its full form, short form and record URL.
impl pith_pdf::Identifier for PithNumber {
    fn full(&self) -> String {
        PithNumber::full(self)
    }
    fn short(&self) -> String {
        PithNumber::short(self)
    }
    fn url(&self) -> String {
        PithNumber::url(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_HASH: &str = "f858ae65537d274c6d2ab040d6bdc58f56e405d9a90f6fe1018ac133bbda80a2";

    #[test]
    fn seed_digest_gives_seed_code() {
        let d = digest_from_hex(SEED_HASH).unwrap();
        assert_eq!(code_of_digest(&d), "7BMK4ZKTPUTUY3JKWBANNPOFR5");
    }

    #[test]
    fn code_uses_all_32_bytes_not_first_16() {
        let d = digest_from_hex(SEED_HASH).unwrap();
        let half = data_encoding::BASE32_NOPAD.encode(&d[..16]);
        assert_eq!(half.len(), 26);
        assert_ne!(half, code_of_digest(&d), "last character must differ");
        assert_eq!(half[..25], code_of_digest(&d)[..25]);
    }

    #[test]
    fn sha256_known_answer() {
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn parses_all_forms() {
        let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        assert_eq!(n.year(), Some(2024));
        let bare = PithNumber::parse(" 7bmk4zktputuy3jkwbannpofr5 ").unwrap();
        assert_eq!(bare.year(), None);
        assert_eq!(bare.full(), "7BMK4ZKTPUTUY3JKWBANNPOFR5");
        assert_eq!(bare.url(), n.url());
        for len in ALIAS_LENS {
            let r = NumberRef::parse(&format!("PITH:{}", &n.code()[..len].to_lowercase())).unwrap();
            assert!(n.matches(&r));
            assert_eq!(r.url(), None);
        }
        assert!(matches!(
            NumberRef::parse("pith:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap(),
            NumberRef::Full(_)
        ));
    }

    #[test]
    fn rejects_with_reason() {
        let e = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::WrongLength { found: 25, .. }),
            "{e}"
        );
        let e = PithNumber::parse("7BMK4ZKTPUTUY3JKWBANNPOFR1").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::BadCharacter {
                    found: '1',
                    position: 26
                }
            ),
            "{e}"
        );
        let e = PithNumber::parse("pith:24:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadYear { .. }), "{e}");
        let e = NumberRef::parse("pith:7BMK4ZKTP").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::WrongLength { found: 9, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("8, 12 or 16"));
        assert!(NumberRef::parse("doi:10.1/x").is_err());
        assert!(NumberRef::parse("").is_err());
        assert!(NumberRef::parse("pith:2024:7BMK:4ZKT").is_err());
        assert!(PithNumber::parse("pith:7BMK4ZKT").is_err());
        // Non-ASCII never panics on slicing.
        assert!(NumberRef::parse("pith:é7BMK4ZKTPUTUY3JKWBANNPOFR").is_err());
        assert!(PithNumber::parse("ééééé:2024").is_err());
    }

    #[test]
    fn resolver_urls_are_numbers_without_a_year() {
        let want = PithNumber::parse("7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        for url in [
            "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5",
            " HTTPS://Pith.Science/pith/7bmk4zktputuy3jkwbannpofr5/ ",
            "http://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5",
        ] {
            assert_eq!(PithNumber::parse(url).unwrap(), want, "{url}");
            assert_eq!(
                NumberRef::parse(url).unwrap(),
                NumberRef::Full(want.clone())
            );
        }
        assert_eq!(PithNumber::parse(&want.url()).unwrap(), want);
        for bad in [
            "https://pith.science/pith/7BMK4ZKT",
            "https://example.org/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5",
            "https://pith.science/ns/7BMK4ZKTPUTUY3JKWBANNPOFR5",
            "https://pith.science/pith/",
            "ftp://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5",
        ] {
            assert!(PithNumber::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn year_mismatch_is_not_a_match() {
        let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let other = NumberRef::parse("pith:2023:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        assert!(!n.matches(&other));
    }
}
