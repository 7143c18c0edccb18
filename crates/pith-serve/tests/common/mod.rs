//! The harness of pith-serve's tests: the two programs, the published vectors, an index built
//! from them, a server started on 127.0.0.1 and stopped by the test, and a small HTTP client
//! that sends exactly the bytes a test gives.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub use pith_testkit::{have_tool, signed_bundle, skips, tools_required, wait};

/// A connection to `addr` from the loopback address `from` (`127.0.0.N`: Linux routes all of
/// 127/8 to the loopback device), as another client on another machine would open it.
pub fn connect_from(from: &str, addr: &str) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let to: std::net::SocketAddr = addr.parse().expect("an address");
    let s = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    let local: std::net::SocketAddr = format!("{from}:0").parse().expect("an address");
    s.bind(&local.into())?;
    s.connect_timeout(&to.into(), Duration::from_secs(5))?;
    Ok(s.into())
}

/// The skips' summary, when the test binary exits ([`skips::print_summary`]).
#[dtor::dtor(unsafe)]
fn print_skips() {
    skips::print_summary();
}

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file of the main suite's test data (`tests/data/…`).
pub fn data(rel: &str) -> PathBuf {
    root().join("tests/data").join(rel)
}

/// `tests/browser`, when the npm packages `packages` are installed there; else `None`, the
/// test `test` skipped (a failure under `PITH_REQUIRE_TOOLS=1`).
pub fn browser_harness(test: &str, packages: &[&str]) -> Option<PathBuf> {
    let harness = root().join("crates/pith-serve/tests/browser");
    if packages
        .iter()
        .all(|p| harness.join("node_modules").join(p).is_dir())
    {
        return Some(harness);
    }
    assert!(
        !tools_required(),
        "{test}: npm packages missing: npm ci --prefix crates/pith-serve/tests/browser (PITH_REQUIRE_TOOLS=1)"
    );
    skips::skip(
        test,
        "npm packages of crates/pith-serve/tests/browser not installed (npm ci)",
    );
    None
}

/// `pith-serve`.
pub fn pith_serve() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pith-serve"))
}

/// `pith`, built beside `pith-serve` (`cargo test` at the root builds both; after `cargo test
/// -p pith-serve` alone, `cargo build -p pith-number` first).
pub fn pith() -> PathBuf {
    let p = pith_serve().with_file_name(format!("pith{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.is_file(),
        "{} is missing: run `cargo build -p pith-number` (or `cargo test` at the root)",
        p.display()
    );
    p
}

/// The result of a command.
#[derive(Debug)]
pub struct Run {
    /// Exit code (-1 for a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `program` with `args` and `env`, without the network.
pub fn run(program: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let o = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .env("PITH_ARXIV_URL", "http://127.0.0.1:9")
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", program.display()));
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// `pith index -o out` with `args` after: the run, for the caller to check.
pub fn build_index(out: &Path, args: &[&str]) -> Run {
    let mut all = vec!["index", "-o", out.to_str().unwrap()];
    all.extend_from_slice(args);
    run(&pith(), &all, &[])
}

/// Builds `index` from the vectors' arXiv snapshot with `caps` as its captures folder: the
/// run, for the caller to check.
pub fn index_of_captures(index: &Path, caps: &Path) -> Run {
    build_index(
        index,
        &[
            "--arxiv-snapshot",
            data("arxiv/vectors.snapshot.jsonl").to_str().unwrap(),
            "--captures",
            caps.to_str().unwrap(),
        ],
    )
}

/// `pith serve index --export site`, with `extra` arguments after: the run, for the caller
/// to check.
pub fn export(index: &Path, site: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "serve",
        index.to_str().unwrap(),
        "--export",
        site.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&pith(), &args, &[])
}

/// `pith inject`s `number` into the test suite's minimal PDF, written to `out`.
pub fn inject(number: &str, out: &Path) {
    let r = run(
        &pith(),
        &[
            "inject",
            root().join("tests/fixtures/minimal.pdf").to_str().unwrap(),
            "--number",
            number,
            "-o",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// The published vectors (tests/data/records.json, a copy of the shared vectors/records.json),
/// exact texts only.
pub fn vectors() -> Vec<Value> {
    let v: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(data("records.json")).unwrap()).unwrap();
    v.into_iter()
        .filter(|x| x.get("variant_of").is_none())
        .collect()
}

/// The arXiv PDF URL of vector `v`'s version (`https://arxiv.org/pdf/IDvN`).
pub fn pdf_url(v: &Value) -> String {
    let s = &v["canonical_record"]["source"];
    format!(
        "https://arxiv.org/pdf/{}v{}",
        s["id"].as_str().unwrap(),
        s["version"]
    )
}

/// The 26 characters of a full number.
pub fn code(number: &str) -> String {
    number.rsplit(':').next().unwrap().to_owned()
}

/// A `records` folder in `dir` holding the vectors' records.json.
pub fn records_dir(dir: &Path) -> PathBuf {
    let records = dir.join("records");
    std::fs::create_dir_all(&records).unwrap();
    std::fs::copy(data("records.json"), records.join("records.json")).unwrap();
    records
}

/// An empty `captures` folder in `dir`, for `pith index --captures`.
pub fn captures_dir(dir: &Path) -> PathBuf {
    let caps = dir.join("captures");
    std::fs::create_dir(&caps).unwrap();
    caps
}

/// The test suite's minimal PDF (tests/fixtures/minimal.pdf): its bytes.
pub fn minimal_pdf() -> Vec<u8> {
    std::fs::read(root().join("tests/fixtures/minimal.pdf")).unwrap()
}

/// Builds `index` from `extra` arguments, the vectors' records ([`records_dir`]) and a
/// `bundles` folder in `dir` holding `bundles` (file name, bundle), trusting `key`.
pub fn index_with_bundles(
    dir: &Path,
    index: &Path,
    bundles: &[(String, Value)],
    key: &str,
    extra: &[&str],
) -> Run {
    let records = records_dir(dir);
    let folder = dir.join("bundles");
    std::fs::create_dir_all(&folder).unwrap();
    for (name, b) in bundles {
        std::fs::write(folder.join(name), b.to_string()).unwrap();
    }
    let mut args = extra.to_vec();
    args.extend([
        "--records",
        records.to_str().unwrap(),
        "--bundles",
        folder.to_str().unwrap(),
        "--key",
        key,
    ]);
    build_index(index, &args)
}

/// The vectors' index: the arXiv snapshot made from the vectors, the OAI harvest of the same
/// papers, the published records as a records folder, and a signed bundle of the first vector.
pub struct Fixture {
    /// Holds every file.
    pub dir: tempfile::TempDir,
    /// The index.
    pub index: PathBuf,
    /// The key that signed the bundle (base64).
    pub key: String,
}

impl Fixture {
    /// Builds it through `pith index`.
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let (bundle, key) = signed_bundle(&vectors()[0]);
        let index = dir.path().join("vectors.pith-index");
        let r = index_with_bundles(
            dir.path(),
            &index,
            &[("first.json".into(), bundle)],
            &key,
            &[
                "--arxiv-snapshot",
                data("arxiv/vectors.snapshot.jsonl").to_str().unwrap(),
                "--arxiv-oai",
                data("arxiv/vectors.arxivraw.xml").to_str().unwrap(),
            ],
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        Fixture { dir, index, key }
    }
}

/// A `pith serve` started by a test on 127.0.0.1, stopped (SIGKILL) when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// `pith serve INDEX --listen 127.0.0.1:0 ARGS…`, once it printed its address.
    pub fn start(index: &Path, args: &[&str]) -> Server {
        Server::spawn(index, args, Stdio::inherit())
    }

    /// As [`Server::start`], its standard error written to `log`.
    pub fn start_logged(index: &Path, args: &[&str], log: &Path) -> Server {
        Server::spawn(index, args, std::fs::File::create(log).unwrap().into())
    }

    fn spawn(index: &Path, args: &[&str], stderr: Stdio) -> Server {
        let mut child = Command::new(pith())
            .arg("serve")
            .arg(index)
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start pith serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line {line:?}"))
            .to_owned();
        let addr = url.strip_prefix("http://").unwrap().to_owned();
        Server { child, url, addr }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits for the exit code.
    pub fn terminate(mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        let status = pith_testkit::wait::until_within(
            "pith serve to stop on SIGTERM",
            pith_testkit::wait::CEILING,
            || self.child.try_wait().unwrap(),
        );
        status.code()
    }

    /// `GET path` with extra header lines.
    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        let mut req = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("Connection: close\r\n\r\n");
        self.raw(req.as_bytes())
    }

    /// Sends `bytes` on a new connection and reads the answer until the server closes it.
    pub fn raw(&self, bytes: &[u8]) -> Response {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        // The server may answer and close before the whole request is sent (431, 413).
        let _ = s.write_all(bytes);
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf);
        Response::parse(&buf)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code (0 when nothing came back).
    pub status: u16,
    /// Header lines, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    fn parse(buf: &[u8]) -> Response {
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            return Response {
                status: 0,
                headers: Vec::new(),
                body: Vec::new(),
            };
        };
        let head = String::from_utf8_lossy(&buf[..end]);
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let mut body = buf[end + 4..].to_vec();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        if chunked {
            body = dechunk(&body);
        }
        Response {
            status,
            headers,
            body,
        }
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(nl) = b.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&b[..nl]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&b[nl + 2..nl + 2 + size]);
        b = &b[nl + 2 + size + 2..];
    }
    out
}

/// An index of the vectors' snapshot (no bundles), built once through the library, for tests
/// that drive the router in process.
pub fn snapshot_index() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let sources = pith_serve::index::Sources {
            snapshots: vec![data("arxiv/vectors.snapshot.jsonl")],
            keys: vec![pith::verify::Key::registry()],
            ..pith_serve::index::Sources::default()
        };
        let opts = pith_serve::index::BuildOptions {
            threads: 1,
            strict: true,
            fresh: true,
        };
        pith_serve::index::build(&d.path().join("i"), &sources, opts, &mut |l| panic!("{l}"))
            .unwrap();
        d
    });
    Box::leak(Box::new(dir.path().join("i")))
}
