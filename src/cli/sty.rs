//! `pith sty`: writes the LaTeX package `pith.sty` and its LaTeXML binding `pith.sty.ltxml`,
//! rendered by [`pith::sty`] (issues #3, #8).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::fsutil::write_atomic;
use super::Outcome;

/// Arguments of `pith sty`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write pith.sty and pith.sty.ltxml (its LaTeXML binding) into ("-" writes
    /// pith.sty alone to standard output).
    #[arg(short = 'o', long = "output", value_name = "DIR", default_value = ".")]
    output: PathBuf,
}

/// Renders `pith.sty` and `pith.sty.ltxml` and writes them to `DIR` (each atomically), or
/// `pith.sty` alone to standard output.
pub fn run(args: Args) -> Result<Outcome> {
    let opts = pith::sty::Options::default();
    let sty = pith::sty::render(&opts).context(pith::sty::STY_FILE)?;
    if args.output.as_os_str() == "-" {
        write_atomic(&args.output, sty.as_bytes())?;
        return Ok(Outcome::Ok);
    }
    let ltxml = pith::sty::render_ltxml(&opts).context(pith::sty::LTXML_FILE)?;
    if !args.output.is_dir() {
        anyhow::bail!("{}: not a directory", args.output.display());
    }
    // Both files or neither: each is staged in a temporary file (written and synced) before
    // either is renamed into place, so a full disk leaves no half-written pair behind.
    let mut staged = vec![];
    for (name, text) in [(pith::sty::STY_FILE, &sty), (pith::sty::LTXML_FILE, &ltxml)] {
        let path = args.output.join(name);
        if super::fsutil::is_special(&path) {
            // A device or FIFO at the output path is written to, never replaced (issue #7).
            write_atomic(&path, text.as_bytes())?;
            continue;
        }
        let mut tmp = tempfile::Builder::new()
            .prefix(".pith-tmp-")
            .tempfile_in(&args.output)
            .with_context(|| {
                format!(
                    "{}: cannot create a temporary file in {}",
                    path.display(),
                    args.output.display()
                )
            })?;
        tmp.write_all(text.as_bytes())
            .and_then(|_| tmp.as_file().sync_all())
            .with_context(|| format!("{}: cannot write", path.display()))?;
        staged.push((tmp, path));
    }
    for (tmp, path) in staged {
        tmp.persist(&path)
            .map_err(|e| e.error)
            .with_context(|| format!("{}: cannot replace", path.display()))?;
        super::note!("wrote {}", path.display());
    }
    Ok(Outcome::Ok)
}
