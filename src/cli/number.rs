//! `pith number`: the Pith Number of a record or of a paper's metadata.

use anyhow::Result;
use serde_json::json;

use super::input::RecordInput;
use super::Outcome;

/// Arguments of `pith number`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: RecordInput,
    /// Print {pith_number, short_pith_number, canonical_sha256, url} as JSON.
    #[arg(long)]
    json: bool,
}

/// Prints the number of every record the input describes, one per line.
pub fn run(args: Args) -> Result<Outcome> {
    for record in args.input.records()? {
        let n = record.number();
        if args.json {
            let v = json!({
                "pith_number": n.full(),
                "short_pith_number": n.short(),
                "canonical_sha256": record.canonical_sha256(),
                "url": n.url(),
            });
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            println!("{n}");
        }
    }
    Ok(Outcome::Ok)
}
