//! `pith verify`: check a record, texts or a bundle; exit 0 when all holds, 1 on a mismatch.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use pith::verify::{self, Bundle, Check, CheckKind, CheckStatus, Key, Report, TextField, Verdict};
use pith::NumberRef;

use super::input::{read_text, RecordInput};
use super::Outcome;

/// Arguments of `pith verify`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith verify paper.pdf                       the PDF's number against its record at pith.science\n  \
    pith verify paper.pdf --bundle bundle.json  offline, against a saved bundle\n  \
    pith verify --record rec.json pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n  \
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
    /// built-in registry key pith-v1-2026-05.
    #[arg(long, value_name = "KEY")]
    key: Vec<String>,
    /// A base64 receipt signature over the record's canonical hash, checked against the keys.
    #[arg(long, value_name = "B64")]
    signature: Option<String>,
    /// With --signature and no record: the canonical sha256 (hex) that was signed.
    #[arg(long, value_name = "HEX")]
    sha256: Option<String>,
    /// Print the checks as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    input: RecordInput,
}

fn load_keys(given: &[String]) -> Result<Vec<Key>> {
    let mut keys = vec![Key::registry()];
    for k in given {
        let text = if std::path::Path::new(k).is_file() {
            read_text(std::path::Path::new(k))?
        } else {
            k.clone()
        };
        keys.push(Key::parse(&text).with_context(|| format!("--key {k}"))?);
    }
    Ok(keys)
}

/// Whether the positional argument names a PDF rather than a number.
fn is_pdf(arg: &str) -> bool {
    NumberRef::parse(arg).is_err()
        && (arg.to_ascii_lowercase().ends_with(".pdf") || std::path::Path::new(arg).is_file())
}

/// `pith verify PAPER.pdf`: the PDF's number against its record (issue 22).
fn run_pdf(args: &Args, path: &std::path::Path, keys: &[Key]) -> Result<Outcome> {
    use pith::net::pdfcheck::{self, Source};
    if args.signature.is_some() || args.sha256.is_some() {
        bail!("--signature and --sha256 check a record, not a PDF; the PDF's receipts come with its bundle");
    }
    let settings = args.input.net.settings()?;
    let client;
    let source = if let Some(b) = &args.bundle {
        if args.input.is_given() {
            bail!("give --bundle or a record input, not both");
        }
        Source::Bundle(Bundle::from_json(&read_text(b)?).with_context(|| b.display().to_string())?)
    } else if args.input.is_given() {
        Source::Record(args.input.record()?)
    } else {
        client = pith::net::Client::new(&settings).map_err(super::net::error)?;
        Source::Resolver(&client)
    };
    let found = pdfcheck::verify_file(path, source, keys).map_err(|e| match e.kind() {
        pith::net::ErrorKind::NoNumber => anyhow::anyhow!("{}: {e}", path.display()),
        _ => super::net::error(e),
    })?;
    let report = &found.report;
    let verdict = report.verdict();
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = found.to_json(&path.display().to_string());
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        writeln!(
            out,
            "{:<10} {:<28} {} (from {})",
            "pdf",
            path.display(),
            found.claim.number,
            found.claim.place.name()
        )?;
        for c in &report.checks {
            writeln!(
                out,
                "{:<10} {:<28} {}",
                c.status.to_string(),
                c.subject,
                c.detail
            )?;
        }
        if let Some(id) = found.arxiv_id() {
            writeln!(out, "{:<10} {:<28} arXiv:{id}", "paper", "source")?;
        }
        writeln!(out, "{verdict}")?;
    }
    Ok(if report.holds() {
        Outcome::Ok
    } else {
        Outcome::Mismatch
    })
}

/// Runs every check the arguments ask for and prints them.
pub fn run(mut args: Args) -> Result<Outcome> {
    let keys = load_keys(&args.key)?;
    if let Some(pdf) = args.number.clone().filter(|a| is_pdf(a)) {
        return run_pdf(&args, std::path::Path::new(&pdf), &keys);
    }
    let mut report = Report::default();
    // With a record source, --title/--abstract are texts to check, not fields to build from.
    let mut texts = Vec::new();
    if args.input.record.is_some()
        || args.input.arxiv_atom.is_some()
        || args.input.arxiv.is_some()
        || args.bundle.is_some()
    {
        if let Some(t) = args.input.title.take() {
            texts.push((TextField::Title, t));
        }
        if let Some(p) = args.input.title_file.take() {
            texts.push((TextField::Title, read_text(&p)?));
        }
        if let Some(t) = args.input.abstract_text.take() {
            texts.push((TextField::Abstract, t));
        }
        if let Some(p) = args.input.abstract_file.take() {
            texts.push((TextField::Abstract, read_text(&p)?));
        }
    }
    let record = if let Some(path) = &args.bundle {
        if args.input.is_given() {
            bail!("--bundle carries its own record; do not also give --record or paper fields");
        }
        let bundle =
            Bundle::from_json(&read_text(path)?).with_context(|| path.display().to_string())?;
        report.checks.extend(bundle.check(&keys).checks);
        Some(bundle.record().clone())
    } else if args.input.is_given() {
        let r = args.input.record()?;
        report.push(Check::new(
            CheckKind::Record,
            "canonical_record",
            CheckStatus::Ok,
            format!(
                "canonical sha256 {}, number {}",
                r.canonical_sha256(),
                r.number()
            ),
        ));
        Some(r)
    } else {
        None
    };
    if let Some(n) = &args.number {
        let claimed = NumberRef::parse(n)?;
        match &record {
            Some(r) => report.push(verify::record_against_number(r, &claimed)),
            None => bail!("a number alone cannot be verified: give --record, --arxiv-atom, --bundle or the paper's fields"),
        }
    }
    for (field, text) in &texts {
        let r = record
            .as_ref()
            .context("--title/--abstract need a record to check against")?;
        report.push(verify::text_against_record(*field, text, r));
    }
    if let Some(sig) = &args.signature {
        let digest = match (&record, &args.sha256) {
            (_, Some(h)) => verify::parse_sha256(h).context("--sha256")?,
            (Some(r), None) => r.digest(),
            (None, None) => bail!("--signature needs a record or --sha256"),
        };
        report.push(verify::signature(&digest, sig, &keys).context("--signature")?);
    }
    if report.checks.is_empty() {
        bail!("nothing to verify: give --record, --arxiv-atom, --bundle or --signature (see pith verify --help)");
    }
    let verdict = report.verdict();
    if args.json {
        let v = serde_json::json!({
            "holds": report.holds(),
            "verified": verdict == Verdict::Verified,
            "checks": report.checks
        });
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        for c in &report.checks {
            writeln!(
                std::io::stdout(),
                "{:<10} {:<28} {}",
                c.status.to_string(),
                c.subject,
                c.detail
            )?;
        }
        writeln!(std::io::stdout(), "{verdict}")?;
    }
    if !args.json && verdict == Verdict::Unverified {
        if !report.compares() {
            super::note!("hint: the record is valid, but nothing was checked against it: give a number, --title, --abstract or --signature");
        } else if report
            .checks
            .iter()
            .any(|c| c.kind == CheckKind::Receipt && c.status == CheckStatus::Unverified)
        {
            super::note!("hint: a receipt signed by another key is checked when you give that key with --key");
        }
    }
    Ok(if report.holds() {
        Outcome::Ok
    } else {
        Outcome::Mismatch
    })
}
