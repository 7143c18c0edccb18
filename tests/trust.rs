//! Trust comes only from keys the user pinned (the registry's, `--key`), and an answer is kept
//! only once it checks: a mirror manifest that states its own key with a matching fingerprint
//! does not make a bundle signed with that key verified; a resolver that once answers another
//! paper's record for a number does not decide the runs after it. Resolvers and mirrors are
//! stand-ins on 127.0.0.1; nothing here touches the internet.

use serde_json::Value;

use crate::common::{self, http::Reply, http::Server, Run};

/// Runs pith with no PITH_* or proxy variable of the caller's, plus `env`.
fn pith(env: &[(&str, &str)], args: &[&str]) -> Run {
    let own = [
        ("PITH_ARXIV_URL", "http://127.0.0.1:9"),
        ("PITH_RESOLVER_SPACING_MS", "0"),
    ];
    common::run::run_pith_in(&[&own[..], env].concat(), args)
}

/// The published vector of arXiv `id`.
fn vector(id: &str) -> Value {
    let all: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(common::data("records.json")).unwrap())
            .unwrap();
    all.into_iter()
        .find(|v| v.get("variant_of").is_none() && v["canonical_record"]["source"]["id"] == id)
        .unwrap()
}

fn code_of(v: &Value) -> String {
    let n = v["pith_number"].as_str().unwrap();
    n.rsplit(':').next().unwrap().to_owned()
}

/// A PDF carrying `number`, written into `dir`.
fn pdf_with(dir: &std::path::Path, number: &str) -> std::path::PathBuf {
    let out = dir.join("paper.pdf");
    let (code, _, err) = common::inject(&common::fixture("minimal.pdf"), number, &out, &[]);
    assert_eq!(code, 0, "{err}");
    out
}

fn verdict(r: &Run) -> String {
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", r.stdout, r.stderr));
    v["verdict"].as_str().unwrap_or_default().to_owned()
}

/// A mirror (a stand-in) serving a paper's record and a bundle signed with the test key, which
/// nobody pinned; its manifest states that key with the key's own fingerprint, recomputed as
/// any client would. The manifest names the key, so the bundle is served and its checks made;
/// the key stays unpinned, so the verdict is UNVERIFIED (exit 0), never VERIFIED, and the
/// bundle is not cached. Pinned with `--key`, the same answers verify.
#[test]
fn a_manifest_stating_its_own_key_adds_no_trust() {
    let rec = vector("2402.03791");
    let code = code_of(&rec);
    let (bundle, key) = common::signed_bundle(&rec);
    let record = rec["canonical_record"].clone();
    let c = code.clone();
    let mirror = Server::start(move |r, _| {
        if r.target == format!("/pith/{c}.json") {
            Reply::ok(record.to_string())
        } else if r.target == format!("/pith/{c}/bundle.json") {
            Reply::ok(bundle.to_string())
        } else {
            Reply::status(404)
        }
    });
    let fingerprint = pith::verify::Key::parse(&key).unwrap().fingerprint();
    let dir = common::tmpdir();
    let manifest = serde_json::json!({"manifest_type": "pith_mirror_manifest",
        "manifest_version": "1.0", "mirrors": [{"name": "evil", "base_url": mirror.url(),
        "public_key": {"key_id": "test", "algorithm": "ed25519", "format": "raw",
            "public_key_b64": key, "fingerprint_sha256_hex": fingerprint}}]});
    let file = dir.path().join("mirrors.json");
    std::fs::write(&file, manifest.to_string()).unwrap();
    let pdf = pdf_with(dir.path(), rec["pith_number"].as_str().unwrap());
    let cache = dir.path().join("cache");
    let env = [("PITH_CACHE_DIR", cache.to_str().unwrap())];
    let args = [
        "verify",
        pdf.to_str().unwrap(),
        "--mirrors",
        file.to_str().unwrap(),
        "--json",
    ];
    let r = pith(&env, &args);
    assert_eq!(verdict(&r), "unverified", "{}", r.stdout);
    assert_eq!(r.code, 0, "UNVERIFIED exits 0: {}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["mirror"]["name"], "evil", "{v}");
    let receipt = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["subject"].as_str().unwrap().contains("receipt"))
        .unwrap_or_else(|| panic!("no receipt check: {v}"));
    assert_eq!(receipt["status"], "unverified", "{v}");
    assert!(!r.stdout.contains("valid for key"), "{}", r.stdout);
    // Not believed, so not cached: the next run asks the mirror for the bundle again.
    let bundles = |s: &Server| {
        s.requests()
            .iter()
            .filter(|q| q.target.ends_with("/bundle.json"))
            .count()
    };
    let before = bundles(&mirror);
    let r = pith(&env, &args);
    assert_eq!(verdict(&r), "unverified", "{}", r.stdout);
    assert_eq!(bundles(&mirror), before + 1);
    // Offline, nothing of the bundle was kept: still not verified.
    let mut offline = args.to_vec();
    offline.push("--offline");
    let r = pith(&env, &offline);
    assert_ne!(verdict(&r), "verified", "{}{}", r.stdout, r.stderr);
    // The user pins the key: the same answers verify, and the bundle is kept.
    let mut pinned = args.to_vec();
    pinned.extend(["--key", &key]);
    let r = pith(&env, &pinned);
    assert_eq!(
        (verdict(&r).as_str(), r.code),
        ("verified", 0),
        "{}",
        r.stdout
    );
    let before = bundles(&mirror);
    let r = pith(&env, &pinned);
    assert_eq!(verdict(&r), "verified", "{}", r.stdout);
    assert_eq!(
        bundles(&mirror),
        before,
        "a verified bundle is used from the cache"
    );
    // The kept bundle does not make an unpinned run verified.
    let r = pith(&env, &args);
    assert_eq!(verdict(&r), "unverified", "{}", r.stdout);
    // PITH_KEYS pins as --key does, for every run of that environment.
    let cache = cache.to_str().unwrap();
    let with_env = [("PITH_CACHE_DIR", cache), ("PITH_KEYS", key.as_str())];
    let r = pith(&with_env, &args);
    assert_eq!(
        (verdict(&r).as_str(), r.code),
        ("verified", 0),
        "{}",
        r.stdout
    );
    // A value there that is no key is one line naming the variable, not a silent skip.
    let bad = [("PITH_CACHE_DIR", cache), ("PITH_KEYS", "not-a-key")];
    let r = pith(&bad, &args);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.starts_with("pith: PITH_KEYS (not-a-key)"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
}

/// A resolver answers another paper's record for a number once (bare, then wrapped and stating
/// the number asked for), then answers honestly. The wrong answer is reported (MISMATCH, a
/// refused bare code) and never kept: the next run asks again and gets the right record, with
/// no `--refresh`; a wrong record written into the cache by hand is passed over too.
#[test]
fn a_resolver_that_once_answers_another_record_does_not_poison_the_cache() {
    let rec = vector("2402.03791");
    let other = vector("2412.14374");
    let code = code_of(&rec);
    for wrapped in [false, true] {
        let lie = if wrapped {
            serde_json::json!({"pith_number": rec["pith_number"],
                "canonical_sha256": rec["canonical_sha256"],
                "canonical_record": other["canonical_record"]})
        } else {
            other["canonical_record"].clone()
        };
        let honest = rec["canonical_record"].clone();
        let c = code.clone();
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let resolver = Server::start(move |r, _| {
            if r.target != format!("/pith/{c}.json") {
                return Reply::status(404);
            }
            // The first record asked for is a lie, the second the truth, the third a lie.
            let n = asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            if n == 0 || n == 2 {
                Reply::ok(lie.to_string())
            } else {
                Reply::ok(honest.to_string())
            }
        });
        let dir = common::tmpdir();
        let pdf = pdf_with(dir.path(), rec["pith_number"].as_str().unwrap());
        let cache = dir.path().join("cache");
        let url = resolver.url();
        let env = [
            ("PITH_CACHE_DIR", cache.to_str().unwrap()),
            ("PITH_RESOLVER_URL", url.as_str()),
        ];
        let verify = ["verify", pdf.to_str().unwrap(), "--json"];
        let records = |s: &Server| {
            s.requests()
                .iter()
                .filter(|q| !q.target.ends_with("/bundle.json"))
                .count()
        };
        let r = pith(&env, &verify);
        assert_eq!(
            (verdict(&r).as_str(), r.code),
            ("mismatch", 1),
            "{}",
            r.stdout
        );
        assert_eq!(records(&resolver), 1);
        // Asked again, without --refresh: the honest answer.
        let r = pith(&env, &verify);
        assert_eq!(records(&resolver), 2, "the wrong record was not kept");
        assert_eq!(verdict(&r), "unverified", "{wrapped}: {}", r.stdout);
        assert_eq!(r.code, 0);
        // The right one is kept: asked no more.
        let r = pith(&env, &verify);
        assert_eq!(verdict(&r), "unverified", "{}", r.stdout);
        assert_eq!(records(&resolver), 2);
        // A bare code's year, asked again: the lie is refused, and it did not replace the
        // record kept, which gives the year without asking.
        let out = dir.path().join("bare.pdf");
        let minimal = common::fixture("minimal.pdf");
        let inject = [
            "inject",
            minimal.to_str().unwrap(),
            "--number",
            code.as_str(),
            "-o",
            out.to_str().unwrap(),
            "--refresh",
        ];
        let r = pith(&env, &inject);
        assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
        assert_eq!(records(&resolver), 3);
        let r = pith(&env, &inject[..inject.len() - 1]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert_eq!(records(&resolver), 3);
        assert!(
            r.stdout.contains(rec["pith_number"].as_str().unwrap()),
            "{}",
            r.stdout
        );
    }
    // Another paper's record written into the cache under the code (by an older pith, or by
    // hand) is not used: the resolver is asked, and its answer replaces it.
    let c = code.clone();
    let honest = rec["canonical_record"].clone();
    let resolver = Server::start(move |r, _| {
        if r.target == format!("/pith/{c}.json") {
            Reply::ok(honest.to_string())
        } else {
            Reply::status(404)
        }
    });
    let dir = common::tmpdir();
    let pdf = pdf_with(dir.path(), rec["pith_number"].as_str().unwrap());
    let cache = dir.path().join("cache");
    std::fs::create_dir_all(cache.join("resolver")).unwrap();
    let file = cache.join("resolver").join(format!("{code}.json"));
    std::fs::write(&file, other["canonical_record"].to_string()).unwrap();
    let url = resolver.url();
    let env = [
        ("PITH_CACHE_DIR", cache.to_str().unwrap()),
        ("PITH_RESOLVER_URL", url.as_str()),
    ];
    let r = pith(&env, &["verify", pdf.to_str().unwrap(), "--json"]);
    assert_eq!(verdict(&r), "unverified", "{}", r.stdout);
    assert_eq!(resolver.requests().len(), 2, "the record, then the bundle");
    let kept: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(kept, rec["canonical_record"]);
}
