//! `pith inspect`: prints what `pith::pdf::inspect` finds; exit 1 when the file carries no
//! number, when the places that hold a number disagree with each other, or with the expected
//! number (issue #15: "no number" exited 0 like a consistent file).
//!
//! A file that names its record by URL only (`\pithnumber{<26>}`, the bare code a record
//! page shows, writes the record URL and the short form but no full number; issue 22) has a
//! number in this sense: it identifies one record. It exits 0 when consistent, with
//! `has_number: true`, `url_only: true`, `number: null` and `code`/`url` set in `--json`, and
//! a note saying how to add the full number.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::input::NumberInput;
use super::Outcome;

/// Arguments of `pith inspect`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PDF to read ("-" reads standard input).
    #[arg(value_name = "FILE.pdf")]
    pub file: PathBuf,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Check every cross-reference entry against the file (reads the whole file) and report
    /// the first bad one; by default a spread sample is checked.
    #[arg(long)]
    pub deep: bool,
    /// The number the file should carry (--number in any form, the short pith:<8> printed on
    /// page 1 included, or a record input such as --record).
    #[command(flatten)]
    pub expect: NumberInput,
    #[command(flatten)]
    pub password: super::password::Password,
}

/// Runs `pith inspect`.
pub fn run(args: Args) -> Result<Outcome> {
    let path = &args.file;
    let expected = if args.expect.number.is_some() || args.expect.input.is_given() {
        Some(args.expect.reference()?)
    } else {
        None
    };
    let check = if args.deep {
        pith::pdf::Check::Full
    } else {
        pith::pdf::Check::Sampled
    };
    let password = args.password.bytes()?;
    let hinted = |e: pith::pdf::Error| super::apply::hinted(e.in_file(path), false);
    let ins = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .context("-: cannot read standard input")?;
        pith::pdf::inspect_with(bytes, check, password.as_deref()).map_err(hinted)?
    } else {
        let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
        pith::pdf::inspect_with(&file, check, password.as_deref()).map_err(hinted)?
    };
    // The full number, never a yearless one; a file with the record URL only has a code.
    let found = ins.number().map(|n| n.full);
    let code = ins.code();
    let url = ins.url();
    let has_number = code.is_some();
    let consistent = ins.consistent();
    let named = code.as_deref().and_then(|c| {
        let full = ins
            .number()
            .and_then(|m| pith::PithNumber::parse(&m.full).ok());
        full.or_else(|| pith::PithNumber::parse(c).ok())
    });
    let matches_expected = expected
        .as_ref()
        .map(|e| named.as_ref().is_some_and(|n| n.matches(e)));
    let ok = has_number && consistent && matches_expected != Some(false);
    let x = ins.xmp.clone().unwrap_or_default();
    if args.json {
        let mut v = serde_json::json!({
            "file": path.display().to_string(),
            "version": ins.version,
            "xref": if ins.xref_stream { "stream" } else { "table" },
            "sections": ins.sections,
            "encrypted": ins.encrypted,
            "encryption": ins.encryption,
            "not_read": ins.not_read,
            "number": found,
            "has_number": has_number,
            "url_only": ins.url_only(),
            "code": code,
            "url": url,
            "info": { "PithNumber": ins.info_number, "PithURL": ins.info_url },
            "xmp": ins.xmp.as_ref().map(|_| serde_json::json!({
                "pith:number": x.number, "pith:shortNumber": x.short, "pith:url": x.url,
                "xmp:Identifier": x.identifiers, "dc:relation": x.relations,
                "pith_schema_declared": x.pith_schema_declared,
            })),
            "xmp_error": ins.xmp_error,
            "pdfa": ins.pdfa(),
            "signatures": ins.signatures,
            "docmdp": ins.docmdp,
            "consistent": if ins.not_read.is_some() { serde_json::Value::Null } else { consistent.into() },
            "matches_expected": matches_expected,
        });
        if let Some(n) = ins.uncommitted {
            v["uncommitted_bytes"] = n.into();
        }
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        let or_none = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
        writeln!(std::io::stdout(), "file: {}", path.display())?;
        writeln!(
            std::io::stdout(),
            "pdf: {}, xref {}, {} xref section(s){}",
            ins.version,
            if ins.xref_stream { "stream" } else { "table" },
            ins.sections,
            if ins.encrypted { ", encrypted" } else { "" }
        )?;
        if let Some(e) = &ins.encryption {
            writeln!(std::io::stdout(), "encryption: {e}")?;
        }
        if let Some(e) = &ins.not_read {
            writeln!(std::io::stdout(), "not read: {e}")?;
        }
        match (&found, &code) {
            (None, Some(c)) => writeln!(std::io::stdout(), "number: - (record URL only: {c})")?,
            _ => writeln!(std::io::stdout(), "number: {}", or_none(&found))?,
        }
        writeln!(
            std::io::stdout(),
            "info: /PithNumber {} /PithURL {}",
            or_none(&ins.info_number),
            or_none(&ins.info_url)
        )?;
        match (&ins.xmp, &ins.xmp_error) {
            (Some(_), _) => writeln!(std::io::stdout(),
                "xmp: pith:number {} pith:shortNumber {} pith:url {} xmp:Identifier [{}] dc:relation [{}]",
                or_none(&x.number),
                or_none(&x.short),
                or_none(&x.url),
                x.identifiers.join(", "),
                x.relations.join(", ")
            )?,
            (None, Some(e)) => writeln!(std::io::stdout(), "xmp: unreadable ({e})")?,
            (None, None) => writeln!(std::io::stdout(), "xmp: none")?,
        }
        match ins.pdfa() {
            Some(p) => writeln!(
                std::io::stdout(),
                "pdfa: {p} (pith extension schema declared: {})",
                if x.pith_schema_declared { "yes" } else { "no" }
            )?,
            None => writeln!(std::io::stdout(), "pdfa: none")?,
        }
        match ins.docmdp {
            Some(p) => writeln!(
                std::io::stdout(),
                "signatures: {} (certified, DocMDP P={p})",
                ins.signatures
            )?,
            None => writeln!(std::io::stdout(), "signatures: {}", ins.signatures)?,
        }
        if let Some(n) = ins.uncommitted {
            writeln!(
                std::io::stdout(),
                "uncommitted: {n} bytes after the PDF from an interrupted in-place update (readers do not see them; the next in-place run removes them)"
            )?;
        }
        writeln!(
            std::io::stdout(),
            "consistent: {}",
            match (has_number, consistent, &ins.not_read) {
                (_, _, Some(_)) => "unknown (not read)",
                (false, _, None) => "- (no number)",
                (true, true, None) => "yes",
                (true, false, None) => "no",
            }
        )?;
        if let (true, Some(c)) = (ins.url_only(), &code) {
            writeln!(
                std::io::stdout(),
                "note: carries the record URL of {c} but not the full number; add it with `pith inject --number pith:YYYY:{c}` (`pith number <arXiv id>` prints it)"
            )?;
        }
        if let Some(m) = matches_expected {
            writeln!(
                std::io::stdout(),
                "expected {}: {}",
                expected.as_ref().map(|e| e.to_string()).unwrap_or_default(),
                if m { "yes" } else { "no" }
            )?;
        }
    }
    Ok(if ok { Outcome::Ok } else { Outcome::Mismatch })
}
