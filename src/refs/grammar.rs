//! The identifiers a reference list cites, found in its text: arXiv ids and DOIs.
//!
//! - arXiv, new style: `YYMM.NNNN` from April 2007 (`0704`) to December 2014, `YYMM.NNNNN` from
//!   January 2015, with an optional version `vN`, as [`crate::arxiv_id::is_id`] checks
//!   them. A bare `1503.01234` is as often a page range or a report number, so one counts
//!   only where the text says it is arXiv's: "arXiv" (`arXiv:`, `arxiv.org/abs/`, `arXiv
//!   preprint`, the arXiv DOI) or "eprint" a few characters before it, or a category in
//!   brackets after it (`[hep-th]`).
//! - arXiv, old style: `archive(.SC)/YYMMNNN`, the archive one of
//!   [`crate::arxiv_id::OLD_ARCHIVES`], from August 1991 to March 2007; the subject class is
//!   dropped as arXiv drops it. The archive names it, so no other context is needed.
//! - DOIs: Crossref's pattern `10.\d{4,9}/[-._;()/:A-Z0-9]+`, case-insensitive, with trailing
//!   punctuation (`.,;:`) and an unbalanced closing parenthesis trimmed; an arXiv DOI
//!   (`10.48550/arXiv.…`) is read as the arXiv id it names.
//!
//! Pure: text in, identifiers with their byte offsets out.

use crate::arxiv_id::{is_id as is_arxiv_id, NEW_STYLE_FROM, OLD_ARCHIVES};

/// What a reference cites.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cited {
    /// An arXiv paper: its id (`2402.03791`, `hep-th/9901001`) and version when written.
    Arxiv {
        /// The id without version.
        id: String,
        /// The version (`v3` → 3), when the reference gives one.
        version: Option<u32>,
    },
    /// A DOI as written (DOIs compare case-insensitively: [`Cited::key`] lowercases it).
    Doi(String),
}

impl Cited {
    /// The identity two mentions share: the arXiv id (versions apart) or the lowercase DOI.
    pub fn key(&self) -> String {
        match self {
            Cited::Arxiv { id, .. } => format!("arxiv:{id}"),
            Cited::Doi(d) => format!("doi:{}", d.to_ascii_lowercase()),
        }
    }
}

/// How far before an arXiv id the word "arXiv" (or "eprint") may stand.
const CONTEXT: usize = 48;

/// Every identifier in `text`, each with the byte offset where it starts, in text order.
/// The same identifier written twice is found twice.
///
/// # Examples
/// ```
/// use pith::refs::grammar::{find, Cited};
/// let found = find("arXiv:1706.03762v5; doi:10.1103/PhysRevLett.116.061102. See hep-th/9901001.");
/// let cited: Vec<Cited> = found.into_iter().map(|(_, c)| c).collect();
/// assert_eq!(cited, [
///     Cited::Arxiv { id: "1706.03762".into(), version: Some(5) },
///     Cited::Doi("10.1103/PhysRevLett.116.061102".into()),
///     Cited::Arxiv { id: "hep-th/9901001".into(), version: None },
/// ]);
/// assert!(find("pages 1503.01234, volume 12").is_empty());
/// ```
pub fn find(text: &str) -> Vec<(usize, Cited)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    // Where the last DOI ended: an arXiv id inside an arXiv DOI is that DOI's.
    let mut doi_end = 0;
    while i < b.len() {
        if b[i] == b'1' && b.get(i + 1) == Some(&b'0') && b.get(i + 2) == Some(&b'.') {
            if let Some((end, c)) = doi_at(text, i) {
                out.push((i, c));
                doi_end = end;
                i = end;
                continue;
            }
        }
        if b[i].is_ascii_digit()
            && i >= doi_end
            && !prev_is(b, i, |c| c.is_ascii_alphanumeric() || c == b'.')
        {
            if let Some((end, c)) = new_style_at(text, i) {
                out.push((i, c));
                i = end;
                continue;
            }
        }
        if b[i].is_ascii_lowercase()
            && i >= doi_end
            && !prev_is(b, i, |c| {
                c.is_ascii_alphanumeric() || c == b'-' || c == b'.'
            })
        {
            if let Some((end, c)) = old_style_at(text, i) {
                out.push((i, c));
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

fn prev_is(b: &[u8], i: usize, f: impl Fn(u8) -> bool) -> bool {
    i > 0 && f(b[i - 1])
}

fn digits(b: &[u8], from: usize) -> usize {
    b[from.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count()
}

/// A version `vN` at `at` (not followed by a letter or digit): its number and end.
fn version_at(b: &[u8], at: usize) -> Option<(u32, usize)> {
    if b.get(at) != Some(&b'v') {
        return None;
    }
    let n = digits(b, at + 1);
    if n == 0 || n > 3 || b.get(at + 1 + n).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let v: u32 = std::str::from_utf8(&b[at + 1..at + 1 + n])
        .ok()?
        .parse()
        .ok()?;
    (v > 0).then_some((v, at + 1 + n))
}

fn new_style_at(text: &str, i: usize) -> Option<(usize, Cited)> {
    let b = text.as_bytes();
    if digits(b, i) != 4 || b.get(i + 4) != Some(&b'.') {
        return None;
    }
    let n = digits(b, i + 5);
    let end = i + 5 + n;
    let id = &text[i..end];
    if !is_arxiv_id(id) || &id[..4] < NEW_STYLE_FROM {
        return None;
    }
    let (version, end) = match version_at(b, end) {
        Some((v, e)) => (Some(v), e),
        None if b.get(end).is_some_and(|c| c.is_ascii_alphanumeric()) => return None,
        None => (None, end),
    };
    // A trailing `.5` would make it a decimal number, not an id.
    if b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if !(said_arxiv(text, i) || category_after(b, end)) {
        return None;
    }
    Some((
        end,
        Cited::Arxiv {
            id: id.to_owned(),
            version,
        },
    ))
}

/// Whether "arxiv" or "eprint" stands within [`CONTEXT`] bytes before `i`.
fn said_arxiv(text: &str, i: usize) -> bool {
    let mut from = i.saturating_sub(CONTEXT);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = text[from..i].to_ascii_lowercase();
    before.contains("arxiv") || before.contains("eprint")
}

/// Whether a category in brackets follows (`[hep-th]`, `[cs.LG]`, `[astro-ph.CO]`).
fn category_after(b: &[u8], end: usize) -> bool {
    let mut j = end;
    while b.get(j) == Some(&b' ') {
        j += 1;
    }
    if b.get(j) != Some(&b'[') {
        return false;
    }
    let body: Vec<u8> = b[j + 1..]
        .iter()
        .take(20)
        .take_while(|&&c| c != b']')
        .copied()
        .collect();
    let closed = b.get(j + 1 + body.len()) == Some(&b']');
    let archive = body.split(|&c| c == b'.').next().unwrap_or(&[]);
    closed && !archive.is_empty() && archive.iter().all(|c| c.is_ascii_lowercase() || *c == b'-')
}

fn old_style_at(text: &str, i: usize) -> Option<(usize, Cited)> {
    let b = text.as_bytes();
    let name_len = b[i..]
        .iter()
        .take(12)
        .take_while(|c| c.is_ascii_lowercase() || **c == b'-')
        .count();
    let archive = &text[i..i + name_len];
    if !OLD_ARCHIVES.contains(&archive) {
        return None;
    }
    let mut j = i + name_len;
    // A subject class `.GT`, dropped from the id.
    if b.get(j) == Some(&b'.')
        && b.get(j + 1).is_some_and(u8::is_ascii_uppercase)
        && b.get(j + 2).is_some_and(u8::is_ascii_uppercase)
    {
        j += 3;
    }
    if b.get(j) != Some(&b'/') || digits(b, j + 1) != 7 {
        return None;
    }
    let num = &text[j + 1..j + 8];
    let yymm: u32 = num[..4].parse().ok()?;
    let (yy, mm) = (yymm / 100, yymm % 100);
    let in_time = (1..=12).contains(&mm)
        && match yy {
            91 => mm >= 8,
            92..=99 | 0..=6 => true,
            7 => mm <= 3,
            _ => false,
        };
    if !in_time {
        return None;
    }
    let end = j + 8;
    let (version, end) = match version_at(b, end) {
        Some((v, e)) => (Some(v), e),
        None if b.get(end).is_some_and(|c| c.is_ascii_alphanumeric()) => return None,
        None => (None, end),
    };
    Some((
        end,
        Cited::Arxiv {
            id: format!("{archive}/{num}"),
            version,
        },
    ))
}

fn doi_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._;()/:".contains(&c)
}

fn doi_at(text: &str, i: usize) -> Option<(usize, Cited)> {
    let b = text.as_bytes();
    if prev_is(b, i, |c| c.is_ascii_alphanumeric() || c == b'.') {
        return None;
    }
    let reg = digits(b, i + 3);
    if !(4..=9).contains(&reg) || b.get(i + 3 + reg) != Some(&b'/') {
        return None;
    }
    let start = i + 4 + reg;
    let mut end = start + b[start..].iter().take_while(|&&c| doi_char(c)).count();
    // Trailing punctuation is the sentence's; a closing parenthesis is the DOI's only when
    // it closes one the DOI opened. The parentheses are counted once and the count kept as
    // the end moves back, so a DOI followed by any run of dots costs one pass.
    let body = &b[i..end];
    let open = body.iter().filter(|&&c| c == b'(').count();
    let mut close = body.iter().filter(|&&c| c == b')').count();
    while let Some(&last) = b[start..end].last() {
        if b".,;:/".contains(&last) || (last == b')' && close > open) {
            end -= 1;
            if last == b')' {
                close -= 1;
            }
        } else {
            break;
        }
    }
    if end == start {
        return None;
    }
    let doi = &text[i..end];
    let suffix = &text[start..end];
    if doi[..start - i - 1] == *"10.48550"
        && suffix
            .get(..6)
            .is_some_and(|p| p.eq_ignore_ascii_case("arxiv."))
    {
        let (id, version) = crate::arxiv_id::split_version(&suffix[6..]);
        let id = id.to_owned();
        if is_arxiv_id(&id) {
            return Some((end, Cited::Arxiv { id, version }));
        }
    }
    Some((end, Cited::Doi(doi.to_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<String> {
        find(text)
            .into_iter()
            .map(|(_, c)| match c {
                Cited::Arxiv {
                    id,
                    version: Some(v),
                } => format!("{id}v{v}"),
                Cited::Arxiv { id, version: None } => id,
                Cited::Doi(d) => d,
            })
            .collect()
    }

    #[test]
    fn arxiv_new_style() {
        assert_eq!(ids("arXiv:1706.03762"), ["1706.03762"]);
        assert_eq!(
            ids("arXiv preprint arXiv:2402.03791v3, 2024."),
            ["2402.03791v3"]
        );
        assert_eq!(ids("https://arxiv.org/abs/0704.0001v2."), ["0704.0001v2"]);
        assert_eq!(ids("arXiv: 1501.00001 [hep-th]"), ["1501.00001"]);
        assert_eq!(ids("1412.6980 [cs.LG]"), ["1412.6980"]);
        assert_eq!(ids("\\field{eprint}{2101.00001}"), ["2101.00001"]);
        assert_eq!(
            ids("arXiv:1706.03762, 1512.03385"),
            ["1706.03762", "1512.03385"]
        );
    }

    #[test]
    fn arxiv_new_style_traps() {
        // No word of arXiv near: a page range, a decimal, a report number.
        assert!(ids("Phys. Rev. 1503.01234 (2015)").is_empty());
        // Before April 2007 there were no such ids; months run to 12.
        assert!(ids("arXiv:0703.1234").is_empty());
        assert!(ids("arXiv:1713.12345").is_empty());
        // Four digits after 2015 and five before are other numbers.
        assert!(ids("arXiv:1501.1234").is_empty());
        assert!(ids("arXiv:1412.12345").is_empty());
        // Inside longer numbers.
        assert!(ids("arXiv 11706.03762").is_empty());
        assert!(ids("arXiv 1706.037621").is_empty());
        assert!(ids("arXiv 1706.03762.5").is_empty());
        assert!(ids("arXiv 1706.03762abc").is_empty());
    }

    #[test]
    fn arxiv_old_style() {
        assert_eq!(ids("hep-th/9901001"), ["hep-th/9901001"]);
        assert_eq!(ids("arXiv:math.GT/0309136v2."), ["math/0309136v2"]);
        assert_eq!(ids("cond-mat/0703001"), ["cond-mat/0703001"]);
        // Not an archive, out of time, glued to a longer word.
        assert!(ids("foo-th/9901001").is_empty());
        assert!(ids("hep-th/0704001").is_empty());
        assert!(ids("hep-th/9107001").is_empty());
        assert!(ids("xhep-th/9901001").is_empty());
        assert!(ids("hep-th/99010012").is_empty());
    }

    #[test]
    fn dois() {
        assert_eq!(
            ids("doi:10.1103/PhysRevLett.116.061102."),
            ["10.1103/PhysRevLett.116.061102"]
        );
        assert_eq!(
            ids("(https://doi.org/10.1002/(SICI)1097-4636(199706)35:4<481::AID>3.0.CO;2-A)"),
            ["10.1002/(SICI)1097-4636(199706)35:4"]
        );
        assert_eq!(ids("see 10.1000/xyz_123-a; and"), ["10.1000/xyz_123-a"]);
        assert_eq!(ids("(doi: 10.1000/abc)."), ["10.1000/abc"]);
        assert_eq!(
            ids("10.1016/j.cell.2009.01.002,"),
            ["10.1016/j.cell.2009.01.002"]
        );
        // The arXiv DOI is the arXiv id.
        assert_eq!(
            ids("https://doi.org/10.48550/arXiv.2402.03791"),
            ["2402.03791"]
        );
    }

    #[test]
    fn doi_traps() {
        // A registrant of 3 digits, no suffix, glued to a number, a version number.
        assert!(ids("10.123/abc").is_empty());
        assert!(ids("10.1234/.").is_empty());
        assert!(ids("210.1234/abc").is_empty());
        assert!(ids("version 10.12345 of").is_empty());
        assert!(ids("pages 10.1-10.5").is_empty());
    }
}
