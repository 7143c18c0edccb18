//! `pith batch`: inject numbers into many PDFs in parallel, with a JSON Lines report.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use pith::batch::{self, Job, Outcome as FileOutcome, Shard, Status};

use super::apply::{self, Applied, Target};
use super::input::read_text;
use super::Outcome;

/// Arguments of `pith batch`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Manifest lines (JSON Lines, paths relative to the manifest's directory or --root):\n  \
    {\"pdf\": \"2402/2402.03791v3.pdf\", \"arxiv_atom\": \"2402/2402.03791v3.atom.xml\"}\n  \
    {\"pdf\": \"a.pdf\", \"number\": \"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\", \"out\": \"done/a.pdf\"}\n  \
    {\"pdf\": \"b.pdf\", \"record\": \"b.record.json\"}\n\
    With --dir, each NAME.pdf takes its number from NAME.pith, NAME.record.json or NAME.atom.xml."
)]
pub struct Args {
    /// A JSON Lines manifest: one object per PDF with "pdf" and one of "number", "record",
    /// "arxiv_atom"; optional "out".
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "dir",
        conflicts_with = "dir"
    )]
    manifest: Option<PathBuf>,
    /// A directory tree of PDFs whose numbers come from sidecar files (NAME.pith,
    /// NAME.record.json or NAME.atom.xml beside NAME.pdf).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Base directory for relative manifest paths (default: the manifest's directory).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    root: Option<PathBuf>,
    /// Write updated files into a mirror tree under DIR (inputs are never modified).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "in_place",
        conflicts_with = "in_place"
    )]
    out_dir: Option<PathBuf>,
    /// Append the update to each file itself (crash-safe).
    #[arg(long)]
    in_place: bool,
    /// Process only slice K of N (0-based: 0/4 … 3/4), for Slurm arrays, Kubernetes indexed
    /// Jobs or GNU parallel.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Worker threads (default: the available cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Write the JSON Lines report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Exit non-zero when any file is refused (encrypted, damaged, certified), not only when
    /// one fails.
    #[arg(long)]
    strict: bool,
    /// Passed to every inject: update certified files and replace unparsable XMP packets.
    #[arg(long)]
    force: bool,
}

fn load_jobs(args: &Args) -> Result<Vec<Job>> {
    if let Some(m) = &args.manifest {
        let text = read_text(m)?;
        let base = match (&args.root, m.parent()) {
            (Some(r), _) => r.clone(),
            (None, Some(p)) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        return Ok(batch::read_manifest(m, &text, &base)?);
    }
    let dir = args
        .dir
        .as_ref()
        .expect("clap requires --manifest or --dir");
    let (jobs, orphans) = batch::discover(dir)?;
    if !orphans.is_empty() {
        eprintln!(
            "pith: {} PDF(s) under {} have no NAME.pith, NAME.record.json or NAME.atom.xml and are left alone (first: {})",
            orphans.len(),
            dir.display(),
            orphans[0].display()
        );
    }
    Ok(jobs)
}

/// Processes one job: resolve the number, pick the target, inject.
fn process(job: &Job, args: &Args, opts: &pith::pdf::Options) -> FileOutcome {
    let size = std::fs::metadata(&job.pdf).map(|m| m.len()).unwrap_or(0);
    let mut o = FileOutcome {
        pdf: job.pdf.clone(),
        out: None,
        status: Status::Failed,
        reason: None,
        number: None,
        bytes_before: size,
        bytes_after: size,
        ms: 0,
    };
    let number = match batch::resolve(job) {
        Ok(n) => n,
        Err(e) => {
            o.reason = Some(super::one_line(&format!("{:#}", anyhow::Error::new(e))));
            return o;
        }
    };
    o.number = Some(number.full());
    // Mirroring into --out-dir must stay inside it: a manifest line `"pdf": "../x.pdf"` would
    // otherwise write beside or over files outside it (issue #7).
    if job.out.is_none()
        && args.out_dir.is_some()
        && job
            .relative
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        o.status = Status::Refused;
        o.reason = Some(format!(
            "{}: the path leaves --out-dir (\"..\"); give an explicit \"out\" for it",
            job.pdf.display()
        ));
        return o;
    }
    let out_path = job
        .out
        .clone()
        .or_else(|| args.out_dir.as_ref().map(|d| d.join(&job.relative)));
    // The input is never modified except with --in-place (issue #7): an output that is the
    // input itself (--out-dir the input's directory, or "out" naming it) is refused.
    if let Some(p) = &out_path {
        if super::fsutil::same_file(p, &job.pdf) {
            o.status = Status::Refused;
            o.out = Some(p.clone());
            o.reason = Some(format!(
                "{}: the output is the input itself; use --in-place to update it",
                job.pdf.display()
            ));
            return o;
        }
    }
    let target = match &out_path {
        Some(p) => Target::File(p),
        None => Target::InPlace,
    };
    o.out = Some(out_path.clone().unwrap_or_else(|| job.pdf.clone()));
    if let Some(p) = &out_path {
        // Restartable: an output that already carries this number is done.
        if let Some(done) = already_done(p, &number) {
            o.status = Status::Unchanged;
            o.bytes_after = done;
            o.reason = Some(format!("{} already carries {}", p.display(), number.full()));
            return o;
        }
        if let Some(parent) = p.parent() {
            if let Err(e) = std::fs::create_dir_all(parent) {
                o.reason = Some(format!(
                    "{}: cannot create directory: {e}",
                    parent.display()
                ));
                return o;
            }
        }
    }
    match apply::apply(&job.pdf, target, &number, opts) {
        Ok(r) => {
            o.status = match r.applied {
                Applied::Injected => Status::Injected,
                Applied::Unchanged => Status::Unchanged,
            };
            o.bytes_after = r.bytes_after;
            if r.applied == Applied::Unchanged {
                o.reason = Some(format!("already carries {}", number.full()));
            }
        }
        Err(e) => {
            o.status = if apply::is_refusal(&e) {
                Status::Refused
            } else {
                Status::Failed
            };
            o.reason = Some(super::one_line(&format!("{e:#}")));
        }
    }
    o
}

/// The size of `out` when it exists and already carries `number` consistently.
fn already_done(out: &std::path::Path, number: &pith::PithNumber) -> Option<u64> {
    if super::fsutil::is_special(out) {
        return None; // a FIFO would block the open; a device holds no PDF
    }
    let f = File::open(out).ok()?;
    let found = pith::pdf::inspect(&f).ok()?;
    (found.found()? == number.full() && found.consistent())
        .then(|| f.metadata().map(|m| m.len()).unwrap_or(0))
}

/// Runs `pith batch`.
pub fn run(args: Args) -> Result<Outcome> {
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .context("--shard")?;
    let mut jobs = load_jobs(&args)?;
    if let Some(s) = shard {
        jobs.retain(|j| s.contains(j.index));
    }
    if let Some(d) = &args.out_dir {
        std::fs::create_dir_all(d).with_context(|| format!("{}: cannot create", d.display()))?;
    }
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C while files finish is ignored on purpose: stopping mid-file is what
        // the flag exists to avoid. SIGKILL still works and leaves files whole (see apply.rs).
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))
            .context("cannot install the Ctrl-C handler")?;
    }
    let mut report: Box<dyn Write> = match &args.report {
        Some(p) => Box::new(std::io::BufWriter::new(
            File::create(p)
                .with_context(|| format!("{}: cannot create the report", p.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(jobs.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} files  {per_sec}  ETA {eta}  {msg}",
            )
            .expect("valid template"),
        );
        Some(b)
    } else {
        None
    };
    let mut opts = pith::pdf::Options::new(&apply::now());
    opts.force = args.force;
    let mut write_err = None;
    let summary = batch::run(
        &jobs,
        threads,
        &stop,
        |j| process(j, &args, &opts),
        |o| {
            if let Some(b) = &bar {
                b.inc(1);
                if matches!(o.status, Status::Failed | Status::Refused) {
                    b.set_message(format!("{} not done", o.pdf.display()));
                }
            }
            if write_err.is_none() {
                if let Err(e) = serde_json::to_writer(&mut report, o)
                    .map_err(std::io::Error::from)
                    .and_then(|_| report.write_all(b"\n"))
                {
                    write_err = Some(e);
                }
            }
        },
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_err {
        return Err(e).context("cannot write the report");
    }
    serde_json::to_writer(&mut report, &summary)?;
    report.write_all(b"\n")?;
    report.flush()?;
    if summary.interrupted {
        bail!(
            "interrupted: {} files done, {} not started (rerun the same command to continue)",
            summary.injected + summary.unchanged + summary.refused + summary.failed,
            summary.skipped
        );
    }
    if summary.failed > 0 || (args.strict && summary.refused > 0) {
        bail!(
            "{} failed, {} refused of {} files (see the report)",
            summary.failed,
            summary.refused,
            summary.total
        );
    }
    Ok(Outcome::Ok)
}
