//! `pith strip`: arguments into a [`pith::job::StripRequest`], its report into text or JSON.

use std::path::PathBuf;

use anyhow::Result;
use pith::job::{Status, StripRequest};

use super::hint::{hinted, By};
use super::Outcome;

/// Arguments of `pith strip`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith strip paper.pdf -o clean.pdf\n  \
    pith strip --in-place paper.pdf\n  \
    pith strip --json paper.pdf -o clean.pdf && pith inspect clean.pdf   (exit 1: no number)\n  \
    cat paper.pdf | pith strip - -o - > clean.pdf")]
pub struct Args {
    /// The PDF to take the number out of ("-" reads standard input; then give -o).
    #[arg(value_name = "IN.pdf")]
    pub input: PathBuf,
    /// Where to write the result (through a temporary file and an atomic rename).
    #[arg(short, long, value_name = "OUT.pdf")]
    pub output: Option<PathBuf>,
    /// Update IN.pdf itself: the update is appended, crash-safe, as for pith inject --in-place.
    #[arg(long)]
    pub in_place: bool,
    /// Update certified files that forbid changes.
    #[arg(long)]
    pub force: bool,
    /// Rebuild the cross-reference table of a file refused as damaged (append-only).
    #[arg(long)]
    pub repair: bool,
    /// Print the report as one JSON object (see docs/reports.md).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub password: super::password::Password,
    #[command(flatten)]
    pub deadline: super::inject::FileTimeout,
}

impl Args {
    /// The request these arguments make, nothing decided: the library fills what is left out.
    pub fn request(&self, ui: super::Ui) -> Result<StripRequest> {
        Ok(StripRequest {
            pdf: self.deadline.pdf(&self.input, &self.password)?,
            output: self.output.clone(),
            in_place: self.in_place,
            force: self.force,
            repair: self.repair,
            no_clobber: ui.no_clobber(),
        })
    }
}

/// Runs `pith strip`.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let req = args.request(ui)?;
    req.validate()
        .map_err(|e| super::inject::where_hinted(e, &req.pdf, By::Strip))?;
    let settings = req.settings()?;
    let to_stdout = req.writes_stdout();
    let (r, _) = req
        .run(None)
        .map_err(|e| hinted(e, &settings, false, By::Strip))?;
    let mut lines = Vec::new();
    if args.json {
        lines.push(serde_json::to_string_pretty(&r)?);
    } else if !ui.quiet() {
        lines.push(match (r.status, &r.removed) {
            (Status::Unchanged, _) if r.output == r.input || r.output == "<memory>" => {
                format!("{}: unchanged, carries no Pith Number", r.input)
            }
            (Status::Unchanged, _) => format!(
                "{}: carries no Pith Number; wrote an unchanged copy to {}",
                r.input, r.output
            ),
            (_, Some(n)) => format!("{}: removed {n}", r.output),
            (_, None) => format!("{}: removed the Pith link and stamp", r.output),
        });
        lines.extend(r.written.iter().map(|w| format!("  {w}")));
        lines.extend(r.notes.iter().map(|n| format!("  note: {n}")));
    }
    super::say(&lines, to_stdout)?;
    Ok(Outcome::Ok)
}
