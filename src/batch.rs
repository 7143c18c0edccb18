//! Archive-scale batch post-processing (issue #6): manifests, shards, and a bounded worker pool.
//!
//! This module owns what a batch is: the list of jobs (from a JSON Lines manifest or from a
//! directory tree with sidecar files), the deterministic `--shard K/N` slice, the parallel run
//! over a fixed number of workers, and the per-file report line. It does not know how a PDF is
//! updated: the caller passes the function that processes one job, so the same pool serves
//! `inject` and any later per-file operation.
//!
//! Memory is bounded by the number of workers: each worker holds one file's job at a time, and
//! the injector reads only what it needs of a file, so one huge PDF occupies one worker and
//! never starves the others of memory.
//!
//! New output files are committed in groups (issue #12): each worker stages its outputs in an
//! [`output::Group`] (written, their writeback started, not yet synced) and commits the group
//! every [`GROUP_FILES`] files or [`GROUP_BYTES`] bytes, when it runs out of jobs, and when
//! the run is stopped. An outcome whose file was staged is reported only after the commit, as
//! the commit left it: a file reported injected is on disk, under its name. A stopped run
//! commits what it staged, so an interrupted batch leaves no temporary file behind.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use crate::number::PithNumber;
use crate::output;
use crate::record::{self, Input};

/// Error reading a manifest or a directory, or resolving a job's number.
#[derive(Debug)]
pub struct Error {
    path: Option<PathBuf>,
    line: Option<usize>,
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a file or directory cannot be read.
    #[error("cannot read")]
    Io(#[source] std::io::Error),
    /// Occurs when a manifest line is not a JSON object with `pdf` and exactly one of `number`,
    /// `record`, `arxiv_atom`.
    #[error("{0}")]
    Manifest(String),
    /// Occurs when a job's number cannot be obtained (bad number, bad record, bad Atom).
    #[error(transparent)]
    Number(Box<record::Error>),
    /// Occurs when two sidecars of one PDF give different numbers (issue #15: one was picked
    /// without a word).
    #[error("its sidecars disagree: {0}")]
    Conflict(String),
    /// Occurs when a shard specification is not `K/N` with `0 <= K < N`.
    #[error("{0:?} is not K/N with 0 <= K < N (K is 0-based)")]
    Shard(String),
}

impl Error {
    fn new(path: &Path, line: Option<usize>, kind: ErrorKind) -> Self {
        Error {
            path: Some(path.to_owned()),
            line,
            kind,
        }
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}", p.display())?;
            if let Some(l) = self.line {
                write!(f, ":{l}")?;
            }
            f.write_str(": ")?;
        }
        self.kind.fmt(f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Number(e) => std::error::Error::source(e.as_ref()),
            k => std::error::Error::source(k),
        }
    }
}

/// Resolves a job's number: parsed, or computed from its record (never typed twice); it must
/// be the full number with its year ([`PithNumber::require_year`]). Errors name the file they
/// are about: the record or Atom file, else the PDF.
///
/// # Errors
/// [`ErrorKind::Number`].
pub fn resolve(job: &Job) -> Result<PithNumber, Error> {
    let number = |input: &Input| {
        input.number().map_err(|e| Error {
            path: e.path().is_none().then(|| job.pdf.clone()),
            line: None,
            kind: ErrorKind::Number(Box::new(e)),
        })
    };
    let n = number(&job.source)?;
    // A batch writes metadata: a bare code (no year) is refused here, with the reason, rather
    // than deep inside the XMP merge (issue #15).
    n.require_year().map_err(|e| Error {
        path: Some(job.pdf.clone()),
        line: None,
        kind: ErrorKind::Number(Box::new(e.into())),
    })?;
    for other in &job.also {
        let m = number(other)?;
        if !n.matches(&crate::NumberRef::Full(m.clone())) {
            let name = |i: &Input| {
                i.path()
                    .map_or_else(|| "the number".to_owned(), |p| p.display().to_string())
            };
            return Err(Error::new(
                &job.pdf,
                None,
                ErrorKind::Conflict(format!(
                    "{} gives {n}, {} gives {m}",
                    name(&job.source),
                    name(other)
                )),
            ));
        }
    }
    Ok(n)
}

/// One file to process.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Position in the full manifest (before sharding), 0-based.
    pub index: usize,
    /// The input PDF.
    pub pdf: PathBuf,
    /// The input PDF's path relative to the batch root, used to mirror the tree.
    pub relative: PathBuf,
    /// Where the number comes from (the same [`Input`] the CLI resolves).
    pub source: Input,
    /// Further sidecars of the same PDF, which must give the same number ([`resolve`]).
    pub also: Vec<Input>,
    /// An explicit output path from the manifest.
    pub out: Option<PathBuf>,
}

fn resolve_path(base: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_owned()
    } else {
        base.join(p)
    }
}

/// Reads a JSON Lines manifest: one object per PDF with `pdf` and exactly one of `number`,
/// `record` (a path or an inline object) or `arxiv_atom` (a path); optional `out`. Relative
/// paths are taken from `base`. Blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// [`ErrorKind::Manifest`] naming the manifest and line.
pub fn read_manifest(manifest: &Path, text: &str, base: &Path) -> Result<Vec<Job>, Error> {
    let mut jobs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let bad = |m: String| Error::new(manifest, Some(i + 1), ErrorKind::Manifest(m));
        let v: Value = serde_json::from_str(t).map_err(|e| bad(format!("not JSON: {e}")))?;
        let o = v
            .as_object()
            .ok_or_else(|| bad("expected a JSON object".into()))?;
        let pdf = o
            .get("pdf")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("missing \"pdf\" (a path)".into()))?;
        let mut sources = Vec::new();
        if let Some(n) = o.get("number") {
            sources.push(Input::Number(
                n.as_str()
                    .ok_or_else(|| bad("\"number\" must be a string".into()))?
                    .to_owned(),
            ));
        }
        if let Some(r) = o.get("record") {
            sources.push(match r {
                Value::String(p) => Input::RecordFile(resolve_path(base, p)),
                Value::Object(_) => Input::RecordValue(r.clone()),
                _ => return Err(bad("\"record\" must be a path or an object".into())),
            });
        }
        if let Some(a) = o.get("arxiv_atom") {
            sources.push(Input::Atom {
                path: resolve_path(
                    base,
                    a.as_str()
                        .ok_or_else(|| bad("\"arxiv_atom\" must be a path".into()))?,
                ),
                id: None,
            });
        }
        if sources.len() != 1 {
            return Err(bad(
                "give exactly one of \"number\", \"record\", \"arxiv_atom\"".into(),
            ));
        }
        let out = match o.get("out") {
            None | Some(Value::Null) => None,
            Some(Value::String(p)) => Some(resolve_path(base, p)),
            Some(_) => return Err(bad("\"out\" must be a path".into())),
        };
        let rel = Path::new(pdf);
        let relative = if rel.is_absolute() {
            rel.file_name().map(PathBuf::from).unwrap_or_default()
        } else {
            rel.to_owned()
        };
        jobs.push(Job {
            index: jobs.len(),
            pdf: resolve_path(base, pdf),
            relative,
            source: sources.remove(0),
            also: Vec::new(),
            out,
        });
    }
    Ok(jobs)
}

/// Sidecar suffixes looked up beside `NAME.pdf`, in order.
pub const SIDECARS: [&str; 3] = [".pith", ".record.json", ".atom.xml"];

/// Every `*.pdf` file (any case) under `root`, sorted; symlinks are not followed. Shared by
/// [`discover`] and [`crate::arxiv_match::scan_dir`].
///
/// # Errors
/// The directory or entry that could not be read, with the I/O error.
pub fn pdfs_under(root: &Path) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
    let mut pdfs = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| (dir.clone(), e))? {
            let entry = entry.map_err(|e| (dir.clone(), e))?;
            let path = entry.path();
            let ft = entry.file_type().map_err(|e| (path.clone(), e))?;
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_file()
                && path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
            {
                pdfs.push(path);
            }
        }
    }
    pdfs.sort();
    Ok(pdfs)
}

/// Walks a directory tree for `*.pdf` files (sorted, symlinks not followed) and pairs each
/// with its sidecars: `NAME.pith` (one number as text, [`read_sidecar`]), `NAME.record.json`
/// or `NAME.atom.xml`. The first in that order is the job's source, the others must agree
/// with it ([`resolve`]). PDFs without a sidecar are returned in the second list.
///
/// # Errors
/// [`ErrorKind::Io`] when a directory cannot be read.
pub fn discover(root: &Path) -> Result<(Vec<Job>, Vec<PathBuf>), Error> {
    let pdfs = pdfs_under(root).map_err(|(p, e)| Error::new(&p, None, ErrorKind::Io(e)))?;
    let mut jobs = Vec::new();
    let mut orphans = Vec::new();
    for pdf in pdfs {
        let stem = pdf.with_extension("");
        let mut sources = Vec::new();
        for suffix in SIDECARS {
            let p = PathBuf::from(format!("{}{suffix}", stem.display()));
            if !p.is_file() {
                continue;
            }
            sources.push(match suffix {
                ".pith" => Input::Number(read_sidecar(&p)?),
                ".record.json" => Input::RecordFile(p),
                _ => Input::Atom { path: p, id: None },
            });
        }
        if sources.is_empty() {
            orphans.push(pdf);
            continue;
        }
        let relative = pdf.strip_prefix(root).unwrap_or(&pdf).to_owned();
        let source = sources.remove(0);
        jobs.push(Job {
            index: jobs.len(),
            pdf,
            relative,
            source,
            also: sources,
            out: None,
        });
    }
    Ok((jobs, orphans))
}

/// Reads a `NAME.pith` sidecar: one number in any form [`PithNumber::parse`] accepts, with
/// surrounding whitespace (a final newline) and any case. The text is checked when the job
/// resolves, so one bad sidecar fails its own file, not the run.
///
/// # Errors
/// [`ErrorKind::Number`] naming the file when it cannot be read.
pub fn read_sidecar(path: &Path) -> Result<String, Error> {
    record::input::read_text(path)
        .map(|t| t.trim().to_owned())
        .map_err(|e| Error {
            path: None,
            line: None,
            kind: ErrorKind::Number(Box::new(e)),
        })
}

/// A deterministic slice `K/N` of a manifest: job `i` belongs to shard `i mod N`.
///
/// `K` is 0-based (`0/4` … `3/4`), like Kubernetes' `JOB_COMPLETION_INDEX` and a Slurm array
/// `--array=0-3`. Every job lands in exactly one shard, whatever the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This worker's index, `0 <= k < n`.
    pub k: usize,
    /// Number of workers.
    pub n: usize,
}

impl Shard {
    /// Parses `K/N`.
    ///
    /// # Errors
    /// [`ErrorKind::Shard`] unless `0 <= K < N`.
    ///
    /// # Examples
    /// ```
    /// let s = pith::batch::Shard::parse("1/4")?;
    /// assert!(s.contains(5) && !s.contains(4));
    /// # Ok::<(), pith::batch::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let bad = || Error {
            path: None,
            line: None,
            kind: ErrorKind::Shard(text.to_owned()),
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Whether job `index` belongs to this shard.
    pub fn contains(&self, index: usize) -> bool {
        index % self.n == self.k
    }
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The number was written.
    Injected,
    /// The file already carried this number; nothing was written.
    Unchanged,
    /// The file cannot be updated safely (encrypted, damaged, certified…); left untouched.
    Refused,
    /// An error (unreadable input, bad number, unwritable output); left untouched.
    Failed,
    /// Not attempted because the run was interrupted.
    Skipped,
    /// No number source for this PDF (a directory run found no sidecar); left alone.
    Unmatched,
    /// A dry run: the number would be written; nothing was.
    Planned,
}

/// One line of the JSON Lines report.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The input PDF.
    pub pdf: PathBuf,
    /// Where the result was written (the input itself when in place).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    /// What happened.
    pub status: Status,
    /// Why (for unchanged, refused, failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The number written or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// Whether the file was copied unchanged into the output tree (a complete mirror).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub copied: bool,
    /// Size of the input in bytes.
    pub bytes_before: u64,
    /// Size of the output in bytes (equal to `bytes_before` when nothing was written).
    pub bytes_after: u64,
    /// Wall time spent on this file.
    pub ms: u64,
}

/// Totals of a run, printed as the report's final line.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Always `"summary"`, so a reader can tell this line from file lines.
    pub summary: &'static str,
    /// Files considered (after sharding).
    pub total: usize,
    /// Files updated.
    pub injected: usize,
    /// Files that already had the number.
    pub unchanged: usize,
    /// Files refused.
    pub refused: usize,
    /// Files that failed.
    pub failed: usize,
    /// Files not attempted because of an interruption.
    pub skipped: usize,
    /// PDFs without a number source (directory runs).
    pub unmatched: usize,
    /// Files a dry run would update.
    pub planned: usize,
    /// Whether the run was interrupted.
    pub interrupted: bool,
    /// Wall time of the run.
    pub ms: u64,
}

impl Summary {
    /// Counts one outcome.
    pub fn add(&mut self, o: &Outcome) {
        match o.status {
            Status::Injected => self.injected += 1,
            Status::Unchanged => self.unchanged += 1,
            Status::Refused => self.refused += 1,
            Status::Failed => self.failed += 1,
            Status::Skipped => self.skipped += 1,
            Status::Unmatched => self.unmatched += 1,
            Status::Planned => self.planned += 1,
        }
    }
}

/// At most this many staged outputs per worker before its group is committed.
pub const GROUP_FILES: usize = 32;

/// At most about this many staged bytes per worker before its group is committed.
pub const GROUP_BYTES: u64 = 64 << 20;

/// Open temporary files allowed across all workers' groups, well under the usual limit of
/// 1024 open files (each staged output holds one until its group commits).
const STAGED_FDS: usize = 256;

/// Runs `work` over `jobs` on `threads` workers and hands every outcome to `done` on the
/// calling thread, in completion order. When `stop` becomes true, no new job starts; jobs in
/// flight finish and the rest are reported [`Status::Skipped`].
///
/// `work` may stage its outputs in the worker's [`output::Group`]. The pool commits the group
/// (see the module docs) before it reports that outcome; a job one of whose files fails at
/// the commit is reported [`Status::Failed`] with the reason. [`Outcome::ms`] is the
/// time of `work`, without the commit.
pub fn run<W, D>(jobs: &[Job], threads: usize, stop: &AtomicBool, work: W, mut done: D) -> Summary
where
    W: Fn(&Job, &mut output::Group) -> Outcome + Sync,
    D: FnMut(&Outcome),
{
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let mut summary = Summary {
        summary: "summary",
        total: jobs.len(),
        ..Summary::default()
    };
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    let mut attempted = vec![false; jobs.len()];
    let workers = threads.max(1).min(jobs.len().max(1));
    let group_files = (STAGED_FDS / workers).clamp(1, GROUP_FILES);
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, work) = (&next, &work);
            s.spawn(move || {
                let mut group = output::Group::new();
                // Outcomes of jobs that staged files (and how many), waiting for the commit.
                let mut waiting: Vec<(usize, Outcome, usize)> = Vec::new();
                let commit =
                    |group: &mut output::Group, waiting: &mut Vec<(usize, Outcome, usize)>| {
                        let mut results = std::mem::take(group).commit().into_iter();
                        let mut ok = true;
                        for (i, mut o, staged) in waiting.drain(..) {
                            // All of this job's results are taken, whichever fails.
                            let mine: Vec<_> = results.by_ref().take(staged).collect();
                            if let Some(Err(e)) = mine.into_iter().find(Result::is_err) {
                                o.status = Status::Failed;
                                o.reason = Some(one_line(&error_chain(&e)));
                                o.bytes_after = o.bytes_before;
                            }
                            ok &= tx.send((i, o)).is_ok();
                        }
                        ok
                    };
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { break };
                    let t = Instant::now();
                    let staged = group.len();
                    let mut o = work(job, &mut group);
                    o.ms = t.elapsed().as_millis() as u64;
                    if group.len() == staged {
                        if tx.send((i, o)).is_err() {
                            break;
                        }
                        continue;
                    }
                    waiting.push((i, o, group.len() - staged));
                    if (group.len() >= group_files || group.bytes() >= GROUP_BYTES)
                        && !commit(&mut group, &mut waiting)
                    {
                        break;
                    }
                }
                // Out of jobs, stopped, or the receiver is gone: what was staged lands.
                commit(&mut group, &mut waiting);
            });
        }
        drop(tx);
        for (i, o) in rx {
            attempted[i] = true;
            summary.add(&o);
            done(&o);
        }
    });
    for (job, seen) in jobs.iter().zip(&attempted) {
        if !seen {
            let size = std::fs::metadata(&job.pdf).map(|m| m.len()).unwrap_or(0);
            let o = Outcome {
                pdf: job.pdf.clone(),
                out: None,
                status: Status::Skipped,
                reason: Some("interrupted before this file was started".into()),
                number: None,
                copied: false,
                bytes_before: size,
                bytes_after: size,
                ms: 0,
            };
            summary.add(&o);
            done(&o);
        }
    }
    summary.interrupted = stop.load(Ordering::SeqCst);
    summary.ms = started.elapsed().as_millis() as u64;
    summary
}

/// An error and its causes, `: `-separated (as anyhow's `{:#}` prints them).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// `text` on one line (a report reason).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_lines_and_errors() {
        let m = Path::new("m.jsonl");
        let text = "{\"pdf\":\"a/x.pdf\",\"number\":\"7BMK4ZKTPUTUY3JKWBANNPOFR5\"}\n\n# comment\n{\"pdf\":\"/abs/y.pdf\",\"record\":\"r.json\",\"out\":\"o.pdf\"}\n";
        let jobs = read_manifest(m, text, Path::new("/base")).unwrap();
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].pdf, Path::new("/base/a/x.pdf"));
        assert_eq!(jobs[1].source, Input::RecordFile("/base/r.json".into()));
        assert_eq!(jobs[1].out.as_deref(), Some(Path::new("/base/o.pdf")));
        for bad in [
            "{\"pdf\":\"x\"}",
            "[1]",
            "{\"pdf\":\"x\",\"number\":\"N\",\"arxiv_atom\":\"a\"}",
            "nope",
        ] {
            let e = read_manifest(m, bad, Path::new("/")).unwrap_err();
            assert!(e.to_string().starts_with("m.jsonl:1: "), "{e}");
        }
    }

    #[test]
    fn shards_partition_the_manifest() {
        let shards: Vec<Shard> = (0..3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap())
            .collect();
        for i in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.contains(i)).count(), 1);
        }
        for bad in ["3/3", "1", "a/b", "0/0", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn run_commits_staged_outputs_before_reporting_them() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        // Job 7's output path is a non-empty directory: its rename fails at the commit.
        std::fs::create_dir_all(dir.path().join("7.out/x")).unwrap();
        let jobs: Vec<Job> = (0..100)
            .map(|i| Job {
                index: i,
                pdf: format!("/nonexistent/{i}.pdf").into(),
                relative: format!("{i}.pdf").into(),
                source: Input::Number("x".into()),
                also: Vec::new(),
                // Every third job stages two files, the others one.
                out: Some(dir.path().join(format!("{i}.out"))),
            })
            .collect();
        let work = |j: &Job, group: &mut output::Group| {
            let out = j.out.clone().unwrap();
            let extra = out.with_extension("extra");
            let files = if j.index.is_multiple_of(3) {
                vec![&out, &extra]
            } else {
                vec![&out]
            };
            for f in files {
                group.stage(f, None, |w| w.write_all(b"done")).unwrap();
            }
            Outcome {
                pdf: j.pdf.clone(),
                out: Some(out),
                status: Status::Injected,
                reason: None,
                number: None,
                copied: false,
                bytes_before: 0,
                bytes_after: 4,
                ms: 0,
            }
        };
        let mut seen = Vec::new();
        let s = run(&jobs, 3, &AtomicBool::new(false), work, |o| {
            // Reported only once committed: the output is in place, or the job failed.
            let out = o.out.as_ref().unwrap();
            assert_eq!(o.status == Status::Injected, out.is_file(), "{o:?}");
            seen.push(o.clone());
        });
        assert_eq!((s.injected, s.failed), (99, 1));
        let failed = seen.iter().find(|o| o.status == Status::Failed).unwrap();
        assert!(failed.out.as_ref().unwrap().ends_with("7.out"));
        assert!(failed.reason.as_ref().unwrap().contains("cannot replace"));
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with(".pith-tmp")),
            "{names:?}"
        );
        assert_eq!(names.len(), 100 + 34, "{names:?}");
    }

    #[test]
    fn run_reports_every_job_once_and_stops() {
        let jobs: Vec<Job> = (0..50)
            .map(|i| Job {
                index: i,
                pdf: format!("/nonexistent/{i}.pdf").into(),
                relative: format!("{i}.pdf").into(),
                source: Input::Number("x".into()),
                also: Vec::new(),
                out: None,
            })
            .collect();
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let work = |j: &Job, _: &mut output::Group| {
            if j.index == 10 {
                stop.store(true, Ordering::SeqCst);
            }
            Outcome {
                pdf: j.pdf.clone(),
                out: None,
                status: Status::Injected,
                reason: None,
                number: None,
                copied: false,
                bytes_before: 0,
                bytes_after: 0,
                ms: 0,
            }
        };
        let s = run(&jobs, 4, &stop, work, |o| seen.push(o.pdf.clone()));
        assert_eq!(seen.len(), 50);
        assert!(s.interrupted && s.skipped > 0 && s.injected + s.skipped == 50);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 50);
    }
}
