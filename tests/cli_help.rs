//! The CLI's words: completions, man pages, help with examples, one-line usage errors, refusals and
//! OS errors as sentences naming the file.

use crate::common;

use crate::common::{fixture, pith, tmpdir, SEED};
use predicates::prelude::*;

/// Habit: shell completions generated from the clap definitions; bash completes subcommands
/// and flags when sourced.
#[test]
fn completions_complete_subcommands_and_flags() {
    if !common::have_tool("bash", "completions") {
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin!("pith").display().to_string();
    let complete = |words: &str| {
        let script = format!(
            "source <({bin} completions bash) && COMP_WORDS=({words}) && COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)) && COMP_LINE='{words}' && COMP_POINT=${{#COMP_LINE}} && _pith pith \"${{COMP_WORDS[-1]}}\" \"${{COMP_WORDS[-2]}}\" && echo \"${{COMPREPLY[@]}}\""
        );
        let o = std::process::Command::new("bash")
            .args(["-c", &script])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let subs = complete("pith ba");
    assert!(subs.contains("badge") && subs.contains("batch"), "{subs}");
    let flags = complete("pith inject --dr");
    assert!(flags.contains("--dry-run"), "{flags}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = pith().args(["completions", shell]).output().unwrap();
        assert!(out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("inject"),
            "{shell}"
        );
    }
    pith().args(["completions", "tcsh"]).assert().code(2);
}

/// Habit: man pages generated from the clap definitions: pith(1) on standard output, and with
/// --dir one page per subcommand; groff renders them without a warning.
#[test]
fn man_pages_render_with_groff() {
    if !common::have_tool("groff", "man_pages_render_with_groff") {
        return;
    }
    let dir = tmpdir();
    let groff = |page: &[u8]| {
        use std::io::Write;
        let mut c = std::process::Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-P-cbou"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin.take().unwrap().write_all(page).unwrap();
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success());
        assert!(
            o.stderr.is_empty(),
            "groff warns: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let main = pith().arg("man").output().unwrap();
    let text = groff(&main.stdout);
    for sub in ["inject", "inspect", "batch", "completions", "man"] {
        assert!(text.contains(sub), "pith(1) lists {sub}");
    }
    pith()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    let inject = groff(&std::fs::read(dir.path().join("pith-inject.1")).unwrap());
    assert!(
        inject.contains("--dry-run") && inject.contains("--json"),
        "{inject}"
    );
    let words = inject.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("SYNOPSIS pith inject"), "{inject}");
    for sub in [
        "number", "record", "verify", "sty", "badge", "snippet", "batch",
    ] {
        assert!(dir.path().join(format!("pith-{sub}.1")).is_file(), "{sub}");
    }
}

/// Every subcommand's --help ends with examples, groups the global options
/// apart, and mentions no issue numbers; `inject` without an output says what to give.
#[test]
fn help_teaches_with_examples_and_no_issue_numbers() {
    let o = pith().arg("--help").output().unwrap();
    let top = String::from_utf8_lossy(&o.stdout).to_string();
    let commands: Vec<String> = top
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap()
        .lines()
        // A command's line starts with two spaces; a wrapped description with more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    for c in &commands {
        let o = pith().args([c.as_str(), "--help"]).output().unwrap();
        assert!(o.status.success(), "{c}");
        let help = String::from_utf8_lossy(&o.stdout);
        let examples = help
            .rfind("Examples:")
            .unwrap_or_else(|| panic!("{c}: no Examples"));
        let lines: Vec<&str> = help[examples..]
            .lines()
            .skip(1)
            .filter(|l| l.trim_start().starts_with("pith "))
            .collect();
        assert!(
            (2..=5).contains(&lines.len()),
            "{c}: {} example lines",
            lines.len()
        );
        assert!(
            help.contains("Global options:"),
            "{c}: global options not grouped"
        );
        assert!(!help.to_lowercase().contains("issue"), "{c}: {help}");
    }
    assert!(!top.to_lowercase().contains("issue"));
    // The man pages are generated from the same definitions: each has the examples too.
    let dir = tmpdir();
    pith()
        .args(["-q", "man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    for c in &commands {
        let page = std::fs::read_to_string(dir.path().join(format!("pith-{c}.1"))).unwrap();
        assert!(page.contains("Examples:"), "pith-{c}.1 has no examples");
    }
    pith()
        .args(["inject", "--number", SEED])
        .arg(fixture("minimal.pdf"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("-o OUT.pdf").and(predicate::str::contains("--in-place")));
}

/// The refusals of --rewrite and --repair are whole sentences that say what to do.
#[test]
fn rewrite_and_repair_refusals_are_sentences() {
    let dir = tmpdir();
    let junk = dir.path().join("junk.pdf");
    std::fs::write(&junk, b"%PDF-1.4\ngarbage\n").unwrap();
    let cases: [(std::path::PathBuf, &str, &str); 3] = [
        (
            fixture("encrypted/qpdf-metadata-crypt-filter.pdf"),
            "--rewrite",
            "Inject without --rewrite",
        ),
        (
            junk.clone(),
            "--rewrite",
            "The full rewrite could not rebuild it",
        ),
        (junk, "--repair", "--rewrite may."),
    ];
    for (input, flag, says) in cases {
        let o = pith()
            .args(["inject", "--number", SEED, flag, "-o"])
            .arg(dir.path().join("out.pdf"))
            .arg(&input)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let line = err.trim_end();
        assert_eq!(o.status.code(), Some(2), "{line}");
        assert!(line.contains(says) && line.ends_with('.'), "{flag}: {line}");
        assert_eq!(line.lines().count(), 1);
    }
}

/// Operating-system errors read as words, not Rust's `(os error 2)`, and each line names the
/// file it is about.
#[test]
fn os_errors_are_words_naming_the_file() {
    let dir = tmpdir();
    let missing = dir.path().join("missing.pdf");
    let m = missing.to_str().unwrap();
    // The folder of this output cannot be made: a file is in the way.
    std::fs::write(dir.path().join("no"), b"a file").unwrap();
    let out = dir.path().join("no/such/out.pdf");
    let minimal = fixture("minimal.pdf");
    let runs: Vec<Vec<&str>> = vec![
        vec!["inspect", m],
        vec!["inject", m, "--number", SEED, "-o", "-"],
        vec!["strip", m, "-o", "-"],
        vec!["record", "--arxiv-atom", m],
        vec![
            "inject",
            minimal.to_str().unwrap(),
            "--number",
            SEED,
            "-o",
            out.to_str().unwrap(),
        ],
    ];
    for args in runs {
        let o = pith().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("pith: "), "{err}");
        assert!(
            err.contains("no such file or directory") || err.contains("not a directory"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("os error"), "{args:?}: {err}");
        assert!(
            err.contains("missing.pdf") || err.contains("no/such"),
            "names the file: {err}"
        );
    }
}

/// A usage error is one `pith: …` line, then the usage and where to read more, as clap's
/// four to six lines were not.
#[test]
fn usage_errors_are_one_line_and_the_usage() {
    for (args, usage) in [
        (&["number", "--bogus"][..], "Usage: pith number "),
        (&["inject"][..], "Usage: pith inject "),
        (&["frobnicate"][..], "Usage: pith "),
    ] {
        let o = pith().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines[0].starts_with("pith: "), "{err}");
        assert!(!lines[0].contains("error:"), "{err}");
        assert!(lines[1].starts_with(usage), "{err}");
        assert!(lines[1].ends_with(" --help)"), "{err}");
        assert!(o.stdout.is_empty());
    }
    assert!(
        String::from_utf8_lossy(&pith().args(["number", "--bogus"]).output().unwrap().stderr)
            .contains("'--bogus'")
    );
    // --help and --version keep clap's text and exit 0.
    pith()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("pith "));
}
