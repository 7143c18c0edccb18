//! `pith verify PDF --capture …`: whether the PDF is, byte for byte, what the Internet Archive
//! captured; exit 0 when a capture holds it, 1 when none does, 2 on an error.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Result};
use pith::job::capture::{self, CaptureSource};

use super::Outcome;

/// Compares `pdf` with the captures named, prints the report, and says how to exit.
pub fn verify(
    pdf: Option<&Path>,
    sources: &[String],
    net: &pith::net::Settings,
    json: bool,
    ui: super::Ui,
) -> Result<Outcome> {
    let Some(pdf) = pdf else {
        bail!("a capture is compared with a PDF: give the PDF before --capture");
    };
    let sources: Vec<CaptureSource> = sources.iter().map(|s| CaptureSource::parse(s)).collect();
    let report = capture::compare(pdf, &sources, &Default::default(), net)?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else if !ui.quiet() {
        for c in &report.captures {
            let status = match (&c.refused, c.same) {
                (Some(_), _) => "refused",
                (None, true) => "same",
                (None, false) => "differs",
            };
            let why = c
                .refused
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            writeln!(out, "{status:<10} {} {}{why}", c.time_utc, c.capture.url)?;
        }
        writeln!(out, "{}", report.headline)?;
    }
    Ok(if report.is_stored() {
        Outcome::Ok
    } else {
        Outcome::Mismatch
    })
}
