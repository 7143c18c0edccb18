//! `pith badge` and `pith snippet`: argument handling, reading the bundle whose checks give the
//! status ([`pith::badge::status`]), and writing the output. The SVG, PDF and snippets come
//! from `pith::badge`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use pith::badge::{self, ImageFormat, Look, RecordStatus};
use pith::verify::Bundle;
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
    /// Add the status segment "computed" (a number computed from the paper's metadata). A
    /// badge says "verified" only when --bundle's receipt signature verifies.
    #[arg(long, value_name = "STATUS", value_parser = status_parser())]
    status: Option<String>,
    /// Add the status pith finds in this bundle JSON of the number: "verified" when a receipt
    /// signature in it verifies with the registry key (or a --key), else "computed". What the
    /// bundle states beyond that (anchored, attested…) is reported, not shown.
    #[arg(long, value_name = "FILE")]
    bundle: Option<PathBuf>,
    /// With --bundle: an Ed25519 public key (base64 or hex, or a file holding it) to trust
    /// besides the built-in registry key (PITH_KEYS pins keys for every run).
    #[arg(long, value_name = "KEY")]
    key: Vec<String>,
    /// Draw the dark colour scheme's colours only: the image for dark pages of an HTML
    /// <picture> (the default badge switches by itself where the viewer applies its CSS).
    #[arg(long)]
    dark: bool,
    /// Style: flat (rounded, gradient) or flat-square.
    #[arg(long, value_parser = ["flat", "flat-square"], help = format!(
        "Style: flat (rounded, gradient) or flat-square [default: {}]",
        pith::job::defaults::BADGE_STYLE
    ))]
    style: Option<String>,
    /// Text of the first segment.
    #[arg(long, help = format!(
        "Text of the first segment [default: {}]",
        pith::job::defaults::BADGE_LABEL
    ))]
    label: Option<String>,
    /// Draw a QR code of the record URL below the badge (error correction M, 4-module quiet
    /// zone).
    #[arg(long)]
    qr: bool,
    /// Size of a QR module in px (2–16).
    #[arg(long, value_name = "PX")]
    qr_module: Option<u32>,
}

/// `--status`: the help offers the one status a badge may be told, "computed"; the others
/// are accepted only to be refused with the library's reason.
fn status_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    PossibleValuesParser::new([
        PossibleValue::new("computed"),
        PossibleValue::new("verified").hide(true),
        PossibleValue::new("stored").hide(true),
        PossibleValue::new("anchored").hide(true),
    ])
}

/// Arguments of `pith badge`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith badge pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o pith-7BMK4ZKT.svg\n  \
    pith badge --full --status computed --style flat-square --qr pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n  \
    pith badge --bundle bundle.json pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o badge.svg\n  \
    pith badge --arxiv 2402.03791 -o badge.svg       the latest version's number, from arXiv\n  \
    pith badge --format pdf -o pith-7BMK4ZKT.pdf pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5   for pdfLaTeX")]
pub struct BadgeArgs {
    #[command(flatten)]
    look: BadgeLook,
    /// Image format: svg, or pdf (for pdfLaTeX's \includegraphics; the text is real text and
    /// the page links to the record). Default: the one -o's extension names, else svg; a name
    /// of another image format (.png) is refused.
    #[arg(long, value_name = "FORMAT", value_parser = ["svg", "pdf"])]
    format: Option<String>,
    /// Write the badge to FILE (atomically) instead of standard output.
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
    #[arg(long, value_name = "FORMAT", value_parser = ["md", "html", "rst", "adoc", "tex"], help = format!(
        "Target format [default: {}]",
        pith::job::defaults::SNIPPET_FORMAT
    ))]
    format: Option<String>,
    /// URL or path of the badge image (default pith-<8 characters>.svg, .pdf for tex).
    #[arg(long, value_name = "URL")]
    src: Option<String>,
    /// HTML only: badge image for the dark colour scheme (adds a <picture>); `pith badge
    /// --dark` writes one.
    #[arg(long, value_name = "URL")]
    dark_src: Option<String>,
    /// LaTeX only: where the PDF badge can be downloaded, named in the snippet's comment.
    #[arg(long, value_name = "URL")]
    download: Option<String>,
}

impl BadgeLook {
    fn resolve(&self, ui: super::Ui) -> Result<(PithNumber, Look)> {
        let given = pith::job::given::text_or_input(
            self.number.as_deref(),
            self.input.is_given(),
            "the number",
            "--arxiv ...",
            "no number: give it, or --arxiv ID, --record FILE or another record input",
        )?;
        let number = match given {
            pith::job::given::TextOrInput::Text(n) => PithNumber::parse(n)?,
            pith::job::given::TextOrInput::Input => self.input.record(ui)?.number(),
        };
        let request = pith::job::badge::BadgeRequest {
            full: self.full,
            status: self.status.clone(),
            style: self.style.clone(),
            label: self.label.clone(),
            qr: self.qr,
            qr_module: self.qr_module,
            dark: self.dark,
        };
        pith::job::badge::BundleRequest {
            bundle: self.bundle.clone(),
            key: self.key.clone(),
        }
        .validate(&request)?;
        let opts = request.options().map_err(|e| {
            let hint = match e.kind() {
                badge::ErrorKind::UncheckedStatus(RecordStatus::Verified) => {
                    " (give --bundle FILE, whose receipt signature pith checks)"
                }
                _ => "",
            };
            match &self.status {
                Some(s) => anyhow::anyhow!("--status {s}: {e}{hint}"),
                None => anyhow::Error::new(e),
            }
        })?;
        let opts = match &self.bundle {
            Some(path) => {
                let status = bundle_status(path, &number, &self.key, ui)?;
                opts.status(Some(status))
            }
            None => opts,
        };
        Ok((number, opts))
    }
}

/// The status the bundle at `path` gives `number` ([`badge::status_from_bundle`]), with a
/// note saying why it is not "verified" and what the bundle states that pith did not check.
///
/// # Errors
/// A bundle that cannot be read, or that is another number's.
fn bundle_status(
    path: &std::path::Path,
    number: &PithNumber,
    keys: &[String],
    ui: super::Ui,
) -> Result<RecordStatus> {
    let name = path.display().to_string();
    let bundle = Bundle::from_json(&read_text(path)?).with_context(|| name.clone())?;
    let keys = super::verify::load_keys(keys)?;
    let found = badge::status_from_bundle(&bundle, number, &keys).with_context(|| name.clone())?;
    if let Some(why) = &found.not_verified {
        super::note!(ui, "{name}: {why}; the badge says {}", found.status);
    }
    for c in &found.claims {
        super::note!(ui, "{name}: {}", c.sentence);
    }
    Ok(found.status)
}

/// Runs `pith badge`. The SVG is written as a text file: the library's document and a final
/// newline (the README shows one, and `cat badge.svg` should end its line); the PDF as its bytes.
pub fn run_badge(args: BadgeArgs, ui: super::Ui) -> Result<Outcome> {
    let (number, opts) = args.look.resolve(ui)?;
    let asked = args
        .format
        .as_deref()
        .map(str::parse::<ImageFormat>)
        .transpose()?;
    // Into a folder, the badge takes the name the snippets use (pith-7BMK4ZKT.svg).
    let default_name = pith::badge::file_name(&number, asked.unwrap_or(ImageFormat::Svg));
    let out = pith::job::output_file(
        args.output.as_deref().unwrap_or(std::path::Path::new("-")),
        Some(default_name.as_ref()),
    )?;
    let out = out.as_path();
    let bytes = if ImageFormat::for_output(asked, Some(out))? == ImageFormat::Pdf {
        badge::pdf(&number, &opts)?
    } else {
        let mut svg = badge::svg(&number, &opts)?;
        svg.push('\n');
        svg.into_bytes()
    };
    ui.check_clobber(out)?;
    write_atomic(out, &bytes)?;
    Ok(Outcome::Ok)
}

/// Runs `pith snippet`.
pub fn run_snippet(args: SnippetArgs, ui: super::Ui) -> Result<Outcome> {
    let (number, badge) = args.look.resolve(ui)?;
    let request = pith::job::badge::SnippetRequest {
        format: args.format,
        src: args.src,
        dark_src: args.dark_src,
        download: args.download,
    };
    let text = request.render(&number, badge).map_err(|e| match e.kind() {
        // The library names the option; the command line names its flag.
        badge::ErrorKind::NotForFormat { option, only } => {
            anyhow::Error::from(super::Failure::new(
                pith::job::kind::of_badge(&e),
                format!("{e} (--{} with --format {only})", option.replace('_', "-")),
            ))
        }
        _ => e.into(),
    })?;
    write_atomic(std::path::Path::new("-"), text.as_bytes())?;
    Ok(Outcome::Ok)
}
