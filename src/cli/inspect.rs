//! `pith inspect`: prints the report of [`pith::job::inspect`] as text or JSON; exit 1 when
//! it is not [`InspectReport::ok`] (no number, places that disagree, not the expected number;
//! "no number" exited 0 like a consistent file). A file that names its record by
//! URL only (`\pithnumber{<26>}`) has a number in this sense and exits 0 when
//! consistent, with a note saying how to add the full number.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use pith::job::{InspectReport, InspectRequest, Settings};

use super::hint::{hinted, By};
use super::input::NumberInput;
use super::Outcome;

/// Arguments of `pith inspect`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith inspect numbered.pdf\n  \
    pith inspect --json numbered.pdf\n  \
    pith inspect numbered.pdf --number pith:7BMK4ZKT   (exit 1 unless it carries that number)")]
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
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let expected = if args.expect.number.is_some() || args.expect.input.is_given() {
        Some(args.expect.reference(ui)?)
    } else {
        None
    };
    let req = InspectRequest {
        pdf: pith::job::pdf_input::PdfInput {
            input: Some(args.file.clone()),
            password: args.password.bytes()?,
            ..Default::default()
        },
        deep: args.deep,
        expected: expected.as_ref().map(ToString::to_string),
    };
    let r = req
        .run(None)
        .map_err(|e| hinted(e, &Settings::default(), false, By::Reader))?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?;
    } else if !ui.quiet() {
        // -q: errors only; the exit status says whether the file holds (as grep -q).
        text(&mut out, &r, expected.as_ref())?;
    }
    Ok(if r.ok() {
        Outcome::Ok
    } else {
        Outcome::Mismatch
    })
}

/// The report as text, one fact a line.
fn text(out: &mut impl Write, r: &InspectReport, expected: Option<&pith::NumberRef>) -> Result<()> {
    let or_none = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
    writeln!(out, "file: {}", r.file)?;
    writeln!(
        out,
        "pdf: {}, xref {}, {} xref section(s){}",
        r.version,
        r.xref,
        r.sections,
        if r.encrypted { ", encrypted" } else { "" }
    )?;
    if let Some(e) = &r.encryption {
        writeln!(out, "encryption: {e}")?;
    }
    if let Some(e) = &r.not_read {
        writeln!(out, "not read: {e}")?;
    }
    match (&r.number, &r.code) {
        (None, Some(c)) => writeln!(out, "number: - (record URL only: {c})")?,
        _ => writeln!(out, "number: {}", or_none(&r.number))?,
    }
    writeln!(
        out,
        "info: /PithNumber {} /PithURL {}",
        or_none(&r.info.number),
        or_none(&r.info.url)
    )?;
    match (&r.xmp, &r.xmp_error) {
        (Some(x), _) => writeln!(
            out,
            "xmp: pith:number {} pith:shortNumber {} pith:url {} xmp:Identifier [{}] dc:relation [{}]",
            or_none(&x.number),
            or_none(&x.short),
            or_none(&x.url),
            x.identifiers.join(", "),
            x.relations.join(", ")
        )?,
        (None, Some(e)) => writeln!(out, "xmp: unreadable ({e})")?,
        (None, None) => writeln!(out, "xmp: none")?,
    }
    places(out, r)?;
    tail(out, r, expected)
}

/// One line for each place that holds a number, saying which differ.
fn places(out: &mut impl Write, r: &InspectReport) -> Result<()> {
    for p in &r.places {
        let kind = serde_json::to_value(p.place)?;
        let kind = kind.as_str().unwrap_or("-");
        writeln!(
            out,
            "place: {kind}{} {}{}{}",
            p.object
                .as_ref()
                .map(|o| format!(" (object {o})"))
                .unwrap_or_default(),
            p.holds,
            if p.agrees { "" } else { " (differs)" },
            if p.rewritable {
                ""
            } else {
                " (not drawn by pith)"
            }
        )?;
    }
    Ok(())
}

/// The lines after the values: PDF/A, signatures, an interrupted update, the verdict.
fn tail(out: &mut impl Write, r: &InspectReport, expected: Option<&pith::NumberRef>) -> Result<()> {
    let declared = r.xmp.as_ref().is_some_and(|x| x.pith_schema_declared);
    match &r.pdfa {
        Some(p) => writeln!(
            out,
            "pdfa: {p} (pith extension schema declared: {})",
            if declared { "yes" } else { "no" }
        )?,
        None => writeln!(out, "pdfa: none")?,
    }
    match r.docmdp {
        Some(p) => writeln!(
            out,
            "signatures: {} (certified, DocMDP P={p})",
            r.signatures
        )?,
        None => writeln!(out, "signatures: {}", r.signatures)?,
    }
    if let Some(n) = r.uncommitted_bytes {
        writeln!(
            out,
            "uncommitted: {n} bytes after the PDF from an interrupted in-place update (readers do not see them; the next in-place run removes them)"
        )?;
    }
    writeln!(
        out,
        "consistent: {}",
        match (r.not_read.is_some(), r.has_number, r.consistent) {
            (true, ..) => "unknown (not read)",
            (false, false, _) => "- (no number)",
            (false, true, Some(true)) => "yes",
            (false, true, _) => "no",
        }
    )?;
    if let (true, Some(c)) = (r.url_only, &r.code) {
        writeln!(
            out,
            "note: carries the record URL of {c} but not the full number; add it with `pith inject --number pith:YYYY:{c}` (`pith number <arXiv id>` prints it)"
        )?;
    }
    if let (Some(m), Some(e)) = (r.matches_expected, expected) {
        writeln!(out, "expected {e}: {}", if m { "yes" } else { "no" })?;
    }
    Ok(())
}
