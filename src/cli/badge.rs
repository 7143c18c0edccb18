//! `pith badge` and `pith snippet` (being built; see issue #5).

use anyhow::{bail, Result};

use super::Outcome;

/// Arguments of `pith badge`.
#[derive(Debug, clap::Args)]
pub struct BadgeArgs {}

/// Arguments of `pith snippet`.
#[derive(Debug, clap::Args)]
pub struct SnippetArgs {}

/// Runs `pith badge`.
pub fn run_badge(_args: BadgeArgs) -> Result<Outcome> {
    bail!("pith badge is not available in this build yet")
}

/// Runs `pith snippet`.
pub fn run_snippet(_args: SnippetArgs) -> Result<Outcome> {
    bail!("pith snippet is not available in this build yet")
}
