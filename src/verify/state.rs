//! A record's current state recomputed from its bundle's events (the published
//! `pith_open_graph_state` shape), counting only what pith checked itself.
//!
//! Each event is judged on its own ([`EventStatus`]):
//! - **valid**: every hash, number and record it states is the bundle's record's, and a
//!   receipt in it (Ed25519 over the record's canonical hash) verifies with a trusted key;
//! - **invalid**: something it states contradicts the record, or a receipt in it names a
//!   trusted key and does not verify with it, or it is not a JSON object;
//! - **unchecked**: nothing in it contradicts the record, but nothing in it could be checked
//!   either: a receipt by a key pith does not trust, or an event signed by a rule that is not
//!   published (how `event_id` is computed and how events other than the receipt are signed).
//!   An unchecked event is never counted as valid.
//!
//! Two events with the same `event_id` and different contents are an equivocation: the id
//! names one event, whatever rule computes it.
//!
//! The procedure is pith's own, named [`MERGE_VERSION`]; it does not claim the registry's
//! unpublished merge. This module computes; it never fetches, prints or serves.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::bundle::{claim_checks, receipt_checks};
use super::{Bundle, CheckStatus, Key};
use crate::number;

/// The `state_type` of the document.
pub const STATE_TYPE: &str = "pith_open_graph_state";
/// The `state_version` of the document (the published shape's).
pub const STATE_VERSION: &str = "1.0";
/// The name of pith's procedure, as `merge_version` states it: each event checked on its own
/// as this module says, the record taken from the bundle (its hash is its number), the
/// aliases as the bundle gives them, and the graph snapshots that are not invalid, in the
/// bundle's order.
pub const MERGE_VERSION: &str = "pith-checked-events-v1";

/// What pith found of one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EventStatus {
    /// Checked, and it holds.
    Valid,
    /// Checked, and it fails.
    Invalid,
    /// Nothing in it could be checked; not a pass.
    Unchecked,
}

/// One event's outcome, with the reason in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventCheck {
    /// Its place in the bundle's `events`, from 0.
    pub index: usize,
    /// Its `event_type`, when it states one.
    pub event_type: Option<String>,
    /// Its `event_id`, when it states one (not checked: the rule is not published).
    pub event_id: Option<String>,
    /// The outcome.
    pub status: EventStatus,
    /// Why, in a sentence.
    pub reason: String,
}

/// The current state of a record, recomputed from its bundle (the published
/// `pith_open_graph_state` fields, then pith's own: `unchecked_event_count` and
/// `event_checks`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    /// `pith_open_graph_state`.
    pub state_type: &'static str,
    /// `1.0`, the published shape's.
    pub state_version: &'static str,
    /// The record's full number.
    pub pith_number: String,
    /// [`MERGE_VERSION`].
    pub merge_version: &'static str,
    /// Events in the bundle.
    pub event_count: usize,
    /// Events checked and found to hold.
    pub valid_event_count: usize,
    /// Events checked and found to fail.
    pub invalid_event_count: usize,
    /// Events nothing of which could be checked.
    pub unchecked_event_count: usize,
    /// Event ids carried by events of different contents.
    pub equivocation_count: usize,
    /// The record, its aliases and its graph snapshots.
    pub current: Current,
    /// Each event's outcome, in the bundle's order.
    pub event_checks: Vec<EventCheck>,
}

/// The `current` object of a [`State`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Current {
    /// The record (keys sorted).
    pub canonical_record: Value,
    /// The bundle's `source_aliases`, as given (empty when it has none).
    pub source_aliases: Value,
    /// The events whose `target` is `graph` and that are not invalid, each with its
    /// `event_id`, `target`, `created_at`, `signer` and `payload` as given.
    pub graph_snapshots: Vec<Value>,
}

/// Recomputes the state of `bundle`'s record from its events, checking receipts with `keys`.
///
/// # Examples
/// ```
/// let rec = serde_json::json!({"metadata": {"abstract_canon_sha256": "a".repeat(64),
///     "cross_cats_sorted": [], "license": "", "primary_cat": "cs.DC",
///     "submitted_at": "2024-02-06T08:14:56Z", "title_canon_sha256": "b".repeat(64)},
///     "schema_version": "1.0", "source": {"id": "2402.03791", "kind": "arxiv", "version": 3}});
/// let b = pith::verify::Bundle::from_value(serde_json::json!({
///     "canonical_record": rec, "events": [{"event_type": "graph_snapshot", "target": "graph"}]}))?;
/// let s = pith::verify::state(&b, &[pith::verify::Key::registry()]);
/// assert_eq!((s.event_count, s.valid_event_count, s.unchecked_event_count), (1, 0, 1));
/// # Ok::<(), pith::verify::Error>(())
/// ```
pub fn state(bundle: &Bundle, keys: &[Key]) -> State {
    let v = bundle.value();
    let record = bundle.record();
    let digest = record.digest();
    let hash = number::hex(&digest);
    let n = record.number();
    let events: &[Value] = v
        .get("events")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let mut checks = Vec::with_capacity(events.len());
    let mut graph_snapshots = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let text = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_owned);
        let (status, reason) = if e.is_object() {
            let path = format!("events.{i}");
            let claims = claim_checks(e, &path, record, &hash, &n);
            let receipts = receipt_checks(e, &path, &digest, keys);
            judge(&claims, &receipts)
        } else {
            (EventStatus::Invalid, "not a JSON object".to_owned())
        };
        if status != EventStatus::Invalid && text("target").as_deref() == Some("graph") {
            let kept: serde_json::Map<String, Value> =
                ["event_id", "target", "created_at", "signer", "payload"]
                    .into_iter()
                    .filter_map(|k| e.get(k).map(|x| (k.to_owned(), x.clone())))
                    .collect();
            graph_snapshots.push(Value::Object(kept));
        }
        checks.push(EventCheck {
            index: i,
            event_type: text("event_type"),
            event_id: text("event_id"),
            status,
            reason,
        });
    }
    let count = |s: EventStatus| checks.iter().filter(|c| c.status == s).count();
    State {
        state_type: STATE_TYPE,
        state_version: STATE_VERSION,
        pith_number: n.full(),
        merge_version: MERGE_VERSION,
        event_count: events.len(),
        valid_event_count: count(EventStatus::Valid),
        invalid_event_count: count(EventStatus::Invalid),
        unchecked_event_count: count(EventStatus::Unchecked),
        equivocation_count: equivocations(events),
        current: Current {
            canonical_record: record.to_value(),
            source_aliases: v
                .get("source_aliases")
                .filter(|a| a.is_array())
                .cloned()
                .unwrap_or_else(|| Value::Array(Vec::new())),
            graph_snapshots,
        },
        event_checks: checks,
    }
}

/// An event's status from the checks of what it states and of its receipts.
fn judge(claims: &[super::Check], receipts: &[super::Check]) -> (EventStatus, String) {
    let failed: Vec<String> = claims
        .iter()
        .chain(receipts)
        .filter(|c| c.status == CheckStatus::Mismatch)
        .map(|c| format!("{}: {}", c.subject, c.detail))
        .collect();
    if !failed.is_empty() {
        return (EventStatus::Invalid, failed.join("; "));
    }
    if let Some(ok) = receipts.iter().find(|c| c.status == CheckStatus::Ok) {
        return (EventStatus::Valid, format!("{}: {}", ok.subject, ok.detail));
    }
    let why = match receipts.first() {
        Some(r) => format!("{}: {}", r.subject, r.detail),
        None => "it carries no receipt over the record's hash, and how other events are \
                 signed and how event ids are computed is not published"
            .to_owned(),
    };
    (EventStatus::Unchecked, why)
}

/// How many `event_id`s are carried by events of different contents.
fn equivocations(events: &[Value]) -> usize {
    let mut by_id: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for e in events {
        if let Some(id) = e.get("event_id").and_then(Value::as_str) {
            let seen = by_id.entry(id).or_default();
            if !seen.contains(&e) {
                seen.push(e);
            }
        }
    }
    by_id.values().filter(|v| v.len() > 1).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};
    use serde_json::json;

    fn bundle_with(events: Value, sk: &SigningKey) -> (Value, Key) {
        let recs: Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
        let rec = recs[0]["canonical_record"].clone();
        let record = crate::Record::from_value(&rec).unwrap();
        let sig = data_encoding::BASE64.encode(&sk.sign(&record.digest()).to_bytes());
        let n = record.number();
        let mut all = vec![json!({"event_type": "record_created",
            "subject_pith_number": n.full(), "target": "record",
            "payload": {"canonical_record": rec, "canonical_sha256": record.canonical_sha256(),
                "receipt": {"kind": "pith_receipt", "key_id": "t", "signature": sig}}})];
        all.extend(events.as_array().unwrap().iter().cloned());
        let key = Key::parse(&data_encoding::BASE64.encode(sk.verifying_key().as_bytes())).unwrap();
        (
            json!({"canonical_record": rec, "pith_number": n.full(),
                "source_aliases": [{"alias_kind": "arxiv", "alias_value": "x"}], "events": all}),
            key,
        )
    }

    #[test]
    fn counts_follow_the_checks() {
        let sk = SigningKey::from_bytes(&[7; 32]);
        let graph = json!({"event_id": "sha256:aa", "target": "graph", "created_at": "t",
            "payload": {"graph_snapshot": {"claims": {"count": 0}}}});
        let (v, key) = bundle_with(json!([graph]), &sk);
        let b = Bundle::from_value(v.clone()).unwrap();
        let s = state(&b, std::slice::from_ref(&key));
        assert_eq!(s.merge_version, MERGE_VERSION);
        assert_eq!(
            (s.event_count, s.valid_event_count, s.invalid_event_count),
            (2, 1, 0)
        );
        assert_eq!((s.unchecked_event_count, s.equivocation_count), (1, 0));
        assert_eq!(s.current.graph_snapshots.len(), 1);
        assert_eq!(s.current.source_aliases[0]["alias_kind"], "arxiv");
        assert_eq!(s.pith_number, b.record().number().full());
        // A key pith does not trust: the receipt is unchecked, never valid.
        let s = state(&b, &[Key::registry()]);
        assert_eq!((s.valid_event_count, s.unchecked_event_count), (0, 2));
        // A receipt that does not verify with the key it names: invalid.
        let other = Key::parse(
            &data_encoding::BASE64
                .encode(SigningKey::from_bytes(&[8; 32]).verifying_key().as_bytes()),
        )
        .unwrap();
        let s = state(&b, &[other]);
        assert_eq!(s.invalid_event_count, 1, "{:?}", s.event_checks);
        assert_eq!(s.event_checks[0].status, EventStatus::Invalid);
    }

    #[test]
    fn a_contradicting_event_is_invalid_and_a_reused_id_is_an_equivocation() {
        let sk = SigningKey::from_bytes(&[7; 32]);
        let a = json!({"event_id": "sha256:aa", "target": "graph", "payload": {"x": 1}});
        let b = json!({"event_id": "sha256:aa", "target": "graph", "payload": {"x": 2}});
        let lie = json!({"event_type": "note", "canonical_sha256": "0".repeat(64)});
        let (v, key) = bundle_with(json!([a.clone(), a, b, lie, 7]), &sk);
        let s = state(&Bundle::from_value(v).unwrap(), &[key]);
        assert_eq!(s.event_count, 6);
        assert_eq!(s.equivocation_count, 1);
        assert_eq!(s.invalid_event_count, 2, "{:?}", s.event_checks);
        assert_eq!(s.unchecked_event_count, 3);
        assert_eq!(s.current.graph_snapshots.len(), 3);
    }
}
