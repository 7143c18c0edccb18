//! CLI tests for `pith number`, `pith record` and `pith verify`, running the real binary.

use crate::common::{self, data, example, pith, seed_vector, SEED, SEED_HASH};
use predicates::prelude::*;
use serde_json::Value;

fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn number_from_record_atom_and_fields_agree() {
    let from_record = stdout_of(
        pith()
            .args(["number", "--record"])
            .arg(example("2402.03791v3.record.json")),
    );
    assert_eq!(from_record, format!("{SEED}\n"));
    let from_atom = stdout_of(
        pith()
            .args(["number", "--arxiv-atom"])
            .arg(example("2402.03791v3.atom.xml")),
    );
    assert_eq!(from_atom, from_record);
    let v = seed_vector();
    let from_fields = stdout_of(pith().args([
        "number",
        "--id",
        "2402.03791",
        "--version",
        "3",
        "--title",
        v["title"].as_str().unwrap(),
        "--abstract",
        v["abstract"].as_str().unwrap(),
        "--submitted",
        "2024-02-06T08:14:56Z",
        "--primary",
        "cs.DC",
        "--license",
        "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
    ]));
    assert_eq!(from_fields, from_record);
}

#[test]
fn number_json_has_all_fields() {
    let out = stdout_of(
        pith()
            .args(["number", "--json", "--record"])
            .arg(example("2402.03791v3.record.json")),
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["pith_number"], SEED);
    assert_eq!(v["short_pith_number"], "pith:7BMK4ZKT");
    assert_eq!(v["canonical_sha256"], SEED_HASH);
    assert_eq!(
        v["url"],
        "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5"
    );
}

#[test]
fn feed_gives_one_number_per_entry_and_id_picks_one() {
    let out = stdout_of(
        pith()
            .args(["number", "--arxiv-atom"])
            .arg(example("feed.atom.xml")),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 10);
    assert!(lines.contains(&format!("{SEED}  2402.03791v3").as_str()));
    let one = stdout_of(
        pith()
            .args(["number", "--id", "2402.03791v3", "--arxiv-atom"])
            .arg(example("feed.atom.xml")),
    );
    assert_eq!(one, format!("{SEED}\n"));
    pith()
        .args(["number", "--id", "9999.99999", "--arxiv-atom"])
        .arg(example("feed.atom.xml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no entry with id 9999.99999"));
}

#[test]
fn record_canonical_bytes_hash_to_the_published_hash() {
    let out = pith()
        .args(["record", "--canonical", "--arxiv-atom"])
        .arg(example("2402.03791v3.atom.xml"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(pith::number::hex(&pith::number::sha256(&out)), SEED_HASH);
    let pretty = stdout_of(
        pith()
            .args(["record", "--arxiv-atom"])
            .arg(example("2402.03791v3.atom.xml")),
    );
    let v: Value = serde_json::from_str(&pretty).unwrap();
    assert_eq!(v, seed_vector()["canonical_record"]);
}

#[test]
fn verify_record_against_number() {
    let rec = example("2402.03791v3.record.json");
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .arg(SEED)
        .assert()
        .success()
        .stdout(predicate::str::contains("VERIFIED: every check holds."));
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .arg("pith:7bmk4zkt")
        .assert()
        .success();
    // Wrong year: a mismatch, exit 1.
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .arg("pith:2023:7BMK4ZKTPUTUY3JKWBANNPOFR5")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("MISMATCH"));
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .arg("pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL")
        .assert()
        .code(1);
    // Malformed number: an error, exit 2, one line saying what was expected.
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .arg("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR")
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("pith: ").and(predicate::str::contains("26")));
}

#[test]
fn verify_texts_against_record() {
    let v = seed_vector();
    let rec = example("2402.03791v3.record.json");
    let title = v["title"].as_str().unwrap();
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .args(["--title", &format!("  {}\n", title.to_uppercase())])
        .args(["--abstract", v["abstract"].as_str().unwrap()])
        .assert()
        .success();
    pith()
        .args(["verify", "--record"])
        .arg(&rec)
        .args(["--title", &title.replace(':', " -")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("MISMATCH"));
}

#[test]
fn verify_signature_vectors() {
    let sigs: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(data("signatures.json")).unwrap()).unwrap();
    for s in sigs {
        let hash = s["canonical_sha256"].as_str().unwrap();
        let sig = s["signature_b64"].as_str().unwrap();
        pith()
            .args(["verify", "--sha256", hash, "--signature", sig])
            .assert()
            .success();
        let mut other = hash.to_owned();
        other.replace_range(0..1, if hash.starts_with('0') { "1" } else { "0" });
        pith()
            .args(["verify", "--sha256", &other, "--signature", sig])
            .assert()
            .code(1);
    }
}

/// A bundle shaped as SPEC describes, signed by a test key given with --key.
fn signed_bundle(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let v = seed_vector();
    let record = v["canonical_record"].clone();
    let sig = common::sign_hash(SEED_HASH);
    let bundle = serde_json::json!({
        "bundle_type": "pith_open_graph_bundle", "bundle_version": "1.0",
        "pith_number": SEED, "short_pith_number": "pith:7BMK4ZKT",
        "canonical_record": record, "canonical_sha256": SEED_HASH,
        "source": {"kind": "arxiv", "id": "2402.03791"},
        "source_aliases": [{"alias_kind": "arxiv", "alias_value": "2402.03791", "created_at": "2026-05-01T00:00:00Z"}],
        "events": [{"event_type": "record_created", "subject_pith_number": SEED, "target": "record",
            "payload": {"canonical_record": record, "canonical_sha256": SEED_HASH,
                "receipt": {"kind": "pith_receipt", "key_id": "test-key", "signature": sig, "future_field": 1}}}],
        "unknown_top_level": {"x": 1}
    });
    let path = dir.join("bundle.json");
    std::fs::write(&path, serde_json::to_string_pretty(&bundle).unwrap()).unwrap();
    (path, common::test_key())
}

#[test]
fn verify_bundle_with_key_and_unknown_key() {
    let dir = tempfile::tempdir().unwrap();
    let (path, pk) = signed_bundle(dir.path());
    // With the signer's key: everything verifies.
    pith()
        .args(["verify", "--bundle"])
        .arg(&path)
        .args(["--key", &pk])
        .assert()
        .success()
        .stdout(predicate::str::contains("Ed25519 signature valid"));
    // Without it: the receipt is reported as unverified, never as passed.
    pith()
        .args(["verify", "--bundle"])
        .arg(&path)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("UNVERIFIED")
                .and(predicate::str::contains("Ed25519 signature valid").not()),
        );
    // A tampered record: mismatch.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("cs.DC", "cs.LG", 1);
    std::fs::write(&path, text).unwrap();
    pith()
        .args(["verify", "--bundle"])
        .arg(&path)
        .args(["--key", &pk])
        .assert()
        .code(1);
}

#[test]
fn bad_inputs_give_one_line_errors_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"metadata\": 1}").unwrap();
    for args in [
        vec!["number", "--record", bad.to_str().unwrap()],
        vec!["number", "--record", "/nonexistent/rec.json"],
        vec!["number", "--arxiv-atom", bad.to_str().unwrap()],
        vec!["number"],
        vec!["number", "--id", "2402.03791", "--title", "x"],
        vec![
            "number",
            "--id",
            "not-an-id",
            "--version",
            "1",
            "--title",
            "t",
            "--abstract",
            "a",
            "--submitted",
            "2024-01-01T00:00:00Z",
            "--primary",
            "cs.DC",
        ],
        vec!["verify", "--bundle", bad.to_str().unwrap()],
        vec![
            "verify",
            "--key",
            "AAAA",
            "--sha256",
            SEED_HASH,
            "--signature",
            "AAAA",
        ],
    ] {
        let out = pith().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("pith: "), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    pith()
        .args(["number", "--record"])
        .arg(&bad)
        .assert()
        .stderr(predicate::str::contains("bad.json"));
}

/// Bug 7: conflicting or implausible inputs are refused instead of changing the
/// number: a version given twice, a category arXiv does not have (case matters).
#[test]
fn conflicting_and_implausible_fields_are_refused() {
    let fields = |id: &str, version: Option<&str>, primary: &str, cross: &str| {
        let mut c = pith();
        c.args(["number", "--id", id, "--title", "T", "--abstract", "A"]);
        c.args(["--submitted", "2024-02-06T08:14:56Z", "--primary", primary]);
        if let Some(v) = version {
            c.args(["--version", v]);
        }
        if !cross.is_empty() {
            c.args(["--cross", cross]);
        }
        c
    };
    fields("2402.03791v3", None, "cs.DC", "cs.LG,math.OC")
        .assert()
        .success();
    fields("2402.03791v3", Some("3"), "cs.DC", "")
        .assert()
        .success();
    fields("2402.03791v3", Some("2"), "cs.DC", "")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("says version 3 but version 2"));
    fields("2402.03791", Some("3"), "cs.dc", "")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean cs.DC?"));
    fields("2402.03791", Some("3"), "cs.DC", "cs.XX")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "\"cs.XX\" is not an arXiv category",
        ));
    // Old archive names are categories too.
    fields("chao-dyn/9301001", Some("1"), "chao-dyn", "")
        .assert()
        .success();
}

/// Bug 8: a multi-entry feed prints the arXiv id beside each number, and --json
/// prints JSON Lines (one object per entry), not concatenated pretty objects.
#[test]
fn multi_entry_feeds_name_each_entry() {
    let out = stdout_of(
        pith()
            .args(["number", "--json", "--arxiv-atom"])
            .arg(example("feed.atom.xml")),
    );
    let plain = stdout_of(
        pith()
            .args(["number", "--arxiv-atom"])
            .arg(example("feed.atom.xml")),
    );
    let objs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(objs.len(), plain.lines().count());
    for (o, line) in objs.iter().zip(plain.lines()) {
        let id = o["arxiv_id"].as_str().unwrap();
        assert_eq!(
            line,
            format!("{}  {id}", o["pith_number"].as_str().unwrap())
        );
    }
    let rec = stdout_of(
        pith()
            .args(["record", "--arxiv-atom"])
            .arg(example("feed.atom.xml")),
    );
    assert_eq!(rec.lines().count(), objs.len());
    for l in rec.lines() {
        serde_json::from_str::<Value>(l).unwrap();
    }
}

/// Bug 9: a record alone is not "verified" (nothing was checked against it), and a
/// malformed signature is an input error (exit 2), not a mismatch (exit 1).
#[test]
fn record_alone_is_unverified_and_bad_signatures_are_errors() {
    let out = stdout_of(
        pith()
            .args(["verify", "--record"])
            .arg(example("2402.03791v3.record.json")),
    );
    assert!(
        out.lines().last().unwrap().starts_with("UNVERIFIED"),
        "{out}"
    );
    for sig in ["not base64!", "AAAA"] {
        pith()
            .args(["verify", "--sha256", SEED_HASH, "--signature", sig])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("invalid signature"));
    }
    let zero = "A".repeat(86) + "==";
    pith()
        .args(["verify", "--sha256", SEED_HASH, "--signature", &zero])
        .assert()
        .code(1);
}

/// Habits: the resolver URL is accepted wherever a number is.
#[test]
fn resolver_url_is_a_number() {
    let url = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5";
    let out = stdout_of(
        pith()
            .args(["verify", "--record"])
            .arg(example("2402.03791v3.record.json"))
            .arg(url),
    );
    assert!(out.ends_with("VERIFIED: every check holds.\n"), "{out}");
    let svg = stdout_of(pith().args(["badge", url]));
    assert!(svg.contains("7BMK4ZKT"));
    let snippet = stdout_of(pith().args(["snippet", url, "--format", "md"]));
    assert!(snippet.contains(url), "{snippet}");
}

/// README: "`--json` a machine-readable report; exit 0 when everything holds, 1 on a mismatch
/// or no number, 2 on an error". Each subcommand that takes `--json`, each outcome: the exit
/// code, a JSON document on standard output, and for an error `{"error", "kind"}` with the
/// line standard error prints.
#[test]
fn every_json_subcommand_exits_as_the_readme_says() {
    let dir = crate::common::tmpdir();
    let d = dir.path();
    let minimal = crate::common::fixture("minimal.pdf");
    let record = example("2402.03791v3.record.json");
    let numbered = d.join("numbered.pdf");
    let other = d.join("other.pdf");
    let other_number = "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL";
    let s = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let (m, r, n, o) = (s(&minimal), s(&record), s(&numbered), s(&other));
    let manifest = d.join("m.jsonl");
    std::fs::write(
        &manifest,
        format!("{{\"pdf\": \"{m}\", \"number\": \"{SEED}\"}}\n"),
    )
    .unwrap();
    let mf = s(&manifest);
    let out_dir = s(&d.join("out"));
    let report = s(&d.join("r.jsonl"));
    let cases: Vec<(Vec<String>, i32)> = vec![
        (
            vec![
                "inject".into(),
                m.clone(),
                "--number".into(),
                SEED.into(),
                "-o".into(),
                n.clone(),
            ],
            0,
        ),
        (
            vec![
                "inject".into(),
                m.clone(),
                "--number".into(),
                other_number.into(),
                "-o".into(),
                o.clone(),
            ],
            0,
        ),
        (
            vec![
                "inject".into(),
                r.clone(),
                "--number".into(),
                SEED.into(),
                "-o".into(),
                s(&d.join("x.pdf")),
            ],
            2,
        ),
        (vec!["number".into(), "--record".into(), r.clone()], 0),
        (vec!["number".into(), "--record".into(), m.clone()], 2),
        (vec!["inspect".into(), n.clone()], 0),
        (vec!["inspect".into(), m.clone()], 1),
        (vec!["inspect".into(), r.clone()], 2),
        (
            vec!["verify".into(), n.clone(), "--record".into(), r.clone()],
            0,
        ),
        (
            vec!["verify".into(), o.clone(), "--record".into(), r.clone()],
            1,
        ),
        (
            vec!["verify".into(), m.clone(), "--record".into(), r.clone()],
            1,
        ),
        (
            vec![
                "verify".into(),
                "--record".into(),
                r.clone(),
                other_number.into(),
            ],
            1,
        ),
        (
            vec!["verify".into(), "--record".into(), m.clone(), SEED.into()],
            2,
        ),
        (
            vec!["strip".into(), n.clone(), "-o".into(), s(&d.join("s.pdf"))],
            0,
        ),
        (
            vec!["strip".into(), r.clone(), "-o".into(), s(&d.join("t.pdf"))],
            2,
        ),
        (
            vec![
                "batch".into(),
                "--manifest".into(),
                mf.clone(),
                "--out-dir".into(),
                out_dir.clone(),
                "--report".into(),
                report.clone(),
            ],
            0,
        ),
        (
            vec![
                "batch".into(),
                "--manifest".into(),
                mf.clone(),
                "--out-dir".into(),
                s(&d.join("none")),
                "--check".into(),
                "--report".into(),
                report.clone(),
            ],
            1,
        ),
        (
            vec![
                "batch".into(),
                "--manifest".into(),
                s(&d.join("missing.jsonl")),
                "--out-dir".into(),
                out_dir.clone(),
            ],
            2,
        ),
    ];
    for (args, want) in cases {
        let out = pith().args(&args).arg("--json").output().unwrap();
        let code = out.status.code().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(code, want, "{args:?}: {stdout}{stderr}");
        if args[0] == "batch" && want != 2 {
            continue; // the report went to its file
        }
        let v: Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"));
        if want == 2 {
            let kind = v["kind"].as_str().unwrap_or_default();
            assert!(!kind.is_empty() && kind != "invalid", "{args:?}: {v}");
            assert_eq!(
                stderr.trim(),
                format!("pith: {}", v["error"].as_str().unwrap()),
                "{args:?}"
            );
        }
    }
}
