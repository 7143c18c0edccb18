//! The parity table: the same request through every door that offers the command — `pith`,
//! Python's `pith_number` (when it is installed; skipped visibly otherwise) and `pith serve` —
//! compared by outcome, kind, sentence and bytes written. Each row is one rule the doors must
//! share: valid and contradictory requests, missing and wrong-kind inputs, swapped arguments,
//! dry runs and standard streams.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::attacks::upload;
use crate::common::{self, pith, root, vectors, Fixture, Server};

const SEED: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const EPOCH: &str = "1700000000";

/// What one door did with a request.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    /// Whether it did what was asked.
    ok: bool,
    /// The kind of its refusal, from the library's table.
    kind: Option<String>,
    /// Its sentence (the CLI's line without `pith: `).
    sentence: Option<String>,
}

/// A `pith` run: exit code, standard output (bytes) and standard error.
struct Cli {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

fn cli_in(dir: &Path, args: &[&str], env: &[(&str, &str)], stdin: Option<&[u8]>) -> Cli {
    let mut c = Command::new(pith());
    c.args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env("PITH_ARXIV_URL", "http://127.0.0.1:9")
        .env("PITH_RESOLVER_URL", "http://127.0.0.1:9")
        .env("PITH_CACHE_DIR", dir.join(".cache"))
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(b) = stdin {
        input.write_all(b).unwrap();
    }
    drop(input);
    let o = child.wait_with_output().unwrap();
    Cli {
        code: o.status.code().unwrap_or(-1),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The CLI's outcome of `args` (with `--json` when `json`): exit 0 is done; a refusal is exit
/// 2 with one `pith: …` line (a usage error adds its usage line) and, under `--json`, the
/// same sentence and its kind on standard output.
fn cli_outcome(dir: &Path, args: &[&str], env: &[(&str, &str)], json: bool) -> Outcome {
    let mut all = args.to_vec();
    if json {
        all.push("--json");
    }
    let r = cli_in(dir, &all, env, None);
    if r.code == 0 {
        return Outcome {
            ok: true,
            kind: None,
            sentence: None,
        };
    }
    assert_eq!(r.code, 2, "{args:?}: exit {}: {}", r.code, r.stderr);
    let line = r.stderr.lines().next().unwrap_or_default();
    let sentence = line
        .strip_prefix("pith: ")
        .unwrap_or_else(|| panic!("{args:?}: not one pith: line: {}", r.stderr))
        .to_owned();
    for l in r.stderr.lines().skip(1) {
        assert!(
            l.starts_with("Usage: "),
            "{args:?}: more than one line: {}",
            r.stderr
        );
    }
    assert!(
        !sentence.contains("os error"),
        "{args:?}: an OS error not in words: {sentence}"
    );
    let kind = if json {
        let v: Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|e| {
            panic!(
                "{args:?}: --json printed no error object ({e}): {r:?}",
                r = String::from_utf8_lossy(&r.stdout)
            )
        });
        assert_eq!(v["error"], sentence.as_str(), "{args:?}");
        Some(v["kind"].as_str().unwrap().to_owned())
    } else {
        None
    };
    Outcome {
        ok: false,
        kind,
        sentence: Some(sentence),
    }
}

/// Whether Python's door can be driven here (the installed wheel, or `PYTHONPATH`).
fn have_python(test: &str) -> bool {
    pith_testkit::have_python_module("pith_number", test)
}

/// Python's outcome of `call`, an expression over `a` (the arguments given) and `pn`.
fn python(dir: &Path, call: &str, args: &[&str], env: &[(&str, &str)]) -> Outcome {
    let script = format!(
        "import json, sys\nimport pith_number as pn\na = sys.argv[1:]\ntry:\n    {call}\n    print(json.dumps({{'ok': True}}))\nexcept pn.PithError as e:\n    print(json.dumps({{'ok': False, 'kind': e.kind, 'error': str(e)}}))\n"
    );
    let o = Command::new("python3")
        .arg("-c")
        .arg(&script)
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env("PITH_RESOLVER_URL", "http://127.0.0.1:9")
        .env("PITH_CACHE_DIR", dir.join(".cache"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| {
        panic!(
            "python {call}: {e}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    Outcome {
        ok: v["ok"].as_bool().unwrap(),
        kind: v["kind"].as_str().map(str::to_owned),
        sentence: v["error"].as_str().map(str::to_owned),
    }
}

/// Asserts both refused alike: the same kind, and the CLI's line starting with Python's
/// sentence (the CLI may add how to get past it with a flag).
fn same_refusal(row: &str, cli: &Outcome, py: &Outcome) {
    assert!(!cli.ok && !py.ok, "{row}: {cli:?} / {py:?}");
    assert_eq!(cli.kind, py.kind, "{row}: kinds differ");
    let (c, p) = (
        cli.sentence.as_deref().unwrap(),
        py.sentence.as_deref().unwrap(),
    );
    assert!(
        c.starts_with(p) || c.contains(p),
        "{row}: sentences differ:\n cli {c}\n py  {p}"
    );
}

fn minimal(dir: &Path) -> PathBuf {
    let p = dir.join("in.pdf");
    std::fs::copy(root().join("tests/fixtures/minimal.pdf"), &p).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Rows: a file deadline of 0 is no bound at every door (inject, strip, and the server's
/// check); the bytes written by the CLI and Python are the same.
#[test]
fn a_deadline_of_zero_is_no_bound_at_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = minimal(d);
    let (a, b) = (d.join("cli.pdf"), d.join("py.pdf"));
    let cli = cli_outcome(
        d,
        &[
            "inject",
            s(&src),
            "--number",
            SEED,
            "--file-timeout",
            "0",
            "-o",
            s(&a),
        ],
        &[],
        true,
    );
    assert!(cli.ok, "{cli:?}");
    let cli = cli_outcome(
        d,
        &[
            "strip",
            s(&a),
            "--file-timeout",
            "0",
            "-o",
            s(&d.join("cs.pdf")),
        ],
        &[],
        true,
    );
    assert!(cli.ok, "{cli:?}");
    // pith refs names its file deadline as every command does (the file named as arXiv
    // names its PDFs, which gives its citing paper).
    let named = d.join("0704.0001v1.pdf");
    std::fs::copy(&src, &named).unwrap();
    let refs = cli_outcome(d, &["refs", "--file-timeout", "0", s(&named)], &[], false);
    assert!(refs.ok, "{refs:?}");
    if have_python("a_deadline_of_zero_is_no_bound_at_every_door") {
        let py = python(
            d,
            "pn.inject(a[0], a[1], a[2], file_timeout=0); pn.strip(a[2], a[3], file_timeout=0)",
            &[s(&src), SEED, s(&b), s(&d.join("ps.pdf"))],
            &[],
        );
        assert!(py.ok, "{py:?}");
        assert_eq!(
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            "inject's bytes"
        );
        assert_eq!(
            std::fs::read(d.join("cs.pdf")).unwrap(),
            std::fs::read(d.join("ps.pdf")).unwrap(),
            "strip's bytes"
        );
    }
    // The server's check: 0 is no bound there too (it was made 1 s).
    let f = Fixture::new();
    let good = d.join("good.pdf");
    common::inject(vectors()[0]["pith_number"].as_str().unwrap(), &good);
    let server = Server::start(&f.index, &["--check-timeout", "0"]);
    let (status, _) = upload(&server.addr, &std::fs::read(&good).unwrap());
    assert_eq!(status, 200, "a check with no deadline");
}

/// Rows: the contradictions of an update are refused once, by the library, with one sentence
/// and kind at both doors, and nothing is written: a repair with a rewrite, a dry run with a
/// rewrite, a stamp size out of range.
#[test]
fn contradictions_are_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = minimal(d);
    let out = d.join("out.pdf");
    let rows: [(&str, &[&str], &str, &str); 3] = [
        (
            "repair+rewrite",
            &["--rewrite", "--repair"],
            "rewrite=True, repair=True",
            "request",
        ),
        (
            "dry run+rewrite",
            &["--rewrite", "--dry-run"],
            "rewrite=True, dry_run=True",
            "request",
        ),
        (
            "stamp size",
            &["--stamp", "--stamp-size", "100"],
            "stamp=True, stamp_size=100.0",
            "stamp",
        ),
    ];
    let python_too = have_python("contradictions_are_refused_alike");
    for (row, flags, kw, kind) in rows {
        let mut args = vec!["inject", s(&src), "--number", SEED, "-o", s(&out)];
        args.extend_from_slice(flags);
        let cli = cli_outcome(d, &args, &[], true);
        assert_eq!(cli.kind.as_deref(), Some(kind), "{row}: {cli:?}");
        assert!(!out.exists(), "{row}: written");
        if python_too {
            let py = python(
                d,
                &format!("pn.inject(a[0], a[1], a[2], {kw})"),
                &[s(&src), SEED, s(&out)],
                &[],
            );
            same_refusal(row, &cli, &py);
            assert!(!out.exists(), "{row}: written by Python");
        }
    }
}

/// Rows: where an update goes is the library's rule (`job::outputs::destination`): neither an
/// output nor in place is refused with one kind and sentence by `inject` and `strip` at both
/// doors; the stamp's settings without the stamp are refused, never ignored; nothing is
/// written.
#[test]
fn where_an_update_goes_is_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = minimal(d);
    let before = std::fs::read(&src).unwrap();
    let out = d.join("out.pdf");
    // `pith inject SRC --number SEED -o OUT` and what follows it.
    let inject_to = ["inject", s(&src), "--number", SEED, "-o", s(&out)];
    let rows: [(&str, &[&str], &str, &str); 4] = [
        (
            "inject: no output, not in place",
            &["inject", s(&src), "--number", SEED],
            "pn.inject(a[0], a[1])",
            "say where the result goes",
        ),
        (
            "strip: no output, not in place",
            &["strip", s(&src)],
            "pn.strip(a[0])",
            "say where the result goes",
        ),
        (
            "inject: an output and in place",
            &[&inject_to[..], &["--in-place"]].concat(),
            "pn.inject(a[0], a[1], a[2], in_place=True)",
            "an output file or in place, not both",
        ),
        (
            "strip: an output and in place",
            &["strip", s(&src), "-o", s(&out), "--in-place"],
            "pn.strip(a[0], a[2], in_place=True)",
            "an output file or in place, not both",
        ),
    ];
    let python_too = have_python("where_an_update_goes_is_refused_alike");
    for (row, args, call, says) in rows {
        let cli = cli_outcome(d, args, &[], true);
        assert_eq!(cli.kind.as_deref(), Some("request"), "{row}: {cli:?}");
        assert!(
            cli.sentence.as_deref().unwrap().contains(says),
            "{row}: {cli:?}"
        );
        if python_too {
            let py = python(d, call, &[s(&src), SEED, s(&out)], &[]);
            same_refusal(row, &cli, &py);
        }
        assert!(!out.exists(), "{row}: written");
    }
    // The CLI's flags require --stamp; Python's keywords reach the library's same rule.
    let cli = cli_outcome(
        d,
        &[&inject_to[..], &["--stamp-size", "8"]].concat(),
        &[],
        false,
    );
    let said = cli.sentence.unwrap_or_default();
    assert!(
        said.starts_with("stamp form, position and size are the stamp's"),
        "{said}"
    );
    if python_too {
        let py = python(
            d,
            "pn.inject(a[0], a[1], a[2], stamp_size=8.0)",
            &[s(&src), SEED, s(&out)],
            &[],
        );
        assert_eq!(py.kind.as_deref(), Some("stamp"), "{py:?}");
    }
    assert!(!out.exists());
    assert_eq!(std::fs::read(&src).unwrap(), before, "the input changed");
}

/// Rows: the keys are the library's — the registry's, those given and those PITH_KEYS pins —
/// at every door; a receipt signed by a key pinned only in PITH_KEYS is verified by the CLI
/// and by Python's verify_bundle and verify_signature alike.
#[test]
fn pinned_keys_count_at_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let v = &vectors()[0];
    let (bundle, key) = pith_testkit::signed_bundle(v);
    let file = d.join("bundle.json");
    std::fs::write(&file, serde_json::to_vec(&bundle).unwrap()).unwrap();
    let verdict = |env: &[(&str, &str)]| {
        let r = cli_in(d, &["verify", "--bundle", s(&file), "--json"], env, None);
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        v["verdict"].as_str().unwrap().to_owned()
    };
    assert_eq!(verdict(&[]), "unverified", "no key pinned");
    assert_eq!(verdict(&[("PITH_KEYS", &key)]), "verified", "PITH_KEYS");
    if have_python("pinned_keys_count_at_every_door") {
        let call = "r = pn.verify_bundle(open(a[0]).read())\n    assert r['verdict'] == a[1], r";
        for (env, want) in [
            (vec![], "unverified"),
            (vec![("PITH_KEYS", key.as_str())], "verified"),
        ] {
            let py = python(d, call, &[s(&file), want], &env);
            assert!(py.ok, "verify_bundle with {env:?}: {py:?}");
        }
        // One receipt's signature: the same keys (the registry's alone does not hold).
        let sig = bundle["events"][0]["payload"]["receipt"]["signature_b64"]
            .as_str()
            .unwrap();
        let hash = v["canonical_sha256"].as_str().unwrap();
        let call = "r = pn.verify_signature(a[0], a[1])\n    assert r['status'] == a[2], r";
        let bare = python(d, call, &[hash, sig, "mismatch"], &[]);
        assert!(bare.ok, "verify_signature without the key: {bare:?}");
        let pinned = python(d, call, &[hash, sig, "ok"], &[("PITH_KEYS", key.as_str())]);
        assert!(pinned.ok, "verify_signature with PITH_KEYS: {pinned:?}");
    }
}

/// Rows: the server's keys are the library's too: an index built with a key pinned in
/// `PITH_KEYS` serves what one built with the same key as `--key` serves (the badge, the
/// record's status, the keys it lists), and differs from one built with neither.
#[test]
fn the_server_takes_pinned_keys_as_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let v = &vectors()[0];
    let (bundle, key) = pith_testkit::signed_bundle(v);
    let bundles = d.join("bundles");
    std::fs::create_dir(&bundles).unwrap();
    std::fs::write(bundles.join("b.json"), bundle.to_string()).unwrap();
    let records = common::records_dir(d);
    let c = common::code(v["pith_number"].as_str().unwrap());
    let served = |name: &str, env: &[(&str, &str)], extra: &[&str]| {
        let index = d.join(name);
        let mut args = vec![
            "index",
            "-o",
            s(&index),
            "--records",
            s(&records),
            "--bundles",
            s(&bundles),
        ];
        args.extend_from_slice(extra);
        let r = common::run(&pith(), &args, env);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let server = Server::start(&index, &[]);
        let badge = server.get(&format!("/badge/{c}.json"), &[]).json()["message"].clone();
        let status = server.get(&format!("/pith/{c}.json"), &[]).json()["status"].clone();
        let lists = server
            .get("/pith-signing-key.json", &[])
            .text()
            .contains(&key);
        (badge, status, lists)
    };
    let pinned = served("pinned.pith-index", &[("PITH_KEYS", &key)], &[]);
    let given = served("given.pith-index", &[], &["--key", &key]);
    let neither = served("neither.pith-index", &[], &[]);
    assert_eq!(pinned, given, "PITH_KEYS and --key");
    assert!(pinned.2, "the pinned key is not listed");
    assert_ne!(neither, given, "a key made no difference");
}

/// Rows: `verify --capture` takes the PDF alone (a bundle or key is refused, not dropped),
/// names swapped arguments, and a missing capture file is kind io.
#[test]
fn capture_requests_are_the_librarys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pdf = minimal(d);
    let warc = d.join("crawl.warc.gz");
    std::fs::write(&warc, b"WARC/1.0\r\n").unwrap();
    let bundle = root().join("examples/2402.03791v3.bundle.json");
    for (row, extra) in [
        ("bundle", vec!["--bundle", s(&bundle)]),
        (
            "key",
            vec!["--key", "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="],
        ),
    ] {
        let mut args = vec!["verify", s(&pdf), "--capture", s(&warc)];
        args.extend(extra);
        let o = cli_outcome(d, &args, &[], true);
        assert_eq!(o.kind.as_deref(), Some("request"), "{row}: {o:?}");
        assert!(o.sentence.unwrap().contains("--capture"), "{row}");
    }
    let swapped = cli_outcome(d, &["verify", s(&warc), "--capture", s(&pdf)], &[], true);
    assert_eq!(swapped.kind.as_deref(), Some("request"));
    assert!(swapped.sentence.unwrap().contains("wrong way round"));
    let missing = cli_outcome(
        d,
        &["verify", s(&pdf), "--capture", "missing.warc"],
        &[],
        true,
    );
    assert_eq!(missing.kind.as_deref(), Some("io"), "{missing:?}");
    assert!(missing.sentence.unwrap().starts_with("missing.warc: "));
}

/// Rows: a verification's contradiction is the request's, refused alike by the CLI and Python
/// (a record and a bundle, which carries its own); a file deadline of 0 is no bound at both,
/// which then read the same verdict. (The server's check takes an upload alone.)
#[test]
fn verify_requests_are_the_librarys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pdf = minimal(d);
    let bundle = root().join("examples/2402.03791v3.bundle.json");
    let record = root().join("examples/2402.03791v3.record.json");
    let cli = cli_outcome(
        d,
        &[
            "verify",
            s(&pdf),
            "--record",
            s(&record),
            "--bundle",
            s(&bundle),
        ],
        &[],
        true,
    );
    assert_eq!(cli.kind.as_deref(), Some("request"), "{cli:?}");
    assert!(
        cli.sentence.as_deref().unwrap().contains("not both"),
        "{cli:?}"
    );
    let verdict = |args: &[&str]| {
        let r = cli_in(d, args, &[], None);
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        v["verdict"].as_str().unwrap().to_owned()
    };
    let unbound = [
        "verify",
        s(&pdf),
        "--bundle",
        s(&bundle),
        "--file-timeout",
        "0",
        "--json",
    ];
    assert_eq!(verdict(&unbound), "no_number");
    if have_python("verify_requests_are_the_librarys") {
        let both = "pn.verify_pdf(a[0], record=open(a[1]).read(), bundle=open(a[2]).read())";
        let py = python(d, both, &[s(&pdf), s(&record), s(&bundle)], &[]);
        same_refusal("record and bundle", &cli, &py);
        let call = "r = pn.verify_pdf(a[0], bundle=open(a[1]).read(), file_timeout=0)\n    assert r['verdict'] == 'no_number', r";
        let py = python(d, call, &[s(&pdf), s(&bundle)], &[]);
        assert!(py.ok, "verify_pdf with file_timeout=0: {py:?}");
    }
}

/// Rows: a QR module size without the QR code is refused by the CLI and the server with the
/// same sentence; with it, both draw the same bytes.
#[test]
fn a_qr_module_without_the_qr_is_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = Fixture::new();
    let number = vectors()[0]["pith_number"].as_str().unwrap().to_owned();
    let code = common::code(&number);
    let cli = cli_outcome(
        d,
        &[
            "badge",
            "--qr-module",
            "4",
            &number,
            "-o",
            s(&d.join("b.svg")),
        ],
        &[],
        false,
    );
    assert!(!cli.ok && !d.join("b.svg").exists(), "{cli:?}");
    let server = Server::start(&f.index, &[]);
    let r = server.get(&format!("/badge/{code}.svg?qr_module=4"), &[]);
    assert_eq!(r.status, 400);
    let body = String::from_utf8_lossy(&r.body);
    let sentence = cli.sentence.unwrap();
    assert!(body.contains(&sentence), "server: {body}\ncli: {sentence}");
}

/// Rows: `pith batch --tar` refuses `--check` instead of ignoring it, and a usage error is
/// the `{error, kind}` object under `--json` as every other error is.
#[test]
fn a_tar_batch_refuses_check() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = cli_outcome(
        d,
        &["batch", "--tar", "x.tar", "--out-tar", "y.tar", "--check"],
        &[],
        true,
    );
    assert!(!o.ok && o.sentence.unwrap().contains("--check"));
    assert_eq!(o.kind.as_deref(), Some("request"));
}

/// Rows: every contradiction of a batch is its request's (`job::run::BatchRequest`), refused
/// once with one kind and sentence by `pith batch` (with and without `--json`) and, where
/// Python's `batch` or `process_tar` takes the options, by Python; nothing is read or
/// written. Python's arguments `a`: the folder of PDFs, the output folder, the metadata, a tar,
/// where the tar goes.
#[test]
fn batch_contradictions_are_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("pdfs")).unwrap();
    minimal(&d.join("pdfs"));
    std::fs::write(d.join("pdfs/in.pith"), SEED).unwrap();
    std::fs::write(d.join("meta.jsonl"), "").unwrap();
    std::fs::write(d.join("a.tar"), "").unwrap();
    let files = ["--dir", "pdfs", "--out-dir", "out"];
    let tar = [
        "--tar",
        "a.tar",
        "--out-tar",
        "b.tar",
        "--arxiv-metadata",
        "meta.jsonl",
    ];
    let (f, t) = (&files[..], &tar[..]);
    // (row, pith batch's arguments, Python's call or none, kind)
    let rows: Vec<(&str, Vec<&str>, Option<&str>, &str)> = vec![
        (
            "no output folder, not in place",
            vec!["--dir", "pdfs"],
            Some("pn.batch(a[0])"),
            "request",
        ),
        (
            "an output folder and in place",
            [f, &["--in-place"]].concat(),
            Some("pn.batch(a[0], out_dir=a[1], in_place=True)"),
            "request",
        ),
        (
            "a mirror without an output folder",
            vec!["--dir", "pdfs", "--in-place", "--mirror"],
            Some("pn.batch(a[0], in_place=True, mirror=True)"),
            "request",
        ),
        (
            "a check with a dry run",
            [f, &["--check", "--dry-run"]].concat(),
            Some("pn.batch(a[0], out_dir=a[1], check=True, dry_run=True)"),
            "request",
        ),
        (
            "no worker",
            [f, &["--jobs", "0"]].concat(),
            Some("pn.batch(a[0], out_dir=a[1], jobs=0)"),
            "request",
        ),
        (
            "standard input twice",
            vec![
                "--manifest",
                "-",
                "--out-dir",
                "out",
                "--arxiv-metadata",
                "-",
            ],
            Some("pn.batch(manifest='-', out_dir=a[1], metadata='-')"),
            "request",
        ),
        (
            "references over a PDF",
            [f, &["--refs", "x.pdf"]].concat(),
            Some("pn.batch(a[0], out_dir=a[1], refs='x.pdf')"),
            "request",
        ),
        (
            "references into a folder",
            [f, &["--refs", "pdfs"]].concat(),
            Some("pn.batch(a[0], out_dir=a[1], refs=a[0])"),
            "request",
        ),
        (
            "a spool folder without a tar",
            [f, &["--spool-dir", "pdfs"]].concat(),
            None,
            "request",
        ),
        (
            "arXiv's manifest without a tar",
            [f, &["--arxiv-manifest", "m.xml"]].concat(),
            None,
            "request",
        ),
        (
            "a tar with a check",
            [t, &["--check"]].concat(),
            None,
            "request",
        ),
        (
            "a tar without metadata",
            vec!["--tar", "a.tar", "--out-tar", "b.tar"],
            Some("pn.process_tar(a[3], a[4], metadata=[])"),
            "request",
        ),
        (
            "any tar without the manifest",
            [t, &["--any-tar"]].concat(),
            Some("pn.process_tar(a[3], a[4], metadata=a[2], any_tar=True)"),
            "request",
        ),
        (
            "a tar file's name",
            [t, &["--tar-name", "arXiv_pdf_2402_001.tar"]].concat(),
            Some("pn.process_tar(a[3], a[4], metadata=a[2], name='arXiv_pdf_2402_001.tar')"),
            "request",
        ),
        (
            "the report into a folder",
            [t, &["--report", "pdfs"]].concat(),
            Some("pn.process_tar(a[3], a[4], metadata=a[2], report=a[0])"),
            "request",
        ),
        (
            "the tar and its report on standard output",
            vec![
                "--tar",
                "a.tar",
                "--out-tar",
                "-",
                "--arxiv-metadata",
                "meta.jsonl",
                "--report",
                "-",
            ],
            Some("pn.process_tar(a[3], '-', metadata=a[2], report='-')"),
            "request",
        ),
        (
            "no worker for a tar",
            [t, &["-j", "0"]].concat(),
            Some("pn.process_tar(a[3], a[4], metadata=a[2], jobs=0)"),
            "request",
        ),
    ];
    let python_too = have_python("batch_contradictions_are_refused_alike");
    let mut sentences = std::collections::BTreeSet::new();
    for (row, args, call, kind) in rows {
        let args = [&["batch"], &args[..]].concat();
        let json = cli_outcome(d, &args, &[], true);
        assert_eq!(json.kind.as_deref(), Some(kind), "{row}: {json:?}");
        let plain = cli_outcome(d, &args, &[], false);
        assert_eq!(
            plain.sentence, json.sentence,
            "{row}: with and without --json"
        );
        if let (true, Some(call)) = (python_too, call) {
            let py = python(
                d,
                call,
                &["pdfs", "out", "meta.jsonl", "a.tar", "b.tar"],
                &[],
            );
            same_refusal(row, &json, &py);
        }
        sentences.insert(json.sentence.unwrap());
        for written in ["out", "b.tar", "x.pdf"] {
            assert!(!d.join(written).exists(), "{row}: {written} written");
        }
    }
    // Each rule has its own sentence (the workers' rule for both runs, and the tar options
    // without a tar, are one rule each).
    assert_eq!(sentences.len(), 15, "{sentences:#?}");
}

/// Rows: a shard is read by one function of the library: `pith batch --shard`, `pith batch
/// --tar-dir --shard` and Python's `batch(shard=…)` refuse one that is not `K/N` with the same
/// kind and sentence, before anything is read or written.
#[test]
fn a_bad_shard_is_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("pdfs")).unwrap();
    let out = d.join("out");
    // The same output and bad shard after each run's own inputs.
    let with_shard = |inputs: &[&str]| {
        let tail = ["--out-dir", s(&out), "--shard", "4/4"];
        cli_outcome(d, &[&["batch"], inputs, &tail[..]].concat(), &[], true)
    };
    let batch = with_shard(&["--dir", "pdfs"]);
    assert_eq!(batch.kind.as_deref(), Some("shard"), "{batch:?}");
    let sentence = batch.sentence.clone().unwrap();
    assert!(sentence.contains("\"4/4\" is not K/N"), "{sentence}");
    std::fs::write(d.join("m.xml"), "<arXivPDF></arXivPDF>").unwrap();
    let tars = with_shard(&[
        "--tar-dir",
        "pdfs",
        "--arxiv-manifest",
        "m.xml",
        "--arxiv-metadata",
        "meta.json",
    ]);
    assert_eq!(
        (tars.kind, tars.sentence),
        (batch.kind.clone(), batch.sentence.clone())
    );
    assert!(!out.exists(), "written");
    if have_python("a_bad_shard_is_refused_alike") {
        let py = python(
            d,
            "pn.batch(a[0], out_dir=a[1], shard='4/4')",
            &["pdfs", s(&out)],
            &[],
        );
        same_refusal("shard", &batch, &py);
        assert!(!out.exists(), "written by Python");
    }
}

/// Rows: every writing command makes its output's missing folders (index, batch --report,
/// cite -o) and refuses a folder where one file goes, in words and with the path given.
#[test]
fn outputs_make_their_folders_and_refuse_a_folder_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let records = d.join("records");
    std::fs::create_dir(&records).unwrap();
    std::fs::copy(
        root().join("examples/2402.03791v3.record.json"),
        records.join("r.json"),
    )
    .unwrap();
    let ok = cli_outcome(
        d,
        &[
            "index",
            "--records",
            "records",
            "-o",
            "missing/x.pith-index",
        ],
        &[],
        true,
    );
    assert!(ok.ok && d.join("missing/x.pith-index").is_file(), "{ok:?}");
    let folder = cli_outcome(
        d,
        &["index", "--records", "records", "-o", "records"],
        &[],
        true,
    );
    assert_eq!(folder.kind.as_deref(), Some("request"), "{folder:?}");
    assert!(folder.sentence.unwrap().starts_with("records: is a folder"));
    let pdfs = d.join("pdfs");
    std::fs::create_dir(&pdfs).unwrap();
    minimal(&pdfs);
    std::fs::write(pdfs.join("in.pith"), SEED).unwrap();
    let batch = cli_in(
        d,
        &[
            "batch",
            "--dir",
            "pdfs",
            "--out-dir",
            "out",
            "--dry-run",
            "--report",
            "deep/r.jsonl",
            "--refs",
            "lists/batch/refs.jsonl",
        ],
        &[],
        None,
    );
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    assert!(d.join("deep/r.jsonl").is_file());
    assert!(d.join("lists/batch/refs.jsonl").is_file());
    let atom = root().join("examples/2402.03791v3.atom.xml");
    let cite = cli_outcome(
        d,
        &["cite", "--arxiv-atom", s(&atom), "-o", "refs/x.bib"],
        &[],
        false,
    );
    assert!(cite.ok, "{cite:?}");
    assert!(std::fs::read_to_string(d.join("refs/x.bib"))
        .unwrap()
        .starts_with('@'));
    // `pith refs -o`: a folder is refused before any file is read, a missing one made.
    let paper = root().join("examples/2402.03791v3.pdf");
    let refs_folder = cli_outcome(d, &["refs", s(&paper), "-o", "records"], &[], false);
    let sentence = refs_folder.sentence.unwrap_or_default();
    assert!(sentence.starts_with("records: is a folder"), "{sentence}");
    let refs = cli_outcome(d, &["refs", s(&paper), "-o", "lists/r.jsonl"], &[], false);
    assert!(refs.ok, "{refs:?}");
    assert!(d.join("lists/r.jsonl").is_file());
}

/// Rows: `pith index` fails as every command does: one line, usage errors included, the
/// `{error, kind}` object under `--json`, OS errors in words with the path given.
#[test]
fn index_errors_are_one_line_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let no_output = cli_outcome(d, &["index", "--records", "records"], &[], true);
    assert_eq!(no_output.kind.as_deref(), Some("request"), "{no_output:?}");
    for (row, args) in [
        (
            "--refs missing",
            vec!["index", "--refs", "missing.jsonl", "-o", "a.pith-index"],
        ),
        (
            "--captures missing",
            vec!["index", "--captures", "FILE", "-o", "a.pith-index"],
        ),
    ] {
        let o = cli_outcome(d, &args, &[], true);
        let sentence = o.sentence.clone().unwrap();
        assert!(
            sentence.contains("no such file or directory"),
            "{row}: {sentence}"
        );
        assert!(!d.join("a.pith-index").exists(), "{row}: an index was left");
    }
}

/// Rows: `pith serve` fails as every command does: one line naming the file and what to do
/// (a missing index, a folder given as the index, an address it cannot listen on), and a
/// usage error without clap's tip to pass the option after `--`.
#[test]
fn serve_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("records")).unwrap();
    let rows: [(&[&str], &str); 4] = [
        (
            &["serve", "missing.pith-index"],
            "missing.pith-index: no such index file (pith index -o INDEX builds one)",
        ),
        (
            &["serve", "records"],
            "records: is a folder: give the index file (pith index -o INDEX builds one)",
        ),
        (
            &["serve", "x.pith-index", "--addr", "nonsense"],
            "unexpected argument '--addr' found",
        ),
        (
            &["serve", "x.pith-index", "--json"],
            "unexpected argument '--json' found",
        ),
    ];
    for (args, says) in rows {
        let o = cli_outcome(d, args, &[], false);
        let sentence = o.sentence.unwrap_or_default();
        assert!(sentence.starts_with(says), "{args:?}: {sentence}");
        assert!(!sentence.contains("'-- "), "{args:?}: {sentence}");
    }
}

/// Rows: hints name the command that takes the option, and each argument mistaken for another
/// is said as such.
#[test]
fn hints_name_the_door_that_takes_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = std::fs::read(root().join("tests/fixtures/minimal.pdf")).unwrap();
    let broken = d.join("broken.pdf");
    std::fs::write(&broken, &whole[..whole.len() - 40]).unwrap();
    let inspect = cli_outcome(d, &["inspect", s(&broken)], &[], true);
    let line = inspect.sentence.unwrap();
    assert_eq!(inspect.kind.as_deref(), Some("damaged"));
    assert!(
        line.contains("pith inject --repair") && !line.contains("Use --repair"),
        "{line}"
    );
    let refs = cli_in(d, &["refs", s(&broken)], &[], None);
    assert_eq!(refs.code, 2);
    assert!(!refs.stderr.contains("incrementally"), "{}", refs.stderr);
    let folder = cli_outcome(d, &["verify", s(d)], &[], true);
    assert_eq!(folder.kind.as_deref(), Some("request"));
    assert!(folder.sentence.unwrap().contains("is a folder"));
    let atom = d.join("paper.atom.xml");
    std::fs::copy(root().join("examples/2402.03791v3.atom.xml"), &atom).unwrap();
    let number = cli_outcome(d, &["number", s(&atom)], &[], false);
    assert!(number.sentence.unwrap().contains("--arxiv-atom"));
}

/// `pith inject - --number SEED -o -` of the minimal PDF, run in `d`: the PDF given and the
/// run, which succeeded.
fn inject_piped(d: &Path) -> (Vec<u8>, Cli) {
    let whole = std::fs::read(root().join("tests/fixtures/minimal.pdf")).unwrap();
    let r = cli_in(
        d,
        &["inject", "-", "--number", SEED, "-o", "-"],
        &[],
        Some(&whole),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    (whole, r)
}

/// Rows: standard streams are decided once — `pith inject - -o -` writes to standard output
/// the bytes Python's `inject_bytes` returns.
#[test]
fn standard_streams_give_the_bytes_of_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (whole, r) = inject_piped(d);
    assert!(
        r.stdout.starts_with(&whole),
        "an incremental update keeps the bytes first"
    );
    if have_python("standard_streams_give_the_bytes_of_memory") {
        let out = d.join("py.pdf");
        let py = python(
            d,
            "open(a[2], 'wb').write(pn.inject_bytes(open(a[0], 'rb').read(), a[1])[0])",
            &[s(&root().join("tests/fixtures/minimal.pdf")), SEED, s(&out)],
            &[],
        );
        assert!(py.ok, "{py:?}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            r.stdout,
            "stdout and memory differ"
        );
    }
}

/// Rows: `pith inspect -` and Python's `inspect` of bytes read the same report (the name
/// aside); an expected number that is none is refused with one kind at both doors; a stamp
/// size without the stamp is refused by `inject_bytes` as by `inject`.
#[test]
fn inspect_requests_read_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let numbered = d.join("numbered.pdf");
    let minimal = std::fs::read(root().join("tests/fixtures/minimal.pdf")).unwrap();
    let args = ["inject", "-", "--number", SEED, "-o", s(&numbered)];
    let made = cli_in(d, &args, &[], Some(&minimal));
    assert_eq!(made.code, 0, "{}", made.stderr);
    let bytes = std::fs::read(&numbered).unwrap();
    let r = cli_in(d, &["inspect", "-", "--json"], &[], Some(&bytes));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cli: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(
        (cli["file"].as_str(), cli["number"].as_str()),
        (Some("-"), Some(SEED))
    );
    if have_python("inspect_requests_read_alike") {
        let call = "r = pn.inspect(open(a[0], 'rb').read())\n    e = json.loads(a[1])\n    r['file'] = e['file']\n    assert r == e, (r, e)";
        let text = String::from_utf8_lossy(&r.stdout).into_owned();
        let py = python(d, call, &[s(&numbered), &text], &[]);
        assert!(py.ok, "{py:?}");
        let bad = python(
            d,
            "pn.inspect(a[0], number='pith:not a number')",
            &[s(&numbered)],
            &[],
        );
        let cli = cli_outcome(
            d,
            &["inspect", s(&numbered), "--number", "pith:not a number"],
            &[],
            true,
        );
        assert!(!bad.ok && !cli.ok, "{bad:?} / {cli:?}");
        assert_eq!(bad.kind, cli.kind, "an expected number that is none");
        let size = python(
            d,
            "pn.inject_bytes(open(a[0], 'rb').read(), a[1], stamp_size=8.0)",
            &[s(&numbered), SEED],
            &[],
        );
        assert_eq!(size.kind.as_deref(), Some("stamp"), "{size:?}");
    }
}

/// Rows: every contradiction of `pith ots` is its request's (`pith::job::ots`), refused with
/// the library's kind and sentence, with and without `--json`, before anything is read, asked
/// or written: several subjects or none, a digest that is none, standard input's proof without
/// an output or into a folder, standard input upgraded in place or read twice, a proof's
/// file that is the file stamped, an existing proof under `--no-clobber`, offline with
/// refresh. (Python offers no ots: the CLI's rows are compared with the library's request.)
#[test]
fn ots_contradictions_are_the_requests() {
    use pith::job::ots::{
        OtsRequest, OtsStampRequest, OtsUpgradeRequest, OtsVerifyRequest, ProofSubject,
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = minimal(d);
    let kept = d.join("kept.ots");
    std::fs::write(&kept, b"kept").unwrap();
    let hex = "ab".repeat(32);
    let subject = |subject: Option<&str>, file: Option<&str>, digest: Option<&str>| ProofSubject {
        subject: subject.map(str::to_owned),
        file: file.map(PathBuf::from),
        digest: digest.map(str::to_owned),
    };
    let stamp = |subject: ProofSubject, output: Option<&Path>| OtsStampRequest {
        subject,
        output: output.map(Path::to_path_buf),
        ..Default::default()
    };
    let verify = |proof: &str, subject: ProofSubject, headers: Option<&str>| OtsVerifyRequest {
        proof: Some(proof.into()),
        subject,
        headers: headers.map(PathBuf::from),
        ..Default::default()
    };
    let library = |r: OtsRequest| r.validate().unwrap_err();
    let same_file = pith::job::check_output(Some(&file), &file, false).unwrap_err();
    let exists = pith::job::check_output(None, &kept, true).unwrap_err();
    let offline_refresh = library(OtsRequest::Upgrade(OtsUpgradeRequest {
        proof: Some("a.ots".into()),
        net: pith::net::Settings {
            offline: true,
            refresh: true,
            ..Default::default()
        },
    }));
    // (row, arguments, the library's refusal)
    let rows: Vec<(&str, Vec<&str>, pith::job::Error)> = vec![
        (
            "stamp: a file and a digest",
            vec!["ots", "stamp", "--file", s(&file), "--digest", &hex],
            library(OtsRequest::Stamp(stamp(
                subject(None, Some(s(&file)), Some(&hex)),
                None,
            ))),
        ),
        (
            "stamp: nothing",
            vec!["ots", "stamp"],
            library(OtsRequest::Stamp(stamp(ProofSubject::default(), None))),
        ),
        (
            "stamp: a digest that is none",
            vec!["ots", "stamp", "--digest", "00"],
            library(OtsRequest::Stamp(stamp(
                subject(None, None, Some("00")),
                None,
            ))),
        ),
        (
            "stamp: standard input without an output",
            vec!["ots", "stamp", "--file", "-"],
            library(OtsRequest::Stamp(stamp(
                subject(None, Some("-"), None),
                None,
            ))),
        ),
        (
            "stamp: standard input into a folder",
            vec!["ots", "stamp", "--file", "-", "-o", s(d)],
            library(OtsRequest::Stamp(stamp(
                subject(None, Some("-"), None),
                Some(d),
            ))),
        ),
        (
            "stamp: the file stamped as its own proof",
            vec!["ots", "stamp", "--file", s(&file), "-o", s(&file)],
            same_file,
        ),
        (
            "stamp: an existing proof, --no-clobber",
            vec!["-n", "ots", "stamp", "--digest", &hex, "-o", s(&kept)],
            exists,
        ),
        (
            "upgrade: standard input in place",
            vec!["ots", "upgrade", "-"],
            library(OtsRequest::Upgrade(OtsUpgradeRequest {
                proof: Some("-".into()),
                ..Default::default()
            })),
        ),
        (
            "upgrade: offline and refresh",
            vec!["ots", "upgrade", "a.ots", "--offline", "--refresh"],
            offline_refresh,
        ),
        (
            "verify: nothing it is of",
            vec!["ots", "verify", "a.ots"],
            library(OtsRequest::Verify(verify(
                "a.ots",
                ProofSubject::default(),
                None,
            ))),
        ),
        (
            "verify: a number and a digest",
            vec!["ots", "verify", "a.ots", SEED, "--digest", &hex],
            library(OtsRequest::Verify(verify(
                "a.ots",
                subject(Some(SEED), None, Some(&hex)),
                None,
            ))),
        ),
        (
            "verify: standard input twice",
            vec!["ots", "verify", "-", "--file", "-"],
            library(OtsRequest::Verify(verify(
                "-",
                subject(None, Some("-"), None),
                None,
            ))),
        ),
        (
            "verify: standard input as the record and the headers",
            vec!["ots", "verify", "a.ots", "-", "--headers", "-"],
            library(OtsRequest::Verify(verify(
                "a.ots",
                subject(Some("-"), None, None),
                Some("-"),
            ))),
        ),
    ];
    let calendars = [("PITH_OTS_CALENDARS", "http://127.0.0.1:9")];
    for (row, args, e) in &rows {
        let sentence = e.to_string();
        let mut said = None;
        for json in [false, true] {
            let o = cli_outcome(d, args, &calendars, json);
            assert!(!o.ok, "{row}: {o:?}");
            let line = o.sentence.clone().unwrap();
            assert!(
                line.starts_with(&sentence),
                "{row}: {line} (the library says {sentence:?})"
            );
            if json {
                assert_eq!(o.kind.as_deref(), Some(e.kind_name()), "{row}");
            }
            // The same line with and without --json.
            assert_eq!(said.get_or_insert_with(|| line.clone()), &line, "{row}");
        }
    }
    assert_eq!(std::fs::read(&kept).unwrap(), b"kept");
    let proofs = std::fs::read_dir(d)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "ots")
        })
        .count();
    assert_eq!(proofs, 1, "a proof was written");
}

/// Rows: `pith strip -` reads standard input as `inject -` does: `-o -` writes the bytes
/// Python's `strip` of the same bytes returns; in place is refused with inject's kind and
/// sentence at the CLI (Python's bytes in place alike), and no output with one sentence for
/// both commands, with and without `--json`.
#[test]
fn strip_reads_standard_input_as_inject_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, numbered) = inject_piped(d);
    let stripped = cli_in(d, &["strip", "-", "-o", "-"], &[], Some(&numbered.stdout));
    assert_eq!(stripped.code, 0, "{}", stripped.stderr);
    assert!(stripped.stdout.starts_with(&numbered.stdout));
    let python_too = have_python("strip_reads_standard_input_as_inject_does");
    if python_too {
        let input = d.join("numbered.pdf");
        std::fs::write(&input, &numbered.stdout).unwrap();
        let out = d.join("py.pdf");
        let py = python(
            d,
            "open(a[1], 'wb').write(pn.strip(open(a[0], 'rb').read())[0])",
            &[s(&input), s(&out)],
            &[],
        );
        assert!(py.ok, "{py:?}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            stripped.stdout,
            "stdout and memory differ"
        );
    }
    for json in [false, true] {
        let strip = cli_outcome(d, &["strip", "-", "--in-place"], &[], json);
        let inject = cli_outcome(
            d,
            &["inject", "-", "--number", SEED, "--in-place"],
            &[],
            json,
        );
        assert_eq!(strip, inject, "in place");
        if json {
            assert_eq!(strip.kind.as_deref(), Some("not_in_place"));
        }
        if python_too {
            let py = python(d, "pn.strip(b'%PDF-1.4', in_place=True)", &[], &[]);
            assert_eq!(py.kind.as_deref(), Some("not_in_place"), "{py:?}");
            assert!(strip
                .sentence
                .as_deref()
                .unwrap()
                .contains(py.sentence.as_deref().unwrap()));
        }
        let strip = cli_outcome(d, &["strip", "-"], &[], json);
        let inject = cli_outcome(d, &["inject", "-", "--number", SEED], &[], json);
        assert_eq!(strip, inject, "no output");
        assert!(
            strip
                .sentence
                .unwrap()
                .contains("standard input is not updated in place"),
            "no output"
        );
    }
}
