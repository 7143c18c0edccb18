//! `pith inject`: arguments and the report. The PDF work is `pith::pdf::inject` (an
//! append-only update, written by [`super::apply`]) or `pith::pdf::rewrite` (`--rewrite`).

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::apply::{apply, hinted, now, Applied, Target};
use super::fsutil::{same_file, write_atomic};
use super::input::NumberInput;
use super::Outcome;

/// Arguments of `pith inject`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PDF to update ("-" reads standard input; then give -o).
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
    /// Update IN.pdf itself: the update is appended under a lock and committed by one
    /// sector-sized write, so a crash leaves the file as it was or fully updated.
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

/// Runs `pith inject`.
pub fn run(args: Args) -> Result<Outcome> {
    let number = args.number.number()?;
    let input = &args.input;
    let stdin = input.as_os_str() == "-";
    if let Some(o) = &args.output {
        if !stdin && same_file(input, o) {
            bail!(
                "{}: input and output are the same file; use --in-place to update it",
                input.display()
            );
        }
    }
    if stdin && args.in_place {
        bail!("-: standard input cannot be updated in place; give -o OUT.pdf or -o -");
    }
    let mut opts = pith::pdf::Options::new(&now());
    opts.force = args.force;
    // With the PDF on standard output, the report goes to standard error.
    let to_stdout = args.output.as_deref().is_some_and(|o| o.as_os_str() == "-");
    let mut say = |line: String| {
        if to_stdout {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    };

    if stdin || args.rewrite {
        return whole_file(&args, &number, &opts, &mut say);
    }
    let target = match &args.output {
        Some(o) => Target::File(o),
        None => Target::InPlace,
    };
    let shown = args.output.as_deref().unwrap_or(input);
    let r = apply(input, target, &number, &opts)?;
    warn_replaced(input, r.replaced_xmp.as_deref());
    match r.applied {
        Applied::Unchanged => say(format!(
            "{}: unchanged, already carries {}",
            input.display(),
            number.full()
        )),
        Applied::Injected => {
            say(format!(
                "{}: injected {} ({})",
                shown.display(),
                number.full(),
                number.url()
            ));
            for line in &r.written {
                say(format!("  {line}"));
            }
        }
    }
    Ok(Outcome::Ok)
}

fn warn_replaced(input: &Path, old: Option<&[u8]>) {
    if let Some(old) = old {
        eprintln!(
            "pith: {}: the old XMP packet was unparsable and is replaced (--force); it began: {}",
            input.display(),
            String::from_utf8_lossy(&old[..old.len().min(200)])
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

/// `--rewrite`, and input from standard input (`pith inject - -o -` in pipelines): the whole
/// input is held in memory and the whole result written through a temporary file and a rename
/// (or to standard output).
fn whole_file(
    args: &Args,
    number: &pith::PithNumber,
    opts: &pith::pdf::Options,
    say: &mut dyn FnMut(String),
) -> Result<Outcome> {
    let input = &args.input;
    let bytes = if input.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut v)
            .context("-: cannot read standard input")?;
        v
    } else {
        std::fs::read(input).with_context(|| format!("{}: cannot read", input.display()))?
    };
    let target = args.output.as_deref().unwrap_or(input);
    let what = |e: pith::pdf::Error| hinted(e.in_file(input), opts.force);
    if args.rewrite {
        let out = pith::pdf::rewrite(&bytes, number, opts).map_err(what)?;
        // A rewrite in place replaces the file: keep the permissions it had.
        let perms = std::fs::metadata(target).ok().map(|m| m.permissions());
        write_atomic(target, &out)?;
        if let (true, Some(p)) = (args.in_place, perms) {
            std::fs::set_permissions(target, p)
                .with_context(|| format!("{}: cannot restore permissions", target.display()))?;
        }
        say(format!(
            "{}: rewrote the whole file with {} ({})",
            target.display(),
            number.full(),
            number.url()
        ));
        return Ok(Outcome::Ok);
    }
    let inj = pith::pdf::inject(&bytes, number, opts).map_err(what)?;
    warn_replaced(input, inj.replaced_xmp.as_deref());
    let mut out = bytes;
    out.extend_from_slice(&inj.appended);
    write_atomic(target, &out)?;
    if inj.unchanged {
        say(format!(
            "{}: unchanged, already carries {}",
            input.display(),
            number.full()
        ));
    } else {
        say(format!(
            "{}: injected {} ({})",
            target.display(),
            number.full(),
            number.url()
        ));
        for line in &inj.written {
            say(format!("  {line}"));
        }
    }
    Ok(Outcome::Ok)
}
