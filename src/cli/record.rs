//! `pith record`: build the canonical record from a paper's metadata and print it.

use anyhow::Result;
use pith::job::record::{self, RecordRequest};

use super::input::{hint, RecordInput};
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
    let req = RecordRequest {
        given: hint(args.input.given())?,
        canonical: args.canonical,
    };
    hint(req.validate())?;
    let records = hint(record::run(&req, &args.input.net.settings(ui)?))?;
    req.write(&records, &mut std::io::stdout().lock())?;
    Ok(Outcome::Ok)
}
