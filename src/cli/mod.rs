//! Command-line interface: clap parsing, file paths, atomic writes and exit codes.
//! No domain logic lives here (STYLE.md, "pith layout"); every subcommand calls the library.

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

mod arxiv;
mod badge;
mod batch;
mod capture;
mod cite;
mod external;
mod fsutil;
mod generate;
mod hint;
mod inject;
mod input;
mod inspect;
mod net;
mod number;
mod ots;
mod password;
mod record;
mod refs;
mod strip;
mod sty;
mod tar;
mod verify;

/// What a subcommand concluded; errors travel as `anyhow::Error` instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything checked holds (exit 0).
    Ok,
    /// A verification found a mismatch (exit 1).
    Mismatch,
}

/// An error whose kind the library knows and whose line the CLI composed (a hint added).
#[derive(Debug)]
pub struct Failure {
    kind: pith::job::ErrorCode,
    line: String,
    /// Whether the command printed its JSON report already, so that the error is not printed
    /// as JSON too.
    reported: bool,
}

impl Failure {
    /// The error of `kind` printed as `line`.
    pub fn new(kind: pith::job::ErrorCode, line: String) -> Self {
        Failure {
            kind,
            line,
            reported: false,
        }
    }

    /// The error of `kind` printed as `line`, after the command printed its JSON report: the
    /// error line then goes to standard error alone.
    pub fn after_report(kind: pith::job::ErrorCode, line: String) -> Self {
        Failure {
            kind,
            line,
            reported: true,
        }
    }

    /// Whether `e` comes after the command's JSON report ([`Failure::after_report`]).
    fn reported(e: &anyhow::Error) -> bool {
        e.chain()
            .any(|c| c.downcast_ref::<Failure>().is_some_and(|f| f.reported))
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line)
    }
}

impl std::error::Error for Failure {}

/// The kind of an error in the library's table: a [`Failure`]'s, else the first library
/// error of the chain's.
fn kind_of(e: &anyhow::Error) -> pith::job::ErrorCode {
    for c in e.chain() {
        if let Some(f) = c.downcast_ref::<Failure>() {
            return f.kind;
        }
        if let Some(h) = c.downcast_ref::<hint::Hinted>() {
            return h.kind();
        }
        let k = pith::job::code_of(c);
        if k != pith::job::ErrorCode::Invalid {
            return k;
        }
    }
    pith::job::ErrorCode::Invalid
}

/// Pith Numbers for scientific papers: compute, verify, embed.
#[derive(Debug, Parser)]
#[command(
    name = "pith",
    version,
    about,
    long_about = None,
    after_help = "Examples:\n  \
    pith number --arxiv-atom paper.atom.xml\n  \
    pith inject paper.pdf --number pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 -o numbered.pdf\n  \
    pith inspect numbered.pdf\n  \
    pith help inject"
)]
pub struct Cli {
    /// Print only errors: no progress, notes, hints or summaries on standard error.
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        help_heading = "Global options"
    )]
    quiet: bool,
    /// Print more about what is done (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count, help_heading = "Global options")]
    verbose: u8,
    /// Never replace an existing output file (-o, --out-dir, sty's directory): refuse it
    /// instead. By default an output is replaced, atomically, as qpdf and compilers do.
    #[arg(short = 'n', long, global = true, help_heading = "Global options")]
    no_clobber: bool,
    #[command(subcommand)]
    command: Command,
}

/// The global options, resolved once from the command line and handed to the commands that
/// print or write.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ui {
    /// -1 with `--quiet`, 0 by default, `-v` counts up (to 3).
    verbosity: i8,
    /// `--no-clobber`.
    no_clobber: bool,
}

impl Ui {
    /// The options of the parsed command line.
    fn of(cli: &Cli) -> Self {
        let verbosity = if cli.quiet {
            -1
        } else {
            cli.verbose.min(3) as i8
        };
        Ui {
            verbosity,
            no_clobber: cli.no_clobber,
        }
    }

    /// Whether `--no-clobber` was given.
    pub fn no_clobber(self) -> bool {
        self.no_clobber
    }

    /// Whether `--quiet` was given: informational output on standard error is left out.
    pub fn quiet(self) -> bool {
        self.verbosity < 0
    }

    /// Whether `-v` was given at least `level` times.
    pub fn verbose(self, level: i8) -> bool {
        self.verbosity >= level
    }

    /// `--no-clobber`'s refusal of an output about to be written: the library's check
    /// ([`pith::job::check_output`]), with the command line's hint.
    pub fn check_clobber(self, path: &std::path::Path) -> anyhow::Result<()> {
        pith::job::check_output(None, path, self.no_clobber)
            .map_err(|e| hint::hinted(e, &pith::job::Settings::default(), false, hint::By::Reader))
    }
}

/// Prints an informational line on standard error (`pith: …`) unless `--quiet` (`ui`, a
/// [`Ui`]).
macro_rules! note {
    ($ui:expr, $($t:tt)*) => {
        if !$ui.quiet() {
            $crate::cli::errln!("pith: {}", format!($($t)*));
        }
    };
}
pub(crate) use note;

/// Writes a line on standard error as `eprintln!` does, but never panics: a standard error
/// closed early (`pith … 2>&1 | head -1`) loses the line, and the command goes on to its own
/// exit code.
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}
pub(crate) use errln;

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the Pith Number of a paper: from its arXiv id, a record or its metadata.
    Number(number::Args),
    /// Build the canonical record from a paper's metadata.
    Record(record::Args),
    /// Check a PDF, a record, a text or a bundle against a number; exit 1 on a mismatch.
    Verify(verify::Args),
    /// Print a paper's citation: BibTeX (arXiv's fields and the number), CSL-JSON or RIS.
    Cite(cite::Args),
    /// Print the arXiv ids and DOIs papers cite (their reference lists), as JSON Lines.
    Refs(refs::Args),
    /// Write the LaTeX package pith.sty.
    Sty(sty::Args),
    /// Write the number and its link into a PDF's XMP and Info (incremental update).
    Inject(inject::Args),
    /// Show the Pith Number and link found in a PDF.
    Inspect(inspect::Args),
    /// Take the Pith Number, its link and the stamp out of a PDF (incremental update).
    Strip(strip::Args),
    /// Write a badge for a number: SVG, or PDF for LaTeX and print (--format).
    Badge(badge::BadgeArgs),
    /// Inject numbers into many PDFs in parallel (manifest or directory), with a JSON Lines report.
    Batch(batch::Args),
    /// Print the code that embeds a badge (Markdown, HTML, reStructuredText, AsciiDoc, LaTeX).
    Snippet(badge::SnippetArgs),
    /// OpenTimestamps proofs of a record's digest: stamp, upgrade, and verify offline against Bitcoin headers.
    Ots(ots::Args),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions(generate::CompletionsArgs),
    /// Print the man page pith(1), or write it and one page per subcommand into a directory.
    Man(generate::ManArgs),
    /// Build the index `pith serve` reads, from arXiv bulk metadata, records and bundles (runs pith-serve).
    #[command(disable_help_flag = true, after_help = external::INDEX_EXAMPLES)]
    Index(external::Args),
    /// Serve an index as a mirror of the resolver, with live badges, or export it as static files (runs pith-serve).
    #[command(disable_help_flag = true, after_help = external::SERVE_EXAMPLES)]
    Serve(external::Args),
}

impl Command {
    /// Whether the subcommand prints JSON: its errors are then also printed as a JSON object
    /// on standard output, `{"error": …, "kind": …}`, as Python raises them.
    fn prints_json(&self) -> bool {
        match self {
            Command::Number(a) => a.json,
            Command::Verify(a) => a.json,
            Command::Inject(a) => a.json,
            Command::Inspect(a) => a.json,
            Command::Strip(a) => a.json,
            Command::Batch(a) => a.json,
            Command::Ots(a) => a.prints_json(),
            _ => false,
        }
    }
}

/// Runs the CLI and maps the result to an exit code: 0 ok, 1 mismatch, 2 error.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            // --help, --version, and `pith` alone: clap's own text.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
        Err(e) => {
            // One line, as every error of pith's (and the JSON asked for).
            let status = pith::job::usage::print_usage_error(&e.render().to_string());
            return ExitCode::from(status);
        }
    };
    let ui = Ui::of(&cli);
    let json = cli.command.prints_json();
    let result = match cli.command {
        Command::Number(a) => number::run(a, ui),
        Command::Record(a) => record::run(a, ui),
        Command::Verify(a) => verify::run(a, ui),
        Command::Cite(a) => cite::run(a, ui),
        Command::Refs(a) => refs::run(a, ui),
        Command::Sty(a) => sty::run(a, ui),
        Command::Inject(a) => inject::run(a, ui),
        Command::Inspect(a) => inspect::run(a, ui),
        Command::Strip(a) => strip::run(a, ui),
        Command::Badge(a) => badge::run_badge(a, ui),
        Command::Batch(a) => batch::run(a, ui),
        Command::Snippet(a) => badge::run_snippet(a, ui),
        Command::Ots(a) => ots::run(a, ui),
        Command::Completions(a) => generate::completions(a),
        Command::Man(a) => generate::man(a, ui),
        Command::Index(a) => external::run("index", a, ui),
        Command::Serve(a) => external::run("serve", a, ui),
    };
    match result {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::Mismatch) => ExitCode::from(1),
        Err(e) => fail(&e, json),
    }
}

/// Prints a command's error (its `pith: …` line, and `{error, kind}` under `--json` unless
/// the command reported it already) and gives exit 2; a closed standard output is no error
/// (the reader has all it wanted, as with ripgrep) and exits 0.
fn fail(e: &anyhow::Error, json: bool) -> ExitCode {
    if pith::job::usage::broken_pipe(e.as_ref()) {
        return ExitCode::SUCCESS;
    }
    let line = one_line(&pith::pdf::chain(e.as_ref()));
    if json && !Failure::reported(e) {
        let v = serde_json::json!({ "error": line, "kind": kind_of(e) });
        let text = serde_json::to_string_pretty(&v).unwrap_or_default();
        let _ = writeln!(std::io::stdout(), "{text}");
    }
    let _ = std::io::stdout().flush();
    errln!("pith: {line}");
    ExitCode::from(2)
}

pub(crate) use pith::job::one_line;

/// Prints a report's lines on standard output, or on standard error when the PDF itself goes
/// to standard output (`-o -`), so the two never mix.
fn say(lines: &[String], to_stdout: bool) -> std::io::Result<()> {
    use std::io::Write;
    for line in lines {
        if to_stdout {
            errln!("{line}");
        } else {
            writeln!(std::io::stdout(), "{line}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
