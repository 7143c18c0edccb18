//! `pith number --arxiv-snapshot/--arxiv-oai` and `pith batch --arxiv-metadata`:
//! argument plumbing and printing only; the runs are [`pith::record::arxiv::bulk`] and
//! [`pith::batch::arxiv`].

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use pith::batch::arxiv::{self as arxiv_match, Wanted};
use pith::batch::Job;
use pith::job::{self, ItemReport};
use pith::record::arxiv::bulk::{self, Format, Input, Options, Report};

use super::input::read_text;

fn threads(jobs: Option<usize>) -> usize {
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

/// The jobs to run, and the outcomes of the PDFs that are not run with their indices.
pub type Plan = (Vec<Job>, Vec<(usize, ItemReport)>);

/// The arXiv side of `pith batch`: which PDFs, their ids, the metadata pass, and a decision
/// per PDF. Returns the jobs to run and the outcomes of the PDFs that will not be run, each
/// with its index in the full list (for `--shard`).
pub struct ArxivBatch<'a> {
    /// `--arxiv-metadata` files.
    pub metadata: &'a [PathBuf],
    /// `--dir`.
    pub dir: Option<&'a Path>,
    /// `--manifest`, with its base directory.
    pub manifest: Option<(&'a Path, PathBuf)>,
    /// `--arxiv-any-version`.
    pub any_version: bool,
    /// `--arxiv-unmatched FILE`: ids of metadata entries no PDF needed.
    pub unmatched: Option<&'a Path>,
    /// `--jobs`.
    pub jobs: Option<usize>,
}

impl ArxivBatch<'_> {
    /// Runs the metadata pass and decides every PDF.
    pub fn plan(&self) -> Result<Plan> {
        if self
            .metadata
            .iter()
            .filter(|p| p.as_os_str() == "-")
            .count()
            > 1
        {
            bail!("standard input (-) can be read only once");
        }
        let (wanted, unnamed): (Vec<Wanted>, Vec<PathBuf>) = match (self.dir, &self.manifest) {
            (_, Some((m, base))) => (arxiv_match::read_manifest(m, &read_text(m)?, base)?, vec![]),
            (Some(d), None) => arxiv_match::scan_dir(d)?,
            (None, None) => bail!("--arxiv-metadata needs --dir or --manifest"),
        };
        let ids: HashSet<String> = wanted.iter().map(|w| w.id.clone()).collect();
        let collected = self.collect(&ids)?;
        let (jobs, decided, c) =
            job::run::arxiv_jobs(wanted, unnamed, &collected, self.any_version);
        let (matched, skipped, failed) = (c.matched, c.skipped, c.failed);
        super::note!(
            "arXiv metadata: {} entries read; {matched} PDF(s) matched, {skipped} skipped (not the latest version), {failed} without usable metadata; {} entries matched no PDF{}",
            collected.read,
            collected.unmatched,
            if collected.unattributed_bad > 0 {
                format!("; {} unusable lines/records without an id", collected.unattributed_bad)
            } else {
                String::new()
            }
        );
        Ok((jobs, decided))
    }

    /// The metadata pass: the entries of the PDFs' ids (`--arxiv-unmatched` gets the others).
    fn collect(&self, ids: &HashSet<String>) -> Result<arxiv_match::Collected> {
        let inputs: Vec<Input> = self
            .metadata
            .iter()
            .map(|p| Input {
                path: p.clone(),
                format: None,
            })
            .collect();
        let mut unmatched_out = match self.unmatched {
            Some(p) => Some(std::io::BufWriter::new(
                std::fs::File::create(p)
                    .with_context(|| format!("{}: cannot create", p.display()))?,
            )),
            None => None,
        };
        let mut write_err = None;
        let mut on_unmatched = |id: &str| {
            if let Some(w) = &mut unmatched_out {
                if let Err(e) = writeln!(w, "{id}") {
                    write_err.get_or_insert(e);
                }
            }
        };
        let mut on_report = |r: &Report| {
            let _ = writeln!(
                std::io::stderr(),
                "pith: {}",
                super::one_line(&r.to_string())
            );
        };
        let collected = arxiv_match::collect(
            &inputs,
            ids,
            threads(self.jobs),
            &mut on_unmatched,
            &mut on_report,
        )?;
        if let Some(e) = write_err {
            return Err(e).context("cannot write the --arxiv-unmatched list");
        }
        if let Some(mut w) = unmatched_out {
            w.flush()
                .context("cannot write the --arxiv-unmatched list")?;
        }
        Ok(collected)
    }
}
