//! Argument → library glue shared by `pith inject` and `pith batch`: maps an output path to a
//! [`pith::pdf::commit::Target`] ("-" is standard output), adds the command-line hints to
//! library refusals ("use --force", "use --rewrite"), and picks the update time. The commit
//! protocol itself (copy, append, sync, rename, in place) is [`pith::pdf::commit`].

use std::fmt;
use std::path::Path;

use anyhow::Result;
use pith::output::Group;
use pith::pdf::commit::{self, Report};
use pith::pdf::{ErrorKind, Options};
use pith::PithNumber;

pub use pith::pdf::commit::Applied;

/// Where the update goes.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// Append to the input itself.
    InPlace,
    /// Write a new file (through a temporary file and a rename); "-" is standard output.
    File(&'a Path),
}

/// The update time: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
pub fn now() -> String {
    let t = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .unwrap_or_else(chrono::Utc::now);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Injects `number` into `input`, writing to `target`.
///
/// # Errors
/// The library's error, with the file named and the command-line hint added; on error the
/// input is untouched and no output file exists.
pub fn apply(input: &Path, target: Target, number: &PithNumber, opts: &Options) -> Result<Report> {
    let r = match target {
        Target::InPlace => commit::inject_file(input, commit::Target::InPlace, number, opts),
        Target::File(o) if o.as_os_str() == "-" => {
            let mut out = std::io::stdout().lock();
            commit::inject_file(input, commit::Target::Stream(&mut out), number, opts)
        }
        Target::File(o) => commit::inject_file(input, commit::Target::File(o), number, opts),
    };
    r.map_err(|e| hinted_with(e, opts))
}

/// [`apply`] to a new file `out` staged in `group` (`pith batch`'s group commit): the output
/// is synced and renamed into place by the group's commit, not here.
///
/// # Errors
/// As [`apply`]; on error nothing is staged.
pub fn apply_staged(
    input: &Path,
    out: &Path,
    group: &mut Group,
    number: &PithNumber,
    opts: &Options,
) -> Result<Report> {
    commit::inject_file(input, commit::Target::Staged(out, group), number, opts)
        .map_err(|e| hinted_with(e, opts))
}

/// A library error with the command-line hint for its kind appended to its message.
#[derive(Debug)]
pub struct Hinted {
    error: pith::pdf::Error,
    hint: &'static str,
}

impl Hinted {
    /// The library error, without the hint (`pith batch` words its own hints).
    pub fn error(&self) -> &pith::pdf::Error {
        &self.error
    }
}

impl fmt::Display for Hinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.error, self.hint)
    }
}

impl std::error::Error for Hinted {
    // The library error is shown by Display; its own cause comes next in the chain.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.error)
    }
}

/// The hint the CLI adds to a library error: how to get past the refusal.
pub fn hint(kind: &ErrorKind, force: bool) -> &'static str {
    match kind {
        ErrorKind::Damaged(_) => ", use --repair (append-only) or --rewrite to repair",
        ErrorKind::Certified => {
            "; use --force to update anyway, which invalidates the certification"
        }
        ErrorKind::Xmp(_) if !force => "; use --force to replace it",
        ErrorKind::Crypt(pith::pdf::crypt::Error::PasswordRequired) => {
            "; give its user or owner password with --password or --password-file"
        }
        ErrorKind::Signed(..) => "; use --force to stamp anyway, or inject without --stamp",
        ErrorKind::NoStampRoom => "; inject without --stamp to write the metadata only",
        _ => "",
    }
}

/// [`hinted`] for the options of the run: under `--repair` a file still refused as damaged
/// could not be rebuilt, and the hint says so.
pub fn hinted_with(error: pith::pdf::Error, opts: &Options) -> anyhow::Error {
    if opts.repair && matches!(error.kind(), ErrorKind::Damaged(_)) {
        let hint = "; --repair could not rebuild it, --rewrite may";
        return anyhow::Error::new(Hinted { error, hint });
    }
    hinted(error, opts.force)
}

/// Wraps a library error for printing with its hint; [`is_refusal`] still sees its kind.
pub fn hinted(error: pith::pdf::Error, force: bool) -> anyhow::Error {
    let hint = hint(error.kind(), force);
    anyhow::Error::new(Hinted { error, hint })
}

/// Whether an error is a refusal (the file cannot be updated safely: not a PDF, damaged,
/// encrypted, certified, unparsable XMP, unsupported) rather than a failure (I/O).
pub fn is_refusal(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<Hinted>()
            .map(|h| &h.error)
            .or_else(|| c.downcast_ref::<pith::pdf::Error>())
            .is_some_and(pith::pdf::Error::is_refusal)
    })
}
