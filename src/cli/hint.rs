//! The command-line hints added to library errors: how to get past a refusal with the flags
//! this CLI has ("use --force", "use --in-place"). The library's messages name no flags; the
//! decisions (what is refused, and why) are the job layer's ([`pith::job`]).

use std::fmt;

use pith::job::{self, ErrorKind, Settings};
use pith::pdf::ErrorKind as PdfKind;

/// A job error with the command-line hint for its kind appended to its message.
#[derive(Debug)]
pub struct Hinted {
    error: job::Error,
    hint: &'static str,
}

impl Hinted {
    /// The kind of the error in the library's table.
    pub fn kind(&self) -> job::ErrorCode {
        self.error.kind_of()
    }
}

impl fmt::Display for Hinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.error, self.hint)
    }
}

impl std::error::Error for Hinted {
    // The error is shown by Display; its own cause comes next in the chain.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.error)
    }
}

/// The command printing a hint: the flags it takes are named bare, the others with the
/// command that takes them (`pith inspect` takes no --repair: `pith inject --repair` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// `pith inject`: every flag below.
    Inject,
    /// `pith strip`: -o, --in-place, --force, --password, --repair.
    Strip,
    /// A command that only reads the PDF (`inspect`, `verify`): --password.
    Reader,
}

/// How the command `by` says to get past `e` (`rewrite`: `--rewrite` was given). Each
/// refusal ends as a whole sentence.
pub fn hint(e: &job::Error, settings: &Settings, rewrite: bool, by: By) -> &'static str {
    let writes = by != By::Reader;
    match e.kind() {
        ErrorKind::SameFile if writes => "; use --in-place to update it",
        ErrorKind::Exists => " (--no-clobber)",
        ErrorKind::NotInPlace if writes => "; give -o OUT.pdf, or -o - for standard output",
        ErrorKind::Pdf(p) => match p.kind() {
            PdfKind::Damaged(_) if rewrite => {
                ". The full rewrite could not rebuild it either: the file is too damaged to read."
            }
            PdfKind::Damaged(_) if settings.repair => {
                ". The scan of --repair could not rebuild its cross-reference table; pith inject --rewrite may."
            }
            PdfKind::Damaged(_) => match by {
                By::Inject => ". Use --repair to rebuild its cross-reference table (append-only), or --rewrite to rewrite the whole file.",
                By::Strip => ". Use --repair to rebuild its cross-reference table (append-only), or rewrite the whole file with pith inject --rewrite.",
                By::Reader => ". pith inject --repair rebuilds its cross-reference table (append-only); pith inject --rewrite rewrites the whole file.",
            },
            PdfKind::Encrypted if by == By::Inject => ". Inject without --rewrite to keep it encrypted.",
            PdfKind::Certified if writes => {
                "; use --force to update anyway, which invalidates the certification"
            }
            PdfKind::Xmp(_) if writes && !settings.force => "; use --force to replace it",
            PdfKind::Crypt(pith::pdf::crypt::Error::PasswordRequired) => {
                "; give its user or owner password with --password or --password-file"
            }
            PdfKind::Signed(..) if by == By::Inject => {
                "; use --force to stamp anyway, or inject without --stamp"
            }
            PdfKind::NoStampRoom if by == By::Inject => {
                "; inject without --stamp to write the number as metadata only"
            }
            PdfKind::Printed(p) if p.drawn && by == By::Inject => " (use --replace)",
            PdfKind::Printed(_) if by == By::Inject => {
                "; use --force to write the number anyway and leave that text as it is"
            }
            _ => "",
        },
        _ => "",
    }
}

/// How `pith batch` says to get past `e` in a report line (batch has no --rewrite).
pub fn batch_hint(kind: job::ErrorCode, settings: &Settings) -> &'static str {
    use job::ErrorCode as K;
    match kind {
        K::Damaged if settings.repair => {
            ". The scan of --repair could not rebuild its cross-reference table; pith inject --rewrite may."
        }
        K::Damaged => {
            ". Rerun with --repair to rebuild its cross-reference table (append-only), or rewrite it with pith inject --rewrite."
        }
        K::Certified => "; rerun with --force to update anyway, which invalidates the certification",
        K::Xmp if !settings.force => "; rerun with --force to replace it",
        K::Signed => "; rerun with --force to stamp anyway, or without --stamp",
        K::NoStampRoom => "; rerun without --stamp to write the number as metadata only",
        K::Printed => "; rerun with --replace to redraw what pith drew (--force for text it did not)",
        K::SameFile => "; use --in-place to update it",
        K::LeavesOutDir => "; give an explicit \"out\" for it",
        K::Exists => " (--no-clobber)",
        _ => "",
    }
}

/// Adds [`batch_hint`] to the reason of a refused report line, a file's or a tar member's.
pub fn add_batch_hint(
    refusal: Option<job::ErrorCode>,
    reason: &mut Option<String>,
    settings: &Settings,
) {
    if let (Some(kind), Some(reason)) = (refusal, reason.as_mut()) {
        reason.push_str(batch_hint(kind, settings));
    }
}

/// Wraps a job error for printing with `hint` after its message.
pub fn with(error: job::Error, hint: &'static str) -> anyhow::Error {
    anyhow::Error::new(Hinted { error, hint })
}

/// Wraps a job error for printing with the hint of the command `by` ([`hint`]).
pub fn hinted(error: job::Error, settings: &Settings, rewrite: bool, by: By) -> anyhow::Error {
    let hint = hint(&error, settings, rewrite, by);
    anyhow::Error::new(Hinted { error, hint })
}
