//! `pith batch`: inject numbers into many PDFs in parallel, with a JSON Lines report.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use pith::batch::{self, Job, Outcome as FileOutcome, Shard, Status};

use super::apply::{self, Applied, Target};
use super::input::read_text;
use super::Outcome;
use pith::output::Group;

/// Arguments of `pith batch`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Manifest lines (JSON Lines, paths relative to the manifest's directory or --root):\n  \
    {\"pdf\": \"2402/2402.03791v3.pdf\", \"arxiv_atom\": \"2402/2402.03791v3.atom.xml\"}\n  \
    {\"pdf\": \"a.pdf\", \"number\": \"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\", \"out\": \"done/a.pdf\"}\n  \
    {\"pdf\": \"b.pdf\", \"record\": \"b.record.json\"}\n\
    With --dir, each NAME.pdf takes its number from NAME.pith (one number, any form, whitespace\n\
    and case tolerated), NAME.record.json or NAME.atom.xml; several sidecars must agree."
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
    /// Worker threads (default: twice the available cores, since workers also wait for the
    /// disk).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Write the JSON Lines report here instead of standard output ("-" is standard output).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Resolve every number and output path and report what would happen ("planned"),
    /// writing nothing.
    #[arg(long)]
    dry_run: bool,
    /// With --out-dir: make it a complete mirror of the input tree; files that are refused or
    /// have no number are copied unchanged (and reported with "copied": true).
    #[arg(long, requires = "out_dir")]
    mirror: bool,
    /// Exit non-zero when any file is refused (encrypted, damaged, certified), not only when
    /// one fails.
    #[arg(long)]
    strict: bool,
    /// Passed to every inject: update certified files and replace unparsable XMP packets.
    #[arg(long)]
    force: bool,
    /// Passed to every inject: a file refused as damaged gets its cross-reference table rebuilt
    /// by a scan and an append-only update with a complete section (see pith inject --repair).
    #[arg(long)]
    repair: bool,
    /// arXiv bulk metadata (snapshot JSON Lines or OAI-PMH arXivRaw pages, compressed or not):
    /// each PDF's number comes from the entry of the arXiv id in its name
    /// (2402.03791v3.pdf, hep-th9901001v1.pdf, hep-th/9901001v1.pdf) or in the manifest's
    /// "arxiv_id" column (issue 14).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    arxiv_metadata: Vec<PathBuf>,
    /// With --arxiv-metadata: also inject into PDFs that are not the latest version (the number
    /// is the latest version's, the only one the paper has).
    #[arg(long, requires = "arxiv_metadata")]
    arxiv_any_version: bool,
    /// With --arxiv-metadata: write the ids of metadata entries that matched no PDF here.
    #[arg(long, value_name = "FILE", requires = "arxiv_metadata")]
    arxiv_unmatched: Option<PathBuf>,
    #[command(flatten)]
    stamp: super::inject::StampArgs,
}

fn load_jobs(args: &Args) -> Result<(Vec<Job>, Vec<PathBuf>)> {
    if let Some(m) = &args.manifest {
        let text = read_text(m)?;
        let base = match (&args.root, m.parent()) {
            (Some(r), _) => r.clone(),
            (None, Some(p)) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        return Ok((batch::read_manifest(m, &text, &base)?, Vec::new()));
    }
    let dir = args
        .dir
        .as_ref()
        .expect("clap requires --manifest or --dir");
    Ok(batch::discover(dir)?)
}

/// `--arxiv-metadata`: the jobs of the matched PDFs and the outcomes of the others.
fn arxiv_plan(args: &Args) -> Result<super::arxiv::Plan> {
    let manifest = args.manifest.as_deref().map(|m| {
        let base = match (&args.root, m.parent()) {
            (Some(r), _) => r.clone(),
            (None, Some(p)) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        (m, base)
    });
    super::arxiv::ArxivBatch {
        metadata: &args.arxiv_metadata,
        dir: args.dir.as_deref(),
        manifest,
        any_version: args.arxiv_any_version,
        unmatched: args.arxiv_unmatched.as_deref(),
        jobs: args.jobs,
    }
    .plan()
}

/// A report line for `pdf` before anything is done: failed, sizes of the input.
fn outcome(pdf: &Path) -> FileOutcome {
    let size = std::fs::metadata(pdf).map(|m| m.len()).unwrap_or(0);
    FileOutcome {
        pdf: pdf.to_owned(),
        out: None,
        status: Status::Failed,
        reason: None,
        number: None,
        copied: false,
        bytes_before: size,
        bytes_after: size,
        ms: 0,
    }
}

/// Processes one job: resolve the number, pick the target, inject; with `--mirror`, a file
/// that is not updated is copied unchanged. A new output file is staged in `group`, whose
/// commit puts it in place ([`batch::run`]).
fn process(job: &Job, args: &Args, opts: &pith::pdf::Options, group: &mut Group) -> FileOutcome {
    let mut o = inject_one(job, args, opts, group);
    if args.mirror && matches!(o.status, Status::Refused | Status::Failed) {
        mirror_copy(&mut o, args.out_dir.as_deref(), &job.relative);
    }
    o
}

/// Copies `o.pdf` unchanged to its place under `out_dir` (a complete mirror), unless the
/// place is outside it or is the input itself.
fn mirror_copy(o: &mut FileOutcome, out_dir: Option<&Path>, relative: &Path) {
    let Some(dir) = out_dir else { return };
    if relative
        .components()
        .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return;
    }
    let dst = dir.join(relative);
    if super::fsutil::same_file(&dst, &o.pdf) {
        return;
    }
    let copied = dst
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| std::fs::read(&o.pdf))
        .map_err(anyhow::Error::from)
        .and_then(|bytes| super::fsutil::write_atomic(&dst, &bytes));
    match copied {
        Ok(()) => {
            o.copied = true;
            o.out = Some(dst);
        }
        Err(e) => {
            let r = o.reason.take().unwrap_or_default();
            o.reason = Some(super::one_line(&format!(
                "{r}; copying it unchanged failed: {e:#}"
            )));
        }
    }
}

/// The directories `create_dir_all(dir)` would create, deepest first.
fn missing_dirs(dir: &Path) -> Vec<PathBuf> {
    dir.ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_owned)
        .collect()
}

fn inject_one(job: &Job, args: &Args, opts: &pith::pdf::Options, group: &mut Group) -> FileOutcome {
    let mut o = outcome(&job.pdf);
    let out_path = job
        .out
        .clone()
        .or_else(|| args.out_dir.as_ref().map(|d| d.join(&job.relative)));
    // Every line says where the result goes, and the number once it is known (issue #15).
    o.out = Some(out_path.clone().unwrap_or_else(|| job.pdf.clone()));
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
        o.out = None;
        o.reason = Some(format!(
            "{}: the path leaves --out-dir (\"..\"); give an explicit \"out\" for it",
            job.pdf.display()
        ));
        return o;
    }
    // The input is never modified except with --in-place (issue #7): an output that is the
    // input itself (--out-dir the input's directory, or "out" naming it) is refused.
    if let Some(p) = &out_path {
        if super::fsutil::same_file(p, &job.pdf) {
            o.status = Status::Refused;
            o.reason = Some(format!(
                "{}: the output is the input itself; use --in-place to update it",
                job.pdf.display()
            ));
            return o;
        }
    }
    let mut created = Vec::new();
    if let Some(p) = &out_path {
        // Restartable: an output that already carries this number is done.
        // (An output with the number but without the stamp asked for is not done.)
        if let Some(done) = already_done(p, &number).filter(|_| opts.stamp.is_none()) {
            o.status = Status::Unchanged;
            o.bytes_after = done;
            o.reason = Some(format!("{} already carries {}", p.display(), number.full()));
            return o;
        }
        if let Err(e) = super::check_clobber(p) {
            o.status = Status::Refused;
            o.reason = Some(e.to_string());
            return o;
        }
        if args.dry_run {
            o.status = Status::Planned;
            return o;
        }
        if let Some(parent) = p.parent() {
            created = missing_dirs(parent);
            if let Err(e) = std::fs::create_dir_all(parent) {
                o.reason = Some(format!(
                    "{}: cannot create directory: {e}",
                    parent.display()
                ));
                return o;
            }
        }
    } else if args.dry_run {
        o.status = Status::Planned;
        return o;
    }
    let applied = match &out_path {
        // "out": "-" is standard output, as for pith inject.
        Some(p) if p.as_os_str() == "-" => apply::apply(&job.pdf, Target::File(p), &number, opts),
        Some(p) => apply::apply_staged(&job.pdf, p, group, &number, opts).inspect(|_| {
            // The entries of the directories made for it must survive a crash too.
            for d in &created {
                if let Some(parent) = d.parent().filter(|p| !p.as_os_str().is_empty()) {
                    group.sync_dir(parent);
                }
            }
        }),
        None => apply::apply(&job.pdf, Target::InPlace, &number, opts),
    };
    match applied {
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
            o.reason = Some(super::one_line(&reason(&e, args.force, args.repair)));
            // Nothing was written: the directories made for the output go again (issue #15:
            // a refused file left an empty folder), deepest first, only while empty.
            for d in &created {
                if std::fs::remove_dir(d).is_err() {
                    break;
                }
            }
        }
    }
    o
}

/// The report's reason for a library error, with the remedy worded for `pith batch`, which
/// has no `--rewrite` (issue #15: the reason said "use --rewrite to repair").
fn reason(e: &anyhow::Error, force: bool, repair: bool) -> String {
    let Some(h) = e.chain().find_map(|c| c.downcast_ref::<apply::Hinted>()) else {
        return format!("{e:#}");
    };
    let err = h.error();
    let hint = match err.kind() {
        pith::pdf::ErrorKind::Damaged(_) if repair => {
            "; --repair could not rebuild it, pith inject --rewrite may"
        }
        pith::pdf::ErrorKind::Damaged(_) => {
            "; rerun with --repair (append-only), or repair it with pith inject --rewrite"
        }
        pith::pdf::ErrorKind::Certified => {
            "; rerun with --force to update anyway, which invalidates the certification"
        }
        pith::pdf::ErrorKind::Xmp(_) if !force => "; rerun with --force to replace it",
        pith::pdf::ErrorKind::NoStampRoom => "; rerun without --stamp to write the metadata only",
        _ => "",
    };
    let mut text = format!("{err}{hint}");
    let mut cause = std::error::Error::source(err);
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
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

/// How a run ends on a terminal: one line with the totals (issue #15).
fn summary_line(s: &batch::Summary, report: Option<&Path>) -> String {
    let mut parts = vec![format!("{} injected", s.injected)];
    for (n, what) in [
        (s.planned, "planned"),
        (s.unchanged, "unchanged"),
        (s.refused, "refused"),
        (s.failed, "failed"),
        (s.unmatched, "without a number"),
        (s.skipped, "not started"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    let mut line = format!(
        "pith: {} files: {} in {:.1} s",
        s.total,
        parts.join(", "),
        s.ms as f64 / 1000.0
    );
    if let Some(p) = report {
        line.push_str(&format!("; report in {}", p.display()));
    }
    line
}

/// Runs `pith batch`.
pub fn run(args: Args) -> Result<Outcome> {
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .context("--shard")?;
    let (mut jobs, orphans, mut decided) = match args.arxiv_metadata.is_empty() {
        true => {
            let (jobs, orphans) = load_jobs(&args)?;
            (jobs, orphans, Vec::new())
        }
        false => {
            let (jobs, decided) = arxiv_plan(&args)?;
            (jobs, Vec::new(), decided)
        }
    };
    if let Some(s) = shard {
        jobs.retain(|j| s.contains(j.index));
        decided.retain(|(i, _)| s.contains(*i));
    }
    if let Some(d) = &args.out_dir {
        if !args.dry_run {
            std::fs::create_dir_all(d)
                .with_context(|| format!("{}: cannot create", d.display()))?;
        }
    }
    // Twice the cores (issue #12): a worker also waits, for its group's syncs and for the
    // file system, and the others keep the cores busy meanwhile (741 small PDFs on 2 cores:
    // 0.26-0.35 s with 2 workers, 0.19-0.27 s with 4).
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| 2 * n.get()));
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C while files finish is ignored on purpose: stopping mid-file is what
        // the flag exists to avoid. SIGKILL still works and leaves files whole (see apply.rs).
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))
            .context("cannot install the Ctrl-C handler")?;
    }
    let report_path = args.report.as_deref().filter(|p| p.as_os_str() != "-");
    let report_to_stdout = report_path.is_none();
    let mut report: Box<dyn Write> = match report_path {
        Some(p) => Box::new(std::io::BufWriter::new(
            File::create(p)
                .with_context(|| format!("{}: cannot create the report", p.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let terminal = std::io::stderr().is_terminal() && !super::quiet();
    // The bar shares the terminal with nothing: not drawn when the report itself goes to the
    // terminal (issue #15: bar frames and JSON interleaved).
    let bar = if terminal && !(report_to_stdout && std::io::stdout().is_terminal()) {
        let b = indicatif::ProgressBar::new(jobs.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:20} {pos}/{len} files  {rate}  ETA {eta}  {wide_msg}",
            )
            .expect("valid template")
            .with_key(
                "rate",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}/s", s.per_sec());
                },
            ),
        );
        Some(b)
    } else {
        None
    };
    let mut opts = pith::pdf::Options::new(&apply::now());
    opts.force = args.force;
    opts.stamp = args.stamp.to_stamp();
    opts.repair = args.repair;
    let mut write_err = None;
    let mut emit = |o: &FileOutcome, report: &mut Box<dyn Write>| {
        if write_err.is_none() {
            if let Err(e) = serde_json::to_writer(&mut *report, o)
                .map_err(std::io::Error::from)
                .and_then(|_| report.write_all(b"\n"))
            {
                write_err = Some(e);
            }
        }
    };
    // PDFs a directory run found no number for are reported too (issue #15), and with
    // --mirror copied unchanged.
    let mut unmatched = Vec::new();
    for pdf in &orphans {
        let mut o = outcome(pdf);
        o.status = Status::Unmatched;
        o.reason = Some(format!(
            "{}: no NAME.pith, NAME.record.json or NAME.atom.xml beside it; left alone",
            pdf.display()
        ));
        if args.mirror && !args.dry_run {
            let dir = args.dir.as_deref().unwrap_or(Path::new("."));
            let rel = pdf.strip_prefix(dir).unwrap_or(pdf).to_owned();
            mirror_copy(&mut o, args.out_dir.as_deref(), &rel);
        }
        emit(&o, &mut report);
        unmatched.push(o);
    }
    // --arxiv-metadata: PDFs skipped (older versions), without an entry, or with an unusable
    // one are reported before the run (issue 14).
    for (_, o) in decided {
        emit(&o, &mut report);
        unmatched.push(o);
    }
    let mut summary = batch::run(
        &jobs,
        threads,
        &stop,
        |j, group| process(j, &args, &opts, group),
        |o| {
            if let Some(b) = &bar {
                b.inc(1);
                if matches!(o.status, Status::Failed | Status::Refused) {
                    b.set_message(format!("{} not done", o.pdf.display()));
                }
            }
            if super::verbose(1) && !super::quiet() {
                let what = serde_json::to_value(o.status).unwrap_or_default();
                let line = format!(
                    "{} {}{}",
                    what.as_str().unwrap_or("?"),
                    o.pdf.display(),
                    o.reason
                        .as_deref()
                        .map(|r| format!(" ({r})"))
                        .unwrap_or_default()
                );
                match &bar {
                    Some(b) => b.println(format!("pith: {line}")),
                    None => eprintln!("pith: {line}"),
                }
            }
            emit(o, &mut report);
        },
    );
    for o in &unmatched {
        summary.total += 1;
        summary.add(o);
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_err {
        return Err(e).context("cannot write the report");
    }
    serde_json::to_writer(&mut report, &summary)?;
    report.write_all(b"\n")?;
    report.flush()?;
    if terminal {
        eprintln!("{}", summary_line(&summary, report_path));
    }
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
