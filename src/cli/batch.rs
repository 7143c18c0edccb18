//! `pith batch`: inject numbers into many PDFs in parallel, with a JSON Lines report.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use pith::job::{self, ItemReport, Status};

use super::Outcome;

/// Arguments of `pith batch`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Manifest lines (JSON Lines, paths relative to the manifest's directory or --root):\n  \
    {\"pdf\": \"2402/2402.03791v3.pdf\", \"arxiv_atom\": \"2402/2402.03791v3.atom.xml\"}\n  \
    {\"pdf\": \"a.pdf\", \"number\": \"pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\", \"out\": \"done/a.pdf\"}\n  \
    {\"pdf\": \"b.pdf\", \"record\": \"b.record.json\"}\n\
    With --dir, each NAME.pdf takes its number from NAME.pith (one number in any form --number\n\
    takes: a bare code or record URL gets its year from the resolver; whitespace and case\n\
    tolerated), NAME.record.json or NAME.atom.xml; several sidecars must agree.\n\n\
    Examples:\n  \
    pith batch --dir papers/ --out-dir numbered/ --report report.jsonl\n  \
    pith batch --manifest jobs.jsonl --in-place -j 8 --shard 0/4\n  \
    pith batch --dir pdfs/ --arxiv-metadata arxiv-metadata-oai-snapshot.json.gz --out-dir numbered/\n  \
    pith batch --dir papers/ --out-dir numbered/ --check"
)]
pub struct Args {
    /// A JSON Lines manifest: one object per PDF with "pdf" and one of "number", "record",
    /// "arxiv_atom"; optional "out".
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// A directory tree of PDFs whose numbers come from sidecar files (NAME.pith,
    /// NAME.record.json or NAME.atom.xml beside NAME.pdf).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Base directory for relative manifest paths (default: the manifest's directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Write updated files into a mirror tree under DIR (inputs are never modified).
    #[arg(long, value_name = "DIR")]
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
    /// The report is JSON Lines already (one line per file, then the summary); with --json an
    /// error that stops the run is also printed as a JSON object on standard output.
    #[arg(long)]
    pub(super) json: bool,
    /// Resolve every number and output path and report what would happen ("planned"),
    /// writing nothing.
    #[arg(long)]
    dry_run: bool,
    /// With --out-dir: make it a complete mirror of the input tree; files that are refused or
    /// have no number are copied unchanged (and reported with "copied": true).
    #[arg(long)]
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
    /// "arxiv_id" column.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    arxiv_metadata: Vec<PathBuf>,
    /// With --arxiv-metadata: also inject into PDFs that are not the latest version (the number
    /// is the latest version's, the only one the paper has).
    #[arg(long)]
    arxiv_any_version: bool,
    /// With --arxiv-metadata: write the ids of metadata entries that matched no PDF here.
    #[arg(long, value_name = "FILE")]
    arxiv_unmatched: Option<PathBuf>,
    /// Change nothing: check that every output (the input itself with --in-place) carries
    /// the number its input assigns; one report line per file (matches, differs, missing);
    /// exit 1 naming the files that differ or lack it.
    #[arg(long)]
    check: bool,
    /// Stop any one file (or tar member) after SECS seconds: it is reported failed (kind
    /// over_time), nothing is written for it, and the run goes on; 0 for no bound.
    #[arg(long, value_name = "SECS", help = format!(
        "Stop any one file (or tar member) after SECS seconds: it is reported failed (kind \
         over_time), nothing is written for it, and the run goes on; 0 for no bound \
         [default: {}]",
        job::defaults::FILE_TIMEOUT_SECS
    ))]
    file_timeout: Option<f64>,
    /// Also write every PDF's references here as it is read: the JSON Lines pith refs writes
    /// (the arXiv ids and DOIs its reference list cites, with page and line), read before the
    /// file is updated; with --tar each member is named as in the tar. A PDF whose citing paper
    /// nothing names gets none (as pith refs refuses it), and its report line says why.
    #[arg(long, value_name = "FILE")]
    refs: Option<PathBuf>,
    #[command(flatten)]
    stamp: super::inject::StampArgs,
    #[command(flatten)]
    tar: super::tar::TarArgs,
}

/// How a run ends on a terminal: one line with the totals.
fn summary_line(s: &job::item::Summary, report: Option<&Path>) -> String {
    let mut parts = match s.matches.or(s.differs).or(s.missing) {
        Some(_) => vec![format!("{} carry their number", s.matches.unwrap_or(0))],
        None => vec![format!("{} injected", s.injected)],
    };
    for (n, what) in [
        (s.differs.unwrap_or(0), "carry another number"),
        (s.missing.unwrap_or(0), "missing or without a number"),
        (s.replaced, "replaced a different number"),
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

impl Args {
    /// The request these arguments make, nothing decided: the library fills what is left
    /// out, checks what goes together and says which run it is.
    fn request(&self, ui: super::Ui) -> Result<job::run::BatchRequest> {
        Ok(job::run::BatchRequest {
            dir: self.dir.clone(),
            manifest: self.manifest.clone(),
            root: self.root.clone(),
            arxiv_metadata: self.arxiv_metadata.clone(),
            any_version: self.arxiv_any_version,
            unmatched: self.arxiv_unmatched.clone(),
            shard: self.shard.clone(),
            out_dir: self.out_dir.clone(),
            in_place: self.in_place,
            dry_run: self.dry_run,
            mirror: self.mirror,
            check: self.check,
            strict: self.strict,
            jobs: self.jobs,
            report: self.report.clone(),
            refs: self.refs.clone(),
            update: super::inject::update_request(
                self.force,
                self.repair,
                None,
                &self.stamp,
                self.file_timeout,
            )?,
            no_clobber: ui.no_clobber(),
            tar: self.tar.request(),
        })
    }
}

/// How to say where the outputs go with this command's flags.
const WHERE: &str =
    "; give --out-dir DIR for numbered copies, or --in-place to update the files themselves";

/// The library's refusal, where the outputs go said with this command's flags.
fn where_hint(e: job::Error) -> anyhow::Error {
    let about_where = matches!(e.kind(), job::ErrorKind::Placement(_));
    super::hint::with(e, if about_where { WHERE } else { "" })
}

/// Ctrl-C and SIGTERM set the flag the run polls: the files in flight are stopped where
/// they are (nothing is written for them; they are reported `skipped`) and no other starts.
fn stop_flag() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    // A second Ctrl-C changes nothing: the run ends within moments, and ending it earlier
    // would lose the report's summary. SIGKILL still works and leaves files whole and every
    // finished line in the report.
    ctrlc::set_handler(move || s.store(true, Ordering::SeqCst))
        .context("cannot install the Ctrl-C handler")?;
    Ok(stop)
}

/// The progress bar on standard error, when it shares the terminal with nothing.
fn progress_bar(report_to_stdout: bool, ui: super::Ui) -> Option<indicatif::ProgressBar> {
    let terminal = std::io::stderr().is_terminal() && !ui.quiet();
    if !terminal || (report_to_stdout && std::io::stdout().is_terminal()) {
        return None;
    }
    let b = indicatif::ProgressBar::new(0);
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
}

/// The run's progress as the CLI shows it: report lines (with the command line's hints), the
/// bar, and notes on standard error.
struct Reporter {
    report: Box<dyn Write>,
    write_err: Option<std::io::Error>,
    bar: Option<indicatif::ProgressBar>,
    /// The settings whose hints a refused file's reason gets.
    settings: job::Settings,
    /// Set by Ctrl-C.
    stop: Arc<AtomicBool>,
    ui: super::Ui,
}

impl Reporter {
    fn say(&self, line: String) {
        match &self.bar {
            Some(b) => b.println(line),
            None => super::errln!("{line}"),
        }
    }
}

impl job::progress::Progress<ItemReport> for Reporter {
    fn start(&mut self, total: usize) {
        if let Some(b) = &self.bar {
            b.set_length(total as u64);
        }
    }

    fn line(&mut self, line: &ItemReport) {
        let mut o = line.clone();
        super::hint::add_batch_hint(o.refusal, &mut o.reason, &self.settings);
        if let Some(b) = &self.bar {
            b.inc(1);
            if matches!(o.status, Status::Failed | Status::Refused) {
                b.set_message(format!("{} not done", o.pdf.display()));
            }
        }
        if let Some(old) = o.replaced.as_deref().filter(|_| !self.ui.quiet()) {
            let n = o.number.as_deref().unwrap_or("?");
            self.say(format!(
                "pith: {}: replaced {n} (was {old})",
                o.pdf.display()
            ));
        }
        if self.ui.verbose(1) && !self.ui.quiet() {
            let why = o.reason.as_deref().map(|r| format!(" ({r})"));
            let why = why.unwrap_or_default();
            self.say(format!("pith: {} {}{why}", o.status, o.pdf.display()));
        }
        if self.write_err.is_none() {
            // Each line is flushed as its file is done: a run killed at any moment leaves
            // every finished line in the report.
            let r = serde_json::to_writer(&mut self.report, &o)
                .map_err(std::io::Error::from)
                .and_then(|_| self.report.write_all(b"\n"))
                .and_then(|_| self.report.flush());
            self.write_err = r.err();
        }
    }

    fn note(&mut self, n: &job::progress::Notice) {
        self.say(format!("pith: {}", super::one_line(&n.to_string())));
    }

    fn stopped(&mut self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// Runs `pith batch`: the run of PDFs or the tar run the library plans from the request.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let req = args.request(ui)?;
    match req.tar_plan().map_err(where_hint)? {
        Some(plan) => super::tar::run(&req, plan, ui),
        None => run_files(&req, ui),
    }
}

/// A run of PDFs: its inputs read by the library (the metadata pass's notices and its counts
/// on standard error), every line to the report as its file is done, then the summary.
fn run_files(req: &job::run::BatchRequest, ui: super::Ui) -> Result<Outcome> {
    let stop = stop_flag()?;
    let prepared =
        req.prepare(&mut |r| super::errln!("pith: {}", super::one_line(&r.to_string())))?;
    if let Some(a) = &prepared.arxiv {
        super::arxiv::note_pass(a, ui);
    }
    let to = req.report_to();
    let mut reporter = Reporter {
        report: to.open()?,
        write_err: None,
        bar: progress_bar(to == job::run::ReportTo::Stdout, ui),
        settings: prepared.run.settings.clone(),
        stop,
        ui,
    };
    let done = job::run::run(prepared.run, &mut reporter)?;
    let report_path = match to {
        job::run::ReportTo::File(p) => Some(p),
        _ => None,
    };
    finish(req.strict, reporter, &done, report_path)
}

/// Ends the report with its summary and says how the run ended.
fn finish(
    strict: bool,
    mut reporter: Reporter,
    done: &job::run::RunReport,
    report_path: Option<&Path>,
) -> Result<Outcome> {
    let summary = &done.summary;
    if let Some(b) = reporter.bar.take() {
        b.finish_and_clear();
    }
    if let Some(e) = reporter.write_err.take() {
        return Err(e).context("cannot write the report");
    }
    serde_json::to_writer(&mut reporter.report, summary)?;
    reporter.report.write_all(b"\n")?;
    reporter.report.flush()?;
    if std::io::stderr().is_terminal() && !reporter.ui.quiet() {
        super::errln!("{}", summary_line(summary, report_path));
    }
    match done.end(strict) {
        job::run::End::Ok => Ok(Outcome::Ok),
        job::run::End::Differs => {
            const SHOWN: usize = 20;
            let bad: Vec<String> = done
                .differ
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            let more = bad.len().saturating_sub(SHOWN);
            super::errln!(
                "pith: {} of {} files do not carry their number: {}{}",
                bad.len(),
                summary.total,
                bad[..bad.len().min(SHOWN)].join(", "),
                if more > 0 {
                    format!(" and {more} more (see the report)")
                } else {
                    String::new()
                }
            );
            Ok(Outcome::Mismatch)
        }
        job::run::End::Interrupted => bail!(
            "interrupted: {} files done, {} not started (rerun the same command to continue)",
            summary.injected + summary.unchanged + summary.refused + summary.failed,
            summary.skipped
        ),
        job::run::End::Failed => bail!(
            "{} failed, {} refused of {} files (see the report)",
            summary.failed,
            summary.refused,
            summary.total
        ),
    }
}
