//! `pith number --arxiv-snapshot/--arxiv-oai` and `pith batch --arxiv-metadata`:
//! argument plumbing and printing only; the runs are [`pith::job::number::bulk`] and
//! [`pith::job::run::BatchRequest::prepare`].

use std::io::Write;

use anyhow::{bail, Result};
use pith::job;
use pith::record::arxiv::bulk;

/// Runs `pith number` over bulk metadata through the number job
/// ([`pith::job::number::bulk`]): JSON Lines on standard output, reports and the summary on
/// standard error. Bad lines do not stop the run unless `strict`, but make it exit non-zero at
/// its end.
pub fn number(req: &job::number::BulkRequest, ui: super::Ui) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut err = std::io::stderr().lock();
    let mut report = |r: &bulk::Report| {
        let _ = writeln!(err, "pith: {}", super::one_line(&r.to_string()));
    };
    let summary = job::number::bulk(req, &mut out, &mut report)?;
    drop(out);
    super::note!(ui, "{summary}");
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
pub fn note_pass(a: &job::run::ArxivPass, ui: super::Ui) {
    let m = &a.matched;
    super::note!(
        ui,
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
