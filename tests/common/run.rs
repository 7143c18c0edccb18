//! Running `pith` with a time limit and checking the error contract.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Output of one `pith` run.
#[derive(Debug)]
pub struct Run {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

/// Clears the `PITH_*` environment of `c`, points the network nowhere, gives it a fresh
/// cache and pins `SOURCE_DATE_EPOCH`: a run that depends on nothing outside the test.
pub fn isolate(c: &mut Command) -> &mut Command {
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") {
            c.env_remove(k);
        }
    }
    c.env("PITH_ARXIV_URL", super::no_network())
        .env("PITH_RESOLVER_URL", super::no_network())
        .env("PITH_CACHE_DIR", super::fresh_cache())
        .env("SOURCE_DATE_EPOCH", "1700000000")
}

/// Removes from `c` the caller's `PITH_*` and proxy variables: only what a test sets reaches
/// it, and no request leaves through a proxy.
pub fn without_callers_env(c: &mut Command) -> &mut Command {
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") || k.to_ascii_lowercase().ends_with("_proxy") {
            c.env_remove(k);
        }
    }
    c
}

/// Runs pith with `args` and, of the environment, none of the caller's `PITH_*` or proxy
/// variables but `env` ([`without_callers_env`]).
pub fn run_pith_in(env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
    let o = without_callers_env(&mut c)
        .envs(env.iter().copied())
        .args(args)
        .output()
        .expect("run pith");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// What a child wrote, and its status (`None` when it outlived its limit and was killed).
#[derive(Debug)]
pub struct Waited {
    /// The exit status, `None` when killed at the limit.
    pub status: Option<std::process::ExitStatus>,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

/// Spawns `c` with `stdin` (closed when `None`) and both output pipes captured, and waits at
/// most `limit`, killing it then.
pub fn spawn_within(c: &mut Command, stdin: Option<&[u8]>, limit: Duration) -> Waited {
    c.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = c
        .spawn()
        .unwrap_or_else(|e| panic!("run {:?}: {e}", c.get_program()));
    if let Some(bytes) = stdin {
        use std::io::Write;
        let mut s = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = s.write_all(&bytes);
        });
    }
    // Drain both pipes while waiting, so a long message cannot block the child.
    let drain = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut v);
            }
            v
        })
    };
    let out = drain(child.stdout.take().map(|r| Box::new(r) as _));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as _));
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Waited {
        status,
        stdout: String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
    }
}

/// Runs pith with `args`, `stdin` (closed when `None`) and a time limit: a hostile input must
/// not make it hang. The `PITH_*` environment is cleared and `SOURCE_DATE_EPOCH` pinned.
pub fn run_pith_with(args: &[&std::ffi::OsStr], stdin: Option<&[u8]>, limit: Duration) -> Run {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
    isolate(&mut c).args(args);
    let w = spawn_within(&mut c, stdin, limit);
    let Some(status) = w.status else {
        panic!("pith {args:?} still running after {limit:?}");
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: w.stdout,
        stderr: w.stderr,
    }
}

/// Runs pith with `args`, no standard input and a 60 s limit.
pub fn run_pith(args: &[&str]) -> Run {
    let a: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    run_pith_with(&a, None, Duration::from_secs(60))
}

/// `pith inject INPUT --number SEED -o OUT`.
pub fn inject_seed(input: &Path, out: &Path) -> Run {
    inject_seed_with(input, out, &[])
}

/// `pith inject INPUT --number SEED -o OUT EXTRA…`.
pub fn inject_seed_with(input: &Path, out: &Path, extra: &[&str]) -> Run {
    let args = [
        "inject",
        input.to_str().unwrap(),
        "--number",
        super::SEED,
        "-o",
        out.to_str().unwrap(),
    ];
    run_pith(&[&args[..], extra].concat())
}

/// `pith inject --in-place INPUT --number SEED`.
pub fn inject_seed_in_place(input: &Path) -> Run {
    run_pith(&[
        "inject",
        "--in-place",
        input.to_str().unwrap(),
        "--number",
        super::SEED,
    ])
}

/// `pith batch --manifest MANIFEST --out-dir OUT`.
pub fn batch_manifest(manifest: &Path, out: &Path) -> Run {
    run_pith(&[
        "batch",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
    ])
}

/// The error contract: exit 2, one line on stderr starting `pith: `, naming `file`, no panic.
#[track_caller]
pub fn assert_one_line_error(r: &Run, file: &str) {
    assert_eq!(r.code, 2, "exit code; stderr: {}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "panic: {}", r.stderr);
    assert!(r.stderr.starts_with("pith: "), "prefix: {:?}", r.stderr);
    assert_eq!(
        r.stderr.trim_end().lines().count(),
        1,
        "one line: {:?}",
        r.stderr
    );
    assert!(
        r.stderr.contains(file),
        "error names {file}: {:?}",
        r.stderr
    );
}

/// Files in `dir` whose name starts with the temporary-file prefix pith uses.
pub fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".pith-tmp"))
        .collect()
}

/// The least time `f` takes in three runs, and its last result: the run least disturbed by
/// other work on the machine, for comparing two costs measured side by side in one test.
pub fn least_of_three<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut least = Duration::MAX;
    let mut last = None;
    for _ in 0..3 {
        let t = Instant::now();
        let r = f();
        least = least.min(t.elapsed());
        last = Some(r);
    }
    (least, last.expect("three runs"))
}

/// Asserts that `cost` (of the input `what`) grows no faster than its size: at most `ratio`
/// times `baseline`, the cost of a like input measured in the same test, plus a fixed
/// allowance for what does not scale (a process start). Both are measured on the same machine
/// at the same moment, so a busy machine slows both and never fails the test; a step that is
/// quadratic in the input, or a bound that no longer holds, does.
pub fn assert_scales(what: &str, baseline: Duration, cost: Duration, ratio: u32) {
    let allowance = Duration::from_millis(250);
    assert!(
        cost <= baseline * ratio + allowance,
        "{what}: {cost:?}, more than {ratio}x the like input's {baseline:?}"
    );
}
