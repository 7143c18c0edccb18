//! `pith badge` and `pith snippet`: argument handling, the bundle check behind a
//! derived "verified", and writing the output. The SVG and snippets come from `pith::badge`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use pith::badge::{self, Format, Options, RecordStatus, SnippetOptions, Style};
use pith::verify::{Bundle, Key};
use pith::PithNumber;

use super::fsutil::write_atomic;
use super::input::read_text;
use super::Outcome;

/// What a badge shows; shared by `pith badge` and `pith snippet`.
#[derive(Debug, clap::Args)]
pub struct BadgeLook {
    /// The number: pith:YYYY:<26 characters> or the bare 26 characters (a short alias does not
    /// identify a record). Or give a record input instead (--arxiv ID, --record FILE, ...).
    number: Option<String>,
    /// Where the number comes from when it is not given (the number is computed).
    #[command(flatten)]
    input: super::input::RecordInput,
    /// Show the whole number (2024:7BMK…) instead of the short form (7BMK4ZKT).
    #[arg(long)]
    full: bool,
    /// Add a status segment: computed, verified or anchored. The badge shows what you say;
    /// use --bundle to have "verified" derived from a signature check.
    #[arg(long, value_name = "STATUS", value_parser = ["computed", "verified", "anchored"])]
    status: Option<String>,
    /// Derive the status "verified" from a bundle JSON whose record is this number and whose
    /// receipt signature verifies with the registry key; fails otherwise.
    #[arg(long, value_name = "FILE", conflicts_with = "status")]
    bundle: Option<PathBuf>,
    /// Style: flat (rounded, gradient) or flat-square.
    #[arg(long, default_value = "flat", value_parser = ["flat", "flat-square"])]
    style: String,
    /// Text of the first segment.
    #[arg(long, default_value = "pith")]
    label: String,
    /// Draw a QR code of the record URL below the badge (error correction M, 4-module quiet
    /// zone).
    #[arg(long)]
    qr: bool,
    /// Size of a QR module in px (2–16).
    #[arg(long, value_name = "PX", default_value_t = 2, requires = "qr")]
    qr_module: u32,
}

/// Arguments of `pith badge`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith badge pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o pith-7BMK4ZKT.svg\n  \
    pith badge --full --status computed --style flat-square --qr pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n  \
    pith badge --bundle bundle.json pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o badge.svg\n  \
    pith badge --arxiv 2402.03791 -o badge.svg       the latest version's number, from arXiv")]
pub struct BadgeArgs {
    #[command(flatten)]
    look: BadgeLook,
    /// Write the SVG to FILE (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Arguments of `pith snippet`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith snippet pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n  \
    pith snippet pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --format html --src https://example.org/badge.svg\n  \
    pith snippet --arxiv 2402.03791 --next --format tex   for the next version, from arXiv")]
pub struct SnippetArgs {
    #[command(flatten)]
    look: BadgeLook,
    /// Target format.
    #[arg(long, value_name = "FORMAT", default_value = "md", value_parser = ["md", "html", "rst", "adoc", "tex"])]
    format: String,
    /// URL or path of the badge image (default pith-<8 characters>.svg, .pdf for tex).
    #[arg(long, value_name = "URL")]
    src: Option<String>,
    /// HTML only: badge image for the dark colour scheme (adds a <picture>).
    #[arg(long, value_name = "URL")]
    dark_src: Option<String>,
}

impl BadgeLook {
    fn resolve(&self) -> Result<(PithNumber, Options)> {
        let number = match (&self.number, self.input.is_given()) {
            (Some(_), true) => {
                bail!("give either the number or a record input (--arxiv ...), not both")
            }
            (Some(n), false) => PithNumber::parse(n)?,
            (None, true) => self.input.record()?.number(),
            (None, false) => {
                bail!("no number: give it, or --arxiv ID, --record FILE or another record input")
            }
        };
        let status = match (&self.status, &self.bundle) {
            (Some(s), _) => Some(s.parse::<RecordStatus>()?),
            (None, Some(path)) => {
                bundle_verifies(path, &number, &[Key::registry()])?;
                Some(RecordStatus::Verified)
            }
            (None, None) => None,
        };
        let opts = Options::default()
            .label(self.label.clone())
            .full(self.full)
            .status(status)
            .style(self.style.parse::<Style>()?)
            .qr(self.qr.then_some(self.qr_module));
        Ok((number, opts))
    }
}

/// Succeeds when the bundle at `path` grounds "verified" for `number`
/// ([`Bundle::supports_verified`]): the only ground for a derived "verified".
fn bundle_verifies(path: &std::path::Path, number: &PithNumber, keys: &[Key]) -> Result<()> {
    let bundle =
        Bundle::from_json(&read_text(path)?).with_context(|| path.display().to_string())?;
    bundle
        .supports_verified(number, keys)
        .with_context(|| path.display().to_string())
}

/// Runs `pith badge`. The SVG is written as a text file: the library's document and a final
/// newline (the README shows one, and `cat badge.svg` should end its line).
pub fn run_badge(args: BadgeArgs) -> Result<Outcome> {
    let (number, opts) = args.look.resolve()?;
    let mut svg = badge::svg(&number, &opts)?;
    svg.push('\n');
    let out = args.output.as_deref().unwrap_or(std::path::Path::new("-"));
    super::check_clobber(out)?;
    write_atomic(out, svg.as_bytes())?;
    Ok(Outcome::Ok)
}

/// Runs `pith snippet`.
pub fn run_snippet(args: SnippetArgs) -> Result<Outcome> {
    let (number, badge) = args.look.resolve()?;
    let format: Format = args.format.parse()?;
    if args.dark_src.is_some() && format != Format::Html {
        bail!("--dark-src is only used with --format html");
    }
    let opts = SnippetOptions {
        badge,
        src: args.src,
        dark_src: args.dark_src,
    };
    let text = badge::snippet(&number, format, &opts)?;
    write_atomic(std::path::Path::new("-"), text.as_bytes())?;
    Ok(Outcome::Ok)
}
