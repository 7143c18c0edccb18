//! `pith batch` and crash-safety of in-place updates: manifests,
//! directory mode, shards, reruns, interrupted runs and killed processes. Results are checked
//! with qpdf and exiftool, not only with pith.

use crate::common;

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::tools::{exif_tag, qpdf_clean};
use crate::common::{copy_writable, fixture, OTHER, SEED};
use serde_json::Value;

/// Sources for test files: a classic xref table and an xref stream with object streams.
fn sources() -> Vec<PathBuf> {
    ["minimal.pdf", "qpdf-object-stream.pdf"]
        .iter()
        .map(|n| fixture(n))
        .collect()
}

fn report_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("report line {l:?}: {e}")))
        .collect()
}

#[test]
fn manifest_run_mirrors_the_tree_and_reruns_as_unchanged() {
    if !common::have_tool("qpdf", "manifest_run") || !common::have_tool("exiftool", "manifest_run")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    let srcs = sources();
    copy_writable(&srcs[0], &inp.join("2402/a.pdf"));
    copy_writable(&srcs[1], &inp.join("2402/b.pdf"));
    copy_writable(&srcs[0], &inp.join("2412/c.pdf"));
    std::fs::write(
        inp.join("broken.pdf"),
        b"%PDF-1.7\nthis is not a PDF body\n",
    )
    .unwrap();
    std::fs::copy(
        common::example("2412.14374v1.record.json"),
        inp.join("c.record.json"),
    )
    .unwrap();
    std::fs::copy(
        common::example("2402.03791v3.atom.xml"),
        inp.join("a.atom.xml"),
    )
    .unwrap();
    let manifest = inp.join("manifest.jsonl");
    std::fs::write(
        &manifest,
        format!(
            "{{\"pdf\":\"2402/a.pdf\",\"arxiv_atom\":\"a.atom.xml\"}}\n\
             {{\"pdf\":\"2402/b.pdf\",\"number\":\"{OTHER}\",\"out\":\"custom/b-out.pdf\"}}\n\
             {{\"pdf\":\"2412/c.pdf\",\"record\":\"c.record.json\"}}\n\
             {{\"pdf\":\"broken.pdf\",\"number\":\"{SEED}\"}}\n"
        ),
    )
    .unwrap();
    let before: Vec<Vec<u8>> = ["2402/a.pdf", "2402/b.pdf", "2412/c.pdf"]
        .iter()
        .map(|p| std::fs::read(inp.join(p)).unwrap())
        .collect();
    let out = dir.path().join("out");
    let o = common::batch(&["--manifest"], &manifest, &out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = report_lines(&o.stdout);
    assert_eq!(lines.len(), 5, "four files and a summary");
    let summary = lines.last().unwrap();
    assert_eq!(
        (summary["injected"].as_u64(), summary["refused"].as_u64()),
        (Some(3), Some(1)),
        "{summary}"
    );
    let refused = lines.iter().find(|l| l["status"] == "refused").unwrap();
    assert!(refused["reason"].as_str().unwrap().contains("broken.pdf"));
    // Inputs untouched; outputs valid for qpdf and read back by exiftool.
    for (p, b) in ["2402/a.pdf", "2402/b.pdf", "2412/c.pdf"]
        .iter()
        .zip(&before)
    {
        assert_eq!(&std::fs::read(inp.join(p)).unwrap(), b, "{p} modified");
    }
    for (p, want) in [
        ("out/2402/a.pdf", SEED),
        ("in/custom/b-out.pdf", OTHER),
        ("out/2412/c.pdf", OTHER),
    ] {
        let f = dir.path().join(p);
        assert!(qpdf_clean(&f), "{p} fails qpdf --check");
        assert_eq!(exif_tag(&f, "PithNumber"), want, "{p}");
    }
    assert!(
        !out.join("broken.pdf").exists(),
        "no output for a refused file"
    );
    // A rerun finds everything done.
    let o = common::batch(&["--manifest"], &manifest, &out)
        .output()
        .unwrap();
    let lines = report_lines(&o.stdout);
    assert_eq!(
        lines.last().unwrap()["unchanged"].as_u64(),
        Some(3),
        "{lines:?}"
    );
    // --strict turns the refusal into a non-zero exit.
    common::batch(&["--strict", "--manifest"], &manifest, &out)
        .assert()
        .code(2);
}

#[test]
fn shards_split_the_manifest_without_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let mut manifest = String::new();
    for i in 0..7 {
        copy_writable(&sources()[0], &dir.path().join(format!("f{i}.pdf")));
        manifest.push_str(&format!("{{\"pdf\":\"f{i}.pdf\",\"number\":\"{SEED}\"}}\n"));
    }
    let m = dir.path().join("m.jsonl");
    std::fs::write(&m, manifest).unwrap();
    let mut seen = Vec::new();
    for k in 0..3 {
        let o = common::pith()
            .args([
                "batch",
                "--in-place",
                "--shard",
                &format!("{k}/3"),
                "--manifest",
            ])
            .arg(&m)
            .output()
            .unwrap();
        assert!(o.status.success());
        for l in report_lines(&o.stdout)
            .iter()
            .filter(|l| l.get("pdf").is_some())
        {
            assert_eq!(l["status"], "injected");
            seen.push(l["pdf"].as_str().unwrap().to_owned());
        }
    }
    seen.sort();
    let n = seen.len();
    seen.dedup();
    assert_eq!((n, seen.len()), (7, 7), "each file in exactly one shard");
    common::pith()
        .args(["batch", "--in-place", "--shard", "3/3", "--manifest"])
        .arg(&m)
        .assert()
        .code(2);
}

#[test]
fn directory_mode_uses_sidecars_and_in_place_appends_only() {
    if !common::have_tool("qpdf", "directory_mode") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let srcs = sources();
    for (i, s) in srcs.iter().enumerate() {
        let f = dir.path().join(format!("sub/p{i}.pdf"));
        copy_writable(s, &f);
        std::fs::write(f.with_extension("pith"), format!("{SEED}\n")).unwrap();
    }
    copy_writable(&srcs[0], &dir.path().join("orphan.pdf"));
    let o = common::pith()
        .args(["batch", "--in-place", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success());
    // PDFs without a sidecar are in the report, not only on standard error.
    let lines = report_lines(&o.stdout);
    let orphan = lines
        .iter()
        .find(|l| l["pdf"].as_str().is_some_and(|p| p.ends_with("orphan.pdf")))
        .expect("orphans are reported");
    assert_eq!(orphan["status"], "unmatched");
    assert_eq!(lines.last().unwrap()["unmatched"], 1);
    assert_eq!(lines.last().unwrap()["total"], 3);
    for (i, s) in srcs.iter().enumerate() {
        let f = dir.path().join(format!("sub/p{i}.pdf"));
        let (orig, now) = (std::fs::read(s).unwrap(), std::fs::read(&f).unwrap());
        assert!(
            now.len() > orig.len() && now.starts_with(&orig),
            "append-only"
        );
        assert!(
            now.len() - orig.len() < 16 * 1024,
            "an in-place update appends a few KB"
        );
        assert!(qpdf_clean(&f));
    }
    assert_eq!(
        std::fs::read(dir.path().join("orphan.pdf")).unwrap(),
        std::fs::read(&srcs[0]).unwrap()
    );
}

/// A file is whole: either the original bytes, or the original bytes followed by appended
/// bytes that qpdf accepts without warnings. Returns whether the file carries the number: an
/// in-place update killed before its commit write leaves the new objects after the original
/// `%%EOF` behind a copy of the original `startxref`, which readers take as the original
/// document (the engine's commit writes the new `startxref` last: `pith_pdf::commit`).
fn assert_whole(path: &Path, original: &[u8]) -> bool {
    let now = std::fs::read(path).unwrap();
    if now == original {
        return false;
    }
    assert!(
        now.starts_with(original),
        "{}: original bytes changed",
        path.display()
    );
    assert!(
        qpdf_clean(path),
        "{}: torn update (qpdf --check)",
        path.display()
    );
    let o = common::pith().arg("inspect").arg(path).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // Exit 0: the number, consistent; exit 1 without "consistent: no": no number yet.
    assert!(
        o.status.success()
            || (o.status.code() == Some(1) && text.contains("consistent: - (no number)")),
        "{}: inspect fails: {text}",
        path.display()
    );
    text.contains(SEED)
}

#[test]
fn interrupted_batch_leaves_files_whole_and_a_rerun_finishes() {
    if !common::have_tool("qpdf", "interrupted_batch")
        || !common::have_tool("kill", "interrupted_batch")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = &sources()[1];
    let original = std::fs::read(src).unwrap();
    let n = 300;
    for i in 0..n {
        let f = dir.path().join(format!("d{}/f{i}.pdf", i % 10));
        copy_writable(src, &f);
        std::fs::write(f.with_extension("pith"), SEED).unwrap();
    }
    let mut batch = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
    batch
        .args(["batch", "--in-place", "-j", "2", "--dir"])
        .arg(dir.path());
    let (lines, o) = signalled_batch(batch, "-INT");
    let summary = lines.last().unwrap();
    let mut updated = 0;
    for i in 0..n {
        if assert_whole(&dir.path().join(format!("d{}/f{i}.pdf", i % 10)), &original) {
            updated += 1;
        }
    }
    assert_stopped_summary(summary, updated, o.status, "SIGINT");
    if summary["interrupted"] == true {
        assert!(String::from_utf8_lossy(&o.stderr).contains("interrupted"));
    }
    let mut rerun = common::pith();
    rerun.args(["batch", "--in-place", "--dir"]).arg(dir.path());
    assert_rerun_finishes(rerun, updated, n, "SIGINT");
}

/// Runs `batch` (a `pith batch` reporting on its standard output) and sends it `signal` once
/// its first report line is out: the run is under way, its handler installed before the run
/// started, so the signal reaches the handler rather than ending the process outright. The
/// report's lines, and the whole output.
fn signalled_batch(mut batch: Command, signal: &str) -> (Vec<Value>, std::process::Output) {
    let mut child = batch
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut report = Vec::new();
    stdout.read_until(b'\n', &mut report).unwrap();
    assert!(!report.is_empty(), "the batch wrote no report line");
    let _ = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status();
    stdout.read_to_end(&mut report).unwrap();
    let o = child.wait_with_output().unwrap();
    (report_lines(&report), o)
}

/// A stopped run's summary agrees with the files: `done` of them were updated, and an
/// interrupted run exits with 2.
fn assert_stopped_summary(summary: &Value, done: u64, status: std::process::ExitStatus, ctx: &str) {
    assert_eq!(
        summary["injected"].as_u64(),
        Some(done),
        "{ctx}: the report agrees with the files: {summary}"
    );
    if summary["interrupted"] == true {
        assert_eq!(status.code(), Some(2), "{ctx}");
    }
}

/// The rerun `rerun` of a stopped run does the rest of the `total` files and leaves the `done`
/// ones alone.
fn assert_rerun_finishes(mut rerun: assert_cmd::Command, done: u64, total: u64, ctx: &str) {
    let o = rerun.output().unwrap();
    assert!(o.status.success(), "{ctx}");
    let s = report_lines(&o.stdout).pop().unwrap();
    assert_eq!(s["unchanged"].as_u64(), Some(done), "{ctx}: {s}");
    assert_eq!(s["injected"].as_u64(), Some(total - done), "{ctx}: {s}");
}

#[test]
#[ignore = "full tier (kills processes in a loop): cargo test -- --include-ignored"]
fn killed_in_place_inject_never_tears_a_file() {
    if !common::have_tool("qpdf", "killed_in_place") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin!("pith");
    let mut updated = 0;
    let rounds = 40;
    for (round, src) in sources().iter().cycle().take(rounds).enumerate() {
        let original = std::fs::read(src).unwrap();
        let f = dir.path().join(format!("k{round}.pdf"));
        copy_writable(src, &f);
        let mut child = Command::new(bin)
            .args(["inject", "--in-place", "--number", SEED])
            .arg(&f)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Spread the kill over the process's whole life (start-up, parse, append, commit).
        std::thread::sleep(Duration::from_micros((round as u64 * 397) % 6000));
        let _ = child.kill();
        let _ = child.wait();
        if assert_whole(&f, &original) {
            updated += 1;
        }
        // Whatever state the kill left, a rerun completes the update.
        common::pith()
            .args(["inject", "--in-place", "--number", SEED])
            .arg(&f)
            .assert()
            .success();
        assert!(
            assert_whole(&f, &original),
            "{}: rerun did not complete",
            f.display()
        );
    }
    eprintln!(
        "killed_in_place: {updated} of {rounds} files were updated before the kill, none torn"
    );
}

/// The report line of `name` (matched by file name).
fn line_of<'a>(lines: &'a [Value], name: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["pdf"].as_str().is_some_and(|p| p.ends_with(name)))
        .unwrap_or_else(|| panic!("no report line for {name}: {lines:?}"))
}

/// Bug 10 (batch part): disagreeing sidecars fail their file and say so, failed
/// lines carry `out` (and `number` once known), and a refused file leaves no empty folder.
#[test]
fn sidecar_conflicts_failed_lines_and_no_empty_folders() {
    let dir = tempfile::tempdir().unwrap();
    let (src, out) = (dir.path().join("in"), dir.path().join("out"));
    copy_writable(&fixture("minimal.pdf"), &src.join("a/twice.pdf"));
    std::fs::write(src.join("a/twice.pith"), format!("{OTHER}\n")).unwrap();
    copy_writable(
        &common::example("2402.03791v3.record.json"),
        &src.join("a/twice.record.json"),
    );
    copy_writable(&fixture("minimal.pdf"), &src.join("b/bad.pdf"));
    std::fs::write(src.join("b/bad.pith"), "pith:2024:7BMK4ZKT extra words\n").unwrap();
    copy_writable(
        &fixture("encrypted/r4-aes128-user-password.pdf"),
        &src.join("c/deep/locked.pdf"),
    );
    std::fs::write(
        src.join("c/deep/locked.pith"),
        format!("  {}\n", SEED.to_lowercase()),
    )
    .unwrap();
    let o = common::batch(&["--dir"], &src, &out).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "failures exit 2");
    let lines = report_lines(&o.stdout);
    let twice = line_of(&lines, "twice.pdf");
    assert_eq!(twice["status"], "failed");
    let reason = twice["reason"].as_str().unwrap();
    assert!(reason.contains("sidecars disagree"), "{reason}");
    assert!(reason.contains(OTHER) && reason.contains(SEED), "{reason}");
    // Each side names its file: the number's sidecar as the record's.
    assert!(
        reason.contains("twice.pith") && reason.contains("twice.record.json"),
        "{reason}"
    );
    assert!(twice["out"].as_str().unwrap().ends_with("a/twice.pdf"));
    let bad = line_of(&lines, "bad.pdf");
    assert_eq!(bad["status"], "failed");
    assert!(bad["out"].is_string(), "failed lines name out: {bad}");
    let locked = line_of(&lines, "locked.pdf");
    assert_eq!(locked["status"], "refused", "{locked}");
    assert_eq!(locked["number"], SEED, "whitespace and case tolerated");
    assert!(
        !out.join("c").exists(),
        "a refused file leaves no empty folder behind"
    );
    assert!(!out.join("a").exists() && !out.join("b").exists());
}

/// A sidecar that cannot be read (larger than any number, or not text) fails its own PDF
/// with a reason naming the sidecar; the PDF beside it is injected all the same, and the
/// input is left as it was.
#[test]
fn an_unreadable_sidecar_fails_its_own_pdf_only() {
    let dir = tempfile::tempdir().unwrap();
    let (src, out) = (dir.path().join("in"), dir.path().join("out"));
    for name in ["good", "huge", "binary"] {
        copy_writable(&fixture("minimal.pdf"), &src.join(format!("{name}.pdf")));
    }
    std::fs::write(src.join("good.pith"), format!("{SEED}\n")).unwrap();
    let mut huge = SEED.as_bytes().to_vec();
    huge.resize(100 << 10, b' ');
    std::fs::write(src.join("huge.pith"), &huge).unwrap();
    std::fs::write(src.join("binary.pith"), b"pith:2024:\xff\xfe\n").unwrap();
    let o = common::batch(&["--dir"], &src, &out).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "a failed file exits 2");
    let lines = report_lines(&o.stdout);
    assert_eq!(lines.iter().filter(|l| l["pdf"].is_string()).count(), 3);
    assert_eq!(line_of(&lines, "good.pdf")["status"], "injected");
    assert!(out.join("good.pdf").is_file());
    for name in ["huge", "binary"] {
        let line = line_of(&lines, &format!("{name}.pdf"));
        assert_eq!(line["status"], "failed", "{line}");
        let reason = line["reason"].as_str().unwrap();
        assert!(reason.contains(&format!("{name}.pith")), "{reason}");
        assert!(!out.join(format!("{name}.pdf")).exists());
    }
    assert_eq!(
        std::fs::read(src.join("huge.pdf")).unwrap(),
        std::fs::read(fixture("minimal.pdf")).unwrap()
    );
}

/// `--report -` is standard output (bug 5), `--dry-run` writes nothing and says
/// what it would do, and `--mirror` copies refused and unmatched files unchanged.
#[test]
fn report_dash_dry_run_and_mirror() {
    if !common::have_tool("qpdf", "report_dash_dry_run_and_mirror") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (src, out) = (dir.path().join("in"), dir.path().join("out"));
    copy_writable(&fixture("minimal.pdf"), &src.join("ok.pdf"));
    std::fs::write(src.join("ok.pith"), SEED).unwrap();
    copy_writable(
        &fixture("encrypted/r4-aes128-user-password.pdf"),
        &src.join("sub/locked.pdf"),
    );
    std::fs::write(src.join("sub/locked.pith"), SEED).unwrap();
    copy_writable(&fixture("minimal.pdf"), &src.join("sub/none.pdf"));
    let run = |extra: &[&str]| {
        let mut c = common::pith();
        c.current_dir(dir.path()).args([
            "batch",
            "--dir",
            "in",
            "--out-dir",
            "out",
            "--report",
            "-",
        ]);
        c.args(extra);
        c.output().unwrap()
    };
    let o = run(&["--dry-run"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        !dir.path().join("-").exists(),
        "--report - is standard output"
    );
    let lines = report_lines(&o.stdout);
    assert_eq!(line_of(&lines, "ok.pdf")["status"], "planned");
    // A dry run plans from the file: the encrypted one is refused as the real run refuses it.
    assert_eq!(line_of(&lines, "locked.pdf")["status"], "refused");
    assert_eq!(lines.last().unwrap()["planned"], 1);
    assert!(!out.exists(), "a dry run writes nothing");
    let o = run(&["--mirror"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = report_lines(&o.stdout);
    assert_eq!(line_of(&lines, "ok.pdf")["status"], "injected");
    for (name, status) in [("locked.pdf", "refused"), ("none.pdf", "unmatched")] {
        let l = line_of(&lines, name);
        assert_eq!(l["status"], status);
        assert_eq!(l["copied"], true, "{l}");
        let rel = format!("sub/{name}");
        assert_eq!(
            std::fs::read(out.join(&rel)).unwrap(),
            std::fs::read(src.join(&rel)).unwrap(),
            "{name} copied unchanged"
        );
    }
    assert!(qpdf_clean(&out.join("ok.pdf")));
    assert_eq!(exif_tag(&out.join("ok.pdf"), "PithNumber"), SEED);
}

/// Bug 4 and the summary habit: on a terminal (a pseudo-terminal made by
/// `script`), a run whose report goes to a file ends with one summary line;
/// with the report on the terminal no bar frame is drawn into it.
#[test]
fn terminal_summary_and_no_interleaving() {
    if !common::have_tool("script", "terminal_summary") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_writable(&fixture("minimal.pdf"), &dir.path().join("in/a.pdf"));
    std::fs::write(dir.path().join("in/a.pith"), SEED).unwrap();
    let bin = assert_cmd::cargo::cargo_bin!("pith");
    let tty = |cmd: &str| {
        let o = Command::new("script")
            .args(["-qec", cmd, "/dev/null"])
            .current_dir(dir.path())
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let shown = tty(&format!(
        "{} batch --dir in --out-dir out --report r.jsonl",
        bin.display()
    ));
    let last = shown.trim_end().lines().last().unwrap_or("").to_owned();
    assert!(
        last.contains("pith: 1 files: 1 injected") && last.contains("report in r.jsonl"),
        "{shown:?}"
    );
    let shown = tty(&format!("{} batch --dir in --out-dir out2", bin.display()));
    for l in shown.lines().filter(|l| l.contains('{')) {
        let json = &l[l.find('{').unwrap()..];
        serde_json::from_str::<Value>(json.trim_end())
            .unwrap_or_else(|e| panic!("report line broken by the bar: {l:?}: {e}"));
    }
    assert!(
        !shown.contains("files  "),
        "no bar with the report on the terminal: {shown:?}"
    );
}

/// Bug 3: a damaged file's refusal tells how to repair it with a command that
/// exists (batch has no --rewrite).
#[test]
fn refusal_hints_name_commands_that_exist() {
    let dir = tempfile::tempdir().unwrap();
    copy_writable(
        &fixture("qpdf-bad-xref-entry.pdf"),
        &dir.path().join("in/bad.pdf"),
    );
    std::fs::write(dir.path().join("in/bad.pith"), SEED).unwrap();
    let o = common::batch(&["--dir"], &dir.path().join("in"), &dir.path().join("out"))
        .output()
        .unwrap();
    let lines = report_lines(&o.stdout);
    let bad = line_of(&lines, "bad.pdf");
    assert_eq!(bad["status"], "refused");
    let reason = bad["reason"].as_str().unwrap();
    assert!(!reason.contains("use --rewrite"), "{reason}");
    assert!(reason.contains("pith inject --rewrite"), "{reason}");
}

/// A run that does not say where its outputs go, or says both, is refused with the flags that
/// say it; any other refusal of the request goes without them. Nothing is written.
#[test]
fn where_the_outputs_go_is_hinted_with_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    copy_writable(&fixture("minimal.pdf"), &inp.join("a.pdf"));
    std::fs::write(inp.join("a.pith"), SEED).unwrap();
    let out = dir.path().join("out");
    let (i, o) = (inp.to_str().unwrap(), out.to_str().unwrap());
    let hint =
        "give --out-dir DIR for numbered copies, or --in-place to update the files themselves";
    for (args, hinted) in [
        (vec!["--dir", i], true),
        (vec!["--dir", i, "--out-dir", o, "--in-place"], true),
        (vec!["--dir", i, "--in-place", "--mirror"], false),
        (vec!["--dir", i, "--out-dir", o, "--jobs", "0"], false),
    ] {
        let run = common::pith()
            .arg("batch")
            .args(&args)
            .arg("--json")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert_eq!(err.contains(hint), hinted, "{args:?}: {err}");
        let v: Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(v["kind"], "request", "{args:?}: {v}");
        assert!(!out.exists(), "{args:?}");
    }
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Temporary files pith left anywhere under `dir`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(".pith-tmp"))
        })
        .collect()
}

/// `n` inputs under `inp` (alternating the two sources, ten directories) and a manifest line
/// for each; returns the manifest lines and the inputs' bytes by relative path.
fn many_inputs(inp: &Path, n: usize) -> (Vec<String>, Vec<(String, Vec<u8>)>) {
    let srcs = sources();
    let mut lines = Vec::new();
    let mut inputs = Vec::new();
    for i in 0..n {
        let rel = format!("d{}/f{i:03}.pdf", i % 10);
        let src = &srcs[i % srcs.len()];
        copy_writable(src, &inp.join(&rel));
        lines.push(format!("{{\"pdf\":\"{rel}\",\"number\":\"{SEED}\"}}"));
        inputs.push((rel, std::fs::read(src).unwrap()));
    }
    (lines, inputs)
}

/// An output is the input followed by an update that qpdf accepts and that carries `SEED`.
fn assert_updated(out: &Path, input: &[u8]) {
    let now = std::fs::read(out).unwrap();
    assert!(
        now.len() > input.len() && now.starts_with(input),
        "{}: not the input plus an update",
        out.display()
    );
    assert!(qpdf_clean(out), "{}: qpdf --check", out.display());
}

#[test]
fn group_commit_lands_every_output_and_a_failing_one_alone() {
    if !common::have_tool("qpdf", "group_commit") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    let out = dir.path().join("out");
    // More files than one group of one worker holds, so that several commits run.
    let (mut lines, inputs) = many_inputs(&inp, 75);
    // In the middle of a group: an output whose rename fails at the commit (its path is a
    // non-empty directory), after it was written and synced; and a file refused up front.
    let blocked = out.join("blocked.pdf");
    std::fs::create_dir_all(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), b"k").unwrap();
    copy_writable(&sources()[0], &inp.join("x.pdf"));
    lines.insert(
        40,
        format!("{{\"pdf\":\"x.pdf\",\"number\":\"{SEED}\",\"out\":\"../out/blocked.pdf\"}}"),
    );
    std::fs::write(inp.join("broken.pdf"), b"%PDF-1.7\nnot a body\n").unwrap();
    lines.insert(
        20,
        format!("{{\"pdf\":\"broken.pdf\",\"number\":\"{SEED}\"}}"),
    );
    let manifest = inp.join("manifest.jsonl");
    std::fs::write(&manifest, lines.join("\n") + "\n").unwrap();
    let o = common::batch(&["-j", "2", "--manifest"], &manifest, &out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "one file failed");
    let report = report_lines(&o.stdout);
    let summary = report.last().unwrap();
    assert_eq!(
        (
            summary["injected"].as_u64(),
            summary["failed"].as_u64(),
            summary["refused"].as_u64()
        ),
        (Some(75), Some(1), Some(1)),
        "{summary}"
    );
    let failed = report.iter().find(|l| l["status"] == "failed").unwrap();
    assert!(
        failed["reason"]
            .as_str()
            .unwrap()
            .contains("blocked.pdf: cannot replace"),
        "{failed}"
    );
    assert_eq!(failed["bytes_after"], failed["bytes_before"]);
    for (rel, bytes) in &inputs {
        assert_updated(&out.join(rel), bytes);
    }
    assert_eq!(
        std::fs::read_dir(&blocked).unwrap().count(),
        1,
        "the blocking directory is untouched"
    );
    assert!(!out.join("broken.pdf").exists());
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
    assert_eq!(
        files_under(&out).len(),
        75 + 1,
        "75 outputs and blocked.pdf/keep"
    );
}

/// Inputs of [`terminated_batch_leaves_no_temporary_files_and_whole_outputs`].
const TERMINATED_INPUTS: usize = 1200;

#[test]
#[ignore = "full tier (kills processes in a loop): cargo test -- --include-ignored"]
fn terminated_batch_leaves_no_temporary_files_and_whole_outputs() {
    if !common::have_tool("qpdf", "terminated_batch")
        || !common::have_tool("kill", "terminated_batch")
    {
        return;
    }
    for signal in ["-TERM", "-INT"] {
        let dir = tempfile::tempdir().unwrap();
        let inp = dir.path().join("in");
        let out = dir.path().join("out");
        // More inputs than two workers' groups hold (GROUP_FILES each), so that a group
        // commits, and its lines are reported, well before the run ends.
        let (lines, inputs) = many_inputs(&inp, TERMINATED_INPUTS);
        let manifest = inp.join("manifest.jsonl");
        std::fs::write(&manifest, lines.join("\n") + "\n").unwrap();
        // The first report line comes after a group commit: the run is under way, with
        // groups staged, when the signal arrives.
        let mut batch = Command::new(assert_cmd::cargo::cargo_bin!("pith"));
        batch
            .args(["batch", "-j", "2", "--manifest"])
            .arg(&manifest);
        batch.arg("--out-dir").arg(&out);
        let (report, o) = signalled_batch(batch, signal);
        let summary = report.last().unwrap();
        assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new(), "{signal}");
        let mut present = 0;
        for (rel, bytes) in &inputs {
            let p = out.join(rel);
            if p.exists() {
                assert_updated(&p, bytes);
                present += 1;
            }
        }
        assert_stopped_summary(summary, present, o.status, signal);
        if summary["interrupted"] == true {
            assert!(summary["skipped"].as_u64().unwrap() > 0);
        }
        let rerun = common::batch(&["--manifest"], &manifest, &out);
        assert_rerun_finishes(rerun, present, TERMINATED_INPUTS as u64, signal);
        eprintln!(
            "terminated_batch {signal}: {present} of {TERMINATED_INPUTS} done before the stop"
        );
    }
}
