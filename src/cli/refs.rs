//! `pith refs`: the arXiv ids and DOIs papers cite, read from their PDFs' reference lists and
//! their source tars' `.bbl` files by [`pith::job::refs`], as JSON Lines.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use pith::job::refs;
use pith::job::refs::request::RefsRequest;

use super::{note, Outcome};

/// Arguments of `pith refs`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith refs 2402.03791v3.pdf                       one line per arXiv id or DOI cited\n  \
    pith refs 2402.03791v3.tar.gz                    the same, from the source's .bbl\n  \
    pith refs pdfs/ --output refs.jsonl              every PDF under a folder\n  \
    pith index --refs refs.jsonl …                   Cited by on the mirror\n\
\n\
Each line: {\"file\", \"citing\" (the paper's arXiv id, from the file's name, arXiv's stamp or\n\
the PDF's metadata) and \"citing_from\" (\"name\", \"stamp\" or \"metadata\"), \"arxiv\" and\n\
\"version\" or \"doi\", \"page\" and \"line\" where it was read (\"member\" and \"line\" in a .bbl),\n\
\"via\": \"link\" when a link on the entry gave it}.\n\
Only the reference section of a PDF is read (after its References or Bibliography heading),\n\
without running headers and footers. A file that cannot be read, or whose citing paper\n\
nothing names, is named on standard error and the exit status is 2; the others' lines are\n\
written.")]
pub struct Args {
    /// PDFs, arXiv source tars (.tar.gz) or .bbl files; a folder stands for its PDFs.
    #[arg(value_name = "FILE", required = true)]
    paths: Vec<PathBuf>,
    /// Write the lines to FILE (whole, or not at all) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    deadline: super::inject::FileTimeout,
}

/// Prints (or writes) the references of every file.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let req = RefsRequest {
        paths: args.paths,
        output: args.output,
        file_timeout: args.deadline.file_timeout,
    };
    req.validate()?;
    let files = refs::inputs(&req.paths)?;
    let settings = req.settings();
    let mut text = Vec::new();
    let mut failed = 0usize;
    let mut stdout = std::io::stdout().lock();
    for f in &files {
        match refs::read(f, &settings.bounded()) {
            Ok(lines) => {
                let mut chunk = Vec::new();
                for l in &lines {
                    serde_json::to_writer(&mut chunk, l)?;
                    chunk.push(b'\n');
                }
                // Standard output gets each file's lines when its file is done.
                match req.destination() {
                    Some(_) => text.extend_from_slice(&chunk),
                    None => {
                        stdout.write_all(&chunk)?;
                        stdout.flush()?;
                    }
                }
            }
            // One file: its error is the command's.
            Err(e) if files.len() == 1 => return Err(e.into()),
            Err(e) => {
                failed += 1;
                super::errln!("pith: {}", pith::pdf::chain(&e));
            }
        }
    }
    if let Some(out) = req.destination() {
        req.ready()?;
        super::fsutil::write_atomic(out, &text)?;
        note!(
            ui,
            "{} lines from {} files written to {}",
            text.iter().filter(|b| **b == b'\n').count(),
            files.len() - failed,
            out.display()
        );
    }
    if failed > 0 {
        bail!("{failed} of {} files could not be read", files.len());
    }
    Ok(Outcome::Ok)
}
