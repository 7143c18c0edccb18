//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `PITH_REQUIRE_TOOLS=1` is set (CI): a missing tool is then a failure, not a SKIP.
pub fn tools_required() -> bool {
    std::env::var("PITH_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// Whether the external program `name` can be run. When it cannot, prints a SKIP line naming
/// the test, or panics under `PITH_REQUIRE_TOOLS=1`.
pub fn have_tool(name: &str, test: &str) -> bool {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if tools_required() {
            panic!("{test}: required tool {name} is missing (PITH_REQUIRE_TOOLS=1)");
        }
        eprintln!("SKIP {test}: {name} not installed");
    }
    found
}

/// Whether a Python module can be imported by `python3` (same SKIP/require rules as tools).
pub fn have_python_module(module: &str, test: &str) -> bool {
    if !have_tool("python3", test) {
        return false;
    }
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if tools_required() {
            panic!("{test}: required Python module {module} is missing (PITH_REQUIRE_TOOLS=1)");
        }
        eprintln!("SKIP {test}: python3 module {module} not installed");
    }
    ok
}

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
    eprintln!("SKIP {test}: corpus {} not present", dir.display());
    None
}

/// A `pith` command for the binary under test, with the `PITH_*` environment cleared.
pub fn pith() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("pith").expect("pith binary");
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") {
            c.env_remove(k);
        }
    }
    c
}

/// Path of a file under `tests/data`.
pub fn data(name: &str) -> PathBuf {
    root().join("tests/data").join(name)
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
