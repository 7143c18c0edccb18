//! The network client against an HTTP server on 127.0.0.1 started by each test:
//! numbers from arXiv ids checked against the published vectors, the 3-second spacing with the
//! default settings (between two runs, and within one), the User-Agent and request URL,
//! retries on 503/429 honouring Retry-After, timeouts, truncated and malformed answers,
//! idDoesNotExist, deleted records, the cache (--offline, --refresh), older and next versions,
//! `--arxiv` as a record input, and `pith verify PAPER.pdf` against resolver answers (wrapped,
//! bare, 404, another record, receipts). Nothing here touches the internet.
//!
//! Elsewhere than the spacing tests, the spacing is lowered through its one option,
//! `PITH_ARXIV_SPACING_MS` (honoured for local servers only), to keep the run short.

use crate::common;

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::http::{arxiv_route, recorded, Reply, Server};
use crate::common::Run;
use serde_json::Value;

/// Runs pith with a clean environment (no PITH_* or proxy variables) plus `env`.
fn pith(env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
    for (k, _) in std::env::vars() {
        let l = k.to_ascii_lowercase();
        if k.starts_with("PITH_") || l.ends_with("_proxy") {
            c.env_remove(k);
        }
    }
    c.envs(env.iter().copied()).args(args);
    let o = c.output().expect("run pith");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A cache directory and the environment pointing pith at `arxiv` and `resolver` servers.
struct Env {
    cache: tempfile::TempDir,
    vars: Vec<(String, String)>,
}

impl Env {
    fn new(arxiv: Option<&Server>, resolver: Option<&Server>, fast: bool) -> Env {
        let cache = common::tmpdir();
        let mut vars = vec![(
            "PITH_CACHE_DIR".to_owned(),
            cache.path().display().to_string(),
        )];
        // A port nobody listens on stands in for a missing server.
        let dead = dead_url();
        vars.push((
            "PITH_ARXIV_URL".into(),
            arxiv.map_or(dead.clone(), Server::url),
        ));
        vars.push((
            "PITH_RESOLVER_URL".into(),
            resolver.map_or(dead, Server::url),
        ));
        if fast {
            vars.push(("PITH_ARXIV_SPACING_MS".into(), "20".into()));
            vars.push(("PITH_RESOLVER_SPACING_MS".into(), "0".into()));
        }
        Env { cache, vars }
    }

    fn with(mut self, k: &str, v: &str) -> Env {
        self.vars.push((k.into(), v.into()));
        self
    }

    fn run(&self, args: &[&str]) -> Run {
        let env: Vec<(&str, &str)> = self
            .vars
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        pith(&env, args)
    }
}

fn dead_url() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://127.0.0.1:{}", l.local_addr().unwrap().port())
}

/// The published vectors (tests/data/records.json), exact texts only.
fn vectors() -> Vec<Value> {
    let v: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(common::data("records.json")).unwrap())
            .unwrap();
    v.into_iter()
        .filter(|x| x.get("variant_of").is_none())
        .collect()
}

/// The published number of arXiv paper `id`.
fn published(id: &str) -> String {
    vectors()
        .iter()
        .find(|v| v["canonical_record"]["source"]["id"] == id)
        .map(|v| v["pith_number"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no vector for {id}"))
}

/// The 26-character code of arXiv paper `id`'s published number.
fn published_code(id: &str) -> String {
    published(id).rsplit(':').next().unwrap().to_owned()
}

fn published_record(id: &str) -> Value {
    vectors()
        .into_iter()
        .find(|v| v["canonical_record"]["source"]["id"] == id)
        .unwrap()
}

/// The number of a record as Python computes it from the SPEC (json.dumps sort_keys, compact
/// separators, ensure_ascii=False; SHA-256; base32, 26 characters): not pith's code.
fn python_number(record: &Value) -> Option<String> {
    if !common::have_tool("python3", "python_number") {
        return None;
    }
    let script = "import sys,json,hashlib,base64\nr=json.load(sys.stdin)\nb=json.dumps(r,sort_keys=True,separators=(',',':'),ensure_ascii=False).encode()\nd=hashlib.sha256(b).digest()\nprint('pith:%s:%s'%(r['metadata']['submitted_at'][:4],base64.b32encode(d).decode()[:26]))";
    let out = common::tools::python(script, record.to_string()).unwrap_or_else(|e| panic!("{e}"));
    Some(out.trim().to_owned())
}

fn user_agent() -> String {
    format!(
        "pith-number/{} (+https://pith.science)",
        env!("CARGO_PKG_VERSION")
    )
}

#[track_caller]
fn assert_error(r: &Run, code: i32, words: &[&str]) {
    assert_eq!(
        r.code, code,
        "exit code; stdout {} stderr {}",
        r.stdout, r.stderr
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let line = r.stderr.trim_end();
    assert_eq!(line.lines().count(), 1, "one line: {line:?}");
    assert!(line.starts_with("pith: "), "{line}");
    for w in words {
        assert!(line.contains(w), "{w:?} in {line:?}");
    }
}

#[test]
fn numbers_of_arxiv_ids_are_the_published_ones() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    // Every recorded paper with a published number, in the forms authors paste.
    let ids: Vec<String> = vectors()
        .iter()
        .map(|v| {
            v["canonical_record"]["source"]["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .filter(|id| {
            common::data("net/getrecord")
                .join(format!("{id}.xml"))
                .exists()
        })
        .collect();
    assert!(ids.len() >= 8, "{ids:?}");
    let forms: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| match i % 4 {
            0 => id.clone(),
            1 => format!("arXiv:{id}"),
            2 => format!("https://arxiv.org/abs/{id}"),
            _ => {
                let v = published_record(id)["canonical_record"]["source"]["version"].clone();
                format!("{id}v{v}")
            }
        })
        .collect();
    let args: Vec<&str> = std::iter::once("number")
        .chain(forms.iter().map(String::as_str))
        .collect();
    let r = env.run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), ids.len(), "{}", r.stdout);
    for (line, id) in lines.iter().zip(&ids) {
        let (number, vid) = line.split_once("  ").unwrap();
        assert_eq!(number, published(id), "{id}");
        assert!(vid.starts_with(id.as_str()), "{line}");
    }
    // One paper alone: the number only. The request is arXiv's GetRecord in arXivRaw, with
    // pith's User-Agent.
    let r = env.run(&["number", "--refresh", "2402.03791v3"]);
    assert_eq!(r.stdout.trim(), published("2402.03791"), "{}", r.stderr);
    let reqs = server.requests();
    assert_eq!(reqs.len(), ids.len() + 1);
    let last = reqs.last().unwrap();
    assert_eq!(
        last.target,
        "/oai2?verb=GetRecord&identifier=oai:arXiv.org:2402.03791&metadataPrefix=arXivRaw"
    );
    assert_eq!(last.method, "GET");
    for q in &reqs {
        assert_eq!(q.header("user-agent"), Some(user_agent().as_str()));
    }
    // --json and --tex.
    let r = env.run(&["number", "--offline", "--json", "2402.03791"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["pith_number"], published("2402.03791"));
    assert_eq!(v["arxiv_id"], "2402.03791v3");
    let r = env.run(&["number", "--offline", "--tex", "2402.03791"]);
    assert_eq!(
        r.stdout.trim(),
        format!("\\pithnumber{{{}}}", published("2402.03791"))
    );
}

#[test]
fn old_style_ids_keep_their_slash() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let r = env.run(&["number", "hep-th/9901001", "arXiv:math/0406128"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The same papers read from the bulk arXivRaw file give the same numbers.
    let bulk = env.run(&[
        "number",
        "--arxiv-oai",
        common::data("arxiv/extras.arxivraw.xml").to_str().unwrap(),
    ]);
    for id in ["hep-th/9901001", "math/0406128"] {
        let line = r.stdout.lines().find(|l| l.contains(id)).unwrap();
        let number = line.split_whitespace().next().unwrap();
        let b: Value = bulk
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| v["id"] == id)
            .unwrap();
        assert_eq!(b["number"], number, "{id}");
    }
    assert!(server.requests().iter().any(|q| q
        .target
        .contains("identifier=oai:arXiv.org:hep-th/9901001&")));
}

#[test]
fn default_spacing_is_three_seconds_within_and_across_runs() {
    let server = Server::start(arxiv_route);
    // No spacing variable: the defaults.
    let env = Env::new(Some(&server), None, false);
    let r = env.run(&["number", "2402.03791", "2412.14374"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = env.run(&["number", "1608.03461"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    for w in reqs.windows(2) {
        let gap = w[1].at - w[0].at;
        assert!(
            gap >= Duration::from_millis(2950),
            "requests {gap:?} apart, expected 3 s"
        );
    }
}

#[test]
fn concurrent_runs_share_the_spacing() {
    let server = Server::start(arxiv_route);
    // The spacing lowered to 1 s through its option, for three processes started together.
    let env = Env::new(Some(&server), None, false).with("PITH_ARXIV_SPACING_MS", "1000");
    let runs: Vec<_> = ["2402.03791", "2412.14374", "1608.03461"]
        .into_iter()
        .map(|id| {
            let mut c = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
            for (k, _) in std::env::vars() {
                if k.starts_with("PITH_") || k.to_ascii_lowercase().ends_with("_proxy") {
                    c.env_remove(k);
                }
            }
            c.envs(env.vars.iter().map(|(k, v)| (k, v)))
                .args(["number", id])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for r in runs {
        assert!(r.wait_with_output().unwrap().status.success());
    }
    let mut at: Vec<Instant> = server.requests().iter().map(|q| q.at).collect();
    at.sort();
    assert_eq!(at.len(), 3);
    for w in at.windows(2) {
        assert!(
            w[1] - w[0] >= Duration::from_millis(950),
            "{:?}",
            w[1] - w[0]
        );
    }
}

#[test]
fn cache_offline_and_refresh() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let want = published("2402.03791");
    assert_eq!(env.run(&["number", "2402.03791"]).stdout.trim(), want);
    assert_eq!(server.requests().len(), 1);
    // The answer is cached, under its latest version.
    assert!(env.cache.path().join("arxiv/2402.03791/v3.xml").is_file());
    // A fresh cached answer is used without asking; --offline too; --refresh asks again.
    assert_eq!(env.run(&["number", "2402.03791"]).stdout.trim(), want);
    assert_eq!(
        env.run(&["number", "--offline", "2402.03791v3"])
            .stdout
            .trim(),
        want
    );
    assert_eq!(server.requests().len(), 1);
    assert_eq!(
        env.run(&["number", "--refresh", "2402.03791"])
            .stdout
            .trim(),
        want
    );
    assert_eq!(server.requests().len(), 2);
    // Offline, an uncached id is an error naming it, and nothing is asked.
    let r = env.run(&["number", "--offline", "2412.14374"]);
    assert_error(&r, 2, &["2412.14374", "offline", "without --offline"]);
    assert_eq!(server.requests().len(), 2);
    drop(server);
    // With the server gone, the cache still answers offline.
    assert_eq!(
        env.run(&["number", "--offline", "2402.03791"])
            .stdout
            .trim(),
        want
    );
}

#[test]
fn unknown_malformed_deleted_and_unreachable_ids() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let r = env.run(&["number", "2401.99999"]);
    assert_error(
        &r,
        2,
        &["2401.99999", "no paper with this id", "check the id"],
    );
    let r = env.run(&["number", "0704.0002"]);
    assert_error(&r, 2, &["0704.0002", "deleted"]);
    let n = server.requests().len();
    for bad in [
        "2402.3791",
        "2402.03791v0",
        "https://example.org/abs/2402.03791",
        "nonsense",
    ] {
        let r = env.run(&["number", bad]);
        assert_error(&r, 2, &[bad, "not an arXiv id"]);
    }
    assert_eq!(server.requests().len(), n, "a malformed id is not sent");
    // Several ids: the good ones are printed, each failure has its line, the exit is 2.
    let r = env.run(&["number", "2402.03791", "2401.99999"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(r.stderr.contains("2401.99999"), "{}", r.stderr);
    // No server: the id, what failed and what to do.
    let down = Env::new(None, None, true);
    let r = down.run(&["number", "2402.03791"]);
    assert_error(&r, 2, &["2402.03791", "cannot connect", "--offline"]);
}

/// A server answering from `script` in turn (the last reply repeats), arXiv's answer after.
fn scripted(script: Vec<Reply>) -> Server {
    let script = Arc::new(script);
    Server::start(move |r, n| match script.get(n) {
        Some(reply) => reply.clone(),
        None => arxiv_route(r, n),
    })
}

#[test]
fn retries_honour_retry_after_and_give_up() {
    let server = scripted(vec![
        Reply::status(503).header("Retry-After", "1"),
        Reply::status(429),
    ]);
    let env = Env::new(Some(&server), None, true);
    let r = env.run(&["number", "2402.03791"]);
    assert_eq!(r.stdout.trim(), published("2402.03791"), "{}", r.stderr);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert!(
        reqs[1].at - reqs[0].at >= Duration::from_millis(950),
        "Retry-After honoured"
    );
    // A server that keeps failing: 1 + 3 retries, then the status and what to do.
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    let failing = Server::start(move |_, _| {
        c.fetch_add(1, Ordering::SeqCst);
        Reply::status(500)
    });
    let env = Env::new(Some(&failing), None, true);
    let r = env.run(&["number", "2402.03791"]);
    assert_error(&r, 2, &["2402.03791", "HTTP 500", "try again later"]);
    assert_eq!(count.load(Ordering::SeqCst), 4);
    // A Retry-After beyond what pith waits for is reported at once.
    let far = scripted(vec![Reply::status(503).header("Retry-After", "3600")]);
    let env = Env::new(Some(&far), None, true);
    let r = env.run(&["number", "2402.03791"]);
    assert_error(&r, 2, &["HTTP 503", "retry after 3600 s"]);
    assert_eq!(far.requests().len(), 1);
}

#[test]
fn slow_truncated_and_malformed_answers_are_errors_and_not_cached() {
    let full = recorded("2402.03791");
    let slow = scripted(vec![Reply::ok(full.clone()).delay(Duration::from_secs(3))]);
    let env = Env::new(Some(&slow), None, true).with("PITH_NET_TIMEOUT_MS", "500");
    let r = env.run(&["number", "2402.03791"]);
    // The answer would have come after 3 s and been a success: "timed out" is pith giving
    // up before it, and the stand-in's log counts how often it asked.
    assert_error(&r, 2, &["2402.03791", "timed out"]);
    assert_eq!(
        slow.requests().len(),
        1,
        "a timed-out question is not asked again"
    );
    // --timeout says the same.
    let slow = scripted(vec![Reply::ok(full.clone()).delay(Duration::from_secs(3))]);
    let env = Env::new(Some(&slow), None, true);
    let r = env.run(&["number", "--timeout", "0.5", "2402.03791"]);
    assert_error(&r, 2, &["timed out"]);

    let cut = scripted(vec![Reply::ok(full.clone()).truncated(full.len() / 2)]);
    let env = Env::new(Some(&cut), None, true);
    let r = env.run(&["number", "2402.03791"]);
    assert_error(&r, 2, &["2402.03791", "could not be read"]);
    let r = env.run(&["number", "--offline", "2402.03791"]);
    assert_error(&r, 2, &["not in the cache"]);

    let half = scripted(vec![Reply::ok(full[..full.len() / 2].to_vec())]);
    let env = Env::new(Some(&half), None, true);
    let r = env.run(&["number", "2402.03791"]);
    assert_error(&r, 2, &["2402.03791", "unexpected answer"]);
    let html = scripted(vec![Reply::ok("<html><body>maintenance</body></html>")]);
    let env = Env::new(Some(&html), None, true);
    let r = env.run(&["number", "2402.03791"]);
    assert_error(&r, 2, &["2402.03791", "unexpected answer"]);
    assert!(!env.cache.path().join("arxiv/2402.03791").exists());
}

#[test]
fn older_and_next_versions() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let dir = common::tmpdir();
    let rec = published_record("2402.03791");
    // An older version without its texts: refused, saying why and what to give.
    let r = env.run(&["number", "2402.03791v2"]);
    assert_error(
        &r,
        2,
        &[
            "2402.03791v2",
            "not the latest version (v3)",
            "--title-file",
            "--abstract-file",
        ],
    );
    let r = env.run(&["number", "2402.03791v4"]);
    assert_error(&r, 2, &["does not exist", "latest is v3"]);
    // With them: version 2, the v1 date, the texts given.
    let (title, abs) = ("An earlier title", "An earlier abstract.");
    let (tf, af) = (dir.path().join("t.txt"), dir.path().join("a.txt"));
    std::fs::write(&tf, title).unwrap();
    std::fs::write(&af, abs).unwrap();
    let r = env.run(&[
        "number",
        "2402.03791v2",
        "--title-file",
        tf.to_str().unwrap(),
        "--abstract-file",
        af.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sha = |t: &str| {
        use sha2::Digest;
        let canon = t
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        pith::number::hex(&sha2::Sha256::digest(canon.as_bytes()))
    };
    let mut older = rec["canonical_record"].clone();
    older["source"]["version"] = 2.into();
    older["metadata"]["title_canon_sha256"] = sha(title).into();
    older["metadata"]["abstract_canon_sha256"] = sha(abs).into();
    if let Some(want) = python_number(&older) {
        assert_eq!(r.stdout.trim(), want);
    }
    // The next version: v4, v1's date, the latest metadata.
    let r = env.run(&["number", "2402.03791", "--next"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut next = rec["canonical_record"].clone();
    next["source"]["version"] = 4.into();
    if let Some(want) = python_number(&next) {
        assert_eq!(r.stdout.trim(), want);
        let r = env.run(&["number", "2402.03791v3", "--next", "--tex"]);
        assert_eq!(r.stdout.trim(), format!("\\pithnumber{{{want}}}"));
    }
    assert!(r.stderr.contains("v1's date stays"), "{}", r.stderr);
    // Overridden fields.
    let r = env.run(&[
        "number",
        "2402.03791",
        "--next",
        "--primary",
        "cs.LG",
        "--cross",
        "cs.DC",
        "--license",
        "http://creativecommons.org/licenses/by/4.0/",
        "--title-file",
        tf.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    next["metadata"]["primary_cat"] = "cs.LG".into();
    next["metadata"]["cross_cats_sorted"] = serde_json::json!(["cs.DC"]);
    next["metadata"]["license"] = "http://creativecommons.org/licenses/by/4.0/".into();
    next["metadata"]["title_canon_sha256"] = sha(title).into();
    if let Some(want) = python_number(&next) {
        assert_eq!(r.stdout.trim(), want);
    }
    let r = env.run(&["number", "2402.03791", "--next", "--primary", "cs.dc"]);
    assert_error(&r, 2, &["did you mean cs.DC?"]);
    let r = env.run(&["number", "2402.03791v2", "--next"]);
    assert_error(&r, 2, &["the next version is v4"]);
}

#[test]
fn arxiv_is_a_record_input_everywhere() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let rec = published_record("2412.14374");
    let r = env.run(&["record", "--arxiv", "2412.14374"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(got, rec["canonical_record"]);
    let number = rec["pith_number"].as_str().unwrap();
    let code = number.rsplit(':').next().unwrap();
    let r = env.run(&["verify", "--arxiv", "2412.14374", number]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}",
        r.stdout
    );
    let r = env.run(&["badge", "--arxiv", "2412.14374", "--full"]);
    assert!(r.stdout.contains(&code[..8]), "{}", r.stderr);
    let r = env.run(&["snippet", "--arxiv", "arXiv:2412.14374", "--format", "md"]);
    assert!(r.stdout.contains(code), "{}", r.stderr);
    let out = env.cache.path().join("out.pdf");
    let r = env.run(&[
        "inject",
        common::fixture("minimal.pdf").to_str().unwrap(),
        "--arxiv",
        "2412.14374",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = env.run(&[
        "inspect",
        out.to_str().unwrap(),
        "--arxiv",
        "2412.14374",
        "--offline",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(number), "{}", r.stdout);
    // One request in all: the cache served the rest.
    assert_eq!(server.requests().len(), 1);
}

/// The resolver: `records` maps a code to the JSON served at /pith/<code>.json, `bundles` to
/// /pith/<code>/bundle.json; anything else is a 404.
fn resolver(records: Vec<(String, Value)>, bundles: Vec<(String, Value)>) -> Server {
    Server::start(move |r, _| {
        for (code, v) in &records {
            if r.target == format!("/pith/{code}.json") {
                return Reply::ok(v.to_string());
            }
        }
        for (code, v) in &bundles {
            if r.target == format!("/pith/{code}/bundle.json") {
                return Reply::ok(v.to_string());
            }
        }
        Reply::status(404)
    })
}

/// A PDF carrying `number` (written by `pith inject`).
fn pdf_with(env: &Env, number: &str) -> std::path::PathBuf {
    let out = env
        .cache
        .path()
        .join(format!("{}.pdf", number.replace(':', "_")));
    let r = env.run(&[
        "inject",
        common::fixture("minimal.pdf").to_str().unwrap(),
        "--number",
        number,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    out
}

#[test]
fn verify_a_pdf_against_the_resolver() {
    let rec = published_record("2402.03791");
    let number = rec["pith_number"].as_str().unwrap();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let wrapped = serde_json::json!({
        "pith_number": rec["pith_number"],
        "canonical_sha256": rec["canonical_sha256"],
        "canonical_record": rec["canonical_record"],
    });
    let (bundle, key) = common::signed_bundle(&rec);
    let server = resolver(
        vec![(code.clone(), wrapped)],
        vec![(code.clone(), bundle.clone())],
    );
    let env = Env::new(None, Some(&server), true);
    let pdf = pdf_with(&env, number);
    let p = pdf.to_str().unwrap();
    // The registry key does not know the test key: no mismatch, but not verified.
    let r = env.run(&["verify", p]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("arXiv:2402.03791v3"), "{}", r.stdout);
    assert!(r.stdout.contains(number), "{}", r.stdout);
    assert!(
        r.stdout
            .trim_end()
            .ends_with("so this is not a verified match."),
        "{}",
        r.stdout
    );
    // With the key, the receipt verifies.
    let r = env.run(&["verify", p, "--key", &key, "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "verified", "{v}");
    assert_eq!(v["arxiv_id"], "2402.03791");
    assert_eq!(v["arxiv_version"], 3);
    assert_eq!(v["found_in"], "XMP");
    let reqs: Vec<String> = server.requests().iter().map(|q| q.target.clone()).collect();
    assert_eq!(
        reqs,
        [
            format!("/pith/{code}.json"),
            format!("/pith/{code}/bundle.json"),
            format!("/pith/{code}/bundle.json")
        ],
        "the second run used the record kept; the bundle, which did not verify with the keys \
         of the first run, was not kept and is asked for again"
    );
    assert_eq!(
        server.requests()[0].header("user-agent"),
        Some(user_agent().as_str())
    );
    // Offline, from the cache; and from files, with no server at all.
    drop(server);
    let r = env.run(&["verify", p, "--key", &key, "--offline"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}",
        r.stdout
    );
    let files = Env::new(None, None, true);
    let bfile = files.cache.path().join("bundle.json");
    std::fs::write(&bfile, bundle.to_string()).unwrap();
    let r = files.run(&[
        "verify",
        p,
        "--bundle",
        bfile.to_str().unwrap(),
        "--key",
        &key,
    ]);
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let rfile = files.cache.path().join("rec.json");
    std::fs::write(&rfile, rec["canonical_record"].to_string()).unwrap();
    let r = files.run(&["verify", p, "--record", rfile.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("arXiv:2402.03791v3"), "{}", r.stdout);
    // Another paper's record: a mismatch, exit 1.
    let other = published_record("2412.14374");
    std::fs::write(&rfile, other["canonical_record"].to_string()).unwrap();
    let r = files.run(&["verify", p, "--record", rfile.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("MISMATCH"), "{}", r.stdout);
}

#[test]
fn verify_bare_records_404s_and_url_only_pdfs() {
    let rec = published_record("2412.14374");
    let number = rec["pith_number"].as_str().unwrap();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let seed_code = published_code("2402.03791");
    // A bare record for one code; for the seed's code, another paper's record.
    let server = resolver(
        vec![
            (code.clone(), rec["canonical_record"].clone()),
            (seed_code.clone(), rec["canonical_record"].clone()),
        ],
        vec![],
    );
    let env = Env::new(None, Some(&server), true);
    let pdf = pdf_with(&env, number);
    let r = env.run(&["verify", pdf.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("no bundle"), "{}", r.stdout);
    assert!(r.stdout.contains("arXiv:2412.14374v1"), "{}", r.stdout);
    // Offline: the cached record, and the bundle said to be unknown rather than failed.
    let r = env.run(&["verify", pdf.to_str().unwrap(), "--offline"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("no bundle in the cache (offline)"),
        "{}",
        r.stdout
    );
    // A PDF carrying only the record link (bare code, no year) verifies through its code.
    let link = format!("<< /PithURL (https://pith.science/pith/{code}) >>");
    let bare = env.cache.path().join("link-only.pdf");
    std::fs::write(
        &bare,
        common::pdfgen::build_pdf(Some(link.as_bytes()), None),
    )
    .unwrap();
    let r = env.run(&["verify", bare.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["found_in"], "record link");
    assert_eq!(v["pith_number"], code);
    // Nothing in the metadata, only the stamp's or badge's link on page 1.
    let page = env.cache.path().join("page-link.pdf");
    std::fs::write(
        &page,
        pdf_with_link(&format!("https://pith.science/pith/{code}")),
    )
    .unwrap();
    let r = env.run(&["verify", page.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["found_in"], "page 1 link");
    assert_eq!(v["arxiv_id"], "2412.14374");
    // The resolver serves another record for the seed's code: a mismatch.
    let seed_pdf = pdf_with(&env, &published("2402.03791"));
    let r = env.run(&["verify", seed_pdf.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("MISMATCH"), "{}", r.stdout);
    // A number the resolver does not know: exit 1, saying so.
    let unknown = pdf_with(&env, "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA");
    let r = env.run(&["verify", unknown.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("no record of"), "{}", r.stdout);
    // A PDF without a number: exit 1 (README: a mismatch or no number), naming the file.
    let none = env.cache.path().join("none.pdf");
    std::fs::copy(common::fixture("minimal.pdf"), &none).unwrap();
    let r = env.run(&["verify", none.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("none.pdf") && r.stdout.contains("NO NUMBER"),
        "{}",
        r.stdout
    );
    let r = env.run(&["verify", none.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "no_number");
    assert_eq!(v["pith_number"], Value::Null);
    // The resolver unreachable: exit 2, what to do.
    let down = Env::new(None, None, true);
    let r = down.run(&["verify", pdf.to_str().unwrap()]);
    assert_error(&r, 2, &["cannot connect", "--offline"]);
}

#[test]
fn proxies_are_used_unless_no_proxy_says_otherwise() {
    let server = Server::start(arxiv_route);
    let proxy = Server::start(|_, _| Reply::status(502));
    let env = Env::new(Some(&server), None, true).with("HTTP_PROXY", &proxy.url());
    let r = env.run(&["number", "2402.03791"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!proxy.requests().is_empty(), "the proxy was asked");
    assert!(server.requests().is_empty());
    let env = env.with("NO_PROXY", "127.0.0.1");
    let r = env.run(&["number", "2402.03791"]);
    assert_eq!(r.stdout.trim(), published("2402.03791"), "{}", r.stderr);
    assert_eq!(server.requests().len(), 1);
}

/// A one-page PDF without metadata whose page carries one link annotation to `uri` (as the
/// stamp and pith.sty's badge write it).
fn pdf_with_link(uri: &str) -> Vec<u8> {
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>".to_owned(),
        format!(
            "<< /Type /Annot /Subtype /Link /Rect [10 10 90 20] /Border [0 0 0] \
             /A << /Type /Action /S /URI /URI ({uri}) >> >>"
        ),
    ];
    crate::common::pdfgen::classic_text(&objs)
}

/// `pith inject --number <26>` (the bare code pith.science's record pages give): the year comes
/// from the code's record at the resolver, checked against the code; offline and uncached, or
/// when the resolver serves another paper's record, it is refused, saying what to give.
#[test]
fn a_bare_code_takes_its_year_from_the_resolver() {
    let rec = published_record("2402.03791");
    let number = rec["pith_number"].as_str().unwrap().to_owned();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let other_code = published_code("2412.14374");
    let server = resolver(
        vec![
            (code.clone(), rec["canonical_record"].clone()),
            // A resolver that answers with another paper's record for this code.
            (other_code.clone(), rec["canonical_record"].clone()),
        ],
        vec![],
    );
    let env = Env::new(None, Some(&server), true);
    let input = common::fixture("minimal.pdf");
    let out = env.cache.path().join("bare.pdf");
    let inject = |code: &str, extra: &[&str]| {
        let mut args = vec![
            "inject",
            input.to_str().unwrap(),
            "--number",
            code,
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        env.run(&args)
    };
    // Offline, with nothing cached: refused, naming what to give.
    let r = inject(&code, &["--offline"]);
    assert_error(
        &r,
        2,
        &["a bare code has no year", "pith:YYYY:", "pith number"],
    );
    assert!(!out.exists());
    // Online: the full number, read back by tools we did not write.
    let r = inject(&code, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(&number), "{}", r.stdout);
    if common::have_tool("pdfinfo", "a_bare_code_takes_its_year_from_the_resolver") {
        let info = common::tools::pdfinfo_custom(&out, "PithNumber");
        assert_eq!(info.as_deref(), Some(number.as_str()));
    }
    // Now cached: offline works too.
    std::fs::remove_file(&out).unwrap();
    let r = inject(&code, &["--offline"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Another paper's record for the code: refused, nothing written.
    std::fs::remove_file(&out).unwrap();
    let r = inject(&other_code, &[]);
    assert_error(&r, 2, &["a bare code has no year", "not of"]);
    assert!(!out.exists());
}

#[test]
fn connection_failures_name_the_host_and_waits_are_told_with_v() {
    // Nothing listens: the host asked, the variable that points pith elsewhere, the OS's
    // reason in words, and what to do.
    let down = Env::new(None, None, true);
    let r = down.run(&["number", "2402.03791"]);
    assert_error(
        &r,
        2,
        &[
            "2402.03791",
            "cannot connect to 127.0.0.1",
            "PITH_ARXIV_URL",
            "connection refused",
            "--offline",
        ],
    );
    assert!(!r.stderr.contains("os error"), "{}", r.stderr);
    let pdf = pdf_with(&down, &published("2402.03791"));
    let r = down.run(&["verify", pdf.to_str().unwrap()]);
    assert_error(
        &r,
        2,
        &[
            "cannot connect to 127.0.0.1",
            "PITH_RESOLVER_URL",
            "--offline",
        ],
    );
    // -v says why a run pauses: the server's Retry-After, then arXiv's spacing.
    let server = scripted(vec![Reply::status(503).header("Retry-After", "1")]);
    let env = Env::new(Some(&server), None, false).with("PITH_ARXIV_SPACING_MS", "700");
    let r = env.run(&["-v", "number", "2402.03791", "2412.14374"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(server.requests().len(), 3);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert!(
        lines
            .contains(&"pith: 127.0.0.1 answered HTTP 503; waiting 1.0 s, as its Retry-After asks"),
        "{lines:?}"
    );
    let spacing: Vec<&&str> = lines
        .iter()
        .filter(|l| {
            l.starts_with("pith: waiting ") && l.contains(" s before asking 127.0.0.1: arXiv asks")
        })
        .collect();
    assert_eq!(spacing.len(), 1, "{lines:?}");
    // Without -v the same pauses are silent.
    let plain = Server::start(arxiv_route);
    let quiet = Env::new(Some(&plain), None, false).with("PITH_ARXIV_SPACING_MS", "300");
    let r = quiet.run(&["number", "2402.03791", "2412.14374"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
}

/// A paper compiled with the number of the version arXiv has not announced yet (`pith number
/// --next`): the resolver has no record of it, so `pith verify` says UNKNOWN, exit 1, not
/// MISMATCH; the command its sentence names checks it against arXiv's next version and passes.
#[test]
fn an_unannounced_version_is_unknown_and_the_named_command_checks_it() {
    let arxiv = Server::start(arxiv_route);
    let resolver = resolver(Vec::new(), Vec::new());
    let env = Env::new(Some(&arxiv), Some(&resolver), true);
    let r = env.run(&["number", "2402.03791", "--next"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let next = r.stdout.trim().to_owned();
    let pdf = pdf_with(&env, &next);
    let p = pdf.to_str().unwrap();
    let r = env.run(&["verify", p, "--json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown", "{v}");
    let headline = v["headline"].as_str().unwrap();
    let named = format!("pith verify {p} --arxiv ID --next");
    assert!(
        headline.starts_with("UNKNOWN: ") && headline.contains(&named),
        "{headline}"
    );
    let r = env.run(&["verify", p]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().last(), Some(headline), "{}", r.stdout);
    assert!(!r.stdout.contains("MISMATCH"), "{}", r.stdout);
    // The command the sentence names, with the paper's arXiv id.
    let r = env.run(&["verify", p, "--arxiv", "2402.03791", "--next"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.lines().last().unwrap().starts_with("VERIFIED: "),
        "{}",
        r.stdout
    );
}

/// A mirror manifest (`pith_mirror_manifest`) naming `mirrors` (name, base URL) in order,
/// each with the test key and the fingerprint `fingerprint` stated for it.
fn manifest(mirrors: &[(&str, String)], fingerprint: &str) -> String {
    let key = common::test_key();
    let list: Vec<Value> = mirrors
        .iter()
        .map(|(name, base)| {
            serde_json::json!({"name": name, "mirror_type": "http", "base_url": base,
                "bundle_pattern": format!("{base}/pith/{{suffix}}/bundle.json"),
                "public_key": {"key_id": "test", "algorithm": "ed25519", "format": "raw",
                    "public_key_b64": key, "fingerprint_sha256_hex": fingerprint}})
        })
        .collect();
    serde_json::json!({"manifest_type": "pith_mirror_manifest", "manifest_version": "1.0",
        "mirrors": list})
    .to_string()
}

/// SHA-256 of the test key's raw bytes, first 16 bytes in hex, by Python's hashlib (by
/// pith's own code when Python is missing).
fn test_key_fingerprint() -> String {
    let key = common::test_key();
    if common::have_tool("python3", "test_key_fingerprint") {
        let script = "import sys,hashlib,base64;print(hashlib.sha256(base64.b64decode(sys.stdin.read())).digest()[:16].hex())";
        return common::tools::python(script, &key)
            .unwrap()
            .trim()
            .to_owned();
    }
    pith::verify::Key::parse(&key).unwrap().fingerprint()
}

/// Three mirrors on 127.0.0.1, in the manifest's order: one down, one serving another paper's
/// record for the code and a bundle whose receipt was tampered with, one good. The answer is
/// the good one's, named; the verdict is what the good mirror alone gives. The key that signed
/// the receipts is pinned with `--key`: the key the manifest states is a name, never trust.
#[test]
fn mirrors_are_tried_in_turn_and_only_signatures_are_believed() {
    let rec = published_record("2402.03791");
    let number = rec["pith_number"].as_str().unwrap().to_owned();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let wrapped = serde_json::json!({"pith_number": rec["pith_number"],
        "canonical_sha256": rec["canonical_sha256"], "canonical_record": rec["canonical_record"]});
    let (bundle, _) = common::signed_bundle(&rec);
    let other = published_record("2412.14374");
    let mut tampered = bundle.clone();
    tampered["events"][0]["payload"]["receipt"]["signature_b64"] =
        common::sign_hash(other["canonical_sha256"].as_str().unwrap()).into();
    let bad = resolver(
        vec![(code.clone(), other["canonical_record"].clone())],
        vec![(code.clone(), tampered)],
    );
    let good = resolver(vec![(code.clone(), wrapped)], vec![(code.clone(), bundle)]);
    let down = dead_url();
    let fp = test_key_fingerprint();
    let env = Env::new(None, None, true);
    let file = env.cache.path().join("mirrors.json");
    let three = [
        ("down", down.clone()),
        ("tampered", bad.url()),
        ("good", good.url()),
    ];
    std::fs::write(&file, manifest(&three, &fp)).unwrap();
    let env = env.with("PITH_MIRRORS", file.to_str().unwrap());
    let pdf = pdf_with(&env, &number);
    let p = pdf.to_str().unwrap();

    // The test key pinned: its receipt verifies.
    let key = common::test_key();
    let r = env.run(&["verify", p, "--json", "--refresh", "--key", &key]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "verified", "{v}");
    assert_eq!(v["mirror"]["name"], "good", "{v}");
    assert_eq!(v["mirror"]["base_url"], good.url().as_str());
    // The tampered mirror was asked, and passed over.
    let asked: Vec<String> = bad.requests().iter().map(|q| q.target.clone()).collect();
    assert!(
        asked.contains(&format!("/pith/{code}/bundle.json")),
        "{asked:?}"
    );
    let r = env.run(&["verify", p, "--refresh", "--key", &key]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(&format!("good ({})", good.url())),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}",
        r.stdout
    );

    // Again: from the cache, asking no one, the key still pinned; offline too.
    let asked = good.requests().len() + bad.requests().len();
    for extra in [&[][..], &["--offline"][..]] {
        let mut args = vec!["verify", p, "--json", "--key", &key];
        args.extend_from_slice(extra);
        let r = env.run(&args);
        let c: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(c["verdict"], "verified", "{c}");
        assert_eq!(c["mirror"], Value::Null, "from the cache: {c}");
    }
    assert_eq!(good.requests().len() + bad.requests().len(), asked);

    // A bare code takes its year from the mirrors too, passing over another paper's record.
    let out = env.cache.path().join("bare.pdf");
    let r = env.run(&[
        "inject",
        common::fixture("minimal.pdf").to_str().unwrap(),
        "--number",
        &code,
        "-o",
        out.to_str().unwrap(),
        "--refresh",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&number), "{}", r.stdout);

    // The same verdict whatever the order, the good mirror first.
    let env2 = Env::new(None, None, true);
    let file2 = env2.cache.path().join("mirrors.json");
    let order = [
        ("good", good.url()),
        ("down", down.clone()),
        ("tampered", bad.url()),
    ];
    std::fs::write(&file2, manifest(&order, &fp)).unwrap();
    let env2 = env2.with("PITH_MIRRORS", file2.to_str().unwrap());
    let r = env2.run(&["verify", p, "--json", "--key", &key]);
    let v2: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (&v2["verdict"], &v2["mirror"]),
        (&v["verdict"], &v["mirror"])
    );

    // Not pinned: the manifest states the key with its own fingerprint, which adds no trust;
    // nothing verifies.
    let env3 = Env::new(None, None, true);
    let file3 = env3.cache.path().join("mirrors.json");
    std::fs::write(&file3, manifest(&[("good", good.url())], &fp)).unwrap();
    let env3 = env3.with("PITH_MIRRORS", file3.to_str().unwrap());
    let r = env3.run(&["verify", p, "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v3: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v3["verdict"], "unverified", "{v3}");

    // A manifest that cannot be read is an error naming it.
    let r = Env::new(None, None, true)
        .with("PITH_MIRRORS", "/nonexistent/mirrors.json")
        .run(&["verify", p]);
    assert_error(&r, 2, &["PITH_MIRRORS", "/nonexistent/mirrors.json"]);
}
