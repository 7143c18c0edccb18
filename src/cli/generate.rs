//! `pith completions SHELL` and `pith man`: shell completions and man pages generated from the
//! clap definitions, so they say exactly what `--help` says.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::CommandFactory;

use super::fsutil::write_atomic;
use super::Outcome;

/// Arguments of `pith completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith completions bash > ~/.local/share/bash-completion/completions/pith\n  \
    pith completions zsh > ~/.zfunc/_pith      (with fpath+=~/.zfunc before compinit)\n  \
    pith completions fish > ~/.config/fish/completions/pith.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Arguments of `pith man`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith man | man -l -\n  \
    pith man --dir ~/.local/share/man/man1      (then: man pith, man pith-inject)")]
pub struct ManArgs {
    /// Write pith.1 and one page per subcommand (pith-inject.1, …) into DIR instead of
    /// printing pith.1 to standard output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Runs `pith completions`.
pub fn completions(args: CompletionsArgs) -> Result<Outcome> {
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "pith", &mut out);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(Outcome::Ok)
}

/// The roff source of one man page.
fn render(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(out)
}

/// Runs `pith man`.
pub fn man(args: ManArgs, ui: super::Ui) -> Result<Outcome> {
    let mut cmd = super::Cli::command();
    cmd.build();
    let Some(dir) = &args.dir else {
        write_atomic(std::path::Path::new("-"), &render(cmd)?)?;
        return Ok(Outcome::Ok);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let subs: Vec<clap::Command> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .cloned()
        .collect();
    write_atomic(&dir.join("pith.1"), &render(cmd)?)?;
    for sub in subs {
        let name = format!("pith-{}", sub.get_name());
        let page = sub.name(name.clone()).bin_name(name.replace('-', " "));
        let path = dir.join(format!("{name}.1"));
        write_atomic(&path, &render(page)?)?;
        super::note!(ui, "wrote {}", path.display());
    }
    Ok(Outcome::Ok)
}
