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
