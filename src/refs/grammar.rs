//! The identifiers a reference list cites, found in its text: arXiv ids and DOIs.
//!
//! - arXiv, new style: `YYMM.NNNN` from April 2007 (`0704`) to December 2014, `YYMM.NNNNN` from
//!   January 2015, with an optional version `vN`, as [`crate::arxiv_id::is_id`] checks
//!   them. A bare `1503.01234` is as often a page range, a decimal or a report number, so one
//!   counts only where the entry's shape says it is arXiv's:
//!   - "arXiv" (`arXiv:`, `arxiv.org/abs/`, `arXiv preprint`, the arXiv DOI, Semantic
//!     Scholar's `ArXiv, abs/…`), "eprint" or "e-print" (INSPIRE's `e-Print:`) a few
//!     characters before it;
//!   - DBLP's `CoRR abs/1706.03762` (`CoRR, abs/…`, `CoRR, vol. abs/…`): `abs/` right before
//!     it and "CoRR" a few characters before that;
//!   - a category in brackets after it (`[hep-th]`);
//!   - an archive and a slash right before it, the archive as printed, hyphen lost or not
//!     (`astroph/0806.0683`, `gr-qc/0806.3093`: a new-style number under an old-style
//!     archive, read as the new-style id it is);
//!   - brackets around it alone (`Phys. Rev. D 108 (2023) 014511 [2209.15546]`, HEP's
//!     eprint after a journal reference);
//!   - the entry's last item: after `, ` or `; `, and nothing but an optional period after it
//!     before the line ends (`…, JHEP 05 (2020) 123, 2001.01234.`).
//!
//!   Elsewhere an id-shaped number is not read: in a sentence, after a page or volume, in a
//!   DOI's tail (`10.1000/x.2001.01234`), glued to a report number (`CERN-TH.2001.01234`), or
//!   followed by more of an entry on its line.
//! - arXiv, old style: `archive(.SC)/YYMMNNN`, the archive one of
//!   [`crate::arxiv_id::OLD_ARCHIVES`] (or one printed without its hyphen, `astroph/0303455`),
//!   from August 1991 to March 2007; the subject class is dropped as arXiv drops it. The
//!   archive names it, so no other context is needed.
//! - DOIs: Crossref's pattern `10.\d{4,9}/[-._;()/:A-Z0-9]+`, case-insensitive, widened by
//!   the `<` and `>` of SICI DOIs (`10.1002/(SICI)1099-1166(199601)11:1<15::AID-GPS262>3.0.CO;2-5`)
//!   and their square brackets (`10.2981/0909-6396(2005)11[101:EORCCS]2.0.CO;2`: a pair that
//!   holds a start page and title code, `[page:code]`, and no other bracket).
//!   The sentence's punctuation after it (`.,;:/`) is trimmed, and a closing `)` or `>` only
//!   when it closes nothing the DOI opened; so a DOI in parentheses or angle brackets loses
//!   them and a SICI keeps its own. An arXiv DOI (`10.48550/arXiv.…`) is read as the arXiv id
//!   it names.
//!
//! Pure: text in, identifiers with their byte offsets out. How lines were joined into this
//! text (URL breaks, hyphens, soft hyphens) is the reader's (`refs`' module `breaks`).

use crate::arxiv_id::{archive_as_printed, is_id as is_arxiv_id, NEW_STYLE_FROM};

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
    let shaped = said_arxiv(text, i)
        || corr_abs(text, i)
        || category_after(b, end)
        || archive_before(text, i).is_some()
        || bracketed(text, i, end)
        || last_item(b, i, end);
    if !shaped {
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

/// Whether "arxiv", "eprint" or "e-print" (INSPIRE's `e-Print:`) stands within [`CONTEXT`] bytes before `i`.
fn said_arxiv(text: &str, i: usize) -> bool {
    let mut from = i.saturating_sub(CONTEXT);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = text[from..i].to_ascii_lowercase();
    before.contains("arxiv") || before.contains("eprint") || before.contains("e-print")
}

/// Whether DBLP's `CoRR abs/` (`CoRR, abs/`, `CoRR, vol. abs/`) stands right before `i`.
fn corr_abs(text: &str, i: usize) -> bool {
    let b = text.as_bytes();
    if i < 4 || !b[i - 4..i].eq_ignore_ascii_case(b"abs/") {
        return false;
    }
    let mut from = i.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    text[from..i - 4].to_ascii_lowercase().contains("corr")
}

/// Where an archive and slash right before `i` start (`astro-ph/`, `astroph/`, `math.GT/`),
/// the archive as printed ([`archive_as_printed`]).
fn archive_before(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    if i == 0 || b[i - 1] != b'/' {
        return None;
    }
    let len = b[..i - 1]
        .iter()
        .rev()
        .take(16)
        .take_while(|c| c.is_ascii_alphabetic() || **c == b'-' || **c == b'.')
        .count();
    let start = i - 1 - len;
    if prev_is(b, start, |c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let word = &text[start..i - 1];
    // A subject class `.GT`, not part of the archive.
    let archive = match word.split_once('.') {
        Some((a, class)) if class.len() == 2 && class.bytes().all(|c| c.is_ascii_uppercase()) => a,
        _ => word,
    };
    archive_as_printed(archive).map(|_| start)
}

/// Whether brackets enclose the id from `i` to `end` alone (an archive before it allowed):
/// `[2209.15546]`, `[astroph/0806.0683]`.
fn bracketed(text: &str, i: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let start = archive_before(text, i).unwrap_or(i);
    start > 0 && b[start - 1] == b'[' && b.get(end) == Some(&b']')
}

/// Whether the id from `i` to `end` is its entry's last item: after `, ` or `; `, and
/// nothing but a period after it before its line ends.
fn last_item(b: &[u8], i: usize, end: usize) -> bool {
    let after = if b.get(end) == Some(&b'.') {
        end + 1
    } else {
        end
    };
    i >= 2
        && b[i - 1] == b' '
        && b",;".contains(&b[i - 2])
        && b.get(after).is_none_or(|&c| c == b'\n' || c == b'\r')
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
    let archive = archive_as_printed(&text[i..i + name_len])?;
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
    c.is_ascii_alphanumeric() || b"-._;()/:<>[]".contains(&c)
}

/// Where a DOI's run `body` must end for its square brackets to be its own. SICI's grammar
/// puts a start page and a title code in them (BioOne's
/// `10.2981/0909-6396(2005)11[101:EORCCS]2.0.CO;2`): a pair that holds a `:` is the DOI's;
/// the run ends before any other `[` (a citation mark, `10.1000/abc[1]`, or one left open)
/// and before a `]` that closes nothing the run opened (`[doi:10.1000/abc]`).
fn square_end(body: &[u8]) -> usize {
    let mut open: Option<usize> = None;
    for (k, &c) in body.iter().enumerate() {
        match (c, open) {
            (b'[', None) => open = Some(k),
            (b'[', Some(o)) => return o,
            (b']', None) => return k,
            (b']', Some(o)) if !body[o..k].contains(&b':') => return o,
            (b']', Some(_)) => open = None,
            _ => {}
        }
    }
    open.unwrap_or(body.len())
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
    end = start + square_end(&b[start..end]);
    // Trailing punctuation is the sentence's; a closing parenthesis or angle bracket is the
    // DOI's only when it closes one the DOI opened. The pairs are counted once and the counts
    // kept as the end moves back, so a DOI followed by any run of dots costs one pass.
    let body = &b[i..end];
    let count = |x: u8| body.iter().filter(|&&c| c == x).count();
    let (open, mut close) = (count(b'('), count(b')'));
    let (opened, mut closed) = (count(b'<'), count(b'>'));
    while let Some(&last) = b[start..end].last() {
        if last == b')' && close > open {
            close -= 1;
        } else if last == b'>' && closed > opened {
            closed -= 1;
        } else if !b".,;:/".contains(&last) {
            break;
        }
        end -= 1;
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
            ["10.1002/(SICI)1097-4636(199706)35:4<481::AID>3.0.CO;2-A"]
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
    fn square_brackets_are_a_sici_dois_own_only_in_pairs() {
        let sici = "10.2981/0909-6396(2005)11[101:EORCCS]2.0.CO;2";
        assert_eq!(ids(&format!("doi: {sici}")), [sici]);
        assert_eq!(ids(&format!("doi: {sici}. Next")), [sici]);
        assert_eq!(ids(&format!("[doi:{sici}]")), [sici]);
        assert_eq!(ids("[doi:10.1000/abc]."), ["10.1000/abc"]);
        assert_eq!(ids("10.1000/abc[1] and"), ["10.1000/abc"]);
        assert_eq!(ids("10.1000/abc[ x"), ["10.1000/abc"]);
        assert_eq!(ids("10.1000/abc][2]"), ["10.1000/abc"]);
    }

    #[test]
    fn sici_dois_are_whole_and_the_sentence_is_not_theirs() {
        let sici = "10.1002/(SICI)1099-1166(199601)11:1<15::AID-GPS262>3.0.CO;2-5";
        for text in [
            format!("doi:{sici}."),
            format!("({sici})."),
            format!("<{sici}>;"),
            format!("[doi: {sici}]"),
            format!("https://doi.org/{sici}, 1996."),
        ] {
            assert_eq!(ids(&text), [sici], "{text}");
        }
        // A closing bracket the DOI opened is its own.
        assert_eq!(ids("(10.1000/a(b)c)."), ["10.1000/a(b)c"]);
        assert_eq!(ids("10.1000/x<1>."), ["10.1000/x<1>"]);
    }

    #[test]
    fn dblp_and_semantic_scholar() {
        assert_eq!(ids("CoRR abs/1706.03762 (2017)"), ["1706.03762"]);
        assert_eq!(ids("CoRR, abs/1810.04805, 2018."), ["1810.04805"]);
        assert_eq!(ids("CoRR, vol. abs/1412.6980, 2014."), ["1412.6980"]);
        assert_eq!(ids("ArXiv, abs/2005.14165, 2020."), ["2005.14165"]);
        assert_eq!(ids("arXiv preprint arXiv:1706.03762"), ["1706.03762"]);
        assert_eq!(ids("e-Print: 2001.01234, 2020"), ["2001.01234"]);
        // `abs/` alone, or CoRR far before, is not enough.
        assert!(ids("see abs/1706.03762 here").is_empty());
    }

    #[test]
    fn bare_eprints_by_the_entry_shape() {
        assert_eq!(
            ids("Phys. Rev. D 108 (2023) 014511 [2209.15546]."),
            ["2209.15546"]
        );
        assert_eq!(
            ids("Nucl. Phys. B 536 (1998) 199 [hep-th/9711200]."),
            ["hep-th/9711200"]
        );
        assert_eq!(ids("[2209.15546v2]"), ["2209.15546v2"]);
        assert_eq!(
            ids("A. B., JHEP 05 (2020) 123, 2001.01234.\nC. D."),
            ["2001.01234"]
        );
        assert_eq!(ids("A. B., JHEP 05 (2020) 123; 2001.01234"), ["2001.01234"]);
        // Wrong or hyphenless archives before a new-style number; old style without its hyphen.
        assert_eq!(ids("[astroph/0806.0683]"), ["0806.0683"]);
        assert_eq!(ids("[gr-qc/0806.3093]"), ["0806.3093"]);
        assert_eq!(ids("astro-ph/0806.0683, 2008"), ["0806.0683"]);
        assert_eq!(ids("[astroph/0303455]"), ["astro-ph/0303455"]);
        assert_eq!(ids("hepth/9711200"), ["hep-th/9711200"]);
    }

    #[test]
    fn id_shaped_numbers_elsewhere_are_not_eprints() {
        for text in [
            // Followed by more of the entry, or in a sentence.
            "A. B., 2001.01234, more text",
            "value of 1203.1234 in",
            ", 2001.01234 (2020).\n",
            // A DOI's tail, a report number, a page, a year, a citation label.
            "doi:10.1000/x.2001.01234.",
            "CERN-TH.2001.01234, 2020.",
            "Phys. Rev. 1503.01234 (2015)",
            "[12] 2015.",
            // Brackets around more than the number.
            "[see 2209.15546]",
            "[2209.15546, 10]",
            // A word before the slash that is no archive.
            "[foo/0806.0683]",
            "https://example.org/files/0806.0683",
        ] {
            let found = ids(text);
            assert!(
                found.iter().all(|f| f.starts_with("10.")),
                "{text}: {found:?}"
            );
        }
    }

    #[test]
    fn arxiv_urls() {
        assert_eq!(ids("arxiv.org/pdf/1301.3781v2.pdf"), ["1301.3781v2"]);
        assert_eq!(
            ids("http://arxiv.org/abs/hep-th/9711200v1."),
            ["hep-th/9711200v1"]
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
