//! Verification: records against numbers, texts against records, bundles and their receipts
//! ([`Bundle`], in `verify/bundle.rs`), and a record's state recomputed from its bundle's
//! events ([`state()`], in `verify/state.rs`).
//!
//! Every check yields a [`Check`] with a [`CheckStatus`]; nothing is silently passed. What cannot be
//! verified (a receipt signed by an unknown key, a field of unknown meaning) is reported as
//! [`CheckStatus::Unverified`], never as a pass. Signatures are Ed25519 (ed25519-dalek, strict
//! verification) over the 32 raw bytes of the canonical hash (SPEC, "Signatures").

use std::fmt;

use ed25519_dalek::{Signature, VerifyingKey};
use serde::Serialize;

use crate::number::{self, NumberRef};
use crate::record::{self, Record};

mod bundle;
mod state;

pub use bundle::{bundle, Bundle, Flags, StatedFlag};
pub use state::{state, Current, EventCheck, EventStatus, State, MERGE_VERSION};

/// Key id of the built-in registry key.
pub const REGISTRY_KEY_ID: &str = "pith-v1-2026-05";
/// The registry's raw Ed25519 public key, base64 (SPEC, "Signatures").
pub const REGISTRY_KEY_B64: &str = "stVStoiQhXFxp4s2pdzPNoqVNBMojDU/fJ2db5S3CbM=";

/// Result of one check (what a [`Check`] found; not a job's outcome, which the job layer states).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// The check holds.
    Ok,
    /// The check fails: the data disagree.
    Mismatch,
    /// The check could not be made (unknown key, missing data); not a pass.
    Unverified,
}

impl fmt::Display for CheckStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CheckStatus::Ok => "ok",
            CheckStatus::Mismatch => "MISMATCH",
            CheckStatus::Unverified => "UNVERIFIED",
        })
    }
}

/// What a [`Check`] is about, so that callers decide by kind and never by the subject text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckKind {
    /// The record itself: it parsed, and its canonical hash.
    Record,
    /// A stated number, short number, hash or repeated record against the record.
    Claim,
    /// A title or abstract against the record's canonical-text hash.
    Text,
    /// A receipt signature (Ed25519 over the canonical hash) found in a bundle.
    Receipt,
    /// A signature given on its own.
    Signature,
    /// Whether a bundle carries any receipt at all.
    Receipts,
    /// Whether the places in a PDF that hold the number (XMP, Info, record link) agree.
    Metadata,
    /// Whether the resolver (or the mirror checking an upload) has a record of the number at
    /// all: when it has none, nothing could be compared, and the verdict is
    /// [`Verdict::Unknown`], not a mismatch.
    Lookup,
}

/// One verification step and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked (`canonical_sha256`, `pith_number`, `title`, `receipt signature`…).
    pub subject: String,
    /// The outcome.
    pub status: CheckStatus,
    /// A human explanation, with the values compared.
    pub detail: String,
    /// What kind of fact was checked (not part of the JSON output).
    #[serde(skip)]
    pub kind: CheckKind,
}

impl Check {
    /// A check of `kind` on `subject` with its outcome and explanation.
    pub fn new(
        kind: CheckKind,
        subject: impl Into<String>,
        status: CheckStatus,
        detail: impl Into<String>,
    ) -> Self {
        Check {
            subject: subject.into(),
            status,
            detail: detail.into(),
            kind,
        }
    }

    fn compare(
        kind: CheckKind,
        subject: &str,
        ok: bool,
        ok_detail: String,
        bad_detail: String,
    ) -> Self {
        if ok {
            Check::new(kind, subject, CheckStatus::Ok, ok_detail)
        } else {
            Check::new(kind, subject, CheckStatus::Mismatch, bad_detail)
        }
    }
}

/// The conclusion of a [`Report`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check was made and holds.
    Verified,
    /// No check failed, but some could not be made (unknown key, no receipt): not a pass.
    Unverified,
    /// At least one check failed.
    Mismatch,
    /// A PDF carries no number, so there was nothing to check.
    NoNumber,
    /// The resolver (or mirror) asked has no record of the number: nothing contradicts it and
    /// nothing confirms it. A number of a version not yet announced is one. Not a pass, and not
    /// a mismatch either.
    Unknown,
}

impl Verdict {
    /// The verdict's key, as the JSON reports spell it: `verified`, `unverified`, `mismatch`,
    /// `no_number`, `unknown`.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Unverified => "unverified",
            Verdict::Mismatch => "mismatch",
            Verdict::NoNumber => "no_number",
            Verdict::Unknown => "unknown",
        }
    }

    /// Whether the front ends exit 0 for this verdict (only [`Verdict::Verified`] and
    /// [`Verdict::Unverified`]: nothing failed and something was found to check).
    pub fn is_ok(self) -> bool {
        matches!(self, Verdict::Verified | Verdict::Unverified)
    }
}

impl fmt::Display for Verdict {
    /// The verdict in capitals, as the first word of a report's headline (`VERIFIED`,
    /// `UNVERIFIED`, `MISMATCH`, `NO NUMBER`, `UNKNOWN`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Verified => "VERIFIED",
            Verdict::Unverified => "UNVERIFIED",
            Verdict::Mismatch => "MISMATCH",
            Verdict::NoNumber => "NO NUMBER",
            Verdict::Unknown => "UNKNOWN",
        })
    }
}

/// A list of checks; a mismatch anywhere makes the whole report fail.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The checks, in the order they were made.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether no check is a [`CheckStatus::Mismatch`].
    pub fn holds(&self) -> bool {
        self.checks
            .iter()
            .all(|c| c.status != CheckStatus::Mismatch)
    }

    /// Appends a check.
    pub fn push(&mut self, c: Check) {
        self.checks.push(c);
    }

    /// The verdict: [`Verdict::Mismatch`] when any check fails, else [`Verdict::Unknown`]
    /// when the resolver asked has no record of the number ([`CheckKind::Lookup`]), else
    /// [`Verdict::Unverified`] when a check could not be made (a bundle without
    /// receipts is not "verified") or when nothing was checked against the record (
    /// a record alone is valid, not verified), else [`Verdict::Verified`].
    pub fn verdict(&self) -> Verdict {
        if !self.holds() {
            Verdict::Mismatch
        } else if self
            .checks
            .iter()
            .any(|c| c.kind == CheckKind::Lookup && c.status != CheckStatus::Ok)
        {
            Verdict::Unknown
        } else if !self.compares()
            || self
                .checks
                .iter()
                .any(|c| c.status == CheckStatus::Unverified)
        {
            Verdict::Unverified
        } else {
            Verdict::Verified
        }
    }

    /// Whether any check compared the record with something (a number, a text, a signature,
    /// a stated value), rather than only reading the record.
    pub fn compares(&self) -> bool {
        self.checks.iter().any(|c| c.kind != CheckKind::Record)
    }
}

kind_error! {
    /// Error for keys, signatures and bundles that cannot even be decoded, and for a bundle that
    /// does not support the status a badge claims.
}

/// What could not be decoded or derived.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a public key is not 32 bytes of base64 or hex, or not a valid curve point.
    #[error("invalid public key: {0}")]
    BadKey(String),
    /// Occurs when a signature is not 64 bytes of base64.
    #[error("invalid signature: {0}")]
    BadSignature(String),
    /// Occurs when a hash is not 64 hex digits.
    #[error("invalid sha256 {0:?}: expected 64 hex digits")]
    BadHash(String),
    /// Occurs when a bundle is not JSON.
    #[error("invalid bundle: not valid JSON")]
    BundleJson(#[source] serde_json::Error),
    /// Occurs when a bundle is not a JSON object or lacks its record.
    #[error("invalid bundle: {0}")]
    BadBundle(String),
    /// Occurs when a bundle's `canonical_record` is not a valid record.
    #[error("invalid bundle: canonical_record")]
    BundleRecord(#[source] record::Error),
    /// Occurs when a bundle cannot ground the status "verified" for a number: a check fails,
    /// it is another number's bundle, or no receipt verifies with the given keys.
    #[error("cannot derive \"verified\": {0}")]
    NotVerified(String),
}

/// An Ed25519 public key with the ids under which receipts may name it.
#[derive(Debug, Clone)]
pub struct Key {
    /// A key id such as `pith-v1-2026-05` (None for a key given by the user).
    pub key_id: Option<String>,
    key: VerifyingKey,
}

impl Key {
    /// Whether `other` is the same public key, whatever ids either carries.
    pub fn same_key(&self, other: &Key) -> bool {
        self.key == other.key
    }

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
            .ok_or_else(|| {
                ErrorKind::BadKey("expected 32 bytes as base64 or 64 hex digits".into())
            })?;
        let raw: [u8; 32] = raw
            .try_into()
            .map_err(|v: Vec<u8>| ErrorKind::BadKey(format!("{} bytes, expected 32", v.len())))?;
        let key = VerifyingKey::from_bytes(&raw).map_err(|e| ErrorKind::BadKey(e.to_string()))?;
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
    /// A signature that is not 64 bytes of base64 does not verify.
    pub fn verify_digest(&self, digest: &[u8; 32], signature_b64: &str) -> bool {
        parse_signature(signature_b64).is_ok_and(|sig| self.key.verify_strict(digest, &sig).is_ok())
    }

    /// The raw 32-byte public key as base64, the form [`Key::parse`] reads back.
    pub fn to_base64(&self) -> String {
        data_encoding::BASE64.encode(self.key.as_bytes())
    }

    /// The raw 32-byte public key as lowercase hex.
    pub fn to_hex(&self) -> String {
        number::hex(self.key.as_bytes())
    }

    /// The first 26 base32 characters of SHA-256 of the raw key (130 bits, as for numbers):
    /// the mirror manifest's `fingerprint_sha256_b32_first128bits`.
    pub fn fingerprint_b32(&self) -> String {
        number::PithNumber::from_digest(&number::sha256(self.key.as_bytes()), None)
            .code()
            .to_owned()
    }

    /// A name for this key in messages: its key id, else its fingerprint.
    pub fn name(&self) -> String {
        self.key_id.clone().unwrap_or_else(|| self.fingerprint())
    }
}

/// Decodes a base64 Ed25519 signature (64 bytes).
fn parse_signature(b64: &str) -> Result<Signature, Error> {
    let raw = data_encoding::BASE64
        .decode(b64.trim().as_bytes())
        .map_err(|e| ErrorKind::BadSignature(format!("not base64 ({e})")))?;
    Signature::from_slice(&raw)
        .map_err(|_| ErrorKind::BadSignature(format!("{} bytes, expected 64", raw.len())).into())
}

/// Decodes a hex SHA-256 digest given on its own (64 hex digits, either case).
///
/// # Errors
/// [`ErrorKind::BadHash`] otherwise.
pub fn parse_sha256(hex: &str) -> Result<[u8; 32], Error> {
    number::digest_from_hex(hex.trim()).ok_or_else(|| ErrorKind::BadHash(hex.to_owned()).into())
}

/// Checks a single receipt signature (base64 Ed25519 over the 32 raw bytes of `digest`)
/// against `keys`.
///
/// # Errors
/// [`ErrorKind::BadSignature`] when the signature is not 64 bytes of base64: that is an input
/// error, not a mismatch.
pub fn signature(digest: &[u8; 32], signature_b64: &str, keys: &[Key]) -> Result<Check, Error> {
    let sig = parse_signature(signature_b64)?;
    let ok = keys
        .iter()
        .find(|k| k.key.verify_strict(digest, &sig).is_ok());
    Ok(match ok {
        Some(k) => Check::new(
            CheckKind::Signature,
            "signature",
            CheckStatus::Ok,
            format!("Ed25519 signature valid for key {}", k.name()),
        ),
        None => Check::new(
            CheckKind::Signature,
            "signature",
            CheckStatus::Mismatch,
            "Ed25519 signature does not verify with any known key",
        ),
    })
}

/// Checks that `record` has the number `claimed` (code, and the year when `claimed` has one).
pub fn record_against_number(record: &Record, claimed: &NumberRef) -> Check {
    let n = record.number();
    let ok = n.matches(claimed);
    Check::compare(
        CheckKind::Claim,
        "pith_number",
        ok,
        format!("{claimed} is the number of this record ({n})"),
        format!("{claimed} given, but the record's number is {n}"),
    )
}

/// Which text of a paper is checked (the title unless a door names the abstract).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextField {
    /// The title, against `title_canon_sha256`.
    #[default]
    Title,
    /// The abstract, against `abstract_canon_sha256`.
    Abstract,
}

impl std::str::FromStr for TextField {
    type Err = String;

    /// `title` or `abstract`; the error is the sentence saying so.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "title" => Ok(TextField::Title),
            "abstract" => Ok(TextField::Abstract),
            other => Err(format!(
                "field must be \"title\" or \"abstract\", not {other:?}"
            )),
        }
    }
}

/// Checks a title or abstract against the record's canonical-text hash.
pub fn text_against_record(field: TextField, text: &str, record: &Record) -> Check {
    let (name, want) = match field {
        TextField::Title => ("title", &record.metadata.title_canon_sha256),
        TextField::Abstract => ("abstract", &record.metadata.abstract_canon_sha256),
    };
    let got = record::canon_sha256(text);
    Check::compare(
        CheckKind::Text,
        name,
        &got == want,
        format!("canon sha256 {got} matches"),
        format!("canon sha256 {got} differs from the record's {want} (whitespace and case are ignored; any other change counts)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_fingerprint_is_the_published_one() {
        let k = Key::registry();
        assert_eq!(k.fingerprint(), "8d4b5ee74e4693bcd1df2446408b0d54");
        assert_eq!(k.fingerprint_b32(), "RVFV5Z2OI2J3ZUO7ERDEBCYNKS");
        assert_eq!(
            k.to_hex(),
            "b2d552b68890857171a78b36a5dccf368a953413288c353f7c9d9d6f94b709b3"
        );
        assert!(k.is_named("pith-v1-2026-05"));
        assert!(k.is_named("8D4B5EE74E4693BCD1DF2446408B0D54"));
        let hex =
            Key::parse("b2d552b68890857171a78b36a5dccf368a953413288c353f7c9d9d6f94b709b3").unwrap();
        assert_eq!(hex.fingerprint(), k.fingerprint());
        assert!(Key::parse("AAAA").is_err());
        assert!(Key::parse("not a key").is_err());
    }

    #[test]
    fn a_record_alone_is_not_verified() {
        let recs: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
        let r = Record::from_value(&recs[0]["canonical_record"]).unwrap();
        let mut report = Report::default();
        report.push(Check::new(
            CheckKind::Record,
            "canonical_record",
            CheckStatus::Ok,
            "",
        ));
        assert_eq!(report.verdict(), Verdict::Unverified);
        report.push(record_against_number(&r, &NumberRef::Full(r.number())));
        assert_eq!(report.verdict(), Verdict::Verified);
        assert_eq!(Report::default().verdict(), Verdict::Unverified);
    }

    #[test]
    fn malformed_signature_is_an_input_error() {
        let d = [0u8; 32];
        let e = signature(&d, "not base64!", &[Key::registry()]).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadSignature(_)), "{e}");
        let e = signature(&d, "AAAA", &[Key::registry()]).unwrap_err();
        assert!(e.to_string().contains("3 bytes, expected 64"), "{e}");
        let zero = data_encoding::BASE64.encode(&[0u8; 64]);
        let c = signature(&d, &zero, &[Key::registry()]).unwrap();
        assert_eq!(c.status, CheckStatus::Mismatch);
    }
}
