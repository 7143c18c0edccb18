//! The batch run job: many PDFs (a manifest's or a directory's, or those arXiv metadata
//! matched) on a pool of workers, one report line each ([`ItemReport`]), then the summary
//! ([`Summary`]); and, through the same request, the tar runs ([`TarRun`]). A door fills a
//! [`BatchRequest`] from its arguments (data: each option left out takes the library's
//! default); the request checks itself ([`BatchRequest::validate`]: one refusal, with one
//! sentence, whichever door built it), says which run it is ([`BatchRequest::tar_plan`]), and
//! reads its inputs into a [`BatchRun`] ([`BatchRequest::prepare`]) or makes its tar run ready
//! ([`BatchRequest::tar_run`]). The door watches the lines and stops the run through
//! [`Progress`] (the CLI writes the report and draws the bar; a Python caller may pass a
//! callback); what ends a run badly ([`RunReport::end`]) is decided here, and so is how one
//! item runs alone ([`item()`]).

mod arxiv;
mod inputs;
mod plan;
mod request;
mod tars;

use std::path::{Path, PathBuf};

pub use arxiv::{ArxivPass, Matched};
pub use request::{BatchRequest, Prepared, ReportTo, TarPlan};
pub use tars::TarRun;

use super::item::{self, ItemRequest, Summary};
use super::progress::Progress;
use super::{Error, ErrorKind, ItemReport, Status};
use crate::batch::{self, Item};
use crate::job::Settings;

/// A run of PDFs as [`run()`] takes it, its inputs read ([`BatchRequest::prepare`] makes it).
pub struct BatchRun<'a> {
    /// The PDFs to update (or check), each with where its number comes from.
    pub jobs: Vec<Item>,
    /// PDFs a directory run found no number source for, under `root`: reported `unmatched`
    /// (with `mirror`, copied unchanged into the output folder).
    pub orphans: Vec<PathBuf>,
    /// The directory the orphans were found under.
    pub root: Option<&'a Path>,
    /// Lines decided before the run (arXiv matching's skips and misses).
    pub decided: Vec<ItemReport>,
    /// The output folder the input tree is mirrored into; `None` with no `out` is in place.
    pub out_dir: Option<&'a Path>,
    /// Work out every item and report it (`planned`); write nothing.
    pub dry_run: bool,
    /// With `out_dir`: copy files that are not updated unchanged (a complete mirror).
    pub mirror: bool,
    /// Change nothing: report whether each output carries its number.
    pub check: bool,
    /// How each file is updated.
    pub settings: Settings,
    /// Worker threads.
    pub threads: usize,
    /// Where the references of every PDF read go (created, or emptied, when the run starts):
    /// each job's input is read for them before it is updated, in every mode.
    pub refs: Option<&'a Path>,
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// The summary line (the report's last line).
    pub summary: Summary,
    /// `check`: the files whose output carries another number or none.
    pub differ: Vec<PathBuf>,
}

/// How a run ended, for the front ends' exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Every file was done (or refused, unless strict).
    Ok,
    /// `check`: some outputs do not carry their number.
    Differs,
    /// Stopped before every file was started.
    Interrupted,
    /// Some files failed (or, strict, were refused).
    Failed,
}

impl RunReport {
    /// How the run ended; `strict` counts a refused file as a failure.
    pub fn end(&self, strict: bool) -> End {
        let s = &self.summary;
        if !self.differ.is_empty() {
            End::Differs
        } else if s.interrupted {
            End::Interrupted
        } else if s.failed > 0 || (strict && s.refused > 0) {
            End::Failed
        } else {
            End::Ok
        }
    }
}

/// Runs a batch: creates the output folder, reports the lines decided before the run and the
/// orphans, then every job through the worker pool, each line to `progress` as it completes.
/// When `progress` asks to stop, files in flight finish and the others are `skipped`.
///
/// With `refs`, each job's input is read for its references too, before it is updated (in
/// place, the file as it was), and their lines go to that file as each file is done; a file
/// whose references cannot be read gets a note in its line saying why.
///
/// # Errors
/// [`ErrorKind::Io`] when the output folder or the references file cannot be created, or the
/// references cannot be written. A file's own failure is its line, never an error of the run.
///
/// # Examples
/// A directory of PDFs with `NAME.pith` sidecars, as `pith batch --dir in --out-dir out`
/// runs it; the lines are gathered in a list (a [`Progress`] that never stops the run).
/// ```
/// use pith::job::{run, ItemReport, Status};
/// let dir = tempfile::tempdir()?;
/// let input = dir.path().join("in");
/// std::fs::create_dir(&input)?;
/// std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"), input.join("a.pdf"))?;
/// std::fs::write(input.join("a.pith"), "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n")?;
/// let out = dir.path().join("out");
/// let batch = run::BatchRequest {
///     dir: Some(input),
///     out_dir: Some(out.clone()),
///     jobs: Some(2),
///     ..Default::default()
/// };
/// let prepared = batch.prepare(&mut |_| {})?;
/// let mut lines: Vec<ItemReport> = Vec::new();
/// let report = run::run(prepared.run, &mut lines)?;
/// assert_eq!(lines[0].status, Status::Injected);
/// assert_eq!((report.summary.injected, report.end(false)), (1, run::End::Ok));
/// assert!(out.join("a.pdf").is_file());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(req: BatchRun<'_>, progress: &mut dyn Progress<ItemReport>) -> Result<RunReport, Error> {
    if let Some(d) = req.out_dir.filter(|_| !req.dry_run && !req.check) {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::new(ErrorKind::Io("cannot create".into(), e)).in_file(d))?;
    }
    let refs = req
        .refs
        .map(crate::job::refs::RefsSink::create)
        .transpose()?;
    let mut before = Vec::new();
    for pdf in &req.orphans {
        let rel = pdf
            .strip_prefix(req.root.unwrap_or(Path::new(".")))
            .unwrap_or(pdf);
        let mirror = req.mirror && !req.dry_run;
        before.push(item::unmatched(pdf, rel, req.out_dir, mirror));
    }
    before.extend(req.decided.iter().cloned());
    let mut summary = Summary::new(req.jobs.len() + before.len());
    progress.start(summary.total);
    for o in &before {
        summary.add(o);
        progress.line(o);
    }
    let mut differ = Vec::new();
    // Each file gets its own token: its deadline is the per-file bound, and a stop asked by
    // `progress` cancels the files in flight, which end as `skipped` lines with nothing written.
    let stops = crate::job::stop::Stops::new(req.settings.file_timeout, &req.settings.stop);
    let run = batch::run(
        &req.jobs,
        req.threads,
        |j, group| {
            let file = stops.file();
            let settings = req.settings.for_file(file.token());
            let ir = ItemRequest {
                job: j,
                out_dir: req.out_dir,
                dry_run: req.dry_run,
                mirror: req.mirror,
                settings: &settings,
            };
            let not_read = refs
                .as_ref()
                .and_then(|sink| match std::fs::File::open(&j.pdf) {
                    Ok(f) => sink.pdf(f, &j.pdf, &settings),
                    Err(e) => Some(format!("references not read: cannot open: {e}")),
                });
            let mut line = in_group(&ir, req.check, group);
            line.notes.extend(not_read);
            line
        },
        |o| {
            if let Some(o) = o {
                if matches!(o.status, Status::Differs | Status::Missing) {
                    differ.push(o.pdf.clone());
                }
                summary.add(o);
                progress.line(o);
            }
            let stop = progress.stopped() || stops.relay();
            if stop {
                stops.cancel();
            }
            stop
        },
    );
    summary.interrupted = run.interrupted;
    summary.ms = run.ms;
    if let Some(sink) = refs {
        sink.finish()?;
    }
    Ok(RunReport { summary, differ })
}

/// One item, its output staged in `group` (the pool commits it): checked with `check`,
/// else updated.
fn in_group(req: &ItemRequest<'_>, check: bool, group: &mut crate::output::Group) -> ItemReport {
    if check {
        item::check(req)
    } else {
        item::run(req, group)
    }
}

/// One item run alone, as a batch runs it (Python's `batch_item`): checked with `check`, else
/// updated and its output committed at once; a commit that fails is the line's failure, as
/// in a batch ([`crate::batch::Line::commit_failed`]).
pub fn item(req: &ItemRequest<'_>, check: bool) -> ItemReport {
    use crate::batch::Line;
    let mut group = crate::output::Group::new();
    let stops = crate::job::stop::Stops::new(req.settings.file_timeout, &req.settings.stop);
    let file = stops.file();
    let settings = req.settings.for_file(file.token());
    let req = ItemRequest {
        settings: &settings,
        ..*req
    };
    let mut line = in_group(&req, check, &mut group);
    if let Some(Err(e)) = group.commit().into_iter().find(Result::is_err) {
        line.commit_failed(crate::pdf::chain(&e));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_reports_every_line_and_ends_by_its_summary() {
        let dir = tempfile::tempdir().unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal.pdf");
        let pdf = dir.path().join("a.pdf");
        std::fs::copy(&src, &pdf).unwrap();
        let job = |i: usize, n: &str| Item {
            index: i,
            pdf: pdf.clone(),
            relative: PathBuf::from(format!("{i}.pdf")),
            source: crate::record::LocalSource::Number(n.into()),
            also: Vec::new(),
            out: None,
            details: None,
        };
        let out = dir.path().join("out");
        let mut lines = Vec::new();
        let r = run(
            BatchRun {
                jobs: vec![
                    job(0, "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"),
                    job(1, "nonsense"),
                ],
                orphans: Vec::new(),
                root: None,
                decided: Vec::new(),
                out_dir: Some(&out),
                dry_run: false,
                mirror: false,
                check: false,
                settings: Settings::default(),
                threads: 2,
                refs: None,
            },
            &mut lines,
        )
        .unwrap();
        assert_eq!(lines.len(), 2);
        let status = |name: &str| {
            let o = lines
                .iter()
                .find(|o| o.out == Some(out.join(name)))
                .unwrap();
            o.status
        };
        assert_eq!(status("0.pdf"), Status::Injected);
        assert_eq!(status("1.pdf"), Status::Failed);
        assert_eq!((r.summary.injected, r.summary.failed), (1, 1));
        assert_eq!(r.end(false), End::Failed);
        assert!(out.join("0.pdf").is_file() && !out.join("1.pdf").exists());
    }
}
