//! `pith index` and `pith serve`: run by the `pith-serve` binary, the way git and cargo run
//! their external subcommands, so that this binary carries no web server, async runtime or
//! SQLite. It is looked for beside this executable first (where `cargo install` and a release
//! archive put both), then on `PATH`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result};

/// The arguments, passed on to `pith-serve` untouched (`--help` included).
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<OsString>,
}

/// Examples of `pith index` (its help and man page come from pith-serve's; these are pith's).
pub const INDEX_EXAMPLES: &str = "Examples:\n  \
    pith index -o arxiv.pith-index --arxiv-snapshot arxiv-metadata-oai-snapshot.json.gz\n  \
    pith index -o arxiv.pith-index --arxiv-oai harvest/page-1.xml.gz --bundles bundles/";

/// Examples of `pith serve`.
pub const SERVE_EXAMPLES: &str = "Examples:\n  \
    pith serve arxiv.pith-index --listen 0.0.0.0:8080\n  \
    pith serve arxiv.pith-index --export site/ --base-url https://mirror.example.org";

/// The program that serves `pith index` and `pith serve`.
const PROGRAM: &str = "pith-serve";

/// Runs `pith-serve SUBCOMMAND ARGS…` in this process's place (Unix), or waits for it and exits
/// with its code.
pub fn run(subcommand: &str, args: Args, ui: super::Ui) -> Result<super::Outcome> {
    let program = find().with_context(|| {
        format!(
            "`pith {subcommand}` needs the program {PROGRAM}, found neither beside pith nor on PATH; \
             install it (cargo install --locked --path crates/pith-serve, or the release archive) next to pith"
        )
    })?;
    let mut cmd = Command::new(&program);
    cmd.arg(subcommand).args(&args.args);
    // Its help and usage lines then say `pith serve`, as typed, not `pith-serve serve`.
    cmd.env("PITH_SERVE_AS", "pith");
    if ui.quiet() {
        cmd.arg("--quiet");
    }
    launch(cmd).with_context(|| format!("cannot run {}", program.display()))
}

/// The server takes this process's place, so that SIGTERM from a supervisor (systemd, a
/// container runtime) reaches it and stops it gracefully.
#[cfg(unix)]
fn launch(mut cmd: Command) -> Result<super::Outcome> {
    use std::os::unix::process::CommandExt;
    Err(cmd.exec().into())
}

#[cfg(not(unix))]
fn launch(mut cmd: Command) -> Result<super::Outcome> {
    match cmd.status()?.code() {
        Some(0) => Ok(super::Outcome::Ok),
        // pith-serve printed its own `pith: …` line; keep its exit code without a second line.
        Some(code) => std::process::exit(code),
        None => anyhow::bail!("{PROGRAM} was stopped"),
    }
}

fn find() -> Option<PathBuf> {
    let name = format!("{PROGRAM}{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(&name)));
    beside.filter(|p| p.is_file()).or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(&name))
                .find(|p| p.is_file())
        })
    })
}
