//! `pith-serve`: the program `pith index` and `pith serve` run. Arguments → library calls, one
//! `pith: …` line per problem on standard error, exit 0 (done) or 2 (an error, or bad inputs
//! reported above).
// The allocator's setting the `pith` binary makes too (the library forbids unsafe code).
#[path = "../../../src/arenas.rs"]
mod arenas;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use pith::job::one_line;
use pith_serve::app::{self, AppState};
use pith_serve::index::request::IndexRequest;
use pith_serve::index::{self, Index, Sources};
use pith_serve::limits::{self, LimitSettings};

/// Writes a line on standard error as `eprintln!` does, but never panics: a standard error
/// closed early (`pith index … 2>&1 | head -1`) loses the line, and the command goes on to
/// its own exit code.
macro_rules! errln {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// A mirror of the Pith resolver: build an index of numbers, serve it with live badges, or
/// export it as static files.
#[derive(Debug, Parser)]
#[command(name = "pith-serve", bin_name = "pith-serve", version, about)]
struct Cli {
    /// Print only errors: no counts or summaries on standard error.
    #[arg(short, long, global = true, help_heading = "Global options")]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build or update an index from arXiv bulk metadata, records and bundles.
    Index(IndexArgs),
    /// Serve an index: records, bundles, arXiv redirects and badges, as pith.science does.
    Serve(ServeArgs),
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith index -o arxiv.pith-index --arxiv-snapshot arxiv-metadata-oai-snapshot.json.gz\n  \
    pith index -o arxiv.pith-index --arxiv-oai harvest/*.xml.gz --bundles bundles/\n\n\
    An existing INDEX is updated: what it holds is kept, what changed is replaced (the old\n\
    record stays resolvable, marked superseded). The new index is written beside INDEX and\n\
    renamed over it at the end, so an interrupted run leaves the old one whole.")]
struct IndexArgs {
    /// The index file to build or update.
    #[arg(short, long, value_name = "INDEX")]
    output: Option<PathBuf>,
    /// arXiv's metadata snapshot files (JSON Lines; gzip, bzip2, xz, zstd or zip): one or
    /// more after the flag, as `pith number` takes them; repeatable.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    arxiv_snapshot: Vec<PathBuf>,
    /// OAI-PMH ListRecords pages in arXivRaw, as harvesters save them (compressed or not):
    /// one or more after the flag (a harvest of several pages); repeatable.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    arxiv_oai: Vec<PathBuf>,
    /// A folder of records (*.json: a record, the resolver's wrapped record, or an array).
    #[arg(long, value_name = "DIR")]
    records: Vec<PathBuf>,
    /// A folder of bundles (*.json); their events give each record's status.
    #[arg(long, value_name = "DIR")]
    bundles: Vec<PathBuf>,
    /// A folder of OpenTimestamps proofs, <26>.ots, each of the indexed record of that
    /// number: a proof that verifies against the Bitcoin headers makes its record "anchored".
    #[arg(long, value_name = "DIR")]
    anchors: Vec<PathBuf>,
    /// Bitcoin block headers the proofs are checked against: 80-byte headers one after another,
    /// or lines of 160 hex digits [default: asked of $PITH_BITCOIN_URL, a node's REST
    /// interface (…/rest) or an Esplora-style API].
    #[arg(long, value_name = "FILE")]
    headers: Option<PathBuf>,
    /// A folder of Internet Archive captures: WARC files, CDX files (lines or the CDX API's
    /// JSON) and batch or tar reports (*.jsonl, giving the PDFs' sha1). A capture pith checks
    /// makes its version "stored"; the others are reported and skipped.
    #[arg(long, value_name = "DIR")]
    captures: Vec<PathBuf>,
    /// The lines `pith refs` wrote (JSON Lines; compressed or not): what each paper cites. The
    /// record pages list the references and the papers of the index that cite them ("Cited by").
    #[arg(long, value_name = "FILE")]
    refs: Vec<PathBuf>,
    /// An Ed25519 public key (base64 or hex, or a file holding it) whose receipt signatures
    /// make a record "verified", besides the built-in registry key and the keys INDEX trusts.
    /// The keys PITH_KEYS pins count as given here, and are kept in INDEX the same way.
    #[arg(long, value_name = "KEY")]
    key: Vec<String>,
    /// Forget the keys INDEX trusted before (given to earlier builds with --key): trust only the
    /// registry key and the --key (and PITH_KEYS) given now. Without it, the keys are kept.
    #[arg(long)]
    drop_keys: bool,
    /// Start from an empty index instead of updating INDEX.
    #[arg(long)]
    fresh: bool,
    /// Stop at the first line, record or bundle that cannot be indexed (INDEX is left as it was).
    #[arg(long)]
    strict: bool,
    /// Worker threads computing numbers (default: one per core).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// Print the counts as JSON on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith serve arxiv.pith-index --listen 0.0.0.0:8080\n  \
    pith serve arxiv.pith-index --export site/ --base-url https://mirror.example.org\n\n\
    Routes: /pith/<26>.json, /pith/<26> (JSON-LD), /pith/<26>/bundle.json, /pith/<26>/state.json,\n\
    /pith/<8|12|16> and /arxiv/<id>[vN] (303 to the number), /badge/<26>.svg?style=&full=&qr=,\n\
    /badge/<26>.json (shields.io endpoint), /healthz. Pages for browsers: / (look a paper up),\n\
    /pith/<26> with Accept: text/html (the record page), /verify (check a PDF; POST it with\n\
    Accept: application/json for the pith verify --json report). SIGTERM stops it gracefully.\n\n\
    A rebuilt INDEX (pith index -o INDEX … renames the new file into place) is picked up within\n\
    about a second, or at once on SIGHUP: new requests read it, answers kept from the old one are\n\
    dropped. If the new file is not a usable index, the old one goes on being served and one\n\
    line on standard error says why.")]
struct ServeArgs {
    /// The index file (`pith index -o INDEX …` builds it; a rebuild is served within a second).
    index: PathBuf,
    /// Address to listen on; port 0 picks a free port. The first line printed is
    /// `listening on http://HOST:PORT`.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    listen: String,
    /// Write every route as static files into DIR instead of serving.
    #[arg(long, value_name = "DIR")]
    export: Option<PathBuf>,
    /// The public URL of this mirror (https://mirror.example.org): the only host its answers
    /// name (snippets, the check recipe, JSON-LD ids, the sitemap). Without it URLs are
    /// relative to the server and there is no sitemap; the request's Host is never used.
    #[arg(long, value_name = "URL", default_value = "")]
    base_url: String,
    /// Connections open at once; when they are, the one idle the longest is closed to make
    /// room for a new one.
    #[arg(long, value_name = "N", default_value_t = LimitSettings::default().max_connections)]
    max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold open; a further one is closed.
    #[arg(long, value_name = "N", default_value_t = LimitSettings::default().max_connections_per_client)]
    max_connections_per_client: usize,
    /// Seconds a client has to send its request head.
    #[arg(long, value_name = "SECS", default_value_t = LimitSettings::default().header_timeout)]
    header_timeout: u64,
    /// Seconds a connection may stall reading or writing before it is closed.
    #[arg(long, value_name = "SECS", default_value_t = LimitSettings::default().idle_timeout)]
    idle_timeout: u64,
    /// Seconds an answer may take before 503.
    #[arg(long, value_name = "SECS", default_value_t = LimitSettings::default().request_timeout)]
    request_timeout: u64,
    /// Bytes of answers kept in memory (badges, records, redirects; 64 MiB by default); 0
    /// keeps none. A record's page, JSON and citations are made once per index; one over
    /// 256 KiB is kept in a file beside the index and streamed.
    #[arg(long, value_name = "BYTES")]
    cache_bytes: Option<u64>,
    /// The bound in answers of earlier versions, read as N answers of 4 KiB (0 keeps none).
    #[arg(long, value_name = "N", hide = true)]
    cache_entries: Option<u64>,
    /// PDFs checked at once (/verify); others wait their turn.
    #[arg(long, value_name = "N", default_value_t = LimitSettings::default().checks)]
    checks: usize,
    /// Checks that may wait for their turn; one more is answered 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = LimitSettings::default().check_queue)]
    check_queue: usize,
    /// Seconds a check may wait for its turn before 503.
    #[arg(long, value_name = "SECS", default_value_t = LimitSettings::default().check_wait)]
    check_wait: u64,
    /// Seconds a check may take before 503 (0: no bound, as --file-timeout 0 of pith inject).
    #[arg(long, value_name = "SECS", default_value_t = LimitSettings::default().check_timeout)]
    check_timeout: f64,
    /// Uploads to /verify received at once; one more is answered 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = LimitSettings::default().upload_slots)]
    upload_slots: usize,
    /// Bytes all uploads being received or checked may hold in memory together (128 MB by
    /// default; at least --max-upload); one that would pass it is answered 503.
    #[arg(long, value_name = "BYTES", default_value_t = LimitSettings::default().upload_memory)]
    upload_memory: u64,
    /// Bytes per second an upload must keep up on average after --upload-grace; a slower
    /// one is cut off (408).
    #[arg(long, value_name = "BYTES", default_value_t = LimitSettings::default().upload_rate)]
    upload_rate: u64,
    /// Seconds an upload may take before --upload-rate is asked of it.
    #[arg(long, value_name = "SECS", default_value_t = LimitSettings::default().upload_grace)]
    upload_grace: u64,
    /// Worker threads answering requests (default: one per core).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// Largest PDF, in bytes, that /verify checks (default 100 MB); a larger one is answered
    /// 413 with a page that says so.
    #[arg(long, value_name = "BYTES", default_value_t = LimitSettings::default().max_upload)]
    max_upload: u64,
}

impl ServeArgs {
    /// The limits as given, for the library to check ([`LimitSettings::validate`]) and turn
    /// into the server's.
    fn limit_settings(&self) -> LimitSettings {
        LimitSettings {
            max_connections: self.max_connections,
            max_connections_per_client: self.max_connections_per_client,
            header_timeout: self.header_timeout,
            idle_timeout: self.idle_timeout,
            request_timeout: self.request_timeout,
            cache_bytes: self.cache_bytes,
            cache_entries: self.cache_entries,
            checks: self.checks,
            check_queue: self.check_queue,
            check_wait: self.check_wait,
            check_timeout: self.check_timeout,
            upload_slots: self.upload_slots,
            upload_memory: self.upload_memory,
            upload_rate: self.upload_rate,
            upload_grace: self.upload_grace,
            max_upload: self.max_upload,
        }
    }
}

/// The library's refusal of `pith serve`'s limits, said with this command's flags as a usage
/// error (one line and the usage, exit 2), before the index is opened.
fn refused_arguments(e: limits::SettingsError) -> ExitCode {
    let said = match e {
        limits::SettingsError::CacheTwice => {
            "the argument '--cache-entries <N>' cannot be used with '--cache-bytes <BYTES>'"
                .to_owned()
        }
        e => e.to_string(),
    };
    let mut cmd = command();
    cmd.build();
    let serve = cmd.find_subcommand_mut("serve").expect("the serve command");
    let e = serve.error(clap::error::ErrorKind::ArgumentConflict, said);
    ExitCode::from(pith::job::usage::print_usage_error(&e.render().to_string()))
}

/// The command line this program reads, named as it was run: `pith` when pith runs it for
/// `pith index` and `pith serve` (and says so in `PITH_SERVE_AS`), so that its help and usage
/// lines show what the user typed; `pith-serve` when run on its own.
fn command() -> clap::Command {
    let cmd = Cli::command();
    match std::env::var("PITH_SERVE_AS").as_deref() {
        Ok("pith") => cmd.name("pith").bin_name("pith"),
        _ => cmd,
    }
}

fn main() -> ExitCode {
    arenas::few_arenas();
    let cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap's own text.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, as every error of pith's (and the JSON asked for).
            let status = pith::job::usage::print_usage_error(&e.render().to_string());
            return ExitCode::from(status);
        }
    };
    if let Command::Serve(a) = &cli.command {
        if let Err(e) = a.limit_settings().validate() {
            return refused_arguments(e);
        }
    }
    let json = matches!(&cli.command, Command::Index(a) if a.json);
    let result = match cli.command {
        Command::Index(a) => run_index(a, cli.quiet),
        Command::Serve(a) => serve(a, cli.quiet),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the report went away (`pith index --json … | head -1`): nothing is
        // left to say, as ripgrep does.
        Err(e) if pith::job::usage::broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            let line = one_line(&pith::pdf::chain(e.as_ref()));
            if json && e.downcast_ref::<AfterReport>().is_none() {
                let kind = e
                    .chain()
                    .map(|c| match c.downcast_ref::<index::Error>() {
                        Some(i) => i.code(),
                        None => pith::job::code_of(c),
                    })
                    .find(|k| *k != pith::job::ErrorCode::Invalid)
                    .unwrap_or(pith::job::ErrorCode::Invalid);
                print_json_error(&line, kind);
            }
            let _ = std::io::stdout().flush();
            errln!("pith: {line}");
            ExitCode::from(2)
        }
    }
}

/// An error after the JSON report was printed: its line goes to standard error alone.
#[derive(Debug)]
struct AfterReport(String);

impl std::fmt::Display for AfterReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AfterReport {}

/// The error as `--json` prints it at every command: `{error, kind}` on standard output.
fn print_json_error(line: &str, kind: pith::job::ErrorCode) {
    let v = serde_json::json!({ "error": line, "kind": kind });
    let _ = writeln!(
        std::io::stdout(),
        "{}",
        serde_json::to_string_pretty(&v).unwrap_or_default()
    );
}

/// The Bitcoin headers the proofs in `anchors` are checked against, from where the library's
/// rule says ([`pith::job::ots::HeadersSource`], as `pith ots verify`): of the file given,
/// those whose merkle root a proof arrives at; else those of the blocks the proofs claim, from
/// `PITH_BITCOIN_URL` (a block it cannot give is marked missing, and the proofs claiming it
/// are reported by the build); none without either. The proofs are read only when headers
/// come from somewhere.
fn anchor_headers(
    anchors: &[PathBuf],
    file: Option<&std::path::Path>,
) -> Result<pith::ots::Headers> {
    // No proofs, no header to check them against.
    if anchors.is_empty() {
        return Ok(pith::ots::Headers::default());
    }
    let claims = || index::build::anchor_claims(anchors);
    pith::job::ots::HeadersSource::of(file).headers(
        || Ok(claims()?.1),
        || Ok(claims()?.0),
        || Ok(pith::net::Settings::from_env()?),
    )
}

fn run_index(a: IndexArgs, quiet: bool) -> Result<()> {
    let req = IndexRequest {
        output: a.output,
        arxiv_snapshot: a.arxiv_snapshot,
        arxiv_oai: a.arxiv_oai,
        records: a.records,
        bundles: a.bundles,
        anchors: a.anchors,
        headers: a.headers,
        captures: a.captures,
        refs: a.refs,
        key: a.key,
        drop_keys: a.drop_keys,
        fresh: a.fresh,
        strict: a.strict,
        jobs: a.jobs,
    };
    req.validate()?;
    // The index file's folder is made, and a folder refused, as for every output.
    req.ready()?;
    let sources = Sources {
        keys: req.keys()?,
        headers: anchor_headers(&req.anchors, req.headers.as_deref())?,
        snapshots: req.arxiv_snapshot.clone(),
        oai: req.arxiv_oai.clone(),
        records: req.records.clone(),
        bundles: req.bundles.clone(),
        drop_keys: req.drop_keys,
        anchors: req.anchors.clone(),
        captures: req.captures.clone(),
        refs: req.refs.clone(),
    };
    let opts = req.options();
    let output = req.index_file();
    let mut err = std::io::stderr().lock();
    let counts = index::build(output, &sources, opts, &mut |line| {
        let _ = writeln!(err, "pith: {}", one_line(line));
    })?;
    if a.json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string(&counts)?)?;
    }
    if !quiet {
        errln!("pith: {}: {counts}", output.display());
    }
    if counts.bad > 0 {
        // The counts were printed as the JSON report: the error line goes alone.
        return Err(AfterReport(format!(
            "{} input(s) could not be indexed (reported above); the rest is in {}",
            counts.bad,
            output.display()
        ))
        .into());
    }
    Ok(())
}

fn serve(a: ServeArgs, quiet: bool) -> Result<()> {
    let index = Index::open(&a.index)?;
    let base = a.base_url.trim_end_matches('/');
    if let Some(dir) = &a.export {
        let done = pith_serve::export::export(&index, dir, base, &mut |line| {
            errln!("pith: {}", one_line(line));
        })?;
        if !quiet {
            errln!("pith: {}: {done}", dir.display());
        }
        if done.skipped > 0 {
            bail!(
                "{} record(s) could not be exported (reported above); the rest is in {}",
                done.skipped,
                dir.display()
            );
        }
        return Ok(());
    }
    let limits = a.limit_settings().limits();
    // This thread watches the index and the signals; the connections are answered by one
    // loop per worker, each on a thread of its own ([`limits::serve`]).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(async {
        let listeners = limits::listeners(&a.listen, pith::job::pass_threads(a.jobs))
            .with_context(|| format!("cannot listen on {}", a.listen))?;
        let addr = listeners[0].local_addr()?;
        let state = AppState::new(index, base, limits).with_max_upload(a.max_upload);
        // Before the address is printed: from then on SIGHUP reloads, it does not end the server.
        tokio::spawn(app::watch(
            state.clone(),
            Duration::from_secs(1),
            move |path, r| match r {
                app::Reload::Reloaded(n) if !quiet => {
                    errln!(
                        "pith: {}: rebuilt index served ({n} records)",
                        path.display()
                    );
                }
                app::Reload::Overwritten => errln!(
                    "pith: {}: {}; answering 503 until then",
                    path.display(),
                    pith_serve::index::ErrorKind::Overwritten
                ),
                app::Reload::Rejected(e) => errln!(
                    "pith: {}: the new file is not served, the previous index is: {}",
                    path.display(),
                    one_line(&e.kind().to_string())
                ),
                _ => {}
            },
        ));
        // The stop handlers are installed before the address is announced: a SIGTERM from
        // then on is a graceful stop.
        let stop = limits::shutdown_signal();
        // Nobody may read it: a closed standard output does not stop the server.
        let _ = writeln!(std::io::stdout(), "listening on http://{addr}");
        let _ = std::io::stdout().flush();
        let uploads = state.uploads().clone();
        let app = app::App::new(state);
        // On SIGTERM the checks in flight are stopped too: their clients get a 503 at once,
        // and nothing outlives the grace period.
        let shutdown = async move {
            stop.await;
            uploads.stop_all();
        };
        // A loop that cannot take its listener ends the server with a line saying why.
        limits::serve(listeners, app, limits, shutdown)
            .await
            .with_context(|| format!("cannot serve on {addr}"))?;
        Ok::<(), anyhow::Error>(())
    })?;
    // A check that has not yet seen its stop is not waited for.
    rt.shutdown_timeout(Duration::from_millis(500));
    Ok(())
}
