//! `pith inject`: paths, the temporary-file-then-rename write and the report. The PDF work is
//! `pith::pdf::inject` (an append-only update) or `pith::pdf::rewrite` (`--rewrite`).

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::fsutil::same_file;
use super::input::NumberInput;
use super::Outcome;

/// Arguments of `pith inject`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PDF to update.
    #[arg(value_name = "IN.pdf")]
    pub input: PathBuf,
    #[command(flatten)]
    pub number: NumberInput,
    /// Where to write the updated PDF (through a temporary file and an atomic rename).
    #[arg(
        short,
        long,
        value_name = "OUT.pdf",
        required_unless_present = "in_place",
        conflicts_with = "in_place"
    )]
    pub output: Option<PathBuf>,
    /// Update IN.pdf itself (crash-safe: a complete copy is renamed over it).
    #[arg(long)]
    pub in_place: bool,
    /// Write a full rewrite instead of an incremental update (compacts the file, repairs a
    /// damaged cross-reference table, breaks signatures).
    #[arg(long)]
    pub rewrite: bool,
    /// Update certified files that forbid changes, and replace an unparsable XMP packet.
    #[arg(long)]
    pub force: bool,
}

/// The update time: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
fn now() -> String {
    let t = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .unwrap_or_else(chrono::Utc::now);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Runs `pith inject`.
pub fn run(args: Args) -> Result<Outcome> {
    let number = args.number.number()?;
    let input = &args.input;
    let target: &Path = match &args.output {
        Some(o) => {
            if same_file(input, o) {
                bail!(
                    "{}: input and output are the same file; use --in-place to update it",
                    input.display()
                );
            }
            o
        }
        None => input,
    };
    let file = File::open(input).with_context(|| format!("{}: cannot open", input.display()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        bail!("{}: is a directory", input.display());
    }
    let mut opts = pith::pdf::Options::new(&now());
    opts.force = args.force;

    if args.rewrite {
        let bytes = pith::pdf::rewrite(&file, &number, &opts)
            .with_context(|| input.display().to_string())?;
        write_new(target, input, &file, None, &bytes)?;
        println!(
            "{}: rewrote the whole file with {} ({})",
            target.display(),
            number.full(),
            number.url()
        );
        return Ok(Outcome::Ok);
    }

    let inj =
        pith::pdf::inject(&file, &number, &opts).with_context(|| input.display().to_string())?;
    if let Some(old) = &inj.replaced_xmp {
        eprintln!(
            "pith: {}: the old XMP packet was unparsable and is replaced (--force); it began: {}",
            input.display(),
            String::from_utf8_lossy(&old[..old.len().min(200)])
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    if inj.unchanged {
        if target != input.as_path() {
            write_new(target, input, &file, Some(&[]), &[])?;
        }
        println!(
            "{}: unchanged, already carries {}",
            input.display(),
            number.full()
        );
        return Ok(Outcome::Ok);
    }
    write_new(target, input, &file, Some(&inj.appended), &[])?;
    println!(
        "{}: injected {} ({})",
        target.display(),
        number.full(),
        number.url()
    );
    for line in &inj.written {
        println!("  {line}");
    }
    Ok(Outcome::Ok)
}

/// Writes `target` through a temporary file in its directory and an atomic rename: either a
/// copy of `src` followed by `append` (when `append` is given), or `whole`. "-" writes to
/// standard output. On any error the temporary file is removed and `target` is untouched.
fn write_new(
    target: &Path,
    input: &Path,
    src: &File,
    append: Option<&[u8]>,
    whole: &[u8],
) -> Result<()> {
    let fill = |w: &mut dyn Write| -> Result<()> {
        match append {
            Some(extra) => {
                let mut f = src
                    .try_clone()
                    .with_context(|| format!("{}: cannot read", input.display()))?;
                f.seek(SeekFrom::Start(0))?;
                std::io::copy(&mut f, w)
                    .with_context(|| format!("{}: cannot copy", input.display()))?;
                w.write_all(extra)?;
            }
            None => w.write_all(whole)?,
        }
        Ok(())
    };
    if target.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        fill(&mut out)?;
        out.flush()?;
        return Ok(());
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .tempfile_in(dir)
        .with_context(|| {
            format!(
                "{}: cannot create a temporary file in {}",
                target.display(),
                dir.display()
            )
        })?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut());
        fill(&mut w).with_context(|| format!("{}: cannot write", target.display()))?;
        w.flush()
            .with_context(|| format!("{}: cannot write", target.display()))?;
    }
    // Keep the input's permissions (matters for --in-place).
    if let Ok(m) = src.metadata() {
        let _ = tmp.as_file().set_permissions(m.permissions());
    }
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("{}: cannot write", target.display()))?;
    tmp.persist(target)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot replace", target.display()))?;
    Ok(())
}
