//! The program's own command line: what `--help` and `--version` call it, run on its own and
//! through `pith index` / `pith serve`.

use std::process::Command;

/// `pith-serve ARGS` with `PITH_SERVE_AS` set as given (pith sets it to `pith`).
fn run(args: &[&str], called_as: Option<&str>) -> String {
    let mut cmd = Command::new(crate::common::pith_serve());
    cmd.args(args).env_remove("PITH_SERVE_AS");
    if let Some(name) = called_as {
        cmd.env("PITH_SERVE_AS", name);
    }
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn help_and_version_name_the_program_that_was_run() {
    // On its own it is pith-serve: its usage line is one the user can type again.
    let help = run(&["--help"], None);
    assert!(help.contains("Usage: pith-serve "), "{help}");
    let version = run(&["--version"], None);
    assert!(version.starts_with("pith-serve "), "{version}");
    let help = run(&["serve", "--help"], None);
    assert!(help.contains("Usage: pith-serve serve "), "{help}");
    // Run by pith for `pith serve`: the usage says `pith serve`, as typed.
    let help = run(&["serve", "--help"], Some("pith"));
    assert!(help.contains("Usage: pith serve "), "{help}");
    assert!(!help.contains("pith-serve serve"), "{help}");
    // And so it is when pith runs it.
    let o = Command::new(crate::common::pith())
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && help.contains("Usage: pith serve "),
        "{help}"
    );
}

/// The cache's size in bytes and as a count of answers (the older, hidden spelling) say two
/// sizes: the library's settings refuse them, said with the flags as a usage error (one line
/// and the usage, exit 2), before the index is even opened; either alone is taken.
#[test]
fn the_cache_is_sized_one_way() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("absent.sqlite");
    let index = index.to_str().unwrap();
    for (called_as, bin) in [(None, "pith-serve"), (Some("pith"), "pith")] {
        let mut cmd = Command::new(crate::common::pith_serve());
        cmd.args([
            "serve",
            "--cache-entries",
            "5",
            "--cache-bytes",
            "10",
            index,
        ])
        .env_remove("PITH_SERVE_AS");
        if let Some(name) = called_as {
            cmd.env("PITH_SERVE_AS", name);
        }
        let o = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        let mut lines = err.lines();
        assert_eq!(
            lines.next(),
            Some("pith: the argument '--cache-entries <N>' cannot be used with '--cache-bytes <BYTES>'"),
            "{err}"
        );
        let usage = lines.next().unwrap_or_default();
        assert!(usage.starts_with(&format!("Usage: {bin} serve ")), "{err}");
        assert_eq!(lines.next(), None, "{err}");
        assert!(o.stdout.is_empty());
    }
    // Each alone passes the check: what follows is the index that is not there.
    for size in [["--cache-entries", "5"], ["--cache-bytes", "10"]] {
        let o = Command::new(crate::common::pith_serve())
            .args(["serve", size[0], size[1], index])
            .env_remove("PITH_SERVE_AS")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(!err.contains("cannot be used with"), "{err}");
        assert!(err.contains("absent.sqlite"), "{err}");
    }
}
