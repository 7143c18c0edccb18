//! `pith record`: build the canonical record from a paper's metadata and print it.

use std::io::Write;

use anyhow::Result;

use super::input::RecordInput;
use super::Outcome;

/// Arguments of `pith record`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith record --arxiv 2402.03791              the latest version's record, from arXiv\n  \
    pith record --arxiv 2402.03791 --next       the record the next version will have\n  \
    pith record --arxiv-atom examples/2402.03791v3.atom.xml\n  \
    pith record --arxiv-atom examples/2402.03791v3.atom.xml --canonical | sha256sum")]
pub struct Args {
    #[command(flatten)]
    input: RecordInput,
    /// Print the exact canonical bytes that are hashed (no trailing newline).
    #[arg(long)]
    canonical: bool,
}

/// Prints each record: pretty JSON (JSON Lines for several), or the canonical bytes with
/// `--canonical` (one record per line for several).
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let records = args.input.records(ui)?;
    let mut out = std::io::stdout().lock();
    for (i, record) in records.iter().enumerate() {
        if args.canonical {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(&record.canonical_bytes())?;
        } else if records.len() > 1 {
            // Several entries of a feed: JSON Lines, not concatenated pretty objects.
            writeln!(out, "{}", serde_json::to_string(&record.to_value())?)?;
        } else {
            writeln!(out, "{}", serde_json::to_string_pretty(&record.to_value())?)?;
        }
    }
    out.flush()?;
    Ok(Outcome::Ok)
}
