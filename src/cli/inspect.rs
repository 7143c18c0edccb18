//! `pith inspect`: prints what `pith::pdf::inspect` finds; exit 1 when the file carries no
//! number, when the places that hold a number disagree with each other, or with the expected
//! number (issue #15: "no number" exited 0 like a consistent file).

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
    /// The number the file should carry (--number in any form, the short pith:<8> printed on
    /// page 1 included, or a record input such as --record).
    #[command(flatten)]
    pub expect: NumberInput,
}

/// Runs `pith inspect`.
pub fn run(args: Args) -> Result<Outcome> {
    let path = &args.file;
    let expected = if args.expect.number.is_some() || args.expect.input.is_given() {
        Some(args.expect.reference()?)
    } else {
        None
    };
    let hinted = |e: pith::pdf::Error| super::apply::hinted(e.in_file(path), false);
    let ins = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .context("-: cannot read standard input")?;
        pith::pdf::inspect(bytes).map_err(hinted)?
    } else {
        let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
        pith::pdf::inspect(&file).map_err(hinted)?
    };
    let found = ins.found();
    let consistent = ins.consistent();
    let matches_expected = match (&expected, &found) {
        (None, _) => None,
        (Some(e), Some(f)) => Some(pith::PithNumber::parse(f).is_ok_and(|f| f.matches(e))),
        (Some(_), None) => Some(false),
    };
    let ok = found.is_some() && consistent && matches_expected != Some(false);
    let x = ins.xmp.clone().unwrap_or_default();
    if args.json {
        let v = serde_json::json!({
            "file": path.display().to_string(),
            "version": ins.version,
            "xref": if ins.xref_stream { "stream" } else { "table" },
            "sections": ins.sections,
            "encrypted": ins.encrypted,
            "number": found,
            "has_number": found.is_some(),
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
            "consistent": consistent,
            "matches_expected": matches_expected,
        });
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
        writeln!(std::io::stdout(), "number: {}", or_none(&found))?;
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
        writeln!(
            std::io::stdout(),
            "consistent: {}",
            match (found.is_some(), consistent) {
                (false, _) => "- (no number)",
                (true, true) => "yes",
                (true, false) => "no",
            }
        )?;
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
