//! The `pith` command-line tool: a thin layer over the library (see `pith --help`).
use std::process::ExitCode;

mod arenas;
mod cli;

fn main() -> ExitCode {
    arenas::few_arenas();
    cli::main()
}
