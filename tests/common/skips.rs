//! Tests that did not run are not "passed" (issue 23.5). A test that cannot run here (a tool,
//! a Python module, the shared corpus or a privilege is missing) calls [`skip`], which prints
//! a SKIP line and records it; when the test binary exits, after libtest's own summary, one
//! block says how many tests skipped and why, grouped by reason, so that the end of
//! `cargo test`'s output shows it. Under `PITH_REQUIRE_TOOLS=1` the callers fail instead.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// (test, reason) of every skip so far.
static SKIPS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// Records that `test` did not run (or ran only in part) because of `reason`, and prints the
/// SKIP line at once.
pub fn skip(test: &str, reason: &str) {
    // libtest names each test's thread after the test's path (`pdf::corpus`), which says more
    // than the short name callers pass; helper threads of a test keep the short name.
    let current = std::thread::current();
    let test = match current.name() {
        Some(name) if name.contains("::") => name,
        _ => test,
    };
    eprintln!("SKIP {test}: {reason}");
    SKIPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((test.to_string(), reason.to_string()));
}

/// The summary block: `None` when nothing skipped.
pub fn summary() -> Option<String> {
    let skips = SKIPS.lock().unwrap_or_else(|e| e.into_inner());
    if skips.is_empty() {
        return None;
    }
    let mut by_reason: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (test, reason) in skips.iter() {
        let tests = by_reason.entry(reason).or_default();
        if !tests.contains(&test.as_str()) {
            tests.push(test);
        }
    }
    let mut tests: Vec<&str> = skips.iter().map(|(t, _)| t.as_str()).collect();
    tests.sort_unstable();
    tests.dedup();
    let mut out = format!(
        "\nskipped: {} test(s) did not run in full here; they are counted as passed above:\n",
        tests.len()
    );
    for (reason, tests) in by_reason {
        out.push_str(&format!("  {reason}: {}\n", tests.join(", ")));
    }
    out.push_str(
        "  (install what is missing to run them; CI sets PITH_REQUIRE_TOOLS=1, which fails them)\n",
    );
    Some(out)
}

/// Prints [`summary`] to standard error when the test binary exits (after libtest's result
/// line, whether the run passed or failed).
#[dtor::dtor(unsafe)]
fn print_summary() {
    if let Some(s) = summary() {
        eprint!("{s}");
    }
}
