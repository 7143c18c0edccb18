//! Helpers shared by the integration tests: the `pith` command builder, fixtures and
//! constants, readers of what qpdf, exiftool and pdfinfo report, a time-limited runner and
//! the one writer of test PDFs ([`pdfgen`]); what pith-serve's harness needs too (skips, tool
//! checks, signed bundles) comes from `pith-testkit`. A test binary uses what it needs
//! (`mod common;`); nothing here knows pith's internals.
#![allow(dead_code)]

pub mod http;
pub mod pdfgen;
pub mod run;
pub mod tex;
pub mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(unused_imports)]
pub use pith_testkit::{
    have_python_module, have_tool, sign_hash, signed_bundle, skips, test_key, tools_required, wait,
};
#[allow(unused_imports)]
pub use run::{
    assert_one_line_error, batch_manifest, inject_seed, inject_seed_in_place, inject_seed_with,
    leftovers, run_pith, run_pith_with, Run,
};

/// The skips' summary, when the test binary exits ([`skips::print_summary`]).
#[dtor::dtor(unsafe)]
fn print_skips() {
    skips::print_summary();
}

/// The seed paper's number (arXiv 2402.03791v3, SPEC's worked example).
pub const SEED: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
/// The seed paper's short number.
pub const SEED_SHORT: &str = "pith:7BMK4ZKT";
/// The seed paper's 26-character code.
pub const SEED_CODE: &str = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
/// The seed paper's verification URL.
pub const SEED_URL: &str = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5";
/// The seed record's canonical SHA-256.
pub const SEED_HASH: &str = "f858ae65537d274c6d2ab040d6bdc58f56e405d9a90f6fe1018ac133bbda80a2";
/// Another published number (arXiv 2412.14374v1).
pub const OTHER: &str = "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL";
/// The attack strings: markup, quotes, CDATA end, a TeX command, a closing
/// parenthesis (ends a PDF literal string) and a TeX/PDF comment character.
pub const ATTACKS: [&str; 6] = [
    "<script>alert(1)</script>",
    "say \"hi\" & 'bye'",
    "x]]>y",
    "\\input{/etc/passwd}",
    "a)b",
    "100% sure",
];

/// The RDF namespace.
pub const RDF_NS: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/// The Dublin Core namespace.
pub const DC_NS: &str = "http://purl.org/dc/elements/1.1/";
/// The namespace of the `pith` XMP properties, as published (spelled out here on purpose: the
/// tests check the code against the published name, not against its own constant).
pub const PITH_NS: &str = "https://pith.science/ns/1.0/";

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared corpus (`../shared/corpus`, or `$PITH_CORPUS`), when present. Under
/// `PITH_REQUIRE_TOOLS=1` its absence is a failure.
pub fn corpus(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("PITH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/corpus"));
    if dir.is_dir() {
        return Some(dir);
    }
    if tools_required() {
        panic!(
            "{test}: corpus {} is missing (PITH_REQUIRE_TOOLS=1)",
            dir.display()
        );
    }
    skips::skip(
        test,
        &format!("the shared corpus {} is not present", dir.display()),
    );
    None
}

/// A corpus file's name as the corpus runs report it: its path under the corpus folder `dir`.
pub fn corpus_name(dir: &Path, file: &Path) -> String {
    file.strip_prefix(dir).unwrap_or(file).display().to_string()
}

/// Adds one to `key`'s count in a tally the threads of a corpus run share.
pub fn count_in(tally: &std::sync::Mutex<std::collections::BTreeMap<String, usize>>, key: String) {
    *tally.lock().unwrap().entry(key).or_default() += 1;
}

/// The label of the first needle `text` holds (`table`: needle, label), else "other": the
/// reason a corpus run counts a refusal under.
pub fn refusal_reason(text: &str, table: &[(&str, &str)]) -> String {
    table
        .iter()
        .find(|(needle, _)| text.contains(needle))
        .map_or("other", |(_, label)| label)
        .to_string()
}

/// A base URL on 127.0.0.1 where nothing listens (a port bound, then released): the arXiv and
/// resolver URLs of every command a test runs unless the test serves them itself, so that no
/// test can reach the internet, whatever the command does.
pub fn no_network() -> &'static str {
    static URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    URL.get_or_init(|| {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        format!("http://127.0.0.1:{}", l.local_addr().unwrap().port())
    })
}

/// An empty cache folder of its own for one command, so that what a user's runs left in
/// `~/.cache/pith` (a record, whose year a bare code may take) never changes a test's outcome;
/// a test that checks the cache sets `PITH_CACHE_DIR` itself.
pub fn fresh_cache() -> PathBuf {
    static ROOT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let root = ROOT.get_or_init(|| tempfile::tempdir().expect("temporary folder"));
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    root.path().join(format!("cache-{n}"))
}

/// A `pith` command for the binary under test, with the `PITH_*` environment cleared, the
/// network pointed at [`no_network`] (a test that serves arXiv or the resolver sets its own)
/// and an empty cache ([`fresh_cache`]).
pub fn pith() -> assert_cmd::Command {
    let mut c = assert_cmd::cargo::cargo_bin_cmd!("pith");
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") {
            c.env_remove(k);
        }
    }
    c.env("PITH_ARXIV_URL", no_network())
        .env("PITH_RESOLVER_URL", no_network())
        .env("PITH_WAYBACK_URL", no_network())
        .env("PITH_CACHE_DIR", fresh_cache());
    c
}

/// The guides in `docs/` (its Markdown files), in name order.
pub fn doc_guides() -> Vec<PathBuf> {
    let mut docs: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs
}

/// `pith batch ARGS… FROM --out-dir OUT`, ARGS ending with the flag FROM goes with (`--dir`,
/// `--manifest`): the command, to add to or run.
pub fn batch(args: &[&str], from: &Path, out: &Path) -> assert_cmd::Command {
    let mut c = pith();
    c.arg("batch")
        .args(args)
        .arg(from)
        .arg("--out-dir")
        .arg(out);
    c
}

/// Runs `pith inject IN --number N -o OUT [extra]` with a pinned `SOURCE_DATE_EPOCH` and a
/// 120 s limit: (exit code, stdout, stderr).
pub fn inject(input: &Path, number: &str, out: &Path, extra: &[&str]) -> (i32, String, String) {
    let o = pith()
        .arg("inject")
        .arg(input)
        .args(["--number", number, "-o"])
        .arg(out)
        .args(extra)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .expect("run pith");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Path of a file under `tests/data`.
pub fn data(name: &str) -> PathBuf {
    root().join("tests/data").join(name)
}

/// Path of a file under `tests/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures").join(name)
}

/// Every PDF below `dir` (by its `.pdf` ending, any case), in order of path.
pub fn pdfs_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdf")) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A fresh temporary directory, removed when dropped.
pub fn tmpdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// Copies `src` to `dst` (creating parent directories) with mode 0644.
pub fn copy_writable(src: &Path, dst: &Path) {
    if let Some(parent) = dst.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::copy(src, dst).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dst, std::fs::Permissions::from_mode(0o644)).unwrap();
}

/// The published vector of the seed record (`tests/data/records.json`).
pub fn seed_vector() -> serde_json::Value {
    let all: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(data("records.json")).unwrap()).unwrap();
    all.into_iter()
        .find(|v| v["pith_number"] == SEED && v.get("variant_of").is_none())
        .expect("the seed record is a published vector")
}

/// Path of a file under `examples`.
pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

/// Runs a program and returns (success, stdout, stderr).
pub fn run(program: &str, args: &[&str], dir: Option<&Path>) -> (bool, String, String) {
    let mut c = Command::new(program);
    c.args(args);
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let o = c
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
