//! Test support shared by the workspace's test harnesses (`tests/common/` of pith,
//! `crates/pith-serve/tests/common/` of pith-serve), so that each helper is written once:
//! the record of tests that did not run and its summary ([`skips`]), the checks for the tools
//! a test needs ([`have_tool`], [`have_python_module`]: a visible skip, a failure under
//! `PITH_REQUIRE_TOOLS=1`) and a runner for the Python scripts that check outputs
//! ([`python`]), a bundle with a receipt signed by a test key
//! ([`signed_bundle`]), flate bombs ([`zlib::zeros_after`]) and small PDFs built to be expensive
//! ([`shapes`]), outside inputs that are not PDFs and PDFs whose text is expensive
//! ([`inputs`]), OpenTimestamps proofs built to be expensive and a stand-in calendar ([`ots`]),
//! and waits on events rather than the clock ([`wait`]).
//! It knows nothing of pith's
//! internals: tests check pith from outside.

use std::process::Command;

use serde_json::Value;

pub mod inputs;
pub mod ots;
pub mod shapes;
pub mod skips;
pub mod wait;
pub mod zlib;

/// Whether `PITH_REQUIRE_TOOLS=1` is set (CI): a missing tool is then a failure, not a SKIP.
pub fn tools_required() -> bool {
    std::env::var("PITH_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// What `test` needs is missing: a failure under `PITH_REQUIRE_TOOLS=1`, else a skip for
/// `reason`.
fn missing(test: &str, what: &str, reason: &str) {
    if tools_required() {
        panic!("{test}: required {what} is missing (PITH_REQUIRE_TOOLS=1)");
    }
    skips::skip(test, reason);
}

/// Whether the external program `name` can be run. When it cannot, prints a SKIP line naming
/// the test, or panics under `PITH_REQUIRE_TOOLS=1`.
pub fn have_tool(name: &str, test: &str) -> bool {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        missing(
            test,
            &format!("tool {name}"),
            &format!("{name} not installed"),
        );
    }
    found
}

/// Whether a Python module can be imported by `python3` (same SKIP/require rules as tools).
pub fn have_python_module(module: &str, test: &str) -> bool {
    if !have_tool("python3", test) {
        return false;
    }
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let reason = format!("python3 module {module} not installed");
        missing(test, &format!("Python module {module}"), &reason);
    }
    ok
}

/// Runs `python3 -c script` with `input` on standard input: its standard output, or its
/// standard error when it fails. Callers check [`have_python_module`] first.
pub fn python(script: &str, input: impl AsRef<[u8]>) -> Result<String, String> {
    use std::io::Write as _;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The public half (base64) of the key [`signed_bundle`] signs with.
pub fn test_key() -> String {
    data_encoding::BASE64.encode(signing_key().verifying_key().as_bytes())
}

fn signing_key() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[7u8; 32])
}

/// A receipt signature by the test key ([`test_key`]) over a canonical hash (64 hex digits),
/// base64, as a bundle's receipt carries it.
pub fn sign_hash(hash: &str) -> String {
    use ed25519_dalek::Signer;
    let digest = data_encoding::HEXLOWER_PERMISSIVE
        .decode(hash.as_bytes())
        .expect("64 hex digits");
    data_encoding::BASE64.encode(&signing_key().sign(&digest).to_bytes())
}

/// A bundle of `rec` (a published vector: `pith_number`, `canonical_record`,
/// `canonical_sha256`) with one receipt signed by a test key; returns the bundle and the
/// key's public half (base64), which a verifier must be given to accept the receipt.
pub fn signed_bundle(rec: &Value) -> (Value, String) {
    let hash = rec["canonical_sha256"]
        .as_str()
        .expect("a canonical_sha256");
    let sig = sign_hash(hash);
    let bundle = serde_json::json!({
        "bundle_type": "pith_open_graph_bundle",
        "bundle_version": "1.0",
        "pith_number": rec["pith_number"],
        "canonical_record": rec["canonical_record"],
        "canonical_sha256": hash,
        "events": [{"event_type": "record_created", "subject_pith_number": rec["pith_number"],
            "target": "record", "payload": {"canonical_record": rec["canonical_record"],
            "canonical_sha256": hash, "receipt": {"kind": "pith_receipt", "key_id": "test",
            "signature_b64": sig}}}]
    });
    (bundle, test_key())
}
