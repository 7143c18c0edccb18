//! `pith sty`: writes the LaTeX package `pith.sty` and its LaTeXML binding `pith.sty.ltxml`,
//! rendered by [`pith::sty`].

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::fsutil::write_atomic;
use super::Outcome;

/// Arguments of `pith sty`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith sty                  (writes ./pith.sty and ./pith.sty.ltxml)\n  \
    pith sty -o paper/\n  \
    pith sty -o - > pith.sty")]
pub struct Args {
    /// Directory to write pith.sty and pith.sty.ltxml (its LaTeXML binding) into, created when
    /// missing; the current directory when left out ("-" writes pith.sty alone to standard
    /// output).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Renders `pith.sty` and `pith.sty.ltxml` and writes them to `DIR` (each atomically), or
/// `pith.sty` alone to standard output.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let dir = args
        .output
        .unwrap_or_else(|| PathBuf::from(pith::job::defaults::STY_DIR));
    let opts = pith::job::sty::StyRequest::default()
        .options()
        .context(pith::sty::STY_FILE)?;
    let sty = pith::sty::render(&opts).context(pith::sty::STY_FILE)?;
    if pith::output::is_stdio(&dir) {
        write_atomic(&dir, sty.as_bytes())?;
        return Ok(Outcome::Ok);
    }
    let ltxml = pith::sty::render_ltxml(&opts).context(pith::sty::LTXML_FILE)?;
    // A folder that does not exist yet is made, as `pith man --dir` does; a file in its
    // place is refused below, and so is a missing path named like the file itself
    // (`-o pith.sty`), which is a file name given where the folder goes.
    let names_a_file = dir
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".sty") || n.ends_with(".ltxml"));
    if !dir.exists() && !names_a_file {
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("{}: cannot create", dir.display()))?;
    }
    if !dir.is_dir() {
        // Say what -o expects, not only what it is not.
        anyhow::bail!(
            "{}: not a directory; -o takes the directory to write {} and {} into (\"-\" writes {} to standard output)",
            dir.display(),
            pith::sty::STY_FILE,
            pith::sty::LTXML_FILE,
            pith::sty::STY_FILE
        );
    }
    // Both files or neither: each is staged in a temporary file (written and synced) before
    // either is renamed into place, so a full disk leaves no half-written pair behind.
    for name in [pith::sty::STY_FILE, pith::sty::LTXML_FILE] {
        ui.check_clobber(&dir.join(name))?;
    }
    let files = [
        (dir.join(pith::sty::STY_FILE), sty.as_bytes()),
        (dir.join(pith::sty::LTXML_FILE), ltxml.as_bytes()),
    ];
    pith::output::write_files(&files)?;
    for (path, _) in &files {
        super::note!(ui, "wrote {}", path.display());
    }
    Ok(Outcome::Ok)
}
