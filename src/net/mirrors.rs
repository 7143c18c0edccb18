//! Mirror manifests (`pith_mirror_manifest`): which hosts serve the same records and bundles,
//! in which order to ask them, and the keys whose fingerprints the manifest states.
//!
//! The manifest is [`super::Settings::mirrors`] (`PITH_MIRRORS`: a URL or a file); when none
//! is named and the resolver is the default one, pith.science's [`MIRRORS_URL`]. A fetched
//! manifest is cached like the other answers (`mirrors/<hash of its URL>.json`, used for
//! [`MANIFEST_FRESH`], offline of any age). When no manifest applies, or pith.science's cannot
//! be had, the resolver alone is asked, as one unnamed mirror ([`Mirrors::named`] false).
//!
//! A manifest is trusted for where to ask, never for what is true: an answer is believed only
//! as far as it checks (a record by its hash, a bundle by a receipt that verifies with a key
//! the user pinned: the registry's, and those given with `--key`). The keys a manifest states
//! for a mirror ([`Mirror::named_keys`]) are names, never trust: anyone can write a manifest
//! stating their own key with its own fingerprint, so a receipt signed by such a key stays
//! unverified until the user pins the key. This module reads manifests; asking the mirrors in
//! turn is [`super::resolver`]'s.

use std::time::Duration;

use serde_json::Value;

use super::client::{Client, Service};
use super::{Error, ErrorKind};
use crate::number;
use crate::verify::Key;

/// pith.science's mirror manifest, read when no other is named and the resolver is the
/// default one.
pub const MIRRORS_URL: &str = "https://pith.science/pith-mirrors.json";
/// Environment variable naming the mirror manifest: a URL or a file.
pub const ENV_MIRRORS: &str = "PITH_MIRRORS";
/// How long a cached manifest is used before it is fetched again.
pub const MANIFEST_FRESH: Duration = Duration::from_secs(24 * 3600);
/// The most mirrors read from a manifest: more are ignored, so that one lookup is bounded.
pub const MAX_MIRRORS: usize = 16;

/// One mirror of a manifest.
#[derive(Debug, Clone)]
pub struct Mirror {
    /// Its name in the manifest (else its base URL).
    pub name: String,
    /// Its base URL: records are at `{base_url}/pith/{26}.json`.
    pub base_url: String,
    /// Its `bundle_pattern`, `{suffix}` standing for the 26 characters.
    pub bundle_pattern: String,
    /// The keys the manifest names for it whose stated fingerprint is theirs: said in reports
    /// so that a user can decide to pin one, never used to check a receipt.
    pub named_keys: Vec<Key>,
}

impl Mirror {
    /// The resolver at `base`, as an unnamed mirror.
    pub fn resolver(base: &str) -> Self {
        let base = base.trim_end_matches('/');
        Mirror {
            name: base.to_owned(),
            base_url: base.to_owned(),
            bundle_pattern: super::bundle_url(base, "{suffix}"),
            named_keys: Vec::new(),
        }
    }

    /// The record URL of `code` at this mirror.
    pub fn record_url(&self, code: &str) -> String {
        super::resolver::record_url(&self.base_url, code)
    }

    /// The bundle URL of `code` at this mirror.
    pub fn bundle_url(&self, code: &str) -> String {
        self.bundle_pattern.replace("{suffix}", code)
    }

    /// How reports name it: `NAME (BASE_URL)`, or the base URL when that is its name.
    pub fn label(&self) -> String {
        if self.name == self.base_url {
            self.base_url.clone()
        } else {
            format!("{} ({})", self.name, self.base_url)
        }
    }
}

/// The mirrors to ask, in order.
#[derive(Debug, Clone)]
pub struct Mirrors {
    /// The mirrors, never empty.
    pub list: Vec<Mirror>,
    /// Whether they come from a manifest (then reports name the one that answered).
    pub named: bool,
}

/// The mirrors `client` asks: the manifest's ([`super::Settings::manifest`]), else its
/// resolver alone. pith.science's manifest, when it cannot be had (or offline and never
/// cached), gives way to the resolver alone; so does a named one offline and never cached.
///
/// # Errors
/// For a manifest named in the settings: [`ErrorKind::Setting`] when its file cannot be read
/// or names no usable mirror; as [`Client::get`] when it cannot be fetched;
/// [`ErrorKind::BadAnswer`] when it is not a manifest.
pub fn mirrors(client: &Client) -> Result<Mirrors, Error> {
    let s = client.settings();
    let alone = || Mirrors {
        list: vec![Mirror::resolver(&s.resolver_url)],
        named: false,
    };
    let Some(source) = s.manifest() else {
        return Ok(alone());
    };
    let named = s.mirrors.is_some();
    match manifest(client, source) {
        Ok(list) => Ok(Mirrors { list, named: true }),
        Err(e) if matches!(e.kind(), ErrorKind::NotCached) => Ok(alone()),
        Err(_) if !named => Ok(alone()),
        Err(e) => Err(e),
    }
}

/// The cache file of the manifest at `url`.
fn cache_file(client: &Client, url: &str) -> std::path::PathBuf {
    client.cache().dir().join("mirrors").join(format!(
        "{}.json",
        &number::hex(&number::sha256(url.as_bytes()))[..16]
    ))
}

fn is_url(source: &str) -> bool {
    source.starts_with("https://") || source.starts_with("http://")
}

/// The mirrors of the manifest at `source` (a URL, from the cache or fetched; or a file).
fn manifest(client: &Client, source: &str) -> Result<Vec<Mirror>, Error> {
    let setting = |reason: String| {
        Error::from(ErrorKind::Setting {
            name: ENV_MIRRORS,
            reason,
        })
    };
    if !is_url(source) {
        let bytes =
            crate::bounded::read_file(std::path::Path::new(source), crate::bounded::FILE_BYTES)
                .map_err(|e| setting(format!("{source}: {e}")))?;
        return parse(&bytes, "").map_err(|m| setting(format!("{source}: {m}")));
    }
    let s = client.settings();
    let cache = client.cache();
    let file = cache_file(client, source);
    if !s.refresh {
        if let Some(bytes) = cache.read_fresh(&file, MANIFEST_FRESH, s.offline)? {
            if let Ok(list) = parse(&bytes, source) {
                return Ok(list);
            }
        }
    }
    let fetched = client
        .get(Service::Resolver, source)
        .map_err(|e| e.about(source))?;
    let list = parse(&fetched.body, source)
        .map_err(|m| Error::from(ErrorKind::BadAnswer(m)).about(source))?;
    cache.write(&file, &fetched.body)?;
    Ok(list)
}

/// The origin (`scheme://host[:port]`) of a URL, to which a manifest's paths are joined.
fn origin(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&url[..scheme.len() + 3 + end])
}

/// Reads a manifest: its `mirrors`, each with a `base_url` (absolute, or a path joined to the
/// origin of `at`, the manifest's own URL), a `bundle_pattern` (else the resolver's layout)
/// and the keys of `public_key` and `public_keys` whose stated fingerprints are theirs (named,
/// not trusted: [`Mirror::named_keys`]).
///
/// # Errors
/// A sentence saying why it is not a manifest, or names no usable mirror.
///
/// # Examples
/// ```
/// let m = br#"{"manifest_type": "pith_mirror_manifest", "mirrors": [
///     {"name": "A", "base_url": "https://a.example"}, {"base_url": "/m"}]}"#;
/// let list = pith::net::mirrors::parse(m, "https://b.example/pith-mirrors.json")?;
/// assert_eq!(list[0].bundle_url("X"), "https://a.example/pith/X/bundle.json");
/// assert_eq!(list[1].base_url, "https://b.example/m");
/// # Ok::<(), String>(())
/// ```
pub fn parse(json: &[u8], at: &str) -> Result<Vec<Mirror>, String> {
    let v: Value = serde_json::from_slice(json).map_err(|e| format!("not JSON: {e}"))?;
    let entries = v
        .get("mirrors")
        .and_then(Value::as_array)
        .ok_or("not a mirror manifest: no \"mirrors\" list")?;
    let absolute = |u: &str| -> Option<String> {
        let plain = !u.chars().any(|c| c.is_control() || c.is_whitespace());
        if !plain {
            None
        } else if is_url(u) {
            Some(u.trim_end_matches('/').to_owned())
        } else if u.starts_with('/') && !u.starts_with("//") {
            origin(at).map(|o| format!("{o}{}", u.trim_end_matches('/')))
        } else {
            None
        }
    };
    let mut out = Vec::new();
    for m in entries.iter().take(MAX_MIRRORS) {
        let Some(base) = m.get("base_url").and_then(Value::as_str).and_then(absolute) else {
            continue;
        };
        let bundle_pattern = m
            .get("bundle_pattern")
            .and_then(Value::as_str)
            .filter(|p| p.contains("{suffix}"))
            .and_then(absolute)
            .unwrap_or_else(|| super::bundle_url(&base, "{suffix}"));
        let name = m
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty() && !n.chars().any(char::is_control))
            .map_or_else(|| base.clone(), str::to_owned);
        let stated = m.get("public_key").into_iter().chain(
            m.get("public_keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
        let mut keys: Vec<Key> = Vec::new();
        for k in stated.filter_map(stated_key) {
            if !keys.iter().any(|x| x.fingerprint() == k.fingerprint()) {
                keys.push(k);
            }
        }
        out.push(Mirror {
            name,
            base_url: base,
            bundle_pattern,
            named_keys: keys,
        });
    }
    if out.is_empty() {
        return Err("the manifest names no mirror with an http(s) base_url".into());
    }
    Ok(out)
}

/// A key a manifest describes, when the fingerprint it states (`fingerprint_sha256_hex`, and
/// `fingerprint_sha256_b32_first128bits` when given) is the key's own; a key without a stated
/// fingerprint, or with another, is not taken.
fn stated_key(k: &Value) -> Option<Key> {
    let raw = k
        .get("public_key_b64")
        .or_else(|| k.get("public_key_hex"))
        .and_then(Value::as_str)?;
    let mut key = Key::parse(raw).ok()?;
    let hex = k.get("fingerprint_sha256_hex").and_then(Value::as_str)?;
    if !hex.eq_ignore_ascii_case(&key.fingerprint()) {
        return None;
    }
    if let Some(b32) = k
        .get("fingerprint_sha256_b32_first128bits")
        .and_then(Value::as_str)
    {
        if b32 != key.fingerprint_b32() {
            return None;
        }
    }
    // Both encodings, when both are given, must be the same key.
    if let (Some(b), Some(h)) = (
        k.get("public_key_b64").and_then(Value::as_str),
        k.get("public_key_hex").and_then(Value::as_str),
    ) {
        if Key::parse(b).ok()?.fingerprint() != Key::parse(h).ok()?.fingerprint() {
            return None;
        }
    }
    key.key_id = k.get("key_id").and_then(Value::as_str).map(str::to_owned);
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_taken_only_with_their_own_fingerprint() {
        let reg = Key::registry();
        let entry = |fp: &str| {
            serde_json::json!({"mirrors": [{"name": "P", "base_url": "https://p.example/",
                "public_key": {"key_id": "pith-v1-2026-05", "public_key_b64": reg.to_base64(),
                    "public_key_hex": reg.to_hex(), "fingerprint_sha256_hex": fp}}]})
            .to_string()
        };
        let good = parse(entry(&reg.fingerprint()).as_bytes(), "").unwrap();
        assert_eq!(good[0].named_keys.len(), 1);
        assert_eq!(
            good[0].named_keys[0].key_id.as_deref(),
            Some("pith-v1-2026-05")
        );
        assert_eq!(good[0].base_url, "https://p.example");
        assert_eq!(good[0].label(), "P (https://p.example)");
        let bad = parse(entry(&"0".repeat(32)).as_bytes(), "").unwrap();
        assert!(bad[0].named_keys.is_empty());
        // Paths need the manifest's own URL; unusable entries are skipped.
        let rel = br#"{"mirrors": [{"base_url": "/m"}, {"base_url": "javascript:x"}]}"#;
        assert!(parse(rel, "").is_err());
        assert_eq!(
            parse(rel, "http://h:1/x.json").unwrap()[0].base_url,
            "http://h:1/m"
        );
        assert!(parse(b"[]", "").is_err());
        assert!(parse(b"{", "").is_err());
    }
}
