//! An OpenTimestamps proof raises a record to `anchored` only where the index checked it
//! against Bitcoin block headers: the proof of another record, OpenTimestamps' own proof of
//! another file (really anchored in block 358391), a proof ending at a root no header has, a
//! cut proof, or a header without the main chain's work each raise nothing: the page, the JSON
//! and the badge stay `computed`, and the build says why, one line each.
//!
//! A proof that does verify needs a block whose merkle root is the proof's end; no public block
//! commits to a test record, so that case mines a regression-test header (half of all hashes
//! meet its target) and builds the index through the library, the only way to hold headers to
//! that chain's rules: the command line holds them to the main chain's.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::{self, code, vectors, Server};

const MAGIC: &[u8] = b"\x00OpenTimestamps\x00\x00Proof\x00\xbf\x89\xe2\xe8\x84\xe8\x92\x94";
const BITCOIN: [u8; 8] = [0x05, 0x88, 0x96, 0x0d, 0x73, 0xd7, 0x19, 0x01];
const SALT: &[u8] = b"pith anchor test";
const HEIGHT: u32 = 4321;

/// A proof, written here byte by byte: from `digest`, append [`SALT`], SHA-256, and a Bitcoin
/// attestation of block [`HEIGHT`]; with the message it arrives at.
fn proof(digest: &[u8]) -> (Vec<u8>, [u8; 32]) {
    let mut p = MAGIC.to_vec();
    p.extend([0x01, 0x08]);
    p.extend(digest);
    p.extend([0xf0, SALT.len() as u8]);
    p.extend(SALT);
    p.push(0x08);
    p.push(0x00);
    p.extend(BITCOIN);
    // The payload: the height as LEB128, in a length-prefixed field.
    let mut h = Vec::new();
    let mut v = HEIGHT;
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            h.push(b);
            break;
        }
        h.push(b | 0x80);
    }
    p.push(h.len() as u8);
    p.extend(h);
    let root: [u8; 32] = Sha256::digest([digest, SALT].concat()).into();
    (p, root)
}

/// A regression-test header (bits 0x207fffff) with merkle root `root`, its nonce searched
/// until its hash is below the target.
fn regtest_header(root: &[u8; 32]) -> Vec<u8> {
    let mut h = Vec::with_capacity(80);
    h.extend(0x2000_0000u32.to_le_bytes());
    h.extend([0u8; 32]);
    h.extend(root);
    h.extend(1_700_000_000u32.to_le_bytes());
    h.extend(0x207f_ffffu32.to_le_bytes());
    h.extend(0u32.to_le_bytes());
    for nonce in 0u32.. {
        h[76..].copy_from_slice(&nonce.to_le_bytes());
        let hash = Sha256::digest(Sha256::digest(&h));
        // The target is 0x7fffff followed by 29 zero bytes; the hash is read little-endian.
        if hash[31] < 0x7f {
            return h;
        }
    }
    unreachable!()
}

fn digest_of(v: &Value) -> Vec<u8> {
    data_encoding::HEXLOWER
        .decode(v["canonical_sha256"].as_str().unwrap().as_bytes())
        .unwrap()
}

/// The status the page, the JSON and the badge give `c`, which must agree.
fn served_status(s: &Server, c: &str) -> (String, Value) {
    let json = s.get(&format!("/pith/{c}.json"), &[]).json();
    let status = json["status"].as_str().unwrap().to_owned();
    let badge = s.get(&format!("/badge/{c}.svg"), &[]).text();
    assert!(
        badge.contains(&format!(">{status}<")),
        "{c}: the badge says {status}"
    );
    let page = s
        .get(&format!("/pith/{c}"), &[("Accept", "text/html")])
        .text();
    assert!(
        page.contains(&format!("<span class=\"pill\">{status}</span>")),
        "{c}: the page says {status}"
    );
    (status, json)
}

/// The vectors, their records folder and an empty anchors folder in `dir`, and the codes of
/// the first five records.
fn five_records(dir: &Path) -> (Vec<Value>, PathBuf, PathBuf, Vec<String>) {
    let all = vectors();
    let records = common::records_dir(dir);
    let anchors = dir.join("anchors");
    std::fs::create_dir_all(&anchors).unwrap();
    let c = all[..5]
        .iter()
        .map(|v| code(v["pith_number"].as_str().unwrap()))
        .collect();
    (all, records, anchors, c)
}

#[test]
fn a_proof_that_does_not_verify_raises_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (all, records, anchors, c) = five_records(dir.path());
    let (of_first, root) = proof(&digest_of(&all[0]));
    // Record 1 given record 0's proof; record 2 given OpenTimestamps' proof of hello-world.txt,
    // anchored in block 358391 for real; record 3 its own proof, ending at a root no header
    // has; record 4 its own proof cut short; a file named after no number.
    std::fs::write(anchors.join(format!("{}.ots", c[1])), &of_first).unwrap();
    std::fs::copy(
        common::data("ots/hello-world.txt.ots"),
        anchors.join(format!("{}.ots", c[2])),
    )
    .unwrap();
    std::fs::write(
        anchors.join(format!("{}.ots", c[3])),
        proof(&digest_of(&all[3])).0,
    )
    .unwrap();
    let own = proof(&digest_of(&all[4])).0;
    std::fs::write(anchors.join(format!("{}.ots", c[4])), &own[..own.len() - 3]).unwrap();
    std::fs::write(anchors.join("notes.ots"), b"x").unwrap();
    // Record 0's own proof, with a header that has its root but not the main chain's work.
    std::fs::write(anchors.join(format!("{}.ots", c[0])), &of_first).unwrap();
    let real = common::data("ots/block-358391.hex");
    let easy = dir.path().join("easy.hex");
    std::fs::write(
        &easy,
        format!(
            "{}\n{}",
            std::fs::read_to_string(&real).unwrap().trim(),
            data_encoding::HEXLOWER.encode(&regtest_header(&root))
        ),
    )
    .unwrap();
    let index = dir.path().join("i.pith-index");
    let (r, a) = (records.to_str().unwrap(), anchors.to_str().unwrap());
    for headers in [real.as_path(), easy.as_path()] {
        let run = common::build_index(
            &index,
            &[
                "--records",
                r,
                "--anchors",
                a,
                "--headers",
                headers.to_str().unwrap(),
            ],
        );
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        let says = |file: &str, why: &str| {
            assert!(
                run.stderr
                    .lines()
                    .any(|l| l.contains(file) && l.contains(why)),
                "{file}: {why}: {}",
                run.stderr
            )
        };
        says(&format!("{}.ots", c[1]), "the proof is for");
        says(&format!("{}.ots", c[2]), "the proof is for 03ba204e");
        says("notes.ots", "not named");
        says(&format!("{}.ots", c[4]), "cut short");
        if headers == real.as_path() {
            says(&format!("{}.ots", c[3]), "which no header given has");
            says(&format!("{}.ots", c[0]), "which no header given has");
        } else {
            says(&format!("{}.ots", c[0]), "fails its proof of work");
        }
        let s = Server::start(&index, &[]);
        for code in &c {
            let (status, json) = served_status(&s, code);
            assert_eq!(status, "computed", "{code}");
            assert!(json["anchor"].is_null(), "{code}");
            assert_eq!(json["status_flags"]["anchored"], false);
        }
    }
}

#[test]
fn a_proof_that_verifies_makes_the_record_anchored() {
    let all = vectors();
    let dir = tempfile::tempdir().unwrap();
    let records = common::records_dir(dir.path());
    let anchors = dir.path().join("anchors");
    std::fs::create_dir_all(&anchors).unwrap();
    let c0 = code(all[0]["pith_number"].as_str().unwrap());
    let c1 = code(all[1]["pith_number"].as_str().unwrap());
    let (p, root) = proof(&digest_of(&all[0]));
    std::fs::write(anchors.join(format!("{c0}.ots")), &p).unwrap();
    let header = regtest_header(&root);
    let index = dir.path().join("i.pith-index");
    let build = |header: &[u8], fresh: bool| {
        let mut headers = pith::ots::Headers::new(pith::ots::Chain::Regtest);
        headers
            .push(None, pith::ots::BlockHeader::from_bytes(header).unwrap())
            .unwrap();
        let sources = pith_serve::index::Sources {
            records: vec![records.clone()],
            anchors: vec![anchors.clone()],
            headers,
            keys: pith::job::trusted_keys(&[]),
            ..Default::default()
        };
        let opts = pith_serve::index::BuildOptions {
            threads: 1,
            strict: false,
            fresh,
        };
        let mut lines = Vec::new();
        let counts =
            pith_serve::index::build(&index, &sources, opts, &mut |l| lines.push(l.to_owned()))
                .unwrap();
        (counts, lines)
    };
    let (counts, lines) = build(&header, true);
    assert_eq!((counts.anchors, counts.bad), (1, 0), "{lines:?}");
    let s = Server::start(&index, &[]);
    let (status, json) = served_status(&s, &c0);
    assert_eq!(status, "anchored");
    assert_eq!(json["anchor"]["height"], HEIGHT);
    assert_eq!(json["anchor"]["time"], 1_700_000_000u32);
    assert_eq!(json["anchor"]["time_utc"], "2023-11-14T22:13:20Z");
    let mut hash: Vec<u8> = Sha256::digest(Sha256::digest(&header)).to_vec();
    hash.reverse();
    assert_eq!(
        json["anchor"]["block_hash"],
        data_encoding::HEXLOWER.encode(&hash)
    );
    let page = s
        .get(&format!("/pith/{c0}"), &[("Accept", "text/html")])
        .text();
    assert!(page.contains(&format!(
        "anchored in Bitcoin block {HEIGHT} at 2023-11-14 22:13:20 (UTC)"
    )));
    assert_eq!(served_status(&s, &c1).0, "computed");
    drop(s);
    // The same proof against a header whose merkle root was changed: nothing is kept, and the
    // record it anchored before is computed again.
    let mut tampered = header.clone();
    tampered[40] ^= 1;
    let tampered = regtest_header(tampered[36..68].try_into().unwrap());
    let (counts, lines) = build(&tampered, false);
    assert_eq!((counts.anchors, counts.bad), (0, 1));
    assert!(lines[0].contains("which no header given has"), "{lines:?}");
    let s = Server::start(&index, &[]);
    assert_eq!(served_status(&s, &c0).0, "computed");
}

/// Proofs the index cannot check: one claiming a block the node does not have (height
/// 99999999, the node answers 404), one full of attestations, one claiming more blocks than a
/// proof may, a 2 GB file and a cut one. Each is reported in one line naming the file and the
/// reason, and skipped; the index is written with every record, under an address-space limit.
/// The node is asked once, for the one block a readable proof claims.
#[test]
fn a_proof_that_cannot_be_checked_is_reported_and_the_index_written() {
    use pith_testkit::ots::{self as shapes, StandIn};
    let test = "anchors::a_proof_that_cannot_be_checked_is_reported_and_the_index_written";
    if !pith_testkit::have_tool("prlimit", test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (all, records, anchors, c) = five_records(dir.path());
    let digest = |i: usize| -> [u8; 32] { digest_of(&all[i]).try_into().unwrap() };
    let file = |i: usize| anchors.join(format!("{}.ots", c[i]));
    std::fs::write(
        file(0),
        shapes::proof(&digest(0), &shapes::bitcoin(99_999_999)),
    )
    .unwrap();
    std::fs::write(
        file(1),
        shapes::many_attestations(&digest(1), 4321, 1 << 20),
    )
    .unwrap();
    std::fs::write(file(2), shapes::many_heights(&digest(2), 800_000, 17)).unwrap();
    std::fs::File::create(file(3))
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let own = proof(&digest_of(&all[4])).0;
    std::fs::write(file(4), &own[..own.len() - 3]).unwrap();
    let node = StandIn::start(|_, _| (404, Vec::new()));
    let api = format!("{}/api", node.url());
    let index = dir.path().join("i.pith-index");
    let pith = common::pith();
    let (r, a) = (records.to_str().unwrap(), anchors.to_str().unwrap());
    let cache = tempfile::tempdir().unwrap();
    let env = [
        ("PITH_BITCOIN_URL", api.as_str()),
        ("PITH_OTS_SPACING_MS", "0"),
        ("PITH_CACHE_DIR", cache.path().to_str().unwrap()),
    ];
    for headers in [None, Some("/dev/zero")] {
        let _ = std::fs::remove_file(&index);
        let mut args = vec![
            "--as=268435456",
            "--",
            pith.to_str().unwrap(),
            "index",
            "-o",
            index.to_str().unwrap(),
            "--records",
            r,
            "--anchors",
            a,
        ];
        if let Some(h) = headers {
            args.extend(["--headers", h]);
        }
        let run = common::run(std::path::Path::new("prlimit"), &args, &env);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        let says = |i: usize, why: &str| {
            let name = format!("{}.ots", c[i]);
            let lines: Vec<&str> = run.stderr.lines().filter(|l| l.contains(&name)).collect();
            assert_eq!(lines.len(), 1, "{name}: {}", run.stderr);
            assert!(lines[0].contains(why), "{name}: {why}: {}", run.stderr);
        };
        match headers {
            None => says(0, "the header of block 99999999 could not be had: http://"),
            Some(_) => says(0, "fails its proof of work"),
        }
        says(1, "more than 256 attestations");
        says(2, "more than 16 different Bitcoin blocks");
        says(3, "larger than 1 MiB, the most pith reads");
        says(4, "cut short");
        assert!(
            run.stderr.contains("5 input(s) could not be indexed"),
            "{}",
            run.stderr
        );
        let s = Server::start(&index, &[]);
        for code in &c {
            assert_eq!(served_status(&s, code).0, "computed", "{code}");
        }
    }
    assert_eq!(
        node.answered(),
        vec!["GET /api/block-height/99999999".to_owned()]
    );
}
