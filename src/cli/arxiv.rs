//! `pith number --arxiv-snapshot/--arxiv-oai` and `pith batch --arxiv-metadata`:
//! argument plumbing and printing only; the runs are [`pith::record::arxiv::bulk`] and
//! [`pith::job::run::plan`].

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use pith::job;
use pith::record::arxiv::bulk::{self, Format, Input, Options, Report};

/// Threads of a metadata pass: `--jobs`, else the cores.
pub fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Runs `pith number` over bulk metadata: JSON Lines on standard output, reports and the
/// summary on standard error. Bad lines do not stop the run unless `strict`, but make it exit
/// non-zero at its end.
pub fn number(
    snapshot: &[PathBuf],
    oai: &[PathBuf],
    strict: bool,
    jobs: Option<usize>,
) -> Result<()> {
    let inputs: Vec<Input> = snapshot
        .iter()
        .map(|p| (p, Format::Snapshot))
        .chain(oai.iter().map(|p| (p, Format::Oai)))
        .map(|(p, f)| Input {
            path: p.clone(),
            format: Some(f),
        })
        .collect();
    if inputs.iter().filter(|i| i.path.as_os_str() == "-").count() > 1 {
        bail!("standard input (-) can be read only once");
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut err = std::io::stderr().lock();
    let mut report = |r: &Report| {
        let _ = writeln!(err, "pith: {}", super::one_line(&r.to_string()));
    };
    let opts = Options {
        threads: threads(jobs),
        strict,
    };
    let summary = bulk::number(&inputs, opts, &mut out, &mut report)?;
    drop(out);
    super::note!("{summary}");
    if summary.bad > 0 {
        bail!(
            "{} bad line(s)/record(s) reported above; the other {} paper(s) are numbered",
            summary.bad,
            summary.numbered
        );
    }
    Ok(())
}

/// The counts of `pith batch --arxiv-metadata`'s metadata pass, on standard error.
pub fn note_pass(a: &job::run::ArxivPass) {
    let m = &a.matched;
    super::note!(
        "arXiv metadata: {} entries read; {} PDF(s) matched, {} skipped (not the latest version), {} without usable metadata; {} entries matched no PDF{}",
        a.read,
        m.matched,
        m.skipped,
        m.failed,
        a.unmatched,
        if a.unattributed_bad > 0 {
            format!("; {} unusable lines/records without an id", a.unattributed_bad)
        } else {
            String::new()
        }
    );
}
