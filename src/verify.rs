//! Verification: records against numbers, texts against records, bundles and their receipts.
//!
//! Every check yields a [`Check`] with a [`Status`]; nothing is silently passed. What cannot be
//! verified (a receipt signed by an unknown key, a field of unknown meaning) is reported as
//! [`Status::Unverified`], never as a pass. Signatures are Ed25519 (ed25519-dalek, strict
//! verification) over the 32 raw bytes of the canonical hash (SPEC, "Signatures").

use std::fmt;

use ed25519_dalek::{Signature, VerifyingKey};
use serde::Serialize;
use serde_json::Value;

use crate::number::{self, NumberRef, PithNumber};
use crate::record::{self, Record};

/// Key id of the built-in registry key.
pub const REGISTRY_KEY_ID: &str = "pith-v1-2026-05";
/// The registry's raw Ed25519 public key, base64 (SPEC, "Signatures").
pub const REGISTRY_KEY_B64: &str = "stVStoiQhXFxp4s2pdzPNoqVNBMojDU/fJ2db5S3CbM=";

/// Result of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The check holds.
    Ok,
    /// The check fails: the data disagree.
    Mismatch,
    /// The check could not be made (unknown key, missing data); not a pass.
    Unverified,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Ok => "ok",
            Status::Mismatch => "MISMATCH",
            Status::Unverified => "UNVERIFIED",
        })
    }
}

/// One verification step and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked (`canonical_sha256`, `pith_number`, `title`, `receipt signature`…).
    pub subject: String,
    /// The outcome.
    pub status: Status,
    /// A human explanation, with the values compared.
    pub detail: String,
}

impl Check {
    fn new(subject: impl Into<String>, status: Status, detail: impl Into<String>) -> Self {
        Check {
            subject: subject.into(),
            status,
            detail: detail.into(),
        }
    }

    fn compare(subject: &str, ok: bool, ok_detail: String, bad_detail: String) -> Self {
        if ok {
            Check::new(subject, Status::Ok, ok_detail)
        } else {
            Check::new(subject, Status::Mismatch, bad_detail)
        }
    }
}

/// A list of checks; a mismatch anywhere makes the whole report fail.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The checks, in the order they were made.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether no check is a [`Status::Mismatch`].
    pub fn holds(&self) -> bool {
        self.checks.iter().all(|c| c.status != Status::Mismatch)
    }

    /// Appends a check.
    pub fn push(&mut self, c: Check) {
        self.checks.push(c);
    }
}

/// Error for keys and signatures that cannot even be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
}

/// What could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a public key is not 32 bytes of base64 or hex, or not a valid curve point.
    BadKey(String),
    /// Occurs when a bundle is not a JSON object or lacks its record.
    BadBundle(String),
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::BadKey(m) => write!(f, "invalid public key: {m}"),
            ErrorKind::BadBundle(m) => write!(f, "invalid bundle: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// An Ed25519 public key with the ids under which receipts may name it.
#[derive(Debug, Clone)]
pub struct Key {
    /// A key id such as `pith-v1-2026-05` (None for a key given by the user).
    pub key_id: Option<String>,
    key: VerifyingKey,
}

impl Key {
    /// The built-in registry key `pith-v1-2026-05`.
    pub fn registry() -> Self {
        let mut k = Key::parse(REGISTRY_KEY_B64).expect("built-in key is valid");
        k.key_id = Some(REGISTRY_KEY_ID.to_owned());
        k
    }

    /// Parses a raw 32-byte Ed25519 public key given as base64 or hex.
    ///
    /// # Errors
    /// [`ErrorKind::BadKey`] when it is neither, or not a valid point.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let t = text.trim();
        let raw = number::digest_from_hex(t)
            .map(|d| d.to_vec())
            .or_else(|| data_encoding::BASE64.decode(t.as_bytes()).ok())
            .ok_or_else(|| Error {
                kind: ErrorKind::BadKey("expected 32 bytes as base64 or 64 hex digits".into()),
            })?;
        let raw: [u8; 32] = raw.try_into().map_err(|v: Vec<u8>| Error {
            kind: ErrorKind::BadKey(format!("{} bytes, expected 32", v.len())),
        })?;
        let key = VerifyingKey::from_bytes(&raw).map_err(|e| Error {
            kind: ErrorKind::BadKey(e.to_string()),
        })?;
        Ok(Key { key_id: None, key })
    }

    /// Hex of the first 16 bytes of SHA-256 of the raw key (SPEC's fingerprint).
    pub fn fingerprint(&self) -> String {
        number::hex(&number::sha256(self.key.as_bytes())[..16])
    }

    /// Whether a receipt's key id names this key (its id or its fingerprint).
    pub fn is_named(&self, id: &str) -> bool {
        self.key_id.as_deref() == Some(id) || self.fingerprint() == id.to_ascii_lowercase()
    }

    /// Verifies a base64 Ed25519 signature over the 32 raw digest bytes (strict verification).
    pub fn verify_digest(&self, digest: &[u8; 32], signature_b64: &str) -> bool {
        let Ok(raw) = data_encoding::BASE64.decode(signature_b64.trim().as_bytes()) else {
            return false;
        };
        let Ok(sig) = Signature::from_slice(&raw) else {
            return false;
        };
        self.key.verify_strict(digest, &sig).is_ok()
    }
}

/// Checks that `record` has the number `claimed` (code, and the year when `claimed` has one).
pub fn record_against_number(record: &Record, claimed: &NumberRef) -> Check {
    let n = record.number();
    let ok = n.matches(claimed);
    Check::compare(
        "pith_number",
        ok,
        format!("{claimed} is the number of this record ({n})"),
        format!("{claimed} given, but the record's number is {n}"),
    )
}

/// Which text of a paper is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextField {
    /// The title, against `title_canon_sha256`.
    Title,
    /// The abstract, against `abstract_canon_sha256`.
    Abstract,
}

/// Checks a title or abstract against the record's canonical-text hash.
pub fn text_against_record(field: TextField, text: &str, record: &Record) -> Check {
    let (name, want) = match field {
        TextField::Title => ("title", &record.metadata.title_canon_sha256),
        TextField::Abstract => ("abstract", &record.metadata.abstract_canon_sha256),
    };
    let got = record::canon_sha256(text);
    Check::compare(
        name,
        &got == want,
        format!("canon sha256 {got} matches"),
        format!("canon sha256 {got} differs from the record's {want} (whitespace and case are ignored; any other change counts)"),
    )
}

/// Names under which receipts carry their signature.
const SIGNATURE_FIELDS: [&str; 4] = ["signature", "signature_b64", "sig", "signature_base64"];

/// Verifies a `pith_open_graph_bundle`: the record's canonical hash, the number and short
/// number, every record and hash repeated in events, and every receipt signature against
/// `keys`. Unknown fields are ignored; receipts with unknown keys or no signature are reported
/// as [`Status::Unverified`].
///
/// # Errors
/// [`ErrorKind::BadBundle`] when the bundle is not an object or has no `canonical_record` that
/// parses as a record.
pub fn bundle(bundle: &Value, keys: &[Key]) -> Result<Report, Error> {
    let bad = |m: String| Error {
        kind: ErrorKind::BadBundle(m),
    };
    let obj = bundle
        .as_object()
        .ok_or_else(|| bad("not a JSON object".into()))?;
    let rec_value = obj
        .get("canonical_record")
        .or_else(|| first_event_payload(bundle).and_then(|p| p.get("canonical_record")))
        .ok_or_else(|| bad("no canonical_record".into()))?;
    let record =
        Record::from_value(rec_value).map_err(|e| bad(format!("canonical_record: {e}")))?;
    let digest = record.digest();
    let hash = number::hex(&digest);
    let n = record.number();
    let mut report = Report::default();
    report.push(Check::new(
        "canonical_record",
        Status::Ok,
        format!("canonical sha256 {hash}"),
    ));
    // Every place the bundle states the hash, number or record must agree with it.
    walk(bundle, "", &mut |path, v| {
        check_claim(path, v, &record, &hash, &n, &mut report);
    });
    // Receipts.
    let mut receipts = 0;
    walk(bundle, "", &mut |path, v| {
        if let Some(o) = v.as_object() {
            let sig = SIGNATURE_FIELDS
                .iter()
                .find_map(|f| o.get(*f).and_then(Value::as_str));
            let is_receipt = o.get("kind").and_then(Value::as_str) == Some("pith_receipt");
            if sig.is_none() && !is_receipt {
                return;
            }
            receipts += 1;
            report.push(check_receipt(path, o, sig, &digest, keys));
        }
    });
    if receipts == 0 {
        report.push(Check::new(
            "receipt",
            Status::Unverified,
            "the bundle carries no receipt signature",
        ));
    }
    Ok(report)
}

fn first_event_payload(bundle: &Value) -> Option<&Value> {
    bundle.get("events")?.as_array()?.first()?.get("payload")
}

fn check_claim(
    path: &str,
    v: &Value,
    record: &Record,
    hash: &str,
    n: &PithNumber,
    report: &mut Report,
) {
    let key = path.rsplit('.').next().unwrap_or("");
    match (key, v) {
        ("canonical_sha256", Value::String(s)) => report.push(Check::compare(
            path,
            s.eq_ignore_ascii_case(hash),
            format!("{s} matches"),
            format!("{s} stated, record hashes to {hash}"),
        )),
        ("pith_number" | "subject_pith_number", Value::String(s)) => {
            let check = match PithNumber::parse(s) {
                Ok(claimed) => Check::compare(
                    path,
                    claimed.code() == n.code()
                        && claimed.year().is_none_or(|y| Some(y) == n.year()),
                    format!("{s} matches"),
                    format!("{s} stated, record's number is {n}"),
                ),
                Err(e) => Check::new(path, Status::Mismatch, e.to_string()),
            };
            report.push(check);
        }
        ("short_pith_number", Value::String(s)) => {
            let ok = NumberRef::parse(s)
                .is_ok_and(|r| matches!(r, NumberRef::Alias(_)) && n.matches(&r));
            report.push(Check::compare(
                path,
                ok,
                format!("{s} matches"),
                format!("{s} stated, record's short number is {}", n.short()),
            ));
        }
        ("canonical_record", _) if !path.is_empty() && path != "canonical_record" => {
            let same = Record::from_value(v).is_ok_and(|r| &r == record);
            report.push(Check::compare(
                path,
                same,
                "same record".into(),
                "differs from the bundle's canonical_record".into(),
            ));
        }
        _ => {}
    }
}

fn check_receipt(
    path: &str,
    o: &serde_json::Map<String, Value>,
    sig: Option<&str>,
    digest: &[u8; 32],
    keys: &[Key],
) -> Check {
    let subject = if path.is_empty() {
        "receipt".to_owned()
    } else {
        format!("{path} signature")
    };
    let key_id = o.get("key_id").and_then(Value::as_str);
    let Some(sig) = sig else {
        return Check::new(
            subject,
            Status::Unverified,
            "receipt has no signature field",
        );
    };
    let candidates: Vec<&Key> = match key_id {
        Some(id) => keys
            .iter()
            .filter(|k| k.is_named(id) || k.key_id.is_none())
            .collect(),
        None => keys.iter().collect(),
    };
    if candidates.is_empty() {
        return Check::new(
            subject,
            Status::Unverified,
            format!(
                "signed with key {:?}, which is not known (give it with --key)",
                key_id.unwrap_or("?")
            ),
        );
    }
    // A receipt that states which hash it signs must state this record's hash.
    if let Some(h) = o.get("canonical_sha256").and_then(Value::as_str) {
        if number::digest_from_hex(h).as_ref() != Some(digest) {
            return Check::new(
                subject,
                Status::Mismatch,
                format!("receipt is for hash {h}, not this record"),
            );
        }
    }
    match candidates.iter().find(|k| k.verify_digest(digest, sig)) {
        Some(k) => Check::new(
            subject,
            Status::Ok,
            format!(
                "Ed25519 signature valid for key {}",
                k.key_id.clone().unwrap_or_else(|| k.fingerprint())
            ),
        ),
        None => Check::new(
            subject,
            Status::Mismatch,
            "Ed25519 signature does not verify",
        ),
    }
}

/// Calls `f` on every value of the tree with its dotted path (`events.0.payload.receipt`).
fn walk(v: &Value, path: &str, f: &mut dyn FnMut(&str, &Value)) {
    f(path, v);
    let join = |k: &str| {
        if path.is_empty() {
            k.to_owned()
        } else {
            format!("{path}.{k}")
        }
    };
    match v {
        Value::Object(m) => m.iter().for_each(|(k, c)| walk(c, &join(k), f)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| walk(c, &join(&i.to_string()), f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_fingerprint_is_the_published_one() {
        let k = Key::registry();
        assert_eq!(k.fingerprint(), "8d4b5ee74e4693bcd1df2446408b0d54");
        assert!(k.is_named("pith-v1-2026-05"));
        assert!(k.is_named("8D4B5EE74E4693BCD1DF2446408B0D54"));
        let hex =
            Key::parse("b2d552b68890857171a78b36a5dccf368a953413288c353f7c9d9d6f94b709b3").unwrap();
        assert_eq!(hex.fingerprint(), k.fingerprint());
        assert!(Key::parse("AAAA").is_err());
        assert!(Key::parse("not a key").is_err());
    }
}
