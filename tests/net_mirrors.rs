//! Mirrors of the published vectors: tried in turn, and only signed manifests believed.

use crate::common;

use serde_json::Value;

use crate::net::{assert_error, dead_url, published_record, Env};
use crate::net_verify::{pdf_with, resolver};

/// A mirror manifest (`pith_mirror_manifest`) naming `mirrors` (name, base URL) in order,
/// each with the test key and the fingerprint `fingerprint` stated for it.
fn manifest(mirrors: &[(&str, String)], fingerprint: &str) -> String {
    let key = common::test_key();
    let list: Vec<Value> = mirrors
        .iter()
        .map(|(name, base)| {
            serde_json::json!({"name": name, "mirror_type": "http", "base_url": base,
                "bundle_pattern": format!("{base}/pith/{{suffix}}/bundle.json"),
                "public_key": {"key_id": "test", "algorithm": "ed25519", "format": "raw",
                    "public_key_b64": key, "fingerprint_sha256_hex": fingerprint}})
        })
        .collect();
    serde_json::json!({"manifest_type": "pith_mirror_manifest", "manifest_version": "1.0",
        "mirrors": list})
    .to_string()
}

/// SHA-256 of the test key's raw bytes, first 16 bytes in hex, by Python's hashlib (by
/// pith's own code when Python is missing).
fn test_key_fingerprint() -> String {
    let key = common::test_key();
    if common::have_tool("python3", "test_key_fingerprint") {
        let script = "import sys,hashlib,base64;print(hashlib.sha256(base64.b64decode(sys.stdin.read())).digest()[:16].hex())";
        return common::tools::python(script, &key)
            .unwrap()
            .trim()
            .to_owned();
    }
    pith::verify::Key::parse(&key).unwrap().fingerprint()
}

/// Three mirrors on 127.0.0.1, in the manifest's order: one down, one serving another paper's
/// record for the code and a bundle whose receipt was tampered with, one good. The answer is
/// the good one's, named; the verdict is what the good mirror alone gives. The key that signed
/// the receipts is pinned with `--key`: the key the manifest states is a name, never trust.
#[test]
fn mirrors_are_tried_in_turn_and_only_signatures_are_believed() {
    let rec = published_record("2402.03791");
    let number = rec["pith_number"].as_str().unwrap().to_owned();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let wrapped = serde_json::json!({"pith_number": rec["pith_number"],
        "canonical_sha256": rec["canonical_sha256"], "canonical_record": rec["canonical_record"]});
    let (bundle, _) = common::signed_bundle(&rec);
    let other = published_record("2412.14374");
    let mut tampered = bundle.clone();
    tampered["events"][0]["payload"]["receipt"]["signature_b64"] =
        common::sign_hash(other["canonical_sha256"].as_str().unwrap()).into();
    let bad = resolver(
        vec![(code.clone(), other["canonical_record"].clone())],
        vec![(code.clone(), tampered)],
    );
    let good = resolver(vec![(code.clone(), wrapped)], vec![(code.clone(), bundle)]);
    let down = dead_url();
    let fp = test_key_fingerprint();
    let env = Env::new(None, None, true);
    let file = env.cache.path().join("mirrors.json");
    let three = [
        ("down", down.clone()),
        ("tampered", bad.url()),
        ("good", good.url()),
    ];
    std::fs::write(&file, manifest(&three, &fp)).unwrap();
    let env = env.with("PITH_MIRRORS", file.to_str().unwrap());
    let pdf = pdf_with(&env, &number);
    let p = pdf.to_str().unwrap();

    // The test key pinned: its receipt verifies.
    let key = common::test_key();
    let r = env.run(&["verify", p, "--json", "--refresh", "--key", &key]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "verified", "{v}");
    assert_eq!(v["mirror"]["name"], "good", "{v}");
    assert_eq!(v["mirror"]["base_url"], good.url().as_str());
    // The tampered mirror was asked, and passed over.
    let asked: Vec<String> = bad.requests().iter().map(|q| q.target.clone()).collect();
    assert!(
        asked.contains(&format!("/pith/{code}/bundle.json")),
        "{asked:?}"
    );
    let r = env.run(&["verify", p, "--refresh", "--key", &key]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(&format!("good ({})", good.url())),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}",
        r.stdout
    );

    // Again: from the cache, asking no one, the key still pinned; offline too.
    let asked = good.requests().len() + bad.requests().len();
    for extra in [&[][..], &["--offline"][..]] {
        let mut args = vec!["verify", p, "--json", "--key", &key];
        args.extend_from_slice(extra);
        let r = env.run(&args);
        let c: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(c["verdict"], "verified", "{c}");
        assert_eq!(c["mirror"], Value::Null, "from the cache: {c}");
    }
    assert_eq!(good.requests().len() + bad.requests().len(), asked);

    // A bare code takes its year from the mirrors too, passing over another paper's record.
    let out = env.cache.path().join("bare.pdf");
    let r = env.run(&[
        "inject",
        common::fixture("minimal.pdf").to_str().unwrap(),
        "--number",
        &code,
        "-o",
        out.to_str().unwrap(),
        "--refresh",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&number), "{}", r.stdout);

    // The same verdict whatever the order, the good mirror first.
    let env2 = Env::new(None, None, true);
    let file2 = env2.cache.path().join("mirrors.json");
    let order = [
        ("good", good.url()),
        ("down", down.clone()),
        ("tampered", bad.url()),
    ];
    std::fs::write(&file2, manifest(&order, &fp)).unwrap();
    let env2 = env2.with("PITH_MIRRORS", file2.to_str().unwrap());
    let r = env2.run(&["verify", p, "--json", "--key", &key]);
    let v2: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (&v2["verdict"], &v2["mirror"]),
        (&v["verdict"], &v["mirror"])
    );

    // Not pinned: the manifest states the key with its own fingerprint, which adds no trust;
    // nothing verifies.
    let env3 = Env::new(None, None, true);
    let file3 = env3.cache.path().join("mirrors.json");
    std::fs::write(&file3, manifest(&[("good", good.url())], &fp)).unwrap();
    let env3 = env3.with("PITH_MIRRORS", file3.to_str().unwrap());
    let r = env3.run(&["verify", p, "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v3: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v3["verdict"], "unverified", "{v3}");

    // A manifest that cannot be read is an error naming it.
    let r = Env::new(None, None, true)
        .with("PITH_MIRRORS", "/nonexistent/mirrors.json")
        .run(&["verify", p]);
    assert_error(&r, 2, &["PITH_MIRRORS", "/nonexistent/mirrors.json"]);
}
