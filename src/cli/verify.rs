//! `pith verify`: check a record, texts or a bundle; exit 0 when all holds, 1 on a mismatch,
//! a number its resolver does not know, or a PDF without a number.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use pith::job::capture::CaptureSource;
use pith::job::{self, VerifyReport, VerifyRequest};
use pith::verify::{Bundle, CheckKind, CheckStatus, Key, TextField, Verdict};

use super::input::{read_text, RecordInput};
use super::Outcome;

/// Arguments of `pith verify`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith verify paper.pdf                       the PDF's number against its record at pith.science\n  \
    pith verify paper.pdf --bundle bundle.json  offline, against a saved bundle\n  \
    pith verify paper.pdf --capture https://arxiv.org/pdf/2402.03791v3   is it what the Internet Archive holds?\n  \
    pith verify --arxiv 2402.03791v3 pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n  \
    pith verify --bundle bundle.json")]
pub struct Args {
    /// A PDF whose number is checked (read from its XMP, Info or record link; its record
    /// comes from the resolver unless --record or --bundle is given), or the number to check
    /// a record against (pith:YYYY:<26>, <26>, or pith:<8|12|16>).
    #[arg(value_name = "PDF|NUMBER")]
    number: Option<String>,
    /// A bundle JSON (pith_open_graph_bundle): checks its record, number and receipts.
    #[arg(long, value_name = "FILE")]
    bundle: Option<PathBuf>,
    /// An Ed25519 public key (base64 or hex, or a file holding it) to accept besides the
    /// built-in registry key pith-v1-2026-05 (PITH_KEYS pins keys for every run).
    #[arg(long, value_name = "KEY")]
    key: Vec<String>,
    /// A base64 receipt signature over the record's canonical hash, checked against the keys.
    #[arg(long, value_name = "B64")]
    signature: Option<String>,
    /// With --signature and no record: the canonical sha256 (hex) that was signed.
    #[arg(long, value_name = "HEX")]
    sha256: Option<String>,
    /// Internet Archive captures to compare the PDF with, byte for byte: a WARC file, a CDX
    /// file (lines or the CDX API's JSON), or a URL whose captures the CDX API lists
    /// ($PITH_WAYBACK_URL, default https://web.archive.org); repeatable. Exit 0 when one holds
    /// the PDF, 1 when none does.
    #[arg(long, value_name = "FILE|URL")]
    capture: Vec<String>,
    /// Print the checks as JSON.
    #[arg(long)]
    pub(super) json: bool,
    #[arg(long, value_name = "SECS", help = file_timeout_help())]
    file_timeout: Option<f64>,
    #[command(flatten)]
    input: RecordInput,
    #[command(flatten)]
    password: super::password::Password,
}

/// `--file-timeout`'s help, with the library's default.
fn file_timeout_help() -> String {
    format!(
        "Stop reading the PDF (or a capture) after SECS seconds (refused with kind \
         over_time); 0 for no bound [default: {}]",
        job::defaults::FILE_TIMEOUT_SECS
    )
}

/// The registry key, the keys given (base64, hex, or a file holding one) and `PITH_KEYS`'.
pub(super) fn load_keys(given: &[String]) -> Result<Vec<Key>> {
    Ok(job::pinned_keys(given)?)
}

/// The texts to check: with a record source, --title/--abstract are texts to check, not
/// fields to build a record from.
fn texts(args: &mut Args) -> Result<Vec<(TextField, String)>> {
    let mut texts = Vec::new();
    let i = &mut args.input;
    if i.record.is_none() && i.arxiv_atom.is_none() && i.arxiv.is_none() && args.bundle.is_none() {
        return Ok(texts);
    }
    if let Some(t) = i.title.take() {
        texts.push((TextField::Title, t));
    }
    if let Some(p) = i.title_file.take() {
        texts.push((TextField::Title, read_text(&p)?));
    }
    if let Some(t) = i.abstract_text.take() {
        texts.push((TextField::Abstract, t));
    }
    if let Some(p) = i.abstract_file.take() {
        texts.push((TextField::Abstract, read_text(&p)?));
    }
    Ok(texts)
}

/// The arguments as the library's request.
fn request(
    mut args: Args,
    pdf: Option<PathBuf>,
    password: Option<Vec<u8>>,
    ui: super::Ui,
) -> Result<VerifyRequest> {
    let texts = texts(&mut args)?;
    let bundle = match &args.bundle {
        Some(b) => {
            Some(Bundle::from_json(&read_text(b)?).with_context(|| b.display().to_string())?)
        }
        None => None,
    };
    Ok(VerifyRequest {
        number: if pdf.is_some() {
            None
        } else {
            args.number.clone()
        },
        record: args
            .input
            .is_given()
            .then(|| args.input.to_input())
            .transpose()?,
        bundle,
        texts,
        signature: args.signature.clone(),
        sha256: args.sha256.clone(),
        keys: args.key.clone(),
        file_timeout: args.file_timeout,
        net: args.input.net.settings(ui)?,
        pdf,
        password,
        captures: args
            .capture
            .iter()
            .map(|c| CaptureSource::parse(c))
            .collect(),
        ..VerifyRequest::default()
    })
}

/// Runs every check the arguments ask for and prints the report.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let json = args.json;
    let pdf = match args.number.as_deref() {
        Some(a) => job::verify::pdf_or_number(a)?,
        None => None,
    };
    let password = args.password.bytes()?;
    let request = request(args, pdf, password, ui)?;
    if !request.captures.is_empty() {
        return super::capture::verify(&request, json, ui);
    }
    let report = super::input::hint(job::verify::run(&request))?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else if !ui.quiet() {
        // -q: errors only; the exit status is the verdict (as grep -q).
        print_text(&mut out, &report, ui)?;
    }
    Ok(if report.is_ok() {
        Outcome::Ok
    } else {
        Outcome::Mismatch
    })
}

fn print_text(out: &mut impl Write, r: &VerifyReport, ui: super::Ui) -> Result<()> {
    if let (Some(file), Some(n)) = (&r.file, &r.pith_number) {
        let place = r.found_in.as_deref().unwrap_or("");
        writeln!(out, "{:<10} {file:<28} {n} (from {place})", "pdf")?;
    } else if let Some(file) = &r.file {
        writeln!(
            out,
            "{:<10} {file:<28} no Pith Number (XMP, Info, record link, page 1)",
            "pdf"
        )?;
    }
    for c in &r.checks {
        writeln!(
            out,
            "{:<10} {:<28} {}",
            c.status.to_string(),
            c.subject,
            c.detail
        )?;
    }
    if let (Some(_), Some(id), Some(v)) = (&r.file, &r.arxiv_id, r.arxiv_version) {
        writeln!(out, "{:<10} {:<28} arXiv:{id}v{v}", "paper", "source")?;
    }
    // A note, not a check: the number still names the version it was made for.
    if let Some(n) = &r.newer_version {
        writeln!(
            out,
            "newer version: v{} is {} ({})",
            n.version, n.pith_number, n.url
        )?;
    }
    if let Some(m) = &r.mirror {
        writeln!(
            out,
            "{:<10} {:<28} {} ({})",
            "mirror", "answered", m.name, m.base_url
        )?;
    }
    writeln!(out, "{}", r.headline())?;
    if r.file.is_none() && r.verdict == Verdict::Unverified {
        if !r.compares() {
            super::note!(ui, "hint: the record is valid, but nothing was checked against it: give a number, --title, --abstract or --signature");
        } else if r
            .checks
            .iter()
            .any(|c| c.kind == CheckKind::Receipt && c.status == CheckStatus::Unverified)
        {
            super::note!(ui, "hint: a receipt signed by another key is checked when you give that key with --key");
        }
    }
    Ok(())
}
