//! How an identifier broken at a line's end is put back together: which line ends cannot end
//! an identifier, which next lines cannot continue one, and which hyphens at a line's end are
//! typesetting's rather than the identifier's. [`super`] applies them where it decides whether
//! a line runs on into the next (its URL-break rule and the column's geometry).
//!
//! The rules, each from how reference lists are typeset:
//! - **Unfinished tokens** run on whatever the geometry says: a URL still in its host
//!   (`https://arxiv.⏎org/abs/…`, `https://doi.⏎org/…`), a DOI whose suffix so far is one or
//!   two characters (`10.1053/j.⏎gastro…`: no DOI is `10.1053/j`), a DOI prefix alone
//!   (`doi:10.⏎1103/…`), an arXiv number cut at its dot (`arXiv:1706.⏎03762`,
//!   `arxiv.org/abs/1706.⏎03762`), an old-style archive cut at its hyphen (`[astro-⏎ph/…]`).
//! - **An identifier in a bracket it opened** (`(doi:…`, `[arXiv:…`, `<https://…`) runs on
//!   into the next line when that line's first word closes the bracket, however the line
//!   ended (Royal Society Open Science breaks `(doi:10.3168/jds.S0022-0302⏎(05)73024-1)` and
//!   `(doi:10.1016/j.cbpa⏎.2008.09.013)` where no URL would break), and else into the line
//!   just below when that line starts at once with the rest; into no other line.
//! - **A next line that starts anew** is never run into from a line ending in `.` or `,`
//!   (where an entry may end): one that starts with a label (`URL`, `Available`, `[Online]`,
//!   `doi:`, `arXiv:`, `http(s)://`, `Retrieved`, `Accessed`, `ISBN`, `PMID` …) or with an
//!   author's name (`Smith, J.`, `Smith JA,`, `J. Smith`); nor from a line ending in `.` into
//!   one that starts a sentence (a capitalised word and a space: PubMed's `Epub 2012 Aug 7.`
//!   after `doi:10.1038/ijo.2012.129.`). A line ending in `/` or `:` still
//!   runs on (an identifier cannot end there), but not into a label.
//! - **Soft hyphens** (U+00AD) are break opportunities a publisher wrote into the text, shown
//!   only where a line breaks: they are removed wherever they stand, and a line that ends in
//!   one runs on into the next. (pith's text reader maps WinAnsi's code 0xAD, the visible
//!   hyphen, to `-`, so a U+00AD in the text is one a ToUnicode map named soft.)
//! - **A hyphen at a line's end** is the identifier's own, kept, when the identifier is a URL
//!   (`https://doi.org/…`: url.sty and hyperref break after a hyphen without adding one) or
//!   when what stands on either side is not a word TeX would hyphenate. It is TeX's, dropped,
//!   only in a DOI printed as plain text whose part (between `/` and `.`) is split into a
//!   lower-case run of at least two letters before (TeX's `\lefthyphenmin`) and a lower-case
//!   run of at least three after (`\righthyphenmin`), that part holding no other hyphen:
//!   `10.1038/na-⏎ture34693` is `10.1038/nature34693`. The limit: a plain-text DOI whose own
//!   hyphen joins two such runs in a part without other hyphens, broken exactly there, is read
//!   without it (`10.1000/ab-⏎cde`); a part of several hyphens (`annurev-astro-081811`,
//!   `abc-defg-hi`) and a URL keep theirs.

/// The words a next line starts with that begin something other than an identifier's rest.
const LABELS: [&str; 17] = [
    "URL",
    "Available",
    "[Online]",
    "Online",
    "doi",
    "DOI",
    "arXiv",
    "http",
    "https",
    "Retrieved",
    "Accessed",
    "ISBN",
    "ISSN",
    "PMID",
    "PMCID",
    "In",
    "Preprint",
];

/// The token a line's text ends with, without the punctuation that opens it (`[astro-` is
/// `astro-`, `(https://…` is `https://…`).
pub(super) fn last_token(tail: &str) -> &str {
    tail.rsplit(char::is_whitespace)
        .next()
        .unwrap_or("")
        .trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
}

/// Where a DOI's suffix starts in `token` (after `10.NNNN/`), if it holds one.
fn doi_suffix(token: &str) -> Option<usize> {
    let b = token.as_bytes();
    let mut from = 0;
    while let Some(p) = token[from..].find("10.") {
        let at = from + p;
        let reg = b[at + 3..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if (4..=9).contains(&reg) && b.get(at + 3 + reg) == Some(&b'/') {
            return Some(at + 4 + reg);
        }
        from = at + 3;
    }
    None
}

/// Whether `token` (a line's last, [`last_token`]) cannot end an identifier: it runs on
/// whatever the line's geometry says.
pub(super) fn unfinished(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    if let Some((_, rest)) = lower.split_once("://") {
        // Still in the host: `https://arxiv.`, `https://doi.`.
        if !rest.contains('/') {
            return rest.ends_with('.') || rest.ends_with('-');
        }
    }
    // `doi:10.`, `doi.org/10.`: a DOI's prefix alone (a bare `10.` may be a page).
    if lower.ends_with(":10.") || lower.ends_with("/10.") {
        return true;
    }
    if let Some(s) = doi_suffix(&lower) {
        let suffix = lower[s..].trim_end_matches(['.', '-', '_']);
        return suffix.len() <= 2;
    }
    // `arXiv:1706.`, `arxiv.org/abs/1706.`: a new-style number cut at its dot.
    if let Some(p) = lower.rfind("arxiv") {
        let num = lower[p..].rsplit([':', '/']).next().unwrap_or("");
        if num.len() == 5 && num.ends_with('.') && num[..4].bytes().all(|c| c.is_ascii_digit()) {
            return true;
        }
    }
    // `astro-`, `arXiv:hep-`: an old-style archive cut at its hyphen.
    let name = lower.rsplit([':', '/']).next().unwrap_or("");
    name.ends_with('-')
        && crate::arxiv_id::OLD_ARCHIVES
            .iter()
            .any(|a| a.len() > name.len() && a.starts_with(name))
}

/// The bracket the identifier at the end of `tail` stands in, opened and not closed
/// (`(doi:10.3168/jds.S0022-0302`, `[arXiv:hep-`, `<https://doi.org/10.1000/ab`, a SICI's own
/// `<15::AID`), as the byte that would close it.
fn open_bracket(tail: &str) -> Option<u8> {
    let raw = tail.rsplit(char::is_whitespace).next().unwrap_or("");
    let lower = raw.to_ascii_lowercase();
    let names = doi_suffix(&lower).is_some()
        || lower.ends_with(":10.")
        || lower.contains("arxiv")
        || lower.contains("://");
    let count = |t: &str, c: char| t.matches(c).count();
    [('(', b')'), ('[', b']'), ('<', b'>')]
        .into_iter()
        .find(|&(o, c)| names && count(raw, o) > count(raw, char::from(c)))
        .map(|(_, c)| c)
}

/// Whether an identifier in a bracket it opened runs on into `next` (the next line's text,
/// `below` when it is the line just below in the same column): when `next`'s first word
/// closes the bracket, wherever and however the line ended (journals such as Royal Society
/// Open Science break DOIs in parentheses anywhere, before a dot or between digits:
/// `(doi:10.3168/jds.S0022-0302⏎(05)73024-1)`), or else when `next` is the line just below
/// and starts at once with the rest (`(doi:10.1046/j.0902-⏎0055.2001.00093.x)`), or an
/// unfinished token's rest wherever it is. `None` when the identifier stands in no open
/// bracket, or `next` starts with a space: the other rules decide.
pub(super) fn bracket_runs_on(tail: &str, next: &str, below: bool) -> Option<bool> {
    let close = open_bracket(tail)?;
    let first = next.split_whitespace().next().unwrap_or("");
    let open = match close {
        b')' => b'(',
        b']' => b'[',
        _ => b'<',
    };
    let count = |c: u8| first.bytes().filter(|&x| x == c).count();
    if count(close) > count(open) {
        return Some(true);
    }
    let rest = !next.is_empty() && !next.starts_with(char::is_whitespace);
    rest.then(|| below || unfinished(last_token(tail)))
}

/// Whether `next` (the next line's text) starts with something other than an identifier's
/// rest: a label, or — after a line ending in `.` or `,` (`last`) — an author's name.
pub(super) fn starts_anew(last: u8, next: &str) -> bool {
    let next = next.trim_start();
    // The first word up to a space or colon (`doi.org/…` is a URL's rest, `doi:` a label).
    let word = next
        .split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', ',']);
    if LABELS.contains(&word) {
        return true;
    }
    (b".,".contains(&last) && author_first(next)) || (last == b'.' && sentence_first(next))
}

/// Whether `text` starts a sentence: a capitalised word of letters alone and a space after it
/// (`Epub 2012 Aug 7.`, `Published online …`, `Accessed 3 May`). After a line that ends in `.`
/// it is the next sentence, never a DOI's rest: no DOI holds a space, and the part of one cut at
/// its dot that a capital starts carries a digit or another dot (`PhysRevD.95.062003`,
/// `Cell.2009.01.002`).
fn sentence_first(text: &str) -> bool {
    let b = text.as_bytes();
    let word = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    word >= 3
        && b[0].is_ascii_uppercase()
        && b[1..word].iter().all(u8::is_ascii_lowercase)
        && b.get(word) == Some(&b' ')
}

/// Whether `text` starts with an author's name: `Smith, J.`, `Smith JA,`, `O'Neil-Smith, K.`,
/// `J. Smith`, `J.-P. Dupont`.
fn author_first(text: &str) -> bool {
    let b = text.as_bytes();
    // An initial: a capital and a period, then a space or a hyphenated initial.
    if b.first().is_some_and(u8::is_ascii_uppercase)
        && b.get(1) == Some(&b'.')
        && b.get(2).is_some_and(|&c| c == b' ' || c == b'-')
    {
        return true;
    }
    if !b.first().is_some_and(u8::is_ascii_uppercase) {
        return false;
    }
    let name = b
        .iter()
        .take_while(|c| c.is_ascii_alphabetic() || **c == b'-' || **c == b'\'')
        .count();
    if name < 2 || !b[1..name].iter().any(u8::is_ascii_lowercase) {
        return false;
    }
    match b.get(name) {
        Some(b',') => true,
        // Vancouver: `Smith JA,`.
        Some(b' ') => {
            let ini = b[name + 1..]
                .iter()
                .take_while(|c| c.is_ascii_uppercase())
                .count();
            (1..=3).contains(&ini)
                && b.get(name + 1 + ini)
                    .is_none_or(|&c| c == b',' || c == b'.')
        }
        _ => false,
    }
}

/// Whether the hyphen that ends `token` is TeX's hyphenation of a plain-text DOI (dropped
/// when the line runs on into `next`), by the module's rule.
pub(super) fn typeset_hyphen(token: &str, next: &str) -> bool {
    let Some(body) = token.strip_suffix('-') else {
        return false;
    };
    let lower = body.to_ascii_lowercase();
    if lower.contains("://") || lower.contains("doi.org") {
        return false;
    }
    let Some(s) = doi_suffix(body) else {
        return false;
    };
    let part = body[s..].rsplit(['/', '.']).next().unwrap_or("");
    let rest = next
        .split(|c: char| c.is_whitespace() || c == '/' || c == '.')
        .next()
        .unwrap_or("");
    let lower_run = |t: &str| t.bytes().take_while(u8::is_ascii_lowercase).count();
    lower_run(part) == part.len() && part.len() >= 2 && lower_run(rest) >= 3 && !rest.contains('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfinished_tokens() {
        for t in [
            "https://arxiv.",
            "http://dx.doi.",
            "10.1053/j.",
            "doi:10.",
            "https://doi.org/10.",
            "10.1016/",
            "arXiv:1706.",
            "https://arxiv.org/abs/1706.",
            "astro-",
            "arXiv:hep-",
        ] {
            assert!(unfinished(t), "{t}");
        }
        for t in [
            "10.1000/xyz.",
            "https://arxiv.org/abs/1706.03762.",
            "10.1016/j.cell.2009.01.002.",
            "pages 3610.",
            "10.",
            "1-10.",
            "arXiv:1706.03762.",
            "https://example.com",
            "well-",
            "hep-th",
        ] {
            assert!(!unfinished(t), "{t}");
        }
        assert_eq!(last_token("see [astro-"), "astro-");
        assert_eq!(last_token("(https://doi."), "https://doi.");
    }

    #[test]
    fn an_identifier_in_an_open_bracket_runs_on_to_its_close() {
        for (tail, next) in [
            ("3402–3410. (doi:10.3168/jds.S0022-0302", "(05)73024-1)"),
            ("Acta 1533, 1–28. (doi:10.1016/s1388-1981(01)00", "130-5)"),
            (
                "PLoS ONE 7, e50312. (doi:10.1371/journal",
                ".pone.0050312) 30. Daneshvar",
            ),
            ("[arXiv:hep-", "th/9711200]."),
            ("<https://doi.org/10.1000/ab", "c>."),
        ] {
            // Closed by the next line's first word: wherever that line is.
            assert_eq!(
                bracket_runs_on(tail, next, false),
                Some(true),
                "{tail} | {next}"
            );
        }
        // Not closed there: only into the line just below, starting at once.
        let tail = "(doi:10.1046/j.0902-";
        assert_eq!(bracket_runs_on(tail, "0055.2001.00093.x", true), Some(true));
        assert_eq!(
            bracket_runs_on(tail, "0055.2001.00093.x", false),
            Some(false)
        );
        assert_eq!(bracket_runs_on(tail, " 0055", true), None);
        // An unfinished token's rest, at the top of the next column.
        assert_eq!(
            bracket_runs_on("(doi:10.", "1103/PhysRevD.1.1, x)", false),
            Some(true)
        );
        assert_eq!(
            bracket_runs_on("(doi:10.1000/abc", "Smith, J. (2020)", false),
            Some(false)
        );
        // No identifier in an open bracket: the other rules decide.
        for (tail, next) in [("(doi:10.1000/abc)", "x)"), ("(see page", "12)")] {
            assert_eq!(bracket_runs_on(tail, next, true), None, "{tail} | {next}");
        }
    }

    #[test]
    fn lines_that_start_anew() {
        for l in [
            "URL https://example.org",
            "Available: https://x",
            "[Online]. Available",
            "doi:10.1000/x",
            "https://doi.org/10.1000/x",
            "arXiv:1706.03762",
        ] {
            assert!(starts_anew(b'.', l), "{l}");
            assert!(starts_anew(b'/', l), "{l}");
        }
        for l in [
            "Smith, J. (2020)",
            "Smith JA, Jones K.",
            "J. Smith and",
            "J.-P. Dupont",
        ] {
            assert!(starts_anew(b'.', l), "{l}");
            // After a slash the rest of an identifier may look like anything.
            assert!(!starts_anew(b'/', l), "{l}");
        }
        // The next sentence after a DOI's full stop (PubMed's `Epub` date); not after a
        // comma or a break character.
        for l in ["Epub 2012 Aug 7.", "Published online 3 May 2020"] {
            assert!(starts_anew(b'.', l), "{l}");
            assert!(!starts_anew(b'-', l), "{l}");
        }
        for l in ["Epub", "Cell.2009.01.002", "EPub 2012", "Ab cd"] {
            assert!(!sentence_first(l), "{l}");
        }
        for l in [
            "gastro.2020.01.001",
            "PhysRevD.95.062003",
            "Cell.2009.01.002",
            "AID-GPS262>3.0.CO;2-5",
            "j.cell",
            // A URL's rest after its scheme.
            "doi.org/10.1000/x",
            "arXiv.org/abs/1706.03762",
        ] {
            assert!(!starts_anew(b'.', l), "{l}");
        }
    }

    #[test]
    fn typesetting_hyphens() {
        // TeX's hyphenation of a plain-text DOI.
        assert!(typeset_hyphen("10.1038/na-", "ture34693."));
        assert!(typeset_hyphen("doi:10.1038/nphys-", "ics1234"));
        // A URL keeps its hyphens (url.sty adds none).
        assert!(!typeset_hyphen("https://doi.org/10.1038/na-", "ture34693."));
        // The DOI's own hyphens: digits on a side, a part of several hyphens, a short run.
        assert!(!typeset_hyphen("10.1038/s41586-", "020-2649-2"));
        assert!(!typeset_hyphen("10.1146/annurev-", "astro-081811-125615"));
        assert!(!typeset_hyphen("10.5194/abc-defg-", "hijkl"));
        assert!(!typeset_hyphen("10.1000/ab-", "cd"));
        assert!(!typeset_hyphen("10.1000/AB-", "cdef"));
        assert!(!typeset_hyphen("some-", "thing"));
    }
}
