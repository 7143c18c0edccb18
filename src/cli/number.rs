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
    /// Print {arxiv_id, pith_number, short_pith_number, canonical_sha256, url} as JSON (JSON
    /// Lines, one object per entry, for a feed with several entries).
    #[arg(long)]
    json: bool,
    /// Read canonical records as JSON Lines (one record per line, "-" for stdin) and print one
    /// number per line: the bulk form for archives.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["record", "arxiv_atom", "id"])]
    jsonl: Option<PathBuf>,
    /// arXiv metadata snapshot files (JSON Lines; "-" for stdin; gzip, bzip2, xz, zstd or
    /// Kaggle's zip recognised by content): one JSON line per paper, in input order.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["record", "arxiv_atom", "id", "jsonl"])]
    arxiv_snapshot: Vec<PathBuf>,
    /// OAI-PMH ListRecords pages in arXivRaw format, as harvesters save them (compressed or
    /// not; "-" for stdin): one JSON line per paper, deleted records reported.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["record", "arxiv_atom", "id", "jsonl"])]
    arxiv_oai: Vec<PathBuf>,
    /// With --arxiv-snapshot/--arxiv-oai: stop at the first bad line or record.
    #[arg(long)]
    strict: bool,
    /// With --arxiv-snapshot/--arxiv-oai: worker threads (default: the available cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
}

/// The `--json` description of a record's number; `arxiv_id` is the versioned id the record
/// is about (issue #15: several entries of a feed must be told apart).
fn describe(record: &Record) -> serde_json::Value {
    let n = record.number();
    json!({
        "arxiv_id": versioned_id(record),
        "pith_number": n.full(),
        "short_pith_number": n.short(),
        "canonical_sha256": record.canonical_sha256(),
        "url": n.url(),
    })
}

/// `2402.03791v3`.
fn versioned_id(record: &Record) -> String {
    format!("{}v{}", record.source.id, record.source.version)
}

/// Prints the number of every record the input describes, one per line.
pub fn run(args: Args) -> Result<Outcome> {
    if !args.arxiv_snapshot.is_empty() || !args.arxiv_oai.is_empty() {
        super::arxiv::number(
            &args.arxiv_snapshot,
            &args.arxiv_oai,
            args.strict,
            args.jobs,
        )?;
        return Ok(Outcome::Ok);
    }
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
        // One record: the number alone, or one pretty JSON object. Several (the entries of a
        // feed): each number followed by its arXiv id, like `sha256sum` lines, or JSON Lines
        // (issue #15: the ids were missing and the JSON objects were concatenated).
        let records = args.input.records()?;
        let many = records.len() > 1;
        for record in &records {
            match (args.json, many) {
                (true, false) => {
                    writeln!(out, "{}", serde_json::to_string_pretty(&describe(record))?)?
                }
                (true, true) => writeln!(out, "{}", describe(record))?,
                (false, false) => writeln!(out, "{}", record.number())?,
                (false, true) => writeln!(out, "{}  {}", record.number(), versioned_id(record))?,
            }
        }
    }
    out.flush()?;
    Ok(Outcome::Ok)
}
