//! The arXiv side of a batch's plan: which PDFs and their ids, the pass over the bulk
//! metadata ([`ArxivPass`]), and a decision per PDF ([`Matched`]).

use std::path::{Path, PathBuf};

use super::inputs::{no_inputs, Decided, Inputs, Links};
use crate::batch::Item;
use crate::job::{Error, ErrorKind, ItemReport, Status};

/// What the arXiv metadata pass of a batch found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArxivPass {
    /// How the PDFs were decided.
    pub matched: Matched,
    /// Lines or records read.
    pub read: u64,
    /// Entries no PDF needed.
    pub unmatched: u64,
    /// Unusable lines or records without an id.
    pub unattributed_bad: u64,
}

/// How many PDFs arXiv matching numbered, skipped and could not number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Matched {
    /// PDFs that get a number.
    pub matched: usize,
    /// Older versions left alone on purpose.
    pub skipped: usize,
    /// PDFs without an id in their name, an entry, or a usable one.
    pub failed: usize,
}

/// Turns arXiv matching's decisions into the run: a job for each PDF that gets a number, a
/// line (with its status) for each that does not; `unnamed` are PDFs whose name carries no
/// arXiv id. Lines keep their input position, for sharding.
pub(super) fn arxiv_jobs(
    wanted: Vec<crate::batch::arxiv::Wanted>,
    unnamed: Vec<PathBuf>,
    collected: &crate::batch::arxiv::Collected,
    any_version: bool,
) -> (Vec<Item>, Vec<(usize, ItemReport)>, Matched) {
    use crate::batch::arxiv::{decide, Decision};
    let line = |pdf: &Path, status: Status, reason: String| ItemReport {
        status,
        reason: Some(reason),
        ..ItemReport::new(pdf)
    };
    let (mut jobs, mut decided, mut m) = (Vec::new(), Vec::new(), Matched::default());
    let all = wanted
        .into_iter()
        .map(Ok)
        .chain(unnamed.into_iter().map(Err));
    for (index, w) in all.enumerate() {
        let w = match w {
            Ok(w) => w,
            Err(pdf) => {
                m.failed += 1;
                let why = "the file name carries no arXiv id (2402.03791v3.pdf, hep-th9901001v1.pdf, hep-th/9901001v1.pdf)";
                decided.push((index, line(&pdf, Status::Unmatched, why.into())));
                continue;
            }
        };
        let (status, reason) = match decide(&w, collected, any_version) {
            Decision::Number(n, details) => {
                m.matched += 1;
                jobs.push(Item {
                    index,
                    pdf: w.pdf,
                    relative: w.relative,
                    source: crate::record::LocalSource::Number(n.full()),
                    also: Vec::new(),
                    out: w.out,
                    details: Some(details),
                });
                continue;
            }
            Decision::Skip(r) => (Status::Skipped, r),
            Decision::Unmatched(r) => (Status::Unmatched, r),
            Decision::Fail(r) => (Status::Failed, r),
        };
        match status {
            Status::Skipped => m.skipped += 1,
            _ => m.failed += 1,
        }
        decided.push((index, line(&w.pdf, status, reason)));
    }
    (jobs, decided, m)
}

/// The arXiv side of [`plan`]: which PDFs, their ids, the metadata pass, and a decision per
/// PDF.
pub(super) fn arxiv_plan(
    inputs: &Inputs<'_>,
    base: Option<&Path>,
    threads: usize,
    note: &mut dyn FnMut(&crate::job::progress::Notice),
) -> Result<(Vec<Item>, Decided, ArxivPass, Links), Error> {
    use crate::batch::arxiv as arxiv_match;
    use crate::record::arxiv::bulk::MetadataFile;
    let arxiv = |e| Error::new(ErrorKind::Arxiv(e));
    let (wanted, unnamed, links) = match (inputs.manifest, base, inputs.dir) {
        (Some(m), Some(base), _) => {
            let text =
                crate::job::input::read_text(m).map_err(|e| Error::new(ErrorKind::Input(e)))?;
            (
                arxiv_match::read_manifest(m, &text, base).map_err(arxiv)?,
                Vec::new(),
                Vec::new(),
            )
        }
        (_, _, Some(d)) => arxiv_match::scan_dir(d).map_err(arxiv)?,
        _ => return Err(no_inputs()),
    };
    let ids: std::collections::HashSet<String> = wanted.iter().map(|w| w.id.clone()).collect();
    let metadata = MetadataFile::recognised(inputs.arxiv_metadata);
    // Its missing folders are made, as every writer makes them.
    let mut list = match inputs.unmatched {
        Some(p) => Some(std::io::BufWriter::new(crate::job::outputs::create_file(
            p,
            "the list of unmatched ids",
        )?)),
        None => None,
    };
    let mut write_err = None;
    let mut on_unmatched = |id: &str| {
        use std::io::Write;
        if let Some(w) = &mut list {
            if let Err(e) = writeln!(w, "{id}") {
                write_err.get_or_insert(e);
            }
        }
    };
    let collected = arxiv_match::collect(&metadata, &ids, threads, &mut on_unmatched, note)
        .map_err(|e| Error::new(ErrorKind::Metadata(e)))?;
    let flushed = match list {
        Some(mut w) => std::io::Write::flush(&mut w),
        None => Ok(()),
    };
    if let (Some(e), Some(p)) = (
        write_err.map(Err).unwrap_or(flushed).err(),
        inputs.unmatched,
    ) {
        return Err(
            Error::new(ErrorKind::Io("cannot write the unmatched ids".into(), e)).in_file(p),
        );
    }
    let (jobs, decided, matched) = arxiv_jobs(wanted, unnamed, &collected, inputs.any_version);
    let pass = ArxivPass {
        matched,
        read: collected.read,
        unmatched: collected.unmatched,
        unattributed_bad: collected.unattributed_bad,
    };
    Ok((jobs, decided, pass, links))
}
