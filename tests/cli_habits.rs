//! What a new user hits first in `inject`, `inspect`, `badge`, `sty` and `snippet`,
//! and the habits users bring from exiftool, qpdf, ripgrep and cargo. Each bug has a test
//! named after it that fails on the code before the fix; files are read back with qpdf,
//! exiftool and pdfinfo.

use crate::common;

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
    let o = common::batch(&["--dir"], &tree, &dir.path().join("stamped"))
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
    let o = common::batch(
        &["-v", "--dry-run", "--dir"],
        &dir.path().join("in"),
        &dir.path().join("out"),
    )
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
        common::batch(&["--dir"], &tree, &out)
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

/// `pith … | head -1` closes the pipe before pith is done writing: every command then ends
/// with its own exit code or 0 (as ripgrep), never with a panic's message or its exit 101,
/// whether standard output alone or both streams are closed. The pipes here are closed
/// before pith starts, so every write of pith meets a closed pipe.
#[test]
fn a_closed_pipe_is_no_panic() {
    use std::process::{Command, Stdio};
    let d = tmpdir();
    let paper = example("2402.03791v3.pdf");
    let missing = d.path().join("missing.jsonl");
    let out = d.path().join("index.sqlite");
    let s = |p: &std::path::Path| p.display().to_string();
    let cases: Vec<Vec<String>> = [
        vec!["index", "--json", "--bogus"],
        vec!["index", "--json", &s(&missing), "-o", &s(&out)],
        vec!["number", "--json", "--bogus"],
        vec!["inspect", "--json", &s(&missing)],
        vec!["inspect", "--json", &s(&paper)],
        vec!["sty"],
        vec!["--help"],
        vec!["completions", "bash"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .collect();
    let run = |args: &[String], stderr_closed: bool| {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut c = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
        common::run::without_callers_env(&mut c)
            .current_dir(d.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(writer.try_clone().unwrap());
        if stderr_closed {
            c.stderr(writer);
        } else {
            c.stderr(Stdio::piped());
        }
        c.output().unwrap()
    };
    for args in &cases {
        let mut c = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
        let open = common::run::without_callers_env(&mut c)
            .current_dir(d.path())
            .args(args)
            .output()
            .unwrap();
        let closed = run(args, false);
        let err = String::from_utf8_lossy(&closed.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let code = closed.status.code();
        assert!(
            code == open.status.code() || code == Some(0),
            "{args:?}: exit {:?} with standard output closed, {:?} open; {err}",
            code,
            open.status.code()
        );
        let both = run(args, true);
        let code = both.status.code();
        assert!(
            code == open.status.code() || code == Some(0),
            "{args:?}: exit {code:?} with both streams closed, {:?} open",
            open.status.code()
        );
    }
}
