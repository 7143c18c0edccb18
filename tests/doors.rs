//! The front ends decide nothing: the command line (src/cli), Python (python/src) and the
//! server's routes (crates/pith-serve/src/http, pages, routes.rs) turn arguments into the
//! library's requests and reports into output. Their code holds no default, clamp or key rule
//! of a request — those are the library's, so that every door behaves the same (the parity
//! table, crates/pith-serve/tests/parity.rs, runs the requests through each door).

use std::path::{Path, PathBuf};

use crate::common::root;

/// The source files of the front ends.
fn door_files() -> Vec<PathBuf> {
    let r = root();
    let mut files = Vec::new();
    for dir in [
        "src/cli",
        "python/src",
        "crates/pith-serve/src/http",
        "crates/pith-serve/src/pages",
    ] {
        collect(&r.join(dir), &mut files);
    }
    files.push(r.join("crates/pith-serve/src/routes.rs"));
    files
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A rule a front end must not hold, and why, judged on one line of code (comments aside).
struct Rule {
    what: &'static str,
    holds: fn(&str) -> bool,
}

fn literal_after(line: &str, call: &str) -> bool {
    line.match_indices(call).any(|(i, _)| {
        line[i + call.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

const RULES: &[Rule] = &[
    Rule {
        what: "keys sliced or skipped (the job resolves the registry key and PITH_KEYS)",
        holds: |l| l.contains("keys") && (l.contains("[1..]") || l.contains(".skip(1)")),
    },
    Rule {
        what: "the registry key named by a door (the job adds it)",
        holds: |l| l.contains("Key::registry()"),
    },
    Rule {
        what: "a value clamped with .max(literal) (a request's bound is the library's)",
        holds: |l| literal_after(l, ".max("),
    },
    Rule {
        what: "a request field defaulted with unwrap_or(literal) (defaults are the library's)",
        holds: |l| {
            let t = l.trim_start();
            let field = t.split_once(": ").is_some_and(|(k, _)| {
                !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            field && literal_after(l, "unwrap_or(")
        },
    },
    Rule {
        what: "an option's default given as a literal (job::defaults names every default)",
        holds: |l| literal_after(l, "default_value_t = ") || l.contains("default_value = \"0"),
    },
    Rule {
        what: "a deadline made from seconds by hand (job::stop::bound_of_secs is the one rule)",
        holds: |l| l.contains("Duration::from_secs_f64") || l.contains("from_secs(a."),
    },
];

#[test]
fn front_ends_hold_no_default_clamp_or_key_rule() {
    let mut found = Vec::new();
    for f in door_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut in_tests = false;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("#[cfg(test)]") {
                in_tests = true;
            }
            let code = line.split("//").next().unwrap_or_default();
            if in_tests || code.trim().is_empty() {
                continue;
            }
            for r in RULES {
                if (r.holds)(code) {
                    let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
                    found.push(format!("{rel}:{}: {}: {}", n + 1, r.what, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "front ends deciding:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_rules_catch_what_they_name() {
    let caught = |l: &str| RULES.iter().any(|r| (r.holds)(l));
    for bad in [
        "keys: load_keys(&args.key)?[1..].to_vec(),",
        "keys: keys.into_iter().skip(1).collect(),",
        "check_timeout: Duration::from_secs(a.check_timeout.max(1)),",
        "version: version.unwrap_or(0),",
        "#[arg(long, default_value_t = 120.0)]",
        "let key = Key::registry();",
    ] {
        assert!(caught(bad), "not caught: {bad}");
    }
    for fine in [
        "(s.differs.unwrap_or(0), \"carry another number\"),",
        "#[arg(long, default_value_t = job::defaults::STAMP_SIZE)]",
        ".max()",
    ] {
        assert!(!caught(fine), "caught: {fine}");
    }
}
