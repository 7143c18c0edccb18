//! `pith inject`: arguments into a [`pith::job::InjectRequest`], its report into text or JSON.
//! Every decision (same file, folder, rewrite-then-stamp, replaced numbers) is the job's.

use std::path::PathBuf;

use anyhow::Result;
use pith::job::pdf_input::PdfInput;
use pith::job::update::UpdateRequest;
use pith::job::{self, InjectReport, InjectRequest, Settings, Status};

use super::hint::{hinted, By};
use super::input::NumberInput;
use super::Outcome;

/// Arguments of `pith inject`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith inject paper.pdf --number pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o numbered.pdf\n  \
    pith inject --in-place --arxiv-atom paper.atom.xml paper.pdf\n  \
    pith inject paper.pdf --record paper.record.json --stamp --stamp-position top -o stamped.pdf\n  \
    cat paper.pdf | pith inject - --number pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o - > numbered.pdf")]
pub struct Args {
    /// The PDF to update ("-" reads standard input; then give -o).
    #[arg(value_name = "IN.pdf")]
    pub input: PathBuf,
    #[command(flatten)]
    pub number: NumberInput,
    /// Where to write the updated PDF (through a temporary file and an atomic rename).
    #[arg(short, long, value_name = "OUT.pdf")]
    pub output: Option<PathBuf>,
    /// Update IN.pdf itself: the update is appended under a lock in three synced steps. Until
    /// the last one (a single-sector write of the new startxref) readers see the original
    /// document and pith treats the appended bytes as uncommitted: the next --in-place run
    /// removes them first, restoring the original byte for byte. After it, the updated one.
    /// See SECURITY.md, "Crash safety of writes".
    #[arg(long)]
    pub in_place: bool,
    /// Write a full rewrite instead of an incremental update (compacts the file, repairs a
    /// damaged cross-reference table, breaks signatures).
    #[arg(long)]
    pub rewrite: bool,
    /// When IN.pdf is refused as damaged (a broken cross-reference table: shifted offsets,
    /// missing startxref, truncated file), rebuild the table by scanning for objects (the
    /// last definition of an object wins, as in readers) and append the update with a
    /// complete cross-reference section: the original bytes stay a byte-identical prefix and
    /// readers no longer need to reconstruct. A file that is not damaged is updated as
    /// without it. Encrypted damaged files stay refused.
    #[arg(long)]
    pub repair: bool,
    /// Update certified files that forbid changes, and replace an unparsable XMP packet.
    #[arg(long)]
    pub force: bool,
    /// Work out the update and report it ("planned"), writing nothing (-o and --in-place
    /// may be left out).
    #[arg(long)]
    pub dry_run: bool,
    /// Print the report as one JSON object: input, output, status (injected, unchanged,
    /// rewritten, planned), number, url, replaced, bytes_before, bytes_after, written,
    /// replaced_xmp, notes (see docs/reports.md).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub password: super::password::Password,
    #[command(flatten)]
    pub stamp: StampArgs,
    #[command(flatten)]
    pub deadline: FileTimeout,
}

/// `--file-timeout` of the commands that update one PDF (`pith batch` has its own, per file).
#[derive(Debug, Clone, clap::Args)]
pub struct FileTimeout {
    /// Stop after SECS seconds on a file that costs more (refused with kind over_time,
    /// nothing written, the input untouched); 0 for no bound.
    #[arg(long, value_name = "SECS", help = file_timeout_help())]
    pub file_timeout: Option<f64>,
}

impl FileTimeout {
    /// The PDF `input` as the library's requests name it, with its password and this
    /// deadline, as given.
    pub fn pdf(
        &self,
        input: &std::path::Path,
        password: &super::password::Password,
    ) -> Result<PdfInput> {
        Ok(PdfInput {
            input: Some(input.to_owned()),
            file_timeout: self.file_timeout,
            password: password.bytes()?,
        })
    }
}

/// `--file-timeout`'s help, with the library's default.
pub fn file_timeout_help() -> String {
    format!(
        "Stop after SECS seconds on a file that costs more (refused with kind over_time, \
         nothing written, the input untouched); 0 for no bound [default: {}]",
        job::defaults::FILE_TIMEOUT_SECS
    )
}

/// The page-1 options of `pith inject` and `pith batch`: the stamp, and what to do with a
/// badge that shows another number. Each is passed on as given; the library's
/// [`UpdateRequest`](pith::job::update::UpdateRequest) fills the defaults and refuses a stamp
/// setting without the stamp.
#[derive(Debug, Clone, clap::Args)]
pub struct StampArgs {
    /// Also print the number on page 1 as real, selectable text with a link to its record
    /// (default: the short form, in the left margin like arXiv's identifier). Signed files are
    /// refused unless --force; a page whose badge already prints the number gets no stamp.
    #[arg(long)]
    pub stamp: bool,
    /// The old spelling of --stamp-form full.
    #[arg(long, hide = true)]
    pub stamp_full: bool,
    /// Which form of the number the stamp shows (with --stamp).
    #[arg(long, value_name = "FORM", value_parser = form_parser(), help = format!(
        "Which form of the number the stamp shows (with --stamp) [default: {}]",
        job::defaults::STAMP_FORM
    ))]
    pub stamp_form: Option<String>,
    /// Where the stamp goes on the page as displayed (with --stamp).
    #[arg(long, value_name = "WHERE", value_parser = position_parser(), help = format!(
        "Where the stamp goes on the page as displayed (with --stamp) [default: {}]",
        job::defaults::STAMP_POSITION
    ))]
    pub stamp_position: Option<String>,
    /// Font size of the stamp in points (with --stamp; it shrinks when it would not fit its
    /// margin).
    #[arg(long, value_name = "PT", help = format!(
        "Font size of the stamp in points (with --stamp; it shrinks when it would not fit its \
         margin) [default: {}]",
        job::defaults::STAMP_SIZE
    ))]
    pub stamp_size: Option<f64>,
    /// When page 1 prints another number (the badge pith.sty draws, a stamp, links to a
    /// record), redraw the badge in its box and point its links at the new record, in the same
    /// update; without it such a file is refused.
    #[arg(long)]
    pub replace: bool,
}

/// `--stamp-form`'s values, each shown with an example.
fn form_parser() -> clap::builder::PossibleValuesParser {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    PossibleValuesParser::new([
        PossibleValue::new("short").help("pith:7BMK4ZKT"),
        PossibleValue::new("full").help("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"),
    ])
}

/// `--stamp-position`'s values, each shown with where it puts the stamp.
fn position_parser() -> clap::builder::PossibleValuesParser {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    PossibleValuesParser::new([
        PossibleValue::new("left").help(
            "Left margin, reading bottom to top, in its lower quarter (clear of arXiv's stamp)",
        ),
        PossibleValue::new("right")
            .help("Right margin, reading top to bottom, in its lower quarter"),
        PossibleValue::new("top").help("Centred along the top edge"),
        PossibleValue::new("bottom").help("Centred along the bottom edge"),
    ])
}

/// Prints the report: text lines, or one JSON object with the keys of
/// [`pith::job::InjectReport`] (docs/reports.md). With the PDF on standard output it goes to
/// standard error; `--quiet` leaves the text out (errors only), never the JSON asked for.
fn report(args: &Args, r: &InjectReport, to_stdout: bool, ui: super::Ui) -> Result<()> {
    let mut lines = Vec::new();
    if args.json {
        lines.push(serde_json::to_string_pretty(r)?);
    } else {
        if ui.quiet() {
            return Ok(());
        }
        let out = &r.output;
        lines.push(match (r.status, &r.replaced) {
            // Written to another file all the same: say so, or the reader looks for a change.
            (Status::Unchanged, _) if r.output != r.input && !to_stdout => format!(
                "{out}: written, a copy of {} unchanged: it already carries {}",
                r.input, r.number
            ),
            (Status::Unchanged, _) => {
                format!("{}: unchanged, already carries {}", r.input, r.number)
            }
            (Status::Planned, Some(old)) => format!(
                "{out}: would replace {} (was {old}); nothing written (--dry-run)",
                r.number
            ),
            (Status::Planned, None) => format!(
                "{out}: would inject {} ({}); nothing written (--dry-run)",
                r.number, r.url
            ),
            (Status::Rewritten, Some(old)) => format!(
                "{out}: rewrote the whole file, replaced {} (was {old})",
                r.number
            ),
            (Status::Rewritten, None) => format!(
                "{out}: rewrote the whole file with {} ({})",
                r.number, r.url
            ),
            (_, Some(old)) => format!("{out}: replaced {} (was {old})", r.number),
            (_, None) => format!("{out}: injected {} ({})", r.number, r.url),
        });
        lines.extend(r.written.iter().map(|w| format!("  {w}")));
        lines.extend(r.notes.iter().map(|n| format!("  note: {n}")));
    }
    super::say(&lines, to_stdout)?;
    Ok(())
}

/// The update request of `pith inject` and `pith batch`, as given: the library fills the
/// defaults and refuses what does not hold together.
pub fn update_request(
    force: bool,
    repair: bool,
    password: Option<Vec<u8>>,
    stamp: &StampArgs,
    file_timeout: Option<f64>,
) -> Result<UpdateRequest> {
    Ok(UpdateRequest {
        force,
        repair,
        now: None,
        stamp: stamp.stamp,
        stamp_form: job::update::stamp_form(stamp.stamp_full, stamp.stamp_form.clone())?,
        stamp_position: stamp.stamp_position.clone(),
        stamp_size: stamp.stamp_size,
        replace: stamp.replace,
        file_timeout,
        password,
    })
}

impl Args {
    /// The request these arguments make, nothing decided: the library fills what is left out.
    pub fn request(&self, ui: super::Ui) -> Result<InjectRequest> {
        Ok(InjectRequest {
            pdf: self.deadline.pdf(&self.input, &self.password)?,
            output: self.output.clone(),
            in_place: self.in_place,
            rewrite: self.rewrite,
            dry_run: self.dry_run,
            update: update_request(self.force, self.repair, None, &self.stamp, None)?,
            no_clobber: ui.no_clobber(),
        })
    }
}

/// Runs `pith inject`.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let req = args.request(ui)?;
    // Where the result goes is said with this command's flags.
    req.destination()
        .map_err(|e| where_hinted(e, &req.pdf, By::Inject))?;
    req.validate()?;
    let settings = req.settings()?;
    let (number, details) = args.number.full_described(ui)?;
    let done = req
        .run(&number, details.as_ref(), None)
        .map_err(|e| hinted(e, &settings, args.rewrite, By::Inject))?;
    if let Some(old) = &done.report.replaced_xmp {
        super::note!(
            ui,
            "{}: the old XMP packet was unparsable and is replaced (--force); it began: {old}",
            args.input.display()
        );
    }
    report(&args, &done.report, req.writes_stdout(), ui)?;
    Ok(Outcome::Ok)
}

/// A refusal of where the result goes, said with the flags of `pith inject` and `pith strip`
/// (`by`): `-o` or `--in-place` for a file, `-o` alone for standard input.
pub(super) fn where_hinted(e: job::Error, pdf: &PdfInput, by: By) -> anyhow::Error {
    match e.kind() {
        job::ErrorKind::Request(_) if pdf.is_stdin() => {
            super::hint::with(e, " (-o OUT.pdf, or -o -)")
        }
        job::ErrorKind::Request(_) => super::hint::with(e, " (-o OUT.pdf, or --in-place)"),
        _ => hinted(e, &Settings::default(), false, by),
    }
}
