//! The network client against an HTTP server on 127.0.0.1 started by each test:
//! numbers from arXiv ids checked against the published vectors, the 3-second spacing with the
//! default settings (between two runs, and within one), the User-Agent and request URL,
//! retries on 503/429 honouring Retry-After, timeouts, truncated and malformed answers,
//! idDoesNotExist, deleted records, the cache (--offline, --refresh). Older and next versions
//! and `--arxiv` as a record input are in `net_versions`, `pith verify PAPER.pdf` against
//! resolver answers in `net_verify`, mirrors in `net_mirrors`. Nothing here touches the internet.
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

use crate::net_verify::pdf_with;

/// Runs pith with a clean environment (no PITH_* or proxy variables) plus `env`.
fn pith(env: &[(&str, &str)], args: &[&str]) -> Run {
    crate::common::run::run_pith_in(env, args)
}

/// A cache directory and the environment pointing pith at `arxiv` and `resolver` servers.
pub(crate) struct Env {
    pub(crate) cache: tempfile::TempDir,
    pub(crate) vars: Vec<(String, String)>,
}

impl Env {
    pub(crate) fn new(arxiv: Option<&Server>, resolver: Option<&Server>, fast: bool) -> Env {
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

    pub(crate) fn with(mut self, k: &str, v: &str) -> Env {
        self.vars.push((k.into(), v.into()));
        self
    }

    pub(crate) fn run(&self, args: &[&str]) -> Run {
        let env: Vec<(&str, &str)> = self
            .vars
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        pith(&env, args)
    }
}

pub(crate) fn dead_url() -> String {
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
pub(crate) fn published(id: &str) -> String {
    vectors()
        .iter()
        .find(|v| v["canonical_record"]["source"]["id"] == id)
        .map(|v| v["pith_number"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no vector for {id}"))
}

/// The 26-character code of arXiv paper `id`'s published number.
pub(crate) fn published_code(id: &str) -> String {
    published(id).rsplit(':').next().unwrap().to_owned()
}

pub(crate) fn published_record(id: &str) -> Value {
    vectors()
        .into_iter()
        .find(|v| v["canonical_record"]["source"]["id"] == id)
        .unwrap()
}

/// The number of a record as Python computes it from the SPEC (json.dumps sort_keys, compact
/// separators, ensure_ascii=False; SHA-256; base32, 26 characters): not pith's code.
pub(crate) fn python_number(record: &Value) -> Option<String> {
    if !common::have_tool("python3", "python_number") {
        return None;
    }
    let script = "import sys,json,hashlib,base64\nr=json.load(sys.stdin)\nb=json.dumps(r,sort_keys=True,separators=(',',':'),ensure_ascii=False).encode()\nd=hashlib.sha256(b).digest()\nprint('pith:%s:%s'%(r['metadata']['submitted_at'][:4],base64.b32encode(d).decode()[:26]))";
    let out = common::tools::python(script, record.to_string()).unwrap_or_else(|e| panic!("{e}"));
    Some(out.trim().to_owned())
}

pub(crate) fn user_agent() -> String {
    format!(
        "pith-number/{} (+https://pith.science)",
        env!("CARGO_PKG_VERSION")
    )
}

#[track_caller]
pub(crate) fn assert_error(r: &Run, code: i32, words: &[&str]) {
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
            crate::common::run::without_callers_env(&mut c)
                .envs(env.vars.iter().map(|(k, v)| (k, v)))
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
