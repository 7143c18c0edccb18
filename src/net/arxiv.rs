//! A paper's record from arXiv: the identifier forms authors paste ([`ArxivId::parse`]), the
//! OAI-PMH `GetRecord` request in the `arXivRaw` format (which carries every version's date
//! and the licence; the Atom API may omit the licence, and a number without it is wrong),
//! read by [`crate::record::arxiv::oai`], and the rules that turn the answer into the record
//! of the version asked for ([`paper`]):
//! - no version: the latest;
//! - the latest version: the same;
//! - an older version: refused ([`ErrorKind::OlderVersion`]) unless its title and abstract are
//!   given, since arXiv serves only the latest version's (a cached answer from when that
//!   version was the latest holds its own, and is used);
//! - the next version ([`Want::Next`]): version N+1, the v1 date, the latest metadata unless
//!   overridden ([`Overrides`]).
//!
//! Cached answers ([`super::cache`]) are used as follows: an answer is stored under the latest
//! version it lists; a request for version K uses the answer stored under K, or any answer
//! listing a later version; a request without a version uses the newest answer when it is
//! younger than [`ARXIV_FRESH`] (offline: of any age). `refresh` ignores them all.

use std::fmt;

use super::cache::ARXIV_FRESH;
use super::client::{Client, Service};
use super::{Error, ErrorKind};
use crate::record::arxiv::oai::{Body, OaiReader};
use crate::record::arxiv::RawMeta;
use crate::record::{ArxivPaper, Record};

/// An arXiv identifier, with its version when one was given.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
// As text, read as the command line reads it: a request names a paper as its author does.
#[serde(try_from = "String", into = "String")]
pub struct ArxivId {
    id: String,
    version: Option<u32>,
}

impl ArxivId {
    /// Parses the forms authors paste: `2402.03791`, `2402.03791v3`, `arXiv:2402.03791v3`,
    /// `hep-th/9901001`, `math.GT/0309136` (the subject class is dropped, as arXiv does:
    /// `math/0309136`), `https://arxiv.org/abs/2402.03791v3` (also `/pdf/…`, `/html/…`,
    /// `export.` and `www.` hosts), and the DOI `10.48550/arXiv.2402.03791` or its doi.org URL.
    ///
    /// # Errors
    /// [`ErrorKind::BadId`], about the text.
    ///
    /// # Examples
    /// ```
    /// use pith::net::ArxivId;
    /// let id = ArxivId::parse("https://arxiv.org/abs/2402.03791v3")?;
    /// assert_eq!((id.id(), id.version()), ("2402.03791", Some(3)));
    /// assert_eq!(ArxivId::parse("arXiv:hep-th/9901001")?.to_string(), "hep-th/9901001");
    /// assert!(ArxivId::parse("2402.3791").is_err());
    /// # Ok::<(), pith::net::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let (id, version) = crate::arxiv_id::of_text(text)
            .ok_or_else(|| Error::from(ErrorKind::BadId).about(text.trim()))?;
        Ok(ArxivId { id, version })
    }

    /// The id without version (`2402.03791`, `hep-th/9901001`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The version, when one was given.
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    /// The OAI-PMH request for this paper's arXivRaw record at arXiv's `base`
    /// (`{base}/oai2?verb=GetRecord&identifier=oai:arXiv.org:{id}&metadataPrefix=arXivRaw`).
    pub fn request_url(&self, base: &str) -> String {
        format!(
            "{}/oai2?verb=GetRecord&identifier=oai:arXiv.org:{}&metadataPrefix=arXivRaw",
            base.trim_end_matches('/'),
            self.id
        )
    }
}

impl TryFrom<String> for ArxivId {
    type Error = Error;

    fn try_from(text: String) -> Result<Self, Error> {
        ArxivId::parse(&text)
    }
}

impl From<ArxivId> for String {
    fn from(id: ArxivId) -> String {
        id.to_string()
    }
}

impl fmt::Display for ArxivId {
    /// `2402.03791v3`, or `2402.03791` without a version.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            Some(v) => write!(f, "{}v{v}", self.id),
            None => f.write_str(&self.id),
        }
    }
}

/// Fields given by the author in place of arXiv's.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overrides {
    /// The title.
    pub title: Option<String>,
    /// The abstract.
    pub abstract_text: Option<String>,
    /// The primary category.
    pub primary: Option<String>,
    /// The cross-list categories (all of them).
    pub cross: Option<Vec<String>>,
    /// The licence URL (`""` for none).
    pub license: Option<String>,
}

impl Overrides {
    /// Whether no field is overridden.
    pub fn is_empty(&self) -> bool {
        *self == Overrides::default()
    }
}

/// Which version's record is wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Want {
    /// The version in the id, else the latest.
    #[default]
    Asked,
    /// The version after the latest (`--next`).
    Next,
}

/// arXiv's answer about one paper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// The fields of the arXivRaw record.
    pub raw: RawMeta,
    /// The latest version it lists.
    pub latest: u32,
    /// Whether it came from the cache.
    pub cached: bool,
}

/// Reads arXiv's `GetRecord` answer about `id`.
///
/// # Errors
/// [`ErrorKind::IdDoesNotExist`], [`ErrorKind::Deleted`], or [`ErrorKind::BadAnswer`] for
/// XML that is malformed, truncated, holds no record or another paper's.
pub fn read_answer(id: &str, xml: &[u8]) -> Result<(RawMeta, u32), Error> {
    let mut reader = OaiReader::new(xml);
    let first = reader.next_record();
    let bad = |m: String| Error::from(ErrorKind::BadAnswer(m));
    match first {
        None if reader.no_records_match() => Err(ErrorKind::IdDoesNotExist.into()),
        None => Err(bad("no OAI-PMH record in the answer".into())),
        Some(Err(m)) => match reader.error_code() {
            Some("idDoesNotExist") => Err(ErrorKind::IdDoesNotExist.into()),
            _ => Err(bad(m)),
        },
        Some(Ok(rec)) => {
            if rec.arxiv_id() != id {
                return Err(bad(format!("a record of {}, not {id}", rec.arxiv_id())));
            }
            match rec.body {
                Ok(Body::Deleted) => Err(ErrorKind::Deleted.into()),
                Err(m) => Err(bad(m)),
                Ok(Body::Meta(m)) => {
                    let latest = m.latest_version().map_err(bad)?;
                    // The rest of the document must be well-formed too: a cut answer is
                    // refused, not cached.
                    if let Some(Err(m)) = reader.next_record() {
                        return Err(bad(m));
                    }
                    Ok((m, latest))
                }
            }
        }
    }
}

/// arXiv's metadata of `id`: from the cache when the rules in the module docs allow, else
/// fetched (and cached).
///
/// # Errors
/// As [`Client::get`] and [`read_answer`], about the id; [`ErrorKind::NoSuchVersion`] when
/// the id's version is later than the latest.
pub fn fetch(client: &Client, id: &ArxivId) -> Result<Meta, Error> {
    fetch_inner(client, id).map_err(|e| e.about(id.to_string()))
}

fn fetch_inner(client: &Client, id: &ArxivId) -> Result<Meta, Error> {
    let s = client.settings();
    let cache = client.cache();
    let entries = if s.refresh {
        vec![]
    } else {
        cache.arxiv_entries(id.id())?
    };
    let pick = match id.version() {
        Some(k) => entries
            .iter()
            .find(|(v, _)| *v == k)
            .or_else(|| entries.first().filter(|(v, _)| *v > k)),
        None => entries
            .first()
            .filter(|(_, e)| s.offline || e.age < ARXIV_FRESH),
    };
    if let Some((_, entry)) = pick {
        if let Some(bytes) = cache.read(&entry.path)? {
            match read_answer(id.id(), &bytes) {
                Ok((raw, latest)) => {
                    return Ok(Meta {
                        raw,
                        latest,
                        cached: true,
                    })
                }
                // A damaged cache file is fetched again (offline: reported).
                Err(e) if s.offline => {
                    return Err(Error::from(ErrorKind::BadAnswer(format!(
                        "cached file {}: {e}",
                        entry.path.display()
                    ))))
                }
                Err(_) => {}
            }
        }
    }
    if s.offline {
        return Err(ErrorKind::NotCached.into());
    }
    let fetched = client.get(Service::Arxiv, &id.request_url(&s.arxiv_url))?;
    let (raw, latest) = read_answer(id.id(), &fetched.body)?;
    cache.write(&cache.arxiv_file(id.id(), latest), &fetched.body)?;
    Ok(Meta {
        raw,
        latest,
        cached: false,
    })
}

/// The paper whose record is wanted, by the rules in the module docs.
///
/// # Errors
/// [`ErrorKind::NoSuchVersion`], [`ErrorKind::OlderVersion`], [`ErrorKind::NotLatest`];
/// [`ErrorKind::BadAnswer`] when arXiv's fields do not make a paper; [`ErrorKind::Record`]
/// when an overridden category is not an arXiv category.
pub fn paper(meta: &Meta, id: &ArxivId, want: Want, ov: &Overrides) -> Result<ArxivPaper, Error> {
    let about = |e: Error| e.about(id.to_string());
    let mut p = meta
        .raw
        .to_paper()
        .map_err(|m| about(ErrorKind::BadAnswer(m).into()))?;
    let latest = meta.latest;
    match (want, id.version()) {
        (_, Some(k)) if k > latest => {
            return Err(about(ErrorKind::NoSuchVersion { asked: k, latest }.into()))
        }
        (Want::Next, Some(k)) if k != latest => {
            return Err(about(ErrorKind::NotLatest { asked: k, latest }.into()))
        }
        (Want::Next, _) => p.version = latest + 1,
        (Want::Asked, Some(k)) if k < latest => {
            if ov.title.is_none() || ov.abstract_text.is_none() {
                return Err(about(ErrorKind::OlderVersion { asked: k, latest }.into()));
            }
            p.version = k;
        }
        (Want::Asked, _) => {}
    }
    if let Some(t) = &ov.title {
        p.title = t.clone();
    }
    if let Some(a) = &ov.abstract_text {
        p.abstract_text = a.clone();
    }
    let typed = ov.primary.is_some() || ov.cross.is_some();
    if let Some(c) = &ov.primary {
        p.primary = c.clone();
    }
    if let Some(c) = &ov.cross {
        p.categories = c.clone();
    }
    if let Some(l) = &ov.license {
        p.license = Some(l.clone()).filter(|l| !l.trim().is_empty());
    }
    if typed {
        p.check_categories()
            .map_err(|e| about(ErrorKind::Record(Box::new(e)).into()))?;
    }
    Ok(p)
}

/// The record of `id` ([`fetch`], [`paper`], then [`ArxivPaper::to_record`]).
///
/// # Errors
/// As those functions.
///
/// # Examples
/// ```no_run
/// use pith::net::{arxiv, ArxivId, Client, Overrides, Settings};
/// let client = Client::new(&Settings::from_env()?)?;
/// let id = ArxivId::parse("2402.03791v3")?;
/// let record = arxiv::record(&client, &id, arxiv::Want::Asked, &Overrides::default())?;
/// println!("{}", record.number());
/// # Ok::<(), pith::net::Error>(())
/// ```
pub fn record(client: &Client, id: &ArxivId, want: Want, ov: &Overrides) -> Result<Record, Error> {
    let meta = fetch(client, id)?;
    let p = paper(&meta, id, want, ov)?;
    p.to_record()
        .map_err(|e| Error::from(ErrorKind::Record(Box::new(e))).about(id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_cut_inside_a_character_are_refused_not_a_panic() {
        for text in [
            "ዀ\"ᩁ῀𐻂",
            "\\ዀ\"ᩁ῀",
            "10.48550/arxivé.1",
            "10.48550/éé",
            "arxivé:1",
        ] {
            assert!(ArxivId::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn id_forms() {
        for (text, id, v) in [
            ("2402.03791", "2402.03791", None),
            (" arXiv:2402.03791v3 ", "2402.03791", Some(3)),
            ("ARXIV:2402.03791", "2402.03791", None),
            ("hep-th/9901001", "hep-th/9901001", None),
            ("math.GT/0309136v2", "math/0309136", Some(2)),
            ("https://arxiv.org/abs/2402.03791v3", "2402.03791", Some(3)),
            (
                "http://export.arxiv.org/abs/hep-th/9901001",
                "hep-th/9901001",
                None,
            ),
            (
                "https://www.arxiv.org/pdf/2402.03791v2.pdf",
                "2402.03791",
                Some(2),
            ),
            ("arxiv.org/abs/2402.03791?context=cs", "2402.03791", None),
            ("10.48550/arXiv.2402.03791", "2402.03791", None),
            (
                "https://doi.org/10.48550/arxiv.2402.03791",
                "2402.03791",
                None,
            ),
            ("0704.0001", "0704.0001", None),
        ] {
            let a = ArxivId::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((a.id(), a.version()), (id, v), "{text}");
        }
        for text in [
            "",
            "2402.3791",
            "2402.03791v0",
            "https://example.org/abs/2402.03791",
            "https://arxiv.org/list/cs.DC",
            "HEP-TH/9901001",
            "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5",
            "10.1000/xyz",
        ] {
            let e = ArxivId::parse(text).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::BadId), "{text}");
        }
        assert_eq!(
            ArxivId::parse("hep-th/9901001v2").unwrap().request_url("http://h/"),
            "http://h/oai2?verb=GetRecord&identifier=oai:arXiv.org:hep-th/9901001&metadataPrefix=arXivRaw"
        );
    }
}
