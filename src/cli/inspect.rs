//! `pith inspect` (being built; see its issue).

use anyhow::{bail, Result};

use super::Outcome;

/// Arguments of `pith inspect`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `pith inspect`.
pub fn run(_args: Args) -> Result<Outcome> {
    bail!("pith inspect is not available in this build yet")
}
