//! `pith badge` and `pith snippet` (issue #5): argument handling, the bundle check behind a
//! derived "verified", and writing the output. The SVG and snippets come from `pith::badge`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use pith::badge::{self, Format, Options, SnippetOptions, Status, Style};
use pith::verify::{self, Key};
use pith::PithNumber;

use super::fsutil::write_atomic;
use super::input::read_text;
use super::Outcome;

/// What a badge shows; shared by `pith badge` and `pith snippet`.
#[derive(Debug, clap::Args)]
pub struct BadgeLook {
    /// The number: pith:YYYY:<26 characters> or the bare 26 characters (a short alias does not
    /// identify a record).
    number: String,
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
    pith badge --bundle bundle.json pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o badge.svg")]
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
    pith snippet pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --format md\n  \
    pith snippet pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --format html --src https://example.org/badge.svg")]
pub struct SnippetArgs {
    #[command(flatten)]
    look: BadgeLook,
    /// Target format.
    #[arg(long, value_name = "FORMAT", value_parser = ["md", "html", "rst", "adoc", "tex"])]
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
        let number = PithNumber::parse(&self.number)?;
        let status = match (&self.status, &self.bundle) {
            (Some(s), _) => Some(s.parse::<Status>()?),
            (None, Some(path)) => {
                bundle_verifies(path, &number, &[Key::registry()])?;
                Some(Status::Verified)
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

/// Succeeds when the bundle at `path` is for `number`, every check of it holds, and at least
/// one receipt signature verifies with `keys`: the only ground for a derived "verified".
fn bundle_verifies(path: &std::path::Path, number: &PithNumber, keys: &[Key]) -> Result<()> {
    let text = read_text(path)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not valid JSON", path.display()))?;
    let report = verify::bundle(&value, keys).with_context(|| path.display().to_string())?;
    judge_bundle(&report, &value, number)
        .with_context(|| format!("{}: cannot derive \"verified\"", path.display()))
}

fn judge_bundle(
    report: &verify::Report,
    value: &serde_json::Value,
    number: &PithNumber,
) -> Result<()> {
    if !report.holds() {
        let bad: Vec<String> = report
            .checks
            .iter()
            .filter(|c| c.status == verify::Status::Mismatch)
            .map(|c| format!("{}: {}", c.subject, c.detail))
            .collect();
        bail!("the bundle does not verify ({})", bad.join("; "));
    }
    // The bundle's own record decides its number; it must be the badge's.
    let rec = value
        .get("canonical_record")
        .or_else(|| value.pointer("/events/0/payload/canonical_record"))
        .context("no canonical_record")?;
    let bundle_number = pith::Record::from_value(rec)?.number();
    if bundle_number.code() != number.code()
        || number
            .year()
            .is_some_and(|y| bundle_number.year() != Some(y))
    {
        bail!("the bundle is for {bundle_number}, not {}", number.full());
    }
    // Receipt checks are named "<path> signature" ("receipt" for a bundle that is one).
    let signed = report.checks.iter().any(|c| {
        (c.subject.ends_with(" signature") || c.subject == "receipt")
            && c.status == verify::Status::Ok
    });
    if !signed {
        bail!("no receipt signature in the bundle verifies with the registry key pith-v1-2026-05");
    }
    Ok(())
}

/// Runs `pith badge`.
pub fn run_badge(args: BadgeArgs) -> Result<Outcome> {
    let (number, opts) = args.look.resolve()?;
    let svg = badge::svg(&number, &opts)?;
    match &args.output {
        Some(path) => write_atomic(path, svg.as_bytes())?,
        None => write_atomic(std::path::Path::new("-"), svg.as_bytes())?,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};
    use serde_json::json;

    /// A bundle for the first test record, signed with a throwaway key (the registry's private
    /// key is not ours): exercises the positive path of the "verified" derivation.
    fn signed_bundle(sign_with: &SigningKey) -> (serde_json::Value, PithNumber) {
        let recs: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/records.json")).unwrap();
        let rec = recs[0]["canonical_record"].clone();
        let record = pith::Record::from_value(&rec).unwrap();
        let digest = record.digest();
        let sig = data_encoding::BASE64.encode(&sign_with.sign(&digest).to_bytes());
        let n = record.number();
        let v = json!({
            "bundle_type": "pith_open_graph_bundle", "bundle_version": "1.0",
            "pith_number": n.full(), "short_pith_number": n.short(),
            "canonical_record": rec, "canonical_sha256": record.canonical_sha256(),
            "events": [{"event_type": "record_created", "subject_pith_number": n.full(),
                "target": "record", "payload": {"canonical_record": rec,
                "canonical_sha256": record.canonical_sha256(),
                "receipt": {"kind": "pith_receipt", "key_id": "test-key", "signature": sig}}}]
        });
        (v, n)
    }

    fn key_of(sk: &SigningKey) -> Key {
        Key::parse(&data_encoding::BASE64.encode(sk.verifying_key().as_bytes())).unwrap()
    }

    fn judge(v: &serde_json::Value, n: &PithNumber, keys: &[Key]) -> Result<()> {
        judge_bundle(&verify::bundle(v, keys).unwrap(), v, n)
    }

    #[test]
    fn verified_needs_a_good_signature_for_this_number() {
        let sk = SigningKey::from_bytes(&[7; 32]);
        let (v, n) = signed_bundle(&sk);
        judge(&v, &n, &[key_of(&sk)]).unwrap();
        // The registry key does not know the throwaway key: unverified, not verified.
        let e = judge(&v, &n, &[Key::registry()]).unwrap_err();
        assert!(e.to_string().contains("no receipt signature"), "{e}");
        // A signature by another key is a mismatch.
        let other = SigningKey::from_bytes(&[8; 32]);
        let e = judge(&v, &n, &[key_of(&other)]).unwrap_err();
        assert!(e.to_string().contains("does not verify"), "{e}");
        // A good bundle for another number does not make this one verified.
        let n2 = PithNumber::parse("pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
        let e = judge(&v, &n2, &[key_of(&sk)]).unwrap_err();
        assert!(e.to_string().contains("not pith:2024:AAAA"), "{e}");
        // Same code, another year: not this number either.
        let e = judge(&v, &n.clone().with_year(1999), &[key_of(&sk)]).unwrap_err();
        assert!(e.to_string().contains("not pith:1999:"), "{e}");
        // No receipt at all.
        let mut bare = v.clone();
        bare["events"][0]["payload"]
            .as_object_mut()
            .unwrap()
            .remove("receipt");
        assert!(judge(&bare, &n, &[key_of(&sk)]).is_err());
    }
}
