//! `pith batch --tar/--tar-dir`: the flags, and the report lines printed. Which run, and
//! what it needs, is the library's plan ([`pith::job::run::TarPlan`], its run made ready by
//! [`pith::job::run::BatchRequest::tar_run`]); the runs are [`pith::job::tar::run`].

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use pith::job::progress::{Notice, Progress};
use pith::job::run::{BatchRequest, ReportTo, TarPlan, TarRun};
use pith::job::tar::request::TarRequest;
use pith::job::tar::run::{TarInput, TarLine, TarOutput};
use pith::job::tar::{self, Totals};

use super::Outcome;

/// The flags of `pith batch` for tar archives, flattened into its arguments.
#[derive(Debug, clap::Args)]
pub struct TarArgs {
    /// Stream a tar of PDFs (an arXiv bulk tar, "-" for standard input) to --out-tar: each PDF
    /// member named by arXiv id (YYMM/2402.03791v3.pdf, YYMM/hep-th0001001v1.pdf) gets the
    /// number of its --arxiv-metadata entry; every other member is copied byte for byte.
    #[arg(long, value_name = "FILE")]
    pub tar: Option<PathBuf>,
    /// Where --tar's updated tar goes ("-" for standard output); written whole, then renamed
    /// into place.
    #[arg(long, value_name = "FILE")]
    pub out_tar: Option<PathBuf>,
    /// A directory holding the tars --arxiv-manifest lists: each tar of the --shard is
    /// written under its own name to --out-dir with its report NAME.jsonl, and the output
    /// manifest arXiv_pdf_manifest.xml beside them; tars already done there are skipped.
    #[arg(long, value_name = "DIR")]
    pub tar_dir: Option<PathBuf>,
    /// arXiv's arXiv_pdf_manifest.xml: each tar's md5 and size are checked while it is read
    /// (a mismatch leaves no output file; on standard output it exits 2), and a tar it does
    /// not list is refused.
    #[arg(long, value_name = "FILE")]
    pub arxiv_manifest: Option<PathBuf>,
    /// With --arxiv-manifest: process a tar it does not list too.
    #[arg(long)]
    pub any_tar: bool,
    /// The file name of the tar read from standard input (arXiv_pdf_2402_001.tar), to find
    /// its manifest entry; without it the entry is found by the tar's md5 and size.
    #[arg(long, value_name = "NAME")]
    pub tar_name: Option<String>,
    /// Where members larger than 16 MiB are spooled while they are updated, for a tar read
    /// through (standard input, or with --arxiv-manifest); a tar named by its path is read
    /// where it lies (default: the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    pub spool_dir: Option<PathBuf>,
}

impl TarArgs {
    /// The tar options as given, for the library's request: it decides what they need and
    /// which run they make ([`pith::job::run::BatchRequest::tar_plan`]).
    pub fn request(&self) -> TarRequest {
        TarRequest {
            tar: self.tar.clone(),
            out_tar: self.out_tar.clone(),
            tar_dir: self.tar_dir.clone(),
            arxiv_manifest: self.arxiv_manifest.clone(),
            any_tar: self.any_tar,
            tar_name: self.tar_name.clone(),
            spool_dir: self.spool_dir.clone(),
        }
    }
}

/// Runs `pith batch --tar` or `--tar-dir`: the run the library planned from the request.
pub fn run(req: &BatchRequest, plan: TarPlan<'_>, ui: super::Ui) -> Result<Outcome> {
    // Ctrl-C or SIGTERM: stop before the next member; the output file is then not written
    // (its temporary file is removed), and a --tar-dir run starts no further tar. A second one
    // exits at once (a pipe that stalls never reaches the next member).
    // The run's own token stops the members being updated at once.
    let stop = Arc::new(AtomicBool::new(false));
    let run_stop = pith::pdf::Stop::new();
    {
        let (stop, run_stop) = (stop.clone(), run_stop.clone());
        ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            run_stop.cancel();
        })
        .context("cannot install the Ctrl-C handler")?;
    }
    let run = req.tar_run(run_stop).map_err(|e| {
        super::hint::hinted(
            e,
            &pith::job::Settings::default(),
            false,
            super::hint::By::Reader,
        )
    })?;
    let lines = Lines {
        report: req.report_to().open()?,
        kept: !req.report_to().discards(),
        write_err: None,
        settings: None,
        terminal: std::io::stderr().is_terminal() && !ui.quiet(),
        stop,
        ui,
    };
    let done = match plan {
        TarPlan::Dir {
            dir,
            out_dir,
            shard,
        } => run_dir(&run, lines, dir, out_dir, shard, req.report_to()),
        TarPlan::One {
            input,
            output,
            name,
        } => run_one(&run, lines, (input, name), output, req.report_to()),
    };
    let written = run.finish();
    let outcome = done?;
    written?;
    Ok(outcome)
}

/// arXiv metadata's notes, on standard error.
fn on_note(r: &Notice, ui: super::Ui) {
    if !ui.quiet() {
        super::errln!("pith: {}", super::one_line(&r.to_string()));
    }
}

/// A tar run's progress as the CLI shows it: report lines (members with the command line's
/// hints, or tars, also on a terminal), notes on standard error, and Ctrl-C.
struct Lines<'a> {
    report: Box<dyn Write>,
    write_err: Option<std::io::Error>,
    /// `--tar`: the settings whose hints a refused member's reason gets.
    settings: Option<&'a pith::job::Settings>,
    /// `--tar-dir`: each tar's line also on standard error.
    terminal: bool,
    stop: Arc<AtomicBool>,
    ui: super::Ui,
    /// Whether the report goes somewhere (not to the null device).
    kept: bool,
}

impl Progress<tar::MemberReport> for Lines<'_> {
    fn line(&mut self, m: &tar::MemberReport) {
        let mut m = m.clone();
        if let Some(s) = self.settings {
            super::hint::add_batch_hint(m.refusal, &mut m.reason, s);
        }
        json_line(&mut self.report, &m, &mut self.write_err);
    }

    fn note(&mut self, n: &Notice) {
        on_note(n, self.ui);
    }

    fn stopped(&mut self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn keeps_lines(&self) -> bool {
        self.kept
    }
}

impl Progress<TarLine> for Lines<'_> {
    fn line(&mut self, line: &TarLine) {
        if self.terminal {
            super::errln!(
                "pith: {} {}{}",
                serde_json::to_value(line.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                line.tar,
                line.reason
                    .as_deref()
                    .map(|r| format!(" ({})", super::one_line(r)))
                    .unwrap_or_default()
            );
        }
        json_line(&mut self.report, line, &mut self.write_err);
    }

    fn note(&mut self, n: &Notice) {
        on_note(n, self.ui);
    }

    fn stopped(&mut self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// `--tar-dir`: every tar of a folder, each to the output folder with its report.
fn run_dir(
    run: &TarRun,
    mut lines: Lines<'_>,
    dir: &Path,
    out_dir: &Path,
    shard: Option<pith::batch::Shard>,
    to: ReportTo<'_>,
) -> Result<Outcome> {
    let summary = tar::run::run_dir(&run.request(), dir, out_dir, shard, &mut lines);
    let Lines {
        mut report,
        mut write_err,
        ..
    } = lines;
    let summary = summary.inspect_err(|_| discard_empty_report(&mut report, to))?;
    json_line(&mut report, &summary, &mut write_err);
    if let Some(e) = write_err {
        return Err(e).context(cannot_write(to));
    }
    report.flush().context(cannot_write(to))?;
    if summary.interrupted {
        bail!(
            "interrupted: {} of {} tars done, the others not started (rerun the same command to continue)",
            summary.done + summary.skipped,
            summary.total
        );
    }
    if summary.failed > 0 {
        bail!(
            "{} of {} tars failed (see the report); run the same command again for them",
            summary.failed,
            summary.total
        );
    }
    if summary.failed_members > 0 {
        // The tars are whole; some PDFs got no number (exit 1, as for "no number").
        super::errln!(
            "pith: {} members got no number (copied unchanged; see the reports)",
            summary.failed_members
        );
        return Ok(Outcome::Mismatch);
    }
    Ok(Outcome::Ok)
}

/// `--tar`: one tar (a file, or standard input with its name) to `--out-tar` (a file, or
/// standard output).
fn run_one(
    run: &TarRun,
    lines: Lines<'_>,
    (input, name): (Option<&Path>, Option<&str>),
    output: Option<&Path>,
    to: ReportTo<'_>,
) -> Result<Outcome> {
    // A refused member's reason gets the hints of the flags that get past it.
    let mut lines = Lines {
        settings: Some(run.settings()),
        terminal: false,
        ..lines
    };
    let terminal = std::io::stderr().is_terminal() && !lines.ui.quiet();
    let src = match input {
        Some(p) => TarInput::Path(p),
        None => TarInput::Reader(Box::new(std::io::stdin()), name),
    };
    let sink = match output {
        Some(p) => TarOutput::Path(p),
        None => TarOutput::Stdout,
    };
    let totals: Result<Totals, _> = tar::run::run_one(&run.request(), src, sink, &mut lines);
    let totals = end_report(lines, totals, to)?;
    Ok(end_one(&totals, terminal))
}

/// Ends a run of one tar's report with its totals, also when it was interrupted (its
/// partial totals, as a directory run's report ends with its summary); a report still empty
/// after a failed run is removed.
fn end_report(
    lines: Lines<'_>,
    totals: Result<Totals, tar::Error>,
    to: ReportTo<'_>,
) -> Result<Totals> {
    let Lines {
        mut report,
        mut write_err,
        ..
    } = lines;
    let totals = match totals {
        Ok(t) => t,
        Err(e) => {
            if let Some(t) = e.partial() {
                json_line(&mut report, t, &mut write_err);
            }
            discard_empty_report(&mut report, to);
            return Err(e.into());
        }
    };
    json_line(&mut report, &totals, &mut write_err);
    if let Some(e) = write_err {
        return Err(e).context(cannot_write(to));
    }
    report.flush().context(cannot_write(to))?;
    Ok(totals)
}

/// What a run of one tar says at its end, and its exit.
fn end_one(totals: &Totals, terminal: bool) -> Outcome {
    let s = &totals.summary;
    if terminal {
        super::errln!(
            "pith: {}: {} PDFs injected, {} unchanged, {} refused, {} failed, {} copied as they were, of {} members in {:.1} s",
            totals.tar,
            s.injected,
            s.unchanged,
            s.refused,
            s.failed,
            s.unmatched + s.skipped,
            s.total,
            s.ms as f64 / 1000.0
        );
    }
    if s.failed > 0 {
        // The tar is whole; some PDFs got no number (exit 1, as for "no number").
        super::errln!(
            "pith: {} of {} members got no number (copied unchanged; see the report)",
            s.failed,
            s.total
        );
        return Outcome::Mismatch;
    }
    Outcome::Ok
}

/// The error line's start when the report cannot be written: the report's file, or the
/// standard stream it goes to ([`BatchRequest::report_to`]).
fn cannot_write(to: ReportTo<'_>) -> String {
    match to {
        ReportTo::File(p) => format!("{}: cannot write the report", p.display()),
        ReportTo::Stderr => "cannot write the report to standard error".to_owned(),
        ReportTo::Stdout => "cannot write the report to standard output".to_owned(),
    }
}

/// After a failed run: writes out what the report holds, and removes the report file if it is
/// still empty (the run failed before its first line), so that no empty report is left behind.
/// The file is created before the run, to refuse an unwritable one before any work.
fn discard_empty_report(w: &mut Box<dyn Write>, to: ReportTo<'_>) {
    let _ = w.flush();
    if let ReportTo::File(p) = to {
        if std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() == 0) {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn json_line(w: &mut Box<dyn Write>, v: &impl serde::Serialize, err: &mut Option<std::io::Error>) {
    if err.is_some() {
        return;
    }
    // Each line is flushed as it is written: a run killed at any moment leaves every
    // finished line in the report.
    if let Err(e) = serde_json::to_writer(&mut *w, v)
        .map_err(std::io::Error::from)
        .and_then(|_| w.write_all(b"\n"))
        .and_then(|_| w.flush())
    {
        *err = Some(e);
    }
}
