//! `pith sty` (being built; see its issue).

use anyhow::{bail, Result};

use super::Outcome;

/// Arguments of `pith sty`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `pith sty`.
pub fn run(_args: Args) -> Result<Outcome> {
    bail!("pith sty is not available in this build yet")
}
