//! The arXiv identifier, the one grammar every reader holds ids to: records, the network
//! client, file names of a batch or `pith refs`, capture URLs and reference lists.
//!
//! - New style: `YYMM.NNNN` from April 2007 ([`NEW_STYLE_FROM`]) to December 2014,
//!   `YYMM.NNNNN` from January 2015 ([`FIVE_DIGITS_FROM`]), month 01–12.
//! - Old style: `archive/YYMMNNN`, the archive one of [`OLD_ARCHIVES`] in lower case, without a
//!   subject class (arXiv's id drops `math.GT`'s `.GT`).
//! - A version: `vN` after the id ([`split_version`]); 0 is no version arXiv gives.
//! - The forms found around an id: a PDF's name as arXiv and its bulk mirrors name files
//!   ([`of_path`]), and the `arxiv.org/abs/` and `/pdf/` URLs ([`of_url`]).
//!
//! Any other spelling would hash to a number of its own, which no one else computes for the
//! paper. Pure: text in, ids out.

use std::path::Path;

/// The archives of old-style arXiv ids (`archive/YYMMNNN`, before April 2007).
pub const OLD_ARCHIVES: [&str; 34] = [
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn",
    "chem-ph", "cmp-lg", "comp-gas", "cond-mat", "cs", "dg-ga", "funct-an", "gr-qc", "hep-ex",
    "hep-lat", "hep-ph", "hep-th", "math", "math-ph", "mtrl-th", "nlin", "nucl-ex", "nucl-th",
    "patt-sol", "physics", "plasm-ph", "q-alg", "q-bio", "quant-ph", "solv-int", "supr-con",
];

/// The first month of new-style ids (`YYMM`).
pub const NEW_STYLE_FROM: &str = "0704";

/// The first month whose new-style ids have five digits after the dot (`YYMM`).
pub const FIVE_DIGITS_FROM: u32 = 1501;

/// Whether `name` is an archive of old-style ids.
pub fn is_archive(name: &str) -> bool {
    OLD_ARCHIVES.contains(&name)
}

/// The archive a reference list names, as printed: an archive of [`OLD_ARCHIVES`], or one
/// printed without its hyphen (`astroph`, `hepth`, `grqc`: BibTeX styles and hand-typed lists
/// lose it). `None` for any other word.
///
/// # Examples
/// ```
/// use pith::arxiv_id::archive_as_printed;
/// assert_eq!(archive_as_printed("astroph"), Some("astro-ph"));
/// assert_eq!(archive_as_printed("gr-qc"), Some("gr-qc"));
/// assert_eq!(archive_as_printed("astro"), None);
/// ```
pub fn archive_as_printed(name: &str) -> Option<&'static str> {
    OLD_ARCHIVES.iter().copied().find(|a| {
        *a == name || (a.contains('-') && a.len() == name.len() + 1 && a.replace('-', "") == name)
    })
}

/// Whether `id` is an arXiv identifier as arXiv writes it (no version): new style
/// `YYMM.NNNN` or `YYMM.NNNNN` by its month, or old style `archive/YYMMNNN` with the archive
/// in lower case and no subject class.
///
/// # Examples
/// ```
/// use pith::arxiv_id::is_id;
/// assert!(is_id("2402.03791") && is_id("hep-th/9901001") && is_id("1412.1234"));
/// assert!(!is_id("2402.3791") && !is_id("math.GT/0309136") && !is_id("2413.03791"));
/// ```
pub fn is_id(id: &str) -> bool {
    if let Some((archive, num)) = id.split_once('/') {
        let arch_ok = archive
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase())
            && archive.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
        return arch_ok && num.len() == 7 && num.bytes().all(|b| b.is_ascii_digit());
    }
    let Some((yymm, n)) = id.split_once('.') else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if yymm.len() != 4 || !digits(yymm) || !digits(n) {
        return false;
    }
    let month = yymm[2..].parse::<u32>().unwrap_or(0);
    let wide = yymm.parse::<u32>().unwrap_or(0) >= FIVE_DIGITS_FROM;
    (1..=12).contains(&month) && n.len() == if wide { 5 } else { 4 }
}

/// Splits `2402.03791v3` into (`2402.03791`, `Some(3)`): a `v` after a digit, then digits. A
/// text without one gives `None`; `v0` gives `Some(0)`, which callers refuse (arXiv numbers
/// versions from 1).
///
/// # Examples
/// ```
/// use pith::arxiv_id::split_version;
/// assert_eq!(split_version("2402.03791v3"), ("2402.03791", Some(3)));
/// assert_eq!(split_version("math/0406128v12"), ("math/0406128", Some(12)));
/// assert_eq!(split_version("2402.03791"), ("2402.03791", None));
/// ```
pub fn split_version(text: &str) -> (&str, Option<u32>) {
    if let Some(pos) = text.rfind('v') {
        let (id, ver) = text.split_at(pos);
        let digits = &ver[1..];
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            if let (Ok(v), true) = (
                digits.parse::<u32>(),
                id.as_bytes().last().is_some_and(u8::is_ascii_digit),
            ) {
                return (id, Some(v));
            }
        }
    }
    (text, None)
}

/// The year and month of an id (`2402.03791` → `2402`, `hep-th/0001001` → `0001`): the `YYMM`
/// of the bulk tar that holds its PDFs.
pub fn yymm_of(id: &str) -> Option<&str> {
    let digits = id.rsplit('/').next()?;
    digits
        .get(..4)
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
}

/// The arXiv id and version a PDF's path names, as arXiv and its bulk mirrors name files:
/// - `2402.03791v3.pdf`, `0704.0001v1.pdf` (new style; the directory does not matter);
/// - `hep-th9901001v1.pdf`, `math.GT0309136v2.pdf` (old style, archive glued to the number;
///   a subject class `.XX` is not part of the id and is dropped);
/// - `hep-th/9901001v1.pdf`, `hep-th/pdf/9901/9901001v1.pdf` (old style: the nearest
///   directory that is not `pdf` nor all digits is the archive).
///
/// The version is `None` when the name has none (`2402.03791.pdf`). `None` overall when the
/// name is not an arXiv paper's (a version 0 included).
pub fn of_path(path: &Path) -> Option<(String, Option<u32>)> {
    let name = path.file_name()?.to_str()?;
    let stem = name
        .len()
        .checked_sub(4)
        .filter(|&i| name.is_char_boundary(i) && name[i..].eq_ignore_ascii_case(".pdf"))
        .map(|i| &name[..i])?;
    let (base, version) = split_version(stem);
    if version == Some(0) {
        return None;
    }
    if is_id(base) && !base.contains('/') {
        return Some((base.to_owned(), version));
    }
    let digits_at = base.len().checked_sub(7)?;
    if !base.is_char_boundary(digits_at) {
        return None;
    }
    let (head, num) = base.split_at(digits_at);
    if !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let archive = if head.is_empty() {
        path.parent()?
            .components()
            .rev()
            .filter_map(|c| c.as_os_str().to_str())
            .find(|d| *d != "pdf" && !d.bytes().all(|b| b.is_ascii_digit()))?
    } else {
        head
    };
    // `math.GT` → `math`: the subject class is not part of an old-style id.
    let archive = match archive.split_once('.') {
        Some((a, class)) if class.len() == 2 && class.bytes().all(|b| b.is_ascii_uppercase()) => a,
        _ => archive,
    };
    let id = format!("{archive}/{num}");
    (is_archive(archive) && is_id(&id)).then_some((id, version))
}

/// The arXiv id, version and whether it is the PDF (`/pdf/`) rather than the abstract page
/// (`/abs/`) of an `arxiv.org` URL (http or https, `www.` and `export.` hosts too, old-style
/// ids included); `None` for any other URL, and for version 0.
pub fn of_url(url: &str) -> Option<(String, Option<u32>, bool)> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/')?;
    let host = host.to_ascii_lowercase();
    let host = host
        .strip_suffix(":443")
        .or(host.strip_suffix(":80"))
        .unwrap_or(&host);
    if !matches!(host, "arxiv.org" | "www.arxiv.org" | "export.arxiv.org") {
        return None;
    }
    let path = path.split(['?', '#']).next()?;
    let (kind, id) = path.split_once('/')?;
    let pdf = match kind {
        "pdf" => true,
        "abs" => false,
        _ => return None,
    };
    let id = if pdf {
        id.strip_suffix(".pdf").unwrap_or(id)
    } else {
        id
    };
    let (id, version) = split_version(id);
    if !is_id(id) || version == Some(0) {
        return None;
    }
    Some((id.to_owned(), version, pdf))
}

/// The id and version of the forms authors paste: `2402.03791`, `2402.03791v3`,
/// `arXiv:2402.03791v3`, `hep-th/9901001`, `math.GT/0309136` (the subject class is dropped, as
/// arXiv does: `math/0309136`), `https://arxiv.org/abs/2402.03791v3` (also `/pdf/…`, `/html/…`,
/// `export.` and `www.` hosts), and the DOI `10.48550/arXiv.2402.03791` or its doi.org URL;
/// `None` for anything else, and for version 0.
pub fn of_text(text: &str) -> Option<(String, Option<u32>)> {
    let mut t = text.trim();
    let mut url = false;
    if let Some((_, rest)) = t.split_once("://") {
        t = rest;
        url = true;
    }
    t = t.split(['?', '#']).next().unwrap_or("");
    let lower = t.to_ascii_lowercase();
    // A URL (a scheme, or a host of arXiv or doi.org): the host decides where the id starts.
    let hosts = |h: &str| h.ends_with("arxiv.org") || h.ends_with("doi.org");
    if let Some((host, path)) = lower.split_once('/').filter(|(h, _)| url || hosts(h)) {
        let path_start = host.len() + 1;
        let host = host.strip_prefix("www.").unwrap_or(host);
        let path_orig = &t[path_start..];
        if host == "arxiv.org" || host == "export.arxiv.org" {
            let rest = ["abs/", "pdf/", "html/"]
                .iter()
                .find_map(|p| path.starts_with(p).then(|| &path_orig[p.len()..]))?;
            t = rest.trim_end_matches('/');
            t = t.strip_suffix(".pdf").unwrap_or(t);
        } else if host == "doi.org" || host == "dx.doi.org" {
            t = path_orig;
        } else {
            return None;
        }
    }
    // The arXiv DOI. Prefixes are compared with `get`: byte 8 or 6 may fall inside a
    // character of pasted (or hostile) text, where slicing would panic.
    let starts = |t: &str, p: &str| t.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
    if t.len() > 8 && starts(t, "10.48550") {
        let rest = t[8..].strip_prefix('/')?;
        if rest.len() < 6 || !starts(rest, "arxiv.") {
            return None;
        }
        t = &rest[6..];
    }
    if t.len() > 6 && starts(t, "arxiv:") {
        t = &t[6..];
    }
    let (id, version) = split_version(t.trim());
    let id = id.to_owned();
    if version == Some(0) {
        return None;
    }
    // Old style: archive[.SC]/YYMMNNN; arXiv's own id drops the subject class. What is
    // left is held to [`is_id`].
    let id = match id.split_once('/') {
        Some((archive, num)) => {
            format!("{}/{num}", archive.split('.').next().unwrap_or(""))
        }
        None => id,
    };
    if !is_id(&id) {
        return None;
    }
    Some((id, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_urls_and_versions() {
        let p = |s: &str| of_path(Path::new(s));
        assert_eq!(
            p("x/2402.03791v3.pdf"),
            Some(("2402.03791".into(), Some(3)))
        );
        assert_eq!(
            p("math.GT0309136v2.pdf"),
            Some(("math/0309136".into(), Some(2)))
        );
        assert_eq!(
            p("hep-th/pdf/9901/9901001v1.pdf"),
            Some(("hep-th/9901001".into(), Some(1)))
        );
        assert_eq!(p("2402.03791v0.pdf"), None);
        assert_eq!(p("notes.pdf"), None);
        assert_eq!(p("é234567.pdf"), None);
        assert_eq!(
            of_url("https://arxiv.org/pdf/2402.03791v3.pdf"),
            Some(("2402.03791".into(), Some(3), true))
        );
        assert_eq!(of_url("https://arxiv.org/pdf/2402.03791v0"), None);
        assert_eq!(split_version("v3"), ("v3", None));
        assert_eq!(split_version("2402.03791v"), ("2402.03791v", None));
        assert_eq!(yymm_of("hep-th/0001001"), Some("0001"));
    }
}
