//! One member of a tar (issue 26): which number it gets from its name ([`plan_arxiv`]) and its
//! update ([`process_member`]), with the refusals of `pith batch`. Kept apart from the stream so
//! that the per-file policy can be routed through one place.

use std::path::Path;

use super::Body;
use crate::arxiv_match::{self, Collected, Decision, Wanted};
use crate::batch::Status;
use crate::pdf;
use crate::PithNumber;

/// What to do with one member, decided from its name before its data is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The arXiv id its name gives.
    pub id: Option<String>,
    /// The version its name gives.
    pub version: Option<u32>,
    /// Inject a number, or leave the member as it is.
    pub action: Action,
}

/// The action of a [`Planned`] member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Update the PDF with this number.
    Inject(PithNumber),
    /// Copy the member unchanged, reported with this status and reason.
    Copy(Status, String),
}

/// The plan for a member named `name` of an arXiv bulk tar (`2402/2402.03791v3.pdf`,
/// `0001/hep-th0001001v1.pdf`), from the metadata `collected` for its id: its number when it
/// is the latest version (or any version with `any_version`), else a copy with the reason,
/// as `pith batch --arxiv-metadata` decides for a directory ([`arxiv_match::decide`]).
///
/// # Examples
/// ```
/// use pith::batch::tar::{plan_arxiv, Action};
/// let p = plan_arxiv("0001/astro-ph0001001v1.ps.gz", &Default::default(), false);
/// assert!(matches!(p.action, Action::Copy(..)));
/// let p = plan_arxiv("0001/hep-th0001001v1.pdf", &Default::default(), false);
/// assert_eq!((p.id.as_deref(), p.version), (Some("hep-th/0001001"), Some(1)));
/// ```
pub fn plan_arxiv(name: &str, collected: &Collected, any_version: bool) -> Planned {
    let path = Path::new(name);
    let is_pdf = name
        .len()
        .checked_sub(4)
        .is_some_and(|i| name.is_char_boundary(i) && name[i..].eq_ignore_ascii_case(".pdf"));
    if !is_pdf {
        return Planned {
            id: None,
            version: None,
            action: Action::Copy(
                Status::Unmatched,
                "not a PDF (PostScript or another format); copied unchanged".into(),
            ),
        };
    }
    let Some((id, version)) = arxiv_match::id_from_path(path) else {
        return Planned {
            id: None,
            version: None,
            action: Action::Copy(
                Status::Unmatched,
                "the name carries no arXiv id (YYMM/2402.03791v3.pdf, YYMM/hep-th0001001v1.pdf); copied unchanged".into(),
            ),
        };
    };
    let w = Wanted {
        pdf: path.to_owned(),
        relative: path.to_owned(),
        id: id.clone(),
        version,
        out: None,
    };
    let action = match arxiv_match::decide(&w, collected, any_version) {
        Decision::Number(n) => Action::Inject(n),
        Decision::Skip(reason) => Action::Copy(
            Status::Skipped,
            format!("{reason} (--arxiv-any-version, any_version=True in Python, injects it anyway); copied unchanged"),
        ),
        Decision::Fail(reason) if !collected.entries.contains_key(&id) => {
            Action::Copy(Status::Unmatched, format!("{reason}; copied unchanged"))
        }
        Decision::Fail(reason) => {
            Action::Copy(Status::Failed, format!("{reason}; copied unchanged"))
        }
    };
    Planned {
        id: Some(id),
        version,
        action,
    }
}

/// The year and month of an arXiv id (`2402.03791` → `2402`, `hep-th/0001001` → `0001`): the
/// `YYMM` of the bulk tar that holds its PDFs.
pub fn yymm_of(id: &str) -> Option<&str> {
    let digits = id.rsplit('/').next()?;
    digits
        .get(..4)
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
}

/// The result of [`process_member`].
#[derive(Debug, Clone)]
pub struct MemberOutcome {
    /// Injected, unchanged, refused or failed.
    pub status: Status,
    /// Why, when not injected.
    pub reason: Option<String>,
    /// The update: the length of the original data to keep and the bytes to append after it.
    pub update: Option<(u64, Vec<u8>)>,
}

/// Updates one PDF member with `number`: append-only, with the refusals of `pith batch` (not a
/// PDF, damaged without `repair`, encrypted with a password, certified or with unparsable XMP
/// without `force`, signed with a stamp). A member that already carries the number is
/// unchanged. Nothing is written: the caller copies the kept bytes and appends the update.
pub fn process_member(body: &Body, number: &PithNumber, opts: &pdf::Options) -> MemberOutcome {
    let r = match body {
        Body::Mem(v) => pdf::inject(v.as_slice(), number, opts),
        Body::Spool(f) => pdf::inject(f, number, opts),
    };
    match r {
        Ok(inj) => match inj.offsets {
            Some(off) => MemberOutcome {
                status: Status::Injected,
                reason: None,
                update: Some((off.base_len, inj.appended)),
            },
            None => MemberOutcome {
                status: Status::Unchanged,
                reason: Some(format!("already carries {}", number.full())),
                update: None,
            },
        },
        Err(e) => MemberOutcome {
            status: if e.is_refusal() {
                Status::Refused
            } else {
                Status::Failed
            },
            reason: Some(reason(&e, opts)),
            update: None,
        },
    }
}

/// The report's reason for a refusal, with the remedy, as `pith batch` words it.
fn reason(err: &pdf::Error, opts: &pdf::Options) -> String {
    let hint = match err.kind() {
        pdf::ErrorKind::Damaged(_) if opts.repair => "; --repair could not rebuild it",
        pdf::ErrorKind::Damaged(_) => "; rerun with --repair (repair=True in Python; append-only)",
        pdf::ErrorKind::Certified => {
            "; rerun with --force (force=True) to update anyway, which invalidates the certification"
        }
        pdf::ErrorKind::Xmp(_) if !opts.force => "; rerun with --force (force=True) to replace it",
        pdf::ErrorKind::Signed(..) => "; rerun without the stamp, or with --force (force=True)",
        _ => "",
    };
    let mut text = format!("{err}{hint}");
    let mut cause = std::error::Error::source(err);
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text.replace(['\n', '\r'], " ") + "; copied unchanged"
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yymm() {
        assert_eq!(yymm_of("2402.03791"), Some("2402"));
        assert_eq!(yymm_of("hep-th/0001001"), Some("0001"));
        assert_eq!(yymm_of("x"), None);
    }
}
