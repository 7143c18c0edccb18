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
    /// What kind of fact was checked (not part of the JSON output).
    #[serde(skip)]
    pub kind: CheckKind,
}

impl Check {
    /// A check of `kind` on `subject` with its outcome and explanation.
    pub fn new(
        kind: CheckKind,
        subject: impl Into<String>,
        status: Status,
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
            Check::new(kind, subject, Status::Ok, ok_detail)
        } else {
            Check::new(kind, subject, Status::Mismatch, bad_detail)
        }
    }
}

/// The conclusion of a [`Report`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every check was made and holds.
    Verified,
    /// No check failed, but some could not be made (unknown key, no receipt): not a pass.
    Unverified,
    /// At least one check failed.
    Mismatch,
}

impl fmt::Display for Verdict {
    /// The one-line summary `pith verify` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Verified => "verified",
            Verdict::Unverified => "UNVERIFIED (no mismatch, but not everything could be checked)",
            Verdict::Mismatch => "MISMATCH",
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
    /// Whether no check is a [`Status::Mismatch`].
    pub fn holds(&self) -> bool {
        self.checks.iter().all(|c| c.status != Status::Mismatch)
    }

    /// Appends a check.
    pub fn push(&mut self, c: Check) {
        self.checks.push(c);
    }

    /// The verdict: [`Verdict::Mismatch`] when any check fails, else
    /// [`Verdict::Unverified`] when a check could not be made (issue #7: a bundle without
    /// receipts is not "verified") or when nothing was checked against the record (issue #15:
    /// a record alone is valid, not verified), else [`Verdict::Verified`].
    pub fn verdict(&self) -> Verdict {
        if !self.holds() {
            Verdict::Mismatch
        } else if !self.compares() || self.checks.iter().any(|c| c.status == Status::Unverified) {
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

/// Error for keys, signatures and bundles that cannot even be decoded, and for a bundle that
/// does not support the status a badge claims.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error {
    kind: ErrorKind,
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

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error { kind }
    }
}

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
/// error, not a mismatch (issue #15).
pub fn signature(digest: &[u8; 32], signature_b64: &str, keys: &[Key]) -> Result<Check, Error> {
    let sig = parse_signature(signature_b64)?;
    let ok = keys
        .iter()
        .find(|k| k.key.verify_strict(digest, &sig).is_ok());
    Ok(match ok {
        Some(k) => Check::new(
            CheckKind::Signature,
            "signature",
            Status::Ok,
            format!("Ed25519 signature valid for key {}", k.name()),
        ),
        None => Check::new(
            CheckKind::Signature,
            "signature",
            Status::Mismatch,
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
        CheckKind::Text,
        name,
        &got == want,
        format!("canon sha256 {got} matches"),
        format!("canon sha256 {got} differs from the record's {want} (whitespace and case are ignored; any other change counts)"),
    )
}

/// Names under which receipts carry their signature.
const SIGNATURE_FIELDS: [&str; 4] = ["signature", "signature_b64", "sig", "signature_base64"];

/// A `pith_open_graph_bundle` (SPEC, "Bundles"): the JSON value and the record it carries.
///
/// The record is the top-level `canonical_record`, or that of the first event's payload for
/// a bundle that is a bare event list. This type owns that layout: callers never look inside
/// the JSON themselves.
#[derive(Debug, Clone)]
pub struct Bundle {
    value: Value,
    record: Record,
}

impl Bundle {
    /// Parses a bundle from JSON text.
    ///
    /// # Errors
    /// [`ErrorKind::BundleJson`] for text that is not JSON, else as [`Bundle::from_value`].
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let value = serde_json::from_str(text).map_err(ErrorKind::BundleJson)?;
        Bundle::from_value(value)
    }

    /// Takes a bundle from a JSON value.
    ///
    /// # Errors
    /// [`ErrorKind::BadBundle`] when it is not an object or carries no `canonical_record`;
    /// [`ErrorKind::BundleRecord`] when that record is invalid.
    pub fn from_value(value: Value) -> Result<Self, Error> {
        let obj = value
            .as_object()
            .ok_or_else(|| ErrorKind::BadBundle("not a JSON object".into()))?;
        let rec_value = obj
            .get("canonical_record")
            .or_else(|| first_event_payload(&value).and_then(|p| p.get("canonical_record")))
            .ok_or_else(|| ErrorKind::BadBundle("no canonical_record".into()))?;
        let record = Record::from_value(rec_value).map_err(ErrorKind::BundleRecord)?;
        Ok(Bundle { value, record })
    }

    /// The record the bundle is about.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Checks the bundle: the record's canonical hash, the number and short number, every
    /// record and hash repeated in events, and every receipt signature against `keys`.
    /// Unknown fields are ignored; receipts with unknown keys or no signature are reported as
    /// [`Status::Unverified`], and a bundle without any receipt gets an unverified `receipt`
    /// check.
    pub fn check(&self, keys: &[Key]) -> Report {
        let (bundle, record) = (&self.value, &self.record);
        let digest = record.digest();
        let hash = number::hex(&digest);
        let n = record.number();
        let mut report = Report::default();
        report.push(Check::new(
            CheckKind::Record,
            "canonical_record",
            Status::Ok,
            format!("canonical sha256 {hash}"),
        ));
        // Every place the bundle states the hash, number or record must agree with it.
        walk(bundle, "", &mut |path, v| {
            check_claim(path, v, record, &hash, &n, &mut report);
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
                CheckKind::Receipts,
                "receipt",
                Status::Unverified,
                "the bundle carries no receipt signature",
            ));
        }
        report
    }

    /// Whether the bundle grounds the badge status "verified" for `number`: every check of it
    /// holds, its record's number is `number` (the year too, when `number` has one), and at
    /// least one receipt signature verifies with `keys`.
    ///
    /// # Errors
    /// [`ErrorKind::NotVerified`] saying which of these fails.
    pub fn supports_verified(&self, number: &PithNumber, keys: &[Key]) -> Result<(), Error> {
        let report = self.check(keys);
        let not = |m: String| Error::from(ErrorKind::NotVerified(m));
        if report.verdict() == Verdict::Mismatch {
            let bad: Vec<String> = report
                .checks
                .iter()
                .filter(|c| c.status == Status::Mismatch)
                .map(|c| format!("{}: {}", c.subject, c.detail))
                .collect();
            return Err(not(format!(
                "the bundle does not verify ({})",
                bad.join("; ")
            )));
        }
        let bundle_number = self.record.number();
        if !bundle_number.matches(&NumberRef::Full(number.clone())) {
            return Err(not(format!(
                "the bundle is for {bundle_number}, not {}",
                number.full()
            )));
        }
        let signed = report
            .checks
            .iter()
            .any(|c| c.kind == CheckKind::Receipt && c.status == Status::Ok);
        if !signed {
            let names: Vec<String> = keys.iter().map(Key::name).collect();
            return Err(not(format!(
                "no receipt signature in the bundle verifies with the key(s) {}",
                names.join(", ")
            )));
        }
        Ok(())
    }
}

/// Verifies a bundle given as a JSON value: [`Bundle::from_value`] then [`Bundle::check`].
///
/// # Errors
/// As [`Bundle::from_value`].
pub fn bundle(bundle: &Value, keys: &[Key]) -> Result<Report, Error> {
    Ok(Bundle::from_value(bundle.clone())?.check(keys))
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
            CheckKind::Claim,
            path,
            s.eq_ignore_ascii_case(hash),
            format!("{s} matches"),
            format!("{s} stated, record hashes to {hash}"),
        )),
        ("pith_number" | "subject_pith_number", Value::String(s)) => {
            let check = match PithNumber::parse(s) {
                Ok(claimed) => Check::compare(
                    CheckKind::Claim,
                    path,
                    claimed.code() == n.code()
                        && claimed.year().is_none_or(|y| Some(y) == n.year()),
                    format!("{s} matches"),
                    format!("{s} stated, record's number is {n}"),
                ),
                Err(e) => Check::new(CheckKind::Claim, path, Status::Mismatch, e.to_string()),
            };
            report.push(check);
        }
        ("short_pith_number", Value::String(s)) => {
            let ok = NumberRef::parse(s)
                .is_ok_and(|r| matches!(r, NumberRef::Alias(_)) && n.matches(&r));
            report.push(Check::compare(
                CheckKind::Claim,
                path,
                ok,
                format!("{s} matches"),
                format!("{s} stated, record's short number is {}", n.short()),
            ));
        }
        ("canonical_record", _) if !path.is_empty() && path != "canonical_record" => {
            let same = Record::from_value(v).is_ok_and(|r| &r == record);
            report.push(Check::compare(
                CheckKind::Claim,
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
            CheckKind::Receipt,
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
            CheckKind::Receipt,
            subject,
            Status::Unverified,
            format!(
                "signed with key {:?}, which is not among the known keys",
                key_id.unwrap_or("?")
            ),
        );
    }
    // A receipt that states which hash it signs must state this record's hash.
    if let Some(h) = o.get("canonical_sha256").and_then(Value::as_str) {
        if number::digest_from_hex(h).as_ref() != Some(digest) {
            return Check::new(
                CheckKind::Receipt,
                subject,
                Status::Mismatch,
                format!("receipt is for hash {h}, not this record"),
            );
        }
    }
    match candidates.iter().find(|k| k.verify_digest(digest, sig)) {
        Some(k) => Check::new(
            CheckKind::Receipt,
            subject,
            Status::Ok,
            format!(
                "Ed25519 signature valid for key {}",
                k.key_id.clone().unwrap_or_else(|| k.fingerprint())
            ),
        ),
        None => Check::new(
            CheckKind::Receipt,
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

    use ed25519_dalek::{Signer, SigningKey};
    use serde_json::json;

    /// A bundle for the first test record, signed with a throwaway key (the registry's private
    /// key is not ours): exercises the positive path of the "verified" derivation.
    fn signed_bundle(sign_with: &SigningKey) -> (Value, PithNumber) {
        let recs: Value = serde_json::from_str(include_str!("../tests/data/records.json")).unwrap();
        let rec = recs[0]["canonical_record"].clone();
        let record = Record::from_value(&rec).unwrap();
        let digest = record.digest();
        let sig = data_encoding::BASE64.encode(&sign_with.sign(&digest).to_bytes());
        let n = record.number();
        let v = json!({
            "bundle_type": "pith_open_graph_bundle", "bundle_version": "1.0",
            "pith_number": n.full(), "short_pith_number": n.short(),
            "canonical_record": rec, "canonical_sha256": record.canonical_sha256(),
            "events": [{"event_type": "record_created", "subject_pith_number": n.full(),
                "target": "record", "payload": {"canonical_record": rec,
                "canonical_sha256": record.canonical_sha256(),
                "receipt": {"kind": "pith_receipt", "key_id": "test-key", "signature": sig}}}]
        });
        (v, n)
    }

    fn key_of(sk: &SigningKey) -> Key {
        Key::parse(&data_encoding::BASE64.encode(sk.verifying_key().as_bytes())).unwrap()
    }

    fn judge(v: &Value, n: &PithNumber, keys: &[Key]) -> Result<(), Error> {
        Bundle::from_value(v.clone())
            .unwrap()
            .supports_verified(n, keys)
    }

    #[test]
    fn verified_needs_a_good_signature_for_this_number() {
        let sk = SigningKey::from_bytes(&[7; 32]);
        let (v, n) = signed_bundle(&sk);
        judge(&v, &n, &[key_of(&sk)]).unwrap();
        let report = Bundle::from_value(v.clone()).unwrap().check(&[key_of(&sk)]);
        assert_eq!(report.verdict(), Verdict::Verified);
        // The registry key does not know the throwaway key: unverified, not verified.
        let e = judge(&v, &n, &[Key::registry()]).unwrap_err();
        assert!(e.to_string().contains("no receipt signature"), "{e}");
        let report = Bundle::from_value(v.clone())
            .unwrap()
            .check(&[Key::registry()]);
        assert_eq!(report.verdict(), Verdict::Unverified);
        // A signature by another key is a mismatch.
        let other = SigningKey::from_bytes(&[8; 32]);
        let e = judge(&v, &n, &[key_of(&other)]).unwrap_err();
        assert!(e.to_string().contains("does not verify"), "{e}");
        // A good bundle for another number does not make this one verified.
        let n2 = PithNumber::parse("pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
        let e = judge(&v, &n2, &[key_of(&sk)]).unwrap_err();
        assert!(e.to_string().contains("not pith:2024:AAAA"), "{e}");
        // Same code, another year: not this number either.
        let e = judge(&v, &n.clone().with_year(1999), &[key_of(&sk)]).unwrap_err();
        assert!(e.to_string().contains("not pith:1999:"), "{e}");
        // No receipt at all.
        let mut bare = v.clone();
        bare["events"][0]["payload"]
            .as_object_mut()
            .unwrap()
            .remove("receipt");
        assert!(judge(&bare, &n, &[key_of(&sk)]).is_err());
        let report = Bundle::from_value(bare).unwrap().check(&[key_of(&sk)]);
        assert_eq!(report.verdict(), Verdict::Unverified);
    }

    #[test]
    fn a_record_alone_is_not_verified() {
        let recs: Value = serde_json::from_str(include_str!("../tests/data/records.json")).unwrap();
        let r = Record::from_value(&recs[0]["canonical_record"]).unwrap();
        let mut report = Report::default();
        report.push(Check::new(
            CheckKind::Record,
            "canonical_record",
            Status::Ok,
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
        assert_eq!(c.status, Status::Mismatch);
    }

    #[test]
    fn bundle_json_errors_keep_their_cause() {
        let e = Bundle::from_json("{").unwrap_err();
        assert!(std::error::Error::source(&e).is_some(), "{e}");
        let e = Bundle::from_json("[]").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadBundle(_)));
    }
}
