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
        // Issue #15: say what -o expects, not only what it is not.
        anyhow::bail!(
            "{}: not a directory; -o takes the directory to write {} and {} into (\"-\" writes {} to standard output)",
            args.output.display(),
            pith::sty::STY_FILE,
            pith::sty::LTXML_FILE,
            pith::sty::STY_FILE
        );
    }
    // Both files or neither: each is staged in a temporary file (written and synced) before
    // either is renamed into place, so a full disk leaves no half-written pair behind.
    for name in [pith::sty::STY_FILE, pith::sty::LTXML_FILE] {
        super::check_clobber(&args.output.join(name))?;
    }
    let mut staged = vec![];
    for (name, text) in [(pith::sty::STY_FILE, &sty), (pith::sty::LTXML_FILE, &ltxml)] {
        let path = args.output.join(name);
        if super::fsutil::is_special(&path) {
            // A device or FIFO at the output path is written to, never replaced (issue #7).
            write_atomic(&path, text.as_bytes())?;
            continue;
        }
        // The new file gets 0666 less the umask (tempfile's default 0600 left pith.sty
        // unreadable to other users' LaTeX runs, issue #15); an existing file keeps its mode.
        let mode = std::fs::metadata(&path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions())
            .unwrap_or_else(|| std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let keep = std::fs::metadata(&path).is_ok_and(|m| m.is_file());
        let mut tmp = tempfile::Builder::new()
            .prefix(".pith-tmp-")
            .permissions(mode.clone())
            .tempfile_in(&args.output)
            .with_context(|| {
                format!(
                    "{}: cannot create a temporary file in {}",
                    path.display(),
                    args.output.display()
                )
            })?;
        if keep {
            // The umask applied at creation; an existing file's exact mode is set again.
            let _ = tmp.as_file().set_permissions(mode);
        }
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
