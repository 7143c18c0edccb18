//! `pith inject` over the shared corpus of real PDFs, every output checked with qpdf, pdfinfo and
//! exiftool.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::common::{inject, tmpdir};
use crate::pdf::{
    check_exiftool, exiftool, inspect_json, is_prefix, pdfinfo_custom, pdfinfo_meta, qpdf_check,
    undeclared_properties, A, A_URL,
};

/// An injected corpus file to check with external tools: input, output, whether Info keys are
/// expected, qpdf's rank and warning count on the input.
type Checked = (PathBuf, PathBuf, bool, u8, usize);

#[derive(Default)]
struct Tally {
    injected: AtomicUsize,
    unchanged: AtomicUsize,
    refused: Mutex<BTreeMap<String, usize>>,
    failures: Mutex<Vec<String>>,
    checked: Mutex<Vec<Checked>>,
}

fn reason(stderr: &str) -> String {
    common::refusal_reason(
        stderr,
        &[
            ("encrypted", "encrypted"),
            ("damaged", "damaged"),
            ("certified", "certified (DocMDP P=1)"),
            ("XMP", "unusable XMP"),
            ("not a PDF", "not a PDF"),
            ("unsupported", "unsupported"),
        ],
    )
}

/// Every corpus file goes through `pith inject` (never a panic; a refusal is one line, exit 2,
/// no output); for every file qpdf accepts, the output is checked with qpdf, pdfinfo,
/// exiftool and `inspect`.
#[test]
#[ignore = "full tier (the shared corpus): cargo test -- --include-ignored"]
fn corpus() {
    let Some(dir) = common::corpus("corpus") else {
        return;
    };
    let tools = common::have_tool("qpdf", "corpus")
        & common::have_tool("pdfinfo", "corpus")
        & common::have_tool("exiftool", "corpus");
    let files = common::pdfs_under(&dir);
    let full = std::env::var("PITH_CORPUS_FULL").is_ok_and(|v| v == "1");
    let started = std::time::Instant::now();
    let out_dir = tmpdir();
    let tally = Tally::default();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        * 2;
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(input) = files.get(i) else { break };
                let out = out_dir.path().join(format!("{i}.pdf"));
                let (code, stdout, stderr) = inject(input, A, &out, &[]);
                let name = common::corpus_name(&dir, input);
                let fail = |m: String| tally.failures.lock().unwrap().push(format!("{name}: {m}"));
                match code {
                    0 if stdout.contains("unchanged") => {
                        tally.unchanged.fetch_add(1, Ordering::SeqCst);
                    }
                    0 => {
                        tally.injected.fetch_add(1, Ordering::SeqCst);
                        if !is_prefix(input, &out) {
                            fail("input is not a prefix of the output".into());
                            continue;
                        }
                        let (c, j) = inspect_json(&out, Some(A));
                        if c != 0 || j["xmp"]["pith:number"] != A {
                            fail(format!("inspect disagrees: {j}"));
                            continue;
                        }
                        let info = j["pdfa"].as_str().is_none_or(|p| !p.starts_with("PDF/A-4"));
                        if info && j["info"]["PithNumber"] != A {
                            fail(format!("inspect: no Info number: {j}"));
                        }
                        // External checks: every file of the small folders, every third of
                        // the large qpdf/ and pdfium/ folders (all with PITH_CORPUS_FULL=1), so
                        // the test fits CI's budget on two cores.
                        let sampled = full
                            || !(name.starts_with("qpdf/") || name.starts_with("pdfium/"))
                            || matches!(i % 3, 0);
                        if tools && sampled {
                            let (qi, wi) = qpdf_check(input);
                            if qi <= 1 {
                                tally.checked.lock().unwrap().push((
                                    input.clone(),
                                    out.clone(),
                                    info,
                                    qi,
                                    wi,
                                ));
                            }
                        }
                    }
                    2 => {
                        if stderr.lines().count() != 1
                            || !stderr.starts_with("pith: ")
                            || !stderr.contains(input.to_str().unwrap())
                        {
                            fail(format!("refusal is not one line naming the file: {stderr}"));
                        }
                        if out.exists() {
                            fail("refused but wrote an output".into());
                        }
                        common::count_in(&tally.refused, reason(&stderr));
                    }
                    c => fail(format!("exit {c}: {stderr}")),
                }
            });
        }
    });

    // External checks on every injected file qpdf accepts: qpdf (in parallel), pdfinfo,
    // exiftool (one batched process).
    let checked = tally.checked.lock().unwrap().clone();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((input, out, info, qi, wi)) = checked.get(i) else {
                    break;
                };
                let name = common::corpus_name(&dir, input);
                let fail = |m: String| tally.failures.lock().unwrap().push(format!("{name}: {m}"));
                let (qo, wo) = qpdf_check(out);
                if qo > *qi || wo > *wi {
                    fail(format!(
                        "qpdf --check got worse: ({qi},{wi}) -> ({qo},{wo})"
                    ));
                }
                // pdfinfo gives up on some damaged inputs; it must read every output of an
                // input it reads.
                let pdfinfo_reads_input = Command::new("timeout")
                    .args(["20", "pdfinfo"])
                    .arg(input)
                    .output()
                    .is_ok_and(|o| o.status.success());
                let meta = pdfinfo_meta(out);
                if pdfinfo_reads_input {
                    if *info && pdfinfo_custom(out, "PithNumber").as_deref() != Some(A) {
                        fail("pdfinfo does not read /PithNumber".into());
                    }
                    if roxmltree::Document::parse(meta.trim_end_matches('\0')).is_err()
                        || !meta.contains(A)
                    {
                        fail("pdfinfo -meta: packet not well-formed or without the number".into());
                    }
                }
                if name.starts_with("pdfa/")
                    && name.contains("pass")
                    && !name.starts_with("pdfa/PDF_A-4")
                {
                    let before = undeclared_properties(&pdfinfo_meta(input));
                    let after = undeclared_properties(&meta);
                    if !after.is_subset(&before) {
                        fail(format!(
                            "PDF/A: properties no longer declared: {:?}",
                            after.difference(&before).collect::<Vec<_>>()
                        ));
                    }
                }
            });
        }
    });
    let mut exif_checked = 0;
    if tools {
        // exiftool does not recognise files with bytes before `%PDF-` (input neither).
        let starts_with_header = |p: &Path| std::fs::read(p).is_ok_and(|b| b.starts_with(b"%PDF-"));
        let checked: Vec<_> = checked
            .iter()
            .filter(|c| starts_with_header(&c.0))
            .cloned()
            .collect();
        // Nor does it read files whose xref it finds invalid: those are checked where exiftool
        // reads the input without a warning.
        let inputs: Vec<PathBuf> = checked.iter().map(|c| c.0.clone()).collect();
        let ex_in = exiftool(&inputs);
        let checked: Vec<_> = checked
            .into_iter()
            .filter(|c| {
                ex_in.get(&c.0).is_some_and(|v| {
                    v["Warning"].is_null() && v["Error"].is_null() && v["FileType"] == "PDF"
                })
            })
            .map(|(input, out, info, qi, wi)| {
                // Some files share their Info dictionary with another object (the AcroForm),
                // and exiftool then skips it: Info is checked where exiftool reads the input's.
                let v = &ex_in[&input];
                let seen = [
                    "Producer",
                    "Creator",
                    "Title",
                    "Author",
                    "CreateDate",
                    "ModifyDate",
                ]
                .iter()
                .any(|k| !v[*k].is_null());
                let (_, trailer, _) = common::run(
                    "timeout",
                    &[
                        "20",
                        "qpdf",
                        "--show-object=trailer",
                        input.to_str().unwrap(),
                    ],
                    None,
                );
                let check_info = info && (seen || !trailer.contains("/Info"));
                (input, out, check_info, qi, wi)
            })
            .collect();
        let paths: Vec<PathBuf> = checked.iter().map(|c| c.1.clone()).collect();
        let ex = exiftool(&paths);
        exif_checked = checked.len();
        for (input, out, info, _, _) in &checked {
            if let Err(e) = ex
                .get(out)
                .map_or(Err("exiftool gave nothing".to_string()), |v| {
                    check_exiftool(v, A, A_URL, *info)
                })
            {
                tally
                    .failures
                    .lock()
                    .unwrap()
                    .push(format!("{}: {e}", input.display()));
            }
        }
    }
    let failures = tally.failures.lock().unwrap();
    eprintln!(
        "corpus ({:.0?}): {} files, {} injected, {} unchanged, refused {:?}, {} checked with qpdf/pdfinfo, {} with exiftool, {} failures",
        started.elapsed(),
        files.len(),
        tally.injected.load(Ordering::SeqCst),
        tally.unchanged.load(Ordering::SeqCst),
        tally.refused.lock().unwrap(),
        checked.len(),
        exif_checked,
        failures.len()
    );
    assert!(files.len() > 100, "corpus looks empty");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
