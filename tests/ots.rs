//! `pith ots`: OpenTimestamps' own example proofs checked offline against Bitcoin block
//! 358391's public header (tests/data/ots/README.md): a complete proof, a pending one, a
//! tampered header, a proof for another digest, a proof ending at another merkle root; headers
//! from a file (raw or hex) or from a node's REST interface or an Esplora-style API; and a
//! proof made with a calendar and completed by it, both local stand-ins on 127.0.0.1.
//!
//! The expected block, time and hashes are not taken from pith: the test reads the header's
//! fields and hashes it itself (`sha2`), and the stand-in calendar serves pieces of
//! OpenTimestamps' own proof.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::http::{Reply, Request, Server};
use crate::common::{self, Run};

/// Proofs, headers and calendar answers built to be expensive, under an address-space limit.
mod hostile;

fn ots(name: &str) -> PathBuf {
    common::data("ots").join(name)
}

/// Runs pith with no PITH_* or proxy variable but `env`, and a fresh cache.
fn pith(env: &[(&str, &str)], args: &[&str]) -> Run {
    let cache = common::tmpdir();
    let own = [
        ("PITH_CACHE_DIR", cache.path().to_str().unwrap()),
        ("PITH_OTS_SPACING_MS", "0"),
    ];
    common::run::run_pith_in(&[&own[..], env].concat(), args)
}

/// Runs `pith ots verify PROOF` and then `args`, as [`pith`] does.
/// `pith ots verify PROOF --file FILE --headers HEADERS`, FILE one of the test files.
fn verify_file(proof: &Path, file: &str, headers: &Path) -> Run {
    verify(
        &[],
        proof,
        &["--file", s(&ots(file)), "--headers", s(headers)],
    )
}

fn verify(env: &[(&str, &str)], proof: &Path, args: &[&str]) -> Run {
    let mut a = vec!["ots", "verify", s(proof)];
    a.extend(args);
    pith(env, &a)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Block 358391's header, its bytes.
fn header() -> Vec<u8> {
    let text = std::fs::read_to_string(ots("block-358391.hex")).unwrap();
    data_encoding::HEXLOWER
        .decode(text.trim().as_bytes())
        .unwrap()
}

/// A block hash as explorers write it.
fn block_hash(h: &[u8]) -> String {
    let mut d: Vec<u8> = Sha256::digest(Sha256::digest(h)).to_vec();
    d.reverse();
    data_encoding::HEXLOWER.encode(&d)
}

/// The header's time, as the sentence writes it.
fn header_time(h: &[u8]) -> (u32, String) {
    let t = u32::from_le_bytes(h[68..72].try_into().unwrap());
    let utc = chrono::DateTime::from_timestamp(i64::from(t), 0).unwrap();
    (t, utc.format("%Y-%m-%d %H:%M:%S").to_string())
}

/// One line on standard error, `pith: PROOF: …`, nothing on standard output, exit 2.
fn refused(r: &Run, proof: &str, says: &str) {
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(r.stderr.starts_with(&format!("pith: {proof}")), "{r:?}");
    assert!(r.stderr.contains(says), "{r:?}");
}

#[test]
fn a_complete_proof_is_anchored_in_its_block() {
    let h = header();
    let (secs, when) = header_time(&h);
    let dir = common::tmpdir();
    let raw = dir.path().join("headers.bin");
    // The block's header among others: raw 80-byte headers, one after another.
    let mut other = h.clone();
    other[0] ^= 1;
    std::fs::write(&raw, [h.clone(), h.clone()].concat()).unwrap();
    let proof = ots("hello-world.txt.ots");
    for headers in [ots("block-358391.hex"), raw] {
        let r = verify_file(&proof, "hello-world.txt", &headers);
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(
            r.stdout,
            format!(
                "{}: anchored in Bitcoin block 358391 at {when} (UTC)\n",
                proof.display()
            )
        );
    }
    assert!(when.starts_with("2015-05-28"));
    let r = verify(
        &[],
        &proof,
        &[
            "--digest",
            "03ba204e50d126e4674c005e04d82e84c21366780af1f43bd54a37816b6ab340",
            "--headers",
            s(&ots("block-358391.hex")),
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["status"], "anchored");
    assert_eq!(v["height"], 358391);
    assert_eq!(v["time"], secs);
    assert_eq!(v["block_hash"], block_hash(&h));
    let mut root = h[36..68].to_vec();
    root.reverse();
    assert_eq!(v["merkle_root"], data_encoding::HEXLOWER.encode(&root));
}

#[test]
fn a_pending_proof_is_pending() {
    let r = verify_file(
        &ots("incomplete.txt.ots"),
        "incomplete.txt",
        &ots("block-358391.hex"),
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r
        .stdout
        .contains("pending (https://alice.btc.calendar.opentimestamps.org)"));
    let r = verify(
        &[],
        &ots("incomplete.txt.ots"),
        &["--file", s(&ots("incomplete.txt")), "--json"],
    );
    assert_eq!(r.code, 1, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["status"], "pending");
}

#[test]
fn a_tampered_header_is_refused() {
    let dir = common::tmpdir();
    let proof = ots("hello-world.txt.ots");
    // A changed nonce, and a changed merkle root: either way the hash no longer meets the
    // target.
    for (at, name) in [(79, "nonce"), (40, "root")] {
        let mut h = header();
        h[at] ^= 0x01;
        let path = dir.path().join(format!("{name}.bin"));
        std::fs::write(&path, &h).unwrap();
        let r = verify_file(&proof, "hello-world.txt", &path);
        refused(
            &r,
            s(&proof),
            &format!("block header {} fails its proof of work", block_hash(&h)),
        );
    }
    // A header of easier bits than Bitcoin allows carries no work, whatever its hash.
    let mut h = header();
    h[72..76].copy_from_slice(&0x2100ffffu32.to_le_bytes());
    let path = dir.path().join("easy.bin");
    std::fs::write(&path, &h).unwrap();
    let r = verify_file(&proof, "hello-world.txt", &path);
    refused(&r, s(&proof), "fails its proof of work");
}

#[test]
fn a_proof_for_another_digest_is_refused() {
    let proof = ots("hello-world.txt.ots");
    let other = Sha256::digest(std::fs::read(ots("bad-stamp.txt")).unwrap());
    let r = verify_file(&proof, "bad-stamp.txt", &ots("block-358391.hex"));
    refused(
        &r,
        s(&proof),
        &format!("not {}", data_encoding::HEXLOWER.encode(&other)),
    );
    // A number names the digest by its first 130 bits: another number is another digest.
    let r = verify(
        &[],
        &proof,
        &[
            "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5",
            "--headers",
            s(&ots("block-358391.hex")),
        ],
    );
    refused(&r, s(&proof), "not 7BMK4ZKTPUTUY3JKWBANNPOFR5");
}

#[test]
fn a_proof_ending_at_another_root_is_refused() {
    // bad-stamp claims block 358391, but its operations arrive elsewhere.
    let proof = ots("bad-stamp.txt.ots");
    let r = verify_file(&proof, "bad-stamp.txt", &ots("block-358391.hex"));
    refused(&r, s(&proof), "for block 358391, which no header given has");
    // Without headers a Bitcoin attestation cannot be checked: refused, never anchored.
    let r = verify(
        &[],
        &ots("hello-world.txt.ots"),
        &["--file", s(&ots("hello-world.txt"))],
    );
    refused(&r, s(&ots("hello-world.txt.ots")), "--headers FILE");
}

#[test]
fn damaged_proofs_and_headers_are_one_line_errors() {
    let dir = common::tmpdir();
    let cut = dir.path().join("cut.ots");
    let bytes = std::fs::read(ots("hello-world.txt.ots")).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let junk = dir.path().join("junk.hex");
    std::fs::write(&junk, "not a header\n").unwrap();
    let digest = "03ba204e50d126e4674c005e04d82e84c21366780af1f43bd54a37816b6ab340";
    for (proof, headers, says) in [
        (
            ots("bad-major-version.ots"),
            ots("block-358391.hex"),
            "version",
        ),
        (
            ots("invalid-file-digest-type.ots"),
            ots("block-358391.hex"),
            "is not a hash",
        ),
        (cut.clone(), ots("block-358391.hex"), "cut short"),
        (
            ots("hello-world.txt"),
            ots("block-358391.hex"),
            "not an OpenTimestamps proof",
        ),
        (ots("hello-world.txt.ots"), junk.clone(), "junk.hex"),
    ] {
        let r = verify(&[], &proof, &["--digest", digest, "--headers", s(&headers)]);
        assert_eq!(r.code, 2, "{r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
        assert!(r.stderr.contains(says), "{says}: {r:?}");
        assert!(r.stdout.is_empty(), "{r:?}");
    }
    let r = verify(
        &[],
        &ots("unknown-notary.txt.ots"),
        &["--file", s(&ots("unknown-notary.txt"))],
    );
    refused(
        &r,
        s(&ots("unknown-notary.txt.ots")),
        "no Bitcoin or pending attestation",
    );
}

/// A Bitcoin API on 127.0.0.1 that knows block 358391: Esplora's paths, or a node's REST
/// interface's under `/rest`; `lie` serves another header for the block.
fn bitcoin(lie: bool) -> Server {
    let h = header();
    let hash = block_hash(&h);
    let served = if lie {
        let mut o = h.clone();
        o[79] ^= 1;
        o
    } else {
        h
    };
    let hex = data_encoding::HEXLOWER.encode(&served);
    Server::start(move |r: &Request, _| {
        let t = r.target.as_str();
        if t == "/api/block-height/358391" || t == "/rest/blockhashbyheight/358391.hex" {
            Reply::ok(format!("{hash}\n"))
        } else if t == format!("/api/block/{hash}/header")
            || t == format!("/rest/headers/{hash}.hex?count=1")
        {
            Reply::ok(hex.clone())
        } else {
            Reply::status(404)
        }
    })
}

#[test]
fn headers_from_a_node_or_an_esplora_api() {
    let server = bitcoin(false);
    let proof = ots("hello-world.txt.ots");
    for path in ["/api", "/rest"] {
        let url = format!("{}{path}", server.url());
        let r = verify(
            &[("PITH_BITCOIN_URL", &url)],
            &proof,
            &["--file", s(&ots("hello-world.txt"))],
        );
        assert_eq!(r.code, 0, "{r:?}");
        assert!(
            r.stdout
                .contains("anchored in Bitcoin block 358391 at 2015-05-28"),
            "{r:?}"
        );
    }
    assert_eq!(server.requests().len(), 4);
    // A server answering another header for the block is not believed.
    let liar = bitcoin(true);
    let r = verify(
        &[("PITH_BITCOIN_URL", &format!("{}/api", liar.url()))],
        &proof,
        &["--file", s(&ots("hello-world.txt"))],
    );
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not the header of block"), "{r:?}");
}

/// hello-world's proof cut after its first `n` operations: the bytes of those operations
/// (the proof's tree starts at byte 65) and of the rest, and the message they arrive at.
fn split(n: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let bytes = std::fs::read(ots("hello-world.txt.ots")).unwrap();
    let mut msg = bytes[33..65].to_vec();
    let mut at = 65;
    for _ in 0..n {
        match bytes[at] {
            0xf0 | 0xf1 => {
                // The length, one or two bytes of LEB128.
                let (len, head) = match bytes[at + 1] {
                    b if b < 0x80 => (b as usize, 2),
                    b => {
                        assert!(bytes[at + 2] < 0x80);
                        ((b & 0x7f) as usize | (bytes[at + 2] as usize) << 7, 3)
                    }
                };
                let arg = &bytes[at + head..at + head + len];
                msg = if bytes[at] == 0xf0 {
                    [&msg[..], arg].concat()
                } else {
                    [arg, &msg[..]].concat()
                };
                at += head + len;
            }
            0x08 => {
                msg = Sha256::digest(&msg).to_vec();
                at += 1;
            }
            0x03 => {
                msg = ripemd::Ripemd160::digest(&msg).to_vec();
                at += 1;
            }
            t => panic!("operation 0x{t:02x}"),
        }
    }
    (bytes[65..at].to_vec(), bytes[at..].to_vec(), msg)
}

#[test]
fn stamp_upgrade_verify_with_a_calendar() {
    let (head, tail, commitment) = split(6);
    let asked = Arc::new(Mutex::new(Vec::<Vec<u8>>::new()));
    let seen = asked.clone();
    let url = Arc::new(Mutex::new(String::new()));
    let me = url.clone();
    let calendar = Server::start(move |r: &Request, _| {
        let uri = me.lock().unwrap().clone();
        if r.method == "POST" && r.target == "/digest" {
            seen.lock().unwrap().push(r.body.clone());
            // The first operations, then a pending attestation naming this calendar.
            let mut t = head.clone();
            t.push(0x00);
            t.extend([0x83, 0xdf, 0xe3, 0x0d, 0x2e, 0xf9, 0x0c, 0x8e]);
            t.push(uri.len() as u8 + 1);
            t.push(uri.len() as u8);
            t.extend(uri.as_bytes());
            Reply::ok(t)
        } else if r.method == "GET"
            && r.target == format!("/timestamp/{}", data_encoding::HEXLOWER.encode(&commitment))
        {
            Reply::ok(tail.clone())
        } else {
            Reply::status(404)
        }
    });
    *url.lock().unwrap() = calendar.url();
    let down = "http://127.0.0.1:9";
    let calendars = format!("{},{down}", calendar.url());
    let env = [("PITH_OTS_CALENDARS", calendars.as_str())];
    let dir = common::tmpdir();
    let file = dir.path().join("hello-world.txt");
    std::fs::copy(ots("hello-world.txt"), &file).unwrap();
    let r = pith(&env, &["ots", "stamp", "--file", s(&file)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("calendar {down} did not answer")),
        "{r:?}"
    );
    let proof = dir.path().join("hello-world.txt.ots");
    assert_eq!(
        asked.lock().unwrap().as_slice(),
        &[Sha256::digest(std::fs::read(&file).unwrap()).to_vec()]
    );
    let hex = ots("block-358391.hex");
    let verify_file = |extra: &[&str]| {
        let mut a = vec!["--file", s(&file), "--headers", s(&hex)];
        a.extend(extra);
        verify(&env, &proof, &a)
    };
    let r = verify_file(&[]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(&format!("pending ({})", calendar.url())),
        "{r:?}"
    );
    // A calendar not on the list is never asked, whatever the proof names.
    let r = pith(
        &[("PITH_OTS_CALENDARS", "http://127.0.0.1:1")],
        &["ots", "upgrade", s(&proof)],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("not asking"), "{r:?}");
    assert!(!calendar.requests().iter().any(|q| q.method == "GET"));
    let r = pith(&env, &["ots", "upgrade", s(&proof)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("completed 1 pending attestation"),
        "{r:?}"
    );
    // The completed proof is OpenTimestamps' own, byte for byte.
    assert_eq!(
        std::fs::read(&proof).unwrap(),
        std::fs::read(ots("hello-world.txt.ots")).unwrap()
    );
    let r = verify_file(&[]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("anchored in Bitcoin block 358391"),
        "{r:?}"
    );
}

#[test]
fn a_calendar_that_has_nothing_yet_leaves_the_proof_pending() {
    let calendar = pending_calendar();
    let env = [("PITH_OTS_CALENDARS", calendar.url())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let dir = common::tmpdir();
    let proof = dir.path().join("p.ots");
    let digest = "ab".repeat(32);
    let r = pith(
        &env,
        &["ots", "stamp", "--digest", &digest, "-o", s(&proof)],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let bytes = std::fs::read(&proof).unwrap();
    let r = pith(&env, &["ots", "upgrade", s(&proof)]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("pending"), "{r:?}");
    assert_eq!(std::fs::read(&proof).unwrap(), bytes);
    let r = verify(&env, &proof, &["--digest", &digest]);
    assert_eq!(r.code, 1, "{r:?}");
    // A calendar answering something other than a timestamp: nothing is written.
    let junk = Server::start(|_: &Request, _| Reply::ok("<html>"));
    let out = dir.path().join("x.ots");
    let r = pith(
        &[("PITH_OTS_CALENDARS", &junk.url())],
        &["ots", "stamp", "--digest", &digest, "-o", s(&out)],
    );
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(!out.exists());
}

#[test]
fn a_number_or_a_record_is_stamped_as_its_records_sha256() {
    let vectors: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(common::data("records.json")).unwrap())
            .unwrap();
    let v = vectors
        .iter()
        .find(|v| v.get("variant_of").is_none())
        .unwrap()
        .clone();
    let number = v["pith_number"].as_str().unwrap().to_owned();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let want = data_encoding::HEXLOWER
        .decode(v["canonical_sha256"].as_str().unwrap().as_bytes())
        .unwrap();
    let record = v["canonical_record"].to_string();
    let path = format!("/pith/{code}.json");
    let resolver = Server::start(move |r: &Request, _| {
        if r.target == path {
            Reply::ok(record.clone())
        } else {
            Reply::status(404)
        }
    });
    let asked = Arc::new(Mutex::new(Vec::<Vec<u8>>::new()));
    let seen = asked.clone();
    let calendar = Server::start(move |r: &Request, _| {
        seen.lock().unwrap().push(r.body.clone());
        // A pending attestation right on the digest.
        let uri = b"http://127.0.0.1:9";
        let mut t = vec![0x00, 0x83, 0xdf, 0xe3, 0x0d, 0x2e, 0xf9, 0x0c, 0x8e];
        t.push(uri.len() as u8 + 1);
        t.push(uri.len() as u8);
        t.extend(uri);
        Reply::ok(t)
    });
    let dir = common::tmpdir();
    let file = dir.path().join("record.json");
    std::fs::write(&file, v["canonical_record"].to_string()).unwrap();
    let (res, cal) = (resolver.url(), calendar.url());
    let env = [
        ("PITH_RESOLVER_URL", res.as_str()),
        ("PITH_RESOLVER_SPACING_MS", "0"),
        ("PITH_OTS_CALENDARS", cal.as_str()),
    ];
    let by_number = dir.path().join("n.ots");
    let r = pith(&env, &["ots", "stamp", &number, "-o", s(&by_number)]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = pith(
        &env,
        &["ots", "stamp", s(&file), "-o", s(&dir.path().join("r.ots"))],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(asked.lock().unwrap().as_slice(), &[want.clone(), want]);
    // Checked against the number alone, offline: the proof's digest is the number's.
    let r = verify(&[], &by_number, &[&number, "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        serde_json::from_str::<Value>(&r.stdout).unwrap()["status"],
        "pending"
    );
}

/// A calendar on 127.0.0.1 that puts every digest it is sent pending at itself, and has no
/// completion for any: the proofs it makes are pending.
fn pending_calendar() -> Server {
    let url = Arc::new(Mutex::new(String::new()));
    let me = url.clone();
    let calendar = Server::start(move |r: &Request, _| {
        let uri = me.lock().unwrap().clone();
        match (r.method.as_str(), r.target.as_str()) {
            ("POST", "/digest") => {
                let mut t = vec![0x00, 0x83, 0xdf, 0xe3, 0x0d, 0x2e, 0xf9, 0x0c, 0x8e];
                t.push(uri.len() as u8 + 1);
                t.push(uri.len() as u8);
                t.extend(uri.as_bytes());
                Reply::ok(t)
            }
            _ => Reply::status(404),
        }
    });
    *url.lock().unwrap() = calendar.url();
    calendar
}

/// Where a proof goes and where it comes from are the request's (`job::ots`): `-o FOLDER/`
/// takes the default name inside it (its missing folders made), `-o -` is standard output
/// (the line then on standard error), `--file -` hashes standard input, `verify -` and
/// `--headers -` read it; `--json` prints each report. The same digest, stamped as a digest
/// or as a file's bytes, gives the same proof.
#[test]
fn proofs_go_to_folders_and_standard_streams() {
    let calendar = pending_calendar();
    let cal = calendar.url();
    let file = ots("hello-world.txt");
    let text = std::fs::read(&file).unwrap();
    let digest = data_encoding::HEXLOWER.encode(&Sha256::digest(&text));
    let dir = common::tmpdir();
    let run = |args: &[&str], stdin: Option<&[u8]>| {
        let mut c = common::pith();
        c.current_dir(dir.path())
            .env("PITH_OTS_CALENDARS", &cal)
            .env("PITH_OTS_SPACING_MS", "0")
            .args(args);
        if let Some(b) = stdin {
            c.write_stdin(b.to_vec());
        }
        c.output().unwrap()
    };
    let into = run(
        &["ots", "stamp", "--digest", &digest, "-o", "deep/er/"],
        None,
    );
    assert!(into.status.success(), "{into:?}");
    let named = dir.path().join(format!("deep/er/{digest}.ots"));
    let proof = std::fs::read(&named).unwrap();
    let piped = run(&["ots", "stamp", "--file", "-", "-o", "-"], Some(&text));
    assert!(piped.status.success(), "{piped:?}");
    assert_eq!(piped.stdout, proof, "the proof on standard output");
    let said = String::from_utf8_lossy(&piped.stderr);
    assert!(said.starts_with("-: pending at 1 calendar ("), "{said}");
    let json = run(
        &["ots", "stamp", "--json", "--file", s(&file), "-o", "p.ots"],
        None,
    );
    assert!(json.status.success(), "{json:?}");
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["proof"], "p.ots");
    assert_eq!(v["digest"], digest.as_str());
    assert_eq!(v["calendars"], serde_json::json!([cal]));
    assert_eq!(v["failed"], serde_json::json!([]));
    assert_eq!(std::fs::read(dir.path().join("p.ots")).unwrap(), proof);
    // Read back from standard input: the proof, the file, the headers.
    let headers = std::fs::read(ots("block-358391.hex")).unwrap();
    for (args, stdin) in [
        (vec!["ots", "verify", "-", "--digest", &digest], &proof),
        (vec!["ots", "verify", "p.ots", "--file", "-"], &text),
        (
            vec![
                "ots",
                "verify",
                "p.ots",
                "--digest",
                &digest,
                "--headers",
                "-",
            ],
            &headers,
        ),
    ] {
        let r = run(&args, Some(stdin));
        assert_eq!(r.status.code(), Some(1), "{args:?}: {r:?}");
        let out = String::from_utf8_lossy(&r.stdout);
        assert!(out.contains(&format!("pending ({cal})")), "{args:?}: {out}");
    }
    let up = run(&["ots", "upgrade", "p.ots", "--json"], None);
    assert_eq!(up.status.code(), Some(1), "{up:?}");
    let v: Value = serde_json::from_slice(&up.stdout).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["completed"].as_u64()),
        (Some("pending"), Some(0))
    );
    // The file hashed is bounded in time as every file read is: past it, kind over_time and
    // nothing written.
    let slow = run(
        &[
            "ots",
            "stamp",
            "--file",
            "/dev/zero",
            "--file-timeout",
            "0.2",
            "-o",
            "z.ots",
            "--json",
        ],
        None,
    );
    assert_eq!(slow.status.code(), Some(2), "{slow:?}");
    let v: Value = serde_json::from_slice(&slow.stdout).unwrap();
    assert_eq!(v["kind"], "over_time", "{v}");
    assert!(!dir.path().join("z.ots").exists());
}
