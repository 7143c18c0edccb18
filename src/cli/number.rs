//! `pith number`: the Pith Number of a record or of a paper's metadata.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use pith::job::input::{ArxivSource, RecordSource};
use pith::job::number::NumberRun;
use pith::job::{self, NumberReport, NumberRequest};

use super::input::RecordInput;
use super::Outcome;

/// Arguments of `pith number`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith number 2402.03791                      the latest version's number, from arXiv\n  \
    pith number arXiv:2402.03791v3 hep-th/9901001 https://arxiv.org/abs/2412.14374\n  \
    pith number 2402.03791 --next --tex         the \\pithnumber line for the next version\n  \
    pith number --offline 2402.03791            from the cache only\n  \
    pith number --record examples/2402.03791v3.record.json\n\
\n\
arXiv is asked at most once every 3 seconds, also across runs; answers are cached in\n\
$PITH_CACHE_DIR (else the platform cache directory, ~/.cache/pith on Linux).")]
pub struct Args {
    /// arXiv ids or abs URLs (2402.03791, 2402.03791v3, hep-th/9901001, arXiv:2402.03791,
    /// https://arxiv.org/abs/2402.03791): each paper's number, from arXiv's metadata. Without a
    /// version, the latest; an older version needs its --title-file and --abstract-file. With
    /// --arxiv-atom FILE, one id picks that paper's entry of the file (no network).
    #[arg(value_name = "ARXIV_ID")]
    ids: Vec<String>,
    /// Print the LaTeX line \pithnumber{pith:YYYY:<26>} instead of the number.
    #[arg(long)]
    tex: bool,
    #[command(flatten)]
    input: RecordInput,
    /// Print {arxiv_id, pith_number, short_pith_number, canonical_sha256, url} as JSON (JSON
    /// Lines, one object per entry, for a feed with several entries).
    #[arg(long)]
    pub(super) json: bool,
    /// Read canonical records as JSON Lines (one record per line, "-" for stdin) and print one
    /// number per line: the bulk form for archives.
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,
    /// arXiv metadata snapshot files (JSON Lines; "-" for stdin; gzip, bzip2, xz, zstd or
    /// Kaggle's zip recognised by content): one JSON line per paper, in input order.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    arxiv_snapshot: Vec<PathBuf>,
    /// OAI-PMH ListRecords pages in arXivRaw format, as harvesters save them (compressed or
    /// not; "-" for stdin): one JSON line per paper, deleted records reported.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    arxiv_oai: Vec<PathBuf>,
    /// With --arxiv-snapshot/--arxiv-oai: stop at the first bad line or record.
    #[arg(long)]
    strict: bool,
    /// With --arxiv-snapshot/--arxiv-oai: worker threads (default: the available cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
}

/// The `--json` description of a record's number: the library's report without the record.
fn describe(r: &NumberReport) -> Result<serde_json::Value> {
    let mut v = serde_json::to_value(r)?;
    if let Some(o) = v.as_object_mut() {
        o.remove("record");
    }
    Ok(v)
}

/// Prints the number of every record the input describes, one per line.
pub fn run(args: Args, ui: super::Ui) -> Result<Outcome> {
    let sources = job::number::NumberSources {
        ids: args.ids.clone(),
        jsonl: args.jsonl.clone(),
        arxiv_snapshot: args.arxiv_snapshot.clone(),
        arxiv_oai: args.arxiv_oai.clone(),
        strict: args.strict,
        jobs: args.jobs,
        tex: args.tex,
        json: args.json,
    };
    let run = super::input::hint(args.input.given().and_then(|g| sources.run_of(g)))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let given = match run {
        NumberRun::Bulk(bulk) => {
            super::arxiv::number(&bulk, ui)?;
            return Ok(Outcome::Ok);
        }
        NumberRun::Jsonl(path) => {
            job::number::jsonl(&path, &mut |r| match args.json {
                true => writeln!(out, "{}", describe(r).map_err(std::io::Error::other)?),
                false => writeln!(out, "{}", r.pith_number),
            })?;
            out.flush()?;
            return Ok(Outcome::Ok);
        }
        NumberRun::Ids(_) => return from_arxiv(&args, &mut out, ui),
        NumberRun::Input(given) => given,
    };
    let reports = super::input::hint(job::number::run(&NumberRequest {
        input: super::input::hint(given.input())?,
        net: args.input.net.settings(ui)?,
    }))?;
    let many = reports.len() > 1;
    for r in &reports {
        if args.input.next {
            next_note(ui, r);
        }
        print(&mut out, &args, r, many)?;
    }
    out.flush()?;
    Ok(Outcome::Ok)
}

/// As with --arxiv ID --next: the next version's number rests on what it keeps, said once.
fn next_note(ui: super::Ui, r: &NumberReport) {
    if let Some(v) = r.version() {
        super::note!(
            ui,
            "{}: the number v{v} will have if it keeps v{}'s title, abstract, categories and licence (v1's date stays; changing any of them changes the number)",
            r.arxiv_id
                .rsplit_once('v')
                .filter(|(_, n)| n.parse::<u32>().is_ok())
                .map_or(r.arxiv_id.as_str(), |(id, _)| id),
            v.saturating_sub(1)
        );
    }
}

/// One report: the number alone, or one pretty JSON object; of several (the entries of a
/// feed), each number followed by its arXiv id, like `sha256sum` lines, or JSON Lines.
fn print(out: &mut impl Write, args: &Args, r: &NumberReport, many: bool) -> Result<()> {
    match (args.tex, args.json, many) {
        (true, _, _) => writeln!(out, "\\pithnumber{{{}}}", r.pith_number)?,
        (false, true, false) => writeln!(out, "{}", serde_json::to_string_pretty(&describe(r)?)?)?,
        (false, true, true) => writeln!(out, "{}", describe(r)?)?,
        (false, false, false) => writeln!(out, "{}", r.pith_number)?,
        (false, false, true) => writeln!(out, "{}  {}", r.pith_number, r.arxiv_id)?,
    }
    Ok(())
}

/// `pith number ID…`: each paper's number from arXiv, through the number job. A failing id
/// is reported on its own line and the others go on; the exit is 2 when any failed.
fn from_arxiv(args: &Args, out: &mut impl Write, ui: super::Ui) -> Result<Outcome> {
    let settings = args.input.net.settings(ui)?;
    let many = args.ids.len() > 1;
    let mut failed = Vec::new();
    for text in &args.ids {
        let result = (|| -> Result<NumberReport> {
            let src = args.input.arxiv_source(text)?;
            let input = RecordSource::Arxiv(Box::new(src.clone()));
            let mut r = super::input::hint(job::number::run(&NumberRequest {
                input,
                net: settings.clone(),
            }))?;
            let r = r.remove(0);
            explain(&src, &r, ui);
            Ok(r)
        })();
        match result {
            Ok(r) => print(out, args, &r, many)?,
            // Several ids: each failure has its line and the others go on.
            Err(e) if many => {
                super::errln!("pith: {}", super::one_line(&pith::pdf::chain(e.as_ref())));
                failed.push(text.as_str());
            }
            Err(e) => return Err(e),
        }
        out.flush()?;
    }
    if failed.is_empty() {
        Ok(Outcome::Ok)
    } else {
        Err(anyhow::anyhow!(
            "{} of {} ids have no number: {}",
            failed.len(),
            args.ids.len(),
            failed.join(", ")
        ))
    }
}

/// The notes that say what a number is of, on standard error.
fn explain(src: &ArxivSource, r: &NumberReport, ui: super::Ui) {
    let (Some(v), Some(latest)) = (r.version(), r.latest_version) else {
        return;
    };
    if r.cached == Some(true) && ui.verbose(1) {
        super::note!(ui, "{}: arXiv's answer from the cache", src.id);
    }
    if v > latest {
        super::note!(
            ui,
            "{}: the number v{v} will have if it keeps {} (v1's date stays; changing the title, abstract, categories or licence changes the number)",
            src.id.id(),
            kept(&src.overrides, latest)
        );
    } else if v < latest {
        super::note!(
            ui,
            "{}v{v}: numbered with the title and abstract given; the categories and licence are v{latest}'s unless given",
            src.id.id(),
        );
    }
}
/// Which of arXiv's latest fields a next version keeps.
fn kept(ov: &pith::net::Overrides, latest: u32) -> String {
    let mut k = Vec::new();
    if ov.title.is_none() {
        k.push("the title");
    }
    if ov.abstract_text.is_none() {
        k.push("the abstract");
    }
    if ov.primary.is_none() && ov.cross.is_none() {
        k.push("the categories");
    }
    if ov.license.is_none() {
        k.push("the licence");
    }
    if k.is_empty() {
        "the fields given".into()
    } else {
        format!("{} of v{latest}", k.join(", "))
    }
}
