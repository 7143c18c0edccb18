//! A paper's display fields: what people read beside a number (title, authors, dates, the
//! arXiv id and category) and what citations and reader tools are built from. None of it is
//! hashed beyond what the record already holds; the title and authors come from where the
//! record came from (an Atom entry, arXiv's bulk metadata, a record wrapped with its fields).
//!
//! This module owns the mapping from a record and those texts to [`Details`], the arXiv DOI of
//! a paper ([`arxiv_doi`]) and the splitting of arXiv's one-string author lists
//! ([`split_authors`]). It formats nothing (citations are the job layer's).

use serde::{Deserialize, Serialize};

use super::Record;

/// The DOI prefix arXiv registers its papers under (DataCite), `10.48550/arXiv.<id>`.
pub const ARXIV_DOI_PREFIX: &str = "10.48550/arXiv.";

/// A paper's display fields, for one version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    /// arXiv identifier without version (`2402.03791`, `hep-th/9901001`).
    pub arxiv_id: String,
    /// The version the record is of.
    pub version: u32,
    /// The title as arXiv publishes it (LaTeX kept), whitespace collapsed; empty when the
    /// source gave none.
    pub title: String,
    /// One name per author, in order; empty when the source gave none.
    pub authors: Vec<String>,
    /// v1 submission time, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub submitted_at: String,
    /// This version's date, UTC, when known.
    pub version_date: Option<String>,
    /// Primary category (`cs.DC`).
    pub primary_cat: String,
    /// Cross-list categories, in byte order; empty when the source gave none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cross_cats: Vec<String>,
}

impl Details {
    /// The fields a record holds itself (id, version, v1 date, primary category), with the
    /// `title` and one-string `authors` given beside it (either may be empty). `authors` is
    /// arXiv's form, `A. One, B. Two and C. Three` ([`split_authors`]).
    ///
    /// # Examples
    /// ```
    /// let r = pith::Record::from_json(&std::fs::read_to_string(
    ///     concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.record.json"))?)?;
    /// let d = pith::record::Details::of(&r, " A  title ", "A. One, B. Two and C. Three");
    /// assert_eq!(d.title, "A title");
    /// assert_eq!(d.authors, ["A. One", "B. Two", "C. Three"]);
    /// assert_eq!(d.doi(), "10.48550/arXiv.2402.03791");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(record: &Record, title: &str, authors: &str) -> Details {
        Details::with_authors(record, title, split_authors(authors))
    }

    /// As [`Details::of`], with the authors already one per name (an Atom entry's).
    pub fn with_authors(record: &Record, title: &str, authors: Vec<String>) -> Details {
        Details {
            arxiv_id: record.source.id.clone(),
            version: record.source.version,
            title: collapse(title),
            authors: authors
                .iter()
                .map(|a| collapse(a))
                .filter(|a| !a.is_empty())
                .collect(),
            submitted_at: record.metadata.submitted_at.clone(),
            version_date: None,
            primary_cat: record.metadata.primary_cat.clone(),
            cross_cats: record.metadata.cross_cats_sorted.clone(),
        }
    }

    /// The versioned arXiv id, `2402.03791v3`.
    pub fn versioned_id(&self) -> String {
        format!("{}v{}", self.arxiv_id, self.version)
    }

    /// The paper's arXiv DOI ([`arxiv_doi`]).
    pub fn doi(&self) -> String {
        arxiv_doi(&self.arxiv_id)
    }

    /// The abstract page of this version, `https://arxiv.org/abs/2402.03791v3`.
    pub fn arxiv_url(&self) -> String {
        format!("https://arxiv.org/abs/{}", self.versioned_id())
    }

    /// What reference managers keep in Extra for this version, as Zotero's arXiv translator
    /// writes it for the version's abstract page: `arXiv:2402.03791 [cs.DC]`, then
    /// `version: 3` on its own line; an old-style id carries no category
    /// (`arXiv:hep-th/9901001`), nor does a paper without one.
    ///
    /// # Examples
    /// ```
    /// let d = pith::record::Details {
    ///     arxiv_id: "2402.03791".into(), version: 3, primary_cat: "cs.DC".into(),
    ///     ..Default::default()
    /// };
    /// assert_eq!(d.extra(), "arXiv:2402.03791 [cs.DC]\nversion: 3");
    /// let old = pith::record::Details { arxiv_id: "hep-th/9901001".into(), version: 1,
    ///     primary_cat: "hep-th".into(), ..Default::default() };
    /// assert_eq!(old.extra(), "arXiv:hep-th/9901001\nversion: 1");
    /// ```
    pub fn extra(&self) -> String {
        let mut s = format!("arXiv:{}", self.arxiv_id);
        if !self.arxiv_id.contains('/') && !self.primary_cat.is_empty() {
            s.push_str(&format!(" [{}]", self.primary_cat));
        }
        s.push_str(&format!("\nversion: {}", self.version));
        s
    }

    /// The primary category, then the cross-lists.
    pub fn categories(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.primary_cat.as_str())
            .chain(self.cross_cats.iter().map(String::as_str))
            .filter(|c| !c.is_empty())
    }

    /// The subjects reference managers make tags of, one per category arXiv has
    /// ([`taxonomy::subject`](super::taxonomy::subject)), in [`Details::categories`] order.
    pub fn subjects(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.categories().filter_map(super::taxonomy::subject) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// The v1 year, month and day (`submitted_at`'s), when it reads as a date.
    pub fn submitted_date(&self) -> Option<(u16, u8, u8)> {
        let s = self.submitted_at.as_bytes();
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            let t = std::str::from_utf8(s.get(r)?).ok()?;
            t.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| t.parse().ok())?
        };
        let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y as u16, m as u8, d as u8))
    }
}

/// The DOI arXiv registers for the paper `id` (without version): `10.48550/arXiv.2402.03791`,
/// `10.48550/arXiv.hep-th/9901001`.
pub fn arxiv_doi(id: &str) -> String {
    format!("{ARXIV_DOI_PREFIX}{id}")
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits arXiv's one-string author list into names: at commas and ` and ` outside braces and
/// parentheses; parenthesised affiliations (`A. One (MIT)`) are dropped, and so is an empty
/// name.
///
/// # Examples
/// ```
/// use pith::record::split_authors;
/// assert_eq!(split_authors("A. One (MIT, Cambridge), B. {van} Two and C. Three"),
///            ["A. One", "B. {van} Two", "C. Three"]);
/// assert!(split_authors("").is_empty());
/// ```
pub fn split_authors(s: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut cur = String::new();
    let (mut braces, mut parens) = (0usize, 0usize);
    let mut push = |cur: &mut String| {
        let n = collapse(cur);
        if !n.is_empty() {
            names.push(n);
        }
        cur.clear();
    };
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let top = braces == 0 && parens == 0;
        if top && (rest.starts_with(" and ") || rest.starts_with("\nand ")) {
            push(&mut cur);
            rest = &rest[5..];
            continue;
        }
        match c {
            '{' => braces += 1,
            '}' => braces = braces.saturating_sub(1),
            '(' if braces == 0 => parens += 1,
            ')' if braces == 0 && parens > 0 => {
                parens -= 1;
                rest = &rest[1..];
                continue;
            }
            ',' | ';' if top => {
                push(&mut cur);
                rest = &rest[1..];
                continue;
            }
            _ => {}
        }
        if parens == 0 {
            cur.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    push(&mut cur);
    // `A, B, and C` leaves "and C".
    for n in &mut names {
        if let Some(t) = n.strip_prefix("and ") {
            *n = t.to_owned();
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_split_at_top_level_only() {
        assert_eq!(
            split_authors("A. One, B. Two, and C. Three"),
            ["A. One", "B. Two", "C. Three"]
        );
        assert_eq!(
            split_authors("C. Bal\\'azs, E. L. Berger (ANL), {The ATLAS, CMS} Collaboration"),
            [
                "C. Bal\\'azs",
                "E. L. Berger",
                "{The ATLAS, CMS} Collaboration"
            ]
        );
        assert_eq!(split_authors("Randy and Ann-Marie"), ["Randy", "Ann-Marie"]);
        assert_eq!(split_authors("Sandra Anderson"), ["Sandra Anderson"]);
        assert_eq!(split_authors(" , (x) ,"), Vec::<String>::new());
    }

    #[test]
    fn dates_and_dois() {
        let d = Details {
            arxiv_id: "hep-th/9901001".into(),
            version: 2,
            submitted_at: "1999-01-01T09:00:00Z".into(),
            ..Details::default()
        };
        assert_eq!(d.doi(), "10.48550/arXiv.hep-th/9901001");
        assert_eq!(d.submitted_date(), Some((1999, 1, 1)));
        assert_eq!(d.versioned_id(), "hep-th/9901001v2");
        let bad = Details {
            submitted_at: "19x9".into(),
            ..d
        };
        assert_eq!(bad.submitted_date(), None);
    }
}
