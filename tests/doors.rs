//! The front ends decide nothing: the command line (src/cli), Python (python/src) and the
//! server's routes (crates/pith-serve/src/http, pages, routes.rs) turn arguments into the
//! library's requests and reports into output. Their code holds no default, clamp, key or
//! contradiction rule of a request, and Python's signatures spell no default the library
//! owns — those are the library's, so that every door behaves the same (the parity table,
//! crates/pith-serve/tests/parity.rs, runs the requests through each door).

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

/// clap's attributes that refuse a combination of options or give an option a value: each
/// is a decision the library's request makes instead.
const CLAP_RULES: &[&str] = &[
    "conflicts_with",
    "requires =",
    "requires_all",
    "requires_if",
    "required_unless",
    "required_if",
    "required = true",
    "default_value",
    "default_missing_value",
    "ArgGroup",
    "group = ",
    "multiple(false)",
    "required(true)",
];

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
        what: "clap refusing an output with in place (job::outputs::destination refuses it, with the same sentence at every door)",
        holds: |l| l.contains("conflicts_with = \"in_place\"") || l.contains("conflicts_with = \"output\""),
    },
    Rule {
        what: "a clap contradiction or default (conflicts_with, requires, required_unless_present, a group, default_value): the request's validate() and Default hold it, with one sentence at every door",
        holds: |l| CLAP_RULES.iter().any(|a| l.contains(a)),
    },
    Rule {
        what: "a deadline made from seconds by hand (job::stop::bound_of_secs is the one rule)",
        holds: |l| l.contains("Duration::from_secs_f64") || l.contains("from_secs(a."),
    },
    Rule {
        what: "an option required or paired in a door's error context (the request's validate() refuses it, and its plan gives the run what it needs)",
        holds: |l| l.contains(".context(\"--") || l.contains(".context(\"with --"),
    },
    Rule {
        what: "a request's rule run by a door (standard input once, the tar and its report on standard output, the references file, the workers, the shard): the request's validate() and its run apply it",
        holds: |l| {
            DOOR_RUN_RULES.iter().any(|r| l.contains(r))
        },
    },
];

/// The library's rules a request applies itself, named by a door that would apply them
/// again (or in another order) on its own.
const DOOR_RUN_RULES: &[&str] = &[
    "stdin_once(",
    "tar_stdout_once(",
    "check_target(",
    "pass_threads(",
    "worker_threads(",
    "job::shard(",
];

/// A contradiction refused by a door: a condition joining two options (`if a && b`, `if a ||
/// b`) whose block refuses, or a match arm on a pair of options that refuses (`(Some(_),
/// true) =>`). `window` is the line and the few after it.
fn refuses_a_pair(line: &str, window: &str) -> bool {
    let t = line.trim_start();
    let refuses = ["bail!(", "return Err(", "Err(Py"]
        .iter()
        .any(|r| window.contains(r));
    let joined = t.starts_with("if ") && (t.contains(" && ") || t.contains(" || "));
    let pair = [
        "(Some(_), true) =>",
        "(Some(_), Some(_)) =>",
        "(true, true) =>",
    ]
    .iter()
    .any(|p| t.starts_with(p));
    refuses && (joined || pair)
}

/// A default spelt in a pyo3 signature (`stamp_size=9.0`, `field="title"`): the keyword
/// takes `None` and the library's request gives the default. `true`/`false` are the off
/// state of a switch, not a value the library chooses.
fn literal_default(sig: &str) -> Option<String> {
    let b = sig.as_bytes();
    (0..b.len()).find_map(|i| {
        let eq = b[i] == b'=' && i > 0 && b[i - 1] != b'=' && b[i - 1] != b'!';
        let next = sig[i + 1..].trim_start().chars().next();
        let literal = next.is_some_and(|c| c.is_ascii_digit() || c == '"' || c == '-');
        (eq && literal).then(|| {
            let name = sig[..i].rsplit(|c: char| !c.is_alphanumeric() && c != '_');
            name.into_iter().next().unwrap_or_default().to_owned()
        })
    })
}

/// Places a rule allows, each with the reason it is not a request's rule: (file, a piece
/// of the line, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "python/src/convert.rs",
        "is_instance_of::<PyDict>()",
        "a Python value's type turned into JSON, before any request exists",
    ),
    (
        "crates/pith-serve/src/routes.rs",
        "named.file.is_some() ||",
        "which paths the server serves (404), not an option of a request",
    ),
    (
        "src/cli/mod.rs",
        "conflicts_with = \"verbose\"",
        "how much the command line itself prints: no request carries it",
    ),
    (
        "src/cli/refs.rs",
        "#[arg(value_name = \"FILE\", required = true)]",
        "a positional's arity (one file or more), which clap's usage line shows",
    ),
];

fn allowed(rel: &str, line: &str) -> bool {
    ALLOWED
        .iter()
        .any(|(f, piece, _)| rel == *f && line.contains(piece))
}

/// What the rules find in the front ends' code (tests aside), one line each.
fn findings() -> Vec<String> {
    let mut found = Vec::new();
    for f in door_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
        let code: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .map(|l| l.split("//").next().unwrap_or_default())
            .collect();
        let mut in_signature = false;
        for (n, line) in code.iter().enumerate() {
            if line.trim().is_empty() || allowed(&rel, line) {
                continue;
            }
            let mut say = |what: &str| {
                found.push(format!("{rel}:{}: {what}: {}", n + 1, line.trim()));
            };
            for r in RULES {
                if (r.holds)(line) {
                    say(r.what);
                }
            }
            let window = code[n..(n + 4).min(code.len())].join(" ");
            if refuses_a_pair(line, &window) {
                say("a contradiction between options refused by a door (a request's validate() refuses it)");
            }
            in_signature |= line.contains("signature = (");
            if in_signature {
                if let Some(name) =
                    literal_default(line.split("signature = (").last().unwrap_or(line))
                {
                    say(&format!("Python's `{name}` given a literal default (None, and the request's default applies)"));
                }
                in_signature = !line.contains("))]");
            }
        }
    }
    found
}

#[test]
fn front_ends_hold_no_default_clamp_key_or_contradiction_rule() {
    let found = findings();
    assert!(
        found.is_empty(),
        "front ends deciding:\n{}",
        found.join("\n")
    );
}

/// Every door of `pith batch` is read: the command line's batch and tar flags, Python's
/// `batch` and `process_tar`.
#[test]
fn the_batch_doors_are_read() {
    let files = door_files();
    for f in [
        "src/cli/batch.rs",
        "src/cli/tar.rs",
        "python/src/batch.rs",
        "python/src/tar.rs",
    ] {
        assert!(files.contains(&root().join(f)), "{f} is not read");
    }
}

#[test]
fn every_allowed_place_is_still_there() {
    // An allowance outlives its line only by mistake: each must still match a line.
    for (f, piece, why) in ALLOWED {
        let text = std::fs::read_to_string(root().join(f)).unwrap();
        assert!(
            text.contains(piece),
            "{f}: {piece:?} ({why}) is gone: drop it"
        );
    }
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
        "#[arg(short, long, value_name = \"OUT.pdf\", conflicts_with = \"in_place\")]",
        "#[arg(long, default_value_t = job::defaults::STAMP_SIZE)]",
        "#[arg(long, value_name = \"KEY\", requires = \"bundle\")]",
        "#[arg(value_name = \"ID\", conflicts_with_all = [\"record\", \"id\"])]",
        "#[arg(long, required_unless_present = \"dir\")]",
        "#[arg(long, default_value = \".\")]",
        "#[group(required = true, multiple = false)]",
        "ArgGroup::new(\"input\").multiple(false)",
        "let output = args.out_tar.as_deref().context(\"--tar needs --out-tar\")?;",
        "pith::job::stdin_once(inputs).context(\"--tar and --arxiv-metadata\")?;",
        "let threads = pith::job::pass_threads(jobs);",
        "pith::job::refs::RefsSink::check_target(p, read)",
        "let shard = pith::job::shard(shared.shard)?;",
    ] {
        assert!(caught(bad), "not caught: {bad}");
    }
    let pair = |l: &str, w: &str| refuses_a_pair(l, &format!("{l} {w}"));
    assert!(pair(
        "if a.output.is_none() && !a.in_place {",
        "bail!(\"say where\")"
    ));
    assert!(pair("(Some(_), true) => Err(PyValueError::new_err(", ""));
    assert!(!pair(
        "if a.output.is_none() && !a.in_place {",
        "let x = 1;"
    ));
    assert!(!pair("if a.quiet {", "return Err(e);"));
    assert_eq!(
        literal_default("in_place=false, stamp_size=9.0, file_timeout=None,").as_deref(),
        Some("stamp_size")
    );
    assert_eq!(
        literal_default("(record, text, field=\"title\"))]").as_deref(),
        Some("field")
    );
    assert_eq!(literal_default("(path, *, force=false, qr=None))]"), None);
    for fine in [
        "(s.differs.unwrap_or(0), \"carry another number\"),",
        "#[arg(long, value_name = \"PT\", help = stamp_size_help())]",
        ".max()",
    ] {
        assert!(!caught(fine), "caught: {fine}");
    }
}
