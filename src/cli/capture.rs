//! `pith verify PDF --capture …`: whether the PDF is, byte for byte, what the Internet Archive
//! captured; exit 0 when a capture holds it, 1 when none does, 2 on an error.

use std::io::Write;

use anyhow::Result;
use pith::job::VerifyRequest;

use super::Outcome;

/// Compares the request's PDF with its captures ([`pith::job::verify::run_captures`]), prints
/// the report, and says how to exit.
pub fn verify(req: &VerifyRequest, json: bool, ui: super::Ui) -> Result<Outcome> {
    let report = pith::job::verify::run_captures(req)?;
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
