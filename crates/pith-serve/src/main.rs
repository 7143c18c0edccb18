//! `pith-serve`: the binary `pith index` and `pith serve` run. Arguments → library calls, one
//! `pith: …` line on error, exit 0 or 2.
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use pith_serve::app::{self, AppState};
use pith_serve::limits::{self, Limits};

/// A mirror of the Pith resolver: build an index, serve it.
#[derive(Debug, Parser)]
#[command(name = "pith", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve an index: the resolver's routes (records, bundles, arXiv redirects, badges).
    Serve(ServeArgs),
}

#[derive(Debug, clap::Args)]
struct ServeArgs {
    /// The index file (`pith index -o INDEX …` builds it).
    index: PathBuf,
    /// Address to listen on; port 0 picks a free port. The first line printed is
    /// `listening on http://HOST:PORT`.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    listen: String,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Serve(a) => serve(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let line = format!("{e:#}")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            eprintln!("pith: {line}");
            ExitCode::from(2)
        }
    }
}

fn serve(args: ServeArgs) -> Result<()> {
    let _ = &args.index;
    let limits = Limits::default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let addr = listener.local_addr()?;
        println!("listening on http://{addr}");
        let router = app::router(AppState::new(limits));
        limits::serve(listener, router, limits, limits::shutdown_signal()).await?;
        Ok(())
    })
}
