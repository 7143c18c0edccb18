//! What a paper cites, read from its own reference list: the arXiv ids and DOIs
//! ([`grammar`]) in the text of its PDF ([`pith_pdf::text`]) or in the `.bbl` file of its
//! source, each with where it was read (page and line, or line of the `.bbl`).
//!
//! In a PDF only the reference section is read, as its layout shows it: the text after the
//! last heading that names it ("References", "Bibliography", "Literature Cited", numbered or
//! not) and has a list after it, up to the heading of a section printed after the list
//! (referee reports, appendices), running headers and footers, line numbers in the margin
//! and text set sideways (arXiv's stamp) left out, and the paper's own DOI (printed in its first page's header or footer) never
//! reported; a paper without a heading is read from its numbered list, or whole. The
//! link annotations on the list's lines that point to a DOI or an arXiv paper count as what
//! that entry cites ([`Via::Link`]). An identifier that a URL break splits across two lines is read whole:
//! a line that ends with a character URLs break after (`/ . - _ :` …), inside a token that
//! is an identifier's or a link's, and that reaches the column's right edge (or could not
//! end an identifier there) runs on into the next line without a space. The module `breaks`
//! holds the rules for tokens that cannot end at a line's end, lines that cannot continue
//! one, soft hyphens (removed) and TeX's hyphens in plain-text DOIs (dropped). Each
//! identifier is reported once, where it is first read, with the first version any mention
//! gives.
//!
//! At most 4 MiB of identifiers are reported for one file (counted by
//! [`crate::bounded::Output`]), the first ones read. It does no I/O: the job layer reads
//! files and source tars.

mod breaks;
pub mod grammar;
mod layout;

use std::collections::{HashMap, HashSet};

use crate::pdf::text::PageText;
pub use grammar::Cited;

/// One identifier a paper cites and where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// What is cited.
    pub cited: Cited,
    /// The page (from 1) of a PDF; `None` in a `.bbl`.
    pub page: Option<u32>,
    /// The line (from 1) on the page, or in the `.bbl`.
    pub line: u32,
    /// How it was read.
    pub via: Via,
}

/// How an identifier was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// In the printed text.
    Text,
    /// As the target of a link annotation on the line (a DOI's or arXiv's URL).
    Link,
}

/// Headings of a reference section, lower case.
const HEADINGS: [&str; 8] = [
    "references",
    "bibliography",
    "references and notes",
    "literature cited",
    "works cited",
    "cited literature",
    "reference",
    "literatur",
];

/// The most bytes of identifiers one file reports (some 100,000 arXiv ids and DOIs, a hundred
/// times the longest real reference list): the first ones read are kept.
const MAX_IDENTIFIER_TEXT: u64 = 4 << 20;

/// Characters after which url.sty, hyperref and biblatex break a URL.
const URL_BREAKS: &[u8] = b"-/._:;,=?&#~@!|+)]>";

/// Whether `line` is a reference section's heading (`References`, `7 References`,
/// `VII. REFERENCES`, `Bibliography:`).
fn is_heading(line: &str) -> bool {
    heading(line).is_some()
}

/// The name of the reference section's heading `line` is, lower case, its numbering and a
/// running header's page number aside (`12 References`, `References 13`).
fn heading(line: &str) -> Option<String> {
    let t = line.trim().trim_end_matches(':').trim();
    let t = t
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        .trim_start();
    let t = match t.split_once(". ") {
        Some((roman, rest)) if roman.chars().all(|c| "IVXLC".contains(c)) && !roman.is_empty() => {
            rest
        }
        _ => t,
    };
    let t = t.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end();
    let t = t.to_lowercase();
    HEADINGS.contains(&t.as_str()).then_some(t)
}

/// A line as read, with where it came from.
struct Src<'a> {
    text: &'a str,
    page: Option<u32>,
    line: u32,
    /// Where it lies across its page: its start and end, its column's right edge, and the
    /// width of one character on average (none in a `.bbl`).
    geometry: Option<Geometry>,
}

#[derive(Debug, Clone, Copy)]
struct Geometry {
    x0: f32,
    x1: f32,
    y: f32,
    size: f32,
    edge: f32,
    em: f32,
}

/// The identifiers cited in a PDF's text (see the module's docs for what is read).
///
/// # Examples
/// ```
/// use pith::pdf::text::{Line, PageText};
/// use pith::refs::{from_pages, Cited};
/// let line = |t: &str, y: f32| Line { text: t.into(), x0: 72.0, x1: 300.0, y, size: 10.0,
///     rotated: false };
/// let page = PageText { page: 9, links: vec![], lines: vec![
///     line("We build on 10.1000/not-a-reference.", 700.0),
///     line("References", 680.0),
///     line("[1] A. Author. Title. arXiv:1706.03762v5, 2017.", 660.0),
/// ]};
/// let found = from_pages(&[page]);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].cited, Cited::Arxiv { id: "1706.03762".into(), version: Some(5) });
/// assert_eq!((found[0].page, found[0].line), (Some(9), 3));
/// ```
pub fn from_pages(pages: &[PageText]) -> Vec<Mention> {
    let mut running = layout::running(pages);
    running.extend(layout::own_citation(pages));
    running.extend(layout::line_numbers(pages));
    let mut lines = Vec::new();
    // Where each kept line came from: its page's index and its index there.
    let mut origin = Vec::new();
    // A heading printed atop every page of the list is kept where it is first printed.
    let mut running_heading = false;
    for (pi, p) in pages.iter().enumerate() {
        let kept: Vec<usize> = (0..p.lines.len())
            .filter(|&i| {
                let l = &p.lines[i];
                let run = running.contains(&(pi, i));
                let first_heading = run && !running_heading && is_heading(&l.text);
                running_heading |= first_heading;
                !l.rotated && (!run || first_heading)
            })
            .collect();
        // A column's edge is its list's: a running line across the page is not.
        let kept_lines: Vec<&crate::pdf::text::Line> = kept.iter().map(|&i| &p.lines[i]).collect();
        let edges = edges(&kept_lines);
        for (k, &i) in kept.iter().enumerate() {
            let l = &p.lines[i];
            let edge = edges[k];
            let chars = l.text.chars().count().max(1) as f32;
            origin.push((pi, i));
            lines.push(Src {
                text: &l.text,
                page: Some(p.page),
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                geometry: Some(Geometry {
                    x0: l.x0,
                    x1: l.x1,
                    y: l.y,
                    size: l.size,
                    edge,
                    // Narrow glyphs (digits, no word spaces read) make the average too small
                    // for the piece of an identifier that did not fit.
                    em: ((l.x1 - l.x0) / chars).max(0.45 * l.size),
                }),
            });
        }
    }
    let texts: Vec<(&str, Option<u32>)> = lines.iter().map(|l| (l.text, l.page)).collect();
    let start = layout::start(&texts);
    let end = layout::end(&texts, start);
    let mut found = Found::new();
    scan(&lines[start..end], &mut found);
    layout::links(pages, &origin[start..end], &mut found);
    let first_listed: HashSet<usize> = origin[start..end]
        .iter()
        .filter(|&&(pi, _)| pi == 0)
        .map(|&(_, i)| i)
        .collect();
    let own = layout::own_dois(pages, &first_listed);
    let mut out = found.out;
    out.retain(|m| !matches!(&m.cited, Cited::Doi(d) if own.contains(&d.to_ascii_lowercase())));
    out
}

/// The citing paper's arXiv id and version (`2402.03791v3`) as arXiv's stamp prints it up the
/// margin of the first page, if it does.
///
/// # Examples
/// ```
/// use pith::pdf::text::{Line, PageText};
/// let stamp = Line { text: "arXiv:2402.03791v3 [cs.DC] 6 Feb 2024".into(), x0: 20.0,
///     x1: 20.0, y: 200.0, size: 20.0, rotated: true };
/// let page = PageText { page: 1, lines: vec![stamp], links: vec![] };
/// assert_eq!(pith::refs::stamp(&[page]).as_deref(), Some("2402.03791v3"));
/// ```
pub fn stamp(pages: &[PageText]) -> Option<String> {
    layout::stamp(pages)
}

/// Each line's column's right edge: the farthest any line that starts within 60 points of
/// it ends. Read in one sweep of the lines sorted by where they start (a sliding window's
/// maximum), so a page of a hundred thousand lines costs what sorting them costs, not each
/// line a pass over every other.
fn edges(lines: &[&crate::pdf::text::Line]) -> Vec<f32> {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| lines[a].x0.total_cmp(&lines[b].x0));
    let mut out = vec![0f32; lines.len()];
    // Positions in `order` of the window's candidates for the maximum, their x1 decreasing.
    let mut window: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut next = 0;
    for &i in &order {
        let x0 = lines[i].x0;
        while next < order.len() && lines[order[next]].x0 < x0 + 60.0 {
            let x1 = lines[order[next]].x1;
            while window.back().is_some_and(|&k| lines[order[k]].x1 <= x1) {
                window.pop_back();
            }
            window.push_back(next);
            next += 1;
        }
        while window
            .front()
            .is_some_and(|&k| lines[order[k]].x0 <= x0 - 60.0)
        {
            window.pop_front();
        }
        let far = window.front().map_or(f32::MIN, |&k| lines[order[k]].x1);
        out[i] = far.max(lines[i].x1);
    }
    out
}

/// The identifiers cited in a `.bbl` file (natbib's, BibLaTeX's or plain BibTeX's): every
/// line is read, TeX's escapes (`\_`, `\%`) undone first.
///
/// # Examples
/// ```
/// use pith::refs::{from_bbl, Cited};
/// let bbl = "\\bibitem{v}\nA.~Vaswani. \\newblock arXiv:1706.03762.\n\\doi{10.1000/a\\_b}\n";
/// let found = from_bbl(bbl);
/// assert_eq!(found[1].cited, Cited::Doi("10.1000/a_b".into()));
/// assert_eq!(found[1].line, 3);
/// ```
pub fn from_bbl(text: &str) -> Vec<Mention> {
    let unescaped: Vec<String> = text
        .lines()
        .map(|l| {
            let mut s = l.to_owned();
            for e in ["\\_", "\\%", "\\&", "\\#", "\\$", "\\~"] {
                s = s.replace(e, &e[1..]);
            }
            // `\url{…}`, `\doi{…}`, `\verb{doi}`: braces end identifiers as spaces would.
            s.replace(['{', '}', '~'], " ")
        })
        .collect();
    let lines: Vec<Src> = unescaped
        .iter()
        .enumerate()
        .map(|(i, t)| Src {
            text: t,
            page: None,
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            geometry: None,
        })
        .collect();
    let mut found = Found::new();
    scan(&lines, &mut found);
    found.out
}

/// Whether the token at the end of `a` runs on into the next line `b` (a URL broken there;
/// [`breaks`] says which ends and starts cannot be one identifier's).
fn runs_on(a: &Src, b: &Src, tail: &str) -> bool {
    let first = b.text.as_bytes().first().copied().unwrap_or(b' ');
    let Some(&last) = a.text.as_bytes().last() else {
        return false;
    };
    if breaks::starts_anew(last, b.text) {
        return false;
    }
    if let Some(on) = breaks::bracket_runs_on(tail, b.text, continues_below(a, b)) {
        return on;
    }
    if a.text.ends_with('\u{AD}') {
        return first.is_ascii_alphanumeric();
    }
    // A URL broken before its break character (`…/JACoW⏎-HP071`): the next line starts
    // with it and goes on with the identifier.
    let second = b.text.as_bytes().get(1).copied().unwrap_or(b' ');
    let before =
        last.is_ascii_alphanumeric() && b"-/.".contains(&first) && second.is_ascii_alphanumeric();
    if !(URL_BREAKS.contains(&last) || before)
        || !(first.is_ascii_alphanumeric() || b"-_.:/(".contains(&first))
    {
        return false;
    }
    // The token as read so far: a URL may already run over more than one line.
    let token = breaks::last_token(tail).to_ascii_lowercase();
    let linkish = ["10.", "arxiv", "doi", "://", "www.", "/"]
        .iter()
        .any(|p| token.contains(p))
        || crate::arxiv_id::OLD_ARCHIVES
            .iter()
            .any(|a| a.len() > token.len() && a.starts_with(&token) && token.ends_with('-'));
    if !linkish {
        return false;
    }
    if before {
        // Only inside an identifier or a URL already begun, and on the line just below.
        return (token.contains("10.") || token.contains("://")) && continues_below(a, b);
    }
    // An identifier cannot end in `/` or `:` (`10.1103/`, `arXiv:`), nor as an unfinished
    // token: the next line holds the rest wherever the line ends.
    if b"/:".contains(&last) || breaks::unfinished(&token) {
        return true;
    }
    match (a.geometry, b.geometry) {
        // A line broken inside a URL ends where the next piece of it (up to its next break)
        // would not fit; a reference's last line ends anywhere, and the next reference starts
        // further left than a continuation (its label, or a hanging indent).
        (Some(ga), Some(_)) => {
            let piece = b
                .text
                .bytes()
                .position(|c| c == b' ' || URL_BREAKS.contains(&c))
                .map_or(b.text.len(), |p| p + 1) as f32;
            continues_below(a, b) && ga.edge - ga.x1 < (piece + 1.0) * ga.em
        }
        _ => last == b'-',
    }
}

/// Whether `b` is the line just below `a` in the same column: on the same page, less than two
/// lines' height lower, and not further left (not a footer, nor the top of another column).
fn continues_below(a: &Src, b: &Src) -> bool {
    match (a.geometry, b.geometry) {
        (Some(ga), Some(gb)) => {
            a.page == b.page
                && ga.y > gb.y
                && ga.y - gb.y < 2.0 * ga.size.max(1.0)
                && gb.x0 >= ga.x0 - 2.0
        }
        _ => false,
    }
}

fn normalise(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2212}' => out.push('-'),
            // A soft hyphen is a place a line may break, not a character ([`breaks`]).
            '\u{00AD}' => {}
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{00A0}' => out.push(' '),
            c => out.push(c),
        }
    }
}

/// The identifiers read so far, each once, within what one file reports.
struct Found {
    out: Vec<Mention>,
    seen: HashMap<String, usize>,
    kept: crate::bounded::Output,
}

impl Found {
    fn new() -> Self {
        Found {
            out: Vec::new(),
            seen: HashMap::new(),
            kept: crate::bounded::Output::new(MAX_IDENTIFIER_TEXT),
        }
    }

    /// Adds `m` unless its identifier was read before (then only its version, the first one
    /// a mention gives); `false` once the file's bound is reached.
    fn add(&mut self, m: Mention) -> bool {
        let key = m.cited.key();
        match self.seen.get(&key) {
            Some(&k) => {
                if let (
                    Cited::Arxiv {
                        version: v @ None, ..
                    },
                    Cited::Arxiv {
                        version: Some(n), ..
                    },
                ) = (&mut self.out[k].cited, &m.cited)
                {
                    *v = Some(*n);
                }
                true
            }
            None => {
                // What a file reports is bounded: past it, the rest of the list is not read.
                if self.kept.spend(key.len()).is_err() {
                    return false;
                }
                self.seen.insert(key, self.out.len());
                self.out.push(m);
                true
            }
        }
    }
}

fn scan(lines: &[Src], found: &mut Found) {
    let mut text = String::new();
    // Where each line starts in `text`.
    let mut starts: Vec<usize> = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        // The last 512 bytes hold any identifier's start (at a character's boundary).
        let mut from = text.len().saturating_sub(512);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        if i > 0 {
            if !runs_on(&lines[i - 1], l, &text[from..]) {
                text.push('\n');
            } else if breaks::typeset_hyphen(breaks::last_token(&text[from..]), l.text) {
                text.pop();
            }
        }
        starts.push(text.len());
        normalise(l.text, &mut text);
    }
    for (at, cited) in grammar::find(&text) {
        let i = starts.partition_point(|&s| s <= at).saturating_sub(1);
        let Some(src) = lines.get(i) else { continue };
        let m = Mention {
            cited,
            page: src.page,
            line: src.line,
            via: Via::Text,
        };
        if !found.add(m) {
            break;
        }
    }
}

#[cfg(test)]
mod tests;
