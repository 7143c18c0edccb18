//! Which of a PDF's printed lines are the reference list: the page furniture left out
//! (running headers and footers, text set sideways such as arXiv's stamp), where the list
//! starts, which link annotations sit on its entries, and the citing paper's own id as arXiv
//! stamps it up the first page's margin.
//!
//! - A **running line** is a line among the three highest or three lowest of its page whose
//!   text, digits aside (page numbers, the paper's own DOI or id stay the same), is printed
//!   within 4 points of the same height on at least three pages (two in a paper of at most
//!   four pages), its numbers the same there but for one (the page's own), has at least four
//!   letters besides an identifier's (`arXiv:`, `doi:`, a URL's) and is no numbered entry
//!   (`[12] …`). It is
//!   neither searched for a heading nor read for identifiers.
//! - The **list starts** after the last heading that names it ([`super::is_heading`]) and has
//!   something after it other than headings; a heading repeated on the pages just before it
//!   (a "References" printed atop each page of the list) starts it at its first page. A paper
//!   without any heading starts at its last `[1]` entry that a `[2]` follows, or is read
//!   whole.
//! - The **list ends** at the first heading after it of a section real papers print after
//!   their list (F1000's "Open Peer Review" with its referee reports' DOIs, "Appendix A",
//!   "Supplementary material", "Figure legends", …), alone on its line, or at the paper's end.
//! - The paper's **own DOI** is one printed in the first page's header or footer (its three
//!   highest and lowest heights, the list itself aside): a paper never cites itself, so that
//!   DOI is never reported, wherever else it is printed.
//! - A **line number** (`lineno`'s, in the margin of a review or draft copy) is a line of one
//!   to five digits alone, printed on the baseline of another line of the page (within a
//!   quarter of its size) that it does not overlap and that holds more than digits. It is
//!   not read: a DOI broken after `10.` goes on in the line below, not in the margin's number.
//! - A **link** counts when its URI is a DOI's (`doi.org`, `dx.doi.org`), a publisher's
//!   page that names its DOI in its path or query (`…/doi/abs/10.1002/…`,
//!   `link.springer.com/book/10.1007/…`, `…/article?id=10.1371/…`) or an arXiv
//!   abstract's or PDF's and its rectangle overlaps a line of the list, or, thinner than a
//!   quarter of a line (a link split by a line break, written as one strip from its start to
//!   its end), lies within half a line of one that it spans across.
//!
//! Each step costs what sorting the lines costs: no line is compared with every other.

use std::collections::{HashMap, HashSet};

use crate::pdf::text::{Line, PageText};

use super::{heading, is_heading, Cited, Found, Mention, Via};

/// How many of a page's highest and lowest lines may be running lines.
const EDGE_LINES: usize = 3;
/// How far apart (points) the same running line may sit on two pages.
const RUNNING_SLACK: f32 = 4.0;
/// How many lines below a `[1]` its `[2]` may start.
const NEXT_ENTRY_WITHIN: usize = 200;
/// How many lines one link is compared with (lines overlapping its height).
const LINES_PER_LINK: usize = 64;
/// Longest DOI read from a link.
const MAX_LINK_DOI: usize = 512;

/// The lines (page index, line index) of `pages` that are running headers or footers.
pub(super) fn running(pages: &[PageText]) -> HashSet<(usize, usize)> {
    let need = if pages.len() <= 4 { 2 } else { 3 };
    let mut out = HashSet::new();
    if pages.len() < need {
        return out;
    }
    // Each candidate's shape → where it is printed (height, page, index of its digits in
    // `numbers`), sorted by height.
    let mut at: HashMap<String, Vec<(f32, usize, usize)>> = HashMap::new();
    let mut numbers: Vec<Vec<&str>> = Vec::new();
    let mut candidates = Vec::new();
    for (pi, p) in pages.iter().enumerate() {
        for i in edge_lines(p) {
            let text = p.lines[i].text.trim_start();
            let key = shape(text);
            // A line of few letters (a page number, the digits of an identifier's broken
            // end) or a list's entry (`[12] …`) is no page furniture, whatever repeats.
            // Letters of words other than an identifier's own (`arXiv:`, `doi:`, a URL's).
            let mut words = key.clone();
            for w in ["https", "http", "arxiv", "doi", "org", "www"] {
                words = words.replace(w, "");
            }
            let letters = words.chars().filter(|c| c.is_alphabetic()).count();
            if letters < 4 || (text.starts_with('[') && key.starts_with("[]")) {
                continue;
            }
            at.entry(key.clone())
                .or_default()
                .push((p.lines[i].y, pi, numbers.len()));
            candidates.push((pi, i, key, numbers.len()));
            numbers.push(
                text.split(|c: char| !c.is_ascii_digit())
                    .filter(|n| !n.is_empty())
                    .collect(),
            );
        }
    }
    for v in at.values_mut() {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // The same furniture differs from page to page in one number at most (the page's own):
    // lines of a list that read alike but for their numbers (`Phys. Rev. Lett. 10 (2020)
    // 101,` at the foot of two pages) are no furniture.
    let one_counter = |a: &[&str], b: &[&str]| {
        a.len() == b.len() && a.iter().zip(b).filter(|(x, y)| x != y).count() <= 1
    };
    for (pi, i, key, n) in candidates {
        let y = pages[pi].lines[i].y;
        let Some(v) = at.get(&key) else { continue };
        let from = v.partition_point(|e| e.0 < y - RUNNING_SLACK);
        // At most EDGE_LINES·2 entries a page: the walk stops once enough pages are seen.
        let mut seen: Vec<usize> = Vec::with_capacity(need);
        for e in v[from..].iter().take_while(|e| e.0 <= y + RUNNING_SLACK) {
            if !seen.contains(&e.1) && one_counter(&numbers[n], &numbers[e.2]) {
                seen.push(e.1);
                if seen.len() >= need {
                    out.insert((pi, i));
                    break;
                }
            }
        }
    }
    out
}

/// The lines (page index, line index) of `pages` that are line numbers set in the margin.
pub(super) fn line_numbers(pages: &[PageText]) -> HashSet<(usize, usize)> {
    let mut out = HashSet::new();
    for (pi, p) in pages.iter().enumerate() {
        let bare = |l: &Line| {
            let t = l.text.trim();
            (1..=5).contains(&t.len()) && t.bytes().all(|c| c.is_ascii_digit())
        };
        if !p.lines.iter().any(|l| !l.rotated && bare(l)) {
            continue;
        }
        let mut by_height: Vec<usize> = (0..p.lines.len())
            .filter(|&i| !p.lines[i].rotated)
            .collect();
        by_height.sort_by(|&a, &b| p.lines[a].y.total_cmp(&p.lines[b].y));
        for (k, &i) in by_height.iter().enumerate() {
            let n = &p.lines[i];
            if !bare(n) {
                continue;
            }
            let slack = n.size.clamp(0.0, 100.0) * 0.25;
            // The lines on its baseline, on either side of it in height order.
            let near = |&&j: &&usize| (p.lines[j].y - n.y).abs() <= slack;
            let below = by_height[..k].iter().rev().take_while(near);
            let above = by_height[k + 1..].iter().take_while(near);
            let beside = below.chain(above).take(LINES_PER_LINK).any(|&j| {
                let l = &p.lines[j];
                !bare(l) && (l.x0 >= n.x1 || l.x1 <= n.x0)
            });
            if beside {
                out.insert((pi, i));
            }
        }
    }
    out
}

/// The indices of a page's upright lines that may be page furniture: its [`EDGE_LINES`]
/// highest and lowest.
fn edge_lines(p: &PageText) -> Vec<usize> {
    let mut upright: Vec<usize> = (0..p.lines.len())
        .filter(|&i| !p.lines[i].rotated)
        .collect();
    upright.sort_by(|&a, &b| p.lines[b].y.total_cmp(&p.lines[a].y));
    let n = upright.len();
    let mut edge: Vec<usize> = upright.iter().take(EDGE_LINES).copied().collect();
    edge.extend(
        upright
            .iter()
            .skip(n.saturating_sub(EDGE_LINES).max(EDGE_LINES)),
    );
    edge
}

/// The DOIs the paper prints as its own: those in the first page's header and footer lines
/// (the [`EDGE_LINES`] highest and lowest heights at which it prints), where journals print the article's DOI. A paper never
/// cites itself, so where these are printed again (a running footer the rule above misses, a
/// "Citation:" box after the list) they are no reference. Lines of the list itself
/// (`in_list`, indices into the first page's lines) are not read: a list may start on the
/// first page. Lower case.
pub(super) fn own_dois(pages: &[PageText], in_list: &HashSet<usize>) -> HashSet<String> {
    let mut out = HashSet::new();
    let Some(first) = pages.first().filter(|p| p.page == 1) else {
        return out;
    };
    // By height, not by line: a header set as several pieces side by side (journal, volume,
    // DOI) is one printed line.
    let mut heights: Vec<f32> = first
        .lines
        .iter()
        .filter(|l| !l.rotated)
        .map(|l| l.y.round())
        .collect();
    heights.sort_by(|a, b| b.total_cmp(a));
    heights.dedup();
    let n = heights.len();
    // A page of few lines is all edges: nothing there says which DOI is the paper's.
    if n <= 2 * EDGE_LINES {
        return out;
    }
    let edge: Vec<f32> = heights
        .iter()
        .take(EDGE_LINES)
        .chain(
            heights
                .iter()
                .skip(n.saturating_sub(EDGE_LINES).max(EDGE_LINES)),
        )
        .copied()
        .collect();
    let at_edge = |l: &Line| !l.rotated && edge.contains(&l.y.round());
    for i in (0..first.lines.len()).filter(|&i| at_edge(&first.lines[i]) && !in_list.contains(&i)) {
        let mut found = Found::new();
        let line = super::Src {
            text: &first.lines[i].text,
            page: Some(1),
            line: 1,
            geometry: None,
        };
        super::scan(std::slice::from_ref(&line), &mut found);
        for m in found.out {
            if let Cited::Doi(d) = m.cited {
                out.insert(d.to_ascii_lowercase());
            }
        }
    }
    out
}

/// The lines (page index, line index) of the box in which a journal tells how to cite the
/// paper itself (BioMed Central's "Cite this article as: …", with the paper's own DOI on the
/// line above): the paper's own identifier, never one of its references.
pub(super) fn own_citation(pages: &[PageText]) -> HashSet<(usize, usize)> {
    let mut out = HashSet::new();
    for (pi, p) in pages.iter().enumerate() {
        for (i, l) in p.lines.iter().enumerate() {
            let t = l.text.trim_start();
            let starts = t
                .get(..17)
                .is_some_and(|h| h.eq_ignore_ascii_case("cite this article"));
            if !starts {
                continue;
            }
            out.insert((pi, i));
            if let Some(prev) = i.checked_sub(1) {
                let above = p.lines[prev].text.trim_start().to_ascii_lowercase();
                if above.starts_with("doi") && !above.contains(' ') || above.starts_with("doi ") {
                    out.insert((pi, prev));
                }
            }
            // The box's own lines below, set where it starts.
            for (k, below) in p.lines.iter().enumerate().skip(i + 1).take(6) {
                if (below.x0 - l.x0).abs() > 1.0 {
                    break;
                }
                out.insert((pi, k));
            }
        }
    }
    out
}

/// A line's text with digits and spacing aside, lower case: what stays the same of a running
/// line from page to page.
fn shape(text: &str) -> String {
    let mut s = String::new();
    for c in text
        .chars()
        .filter(|c| !c.is_ascii_digit() && !c.is_whitespace())
    {
        s.extend(c.to_lowercase());
        if s.len() > 256 {
            break;
        }
    }
    s
}

/// Where the reference list starts among `lines` (texts with their pages), by the rules in
/// the module's docs.
pub(super) fn start(lines: &[(&str, Option<u32>)]) -> usize {
    let headings: Vec<usize> = (0..lines.len())
        .filter(|&i| is_heading(lines[i].0))
        .collect();
    let followed = |h: usize| {
        lines[h + 1..]
            .iter()
            .filter(|l| !is_heading(l.0))
            .take(2)
            .count()
            >= 2
    };
    let chosen = headings
        .iter()
        .rev()
        .copied()
        .find(|&h| followed(h))
        .or(headings.last().copied());
    if let Some(mut h) = chosen {
        // The same heading on the pages just before: the list started at the first of them.
        let mut k = headings.partition_point(|&x| x < h);
        while k > 0 {
            let prev = headings[k - 1];
            let (text, page) = lines[prev];
            let (cur_text, cur_page) = lines[h];
            let adjacent = match (page, cur_page) {
                (Some(a), Some(b)) => b == a || b == a + 1,
                _ => false,
            };
            if !adjacent || heading(text) != heading(cur_text) {
                break;
            }
            h = prev;
            k -= 1;
        }
        return h + 1;
    }
    // No heading: the last numbered list that starts at `[1]` and goes on to `[2]`.
    let label = |t: &str, n: &str| t.trim_start().starts_with(n);
    (0..lines.len())
        .rev()
        .find(|&i| {
            label(lines[i].0, "[1]")
                && lines[i + 1..]
                    .iter()
                    .take(NEXT_ENTRY_WITHIN)
                    .any(|l| label(l.0, "[2]"))
        })
        .unwrap_or(0)
}

/// The headings of what real papers print after their reference list, lower case: referee
/// reports (F1000's "Open Peer Review"), appendices, supplementary material, figure legends.
const AFTER_THE_LIST: [&str; 14] = [
    "open peer review",
    "referee status",
    "appendix",
    "appendices",
    "supplementary material",
    "supplementary materials",
    "supplementary information",
    "supporting information",
    "additional files",
    "figure legends",
    "figure captions",
    "figures",
    "tables",
    "author contributions",
];

/// Whether `line` is the heading of a section after the list: one of [`AFTER_THE_LIST`] alone
/// on its line (a trailing colon aside), or an appendix's (`Appendix A`, `Appendix 1:`).
fn after_the_list(line: &str) -> bool {
    let t = line.trim().trim_end_matches(':').trim_end().to_lowercase();
    if AFTER_THE_LIST.contains(&t.as_str()) {
        return true;
    }
    t.strip_prefix("appendix ").is_some_and(|label| {
        let label = label.trim_end_matches('.');
        !label.is_empty() && label.len() <= 2 && label.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// Where the reference list that starts at `from` ends among `lines`: at the first heading of
/// a section printed after it ([`after_the_list`]), or at the end. What follows the list
/// (referee reports and their DOIs, an appendix's text) is not what the list cites. A paper
/// read whole (no list found, `from` 0) is not cut.
pub(super) fn end(lines: &[(&str, Option<u32>)], from: usize) -> usize {
    if from == 0 {
        return lines.len();
    }
    lines[from.min(lines.len())..]
        .iter()
        .position(|l| after_the_list(l.0))
        .map_or(lines.len(), |k| from + k)
}

/// The identifiers that the links on the list's lines (`listed`: page index, line index, in
/// reading order) point to, each where its link first sits, after those the text gives.
pub(super) fn links(pages: &[PageText], listed: &[(usize, usize)], found: &mut Found) {
    let mut by_page: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(pi, i) in listed {
        by_page.entry(pi).or_default().push(i);
    }
    let mut order: Vec<usize> = by_page.keys().copied().collect();
    order.sort_unstable();
    for pi in order {
        let p = &pages[pi];
        if p.links.is_empty() {
            continue;
        }
        let mut on: Vec<(usize, &crate::pdf::text::Line)> =
            by_page[&pi].iter().map(|&i| (i, &p.lines[i])).collect();
        on.sort_by(|a, b| a.1.y.total_cmp(&b.1.y));
        let mut hits: Vec<(usize, Cited)> = p
            .links
            .iter()
            .filter_map(|l| {
                let cited = cited_by_uri(&l.uri)?;
                Some((under(&on, l.rect)?, cited))
            })
            .collect();
        hits.sort_by_key(|h| h.0);
        for (i, cited) in hits {
            let m = Mention {
                cited,
                page: Some(p.page),
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                via: Via::Link,
            };
            if !found.add(m) {
                return;
            }
        }
    }
}

/// What a link's URI cites: a DOI's URL, a publisher's page that names its DOI (see
/// [`landing_doi`]), or an arXiv abstract's or PDF's.
pub(super) fn cited_by_uri(uri: &str) -> Option<Cited> {
    let uri = uri.trim();
    if let Some((id, version, _)) = crate::arxiv_id::of_url(uri) {
        return Some(Cited::Arxiv { id, version });
    }
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/')?;
    let host = host.to_ascii_lowercase();
    let doi = if matches!(host.as_str(), "doi.org" | "dx.doi.org" | "www.doi.org") {
        percent_decoded(path.split(['?', '#']).next()?)?
    } else {
        landing_doi(path)?
    };
    if let Some((id, version)) = crate::arxiv_id::of_text(&doi) {
        return Some(Cited::Arxiv { id, version });
    }
    let ok = doi.starts_with("10.")
        && doi.len() <= MAX_LINK_DOI
        && doi.split_once('/').is_some_and(|(p, s)| {
            p.len() > 3 && p[3..].bytes().all(|b| b.is_ascii_digit() || b == b'.') && !s.is_empty()
        })
        && !doi.chars().any(|c| c.is_whitespace() || c.is_control());
    ok.then(|| Cited::Doi(doi.trim_end_matches(['.', ',', ';']).to_owned()))
}

/// Path segments after which publishers' pages print the DOI they stand for
/// (`/doi/10.…`, `/doi/abs/10.…`: Wiley, Taylor & Francis, SAGE, ACS, APS; `/article/10.…`,
/// `/chapter/10.…`, `/book/10.…`, `/content/pdf/10.…`: Springer; `content` only before a
/// view).
const LANDING_BEFORE: [&str; 5] = ["doi", "article", "chapter", "book", "referenceworkentry"];
/// Views a publisher names between that segment and the DOI, or after the DOI.
const LANDING_VIEWS: [&str; 8] = [
    "abs", "full", "pdf", "epdf", "epub", "fulltext", "abstract", "summary",
];

/// The DOI a publisher's page names in its URL (`path`, after the host): in its path after
/// a segment of [`LANDING_BEFORE`] (a view of [`LANDING_VIEWS`] between them; views and
/// `.pdf` after it left out), or as the value of its query's `doi` or `id`
/// (`journals.plos.org/plosone/article?id=10.1371/…`). Only a value that starts with `10.`
/// is taken; the caller checks the DOI's grammar.
fn landing_doi(path: &str) -> Option<String> {
    let path = path.split('#').next()?;
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    for pair in query.split('&') {
        if let Some(v) = pair
            .strip_prefix("doi=")
            .or_else(|| pair.strip_prefix("id="))
        {
            let v = percent_decoded(v)?;
            if v.starts_with("10.") {
                return Some(v);
            }
        }
    }
    let segs: Vec<&str> = path.split('/').collect();
    let at = segs.iter().position(|s| s.starts_with("10."))?;
    let before = &segs[..at];
    let named = match before {
        [.., b, v] if LANDING_VIEWS.contains(v) => LANDING_BEFORE.contains(b) || *b == "content",
        [.., b] => LANDING_BEFORE.contains(b),
        [] => false,
    };
    if !named {
        return None;
    }
    let mut tail = &segs[at..];
    while let [rest @ .., last] = tail {
        if rest.len() > 1 && (LANDING_VIEWS.contains(last) || last.is_empty()) {
            tail = rest;
        } else {
            break;
        }
    }
    let doi = percent_decoded(&tail.join("/"))?;
    Some(doi.strip_suffix(".pdf").map(str::to_owned).unwrap_or(doi))
}

/// `s` with its `%XX` escapes undone; `None` when that is not UTF-8.
fn percent_decoded(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, ..) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The line (index into `lines`, those of the list on one page, sorted by height) that the
/// rectangle `rect` overlaps, if any; or, for a rectangle thinner than a quarter of a line
/// (see [`between`]), the line it touches.
pub(super) fn under(lines: &[(usize, &Line)], rect: [f32; 4]) -> Option<usize> {
    let [x0, y0, x1, y1] = rect;
    // A line's glyphs reach from a quarter of its size below its baseline to its size above.
    let from = lines.partition_point(|(_, l)| l.y + l.size.clamp(0.0, 100.0) < y0);
    lines[from..]
        .iter()
        .take_while(|(_, l)| l.y - l.size.clamp(0.0, 100.0) * 0.25 <= y1)
        .take(LINES_PER_LINK)
        .find(|(_, l)| l.y + l.size * 0.8 > y0 && l.y - l.size * 0.25 < y1 && across(l, x0, x1))
        .map(|(i, _)| *i)
        .or_else(|| between(lines, rect))
}

/// A line's size, as far as its geometry is trusted.
fn size(l: &Line) -> f32 {
    l.size.clamp(0.0, 100.0)
}

/// Whether `l` reaches into the span from `x0` to `x1`.
fn across(l: &Line, x0: f32, x1: f32) -> bool {
    l.x0 < x1 && l.x1.max(l.x0 + 1.0) > x0
}

/// The line a link rectangle thinner than a quarter of a line belongs to: some producers
/// write a link that a line break splits as one rectangle from where it starts (at the
/// first line's right) to where it ends (at the next line's left), a strip in the leading
/// between the two lines that overlaps neither. Such a strip counts for the nearest line it
/// spans across, within half that line's size of its glyphs; both lines are the same entry's.
fn between(lines: &[(usize, &Line)], rect: [f32; 4]) -> Option<usize> {
    let [x0, y0, x1, y1] = rect;
    let from = lines.partition_point(|(_, l)| l.y + size(l) * 1.3 < y0);
    let mut best: Option<(f32, usize)> = None;
    for (i, l) in lines[from..]
        .iter()
        .take_while(|(_, l)| l.y - size(l) * 0.75 <= y1)
        .take(LINES_PER_LINK)
    {
        let s = size(l);
        if y1 - y0 >= s * 0.25 || !across(l, x0, x1) {
            continue;
        }
        let gap = ((l.y - s * 0.25) - y1).max(y0 - (l.y + s * 0.8)).max(0.0);
        // On a tie the higher line (the link's start, read first) wins.
        if gap <= s * 0.5 && best.is_none_or(|(g, _)| gap <= g) {
            best = Some((gap, *i));
        }
    }
    best.map(|(_, i)| i)
}

/// The citing paper's id and version as arXiv stamps its first page (`arXiv:2402.03791v3
/// [cs.DC] 6 Feb 2024`, set sideways in the margin).
pub(super) fn stamp(pages: &[PageText]) -> Option<String> {
    let first = pages.first()?;
    first
        .lines
        .iter()
        .filter(|l| l.rotated)
        .find_map(|l| stamp_id(&l.text))
}

fn stamp_id(text: &str) -> Option<String> {
    let at = text.find("arXiv:")?;
    let rest = &text[at + 6..];
    let id: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '[')
        .collect();
    let after = rest[id.len()..].trim_start();
    // The category in brackets, then the date: what only the stamp prints.
    let (_, date) = after.strip_prefix('[')?.split_once(']')?;
    if !date
        .trim()
        .bytes()
        .rev()
        .take(4)
        .all(|b| b.is_ascii_digit())
        || date.trim().len() < 8
    {
        return None;
    }
    let (bare, version) = crate::arxiv_id::split_version(&id);
    let version = version?;
    crate::arxiv_id::is_id(bare).then(|| format!("{bare}v{version}"))
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
