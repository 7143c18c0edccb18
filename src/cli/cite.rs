//! `pith cite`: a paper's citation (BibTeX, CSL-JSON, RIS) from its arXiv id, its number or a
//! record input; the input is resolved and the citation made by [`pith::job::cite`].

use anyhow::Result;
use pith::job::cite::{self, CiteRequest};
use pith::job::input::RecordSource;

use super::input::{hint, RecordInput};
use super::Outcome;

/// Arguments of `pith cite`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith cite 2402.03791v3                          BibTeX, from arXiv's metadata\n  \
    pith cite pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --format csl-json\n  \
    pith cite --offline --record paper.record.json --format ris\n  \
    pith cite --arxiv-atom examples/2402.03791v3.atom.xml >> refs.bib\n  \
    pith cite --offline --record paper.record.json -o paper.bib\n\
\n\
A record file may be the bare canonical record or the resolver's JSON (canonical_record beside\n\
title and authors); the title and authors come from there, from the Atom entry or from arXiv.")]
pub struct Args {
    /// The paper: an arXiv id or abs URL (2402.03791v3), or its Pith Number (pith:YYYY:<26>,
    /// <26> or its record URL; the record comes from the resolver, or the cache with
    /// --offline).
    #[arg(value_name = "ID|NUMBER")]
    paper: Option<String>,
    /// The citation format.
    #[arg(long, value_name = "FORMAT", value_parser = ["bibtex", "csl-json", "ris"], help = format!(
        "The citation format [default: {}]",
        pith::job::defaults::CITE_FORMAT
    ))]
    format: Option<String>,
    /// Write the citation to FILE (whole, or not at all; its folders are made) instead of
    /// standard output ("-").
    #[arg(short, long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    input: RecordInput,
}

/// Prints the citation, or writes it to -o.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let given = pith::job::given::text_or_input(
        args.paper.as_deref(),
        args.input.is_given(),
        "ID|NUMBER",
        "--record, --arxiv-atom…",
        "no paper: give an arXiv id, a number, --record FILE or --arxiv-atom FILE",
    )?;
    let input = match given {
        pith::job::given::TextOrInput::Text(text) => hint(RecordSource::from_text(text))?,
        pith::job::given::TextOrInput::Input => args.input.to_input()?,
    };
    let req = CiteRequest {
        input,
        format: args.format.clone(),
        output: args.output.clone(),
        no_clobber: ui.no_clobber(),
        net: args.input.net.settings(ui)?,
    };
    let report = hint(cite::run(&req))?;
    req.write(&report)
        .map_err(|e| super::hint::hinted(e, &Default::default(), false, super::hint::By::Reader))?;
    Ok(Outcome::Ok)
}
