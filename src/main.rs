//! The `pith` command-line tool: a thin layer over the library (see `pith --help`).
use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main()
}
