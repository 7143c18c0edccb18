//! `pith inject`: arguments and the report. The PDF work is `pith::pdf::inject` (an
//! append-only update, written by [`super::apply`]) or `pith::pdf::rewrite` (`--rewrite`).

use std::io::Read;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::apply::{apply, hinted_with, now, Applied, Target};
use super::fsutil::{same_file, write_atomic};
use super::input::NumberInput;
use super::Outcome;

/// Arguments of `pith inject`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PDF to update ("-" reads standard input; then give -o).
    #[arg(value_name = "IN.pdf")]
    pub input: PathBuf,
    #[command(flatten)]
    pub number: NumberInput,
    /// Where to write the updated PDF (through a temporary file and an atomic rename).
    #[arg(
        short,
        long,
        value_name = "OUT.pdf",
        required_unless_present = "in_place",
        conflicts_with = "in_place"
    )]
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
    #[arg(long, conflicts_with = "rewrite")]
    pub repair: bool,
    /// Update certified files that forbid changes, and replace an unparsable XMP packet.
    #[arg(long)]
    pub force: bool,
    /// Work out the update and report it ("planned"), writing nothing.
    #[arg(long, conflicts_with = "rewrite")]
    pub dry_run: bool,
    /// Print the report as one JSON object: input, output, status (injected, unchanged,
    /// rewritten, planned), number, url, bytes_before, bytes_after, written.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub password: super::password::Password,
    #[command(flatten)]
    pub stamp: StampArgs,
}

/// The stamp options of `pith inject` and `pith batch` (issue 13).
#[derive(Debug, Clone, clap::Args)]
pub struct StampArgs {
    /// Also print the number on page 1 as real, selectable text with a link to its record
    /// (default: the short form, in the left margin like arXiv's identifier). Signed files are
    /// refused unless --force.
    #[arg(long)]
    pub stamp: bool,
    /// The stamp shows the full number (pith:YYYY:<26>) instead of the short one.
    #[arg(long, requires = "stamp", conflicts_with = "stamp_form")]
    pub stamp_full: bool,
    /// Which form of the number the stamp shows.
    #[arg(long, value_enum, value_name = "FORM", requires = "stamp")]
    pub stamp_form: Option<StampForm>,
    /// Where the stamp goes on the page as displayed.
    #[arg(
        long,
        value_enum,
        value_name = "WHERE",
        requires = "stamp",
        default_value = "left"
    )]
    pub stamp_position: StampPosition,
    /// Font size of the stamp in points (it shrinks when it would not fit its margin).
    #[arg(long, value_name = "PT", requires = "stamp", default_value_t = pith::pdf::stamp::DEFAULT_SIZE,
          value_parser = parse_size)]
    pub stamp_size: f64,
}

/// `--stamp-form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StampForm {
    /// pith:7BMK4ZKT
    Short,
    /// pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5
    Full,
}

/// `--stamp-position`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StampPosition {
    /// Left margin, reading bottom to top, in its lower quarter (clear of arXiv's stamp).
    Left,
    /// Right margin, reading top to bottom, in its lower quarter.
    Right,
    /// Centred along the top edge.
    Top,
    /// Centred along the bottom edge.
    Bottom,
}

fn parse_size(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (2.0..=72.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a size in points from 2 to 72")),
    }
}

impl StampArgs {
    /// The library's stamp settings, or `None` without `--stamp`.
    pub fn to_stamp(&self) -> Option<pith::pdf::stamp::Stamp> {
        use pith::pdf::stamp::{Form, Position, Stamp};
        if !self.stamp {
            return None;
        }
        let form = match (self.stamp_full, self.stamp_form) {
            (true, _) | (_, Some(StampForm::Full)) => Form::Full,
            _ => Form::Short,
        };
        let position = match self.stamp_position {
            StampPosition::Left => Position::Left,
            StampPosition::Right => Position::Right,
            StampPosition::Top => Position::Top,
            StampPosition::Bottom => Position::Bottom,
        };
        Some(Stamp {
            form,
            position,
            size: self.stamp_size,
            grey: true,
        })
    }
}

/// What an inject did, for the report.
struct Done {
    status: &'static str,
    out: PathBuf,
    bytes_before: Option<u64>,
    bytes_after: Option<u64>,
    written: Vec<String>,
}

/// Prints the report: text lines, or one JSON object with stable keys (issue #15). With the
/// PDF on standard output it goes to standard error.
fn report(args: &Args, number: &pith::PithNumber, done: &Done, to_stdout: bool) -> Result<()> {
    let mut lines = Vec::new();
    if args.json {
        let v = serde_json::json!({
            "input": args.input.display().to_string(),
            "output": done.out.display().to_string(),
            "status": done.status,
            "number": number.full(),
            "url": number.url(),
            "bytes_before": done.bytes_before,
            "bytes_after": done.bytes_after,
            "written": done.written,
        });
        lines.push(serde_json::to_string_pretty(&v)?);
    } else {
        let shown = |p: &Path| p.display().to_string();
        lines.push(match done.status {
            "unchanged" => format!(
                "{}: unchanged, already carries {}",
                shown(&args.input),
                number.full()
            ),
            "rewritten" => format!(
                "{}: rewrote the whole file with {} ({})",
                shown(&done.out),
                number.full(),
                number.url()
            ),
            "planned" => format!(
                "{}: would inject {} ({}); nothing written (--dry-run)",
                shown(&done.out),
                number.full(),
                number.url()
            ),
            _ => format!(
                "{}: injected {} ({})",
                shown(&done.out),
                number.full(),
                number.url()
            ),
        });
        if done.status != "unchanged" {
            lines.extend(done.written.iter().map(|l| format!("  {l}")));
        }
    }
    for line in lines {
        if to_stdout {
            eprintln!("{line}");
        } else if !super::quiet() || args.json {
            writeln!(std::io::stdout(), "{line}")?;
        }
    }
    Ok(())
}

/// Runs `pith inject`.
pub fn run(args: Args) -> Result<Outcome> {
    let number = args.number.full_number()?;
    let input = &args.input;
    let stdin = input.as_os_str() == "-";
    if let Some(o) = &args.output {
        if !stdin && same_file(input, o) {
            bail!(
                "{}: input and output are the same file; use --in-place to update it",
                input.display()
            );
        }
    }
    if let (Some(o), false) = (&args.output, args.dry_run) {
        super::check_clobber(o)?;
    }
    if stdin && args.in_place {
        bail!("-: standard input cannot be updated in place; give -o OUT.pdf or -o -");
    }
    let mut opts = pith::pdf::Options::new(&now());
    opts.force = args.force;
    opts.password = args.password.bytes()?;
    opts.stamp = args.stamp.to_stamp();
    opts.repair = args.repair;
    // With the PDF on standard output, the report goes to standard error.
    let to_stdout = args.output.as_deref().is_some_and(|o| o.as_os_str() == "-");
    let shown = args.output.clone().unwrap_or_else(|| input.clone());
    let bytes_before = std::fs::metadata(input).ok().map(|m| m.len());
    let done = if args.dry_run && !stdin {
        let file = std::fs::File::open(input)
            .with_context(|| format!("{}: cannot open", input.display()))?;
        let inj = pith::pdf::inject(&file, &number, &opts)
            .map_err(|e| hinted_with(e.in_file(input), &opts))?;
        Done {
            status: if inj.unchanged {
                "unchanged"
            } else {
                "planned"
            },
            out: shown,
            bytes_before,
            bytes_after: bytes_before.map(|b| b + inj.appended.len() as u64),
            written: inj.written,
        }
    } else if stdin || args.rewrite {
        whole_file(&args, &number, &opts)?
    } else {
        let target = match &args.output {
            Some(o) => Target::File(o),
            None => Target::InPlace,
        };
        let r = apply(input, target, &number, &opts)?;
        warn_replaced(input, r.replaced_xmp.as_deref());
        Done {
            status: match r.applied {
                Applied::Unchanged => "unchanged",
                Applied::Injected => "injected",
            },
            out: shown,
            bytes_before,
            bytes_after: Some(r.bytes_after),
            written: r.written,
        }
    };
    report(&args, &number, &done, to_stdout)?;
    Ok(Outcome::Ok)
}

fn warn_replaced(input: &Path, old: Option<&[u8]>) {
    if let Some(old) = old {
        eprintln!(
            "pith: {}: the old XMP packet was unparsable and is replaced (--force); it began: {}",
            input.display(),
            String::from_utf8_lossy(&old[..old.len().min(200)])
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

/// `--rewrite`, and input from standard input (`pith inject - -o -` in pipelines): the whole
/// input is held in memory and the whole result written through a temporary file and a rename
/// (or to standard output); with `--dry-run` nothing is written.
fn whole_file(args: &Args, number: &pith::PithNumber, opts: &pith::pdf::Options) -> Result<Done> {
    let input = &args.input;
    let bytes = if input.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut v)
            .context("-: cannot read standard input")?;
        v
    } else {
        std::fs::read(input).with_context(|| format!("{}: cannot read", input.display()))?
    };
    let target = args.output.as_deref().unwrap_or(input);
    let bytes_before = Some(bytes.len() as u64);
    let what = |e: pith::pdf::Error| hinted_with(e.in_file(input), opts);
    if args.rewrite {
        let mut out = pith::pdf::rewrite(&bytes, number, opts).map_err(what)?;
        if opts.stamp.is_some() {
            // The stamp goes on top of the rewritten file as an incremental update.
            let inj = pith::pdf::inject(&out[..], number, opts).map_err(what)?;
            out.extend_from_slice(&inj.appended);
        }
        // A rewrite in place replaces the file: keep the permissions it had.
        let perms = std::fs::metadata(target).ok().map(|m| m.permissions());
        write_atomic(target, &out)?;
        if let (true, Some(p)) = (args.in_place, perms) {
            std::fs::set_permissions(target, p)
                .with_context(|| format!("{}: cannot restore permissions", target.display()))?;
        }
        return Ok(Done {
            status: "rewritten",
            out: target.to_owned(),
            bytes_before,
            bytes_after: Some(out.len() as u64),
            written: Vec::new(),
        });
    }
    let inj = pith::pdf::inject(&bytes, number, opts).map_err(what)?;
    warn_replaced(input, inj.replaced_xmp.as_deref());
    let after = (bytes.len() + inj.appended.len()) as u64;
    if !args.dry_run {
        let mut out = bytes;
        out.extend_from_slice(&inj.appended);
        write_atomic(target, &out)?;
    }
    Ok(Done {
        status: match (inj.unchanged, args.dry_run) {
            (true, _) => "unchanged",
            (false, true) => "planned",
            (false, false) => "injected",
        },
        out: target.to_owned(),
        bytes_before,
        bytes_after: Some(after),
        written: inj.written,
    })
}
