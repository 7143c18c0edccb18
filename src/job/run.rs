//! The batch run job: many PDFs (a manifest's or a directory's, or those arXiv metadata
//! matched) on a pool of workers, one report line each ([`ItemReport`]), then the summary
//! ([`Summary`]). The front end reads the inputs into a [`RunRequest`], watches the lines
//! through [`Progress`] (the CLI writes the report and draws the bar; a Python caller may pass
//! a callback) and stops the run through the request's stop flag; what ends a run badly
//! ([`RunReport::end`]) is decided here.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::item::{self, ItemRequest, Summary};
use super::{Error, ErrorKind, ItemReport, Settings, Status};
use crate::batch::{self, Job};

/// What a long job tells its caller while it runs; also how it is asked to stop.
pub trait Progress {
    /// The run starts: this many lines will come.
    fn start(&mut self, _total: usize) {}
    /// One line, as its file is done (lines decided before the run first).
    fn line(&mut self, line: &ItemReport);
    /// Whether the caller asks the run to stop: files in flight finish, the others are not
    /// started (`skipped`).
    fn stopped(&self) -> bool {
        false
    }
}

/// One batch run.
pub struct RunRequest<'a> {
    /// The PDFs to update (or check), each with where its number comes from.
    pub jobs: Vec<Job>,
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
    pub settings: &'a Settings,
    /// Worker threads.
    pub threads: usize,
    /// Set to stop the run (Ctrl-C): files in flight finish, the others are `skipped`.
    pub stop: &'a AtomicBool,
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
///
/// # Errors
/// [`ErrorKind::Io`] when the output folder cannot be created. A file's own failure is its
/// line, never an error of the run.
pub fn run(req: RunRequest<'_>, progress: &mut dyn Progress) -> Result<RunReport, Error> {
    if let Some(d) = req.out_dir.filter(|_| !req.dry_run && !req.check) {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::new(ErrorKind::Io("cannot create".into(), e)).in_file(d))?;
    }
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
    // The pool polls one flag; the caller's stop and the progress's are both honoured.
    let run = batch::run(
        &req.jobs,
        req.threads,
        req.stop,
        |j, group| {
            let ir = ItemRequest {
                job: j,
                out_dir: req.out_dir,
                dry_run: req.dry_run,
                mirror: req.mirror,
                settings: req.settings,
            };
            if req.check {
                item::check(&ir)
            } else {
                item::run(&ir, group)
            }
        },
        |o| {
            if matches!(o.status, Status::Differs | Status::Missing) {
                differ.push(o.pdf.clone());
            }
            summary.add(o);
            progress.line(o);
            if progress.stopped() {
                req.stop.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        },
    );
    summary.interrupted = run.interrupted;
    summary.ms = run.ms;
    Ok(RunReport { summary, differ })
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
pub fn arxiv_jobs(
    wanted: Vec<crate::batch::arxiv::Wanted>,
    unnamed: Vec<PathBuf>,
    collected: &crate::batch::arxiv::Collected,
    any_version: bool,
) -> (Vec<Job>, Vec<(usize, ItemReport)>, Matched) {
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
            Decision::Number(n) => {
                m.matched += 1;
                jobs.push(Job {
                    index,
                    pdf: w.pdf,
                    relative: w.relative,
                    source: crate::record::Input::Number(n.full()),
                    also: Vec::new(),
                    out: w.out,
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

#[cfg(test)]
mod tests {
    use super::*;

    struct Lines(Vec<ItemReport>);

    impl Progress for Lines {
        fn line(&mut self, line: &ItemReport) {
            self.0.push(line.clone());
        }
    }

    #[test]
    fn a_run_reports_every_line_and_ends_by_its_summary() {
        let dir = tempfile::tempdir().unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal.pdf");
        let pdf = dir.path().join("a.pdf");
        std::fs::copy(&src, &pdf).unwrap();
        let job = |i: usize, n: &str| Job {
            index: i,
            pdf: pdf.clone(),
            relative: PathBuf::from(format!("{i}.pdf")),
            source: crate::record::Input::Number(n.into()),
            also: Vec::new(),
            out: None,
        };
        let out = dir.path().join("out");
        let settings = Settings::default();
        let stop = AtomicBool::new(false);
        let mut lines = Lines(Vec::new());
        let r = run(
            RunRequest {
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
                settings: &settings,
                threads: 2,
                stop: &stop,
            },
            &mut lines,
        )
        .unwrap();
        assert_eq!(lines.0.len(), 2);
        let status = |name: &str| {
            let o = lines
                .0
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
