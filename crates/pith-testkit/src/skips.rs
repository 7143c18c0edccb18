//! Tests that did not run are not "passed". A test that cannot run here (a tool,
//! a Python module, the shared corpus or a privilege is missing) calls [`skip`], which prints
//! a SKIP line and records it; when the test binary exits, after libtest's own summary, one
//! block says how many tests skipped and why, grouped by reason, so that the integration
//! tests' output ends with it. Under `PITH_REQUIRE_TOOLS=1` the callers fail
//! instead. Before it, a line says that the full tier (tests marked `#[ignore = "full tier …"]`)
//! did not run, unless `--include-ignored` was given.

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

/// The line saying that the full tier did not run, unless the binary was asked to run the
/// ignored tests (`--include-ignored`, `--ignored`) or was only listing them.
fn full_tier_note(args: &[String]) -> Option<&'static str> {
    let ran_all = args
        .iter()
        .any(|a| a == "--include-ignored" || a == "--ignored" || a == "--list");
    (!ran_all).then_some(
        "\nfull tier not run: the tests marked `ignored` above (TeX Live, the shared corpus, bombs, \
         killed processes, long matrices); `cargo test -- --include-ignored` runs them, as CI does\n",
    )
}

/// Prints [`summary`] and the full tier's note to standard error. Each harness calls it when
/// its test binary exits (after libtest's result line, whether the run passed or failed), from
/// a process-exit hook of its own: a hook in this library would be left out by the linker when
/// nothing else of its object file is used.
pub fn print_summary() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(n) = full_tier_note(&args) {
        eprint!("{n}");
    }
    if let Some(s) = summary() {
        eprint!("{s}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_tier_note_is_left_out_when_it_ran() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(full_tier_note(&args(&["main", "latex::"])).is_some());
        assert!(full_tier_note(&args(&["main", "--include-ignored"])).is_none());
        assert!(full_tier_note(&args(&["main", "--ignored", "latex::"])).is_none());
    }
}
