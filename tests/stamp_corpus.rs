//! `pith stamp` over the shared corpus of real PDFs, every output checked with tools we did not
//! write.

use crate::common;

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::common::tmpdir;
use crate::stamp::{qpdf_rank, stamp, tool, A, A_SHORT};

#[derive(Default)]
struct Tally {
    stamped: AtomicUsize,
    /// Stamped files whose page 1 content makes poppler report syntax errors.
    broken_content: AtomicUsize,
    unchanged: AtomicUsize,
    refused: Mutex<std::collections::BTreeMap<String, usize>>,
    failures: Mutex<Vec<String>>,
}

fn reason(stderr: &str) -> String {
    let table = [
        "encrypted",
        "certified",
        "signed pdf",
        "damaged",
        "not a pdf",
        "xmp",
        "unsupported",
    ]
    .map(|k| (k, k));
    common::refusal_reason(&stderr.to_lowercase(), &table)
}

/// Every sampled corpus file goes through `pith inject --stamp`: stamped files keep qpdf
/// --check no worse and show the stamp once in pdftotext; refusals are one line. All files
/// with PITH_CORPUS_FULL=1, else the small folders and every fifth file of the large ones.
#[test]
#[ignore = "full tier (the shared corpus): cargo test -- --include-ignored"]
fn corpus() {
    let Some(dir) = common::corpus("stamp corpus") else {
        return;
    };
    if !(common::have_tool("qpdf", "stamp corpus")
        & common::have_tool("pdftotext", "stamp corpus")
        & common::have_tool("pdffonts", "stamp corpus"))
    {
        return;
    }
    let full = std::env::var("PITH_CORPUS_FULL").is_ok_and(|v| v == "1");
    let files = common::pdfs_under(&dir);
    let files: Vec<_> = files
        .into_iter()
        .enumerate()
        .filter(|(i, p)| {
            let big = ["qpdf", "pdfium", "pdfa"]
                .iter()
                .any(|b| p.strip_prefix(&dir).is_ok_and(|r| r.starts_with(b)));
            full || !big || i % 5 == 0
        })
        .map(|(_, p)| p)
        .collect();
    let started = std::time::Instant::now();
    let out_dir = tmpdir();
    let tally = Tally::default();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(input) = files.get(i) else { break };
                let name = common::corpus_name(&dir, input);
                let out = out_dir.path().join(format!("{i}.pdf"));
                let (code, stdout, stderr) = stamp(input, A, &out, &[]);
                let fail = |m: String| tally.failures.lock().unwrap().push(format!("{name}: {m}"));
                match code {
                    0 if stdout.contains("unchanged") => {
                        tally.unchanged.fetch_add(1, Ordering::SeqCst);
                    }
                    0 => {
                        tally.stamped.fetch_add(1, Ordering::SeqCst);
                        if qpdf_rank(&out) > qpdf_rank(input) {
                            fail("qpdf --check got worse".into());
                        }
                        // poppler stops drawing a page at a fatal error in its content, so
                        // on pages whose own content is broken the stamp (drawn last) is not
                        // reached: those are counted, not checked.
                        let o = Command::new("timeout")
                            .args(["60", "pdftotext", "-f", "1", "-l", "1"])
                            .arg(input)
                            .arg("-")
                            .output()
                            .unwrap();
                        let before = String::from_utf8_lossy(&o.stdout).into_owned();
                        let broken = String::from_utf8_lossy(&o.stderr).contains("Syntax Error");
                        if broken {
                            tally.broken_content.fetch_add(1, Ordering::SeqCst);
                        }
                        let ok_in = o.status.success() && !broken;
                        let (ok, after) = tool(
                            "pdftotext",
                            &["-f", "1", "-l", "1", out.to_str().unwrap(), "-"],
                        );
                        if ok_in && !ok {
                            fail("pdftotext fails after stamping".into());
                        } else if ok_in
                            && after.matches(A_SHORT).count() != before.matches(A_SHORT).count() + 1
                        {
                            fail(format!(
                                "pdftotext finds the stamp {} times",
                                after.matches(A_SHORT).count()
                            ));
                        }
                        let (_, fonts) =
                            tool("pdffonts", &["-f", "1", "-l", "1", out.to_str().unwrap()]);
                        if ok_in
                            && !fonts.lines().any(|l| {
                                l.contains("PITHST+DejaVuSans")
                                    && l.split_whitespace().rev().nth(4) == Some("yes")
                            })
                        {
                            fail(format!("stamp font not embedded: {fonts}"));
                        }
                    }
                    2 => {
                        if stderr.lines().count() != 1 {
                            fail(format!("refusal is not one line: {stderr}"));
                        }
                        if out.exists() {
                            fail("refused but an output exists".into());
                        }
                        common::count_in(&tally.refused, reason(&stderr));
                    }
                    c => fail(format!("exit {c}: {stderr}")),
                }
                let _ = std::fs::remove_file(&out);
            });
        }
    });
    let failures = tally.failures.into_inner().unwrap();
    eprintln!(
        "stamp corpus ({:.0?}): {} files{}, {} stamped ({} with syntax errors in page 1's own content, text not checked), {} unchanged, refused {:?}, {} failures",
        started.elapsed(),
        files.len(),
        if full { "" } else { " (sampled)" },
        tally.stamped.load(Ordering::SeqCst),
        tally.broken_content.load(Ordering::SeqCst),
        tally.unchanged.load(Ordering::SeqCst),
        tally.refused.into_inner().unwrap(),
        failures.len()
    );
    assert!(files.len() > 50, "corpus looks empty");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
