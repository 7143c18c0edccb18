//! The documents of the published protocol a mirror serves beside its records, as bytes, so
//! that the server and the static export give the same: the signing-key document, this
//! mirror's manifest entry, a record's state recomputed from its bundle's events, its graph
//! snapshot and its events.
//!
//! Each document carries the published field names where the published formats give them, and
//! leaves out what they do not define (a manifest's `generated_at`, `status`, a key's
//! `rotates_at`) rather than guess. Every check is the library's ([`pith::verify::state`]);
//! this module only lays the results out. It reads nothing from a request.

use pith::verify::{Bundle, Key, State};
use serde_json::{json, Value};

use crate::index::{Anchor, BundleEntry};

/// Where the well-known copy of a bundle is, relative to the base URL (`{suffix}` the 26
/// characters of the number), as the manifest's `well_known_pattern` names it.
pub const WELL_KNOWN: &str = "/.well-known/pith/{suffix}/bundle.json";
/// Where a bundle is, relative to the base URL.
pub const BUNDLE: &str = "/pith/{suffix}/bundle.json";
/// Where a record's recomputed state is, relative to the base URL.
pub const STATE: &str = "/pith/{suffix}/state.json";
/// Where a record's graph snapshot is, relative to the base URL.
pub const GRAPH: &str = "/api/pith-number/{suffix}/graph.json";
/// Where a record's events are, relative to the base URL.
pub const EVENTS: &str = "/api/pith-number/{suffix}/events.json";
/// The signing-key document's path.
pub const SIGNING_KEY: &str = "/pith-signing-key.json";
/// The mirror manifest's path.
pub const MIRRORS: &str = "/pith-mirrors.json";

/// A pattern's path for `code`.
pub fn path(pattern: &str, code: &str) -> String {
    pattern.replace("{suffix}", code)
}

fn bytes(doc: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(doc).unwrap_or_default();
    out.push(b'\n');
    out
}

/// One key as the manifest describes the registry's: its id (left out for a key given without
/// one: any receipt may then name it), `ed25519`, raw, base64, hex and both fingerprints.
fn key_doc(k: &Key, base: &str) -> Value {
    let mut doc = json!({
        "algorithm": "ed25519",
        "format": "raw",
        "public_key_b64": k.to_base64(),
        "public_key_hex": k.to_hex(),
        "fingerprint_sha256_hex": k.fingerprint(),
        "fingerprint_sha256_b32_first128bits": k.fingerprint_b32(),
        "url": format!("{base}{SIGNING_KEY}"),
    });
    if let Some(id) = &k.key_id {
        doc["key_id"] = id.clone().into();
    }
    doc
}

/// `keys` without repeats (the same key given twice, by id and by its bytes), in order.
fn unique(keys: &[Key]) -> Vec<&Key> {
    let mut out: Vec<&Key> = Vec::new();
    for k in keys {
        if !out.iter().any(|o| o.fingerprint() == k.fingerprint()) {
            out.push(k);
        }
    }
    out
}

/// `/pith-signing-key.json`: every key this index checks receipts with, the registry's first
/// (`keys`); `base` prefixes the document's own URL.
pub fn signing_keys(keys: &[Key], base: &str) -> Vec<u8> {
    let list: Vec<Value> = unique(keys).into_iter().map(|k| key_doc(k, base)).collect();
    bytes(&json!({ "keys": list }))
}

/// `/pith-mirrors.json`: a manifest naming this mirror alone, at `base` (`""`: patterns
/// relative to the host, which a client joins to the manifest's own URL). `public_key` is the
/// first of `keys` (the registry's), as the published manifest names one; `public_keys`
/// lists every key this mirror's receipts are checked with. `merge_version` names the
/// procedure that computes the states this mirror serves ([`pith::verify::MERGE_VERSION`]).
pub fn mirrors(keys: &[Key], base: &str) -> Vec<u8> {
    let scheme = base.split_once("://").map_or("https", |(s, _)| s);
    let name = base
        .split_once("://")
        .map_or(base, |(_, r)| r)
        .trim_end_matches('/');
    let mut entry = json!({
        "name": if name.is_empty() { "pith serve" } else { name },
        "mirror_type": scheme,
        "base_url": base,
        "bundle_pattern": format!("{base}{BUNDLE}"),
        "state_pattern": format!("{base}{STATE}"),
        "well_known_pattern": format!("{base}{WELL_KNOWN}"),
        "public_keys": unique(keys).into_iter().map(|k| key_doc(k, base)).collect::<Vec<_>>(),
    });
    if let Some(k) = keys.first() {
        entry["public_key"] = key_doc(k, base);
    }
    bytes(&json!({
        "manifest_type": "pith_mirror_manifest",
        "manifest_version": "1.0",
        "merge_version": pith::verify::MERGE_VERSION,
        "mirrors": [entry],
    }))
}

/// The bundle as the index holds it; `None` when it no longer parses (the index checked it
/// when it was built).
fn parsed(b: &BundleEntry) -> Option<Bundle> {
    Bundle::from_json(&b.bundle).ok()
}

/// The state of a record recomputed from its bundle's events with `keys`.
pub fn recomputed(b: &BundleEntry, keys: &[Key]) -> Option<State> {
    parsed(b).map(|b| pith::verify::state(&b, keys))
}

/// `/pith/<26>/state.json`: the published `pith_open_graph_state` fields, recomputed
/// ([`pith::verify::state`]), then pith's own beside them: `short_pith_number`,
/// `canonical_sha256`, `status`, `receipt_verified`, `anchor` (the block pith checked the
/// record's timestamp against, or null) and `bundle_states` (what the bundle states
/// that pith did not check).
pub fn state(
    short: &str,
    sha: &str,
    status: &str,
    b: &BundleEntry,
    keys: &[Key],
    anchor: Option<&Anchor>,
) -> Vec<u8> {
    let mut doc = recomputed(b, keys)
        .and_then(|s| serde_json::to_value(s).ok())
        .unwrap_or_else(|| json!({}));
    doc["short_pith_number"] = short.into();
    doc["canonical_sha256"] = sha.into();
    doc["status"] = status.into();
    doc["receipt_verified"] = b.flags.receipt_verified.into();
    doc["anchor"] = serde_json::to_value(anchor).unwrap_or_default();
    doc["bundle_states"] = serde_json::to_value(b.flags.claims()).unwrap_or_default();
    bytes(&doc)
}

/// `/api/pith-number/<26>/graph.json`: the newest graph snapshot of the bundle that pith did
/// not find invalid (the `graph_snapshot` of its payload, as given); `None` when it holds none.
pub fn graph(b: &BundleEntry, keys: &[Key]) -> Option<Vec<u8>> {
    let s = recomputed(b, keys)?;
    let last = s.current.graph_snapshots.last()?;
    let payload = last.get("payload")?;
    let snapshot = payload.get("graph_snapshot").unwrap_or(payload);
    Some(bytes(snapshot))
}

/// `/api/pith-number/<26>/events.json`: the bundle's events as given, and what pith found of
/// each (`event_checks`, in the same order), with the counts of the state.
pub fn events(b: &BundleEntry, keys: &[Key]) -> Option<Vec<u8>> {
    let bundle = parsed(b)?;
    let s = pith::verify::state(&bundle, keys);
    let events = bundle
        .value()
        .get("events")
        .cloned()
        .unwrap_or_else(|| json!([]));
    Some(bytes(&json!({
        "pith_number": s.pith_number,
        "merge_version": s.merge_version,
        "event_count": s.event_count,
        "valid_event_count": s.valid_event_count,
        "invalid_event_count": s.invalid_event_count,
        "unchecked_event_count": s.unchecked_event_count,
        "equivocation_count": s.equivocation_count,
        "events": events,
        "event_checks": s.event_checks,
    })))
}
