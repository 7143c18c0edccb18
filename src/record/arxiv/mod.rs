//! arXiv's bulk metadata: the OAI-PMH `ListRecords` pages harvesters save and the
//! metadata snapshot distributed as JSON Lines, read as streams and mapped to [`ArxivPaper`]s.
//!
//! This module owns the mapping from arXiv's bulk fields to a paper ([`RawMeta::to_paper`]);
//! [`ArxivPaper::to_record`] then builds the canonical record exactly as for an Atom entry, so the
//! same paper gives the same number whichever form it was read from. The mapping rules:
//! - `source.version`: the highest `vN` among the versions (not the last listed);
//! - `submitted_at`: the date of `v1`, RFC 2822 converted to UTC `YYYY-MM-DDTHH:MM:SSZ`
//!   ([`date`]); a paper without a `v1` entry is refused, never dated from another version;
//! - `primary_cat`: the first of the space-separated categories; the others, deduplicated and
//!   byte-sorted, are the cross-lists;
//! - `license`: the URL, trimmed; missing, `null` or empty gives `""`;
//! - `source.id`: the id as given, old-style ids keeping their slash (`hep-th/9901001`); an OAI
//!   record without `<id>` falls back on its header identifier (`oai:arXiv.org:hep-th/9901001`);
//! - title and abstract: the raw strings (line breaks and leading spaces included) through
//!   [`crate::record::canon`], as from Atom.
//!
//! Submodules: [`date`] (RFC 2822), [`snapshot`] (one JSON line), [`oai`] (a streaming
//! OAI-PMH reader) and [`bulk`] (the whole run: files in, one result per paper out, in input
//! order), on the shared [`crate::decompress`] (files, stdin, decompression by magic bytes,
//! bounded lines) and [`crate::pipeline`] (ordered parallel map with bounded memory).

pub mod bulk;
pub mod date;
pub mod oai;
pub mod snapshot;

use super::ArxivPaper;

/// A paper's fields as arXiv's bulk forms give them, before mapping.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawMeta {
    /// arXiv id without version (`2402.03791`, `hep-th/9901001`).
    pub id: String,
    /// Title, raw.
    pub title: String,
    /// Abstract, raw.
    pub abstract_text: String,
    /// Categories, space-separated, primary first.
    pub categories: String,
    /// License URL, if any.
    pub license: Option<String>,
    /// Versions as (`v1`, RFC 2822 date), in any order.
    pub versions: Vec<(String, String)>,
    /// Authors as one string, raw (`A. Author and B. Autor`): shown beside a number (an index,
    /// a record page), never part of the record; empty when the form gives none.
    pub authors: String,
}

/// Parses a version label `vN` (`v1`, `v12`) to `N`.
pub fn version_number(label: &str) -> Option<u32> {
    let n = label.trim().strip_prefix('v')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok().filter(|&v| v > 0)
}

impl RawMeta {
    /// The latest version number: the highest `vN` listed.
    ///
    /// # Errors
    /// A one-line reason when there are no versions or a label is not `vN`.
    pub fn latest_version(&self) -> Result<u32, String> {
        let mut latest = 0;
        for (label, _) in &self.versions {
            let v = version_number(label)
                .ok_or_else(|| format!("version label {label:?} is not vN"))?;
            latest = latest.max(v);
        }
        if latest == 0 {
            return Err("no versions listed".into());
        }
        Ok(latest)
    }

    /// Maps the fields to a [`ArxivPaper`] by the rules in the module docs.
    ///
    /// # Errors
    /// A one-line reason naming the missing or malformed field.
    ///
    /// # Examples
    /// ```
    /// use pith::record::arxiv::RawMeta;
    /// let raw = RawMeta {
    ///     id: "hep-th/9901001".into(),
    ///     title: "A\n  title".into(),
    ///     abstract_text: "  An abstract.\n".into(),
    ///     categories: "hep-th math.DS gr-qc".into(),
    ///     license: None,
    ///     versions: vec![("v2".into(), "Tue, 5 Jan 1999 10:00:00 GMT".into()),
    ///                    ("v1".into(), "Fri, 1 Jan 1999 09:00:00 GMT".into())],
    ///     authors: "A. Author".into(),
    /// };
    /// let record = raw.to_paper()?.to_record()?;
    /// assert_eq!(record.source.version, 2);
    /// assert_eq!(record.metadata.submitted_at, "1999-01-01T09:00:00Z");
    /// assert_eq!(record.metadata.cross_cats_sorted, ["gr-qc", "math.DS"]);
    /// assert_eq!(record.metadata.license, "");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_paper(&self) -> Result<ArxivPaper, String> {
        self.clone().into_paper()
    }

    /// [`RawMeta::to_paper`] without copying the texts.
    ///
    /// # Errors
    /// As [`RawMeta::to_paper`].
    pub fn into_paper(self) -> Result<ArxivPaper, String> {
        let id = self.id.trim();
        if id.is_empty() {
            return Err("no id".into());
        }
        let version = self.latest_version()?;
        let v1 = self
            .versions
            .iter()
            .find(|(l, _)| version_number(l) == Some(1))
            .ok_or("no v1 in the version list (submitted_at is v1's date)")?;
        let submitted = date::rfc2822_to_utc(&v1.1).map_err(|e| format!("v1 date: {e}"))?;
        let mut cats = self.categories.split_whitespace();
        let primary = cats.next().ok_or("no categories")?.to_owned();
        let license = self
            .license
            .as_deref()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned);
        Ok(ArxivPaper {
            id: id.to_owned(),
            version,
            title: self.title,
            abstract_text: self.abstract_text,
            submitted,
            primary,
            categories: cats.map(str::to_owned).collect(),
            license,
            authors: super::split_authors(&self.authors),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw() -> RawMeta {
        RawMeta {
            id: "2402.03791".into(),
            title: "T".into(),
            abstract_text: "A".into(),
            categories: "cs.DC cs.LG".into(),
            license: Some(" http://creativecommons.org/licenses/by/4.0/ ".into()),
            versions: vec![
                ("v1".into(), "Tue, 6 Feb 2024 08:14:56 GMT".into()),
                ("v3".into(), "Thu, 8 Feb 2024 08:14:56 GMT".into()),
                ("v2".into(), "Wed, 7 Feb 2024 08:14:56 GMT".into()),
            ],
            authors: "A. Author".into(),
        }
    }

    #[test]
    fn latest_version_and_v1_date() {
        let p = raw().to_paper().unwrap();
        assert_eq!(p.version, 3);
        assert_eq!(p.submitted, "2024-02-06T08:14:56Z");
        assert_eq!(p.primary, "cs.DC");
        assert_eq!(p.categories, ["cs.LG"]);
        assert_eq!(
            p.license.as_deref(),
            Some("http://creativecommons.org/licenses/by/4.0/")
        );
    }

    #[test]
    fn refusals_name_the_field() {
        let mut r = raw();
        r.versions.remove(0);
        assert!(r.to_paper().unwrap_err().contains("no v1"));
        let mut r = raw();
        r.versions.clear();
        assert!(r.to_paper().unwrap_err().contains("no versions"));
        let mut r = raw();
        r.versions[1].0 = "3".into();
        assert!(r.to_paper().unwrap_err().contains("not vN"));
        let mut r = raw();
        r.categories = "  ".into();
        assert!(r.to_paper().unwrap_err().contains("no categories"));
        let mut r = raw();
        r.versions[0].1 = "2024-02-06".into();
        assert!(r.to_paper().unwrap_err().contains("v1 date"));
        assert_eq!(version_number("v0"), None);
        assert_eq!(version_number("v12"), Some(12));
        assert_eq!(version_number("v+1"), None);
    }
}
