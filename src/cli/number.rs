//! `pith number`: the Pith Number of a record or of a paper's metadata.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use pith::Record;
use serde_json::json;

use super::input::{read_text, RecordInput};
use super::Outcome;

/// Arguments of `pith number`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: RecordInput,
    /// Print {pith_number, short_pith_number, canonical_sha256, url} as JSON.
    #[arg(long)]
    json: bool,
    /// Read canonical records as JSON Lines (one record per line, "-" for stdin) and print one
    /// number per line: the bulk form for archives.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["record", "arxiv_atom", "id"])]
    jsonl: Option<PathBuf>,
}

/// The `--json` description of a record's number.
fn describe(record: &Record) -> serde_json::Value {
    let n = record.number();
    json!({
        "pith_number": n.full(),
        "short_pith_number": n.short(),
        "canonical_sha256": record.canonical_sha256(),
        "url": n.url(),
    })
}

/// Prints the number of every record the input describes, one per line.
pub fn run(args: Args) -> Result<Outcome> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Some(path) = &args.jsonl {
        let text = read_text(path)?;
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let record =
                Record::from_json(line).with_context(|| format!("{}:{}", path.display(), i + 1))?;
            match args.json {
                true => writeln!(out, "{}", describe(&record))?,
                false => writeln!(out, "{}", record.number())?,
            }
        }
    } else {
        for record in args.input.records()? {
            match args.json {
                true => writeln!(out, "{}", serde_json::to_string_pretty(&describe(&record))?)?,
                false => writeln!(out, "{}", record.number())?,
            }
        }
    }
    out.flush()?;
    Ok(Outcome::Ok)
}
