//! Encrypted PDFs (part 3): files qpdf and pikepdf encrypt with every revision they
//! write (R2 RC4-40, R3 RC4-128, R4 RC4-128 and AES-128 with and without metadata encryption,
//! R5 and R6 AES-256), with an empty user password and an owner password, are injected and
//! checked with tools we did not write: `qpdf --check`, `qpdf --show-encryption` (unchanged),
//! `qpdf --decrypt` (page text unchanged, number present), pikepdf (number back, every other
//! object unchanged, same encryption and /ID), pdfinfo and exiftool (number back). Files that
//! need a user password are refused unless it (or the owner password) is given. The shared
//! corpus's encrypted files are counted: injected / refused by reason / failed.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const CODE: &str = "7BMK4ZKTPUTUY3JKWBANNPOFR5";

/// Runs `pith inject IN --number A -o OUT [extra]`: (exit code, stdout, stderr).
fn inject(input: &Path, out: &Path, extra: &[&str]) -> (i32, String, String) {
    common::inject(input, A, out, extra)
}

fn tools(test: &str) -> bool {
    common::have_tool("qpdf", test)
        & common::have_tool("pdfinfo", test)
        & common::have_tool("pdftotext", test)
        & common::have_tool("exiftool", test)
        & common::have_python_module("pikepdf", test)
}

fn run_ok(program: &str, args: &[&str]) -> String {
    let (ok, out, err) = common::run(program, args, None);
    assert!(ok, "{program} {args:?} failed: {out} {err}");
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every check of one injected encrypted file; `pw` is the password the tools need;
/// `metadata_clear`: the file keeps its metadata (or all strings) in clear, so the number may
/// be seen in the update's bytes.
fn check_injected(name: &str, input: &Path, out: &Path, pw: &str, metadata_clear: bool) {
    let before = std::fs::read(input).unwrap();
    let after = std::fs::read(out).unwrap();
    assert!(
        after.len() > before.len() && after[..before.len()] == before[..],
        "{name}: the input is not a prefix of the output"
    );
    // The appended bytes never show the number in clear, except in an XMP packet the file
    // keeps in clear (/EncryptMetadata false).
    let tail = &after[before.len()..];
    let clear = tail.windows(CODE.len()).any(|w| w == CODE.as_bytes());
    assert_eq!(
        clear, metadata_clear,
        "{name}: number in clear in the update"
    );

    let pw_arg = format!("--password={pw}");
    let (ok, stdout, stderr) = common::run("qpdf", &[&pw_arg, "--check", s(out)], None);
    assert!(
        ok && stdout.contains("No syntax or stream encoding errors")
            && !stdout.contains("WARNING")
            && stderr.is_empty(),
        "{name}: qpdf --check: {stdout} {stderr}"
    );
    let enc_in = run_ok("qpdf", &[&pw_arg, "--show-encryption", s(input)]);
    let enc_out = run_ok("qpdf", &[&pw_arg, "--show-encryption", s(out)]);
    assert_eq!(enc_in, enc_out, "{name}: qpdf --show-encryption changed");

    // pikepdf: number back, same encryption and /ID, every other object unchanged.
    let script = common::fixture("encrypted").join("check_update.py");
    let (ok, o, e) = common::run("python3", &[s(&script), s(input), s(out), A, pw], None);
    assert!(ok && o.starts_with("ok"), "{name}: pikepdf: {o} {e}");

    // qpdf --decrypt, then the clear files: same page text, number in Info and XMP.
    let dir = out.parent().unwrap();
    let (din, dout) = (dir.join("dec-in.pdf"), dir.join("dec-out.pdf"));
    run_ok("qpdf", &[&pw_arg, "--decrypt", s(input), s(&din)]);
    run_ok("qpdf", &[&pw_arg, "--decrypt", s(out), s(&dout)]);
    let text_in = run_ok("pdftotext", &[s(&din), "-"]);
    let text_out = run_ok("pdftotext", &[s(&dout), "-"]);
    assert_eq!(text_in, text_out, "{name}: page text changed");
    for (file, upw) in [(&dout, None), (&out.to_path_buf(), Some(pw))] {
        let mut args = vec!["-custom"];
        let pw_arg;
        if let Some(p) = upw.filter(|p| !p.is_empty()) {
            pw_arg = p.to_string();
            args.extend([if p == "owner" { "-opw" } else { "-upw" }, &pw_arg]);
        }
        args.push(s(file));
        let info = run_ok("pdfinfo", &args);
        assert!(
            info.lines()
                .any(|l| l.starts_with("PithNumber:") && l.ends_with(A)),
            "{name}: pdfinfo -custom {}: {info}",
            file.display()
        );
        // Poppler decrypts a metadata stream that /EncryptMetadata false leaves in clear
        // (it garbles the input's packet the same way), so -meta is read from the clear copy.
        if upw.is_none() || !metadata_clear {
            args[0] = "-meta";
            let meta = run_ok("pdfinfo", &args);
            assert!(meta.contains(A), "{name}: pdfinfo -meta {}", file.display());
        }
    }
    if pw.is_empty() {
        let exif = run_ok(
            "exiftool",
            &[
                "-s",
                "-s",
                "-s",
                "-PithNumber",
                "-XMP-xmp:Identifier",
                s(out),
            ],
        );
        assert_eq!(
            exif.lines().collect::<Vec<_>>(),
            [A, &A["pith:".len()..]],
            "{name}: exiftool: {exif}"
        );
    }

    // pith reads its own update back, and a second run changes nothing.
    let mut cmd = common::pith();
    cmd.args(["inspect", "--json", "--number", A]).arg(out);
    if !pw.is_empty() {
        cmd.args(["--password", pw]);
    }
    let o = cmd.output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(o.status.success(), "{name}: inspect {v}");
    assert_eq!(v["number"], A, "{name}: {v}");
    assert_eq!(v["consistent"], true, "{name}: {v}");
    assert!(v["encryption"]
        .as_str()
        .is_some_and(|e| e.starts_with("Standard R")));
    let again = dir.join("again.pdf");
    let extra: Vec<&str> = if pw.is_empty() {
        vec![]
    } else {
        vec!["--password", pw]
    };
    let (code, stdout, stderr) = inject(out, &again, &extra);
    assert_eq!(code, 0, "{name}: re-inject: {stderr}");
    assert!(stdout.contains("unchanged"), "{name}: re-inject: {stdout}");
    assert_eq!(
        std::fs::read(&again).unwrap(),
        after,
        "{name}: re-inject wrote bytes"
    );
}

/// (name, qpdf --encrypt arguments after the passwords, metadata left in clear).
const QPDF_VARIANTS: [(&str, &[&str], bool); 8] = [
    ("R2 RC4-40", &["40"], false),
    ("R3 RC4-128", &["128", "--use-aes=n"], false),
    ("R4 RC4-128", &["128", "--use-aes=n", "--force-V4"], false),
    ("R4 AES-128", &["128", "--use-aes=y"], false),
    (
        "R4 AES-128 clear metadata",
        &["128", "--use-aes=y", "--cleartext-metadata"],
        true,
    ),
    ("R5 AES-256", &["256", "--force-R5"], false),
    ("R6 AES-256", &["256"], false),
    (
        "R6 AES-256 clear metadata",
        &["256", "--cleartext-metadata"],
        true,
    ),
];

/// Sources: the small fixture source (no object streams) and the example paper with its
/// catalog and Info in object streams (their strings are clear inside the encrypted stream,
/// so the update must encrypt them when it writes them as plain objects).
fn sources() -> [(&'static str, PathBuf, &'static [&'static str]); 2] {
    [
        (
            "fixture",
            common::fixture("encrypted").join("source.pdf"),
            &["--object-streams=disable"][..],
        ),
        (
            "paper",
            common::root().join("examples/2402.03791v3.pdf"),
            &["--object-streams=generate"][..],
        ),
    ]
}

#[test]
#[ignore = "full tier (a long matrix or property run): cargo test -- --include-ignored"]
fn qpdf_encrypted_every_revision() {
    if !tools("qpdf_encrypted_every_revision") {
        return;
    }
    for (src_name, src, layout) in sources() {
        for (variant, args, clear) in QPDF_VARIANTS {
            let name = format!("qpdf {variant}, {src_name}");
            let dir = tempfile::tempdir().unwrap();
            let input = dir.path().join("in.pdf");
            let mut a = vec!["--allow-weak-crypto"];
            a.extend_from_slice(layout);
            a.extend([s(&src), "--encrypt", "", "owner"]);
            a.extend_from_slice(args);
            a.extend(["--", s(&input)]);
            run_ok("qpdf", &a);
            injects_and_checks(&name, &input, dir.path(), clear);
        }
    }
}

/// Injects `input` (opened with the empty password) into `dir/out.pdf` and checks the output
/// ([`check_injected`], the metadata left in clear or not as `clear` says).
fn injects_and_checks(name: &str, input: &Path, dir: &Path, clear: bool) {
    let out = dir.join("out.pdf");
    let (code, stdout, stderr) = inject(input, &out, &[]);
    assert_eq!(code, 0, "{name}: {stdout} {stderr}");
    check_injected(name, input, &out, "", clear);
    eprintln!("ok {name}");
}

#[test]
#[ignore = "full tier (a long matrix or property run): cargo test -- --include-ignored"]
fn pikepdf_encrypted() {
    if !tools("pikepdf_encrypted") {
        return;
    }
    // (name, pikepdf.Encryption arguments, metadata left in clear)
    let variants = [
        // pikepdf refuses AES and metadata=True below R4 (R3 encrypts everything anyway).
        ("R3 RC4-128", "R=3, aes=False, metadata=False", false),
        ("R4 AES-128", "R=4, aes=True", false),
        (
            "R4 AES-128 clear metadata",
            "R=4, aes=True, metadata=False",
            true,
        ),
        ("R6 AES-256", "R=6", false),
    ];
    for (variant, enc, clear) in variants {
        let name = format!("pikepdf {variant}");
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pdf");
        let src = common::root().join("examples/2402.03791v3.pdf");
        let code = format!(
            "import pikepdf, sys\n\
             p = pikepdf.open(sys.argv[1])\n\
             p.save(sys.argv[2], encryption=pikepdf.Encryption(owner='owner', user='', {enc}))"
        );
        run_ok("python3", &["-c", &code, s(&src), s(&input)]);
        injects_and_checks(&name, &input, dir.path(), clear);
    }
}

/// Crypt filters from qpdf's test suite (tests/fixtures/encrypted/qpdf-*.pdf): `/StmF` and
/// `/StrF` `/Identity` with streams that name `/StdCF` through a `/Crypt` filter (AES-256,
/// user password `asdfqwer`), and an RC4 file whose metadata stream has a `/Crypt /Identity`
/// filter under `/EncryptMetadata false`. The Identity methods leave the new strings and
/// packet in clear, as the files say; everything else is checked as for the other files.
#[test]
fn qpdf_crypt_filter_files() {
    if !tools("qpdf_crypt_filter_files") {
        return;
    }
    for (file, pw) in [
        ("qpdf-nontrivial-crypt-filter.pdf", "asdfqwer"),
        ("qpdf-metadata-crypt-filter.pdf", ""),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let input = common::fixture("encrypted").join(file);
        let out = dir.path().join("out.pdf");
        let extra: Vec<&str> = if pw.is_empty() {
            vec![]
        } else {
            vec!["--password", pw]
        };
        let (code, stdout, stderr) = inject(&input, &out, &extra);
        assert_eq!(code, 0, "{file}: {stdout} {stderr}");
        check_injected(file, &input, &out, pw, true);
    }
}

#[test]
fn user_password_needed() {
    if !tools("user_password_needed") {
        return;
    }
    for (variant, bits) in [
        ("R4 AES-128", ["128", "--use-aes=y"]),
        ("R6 AES-256", ["256", ""]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pdf");
        let src = common::fixture("encrypted").join("source.pdf");
        let mut a = vec![s(&src), "--encrypt", "user", "owner"];
        a.extend(bits.iter().filter(|b| !b.is_empty()));
        a.extend(["--", s(&input)]);
        run_ok("qpdf", &a);
        let before = std::fs::read(&input).unwrap();
        let out = dir.path().join("out.pdf");
        // Without a password, and with a wrong one: one line naming the file, exit 2, nothing
        // written.
        for (extra, says) in [
            (&[][..], "--password"),
            (
                &["--password", "guess"][..],
                "neither its user nor its owner password",
            ),
        ] {
            let (code, _, stderr) = inject(&input, &out, extra);
            assert_eq!(code, 2, "{variant}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains(s(&input)) && stderr.contains("encrypted") && stderr.contains(says),
                "{variant}: {stderr}"
            );
            assert!(!out.exists());
            assert_eq!(std::fs::read(&input).unwrap(), before);
        }
        // inspect says why it read nothing, without calling the file consistent.
        let o = common::pith()
            .args(["inspect", "--json"])
            .arg(&input)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(
            v["not_read"]
                .as_str()
                .is_some_and(|m| m.contains("password")),
            "{v}"
        );
        assert_eq!(v["consistent"], serde_json::Value::Null, "{v}");
        // The user password, and the owner password from a file, open it.
        let (code, _, stderr) = inject(&input, &out, &["--password", "user"]);
        assert_eq!(code, 0, "{variant}: {stderr}");
        // verify takes the password too; without it the file is an error it cannot read
        // (exit 2, kind "password"), never a file without a number.
        let record = common::example("2402.03791v3.record.json");
        let verify = |extra: &[&str]| {
            common::pith()
                .arg("verify")
                .arg(&out)
                .arg("--record")
                .arg(&record)
                .args(extra)
                .output()
                .unwrap()
        };
        let o = verify(&["--json"]);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "{variant}: {stdout}");
        assert!(!stdout.contains("NO NUMBER"), "{stdout}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["kind"], "password", "{v}");
        let o = verify(&["--password", "user"]);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{variant}: {stdout}");
        assert!(
            stdout.contains(A) && stdout.contains("VERIFIED"),
            "{stdout}"
        );
        check_injected(
            &format!("{variant} user password"),
            &input,
            &out,
            "user",
            false,
        );
        let pwfile = dir.path().join("pw.txt");
        std::fs::write(&pwfile, "owner\n").unwrap();
        let out2 = dir.path().join("out2.pdf");
        let (code, _, stderr) = inject(&input, &out2, &["--password-file", s(&pwfile)]);
        assert_eq!(code, 0, "{variant}: {stderr}");
        check_injected(
            &format!("{variant} owner password"),
            &input,
            &out2,
            "owner",
            false,
        );
    }
}

/// The shared corpus's encrypted files: each is injected or refused with one line (never a
/// crash); every injected output passes `qpdf --check` wherever the input did and pikepdf
/// reads the number back from it; every file refused for want of a password is one qpdf
/// cannot open without one either. Prints the counts by outcome.
#[test]
#[ignore = "full tier (the shared corpus): cargo test -- --include-ignored"]
fn corpus_encrypted() {
    let Some(dir) = common::corpus("corpus_encrypted") else {
        return;
    };
    if !(common::have_tool("qpdf", "corpus_encrypted")
        & common::have_python_module("pikepdf", "corpus_encrypted"))
    {
        return;
    }
    let mut files = common::pdfs_under(&dir);
    files.retain(|p| {
        let bytes = std::fs::read(p).unwrap();
        bytes.windows(8).any(|w| w == b"/Encrypt")
    });
    let tmp = tempfile::tempdir().unwrap();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut encrypted = 0;
    for f in &files {
        let o = common::pith()
            .args(["inspect", "--json"])
            .arg(f)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
        if v["encrypted"] != true {
            continue; // "/Encrypt" appears in the file, but not in its trailer
        }
        encrypted += 1;
        let out = tmp.path().join("out.pdf");
        let _ = std::fs::remove_file(&out);
        let (code, _, stderr) = inject(f, &out, &[]);
        let outcome = match code {
            0 => {
                let (in_ok, _, _) = common::run("qpdf", &["--check", s(f)], None);
                let (out_ok, o1, e1) = common::run("qpdf", &["--check", s(&out)], None);
                if in_ok && !out_ok {
                    failures.push(format!("{}: qpdf --check: {o1} {e1}", f.display()));
                }
                let (ok, o2, e2) = common::run(
                    "python3",
                    &[
                        "-c",
                        "import pikepdf,sys; p = pikepdf.open(sys.argv[1]); print(p.docinfo['/PithNumber'])",
                        s(&out),
                    ],
                    None,
                );
                if !ok || o2.trim() != A {
                    failures.push(format!("{}: pikepdf: {o2} {e2}", f.display()));
                }
                "injected".to_string()
            }
            2 if stderr.lines().count() == 1 && !out.exists() => {
                let reason = if stderr.contains("needs a password") {
                    // qpdf agrees that the empty password does not open it (exit 0: a
                    // password is required).
                    let (needs, o, e) = common::run("qpdf", &["--requires-password", s(f)], None);
                    if !needs {
                        failures.push(format!(
                            "{}: qpdf opens it without a password: {o} {e}",
                            f.display()
                        ));
                    }
                    "refused: needs a password"
                } else if stderr.contains("unsupported encryption") {
                    "refused: unsupported encryption (e.g. public-key)"
                } else if stderr.contains("malformed encryption") {
                    "refused: malformed encryption dictionary"
                } else {
                    "refused: other (damaged, certified, …)"
                };
                reason.to_string()
            }
            _ => {
                failures.push(format!("{}: exit {code}: {stderr}", f.display()));
                "failed".to_string()
            }
        };
        *counts.entry(outcome).or_default() += 1;
    }
    eprintln!("SUMMARY corpus_encrypted: {encrypted} encrypted files");
    for (k, n) in &counts {
        eprintln!("SUMMARY corpus_encrypted:   {k}: {n}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(counts.get("injected").is_some_and(|&n| n > 0));
}

/// Hostile encryption dictionaries: bytes of the `/Encrypt` object of every fixture replaced
/// at random (deterministic seed), and its strings cut short; `inspect` and `inject` return a
/// value or an error, never panic, and whatever `inject` plans is never a clear copy of what
/// was encrypted.
#[test]
#[ignore = "full tier (a long matrix or property run): cargo test -- --include-ignored"]
fn mutated_encryption_dictionaries_never_panic() {
    let number = pith::PithNumber::parse(A).unwrap();
    let opts = pith::pdf::Options::new("2024-01-01T00:00:00Z");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut files = 0;
    for e in std::fs::read_dir(common::fixture("encrypted").join(""))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "pdf") || p.ends_with("source.pdf") {
            continue;
        }
        files += 1;
        let orig = std::fs::read(&p).unwrap();
        let std_at = orig
            .windows(9)
            .position(|w| w == b"/Standard")
            .expect("an encryption dictionary");
        // From the object's `obj` keyword: /CF and its crypt filters come before /Filter.
        let at = orig[..std_at]
            .windows(3)
            .rposition(|w| w == b"obj")
            .unwrap()
            + 3;
        let end = at + orig[at..].windows(6).position(|w| w == b"endobj").unwrap();
        for round in 0..45 {
            let mut b = orig.clone();
            match round % 3 {
                // Random bytes inside the dictionary.
                0 | 1 => {
                    for _ in 0..1 + next() % 4 {
                        let i = at + (next() as usize) % (end - at);
                        b[i] = next() as u8;
                    }
                }
                // A hex string cut short (same length kept: the xref stays valid).
                _ => {
                    let i = at + (next() as usize) % (end - at);
                    if let Some(k) = b[i..end].iter().position(|&c| c == b'<') {
                        let j = i + k + 1;
                        let stop = b[j..end].iter().position(|&c| c == b'>').map(|m| j + m);
                        if let Some(stop) = stop {
                            let cut = j + (next() as usize) % (stop - j + 1);
                            b[cut..stop].fill(b' ');
                            if cut < stop {
                                b[cut] = b'>';
                                b[stop] = b' ';
                            }
                        }
                    }
                }
            }
            let r = std::panic::catch_unwind(|| {
                let _ = pith::pdf::inspect(&b[..]);
                pith::pdf::inject(&b[..], &number, &opts).map(|i| i.appended)
            });
            let appended = r.unwrap_or_else(|_| panic!("{}: round {round} panicked", p.display()));
            if let Ok(app) = appended {
                assert!(
                    !app.windows(CODE.len()).any(|w| w == CODE.as_bytes())
                        || b.windows(22).any(|w| w == b"/EncryptMetadata false"),
                    "{}: round {round}: the number in clear",
                    p.display()
                );
            }
        }
    }
    assert!(files >= 10, "fixtures found: {files}");
}
