//! The published vectors (copied from shared/vectors into tests/data): every record reproduces
//! its hash and number, every text its canonical hash exactly when `*_ok` says so, and every
//! receipt signature verifies while a flipped bit does not.

use crate::common;

use pith::record::{canon_sha256, Record};
use pith::verify::Key;
use serde_json::Value;

fn load(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(common::data(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_record_reproduces_its_hash_and_number() {
    let records = load("records.json");
    assert!(records.len() >= 30, "vectors present");
    for v in &records {
        let record = Record::from_value(&v["canonical_record"]).unwrap();
        assert_eq!(
            record.canonical_sha256(),
            v["canonical_sha256"].as_str().unwrap(),
            "{v}"
        );
        assert_eq!(record.number().full(), v["pith_number"].as_str().unwrap());
        // The canonical bytes of the typed record are the bytes of the record as published.
        assert_eq!(
            record.canonical_bytes(),
            pith::record::canonical::to_vec(&v["canonical_record"])
        );
    }
}

#[test]
fn texts_reproduce_their_canon_hash_exactly_when_ok() {
    let mut checked = (0, 0);
    for v in load("records.json") {
        let m = &v["canonical_record"]["metadata"];
        for (text, ok, field) in [
            ("title", "title_ok", "title_canon_sha256"),
            ("abstract", "abstract_ok", "abstract_canon_sha256"),
        ] {
            let (Some(t), Some(ok)) = (v[text].as_str(), v[ok].as_bool()) else {
                continue;
            };
            let matches = canon_sha256(t) == m[field].as_str().unwrap();
            assert_eq!(
                matches, ok,
                "{text} of {} (variant_of {:?})",
                v["pith_number"], v["variant_of"]
            );
            if ok {
                checked.0 += 1
            } else {
                checked.1 += 1
            }
        }
    }
    assert!(checked.0 >= 30 && checked.1 >= 5, "{checked:?}");
}

#[test]
fn receipt_signatures_verify_and_flipped_bits_fail() {
    let key = Key::registry();
    let sigs = load("signatures.json");
    assert!(!sigs.is_empty());
    for s in sigs {
        let digest =
            pith::number::digest_from_hex(s["canonical_sha256"].as_str().unwrap()).unwrap();
        let sig = s["signature_b64"].as_str().unwrap();
        assert!(key.verify_digest(&digest, sig), "{s}");
        let raw = data_encoding::BASE64.decode(sig.as_bytes()).unwrap();
        for bit in [0, 7, 255, 511] {
            let mut flipped = raw.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert!(!key.verify_digest(&digest, &data_encoding::BASE64.encode(&flipped)));
        }
        let mut d2 = digest;
        d2[31] ^= 1;
        assert!(
            !key.verify_digest(&d2, sig),
            "signature must bind the digest"
        );
        // The URL in the vector is the one we derive from the number.
        let n = pith::PithNumber::from_digest(&digest, None);
        assert_eq!(n.url(), s["source_url"].as_str().unwrap());
        assert_eq!(
            pith::PithNumber::parse(s["pith"].as_str().unwrap())
                .unwrap()
                .code(),
            n.code()
        );
    }
}
