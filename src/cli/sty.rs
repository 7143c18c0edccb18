//! `pith sty`: writes the LaTeX package `pith.sty` rendered by [`pith::sty`] (issue #3).

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::fsutil::write_atomic;
use super::Outcome;

/// Arguments of `pith sty`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write pith.sty into ("-" writes it to standard output).
    #[arg(short = 'o', long = "output", value_name = "DIR", default_value = ".")]
    output: PathBuf,
}

/// Renders `pith.sty` and writes it to `DIR/pith.sty` (atomically) or to standard output.
pub fn run(args: Args) -> Result<Outcome> {
    let sty = pith::sty::render(&pith::sty::Options::default()).context("pith.sty")?;
    if args.output.as_os_str() == "-" {
        write_atomic(&args.output, sty.as_bytes())?;
        return Ok(Outcome::Ok);
    }
    if !args.output.is_dir() {
        anyhow::bail!("{}: not a directory", args.output.display());
    }
    let path = args.output.join("pith.sty");
    write_atomic(&path, sty.as_bytes())?;
    eprintln!("pith: wrote {}", path.display());
    Ok(Outcome::Ok)
}
