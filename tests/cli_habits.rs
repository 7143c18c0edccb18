//! What a new user hits first in `inject`, `inspect`, `badge`, `sty` and `snippet`,
//! and the habits users bring from exiftool, qpdf, ripgrep and cargo. Each bug has a test
//! named after it that fails on the code before the fix; files are read back with qpdf,
//! exiftool and pdfinfo.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use crate::common::tools::{exif_tag, pdfinfo_custom, qpdf_clean};
use crate::common::{example, fixture, pith, tmpdir, SEED, SEED_CODE, SEED_SHORT, SEED_URL};
use predicates::prelude::*;
use serde_json::Value;

/// Bug 1: a bare 26-character code has no year, and the metadata carries the full form: every
/// writing command refuses it up front with that reason (no "use --force" deep in the XMP
/// merge, no silently refused batch file), while every checking command accepts it.
#[test]
fn bug1_bare_code_is_refused_for_writing_and_accepted_for_checking() {
    let dir = tmpdir();
    let out = dir.path().join("out.pdf");
    for extra in [&[][..], &["--force"][..]] {
        pith()
            .args(["inject"])
            .arg(example("2402.03791v3.pdf"))
            .args(["--number", SEED_CODE, "-o"])
            .arg(&out)
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("a bare code has no year"))
            .stderr(predicate::str::contains("--force").not());
        assert!(!out.exists());
    }
    // batch: the file fails with the reason, and the run exits non-zero.
    let tree = dir.path().join("tree");
    common::copy_writable(&fixture("minimal.pdf"), &tree.join("a.pdf"));
    std::fs::write(tree.join("a.pith"), SEED_CODE).unwrap();
    let o = pith()
        .args(["batch", "--dir"])
        .arg(&tree)
        .arg("--out-dir")
        .arg(dir.path().join("stamped"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let report = String::from_utf8_lossy(&o.stdout);
    let line: Value = serde_json::from_str(report.lines().next().unwrap()).unwrap();
    assert_eq!(line["status"], "failed");
    assert!(line["reason"]
        .as_str()
        .unwrap()
        .contains("a bare code has no year"));
    // Checking accepts it: verify, inspect --number, badge, snippet.
    pith()
        .args(["verify", "--record"])
        .arg(example("2402.03791v3.record.json"))
        .arg(SEED_CODE)
        .assert()
        .success()
        .stdout(predicate::str::ends_with("VERIFIED: every check holds.\n"));
    pith().args(["badge", SEED_CODE]).assert().success();
    pith()
        .args(["snippet", SEED_CODE, "--format", "md"])
        .assert()
        .success();
}

/// Bug 2: files written by `badge -o` and `sty -o` get the umask's mode when new, and keep
/// their mode when replaced (they were 0600 whatever the umask).
#[test]
fn bug2_outputs_get_the_umask_mode_and_keep_an_existing_mode() {
    let dir = tmpdir();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let badge = dir.path().join("b.svg");
    let sh = |cmd: String| {
        let o = std::process::Command::new("sh")
            .args(["-c", &cmd])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let bin = assert_cmd::cargo::cargo_bin!("pith").display().to_string();
    sh(format!(
        "umask 022 && {bin} badge {SEED} -o {}",
        badge.display()
    ));
    assert_eq!(mode(&badge), 0o644);
    sh(format!(
        "umask 022 && {bin} sty -o {}",
        dir.path().display()
    ));
    assert_eq!(mode(&dir.path().join("pith.sty")), 0o644);
    assert_eq!(mode(&dir.path().join("pith.sty.ltxml")), 0o644);
    // An existing file keeps its own mode, whatever the umask.
    std::fs::set_permissions(&badge, std::fs::Permissions::from_mode(0o640)).unwrap();
    let sty = dir.path().join("pith.sty");
    std::fs::set_permissions(&sty, std::fs::Permissions::from_mode(0o664)).unwrap();
    sh(format!(
        "umask 077 && {bin} badge {SEED} -o {}",
        badge.display()
    ));
    sh(format!(
        "umask 077 && {bin} sty -o {}",
        dir.path().display()
    ));
    assert_eq!(mode(&badge), 0o640);
    assert_eq!(mode(&sty), 0o664);
    // And a new file under umask 077 is private, as the user asked.
    let private = dir.path().join("p.svg");
    sh(format!(
        "umask 077 && {bin} badge {SEED} -o {}",
        private.display()
    ));
    assert_eq!(mode(&private), 0o600);
}

/// Bug 5 and bug 6: `inspect -` reads standard input; a PDF without a number exits 1 and says
/// so (it said "consistent: yes" and exited 0); the short form printed on page 1 is accepted
/// as the expected number.
#[test]
fn bug5_bug6_inspect_stdin_no_number_and_short_form() {
    let plain = std::fs::read(fixture("minimal.pdf")).unwrap();
    pith()
        .args(["inspect", "-"])
        .write_stdin(plain.clone())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("number: -"))
        .stdout(predicate::str::contains("consistent: yes").not());
    let o = pith()
        .args(["inspect", "--json", "-"])
        .write_stdin(plain)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["has_number"], false);
    let dir = tmpdir();
    let out = dir.path().join("o.pdf");
    pith()
        .args(["inject"])
        .arg(fixture("minimal.pdf"))
        .args(["--number", SEED, "-o"])
        .arg(&out)
        .assert()
        .success();
    pith()
        .arg("inspect")
        .arg(&out)
        .args(["--number", SEED_SHORT])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "expected {SEED_SHORT}: yes"
        )));
    pith()
        .arg("inspect")
        .arg(&out)
        .args(["--number", "pith:ZWRUDBOA"])
        .assert()
        .code(1);
    pith()
        .arg("inspect")
        .arg(&out)
        .args(["--number", SEED_URL])
        .assert()
        .success();
}

/// Habits: `inject --dry-run` writes nothing and reports what it would write; `inject
/// --json` prints one object with stable keys, and the file it describes reads back with
/// qpdf, exiftool and pdfinfo.
#[test]
fn inject_dry_run_and_json() {
    if !common::have_tool("qpdf", "inject_dry_run_and_json")
        || !common::have_tool("exiftool", "inject_dry_run_and_json")
        || !common::have_tool("pdfinfo", "inject_dry_run_and_json")
    {
        return;
    }
    let dir = tmpdir();
    let out = dir.path().join("o.pdf");
    let input = example("2402.03791v3.pdf");
    let before = std::fs::read(&input).unwrap();
    let run = |extra: &[&str]| {
        let o = pith()
            .arg("inject")
            .arg(&input)
            .args(["--arxiv-atom"])
            .arg(example("2402.03791v3.atom.xml"))
            .arg("-o")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<Value>(&o.stdout).unwrap()
    };
    let planned = run(&["--dry-run", "--json"]);
    assert!(!out.exists(), "a dry run writes nothing");
    assert_eq!(planned["status"], "planned");
    let done = run(&["--json"]);
    let keys: Vec<&str> = done
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "bytes_after",
            "bytes_before",
            "input",
            "notes",
            "number",
            "output",
            "replaced",
            "replaced_xmp",
            "status",
            "url",
            "written"
        ]
    );
    assert_eq!(done["status"], "injected");
    assert_eq!(done["number"], SEED);
    assert_eq!(
        done["bytes_after"], planned["bytes_after"],
        "the plan was the update"
    );
    let written = std::fs::read(&out).unwrap();
    assert_eq!(done["bytes_after"], written.len());
    assert!(written.starts_with(&before));
    assert!(qpdf_clean(&out));
    assert_eq!(exif_tag(&out, "PithNumber"), SEED);
    assert_eq!(pdfinfo_custom(&out, "PithNumber").as_deref(), Some(SEED));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// Bug 10: the tex snippet's command writes the file the snippet includes; `sty -o
/// FILE` says what -o expects.
#[test]
fn bug10_tex_hint_names_the_included_file_and_sty_says_what_it_expects() {
    let out = pith()
        .args(["snippet", SEED, "--format", "tex"])
        .output()
        .unwrap();
    let tex = String::from_utf8(out.stdout).unwrap();
    assert!(tex.contains("\\includegraphics[height=1.6em]{pith-7BMK4ZKT.pdf}"));
    assert!(
        tex.contains("pith badge --format pdf -o pith-7BMK4ZKT.pdf "),
        "{tex}"
    );
    let dir = tmpdir();
    pith()
        .current_dir(dir.path())
        .args(["sty", "-o", "pith.sty"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "not a directory; -o takes the directory",
        ));
}

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

/// Habit: an explicit overwrite policy. Outputs are replaced by default (atomically, as qpdf
/// does); `--no-clobber` (`-n`, as `cp -n`, exiftool's default) refuses an existing one and
/// leaves it as it was.
#[test]
fn outputs_are_replaced_unless_no_clobber() {
    let dir = tmpdir();
    let badge = dir.path().join("b.svg");
    std::fs::write(&badge, "old").unwrap();
    pith()
        .args(["badge", SEED, "-n", "-o"])
        .arg(&badge)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exists, not replaced"));
    assert_eq!(std::fs::read_to_string(&badge).unwrap(), "old");
    pith()
        .args(["badge", SEED, "-o"])
        .arg(&badge)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&badge).unwrap().starts_with("<svg"));
    let out = dir.path().join("o.pdf");
    std::fs::write(&out, "old").unwrap();
    pith()
        .args(["--no-clobber", "inject"])
        .arg(fixture("minimal.pdf"))
        .args(["--number", SEED, "-o"])
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    std::fs::write(dir.path().join("pith.sty"), "old").unwrap();
    pith()
        .args(["sty", "-n", "-o"])
        .arg(dir.path())
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("pith.sty")).unwrap(),
        "old"
    );
    // -n with /dev/null as output is no refusal: a device is not a file to keep.
    pith()
        .args(["badge", SEED, "-n", "-o", "/dev/null"])
        .assert()
        .success();
}

/// Habit: `-q` leaves out everything but errors on standard error; `-v` adds a line per file
/// to a batch run.
#[test]
fn quiet_and_verbose() {
    let dir = tmpdir();
    let o = pith().args(["sty", "-o"]).arg(dir.path()).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("wrote"));
    let o = pith()
        .args(["-q", "sty", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success() && o.stderr.is_empty(), "{o:?}");
    common::copy_writable(&fixture("minimal.pdf"), &dir.path().join("in/a.pdf"));
    std::fs::write(dir.path().join("in/a.pith"), SEED).unwrap();
    let o = pith()
        .args(["batch", "-v", "--dry-run", "--dir"])
        .arg(dir.path().join("in"))
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("pith: planned ") && err.contains("a.pdf"),
        "{err}"
    );
    // -q leaves out every report line, summary and note: an inject to a file
    // and to standard output, a strip, an arXiv bulk run, a batch on a terminal-less run.
    let a = dir.path().join("in/a.pdf");
    let quiet = |args: &[&str]| {
        let o = pith().arg("-q").args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {o:?}");
        assert!(
            o.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o.stdout
    };
    let s = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let b = dir.path().join("b.pdf");
    assert!(quiet(&["inject", &s(&a), "--number", common::OTHER, "-o", &s(&b)]).is_empty());
    let piped = quiet(&["inject", &s(&b), "--number", SEED, "-o", "-"]);
    assert!(
        piped.starts_with(b"%PDF-"),
        "the PDF, and nothing on stderr"
    );
    assert!(quiet(&["inject", &s(&b), "--number", SEED, "--in-place"]).is_empty());
    assert!(quiet(&["strip", &s(&b), "--in-place"]).is_empty());
    let snapshot = common::data("arxiv/vectors.snapshot.jsonl");
    assert!(!quiet(&["number", "--arxiv-snapshot", &s(&snapshot)]).is_empty());
    // Errors still show under -q.
    pith()
        .args(["-q", "number", "--record", "/nonexistent.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent.json"));
}

/// `pith strip` takes out the Info entries, pith's XMP values (keeping the rest
/// of the packet) and the stamp with its link, as an append-only update that qpdf accepts;
/// `inspect` then finds no number (exit 1). Read back with exiftool, pdfinfo and qpdf.
#[test]
fn strip_takes_the_number_link_and_stamp_out() {
    for tool in ["qpdf", "exiftool", "pdfinfo", "pdftotext"] {
        if !common::have_tool(tool, "strip_takes_the_number_link_and_stamp_out") {
            return;
        }
    }
    let dir = tmpdir();
    let stamped = dir.path().join("stamped.pdf");
    pith()
        .args(["inject"])
        .arg(example("2402.03791v3.pdf"))
        .args(["--number", SEED, "--stamp", "-o"])
        .arg(&stamped)
        .assert()
        .success();
    let before = std::fs::read(&stamped).unwrap();
    let title = exif_tag(&stamped, "XMP:Title");
    let clean = dir.path().join("clean.pdf");
    let o = pith()
        .args(["strip", "--json"])
        .arg(&stamped)
        .arg("-o")
        .arg(&clean)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (r["status"].as_str(), r["removed"].as_str()),
        (Some("stripped"), Some(SEED))
    );
    let after = std::fs::read(&clean).unwrap();
    assert!(
        after.len() > before.len() && after.starts_with(&before),
        "append-only"
    );
    assert!(qpdf_clean(&clean));
    for tag in ["PithNumber", "PithURL", "XMP-pith:Number", "XMP-pith:URL"] {
        assert_eq!(exif_tag(&clean, tag), "", "{tag} is still there");
    }
    assert_eq!(pdfinfo_custom(&clean, "PithNumber"), None);
    let ids = exif_tag(&clean, "XMP:Identifier") + &exif_tag(&clean, "XMP:Relation");
    assert!(!ids.contains("pith"), "{ids}");
    assert_eq!(
        exif_tag(&clean, "XMP:Title"),
        title,
        "the rest of the packet stays"
    );
    let text = |p: &std::path::Path| {
        let o = std::process::Command::new("pdftotext")
            .args(["-l", "1"])
            .arg(p)
            .arg("-")
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout)
            .matches(SEED_SHORT)
            .count()
    };
    assert_eq!(text(&stamped), 1, "the stamp is on page 1");
    assert_eq!(text(&clean), 0, "the stamp is gone");
    pith().args(["inspect"]).arg(&clean).assert().code(1);
    // In place: the same, crash-safe path as inject; a second strip changes nothing.
    pith()
        .args(["strip", "--in-place"])
        .arg(&stamped)
        .assert()
        .success();
    assert!(std::fs::read(&stamped).unwrap().starts_with(&before));
    pith().args(["inspect"]).arg(&stamped).assert().code(1);
    let again = std::fs::read(&stamped).unwrap();
    pith()
        .args(["strip", "--in-place"])
        .arg(&stamped)
        .assert()
        .success()
        .stdout(predicate::str::contains("unchanged"));
    assert_eq!(std::fs::read(&stamped).unwrap(), again);
}

/// `pith batch --check` reads the same inputs as a run, changes nothing, and
/// names the outputs that differ from or lack their number (exit 1).
#[test]
fn batch_check_names_outputs_that_differ_or_lack_their_number() {
    let dir = tmpdir();
    let tree = dir.path().join("in");
    for n in ["a", "b", "c"] {
        common::copy_writable(&fixture("minimal.pdf"), &tree.join(format!("{n}.pdf")));
        std::fs::write(tree.join(format!("{n}.pith")), SEED).unwrap();
    }
    let out = dir.path().join("out");
    let batch = |extra: &[&str]| {
        pith()
            .args(["batch", "--dir"])
            .arg(&tree)
            .arg("--out-dir")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(batch(&[]).status.success());
    let o = batch(&["--check"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // b's sidecar now assigns another number; c's output is gone.
    std::fs::write(tree.join("b.pith"), common::OTHER).unwrap();
    std::fs::remove_file(out.join("c.pdf")).unwrap();
    let listing = |d: &std::path::Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.clone(), std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let (before_in, before_out) = (listing(&tree), listing(&out));
    let o = batch(&["--check"]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("b.pdf") && stderr.contains("c.pdf") && !stderr.contains("a.pdf"),
        "{stderr}"
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let status = |name: &str| {
        lines
            .iter()
            .find(|l| l["pdf"].as_str().is_some_and(|p| p.ends_with(name)))
            .map(|l| l["status"].as_str().unwrap().to_owned())
    };
    assert_eq!(status("a.pdf").as_deref(), Some("matches"));
    assert_eq!(status("b.pdf").as_deref(), Some("differs"));
    assert_eq!(status("c.pdf").as_deref(), Some("missing"));
    assert_eq!(lines.last().unwrap()["differs"], 1);
    assert_eq!(
        (listing(&tree), listing(&out)),
        (before_in, before_out),
        "nothing changed"
    );
}

/// Replacing a different number is said (text, --json, batch line and summary);
/// completing the same code is not a replacement.
#[test]
fn replacing_a_different_number_is_said() {
    let dir = tmpdir();
    let a = dir.path().join("a.pdf");
    common::copy_writable(&fixture("minimal.pdf"), &a);
    let inject = |n: &str, json: bool| {
        let mut c = pith();
        c.args(["inject", "--in-place", "--number", n]).arg(&a);
        if json {
            c.arg("--json");
        }
        c.output().unwrap()
    };
    let first: Value = serde_json::from_slice(&inject(common::OTHER, true).stdout).unwrap();
    assert_eq!(first["replaced"], Value::Null);
    let o = inject(SEED, false);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("replaced {SEED} (was {})", common::OTHER)),
        "{text}"
    );
    let again: Value = serde_json::from_slice(&inject(SEED, true).stdout).unwrap();
    assert_eq!(
        (again["status"].as_str(), &again["replaced"]),
        (Some("unchanged"), &Value::Null)
    );
    // A batch over it with the other number: the line and the summary say so.
    std::fs::write(dir.path().join("a.pith"), common::OTHER).unwrap();
    let o = pith()
        .args(["batch", "--in-place", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["replaced"], SEED);
    assert_eq!(lines.last().unwrap()["replaced"], 1);
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

/// One rule for every output, as `--out-dir` and `--out-tar` have: the folders an output
/// needs are made when it is written (`-o new/x.pdf` in a fresh directory), and none when the
/// input is refused. An output that is a folder (an existing one, or a name ending in `/`)
/// gets the input's name inside it, as with `cp`; a badge gets the name snippets use.
#[test]
fn outputs_make_their_folders_and_go_into_a_named_folder() {
    if !common::have_tool("qpdf", "outputs_make_their_folders") {
        return;
    }
    let dir = tmpdir();
    let pdf = fixture("minimal.pdf");
    let os = |p: &std::path::Path| std::ffi::OsString::from(p);
    let inject = |out: std::ffi::OsString, input: &std::path::Path| {
        pith()
            .arg("inject")
            .arg(input)
            .args(["--number", SEED, "-o"])
            .arg(out)
            .output()
            .unwrap()
    };
    // A missing folder on the way to a file: made, for every writer.
    let missing = dir.path().join("no/such");
    let o = inject(os(&missing.join("a.pdf")), &pdf);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(qpdf_clean(&missing.join("a.pdf")));
    assert!(exif_tag(&missing.join("a.pdf"), "Identifier").contains(SEED_CODE));
    for args in [
        vec![
            os("badge".as_ref()),
            SEED.into(),
            "-o".into(),
            os(&dir.path().join("b1/b.svg")),
        ],
        vec![
            os("strip".as_ref()),
            os(&pdf),
            "-o".into(),
            os(&dir.path().join("s1/c.pdf")),
        ],
    ] {
        let o = pith().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    }
    assert!(dir.path().join("b1/b.svg").is_file() && qpdf_clean(&dir.path().join("s1/c.pdf")));
    // A refused input makes no folder, and names no temporary file.
    let broken = dir.path().join("broken.pdf");
    std::fs::write(&broken, b"%PDF-1.7\nnot a pdf").unwrap();
    let o = inject(os(&dir.path().join("never/made/x.pdf")), &broken);
    assert_eq!(o.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("pith-tmp"));
    assert!(!dir.path().join("never").exists());
    // An existing folder, with or without the final slash, and a new one named with it: the
    // input's name inside.
    let existing = dir.path().join("outd");
    std::fs::create_dir(&existing).unwrap();
    let mut slash = os(&dir.path().join("newd"));
    slash.push("/");
    for out in [os(&existing), slash] {
        let o = inject(out.clone(), &pdf);
        assert_eq!(o.status.code(), Some(0), "{out:?}: {o:?}");
        let written = std::path::Path::new(&out).join("minimal.pdf");
        assert!(
            exif_tag(&written, "Identifier").contains(SEED_CODE),
            "{out:?}"
        );
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&*written.to_string_lossy())
                || String::from_utf8_lossy(&o.stdout).contains("minimal.pdf"),
            "{o:?}"
        );
    }
    let o = pith()
        .args(["strip", "-o"])
        .arg(&existing)
        .arg(existing.join("minimal.pdf"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "the input itself: {o:?}");
    let o = pith()
        .args(["badge", SEED, "-o"])
        .arg(&existing)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let svg = existing.join(format!("pith-{}.svg", &SEED_CODE[..8]));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    // Standard input has no name to give the file inside a folder: said, nothing written.
    let o = pith()
        .args(["inject", "-", "--number", SEED, "-o"])
        .arg(&existing)
        .write_stdin(std::fs::read(&pdf).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("pith: ") && err.contains("is a folder"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&existing).unwrap().count(), 2);
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

/// An encrypted file is stripped too, its update encrypted like an inject's (the
/// page of the removed stamp keeps its encrypted strings); qpdf and poppler read the result.
#[test]
fn strip_works_on_encrypted_files() {
    for tool in ["qpdf", "pdftotext"] {
        if !common::have_tool(tool, "strip_works_on_encrypted_files") {
            return;
        }
    }
    let dir = tmpdir();
    for name in ["r4-rc4-128.pdf", "r6-aes256.pdf"] {
        let (a, b) = (dir.path().join("a.pdf"), dir.path().join("b.pdf"));
        let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
        pith()
            .args(["-q", "inject", "--stamp", "--number", SEED, "-o"])
            .arg(&a)
            .arg(fixture(&format!("encrypted/{name}")))
            .assert()
            .success();
        pith()
            .args(["-q", "strip", "-o"])
            .arg(&b)
            .arg(&a)
            .assert()
            .success();
        assert!(qpdf_clean(&b), "{name}");
        let o = std::process::Command::new("pdftotext")
            .args(["-l", "1"])
            .arg(&b)
            .arg("-")
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}");
        assert!(
            !String::from_utf8_lossy(&o.stdout).contains(SEED_SHORT),
            "{name}"
        );
        pith().args(["inspect"]).arg(&b).assert().code(1);
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
