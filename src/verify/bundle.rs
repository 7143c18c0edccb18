//! `pith_open_graph_bundle`s: where a bundle keeps its record, the checks of every hash,
//! number and record it repeats, its receipt signatures, and whether it grounds a badge's
//! "verified".

use serde_json::Value;

use super::{Check, CheckKind, CheckStatus, Error, ErrorKind, Key, Report, Verdict};
use crate::number::{self, NumberRef, PithNumber};
use crate::record::Record;

/// Names under which receipts carry their signature.
const SIGNATURE_FIELDS: [&str; 4] = ["signature", "signature_b64", "sig", "signature_base64"];

/// A `pith_open_graph_bundle` (SPEC, "Bundles"): the JSON value and the record it carries.
///
/// The record is the top-level `canonical_record`, or that of the first event's payload for
/// a bundle that is a bare event list. This type owns that layout: callers never look inside
/// the JSON themselves.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
// As the JSON it was read from: a request carries a bundle as the user gave it.
#[serde(try_from = "Value", into = "Value")]
pub struct Bundle {
    value: Value,
    record: Record,
}

impl TryFrom<Value> for Bundle {
    type Error = Error;

    fn try_from(value: Value) -> Result<Self, Error> {
        Bundle::from_value(value)
    }
}

impl From<Bundle> for Value {
    fn from(b: Bundle) -> Value {
        b.value
    }
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
    /// [`CheckStatus::Unverified`], and a bundle without any receipt gets an unverified `receipt`
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
            CheckStatus::Ok,
            format!("canonical sha256 {hash}"),
        ));
        // Every place the bundle states the hash, number or record must agree with it.
        report
            .checks
            .extend(claim_checks(bundle, "", record, &hash, &n));
        let receipts = receipt_checks(bundle, "", &digest, keys);
        let found = receipts.len();
        report.checks.extend(receipts);
        if found == 0 {
            report.push(Check::new(
                CheckKind::Receipts,
                "receipt",
                CheckStatus::Unverified,
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
                .filter(|c| c.status == CheckStatus::Mismatch)
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
            .any(|c| c.kind == CheckKind::Receipt && c.status == CheckStatus::Ok);
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

/// A record's status flags (SPEC, "Record status flags") as its bundle states them, and
/// whether a receipt signature in it verifies.
///
/// The four flags are read, not checked: pith cannot check an OpenTimestamps anchor or an
/// Internet Archive copy, so a flag is what the bundle says ([`Flags::claims`]), never a
/// status. Only `receipt_verified` is a check of pith's own ([`Bundle::supports_verified`]),
/// and only it can raise a badge (`pith::badge::status`). A missing key reads as `false`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Flags {
    /// The authors attested the record.
    pub author_attested: bool,
    /// The record is externally anchored (OpenTimestamps / Bitcoin).
    pub externally_anchored: bool,
    /// A stored copy was verified (Internet Archive).
    pub storage_verified: bool,
    /// The paper's references were resolved.
    pub references_resolved: bool,
    /// The bundle verifies and a receipt signature in it verifies with the keys given.
    pub receipt_verified: bool,
}

/// The flag names, as bundles and resolvers spell them.
const FLAG_NAMES: [&str; 4] = [
    "author_attested",
    "externally_anchored",
    "storage_verified",
    "references_resolved",
];

/// What each flag says of the record, in a sentence's words (same order as [`FLAG_NAMES`]).
const FLAG_WORDS: [&str; 4] = [
    "an author attested the record",
    "the record is anchored in a public timestamp (OpenTimestamps, Bitcoin)",
    "a stored copy was checked at the Internet Archive",
    "the paper's references were resolved",
];

/// A statement a bundle makes about its record that pith did not check (a set status flag).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StatedFlag {
    /// The flag's name, as bundles spell it (`externally_anchored`).
    pub flag: &'static str,
    /// Whether pith checked it: always `false`, said in the JSON so that no reader takes the
    /// statement for a status.
    pub checked: bool,
    /// The statement in words: `the bundle states that …; not checked`.
    pub sentence: String,
}

impl Flags {
    /// The flags the bundle sets, as statements pith did not check, in the SPEC's order.
    ///
    /// # Examples
    /// ```
    /// let f = pith::verify::Flags { externally_anchored: true, ..Default::default() };
    /// let c = f.claims();
    /// assert_eq!(c[0].flag, "externally_anchored");
    /// assert!(c[0].sentence.ends_with("; not checked"));
    /// ```
    pub fn claims(&self) -> Vec<StatedFlag> {
        let set = [
            self.author_attested,
            self.externally_anchored,
            self.storage_verified,
            self.references_resolved,
        ];
        FLAG_NAMES
            .iter()
            .zip(FLAG_WORDS)
            .zip(set)
            .filter(|(_, on)| *on)
            .map(|((flag, words), _)| StatedFlag {
                flag,
                checked: false,
                sentence: format!("the bundle states that {words}; not checked"),
            })
            .collect()
    }
}

impl Bundle {
    /// The record's status flags: a flag holds when the bundle sets it to `true` at its top
    /// level or in a top-level `state` or `status` object, or when one of its events has that
    /// flag's name as `event_type`; `receipt_verified` holds when [`Bundle::supports_verified`]
    /// does for the bundle's own number with `keys`.
    pub fn flags(&self, keys: &[Key]) -> Flags {
        let v = &self.value;
        let events: Vec<&str> = v
            .get("events")
            .and_then(Value::as_array)
            .map(|e| {
                e.iter()
                    .filter_map(|e| e.get("event_type").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        let stated = |name: &str| {
            [Some(v), v.get("state"), v.get("status")]
                .into_iter()
                .flatten()
                .any(|o| o.get(name).and_then(Value::as_bool) == Some(true))
                || events.contains(&name)
        };
        let [a, e, s, r] = FLAG_NAMES.map(stated);
        Flags {
            author_attested: a,
            externally_anchored: e,
            storage_verified: s,
            references_resolved: r,
            receipt_verified: self.supports_verified(&self.record.number(), keys).is_ok(),
        }
    }

    /// The bundle as a JSON value.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The bundle as JSON text.
    pub fn to_json(&self) -> String {
        self.value.to_string()
    }
}

/// Verifies a bundle given as a JSON value: [`Bundle::from_value`] then [`Bundle::check`].
///
/// # Errors
/// As [`Bundle::from_value`].
pub fn bundle(bundle: &Value, keys: &[Key]) -> Result<Report, Error> {
    Ok(Bundle::from_value(bundle.clone())?.check(keys))
}

/// The checks of every hash, number and record stated in `v` (found at `path` of a bundle)
/// against the bundle's `record`.
pub(super) fn claim_checks(
    v: &Value,
    path: &str,
    record: &Record,
    hash: &str,
    n: &PithNumber,
) -> Vec<Check> {
    let mut report = Report::default();
    walk(v, path, &mut |path, v| {
        check_claim(path, v, record, hash, n, &mut report);
    });
    report.checks
}

/// The checks of every receipt in `v` (found at `path` of a bundle): an object carrying a
/// signature field, or whose `kind` is `pith_receipt`, against `digest` and `keys`.
pub(super) fn receipt_checks(v: &Value, path: &str, digest: &[u8; 32], keys: &[Key]) -> Vec<Check> {
    let mut out = Vec::new();
    walk(v, path, &mut |path, v| {
        if let Some(o) = v.as_object() {
            let sig = SIGNATURE_FIELDS
                .iter()
                .find_map(|f| o.get(*f).and_then(Value::as_str));
            let is_receipt = o.get("kind").and_then(Value::as_str) == Some("pith_receipt");
            if sig.is_some() || is_receipt {
                out.push(check_receipt(path, o, sig, digest, keys));
            }
        }
    });
    out
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
                Err(e) => Check::new(CheckKind::Claim, path, CheckStatus::Mismatch, e.to_string()),
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
            CheckStatus::Unverified,
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
            CheckStatus::Unverified,
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
                CheckStatus::Mismatch,
                format!("receipt is for hash {h}, not this record"),
            );
        }
    }
    match candidates.iter().find(|k| k.verify_digest(digest, sig)) {
        Some(k) => Check::new(
            CheckKind::Receipt,
            subject,
            CheckStatus::Ok,
            format!(
                "Ed25519 signature valid for key {}",
                k.key_id.clone().unwrap_or_else(|| k.fingerprint())
            ),
        ),
        None => Check::new(
            CheckKind::Receipt,
            subject,
            CheckStatus::Mismatch,
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
    use ed25519_dalek::{Signer, SigningKey};
    use serde_json::json;

    /// A bundle for the first test record, signed with a throwaway key (the registry's private
    /// key is not ours): exercises the positive path of the "verified" derivation.
    fn signed_bundle(sign_with: &SigningKey) -> (Value, PithNumber) {
        let recs: Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
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
    fn bundle_json_errors_keep_their_cause() {
        let e = Bundle::from_json("{").unwrap_err();
        assert!(std::error::Error::source(&e).is_some(), "{e}");
        let e = Bundle::from_json("[]").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadBundle(_)));
    }

    #[test]
    fn flags_are_what_the_bundle_states() {
        let sk = SigningKey::from_bytes(&[7; 32]);
        let (mut v, _) = signed_bundle(&sk);
        let b = Bundle::from_value(v.clone()).unwrap();
        assert_eq!(
            b.flags(&[key_of(&sk)]),
            Flags {
                receipt_verified: true,
                ..Flags::default()
            }
        );
        assert_eq!(b.flags(&[Key::registry()]), Flags::default());
        v["state"] = serde_json::json!({"externally_anchored": true, "storage_verified": false});
        v["events"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"event_type": "author_attested"}));
        let f = Bundle::from_value(v).unwrap().flags(&[]);
        assert!(f.externally_anchored && f.author_attested, "{f:?}");
        assert!(!f.storage_verified && !f.references_resolved && !f.receipt_verified);
    }
}
