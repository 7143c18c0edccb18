//! The Pith resolver: a number's record (`{base}/pith/{26}.json`) and bundle
//! (`{base}/pith/{26}/bundle.json`, which carries the receipts).
//!
//! The record may come wrapped, under `canonical_record` with `pith_number` and
//! `canonical_sha256` beside it (the resolver's JSON-LD, which pith.science's own "verify it
//! yourself" recipe reads with `jq '.canonical_record'`), or bare; both are accepted
//! ([`read_record`]), and what a wrapper states is kept to be checked.
//!
//! With a mirror manifest ([`mirrors`]), the mirrors are asked in turn when one fails or
//! cannot be reached, and a mirror's answer is believed only as far as it checks
//! ([`record_from`], [`bundle_from`]): a record by its hash, a bundle by a receipt that
//! verifies with a key the user pinned.
//!
//! Caching: an answer is cached only once it checks, so that a resolver that once answers
//! wrongly cannot decide later runs. A record is named by its own hash, so a cached record
//! that hashes to its code is used whatever its age (one that does not is asked for again); a
//! bundle may gain events, so a cached bundle is used when younger than [`BUNDLE_FRESH`] and
//! still believed (offline: of any age). A 404 is never cached.
//!
//! A mirror also names, beside the record, the newest version of the paper it indexes when
//! that is not the record's own (`newer_version`); pith.science may not, so it is optional
//! ([`NewerVersion`]). It is a note for the reader, never part of a check.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use super::client::{Client, Service};
use super::mirrors::{self, Mirror};
use super::{Error, ErrorKind};
use crate::record::Record;
use crate::verify::{Bundle, Key};

/// How long a cached bundle is used before the resolver is asked again.
pub const BUNDLE_FRESH: Duration = Duration::from_secs(24 * 3600);

/// A record as the resolver serves it.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The canonical record.
    pub record: Record,
    /// The `pith_number` a wrapper states beside the record.
    pub stated_number: Option<String>,
    /// The `canonical_sha256` a wrapper states beside the record.
    pub stated_sha256: Option<String>,
    /// A newer version of the paper than the record's, when the resolver names one.
    pub newer_version: Option<NewerVersion>,
    /// Whether it came from the cache.
    pub cached: bool,
}

/// A newer version of a paper than the record checked: what a mirror states beside a record
/// under `newer_version` (`{version, pith_number, url, latest}`). A newer version does not
/// make the older number wrong; it tells the reader where the paper now stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewerVersion {
    /// The arXiv version (`3` for v3).
    pub version: u32,
    /// Its full number (`pith:YYYY:<26>`).
    pub pith_number: String,
    /// Its record page (absolute: a path the resolver gives is joined to the resolver's URL).
    pub url: String,
}

impl NewerVersion {
    /// The `newer_version` a wrapper states beside `record`, with a relative `url` joined to
    /// `base` (the resolver's URL). `None` when absent, or when it does not name a full number
    /// of a version newer than the record's: a confused resolver's note is left out rather
    /// than shown, since it decides nothing.
    pub fn stated(wrapper: &Value, record: &Record, base: &str) -> Option<NewerVersion> {
        let n = wrapper.get("newer_version")?;
        let version = u32::try_from(n.get("version")?.as_u64()?).ok()?;
        let number = crate::PithNumber::parse(n.get("pith_number")?.as_str()?).ok()?;
        if version <= record.source.version || number.year().is_none() {
            return None;
        }
        let page = format!("{}/pith/{}", base.trim_end_matches('/'), number.code());
        // The URL is printed to a terminal and a page: only a plain http(s) URL is kept as
        // given; anything else is replaced by the number's page at this resolver.
        let plain = |u: &str| !u.chars().any(|c| c.is_control() || c.is_whitespace());
        let url = match n.get("url").and_then(Value::as_str) {
            Some(u) if plain(u) && (u.starts_with("https://") || u.starts_with("http://")) => {
                u.to_owned()
            }
            Some(u) if plain(u) && u.starts_with('/') && !u.starts_with("//") => {
                format!("{}{u}", base.trim_end_matches('/'))
            }
            _ => page,
        };
        Some(NewerVersion {
            version,
            pith_number: number.full(),
            url,
        })
    }
}

// The URL shapes are the protocol's, shared with the mirrors' manifests (`super`).
pub use super::{bundle_url, record_url};

/// Reads a record as the resolver serves it: wrapped (`canonical_record` beside
/// `pith_number` and `canonical_sha256`) or bare. A `newer_version` URL that is a path is
/// kept as a path; [`read_record_at`] joins it to the resolver's URL.
///
/// # Errors
/// [`ErrorKind::BadAnswer`] for text that is not JSON, or a record that is not valid.
pub fn read_record(json: &[u8]) -> Result<Resolved, Error> {
    read_record_at(json, "")
}

/// Reads a record as [`read_record`] does, served by the resolver at `base`.
///
/// # Errors
/// As [`read_record`].
pub fn read_record_at(json: &[u8], base: &str) -> Result<Resolved, Error> {
    let bad = |m: String| Error::from(ErrorKind::BadAnswer(m));
    let v: Value = serde_json::from_slice(json).map_err(|e| bad(format!("not JSON: {e}")))?;
    let (rec, number, sha) = match v.get("canonical_record") {
        Some(r) => (
            r,
            v.get("pith_number")
                .and_then(Value::as_str)
                .map(str::to_owned),
            v.get("canonical_sha256")
                .and_then(Value::as_str)
                .map(str::to_owned),
        ),
        None => (&v, None, None),
    };
    let record = Record::from_value(rec).map_err(|e| bad(format!("the record: {e}")))?;
    let newer_version = NewerVersion::stated(&v, &record, base);
    Ok(Resolved {
        record,
        stated_number: number,
        stated_sha256: sha,
        newer_version,
        cached: false,
    })
}

/// The record of `code` (26 characters), from the cache or the resolver.
///
/// # Errors
/// [`ErrorKind::NotFound`] when the resolver has none; as [`Client::get`] and
/// [`read_record`]; about the record URL.
pub fn record(client: &Client, code: &str) -> Result<Resolved, Error> {
    record_and_bytes(client, code).map(|(r, _)| r)
}

/// The record of `code` as [`record`] gives it, with the display fields its wrapper gives
/// beside it ([`display_fields`]).
///
/// # Errors
/// As [`record`].
pub fn described(client: &Client, code: &str) -> Result<(Resolved, String, String), Error> {
    let (r, bytes) = record_and_bytes(client, code)?;
    let (title, authors) = display_fields(&bytes);
    Ok((r, title, authors))
}

/// The `title` and `authors` (arXiv's one-string form) a wrapped record gives beside
/// `canonical_record`, each empty when absent (a bare record gives neither).
pub fn display_fields(json: &[u8]) -> (String, String) {
    let v: Value = serde_json::from_slice(json).unwrap_or(Value::Null);
    if v.get("canonical_record").is_none() {
        return (String::new(), String::new());
    }
    let text = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    (text("title"), text("authors"))
}

fn record_and_bytes(client: &Client, code: &str) -> Result<(Resolved, Vec<u8>), Error> {
    record_answer(client, code).map(|(r, b, _)| (r, b))
}

/// The record of `code` as [`record`] gives it, with the mirror that answered when a mirror
/// manifest named the mirrors asked (`None`: from the cache, or the resolver alone).
///
/// # Errors
/// As [`record`].
pub fn record_from(client: &Client, code: &str) -> Result<(Resolved, Option<Mirror>), Error> {
    record_answer(client, code).map(|(r, _, m)| (r, m))
}

/// The first of `errors` that says the number is unknown (a 404), else the first.
fn first_error(mut errors: Vec<Error>) -> Error {
    let at = errors
        .iter()
        .position(|e| matches!(e.kind(), ErrorKind::NotFound))
        .unwrap_or(0);
    errors.swap_remove(at)
}

/// The record of `code`: from the cache, else from the mirrors in turn (the resolver alone
/// being one), the first that [`answers`] for `code`; when none does, the first record served
/// (its checks then fail), else the first error (a 404 first). Only an answer for `code` is
/// cached, and a cached one is used only while it is one: an answer that contradicts the
/// paper is never kept as its record, and one kept by an older pith is asked for again.
fn record_answer(
    client: &Client,
    code: &str,
) -> Result<(Resolved, Vec<u8>, Option<Mirror>), Error> {
    let cache = client.cache();
    let file = cache.resolver_file(code, false);
    if !client.settings().refresh {
        if let Some(bytes) = cache.read(&file)? {
            if let Ok(mut r) = read_record_at(&bytes, &client.settings().resolver_url) {
                if answers(&r, code) {
                    r.cached = true;
                    return Ok((r, bytes, None));
                }
            }
        }
    }
    let ms = mirrors::mirrors(client)?;
    let mut served = None;
    let mut errors = Vec::new();
    for m in &ms.list {
        let url = m.record_url(code);
        let got = client
            .get(Service::Resolver, &url)
            .and_then(|f| read_record_at(&f.body, &m.base_url).map(|r| (r, f.body)))
            .map_err(|e| e.about(&url));
        let mirror = ms.named.then(|| m.clone());
        match got {
            Ok((r, body)) if answers(&r, code) => {
                cache.write(&file, &body)?;
                return Ok((r, body, mirror));
            }
            Ok((r, body)) => {
                served.get_or_insert((r, body, mirror));
            }
            Err(e) => errors.push(e),
        }
    }
    match served {
        Some(s) => Ok(s),
        None => Err(first_error(errors)),
    }
}

/// Whether `r` answers for `code`: its record hashes to `code` (a record is named by its
/// hash, so every honest resolver serves the same one), and what a wrapper states beside it
/// (`pith_number`, `canonical_sha256`) is the record's own.
pub fn answers(r: &Resolved, code: &str) -> bool {
    let n = r.record.number();
    let number_ok = r.stated_number.as_deref().is_none_or(|s| {
        crate::PithNumber::parse(s)
            .is_ok_and(|p| p.matches(&crate::number::NumberRef::Full(n.clone())))
    });
    let hash_ok = r
        .stated_sha256
        .as_deref()
        .is_none_or(|s| s.eq_ignore_ascii_case(&r.record.canonical_sha256()));
    n.code().eq_ignore_ascii_case(code) && number_ok && hash_ok
}

/// The full number of a bare 26-character `code`: its record from the resolver (or the
/// cache), whose own number must be `code`, gives the year a bare code lacks (the
/// code pith.science's record pages tell authors to paste).
///
/// # Errors
/// As [`record`]; [`ErrorKind::BadAnswer`] when the record served hashes to another code.
pub fn full_number(client: &Client, code: &str) -> Result<crate::PithNumber, Error> {
    let r = record(client, code)?;
    let n = r.record.number();
    if !n.code().eq_ignore_ascii_case(code) {
        let url = record_url(&client.settings().resolver_url, code);
        return Err(Error::from(ErrorKind::BadAnswer(format!(
            "the record served is that of {}, not of {code}",
            n.full()
        )))
        .about(url));
    }
    Ok(n)
}

/// The bundle of `code`, from the cache or the resolver; `None` when the resolver has none.
/// With mirrors, as [`bundle_from`] with the registry key.
///
/// # Errors
/// As [`Client::get`] (a 404 excepted); [`ErrorKind::BadAnswer`] for a bundle that is not
/// valid; about the bundle URL.
pub fn bundle(client: &Client, code: &str) -> Result<Option<Bundle>, Error> {
    bundle_from(client, code, &[Key::registry()]).map(|a| a.bundle)
}

/// A bundle as [`bundle_from`] gives it.
#[derive(Debug, Clone, Default)]
pub struct BundleAnswer {
    /// The bundle; `None` when no one has one.
    pub bundle: Option<Bundle>,
    /// The mirror that served it, when a manifest named the mirrors asked (`None`: the cache,
    /// or the resolver alone).
    pub mirror: Option<Mirror>,
}

/// Whether a bundle is believed: it is the bundle of `code`, none of its checks fails, and a
/// receipt in it verifies with one of `keys`, the keys the user pinned. Keys a mirror or its
/// manifest name are not among them: naming a key adds no trust.
fn believed(b: &Bundle, code: &str, keys: &[Key]) -> bool {
    let n = b.record().number();
    n.code().eq_ignore_ascii_case(code) && b.supports_verified(&n, keys).is_ok()
}

/// The bundle of `code` and the mirror that served it (named when a manifest named the
/// mirrors asked; `None` from the cache). From the cache when younger than [`BUNDLE_FRESH`]
/// and still believed with `keys` (offline, of any age and as it is: its checks say what it
/// is worth); else the mirrors are asked in turn (the resolver alone being one) and the first
/// bundle believed is taken; when none is, the first served (its checks then say why); when
/// none is served, `None` if a mirror answered 404, else the first error. Only a believed
/// bundle is cached.
///
/// # Errors
/// As [`bundle`].
pub fn bundle_from(client: &Client, code: &str, keys: &[Key]) -> Result<BundleAnswer, Error> {
    let s = client.settings();
    let cache = client.cache();
    let file = cache.resolver_file(code, true);
    let read = |bytes: &[u8]| {
        std::str::from_utf8(bytes)
            .map_err(|e| e.to_string())
            .and_then(|t| Bundle::from_json(t).map_err(|e| e.to_string()))
    };
    if !s.refresh {
        if let Some(bytes) = cache.read_fresh(&file, BUNDLE_FRESH, s.offline)? {
            if let Ok(b) = read(&bytes) {
                if s.offline || believed(&b, code, keys) {
                    return Ok(BundleAnswer {
                        bundle: Some(b),
                        mirror: None,
                    });
                }
            }
        }
    }
    let ms = mirrors::mirrors(client)?;
    let mut served = None;
    let mut errors = Vec::new();
    let mut missing = false;
    for m in &ms.list {
        let url = m.bundle_url(code);
        let mirror = ms.named.then(|| m.clone());
        match client.get(Service::Resolver, &url) {
            Ok(f) => match read(&f.body) {
                Ok(b) if believed(&b, code, keys) => {
                    cache.write(&file, &f.body)?;
                    return Ok(BundleAnswer {
                        bundle: Some(b),
                        mirror,
                    });
                }
                Ok(b) => {
                    served.get_or_insert(BundleAnswer {
                        bundle: Some(b),
                        mirror,
                    });
                }
                Err(why) => errors.push(Error::from(ErrorKind::BadAnswer(why)).about(&url)),
            },
            Err(e) if matches!(e.kind(), ErrorKind::NotFound) => missing = true,
            Err(e) => errors.push(e.about(&url)),
        }
    }
    if let Some(s) = served {
        return Ok(s);
    }
    if missing || errors.is_empty() {
        return Ok(BundleAnswer::default());
    }
    Err(first_error(errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_and_bare() {
        let recs: Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
        let bare = serde_json::to_vec(&recs[0]["canonical_record"]).unwrap();
        let wrapped = serde_json::to_vec(&recs[0]).unwrap();
        let a = read_record(&bare).unwrap();
        let b = read_record(&wrapped).unwrap();
        assert_eq!(a.record, b.record);
        assert_eq!(a.stated_number, None);
        assert_eq!(b.stated_number.as_deref(), recs[0]["pith_number"].as_str());
        let e = read_record(b"{\"canonical_record\":{}}").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadAnswer(_)), "{e}");
        assert!(read_record(b"<html>").is_err());
        assert_eq!(
            record_url("https://pith.science/", "X"),
            "https://pith.science/pith/X.json"
        );
    }

    #[test]
    fn a_newer_version_is_read_when_it_names_one() {
        let recs: Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
        let mut v = recs[0].clone();
        let record = Record::from_value(&v["canonical_record"]).unwrap();
        let later = record.source.version + 2;
        let number = "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA";
        let at = |v: &Value, base: &str| {
            read_record_at(&serde_json::to_vec(v).unwrap(), base)
                .unwrap()
                .newer_version
        };
        // pith.science's answer names none.
        assert_eq!(at(&v, "http://m"), None);
        // A mirror's relative URL is joined to the resolver asked; an absolute one is kept.
        v["newer_version"] = serde_json::json!({"version": later, "pith_number": number,
            "url": "/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA", "latest": true});
        let n = at(&v, "http://m/").unwrap();
        assert_eq!((n.version, n.pith_number.as_str()), (later, number));
        assert_eq!(n.url, "http://m/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA");
        v["newer_version"]["url"] = "https://mirror.example/pith/A".into();
        assert_eq!(
            at(&v, "http://m").unwrap().url,
            "https://mirror.example/pith/A"
        );
        // A URL that is not plain becomes the number's page at the resolver asked.
        for url in [
            "javascript:alert(1)",
            "https://x\u{1b}[2J",
            "//evil.example/x",
        ] {
            v["newer_version"]["url"] = url.into();
            assert_eq!(
                at(&v, "http://m").unwrap().url,
                "http://m/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA",
                "{url}"
            );
        }
        // Not newer than the record, or no full number: left out.
        v["newer_version"]["version"] = record.source.version.into();
        assert_eq!(at(&v, "http://m"), None);
        v["newer_version"]["version"] = later.into();
        v["newer_version"]["pith_number"] = "AAAAAAAAAAAAAAAAAAAAAAAAAA".into();
        assert_eq!(at(&v, "http://m"), None);
        v["newer_version"] = Value::Null;
        assert_eq!(at(&v, "http://m"), None);
    }
}
