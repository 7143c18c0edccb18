//! A run loses nothing: `pith batch` and tar reports have a line per file as each finishes,
//! even when the run is killed; a file that costs too much, or too long, is a line like any
//! other refusal and the run goes on; an interrupted tar run ends its report with its totals
//! and `"interrupted": true`, as a directory run does. Outputs are checked with qpdf.

use crate::common;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{copy_writable, fixture, have_tool, pith, root, wait, SEED};
use serde_json::Value;

fn lines_of(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("report line {l:?}: {e}")))
        .collect()
}

fn qpdf_ok(p: &Path) -> bool {
    Command::new("qpdf")
        .arg("--check")
        .arg(p)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// 83 KB: page 1 lists 4,096 references to one 60 KB link annotation. Built to multiply work:
/// read naively, every reference costs the whole annotation again.
fn shared_annotation_pdf() -> Vec<u8> {
    let refs = "5 0 R ".repeat(4096);
    let quads = "0 0 1 1 ".repeat(60_000 / 8);
    let objs = [
        ("<< /Type /Catalog /Pages 2 0 R >>".to_owned(), None),
        ("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(), None),
        (
            format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots [{refs}] >>"),
            None,
        ),
        ("<< /Length 0 >>".to_owned(), Some(Vec::new())),
        (
            format!("<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (https://example.org/) >> /QuadPoints [{quads}] >>"),
            None,
        ),
    ];
    common::pdfgen::classic(&objs)
}

/// Ten good PDFs and the hostile one, under a memory limit the old reader went past: every
/// file has its line, the hostile one a refusal with its kind, the others are numbered.
#[test]
fn a_hostile_file_is_one_line_and_the_run_goes_on() {
    if !have_tool("qpdf", "a_hostile_file_is_one_line") || !have_tool("sh", "a_hostile_file") {
        return;
    }
    let d = common::tmpdir();
    let inp = d.path().join("in");
    for i in 0..10 {
        let f = inp.join(format!("good{i}.pdf"));
        copy_writable(&fixture("minimal.pdf"), &f);
        std::fs::write(f.with_extension("pith"), SEED).unwrap();
    }
    let bad = inp.join("hostile.pdf");
    let bytes = shared_annotation_pdf();
    assert!(bytes.len() < 100_000, "{} bytes", bytes.len());
    std::fs::write(&bad, &bytes).unwrap();
    std::fs::write(bad.with_extension("pith"), SEED).unwrap();
    let out = d.path().join("out");
    let report = d.path().join("r.jsonl");
    // 1 GB of address space: the old reader aborted on this file at 2.2 GB.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000; exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_pith"))
        .args(["batch", "-j", "2", "--dir"])
        .arg(&inp)
        .arg("--out-dir")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&report).unwrap();
    let lines = lines_of(&text);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        lines.len(),
        12,
        "a line per file and the summary: {text}\n{err}"
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["total"], 11, "{summary}");
    assert_eq!(summary["interrupted"], false, "{summary}");
    for l in &lines[..11] {
        let pdf = l["pdf"].as_str().unwrap();
        if pdf.ends_with("hostile.pdf") {
            // Numbered within the budget, or refused with the kind of a refusal: never an
            // abort, never a partial output.
            match l["status"].as_str().unwrap() {
                "injected" => assert!(qpdf_ok(&out.join("hostile.pdf"))),
                "refused" | "failed" => {
                    assert!(l["refusal"].is_string(), "{l}");
                    assert!(!out.join("hostile.pdf").exists());
                }
                other => panic!("{other}: {l}"),
            }
        } else {
            assert_eq!(l["status"], "injected", "{l}");
            assert!(qpdf_ok(&out.join(Path::new(pdf).file_name().unwrap())));
        }
    }
    assert!(summary["injected"].as_u64().unwrap() >= 10, "{summary}");
}

/// Killed with SIGKILL mid-run, the report holds a whole line for every file it names, and
/// each of those files is done: nothing the report says was lost, no line is torn.
#[test]
fn a_killed_run_leaves_every_finished_line() {
    if !have_tool("qpdf", "a_killed_run_leaves_every_finished_line") {
        return;
    }
    let d = common::tmpdir();
    let inp = d.path().join("in");
    let n = 400;
    for i in 0..n {
        let f = inp.join(format!("d{}/f{i}.pdf", i % 7));
        copy_writable(&fixture("qpdf-object-stream.pdf"), &f);
        std::fs::write(f.with_extension("pith"), SEED).unwrap();
    }
    let out = d.path().join("out");
    let report = d.path().join("r.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["batch", "-j", "1", "--dir"])
        .arg(&inp)
        .arg("--out-dir")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Three lines (a few group commits' worth of work, far less than a buffer's): the lines
    // must be on disk as they are reported.
    wait::until("three report lines", || {
        let have = std::fs::read_to_string(&report).unwrap_or_default();
        have.lines().count() >= 3 || child.try_wait().unwrap().is_some()
    });
    let _ = child.kill();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.ends_with('\n'), "a torn last line: {text:?}");
    let lines = lines_of(&text);
    assert!(lines.len() >= 3, "{text}");
    for l in lines.iter().filter(|l| l.get("summary").is_none()) {
        assert_eq!(l["status"], "injected", "{l}");
        let o = PathBuf::from(l["out"].as_str().unwrap());
        assert!(
            qpdf_ok(&o),
            "{} reported injected but not whole",
            o.display()
        );
    }
}

/// A bound no file can meet: every file is its own `failed` line of kind `over_time`, nothing
/// is written for any, and the run reports them all; `0` is no bound.
#[test]
fn a_file_past_its_time_bound_is_its_own_line() {
    let d = common::tmpdir();
    let inp = d.path().join("in");
    for i in 0..3 {
        let f = inp.join(format!("f{i}.pdf"));
        copy_writable(&fixture("minimal.pdf"), &f);
        std::fs::write(f.with_extension("pith"), SEED).unwrap();
    }
    let out = d.path().join("out");
    let run = |bound: &str| {
        let o = pith()
            .args(["batch", "--file-timeout", bound, "--dir"])
            .arg(&inp)
            .arg("--out-dir")
            .arg(&out)
            .output()
            .unwrap();
        (
            o.status.code(),
            lines_of(&String::from_utf8_lossy(&o.stdout)),
        )
    };
    let (code, lines) = run("0.000000001");
    assert_eq!(code, Some(2), "{lines:?}");
    assert_eq!(lines.len(), 4);
    for l in &lines[..3] {
        assert_eq!(
            (&l["status"], &l["refusal"]),
            (&"failed".into(), &"over_time".into()),
            "{l}"
        );
        assert!(l["reason"].as_str().unwrap().contains("time"), "{l}");
    }
    assert_eq!(lines[3]["failed"], 3);
    assert!(!out.join("f0.pdf").exists());
    let (code, lines) = run("0");
    assert_eq!(code, Some(0), "{lines:?}");
    assert_eq!(lines[3]["injected"], 3);
}

/// One file alone has the batch's deadline too: `inject` and `strip` take `--file-timeout`
/// (the same default), refuse a file past it with the batch's kind and write nothing.
#[test]
fn inject_and_strip_keep_the_file_deadline() {
    let d = common::tmpdir();
    let out = d.path().join("o.pdf");
    let minimal = fixture("minimal.pdf");
    let numbered = d.path().join("numbered.pdf");
    let o = pith()
        .args(["inject", "--number", SEED, "-o"])
        .arg(&numbered)
        .arg(&minimal)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    for (cmd, input) in [("inject", &minimal), ("strip", &numbered)] {
        let run = |bound: &str| {
            let mut c = pith();
            c.args([cmd, "--file-timeout", bound, "-o"])
                .arg(&out)
                .arg(input);
            if cmd == "inject" {
                c.args(["--number", SEED]);
            }
            c.output().unwrap()
        };
        let o = run("0.000000001");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.starts_with("pith: ") && err.contains("time"),
            "{cmd}: {err}"
        );
        assert!(!out.exists(), "{cmd}: written past its deadline");
        let o = run("0");
        assert_eq!(o.status.code(), Some(0), "{cmd}: {o:?}");
        std::fs::remove_file(&out).unwrap();
    }
}

/// `--tar -` fed member by member from a pipe: after two members' lines, Ctrl-C. The report
/// ends with the totals of what was reported and `"interrupted": true`, as a directory run's
/// report does; no output tar is written; the exit status is 2.
#[test]
fn an_interrupted_tar_run_ends_its_report_with_its_totals() {
    if !have_tool("tar", "an_interrupted_tar_run") || !have_tool("kill", "an_interrupted_tar_run") {
        return;
    }
    let d = common::tmpdir();
    let d = d.path();
    let pdf = std::fs::read(fixture("minimal.pdf")).unwrap();
    let names: Vec<String> = (0..6).map(|i| format!("2402/2402.0000{i}v1.pdf")).collect();
    let files: Vec<(&str, Vec<u8>)> = names.iter().map(|n| (n.as_str(), pdf.clone())).collect();
    let tar = d.join("in.tar");
    crate::tar::make_tar(d, &tar, "gnu", &files);
    let bytes = std::fs::read(&tar).unwrap();
    // Each member: a header block and its data, padded (GNU tar writes no entry for the
    // folder of members named with it).
    let member = 512 + pdf.len().div_ceil(512) * 512;
    let meta = d.join("meta.jsonl");
    std::fs::copy(
        root().join("tests/data/arxiv/vectors.snapshot.jsonl"),
        &meta,
    )
    .unwrap();
    let report = d.join("r.jsonl");
    let out = d.join("out.tar");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["batch", "--tar", "-", "--out-tar"])
        .arg(&out)
        .arg("--arxiv-metadata")
        .arg(&meta)
        .arg("--report")
        .arg(&report)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let first = (2 * member).min(bytes.len());
    stdin.write_all(&bytes[..first]).unwrap();
    stdin.flush().unwrap();
    wait::lines_of(&report, "a member's report line", |t| {
        t.lines().count() >= 1
    });
    // The end of the input only once the handler has run: the run is then interrupted,
    // whichever it sees first.
    wait::interrupt_handled(child.id());
    drop(stdin);
    let mut err = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .lines()
        .for_each(|l| err.push_str(&(l.unwrap() + "\n")));
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let lines = lines_of(&std::fs::read_to_string(&report).unwrap());
    let last = lines.last().unwrap();
    assert_eq!(last["summary"], "summary", "{lines:?}");
    assert_eq!(last["interrupted"], true, "{last}");
    let members = lines.len() - 1;
    assert!((1..=2).contains(&members), "{lines:?}");
    assert_eq!(last["total"].as_u64(), Some(members as u64), "{last}");
    assert!(!out.exists(), "no output tar after an interruption");
}
