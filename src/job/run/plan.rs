//! Reading a batch's inputs into the jobs of its run: a manifest's lines or a folder's walk
//! (or, with arXiv metadata, [`super::arxiv`]'s decisions), links not followed as lines of
//! their own, and the shard kept.

use std::path::PathBuf;

use super::arxiv::{arxiv_plan, ArxivPass};
use super::inputs::{no_inputs, Inputs};
use crate::batch::{self, Item};
use crate::job::{Error, ErrorKind, ItemReport, Status};

/// The inputs read: the run's jobs, orphans and lines decided before it.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// The PDFs to update, each with where its number comes from.
    pub jobs: Vec<Item>,
    /// PDFs a directory holds with no number source.
    pub orphans: Vec<PathBuf>,
    /// Lines arXiv matching decided (skips and misses).
    pub decided: Vec<ItemReport>,
    /// With arXiv metadata: what its pass found.
    pub arxiv: Option<ArxivPass>,
}

/// Reads `inputs` into the jobs of a run, keeping the shard's ([`BatchRequest::prepare`]);
/// the metadata pass runs on `threads`.
pub(super) fn plan(
    inputs: &Inputs<'_>,
    threads: usize,
    note: &mut dyn FnMut(&crate::job::progress::Notice),
) -> Result<Plan, Error> {
    let base = inputs.manifest.map(|m| match (inputs.root, m.parent()) {
        (Some(r), _) => r.to_owned(),
        (None, Some(p)) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    });
    let mut plan = Plan::default();
    let mut decided = Vec::new();
    let mut links = Vec::new();
    if inputs.arxiv_metadata.is_empty() {
        (plan.jobs, plan.orphans) = match (inputs.manifest, &base, inputs.dir) {
            (Some(m), Some(base), _) => {
                let text =
                    crate::job::input::read_text(m).map_err(|e| Error::new(ErrorKind::Input(e)))?;
                let jobs = batch::read_manifest(m, &text, base)
                    .map_err(|e| Error::new(ErrorKind::Number(e)))?;
                (jobs, Vec::new())
            }
            (_, _, Some(d)) => {
                let (jobs, orphans, refused) =
                    batch::discover(d).map_err(|e| Error::new(ErrorKind::Number(e)))?;
                links = refused;
                (jobs, orphans)
            }
            _ => return Err(no_inputs()),
        };
    } else {
        let (jobs, lines, pass);
        (jobs, lines, pass, links) = arxiv_plan(inputs, base.as_deref(), threads, note)?;
        (plan.jobs, decided, plan.arxiv) = (jobs, lines, Some(pass));
    }
    // A `*.pdf` link the walk did not follow has its line, as every input does.
    let after = plan.jobs.len() + decided.len();
    decided.extend(links.into_iter().enumerate().map(|(k, (pdf, why))| {
        let line = ItemReport {
            status: Status::Refused,
            reason: Some(format!("{}: {why}", pdf.display())),
            ..ItemReport::new(&pdf)
        };
        (after + k, line)
    }));
    if let Some(s) = crate::job::shard(inputs.shard)? {
        plan.jobs.retain(|j| s.contains(j.index));
        decided.retain(|(i, _)| s.contains(*i));
    }
    plan.decided = decided.into_iter().map(|(_, o)| o).collect();
    Ok(plan)
}
