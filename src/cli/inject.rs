//! `pith inject` (being built; see its issue).

use anyhow::{bail, Result};

use super::Outcome;

/// Arguments of `pith inject`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `pith inject`.
pub fn run(_args: Args) -> Result<Outcome> {
    bail!("pith inject is not available in this build yet")
}
