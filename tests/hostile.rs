//! Files built to be expensive, through every door: `pith inspect`, `inject`, `inject
//! --stamp`, `strip`, `verify`, `batch --dir` among good files, a tar among good members, and
//! the Python extension (the server's `/verify` is pith-serve's `hostile` tests). The shapes
//! come from [`pith_testkit::shapes`]: a shared annotation listed thousands of times, millions
//! of free xref entries, fields whose kids are the fields, a page tree sharing one node per
//! level, `/Kids`, `/Prev` and object-stream cycles, deep nesting, thousands of updates,
//! outline and name-tree loops, millions of content operators, flate bombs, streams naming
//! thousands of filters (some with 1 MiB predictor rows), an object stream claiming millions
//! of pairs, hundreds of large links and megabytes of text on page 1.
//!
//! Each run has an address-space limit ([`AS_LIMIT_MB`], `ulimit -v`) and must end in a
//! success or a clean refusal: exit 2 and one `pith: …` line naming the file, never a signal
//! (an abort when memory runs out is one), no output file, the input unchanged. Work is
//! counted in CPU seconds read by GNU time, with a bound so generous ([`CPU_GUARD`]) that it
//! only catches a hang; nothing here is a speed target.
//!
//! The quick tier takes four cheap shapes at small sizes and the field fan-out at full size
//! (cheap to refuse); the full tier every shape at the size that hurts, through every door.

use crate::common::{self, SEED};

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use pith_testkit::shapes::{self, Knobs, Shape};
use serde_json::Value;

/// The address-space limit of every run, in MiB.
pub(crate) const AS_LIMIT_MB: u64 = 256;
/// CPU seconds (user + system) past which a run counts as hung. A debug build reading a file
/// within a budget of about a second of release CPU stays far below it.
const CPU_GUARD: f64 = 20.0;
/// Wall-clock seconds after which a run is killed (a hang guard for the test itself, wide
/// enough for a debug build on a machine whose cores other jobs share).
const WALL_KILL: Duration = Duration::from_secs(300);

/// How one run ended.
#[derive(Debug)]
pub(crate) struct Ended {
    /// The exit code, or `None` when a signal ended it.
    pub(crate) code: Option<i32>,
    /// The signal, when one ended it.
    pub(crate) signal: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// User + system CPU seconds.
    pub(crate) cpu: f64,
    /// Peak resident memory, KiB.
    pub(crate) rss_kib: u64,
}

impl Ended {
    /// One line for the table the tests print.
    pub(crate) fn summary(&self) -> String {
        let how = match (self.code, self.signal) {
            (_, Some(s)) => format!("signal {s}"),
            (Some(c), None) => format!("exit {c}"),
            (None, None) => "killed".into(),
        };
        let first = self.stderr.lines().next().unwrap_or("");
        let first: String = first.chars().take(140).collect();
        format!(
            "{how}, {:.2} s CPU, {} MB: {first}",
            self.cpu,
            self.rss_kib >> 10
        )
    }
}

/// Runs `program args` under `ulimit -v` of [`AS_LIMIT_MB`], through GNU time (which reports
/// the CPU time, the peak RSS and the signal that ended it), in `cwd`, with the `PITH_*`
/// environment cleared, the network pointed nowhere and `SOURCE_DATE_EPOCH` pinned.
pub(crate) fn limited(program: &OsStr, args: &[OsString], cwd: &Path) -> Ended {
    let times = tempfile::NamedTempFile::new().unwrap();
    let mut c = Command::new("/usr/bin/time");
    common::run::isolate(&mut c)
        .arg("-o")
        .arg(times.path())
        .args(["-f", "%U %S %M", "sh", "-c"])
        .arg(format!(
            "ulimit -v {}; exec \"$0\" \"$@\"",
            AS_LIMIT_MB * 1024
        ))
        .arg(program)
        .args(args)
        .current_dir(cwd);
    let run = common::run::spawn_within(&mut c, None, WALL_KILL);
    let killed = run.status.is_none();
    let (stdout, stderr) = (run.stdout, run.stderr);
    let report = std::fs::read_to_string(times.path()).unwrap_or_default();
    // GNU time writes "Command terminated by signal N" or "Command exited with non-zero
    // status N" before the format's line.
    let mut signal = report
        .lines()
        .find_map(|l| l.strip_prefix("Command terminated by signal "))
        .and_then(|n| n.trim().parse().ok());
    let code = report
        .lines()
        .find_map(|l| l.strip_prefix("Command exited with non-zero status "))
        .and_then(|n| n.trim().parse().ok())
        .or(if signal.is_none() && !killed {
            Some(0)
        } else {
            None
        });
    if killed {
        signal = Some(9);
    }
    let last: Vec<f64> = report
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    Ended {
        code,
        signal,
        stdout,
        stderr,
        cpu: last.first().unwrap_or(&0.0) + last.get(1).unwrap_or(&0.0),
        rss_kib: last.get(2).copied().unwrap_or(0.0) as u64,
    }
}

pub(crate) fn pith_bin() -> &'static OsStr {
    OsStr::new(assert_cmd::cargo::cargo_bin!("pith"))
}

pub(crate) fn os(s: impl AsRef<OsStr>) -> OsString {
    s.as_ref().to_owned()
}

/// What a door may answer: the exit codes of a success, and whether a refusal (exit 2) is
/// clean. Every problem found is one line of the returned list.
pub(crate) fn judge(
    shape: &str,
    door: &str,
    e: &Ended,
    ok_codes: &[i32],
    named: &str,
) -> Vec<String> {
    let mut bad = Vec::new();
    let say = |what: String| format!("{shape}: {door}: {what} [{}]", e.summary());
    if let Some(s) = e.signal {
        bad.push(say(format!(
            "ended by signal {s} (an abort when memory ran out under {AS_LIMIT_MB} MB, or a hang)"
        )));
        return bad;
    }
    if e.stderr.contains("panicked") || e.stderr.contains("memory allocation") {
        bad.push(say("a panic or an allocation failure".into()));
    }
    if e.cpu > CPU_GUARD {
        bad.push(say(format!("{:.1} s of CPU: a hang", e.cpu)));
    }
    match e.code {
        Some(c) if ok_codes.contains(&c) => {}
        Some(2) => {
            let lines: Vec<&str> = e.stderr.trim_end().lines().collect();
            if lines.len() != 1 || !lines[0].starts_with("pith: ") {
                bad.push(say("a refusal that is not one `pith: …` line".into()));
            } else if !lines[0].contains(named) {
                bad.push(say(format!("a refusal that does not name {named}")));
            }
        }
        other => bad.push(say(format!("exit {other:?}"))),
    }
    bad
}

/// Every single-file door on `shape` (written in `dir`): inspect, inject, inject --stamp,
/// strip and verify, then inspect and verify of the injected file. Prints a line per door;
/// returns the problems.
fn single_file_doors(shape: &Shape, dir: &Path) -> Vec<String> {
    let input = dir.join(format!("{}.pdf", shape.name));
    std::fs::write(&input, &shape.pdf).unwrap();
    let name = input.file_name().unwrap().to_str().unwrap().to_owned();
    let record = common::example("2402.03791v3.record.json");
    let mut bad = Vec::new();
    let inspect = limited(pith_bin(), &[os("inspect"), os(&input)], dir);
    eprintln!("{}: inspect: {}", shape.name, inspect.summary());
    bad.extend(judge(shape.name, "inspect", &inspect, &[0, 1], &name));
    let readable = inspect.code == Some(0) || inspect.code == Some(1);
    let out_dir = dir.join(format!("{}.out", shape.name));
    std::fs::create_dir_all(&out_dir).unwrap();
    for (door, extra) in [
        ("inject", vec![]),
        ("inject --stamp", vec![os("--stamp")]),
        ("strip", vec![]),
    ] {
        let out = out_dir.join(format!("{}.pdf", door.replace(' ', "")));
        let mut args = if door == "strip" {
            vec![os("strip"), os(&input)]
        } else {
            vec![os("inject"), os(&input), os("--number"), os(SEED)]
        };
        args.extend(extra);
        args.extend([os("-o"), os(&out)]);
        let e = limited(pith_bin(), &args, dir);
        eprintln!("{}: {door}: {}", shape.name, e.summary());
        let problems = judge(shape.name, door, &e, &[0], &name);
        let clean = problems.is_empty();
        bad.extend(problems);
        if std::fs::read(&input).unwrap() != shape.pdf {
            bad.push(format!("{}: {door}: the input was modified", shape.name));
            std::fs::write(&input, &shape.pdf).unwrap();
        }
        let left = common::leftovers(&out_dir);
        if !left.is_empty() {
            bad.push(format!(
                "{}: {door}: temporaries left: {left:?}",
                shape.name
            ));
        }
        if !clean {
            continue;
        }
        if e.code == Some(2) {
            if out.exists() {
                bad.push(format!(
                    "{}: {door}: refused, yet wrote {out:?}",
                    shape.name
                ));
            }
            continue;
        }
        // A success: the original bytes, then the update.
        let written = std::fs::read(&out).unwrap_or_default();
        if !written.starts_with(&shape.pdf) {
            bad.push(format!(
                "{}: {door}: the output does not keep the input as its prefix",
                shape.name
            ));
            continue;
        }
        if door != "inject" {
            continue;
        }
        // The injected file reads back (when the original did) and verifies offline.
        let back = limited(pith_bin(), &[os("inspect"), os(&out)], dir);
        eprintln!("{}: inspect of the output: {}", shape.name, back.summary());
        bad.extend(judge(
            shape.name,
            "inspect of the output",
            &back,
            &[0],
            "inject.pdf",
        ));
        if readable && !(back.code == Some(0) && back.stdout.contains(SEED)) {
            bad.push(format!(
                "{}: inspect of the output: the number is not read back: {}",
                shape.name,
                back.summary()
            ));
        }
        let v = limited(
            pith_bin(),
            &[os("verify"), os(&out), os("--record"), os(&record)],
            dir,
        );
        eprintln!("{}: verify of the output: {}", shape.name, v.summary());
        bad.extend(judge(
            shape.name,
            "verify of the output",
            &v,
            &[0],
            "inject.pdf",
        ));
    }
    // In place, on a copy: a refusal leaves the copy as it was and no temporary beside it.
    let place = out_dir.join("in-place");
    std::fs::create_dir_all(&place).unwrap();
    let copy = place.join(&name);
    std::fs::write(&copy, &shape.pdf).unwrap();
    let e = limited(
        pith_bin(),
        &[
            os("inject"),
            os(&copy),
            os("--number"),
            os(SEED),
            os("--in-place"),
        ],
        dir,
    );
    eprintln!("{}: inject --in-place: {}", shape.name, e.summary());
    bad.extend(judge(shape.name, "inject --in-place", &e, &[0], &name));
    let after = std::fs::read(&copy).unwrap_or_default();
    if e.code == Some(2) && after != shape.pdf {
        bad.push(format!(
            "{}: inject --in-place: refused, yet the file changed",
            shape.name
        ));
    }
    if e.code == Some(0) && !after.starts_with(&shape.pdf) {
        bad.push(format!(
            "{}: inject --in-place: the file does not keep its bytes as its prefix",
            shape.name
        ));
    }
    let left = common::leftovers(&place);
    if !left.is_empty() {
        bad.push(format!(
            "{}: inject --in-place: temporaries left: {left:?}",
            shape.name
        ));
    }
    // Against the record the seed number names, so that no resolver is asked: a shape that
    // carries the number verifies (exit 0), one without says so (exit 1).
    let v = limited(
        pith_bin(),
        &[os("verify"), os(&input), os("--record"), os(&record)],
        dir,
    );
    eprintln!("{}: verify: {}", shape.name, v.summary());
    bad.extend(judge(shape.name, "verify", &v, &[0, 1], &name));
    bad
}

/// Panics with every problem, one a line.
#[track_caller]
pub(crate) fn assert_none(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

pub(crate) fn have_time(test: &str) -> bool {
    common::have_tool("/usr/bin/time", test)
}

fn pick(k: &Knobs, names: &[&str]) -> Vec<Shape> {
    shapes::all(k)
        .into_iter()
        .filter(|s| names.contains(&s.name))
        .collect()
}

#[test]
fn cycles_through_the_single_file_doors() {
    if !have_time("cycles_through_the_single_file_doors") {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in pick(
        &Knobs::small(),
        &["kids-cycle", "objstm-loop", "outline-loop", "prev-loop"],
    ) {
        bad.extend(single_file_doors(&s, dir.path()));
    }
    assert_none(&bad);
}

/// 60,000 fields whose kids are the fields (900 KB): a reader that expands them as a tree
/// runs out of memory at once, one that walks them once is done at once.
#[test]
fn fields_that_are_their_own_kids_through_the_single_file_doors() {
    if !have_time("fields_that_are_their_own_kids_through_the_single_file_doors") {
        return;
    }
    let dir = common::tmpdir();
    let k = Knobs::full();
    let s = Shape {
        name: "form-fanout",
        what: "",
        pdf: shapes::form_fanout(k.form_fields),
    };
    assert_none(&single_file_doors(&s, dir.path()));
}

/// The shapes a reader's decoders and parser meet, at full size (each is refused before it
/// costs anything): 100,000 `/AHx` filters, 60,000 empty Flate stages, a thousand Flate stages
/// of 1 MiB predictor rows, an object stream claiming 67 million pairs, 100,000 levels of
/// nesting. Each door answers in one line under the address-space limit, within a few MB.
#[test]
fn decoder_chains_and_nesting_through_the_single_file_doors() {
    if !have_time("decoder_chains_and_nesting_through_the_single_file_doors") {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    let chains = ["hex-chain", "flate-chain", "predictor-chain"];
    for s in pick(
        &Knobs::full(),
        &[&chains[..], &["objstm-header", "deep-nesting"]].concat(),
    ) {
        bad.extend(single_file_doors(&s, dir.path()));
    }
    assert_none(&bad);
}

/// Shapes that used to end a batch with an abort, one among good files in a folder and in a
/// tar: every good file is written, every file has its line, the summary counts them all,
/// and no temporary is left.
#[test]
fn a_filter_chain_among_good_files_and_members() {
    let test = "a_filter_chain_among_good_files_and_members";
    if !have_time(test) || !common::have_tool("tar", test) {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in pick(&Knobs::full(), &["hex-chain", "predictor-chain"]) {
        bad.extend(batch_among_good_files(&s, dir.path()));
        bad.extend(tar_among_good_members(&s, dir.path()));
    }
    assert_none(&bad);
}

/// The memory goal of one file at the CLI's doors: page 1 with 200 large link annotations
/// (12 MB) and a 16 MB content stream each cost at most 128 MB (peak RSS, counted by GNU
/// time), at every door.
#[test]
#[ignore = "full tier (12 and 16 MB files through five doors on the debug build)"]
fn many_links_and_long_content_stay_within_128_mb() {
    if !have_time("many_links_and_long_content_stay_within_128_mb") {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in pick(&Knobs::full(), &["many-links", "text-content"]) {
        let input = dir.path().join(format!("{}.pdf", s.name));
        std::fs::write(&input, &s.pdf).unwrap();
        let out = dir.path().join(format!("{}.out.pdf", s.name));
        let seed = [os("--number"), os(SEED), os("-o"), os(&out)];
        let doors: [(&str, Vec<OsString>); 5] = [
            ("inspect", vec![os("inspect"), os(&input)]),
            (
                "inject",
                [vec![os("inject"), os(&input)], seed.to_vec()].concat(),
            ),
            (
                "inject --stamp",
                [vec![os("inject"), os(&input), os("--stamp")], seed.to_vec()].concat(),
            ),
            ("strip", vec![os("strip"), os(&input), os("-o"), os(&out)]),
            // Offline, the check reads the whole file and ends at the record it cannot ask
            // for: its one line names the record's URL, not the file.
            ("verify", vec![os("verify"), os(&input), os("--offline")]),
        ];
        for (door, args) in doors {
            let _ = std::fs::remove_file(&out);
            let e = limited(pith_bin(), &args, dir.path());
            eprintln!("{}: {door}: {}", s.name, e.summary());
            let named = if door == "verify" { "pith:" } else { s.name };
            bad.extend(judge(s.name, door, &e, &[0, 1], named));
            if e.rss_kib > 128 << 10 {
                bad.push(format!(
                    "{}: {door}: {} MB at its peak, over 128 MB",
                    s.name,
                    e.rss_kib >> 10
                ));
            }
        }
    }
    assert_none(&bad);
}

#[test]
#[ignore = "full tier (every expensive shape at full size through five doors, minutes)"]
fn every_shape_through_the_single_file_doors() {
    if !have_time("every_shape_through_the_single_file_doors") {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in shapes::all(&Knobs::full()) {
        bad.extend(single_file_doors(&s, dir.path()));
    }
    assert_none(&bad);
}

/// The report's lines (the last is the summary).
fn report_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The good files of a run: copies of the fixtures every reader opens.
const GOOD: [&str; 4] = ["minimal.pdf", "minimal.pdf", "minimal.pdf", "minimal.pdf"];

/// `pith batch --dir` over four good files and `shape` (sidecars all), under the limit: the
/// run goes on past the shape, every file has its line in the report, the good ones are
/// injected and written. Returns the problems.
fn batch_among_good_files(shape: &Shape, dir: &Path) -> Vec<String> {
    let run = dir.join(shape.name);
    let (src, out) = (run.join("in"), run.join("out"));
    std::fs::create_dir_all(&src).unwrap();
    let mut names = Vec::new();
    for (i, g) in GOOD.iter().enumerate() {
        // Good files before and after the bad one (the walk is in name order).
        let n = format!("{}-good-{i}.pdf", if i < 2 { "a" } else { "z" });
        common::copy_writable(&common::fixture(g), &src.join(&n));
        names.push(n);
    }
    let bad_name = format!("m-{}.pdf", shape.name);
    std::fs::write(src.join(&bad_name), &shape.pdf).unwrap();
    for n in names.iter().chain([&bad_name]) {
        std::fs::write(src.join(n).with_extension("pith"), format!("{SEED}\n")).unwrap();
    }
    let report = run.join("report.jsonl");
    let e = limited(
        pith_bin(),
        &[
            os("batch"),
            os("--dir"),
            os(&src),
            os("--out-dir"),
            os(&out),
            os("--report"),
            os(&report),
        ],
        &run,
    );
    eprintln!("{}: batch --dir: {}", shape.name, e.summary());
    let mut bad = Vec::new();
    let say = |what: &str| format!("{}: batch --dir: {what} [{}]", shape.name, e.summary());
    if let Some(s) = e.signal {
        bad.push(say(&format!("ended by signal {s}: the run did not go on")));
    } else if !matches!(e.code, Some(0 | 2)) {
        bad.push(say("exit code"));
    }
    if e.cpu > CPU_GUARD {
        bad.push(say("a hang"));
    }
    let lines = report_lines(&std::fs::read_to_string(&report).unwrap_or_default());
    let line = |n: &str| {
        lines
            .iter()
            .find(|l| l["pdf"].as_str().is_some_and(|p| p.ends_with(n)))
    };
    for n in &names {
        match line(n) {
            None => bad.push(say(&format!("no report line for the good file {n}"))),
            Some(l) if l["status"] != "injected" => {
                bad.push(say(&format!("the good file {n} was not injected: {l}")))
            }
            Some(_) => {
                let o = std::fs::read(out.join(n)).unwrap_or_default();
                let i = std::fs::read(src.join(n)).unwrap();
                if !(o.len() > i.len() && o.starts_with(&i)) {
                    bad.push(say(&format!("the good file {n} has no output")));
                }
            }
        }
    }
    match line(&bad_name) {
        None => bad.push(say("no report line for the expensive file")),
        Some(l) => {
            let status = l["status"].as_str().unwrap_or("");
            if !matches!(status, "injected" | "failed" | "refused") {
                bad.push(say(&format!("its line: {l}")));
            }
            if status != "injected" && out.join(&bad_name).exists() {
                bad.push(say("a refused file has an output"));
            }
        }
    }
    if std::fs::read(src.join(&bad_name)).unwrap() != shape.pdf {
        bad.push(say("the input was modified"));
    }
    let total = lines.last().and_then(|l| l["total"].as_u64());
    if total != Some(names.len() as u64 + 1) {
        bad.push(say(&format!(
            "no summary of every file: {:?}",
            lines.last()
        )));
    }
    for d in [&src, &out] {
        if d.exists() && !common::leftovers(d).is_empty() {
            bad.push(say(&format!(
                "temporaries left: {:?}",
                common::leftovers(d)
            )));
        }
    }
    bad
}

#[test]
#[ignore = "full tier (a batch of five files per expensive shape, minutes)"]
fn every_shape_in_a_batch_among_good_files() {
    if !have_time("every_shape_in_a_batch_among_good_files") {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in shapes::all(&Knobs::full()) {
        bad.extend(batch_among_good_files(&s, dir.path()));
    }
    assert_none(&bad);
}

/// One file that shares an annotation 4,096 times among good ones must not end the run, and
/// every line written is kept.
#[test]
#[ignore = "full tier (the 83 KB shared-annotation file among good ones)"]
fn one_expensive_file_does_not_end_a_batch() {
    if !have_time("one_expensive_file_does_not_end_a_batch") {
        return;
    }
    let dir = common::tmpdir();
    let k = Knobs::full();
    let s = Shape {
        name: "shared-annot",
        what: "",
        pdf: shapes::shared_annot(k.annot_refs, k.annot_bytes),
    };
    assert_none(&batch_among_good_files(&s, dir.path()));
}

#[test]
fn a_cycle_in_a_batch_among_good_files() {
    if !have_time("a_cycle_in_a_batch_among_good_files") {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in pick(&Knobs::small(), &["kids-cycle"]) {
        bad.extend(batch_among_good_files(&s, dir.path()));
    }
    assert_none(&bad);
}

/// Every `*.pdf` entry of a folder has its report line: a link to a file of the folder is
/// followed and written; links outside it, to nothing and in a loop are refused, each with
/// why, and counted in the summary.
#[cfg(unix)]
#[test]
fn every_pdf_link_in_a_folder_has_its_report_line() {
    use std::os::unix::fs::symlink;
    let dir = common::tmpdir();
    let (src, out) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::create_dir_all(&src).unwrap();
    common::copy_writable(&common::fixture("minimal.pdf"), &src.join("a.pdf"));
    let away = dir.path().join("away.pdf");
    common::copy_writable(&common::fixture("minimal.pdf"), &away);
    symlink("a.pdf", src.join("b.pdf")).unwrap();
    symlink(&away, src.join("c.pdf")).unwrap();
    symlink(src.join("none.pdf"), src.join("d.pdf")).unwrap();
    symlink(src.join("e.pdf"), src.join("e.pdf")).unwrap();
    for n in ["a", "b", "c", "d", "e"] {
        std::fs::write(src.join(format!("{n}.pith")), format!("{SEED}\n")).unwrap();
    }
    let report = dir.path().join("report.jsonl");
    let r = common::run_pith(&[
        "batch",
        "--dir",
        src.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let lines = report_lines(&std::fs::read_to_string(&report).unwrap());
    let status = |n: &str| {
        lines
            .iter()
            .find(|l| l["pdf"].as_str().is_some_and(|p| p.ends_with(n)))
            .map(|l| (l["status"].clone(), l["reason"].clone()))
    };
    for n in ["a.pdf", "b.pdf"] {
        assert_eq!(
            status(n).map(|s| s.0),
            Some("injected".into()),
            "{n}: {lines:?}"
        );
        let o = std::fs::read(out.join(n)).unwrap();
        assert!(o.starts_with(&std::fs::read(src.join("a.pdf")).unwrap()));
    }
    for (n, why) in [
        ("c.pdf", "outside the folder"),
        ("d.pdf", "does not exist"),
        ("e.pdf", "loops"),
    ] {
        let (st, reason) = status(n).unwrap_or_else(|| panic!("no line for {n}: {lines:?}"));
        assert_eq!(st, "refused", "{n}");
        assert!(reason.as_str().unwrap().contains(why), "{n}: {reason}");
        assert!(!out.join(n).exists(), "{n}");
    }
    assert_eq!(lines.last().unwrap()["total"], 5, "{}", r.stderr);
    let fixture = std::fs::read(common::fixture("minimal.pdf")).unwrap();
    assert_eq!(std::fs::read(&away).unwrap(), fixture, "the file outside");
}

/// New-style arXiv ids of the test metadata with their latest version.
fn arxiv_ids() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(common::root().join("tests/data/arxiv/vectors.snapshot.jsonl"))
            .unwrap();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            let id = v["id"].as_str()?.to_owned();
            let ver = v["versions"].as_array()?.last()?["version"]
                .as_str()?
                .to_owned();
            (!id.contains('/')).then_some((id, ver))
        })
        .collect()
}

/// A tar of good members and `shape` (each named for an arXiv id of the test metadata), run
/// through `pith batch --tar` under the limit: every member has its line, the good ones are
/// injected, the output tar lists every member.
fn tar_among_good_members(shape: &Shape, dir: &Path) -> Vec<String> {
    let run = dir.join(format!("tar-{}", shape.name));
    let src = run.join("src");
    let ids = arxiv_ids();
    assert!(ids.len() >= 3, "the test metadata has new-style ids");
    let mut members = Vec::new();
    for (i, (id, ver)) in ids.iter().take(3).enumerate() {
        let name = format!("{}/{id}{ver}.pdf", &id[..4]);
        let p = src.join(&name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        if i == 1 {
            std::fs::write(&p, &shape.pdf).unwrap();
        } else {
            std::fs::copy(common::fixture("minimal.pdf"), &p).unwrap();
        }
        members.push(name);
    }
    let tar = run.join("in.tar");
    let st = Command::new("tar")
        .args(["--format=gnu", "-cf"])
        .arg(&tar)
        .arg("-C")
        .arg(&src)
        .args(&members)
        .status()
        .unwrap();
    assert!(st.success());
    let meta = common::root().join("tests/data/arxiv/vectors.snapshot.jsonl");
    let (out, report) = (run.join("out.tar"), run.join("report.jsonl"));
    let e = limited(
        pith_bin(),
        &[
            os("batch"),
            os("--tar"),
            os(&tar),
            os("--out-tar"),
            os(&out),
            os("--arxiv-metadata"),
            os(&meta),
            os("--report"),
            os(&report),
        ],
        &run,
    );
    eprintln!("{}: batch --tar: {}", shape.name, e.summary());
    let mut bad = Vec::new();
    let say = |what: &str| format!("{}: batch --tar: {what} [{}]", shape.name, e.summary());
    if let Some(s) = e.signal {
        bad.push(say(&format!("ended by signal {s}")));
        return bad;
    }
    if !matches!(e.code, Some(0 | 1)) {
        bad.push(say("exit code (0, or 1 when a member got no number)"));
    }
    if e.cpu > CPU_GUARD {
        bad.push(say("a hang"));
    }
    let lines = report_lines(&std::fs::read_to_string(&report).unwrap_or_default());
    for (i, m) in members.iter().enumerate() {
        match lines.iter().find(|l| l["pdf"] == m.as_str()) {
            None => bad.push(say(&format!("no report line for {m}"))),
            Some(l) if i != 1 && l["status"] != "injected" => {
                bad.push(say(&format!("the good member {m} was not injected: {l}")))
            }
            Some(_) => {}
        }
    }
    let listed = Command::new("tar").arg("-tf").arg(&out).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    if listed.lines().collect::<Vec<_>>() != members {
        bad.push(say(&format!("the output tar lists {listed:?}")));
    }
    bad
}

#[test]
#[ignore = "full tier (a tar per expensive shape, minutes)"]
fn every_shape_in_a_tar_among_good_members() {
    if !have_time("every_shape_in_a_tar_among_good_members")
        || !common::have_tool("tar", "every_shape_in_a_tar_among_good_members")
    {
        return;
    }
    let dir = common::tmpdir();
    let mut bad = Vec::new();
    for s in shapes::all(&Knobs::full()) {
        bad.extend(tar_among_good_members(&s, dir.path()));
    }
    assert_none(&bad);
}

/// The Python extension's doors on each shape, in one interpreter per shape: each call
/// returns or raises a `pith_number` error; anything else (another exception, a signal) is
/// a failure.
const PY_DOORS: &str = r#"
import sys, pith_number as pn
path, out, record = sys.argv[1], sys.argv[2], sys.argv[3]
seed = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
calls = [
    ("inspect", lambda: pn.inspect(path)),
    ("inject", lambda: pn.inject(path, seed, out + ".inject.pdf")),
    ("inject stamp", lambda: pn.inject(path, seed, out + ".stamp.pdf", stamp=True)),
    ("strip", lambda: pn.strip(path, out + ".strip.pdf")),
    ("verify_pdf", lambda: pn.verify_pdf(path, record=open(record).read(), offline=True)),
]
for name, call in calls:
    try:
        call()
        print(name, "ok", flush=True)
    except pn.PithError as e:
        print(name, "refused", type(e).__name__, str(e).splitlines()[0] if str(e) else "", flush=True)
    except Exception as e:
        print(name, "UNEXPECTED", type(e).__name__, e, flush=True)
        sys.exit(3)
"#;

#[test]
#[ignore = "full tier (the Python extension on every expensive shape; needs the built wheel)"]
fn every_shape_through_python() {
    let test = "every_shape_through_python";
    if !have_time(test) || !common::have_python_module("pith_number", test) {
        return;
    }
    let dir = common::tmpdir();
    let record = common::example("2402.03791v3.record.json");
    let mut bad = Vec::new();
    for s in shapes::all(&Knobs::full()) {
        let input = dir.path().join(format!("{}.pdf", s.name));
        std::fs::write(&input, &s.pdf).unwrap();
        let out = dir.path().join(format!("{}.py", s.name));
        let e = limited(
            OsStr::new("python3"),
            &[os("-c"), os(PY_DOORS), os(&input), os(&out), os(&record)],
            dir.path(),
        );
        eprintln!("{}: python: {} | {}", s.name, e.summary(), e.stdout.trim());
        if let Some(sig) = e.signal {
            bad.push(format!(
                "{}: python: ended by signal {sig}: {}",
                s.name,
                e.stdout.trim()
            ));
        } else if e.code != Some(0) {
            bad.push(format!("{}: python: {}{}", s.name, e.stdout, e.stderr));
        }
        // Five calls in one interpreter: five runs' worth.
        if e.cpu > 5.0 * CPU_GUARD {
            bad.push(format!("{}: python: {:.1} s of CPU", s.name, e.cpu));
        }
        for l in e.stdout.lines().filter(|l| l.contains(" refused ")) {
            let file = match l.split(" refused").next().unwrap() {
                "inject" => "inject",
                "inject stamp" => "stamp",
                "strip" => "strip",
                _ => continue,
            };
            let o = PathBuf::from(format!("{}.{file}.pdf", out.display()));
            if o.exists() {
                bad.push(format!("{}: python: {l}, yet {o:?} was written", s.name));
            }
        }
        if std::fs::read(&input).unwrap() != s.pdf {
            bad.push(format!("{}: python: the input was modified", s.name));
        }
    }
    assert_none(&bad);
}

/// What the fuzz targets found, kept in `fuzz/seeds/TARGET/`: each still runs the way its
/// target demands. `inspect`: a file `pith inspect --deep` reads (the full xref check), plain
/// `pith inspect` (a sample of it) reads too, and finds the same number.
#[test]
fn what_the_fuzzers_found_stays_fixed() {
    let dir = common::root().join("fuzz/seeds/inspect");
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        let file = p.to_str().unwrap();
        let deep = common::run_pith(&["inspect", "--deep", file]);
        let sampled = common::run_pith(&["inspect", file]);
        if matches!(deep.code, 0 | 1)
            && (sampled.code, &sampled.stdout) != (deep.code, &deep.stdout)
        {
            bad.push(format!(
                "{file}: inspect --deep exits {}, inspect exits {}: {}",
                deep.code,
                sampled.code,
                sampled.stderr.trim()
            ));
        }
    }
    assert_none(&bad);
}
