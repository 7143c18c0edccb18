//! Proofs, headers and calendar answers built to be expensive ([`pith_testkit::ots`]), through
//! `pith ots verify` and `pith ots upgrade` under an address-space limit: each ends in a
//! result or a one-line refusal naming the file and the limit, with what it held (peak RSS,
//! read by GNU time) under the per-file budget and the requests a stand-in answered counted.
//! Nothing here is timed.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use pith_testkit::ots::{self as shapes, StandIn};

use super::{header, ots, s};
use crate::common::{self, Run};

/// The address-space limit of every run, in MiB.
const AS_LIMIT_MB: u64 = 256;
/// What a run may hold at its peak, in KiB: the per-file budget.
const BUDGET_KIB: u64 = 128 << 10;
/// A hang guard for the test itself, wide enough for a debug build on a shared machine.
const WALL_KILL: Duration = Duration::from_secs(300);

/// A run, and its peak resident memory in KiB (`None` without GNU time).
struct Limited {
    run: Run,
    rss_kib: Option<u64>,
}

/// Runs pith with `args` under `ulimit -v` of [`AS_LIMIT_MB`], through GNU time when it is
/// installed, with no `PITH_*` variable but `env`, a fresh cache and no spacing.
fn limited(env: &[(&str, &str)], args: &[&str]) -> Limited {
    let times = tempfile::NamedTempFile::new().unwrap();
    let timed = Path::new("/usr/bin/time").exists();
    let mut c = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-o").arg(times.path()).args(["-f", "%M", "sh"]);
        c
    } else {
        pith_testkit::skips::skip("ots::hostile (peak memory)", "GNU time not installed");
        Command::new("sh")
    };
    c.arg("-c")
        .arg(format!(
            "ulimit -v {}; exec \"$0\" \"$@\"",
            AS_LIMIT_MB * 1024
        ))
        .arg(assert_cmd::cargo::cargo_bin!("pith"))
        .args(args);
    common::run::without_callers_env(&mut c)
        .env("PITH_CACHE_DIR", common::fresh_cache())
        .env("PITH_OTS_SPACING_MS", "0")
        .envs(env.iter().copied());
    let w = common::run::spawn_within(&mut c, None, WALL_KILL);
    let status = w
        .status
        .unwrap_or_else(|| panic!("pith {args:?} still running"));
    let report = std::fs::read_to_string(times.path()).unwrap_or_default();
    Limited {
        run: Run {
            code: status.code().unwrap_or(-1),
            stdout: w.stdout,
            // GNU time's own line, when the command failed, is not pith's.
            stderr: w
                .stderr
                .lines()
                .filter(|l| !l.starts_with("Command exited with non-zero status"))
                .map(|l| format!("{l}\n"))
                .collect(),
        },
        rss_kib: timed
            .then(|| report.lines().last()?.trim().parse().ok())
            .flatten(),
    }
}

/// Exit 2, one `pith: FILE: …` line saying `says`, nothing on standard output, within the
/// budget.
#[track_caller]
fn refused(l: &Limited, file: &Path, says: &str) {
    let r = &l.run;
    common::assert_one_line_error(r, s(file));
    assert!(r.stderr.starts_with(&format!("pith: {}", s(file))), "{r:?}");
    assert!(r.stderr.contains(says), "{says}: {r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
    within_budget(l);
}

/// `pith ots verify` of OpenTimestamps' own proof against `headers`.
fn verify_hello_world(headers: &Path) -> Limited {
    limited(
        &[],
        &[
            "ots",
            "verify",
            s(&ots("hello-world.txt.ots")),
            "--file",
            s(&ots("hello-world.txt")),
            "--headers",
            s(headers),
        ],
    )
}

#[track_caller]
fn within_budget(l: &Limited) {
    if let Some(kib) = l.rss_kib {
        assert!(kib <= BUDGET_KIB, "held {} MB: {:?}", kib >> 10, l.run);
    }
}

const DIGEST: [u8; 32] = [0x11; 32];

fn digest_hex() -> String {
    data_encoding::HEXLOWER.encode(&DIGEST)
}

/// `n` copies of block 358391's header (which carries its work) in a file.
fn headers_file(dir: &Path, n: usize) -> std::path::PathBuf {
    let path = dir.join(format!("headers-{n}.bin"));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    shapes::repeat_header(&header(), n, &mut f).unwrap();
    path
}

#[test]
fn a_proof_full_of_attestations_is_refused_before_a_header_is_compared() {
    let dir = common::tmpdir();
    let headers = headers_file(dir.path(), 100_000);
    // 1 MiB of Bitcoin attestations: 74,893 of them, none arriving at a header's root.
    let full = dir.path().join("full.ots");
    std::fs::write(&full, shapes::many_attestations(&DIGEST, 358391, 1 << 20)).unwrap();
    let d = digest_hex();
    let l = limited(
        &[],
        &[
            "ots",
            "verify",
            s(&full),
            "--digest",
            &d,
            "--headers",
            s(&headers),
        ],
    );
    refused(&l, &full, "more than 256 attestations");
    // The most a proof may hold is checked with one lookup each, against 100,000 headers.
    let most = dir.path().join("most.ots");
    let items = vec![shapes::bitcoin(358391); 256];
    std::fs::write(&most, shapes::proof(&DIGEST, &shapes::node(&items))).unwrap();
    let l = limited(
        &[],
        &[
            "ots",
            "verify",
            s(&most),
            "--digest",
            &d,
            "--headers",
            s(&headers),
        ],
    );
    refused(&l, &most, "for block 358391, which no header given has");
    // OpenTimestamps' own proof against the same 100,000 headers: anchored.
    let l = verify_hello_world(&headers);
    assert_eq!(l.run.code, 0, "{:?}", l.run);
    assert!(l.run.stdout.contains("anchored in Bitcoin block 358391"));
    within_budget(&l);
}

#[test]
#[ignore = "full tier (a 72 MB headers file: the whole chain's length)"]
fn the_whole_chain_of_headers_is_read_as_a_stream() {
    let dir = common::tmpdir();
    let headers = headers_file(dir.path(), 900_000);
    let l = verify_hello_world(&headers);
    assert_eq!(l.run.code, 0, "{:?}", l.run);
    within_budget(&l);
    // As many headers as are allowed, and one more: refused, naming the limit.
    let too_many = headers_file(dir.path(), 2_000_001);
    let l = verify_hello_world(&too_many);
    refused(&l, &too_many, "more than 2000000 block headers");
}

#[test]
fn a_proof_claiming_many_blocks_makes_no_request_for_them() {
    let node = StandIn::start(|_, _| (404, Vec::new()));
    let api = format!("{}/api", node.url());
    let env = [("PITH_BITCOIN_URL", api.as_str())];
    let dir = common::tmpdir();
    let d = digest_hex();
    for n in [74_889, 17] {
        let p = dir.path().join(format!("heights-{n}.ots"));
        std::fs::write(&p, shapes::many_heights(&DIGEST, 800_000, n)).unwrap();
        let l = limited(&env, &["ots", "verify", s(&p), "--digest", &d]);
        refused(&l, &p, "more than 16 different Bitcoin blocks");
    }
    assert_eq!(node.answered(), Vec::<String>::new());
    // Sixteen blocks the node does not have: one request each, and the reason.
    let p = dir.path().join("heights-16.ots");
    std::fs::write(&p, shapes::many_heights(&DIGEST, 99_999_984, 16)).unwrap();
    let l = limited(&env, &["ots", "verify", s(&p), "--digest", &d]);
    refused(&l, &p, "the header of block 99999984 could not be had: ");
    assert!(l.run.stderr.contains("not found (HTTP 404)"), "{:?}", l.run);
    assert_eq!(node.answered().len(), 16, "{:?}", node.answered());
}

#[test]
fn sizes_are_checked_before_reading() {
    let dir = common::tmpdir();
    let d = digest_hex();
    // 2 GB files that take no disk: their length is refused before a byte is read.
    let big = dir.path().join("big.ots");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let zero = Path::new("/dev/zero");
    for proof in [big.as_path(), zero] {
        let l = limited(&[], &["ots", "verify", s(proof), "--digest", &d]);
        refused(&l, proof, "larger than 1 MiB, the most pith reads");
        let l = limited(&[], &["ots", "upgrade", s(proof)]);
        refused(&l, proof, "larger than 1 MiB, the most pith reads");
    }
    let big_headers = dir.path().join("big.hex");
    std::fs::File::create(&big_headers)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let proof = ots("hello-world.txt.ots");
    let file = ots("hello-world.txt");
    let verify_with = |headers: &str| {
        let args = ["ots", "verify", s(&proof), "--file", s(&file)];
        limited(&[], &[&args[..], &["--headers", headers]].concat())
    };
    let l = verify_with(s(&big_headers));
    refused(&l, &big_headers, "larger than 400 MB, the most pith reads");
    // A device that never ends: its first header carries no work, which decides the check.
    let l = verify_with("/dev/zero");
    refused(&l, &proof, "fails its proof of work");
    // A line of text that never ends is refused at its first kilobyte.
    let long = dir.path().join("long.hex");
    std::fs::write(&long, "0".repeat(1 << 20)).unwrap();
    let l = verify_with(s(&long));
    refused(&l, &long, "line 1 is not a block header");
}

/// The message a pending proof of [`DIGEST`] is pending on: SHA-256 of the digest and "salt".
fn commitment() -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest([&DIGEST[..], b"salt"].concat()).to_vec()
}

/// A proof of [`DIGEST`] pending at `uri` on [`commitment`]; and `n` more pending attestations
/// on other messages.
fn pending_proof(uri: &str, others: usize) -> Vec<u8> {
    let mut items = vec![shapes::append(
        b"salt",
        &shapes::sha256(&shapes::pending(uri)),
    )];
    for i in 0..others {
        items.push(shapes::append(&[i as u8, 1], &shapes::pending(uri)));
    }
    shapes::proof(&DIGEST, &shapes::node(&items))
}

#[test]
fn upgrade_keeps_the_proof_when_a_calendar_answers_what_pith_refuses() {
    let answer = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
    let serve = answer.clone();
    let path = format!(
        "/timestamp/{}",
        data_encoding::HEXLOWER.encode(&commitment())
    );
    let calendar = StandIn::start(move |method, target| {
        if method == "GET" && target == path {
            (200, serve.lock().unwrap().clone())
        } else {
            (404, Vec::new())
        }
    });
    let uri = calendar.url();
    let env = [("PITH_OTS_CALENDARS", uri.as_str())];
    let dir = common::tmpdir();
    let proof = dir.path().join("p.ots");
    let original = pending_proof(&uri, 0);
    let end = shapes::bitcoin(900_000);
    let cases: [(&str, Vec<u8>, &str); 5] = [
        // 256 operations deep alone, 258 under the proof's two.
        (
            "deep",
            shapes::deep(256, &end),
            "left as it was: the proof asks for more than 256 operations in a row",
        ),
        // Bigger than a proof may be: not read past the limit.
        (
            "big",
            shapes::filled((1 << 20) + 4096, &end),
            "more than 1048576 bytes",
        ),
        // Within the limit alone, over it once merged into the proof.
        (
            "near the limit",
            shapes::filled((1 << 20) - 20, &end),
            "left as it was: the upgraded proof is larger than 1 MiB",
        ),
        // More operations than a proof may hold: 20 branches of 251.
        (
            "many operations",
            shapes::fan_out(20, &shapes::deep(250, &end)),
            "more than 4096 operations",
        ),
        // More attestations than a proof may hold, all at one node.
        (
            "fan-out",
            shapes::fan_out(5000, &end),
            "more than 256 attestations",
        ),
    ];
    let mut asked = 0;
    for (name, body, says) in cases {
        std::fs::write(&proof, &original).unwrap();
        *answer.lock().unwrap() = body;
        let l = limited(&env, &["ots", "upgrade", s(&proof)]);
        refused(&l, &proof, says);
        assert_eq!(std::fs::read(&proof).unwrap(), original, "{name}");
        asked += 1;
        assert_eq!(calendar.answered().len(), asked, "{name}");
    }
    // A wide answer within the limits is merged (one lookup per operation) and written.
    std::fs::write(&proof, &original).unwrap();
    *answer.lock().unwrap() = shapes::fan_out(255, &end);
    let l = limited(&env, &["ots", "upgrade", s(&proof)]);
    assert_eq!(l.run.code, 0, "{:?}", l.run);
    assert!(l.run.stdout.contains("completed 1 pending attestation"));
    within_budget(&l);
    let d = digest_hex();
    let l = limited(&[], &["ots", "verify", s(&proof), "--digest", &d]);
    refused(
        &l,
        &proof,
        "no block headers were given to check block 900000",
    );
    // A proof that would have pith ask a calendar more than 16 times asks none.
    let before = calendar.answered().len();
    let many = pending_proof(&uri, 16);
    std::fs::write(&proof, &many).unwrap();
    let l = limited(&env, &["ots", "upgrade", s(&proof)]);
    refused(&l, &proof, "17 requests to calendars, more than the 16");
    assert_eq!(calendar.answered().len(), before);
    assert_eq!(std::fs::read(&proof).unwrap(), many);
}
