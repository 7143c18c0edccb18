//! The protocol's routes beside the records: the well-known bundle, the signing keys, the
//! mirror manifest, a state recomputed from the bundle's events, the graph snapshot and the
//! events, served and exported alike.

use serde_json::{json, Value};

use crate::common::{self, code, have_tool, vectors, Server};

/// An index of the vectors whose first record has a bundle of two events: the receipt signed
/// by the test key, and a graph snapshot (whose signing rule is not published).
fn index_with_graph(dir: &std::path::Path) -> (std::path::PathBuf, String, Value) {
    let (mut bundle, key) = common::signed_bundle(&vectors()[0]);
    let snapshot = json!({"builder_version": "test", "claims": {"count": 0, "items": [],
        "snapshot_sha256": "258153158e38e3291e3d48162225fcdb2d5a3ed65a07baac614ab91432fd4f57"}});
    bundle["source_aliases"] = json!([{"alias_kind": "arxiv", "alias_value": "x",
        "created_at": "2026-01-01T00:00:00Z"}]);
    bundle["events"].as_array_mut().unwrap().push(json!({
        "event_id": "sha256:00", "event_type": "graph_snapshot", "target": "graph",
        "created_at": "2026-01-01T00:00:00Z",
        "signer": {"key_id": "test", "signer_id": "test"},
        "payload": {"graph_snapshot": snapshot}}));
    let index = dir.join("graph.pith-index");
    let r = common::index_with_bundles(dir, &index, &[("first.json".into(), bundle)], &key, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    (index, key, snapshot)
}

/// SHA-256 of the raw key (base64), by Python's hashlib: (hex of the first 16 bytes, the
/// first 26 base32 characters).
fn fingerprints(key_b64: &str) -> Option<(String, String)> {
    if !have_tool("python3", "protocol fingerprints") {
        return None;
    }
    let out = pith_testkit::python(
        "import sys,hashlib,base64;d=hashlib.sha256(base64.b64decode(sys.stdin.read())).digest();\
         print(d[:16].hex());print(base64.b32encode(d).decode()[:26])",
        key_b64,
    )
    .unwrap();
    let mut l = out.lines();
    Some((l.next()?.to_owned(), l.next()?.to_owned()))
}

#[test]
fn the_protocol_routes_serve_what_the_bundle_holds() {
    let dir = tempfile::tempdir().unwrap();
    let (index, key, snapshot) = index_with_graph(dir.path());
    let base = "https://mirror.example";
    let s = Server::start(&index, &["--base-url", base]);
    let all = vectors();
    let first = code(all[0]["pith_number"].as_str().unwrap());
    let second = code(all[1]["pith_number"].as_str().unwrap());

    // The well-known bundle: the same bytes.
    let bundle = s.get(&format!("/pith/{first}/bundle.json"), &[]);
    let wk = s.get(&format!("/.well-known/pith/{first}/bundle.json"), &[]);
    assert_eq!(
        (wk.status, wk.header("content-type")),
        (200, Some("application/json"))
    );
    assert!(wk.body == bundle.body);
    for path in [
        format!("/.well-known/pith/{second}/bundle.json"),
        format!("/api/pith-number/{second}/graph.json"),
        format!("/api/pith-number/{second}/events.json"),
    ] {
        let r = s.get(&path, &[]);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.text().contains("no bundle of"), "{path}: {}", r.text());
    }
    assert_eq!(
        s.get(&format!("/.well-known/pith/{first}/x.json"), &[])
            .status,
        404
    );
    assert_eq!(
        s.get(&format!("/api/pith-number/{}/graph.json", &first[..8]), &[])
            .status,
        404
    );

    // The state, recomputed: the receipt valid, the graph snapshot unchecked, never valid.
    let st = s.get(&format!("/pith/{first}/state.json"), &[]).json();
    assert_eq!(st["state_type"], "pith_open_graph_state");
    assert_eq!(st["state_version"], "1.0");
    assert_eq!(st["pith_number"], all[0]["pith_number"]);
    assert_eq!(st["merge_version"], "pith-checked-events-v1");
    assert_eq!(st["event_count"], 2);
    assert_eq!(st["valid_event_count"], 1);
    assert_eq!(st["invalid_event_count"], 0);
    assert_eq!(st["unchecked_event_count"], 1);
    assert_eq!(st["equivocation_count"], 0);
    assert_eq!(
        st["current"]["canonical_record"],
        all[0]["canonical_record"]
    );
    assert_eq!(st["current"]["source_aliases"][0]["alias_value"], "x");
    let snaps = st["current"]["graph_snapshots"].as_array().unwrap();
    assert_eq!(snaps.len(), 1);
    assert_eq!(snaps[0]["event_id"], "sha256:00");
    assert_eq!(st["status"], "verified");

    // Graph and events.
    let g = s
        .get(&format!("/api/pith-number/{first}/graph.json"), &[])
        .json();
    assert_eq!(g, snapshot);
    let ev = s
        .get(&format!("/api/pith-number/{first}/events.json"), &[])
        .json();
    assert_eq!(
        ev["events"],
        serde_json::from_slice::<Value>(&bundle.body).unwrap()["events"]
    );
    let statuses: Vec<&str> = ev["event_checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["valid", "unchecked"]);

    // The keys, with fingerprints as Python's hashlib computes them.
    let keys = s.get("/pith-signing-key.json", &[]).json();
    let keys = keys["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert_eq!(keys[0]["key_id"], "pith-v1-2026-05");
    assert_eq!(
        keys[0]["fingerprint_sha256_hex"],
        "8d4b5ee74e4693bcd1df2446408b0d54"
    );
    assert_eq!(
        keys[0]["fingerprint_sha256_b32_first128bits"],
        "RVFV5Z2OI2J3ZUO7ERDEBCYNKS"
    );
    assert_eq!(keys[1]["public_key_b64"], key);
    assert!(keys[1].get("key_id").is_none(), "no id was given: {keys:?}");
    assert_eq!(keys[1]["algorithm"], "ed25519");
    if let Some((hex, b32)) = fingerprints(&key) {
        assert_eq!(keys[1]["fingerprint_sha256_hex"], hex);
        assert_eq!(keys[1]["fingerprint_sha256_b32_first128bits"], b32);
    }

    // The manifest: this mirror, under the base URL.
    let m = s.get("/pith-mirrors.json", &[]).json();
    assert_eq!(m["manifest_type"], "pith_mirror_manifest");
    let me = &m["mirrors"][0];
    assert_eq!(me["base_url"], base);
    assert_eq!(
        me["bundle_pattern"],
        format!("{base}/pith/{{suffix}}/bundle.json")
    );
    assert_eq!(
        me["state_pattern"],
        format!("{base}/pith/{{suffix}}/state.json")
    );
    assert_eq!(
        me["well_known_pattern"],
        format!("{base}/.well-known/pith/{{suffix}}/bundle.json")
    );
    assert_eq!(
        me["public_key"]["fingerprint_sha256_hex"],
        "8d4b5ee74e4693bcd1df2446408b0d54"
    );
    assert!(m.get("generated_at").is_none() && me.get("status").is_none());

    // The record page links them as the Agent API.
    let page = s
        .get(&format!("/pith/{first}"), &[("Accept", "text/html")])
        .text();
    assert!(page.contains("Agent API"), "{page}");
    for link in [
        format!("/api/pith-number/{first}/graph.json"),
        format!("/api/pith-number/{first}/events.json"),
        format!("/.well-known/pith/{first}/bundle.json"),
        "/pith-signing-key.json".to_owned(),
        "/pith-mirrors.json".to_owned(),
    ] {
        assert!(page.contains(&link), "{link}");
    }
    let page2 = s
        .get(&format!("/pith/{second}"), &[("Accept", "text/html")])
        .text();
    assert!(!page2.contains(&format!("/api/pith-number/{second}/graph.json")));

    // The export writes the same bytes.
    let site = dir.path().join("site");
    let r = common::export(&index, &site, &["--base-url", base]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for rel in [
        format!(".well-known/pith/{first}/bundle.json"),
        format!("api/pith-number/{first}/graph.json"),
        format!("api/pith-number/{first}/events.json"),
        format!("pith/{first}/state.json"),
        "pith-signing-key.json".to_owned(),
        "pith-mirrors.json".to_owned(),
    ] {
        let bytes = std::fs::read(site.join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(
            bytes == s.get(&format!("/{rel}"), &[]).body,
            "{rel} differs"
        );
    }
    assert!(!site
        .join(format!("api/pith-number/{second}/graph.json"))
        .exists());
}

#[test]
fn without_a_base_url_there_is_no_manifest_whatever_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let (index, _, _) = index_with_graph(dir.path());
    let s = Server::start(&index, &[]);
    // A manifest's patterns are absolute: never taken from the client's Host header.
    let r = s.get("/pith-mirrors.json", &[("Host", "evil.example")]);
    assert_eq!(r.status, 404, "{}", r.text());
    assert!(!r.text().contains("evil.example"), "{}", r.text());
    assert!(r.text().contains("--base-url"), "{}", r.text());
    let site = dir.path().join("site");
    let e = common::export(&index, &site, &[]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert!(site.join("pith-signing-key.json").exists());
    assert!(!site.join("pith-mirrors.json").exists());
}

/// `pith verify` finds this mirror through its own manifest, which states the key its index
/// trusts with that key's own fingerprint: a forged mirror could state its own key the same
/// way, so the manifest adds no trust. The receipt by the test key is UNVERIFIED (exit 0) until
/// the user pins the key with `--key`; the mirror that answered is named either way. Before it
/// in the manifest, a mirror nobody listens on.
#[test]
fn pith_verify_reads_this_mirrors_manifest_and_trusts_only_pinned_keys() {
    let dir = tempfile::tempdir().unwrap();
    let (index, key, _) = index_with_graph(dir.path());
    // The server listens on a port chosen at start, after its --base-url is given: the
    // manifest it publishes under a stand-in base is moved to the address it listens on.
    const STAND_IN: &str = "http://mirror.invalid";
    let s = Server::start(&index, &["--base-url", STAND_IN]);
    let published = s.get("/pith-mirrors.json", &[]).text();
    assert!(published.contains(STAND_IN), "{published}");
    let mut m: Value = serde_json::from_str(&published.replace(STAND_IN, &s.url)).unwrap();
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://127.0.0.1:{}", l.local_addr().unwrap().port())
    };
    let mut down = m["mirrors"][0].clone();
    down["name"] = "down".into();
    down["base_url"] = dead.clone().into();
    down["bundle_pattern"] = format!("{dead}/pith/{{suffix}}/bundle.json").into();
    m["mirrors"].as_array_mut().unwrap().insert(0, down);
    let manifest = dir.path().join("mirrors.json");
    std::fs::write(&manifest, m.to_string()).unwrap();
    let number = vectors()[0]["pith_number"].as_str().unwrap().to_owned();
    let pdf = dir.path().join("numbered.pdf");
    common::inject(&number, &pdf);
    let cache = dir.path().join("cache");
    let env = [
        ("PITH_CACHE_DIR", cache.to_str().unwrap()),
        ("PITH_RESOLVER_SPACING_MS", "0"),
        ("PITH_MIRRORS", manifest.to_str().unwrap()),
    ];
    // The manifest states the mirror's key with its own fingerprint (as anyone's manifest can
    // state anyone's key): a name, never trust. Unpinned, the receipt it signed is unverified,
    // and the mirror that answered is named.
    let verify = |extra: &[&str]| {
        let mut args = vec!["verify", pdf.to_str().unwrap(), "--json", "--refresh"];
        args.extend_from_slice(extra);
        let r = common::run(&common::pith(), &args, &env);
        let v: Value = serde_json::from_str(&r.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}{}", r.stdout, r.stderr));
        (r.code, v)
    };
    let (code, v) = verify(&[]);
    assert_eq!(
        (code, v["verdict"].as_str()),
        (0, Some("unverified")),
        "{v}"
    );
    assert_eq!(v["mirror"]["base_url"], s.url.as_str(), "{v}");
    assert!(!v.to_string().contains("valid for key"), "{v}");
    // Pinned by the user, the same receipt verifies.
    let (code, v) = verify(&["--key", &key]);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("verified")), "{v}");
    assert_eq!(v["mirror"]["base_url"], s.url.as_str(), "{v}");
}

/// What a door said of a file: the verdict and the checks (subject, status) of a report, or
/// the kind of an error.
fn outcome(v: &Value) -> (String, Vec<(String, String)>) {
    if let Some(kind) = v.get("kind").and_then(Value::as_str) {
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
        return (format!("error {kind}"), Vec::new());
    }
    let checks = v["checks"]
        .as_array()
        .unwrap_or_else(|| panic!("neither a report nor an error: {v}"))
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_owned();
            (s("subject"), s("status"))
        })
        .collect();
    (v["verdict"].as_str().unwrap().to_owned(), checks)
}

/// `POST /verify` of `pdf`, named `name`, as a script asks: the JSON answer.
fn post_verify(s: &Server, name: &str, pdf: &[u8]) -> (u16, Value) {
    let mut req = format!(
        "POST /verify?file={name} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\n\
         Content-Type: application/pdf\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        s.addr,
        pdf.len()
    )
    .into_bytes();
    req.extend_from_slice(pdf);
    let r = s.raw(&req);
    (r.status, r.json())
}

/// One verdict at every door: the same PDFs (numbered right, numbered with the record's code
/// and another year, without a number, encrypted with a user password) go through `pith verify
/// --json` with this mirror as its resolver and through the mirror's own `/verify`. With an
/// index built without `--key`, whose bundle is signed by a key nobody pinned, both say
/// UNVERIFIED for the right file; with the key pinned (`pith index --key`, `pith verify
/// --key`), both say VERIFIED. Each file gets the same verdict, checks and headline, or the
/// same error kind (`{error, kind}`) at both. Python's door is held to the same verdicts by
/// python/tests/test_verdicts.py, against the same kind of mirror.
#[test]
fn pith_verify_and_the_mirrors_verify_give_one_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let first = vectors()[0]["pith_number"].as_str().unwrap().to_owned();
    let code = code(&first);
    let year: u16 = first.split(':').nth(1).unwrap().parse().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    common::inject(&first, &files.join("right.pdf"));
    common::inject(
        &format!("pith:{}:{code}", year - 1),
        &files.join("wrong.pdf"),
    );
    std::fs::copy(
        common::root().join("tests/fixtures/minimal.pdf"),
        files.join("none.pdf"),
    )
    .unwrap();
    std::fs::copy(
        common::root().join("tests/fixtures/encrypted/r4-aes128-user-password.pdf"),
        files.join("encrypted.pdf"),
    )
    .unwrap();
    let (bundle, key) = common::signed_bundle(&vectors()[0]);
    for pinned in [false, true] {
        let at = dir.path().join(format!("pinned-{pinned}"));
        std::fs::create_dir_all(&at).unwrap();
        let index = at.join("i.pith-index");
        let records = common::records_dir(&at);
        let bundles = at.join("bundles");
        std::fs::create_dir_all(&bundles).unwrap();
        std::fs::write(bundles.join("first.json"), bundle.to_string()).unwrap();
        let mut args = vec![
            "--records",
            records.to_str().unwrap(),
            "--bundles",
            bundles.to_str().unwrap(),
        ];
        if pinned {
            args.extend(["--key", &key]);
        }
        let r = common::build_index(&index, &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let s = Server::start(&index, &[]);
        let want = [
            ("right.pdf", if pinned { "verified" } else { "unverified" }),
            ("wrong.pdf", "mismatch"),
            ("none.pdf", "no_number"),
            ("encrypted.pdf", "error password"),
        ];
        for (name, verdict) in want {
            let mut cli = std::process::Command::new(common::pith());
            cli.current_dir(&files)
                .args(["verify", name, "--json"])
                .env("PITH_RESOLVER_URL", &s.url)
                .env("PITH_CACHE_DIR", at.join("cache"))
                .env("PITH_RESOLVER_SPACING_MS", "0")
                .env("PITH_ARXIV_URL", "http://127.0.0.1:9");
            if pinned {
                cli.args(["--key", &key]);
            }
            let o = cli.output().unwrap();
            let out = String::from_utf8_lossy(&o.stdout);
            let cli: Value = serde_json::from_str(&out).unwrap_or_else(|e| {
                panic!("{name}: {e}: {out}{}", String::from_utf8_lossy(&o.stderr))
            });
            let (status, web) = post_verify(&s, name, &std::fs::read(files.join(name)).unwrap());
            let (a, b) = (outcome(&cli), outcome(&web));
            assert_eq!(a.0, verdict, "{name}, pinned {pinned}: the CLI said {cli}");
            assert_eq!(a, b, "{name}, pinned {pinned}: CLI {cli}\nmirror {web}");
            assert_eq!(cli["headline"], web["headline"], "{name}");
            // The exit code and the status say the same.
            let exit = match verdict {
                "verified" | "unverified" => 0,
                "error password" => 2,
                _ => 1,
            };
            assert_eq!(o.status.code(), Some(exit), "{name}");
            assert_eq!(status, if exit == 2 { 422 } else { 200 }, "{name}: {web}");
        }
    }
}
