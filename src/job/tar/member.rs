//! One member of a tar: which number it gets from its name ([`plan_arxiv`]) and its
//! update ([`process_member`]), which is the job layer's batch item ([`job::item::update`]):
//! the same refusals and reports as `pith batch` on a file.

use std::path::Path;

use super::Body;
use crate::batch::arxiv::{self as arxiv_match, Collected, Decision, Wanted};
use crate::job::{self, ItemReport, Settings, Status};
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
    /// Update the PDF with this number and the paper's fields.
    Inject(PithNumber, Box<crate::record::Details>),
    /// Copy the member unchanged, reported with this status and reason.
    Copy(Status, String),
}

/// Why a member that is not named `.pdf` is copied: PostScript (arXiv's `.ps`, `.ps.gz`,
/// `.eps`) said as such, anything else (a `README.txt`, a folder's listing) by its name.
fn not_a_pdf(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if [".ps", ".ps.gz", ".eps", ".eps.gz"]
        .iter()
        .any(|s| lower.ends_with(s))
    {
        "PostScript, not a PDF; copied unchanged".into()
    } else {
        "not a PDF (the name does not end in .pdf); copied unchanged".into()
    }
}

/// The plan for a member named `name` of an arXiv bulk tar (`2402/2402.03791v3.pdf`,
/// `0001/hep-th0001001v1.pdf`), from the metadata `collected` for its id: its number when it
/// is the latest version (or any version with `any_version`), else a copy with the reason,
/// as `pith batch --arxiv-metadata` decides for a directory ([`arxiv_match::decide`]).
///
/// # Examples
/// ```
/// use pith::job::tar::{plan_arxiv, Action};
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
            action: Action::Copy(Status::Unmatched, not_a_pdf(name)),
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
        Decision::Number(n, details) => Action::Inject(n, details),
        Decision::Skip(reason) => {
            Action::Copy(Status::Skipped, format!("{reason}; copied unchanged"))
        }
        Decision::Unmatched(reason) => {
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

/// Updates one PDF member with `number` as `pith batch` updates a file (append-only, the same
/// refusals; [`job::item::update`]), reading it where it is (in memory or spooled). Nothing
/// is written: returns the length of the member to keep and the bytes to append after it
/// (`None` when it already carries the number or is refused), and its report line. The
/// paper's fields in `paper` are written beside the number.
pub fn process_member(
    name: &str,
    body: &Body,
    number: &PithNumber,
    paper: Option<&crate::record::Details>,
    settings: &Settings,
) -> (Option<(u64, Vec<u8>)>, ItemReport) {
    let name = Path::new(name);
    match body {
        Body::Mem(v) => {
            job::item::update(name, v.as_slice(), v.len() as u64, number, paper, settings)
        }
        Body::Spool(f, _) => job::item::update(name, f, body.len(), number, paper, settings),
        Body::At(f, offset, len) => {
            let w = super::Window::new(f, *offset, *len);
            job::item::update(name, w, *len, number, paper, settings)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_that_are_not_pdfs_are_named_for_what_they_are() {
        let reason = |name: &str| match plan_arxiv(name, &Collected::default(), false).action {
            Action::Copy(Status::Unmatched, r) => r,
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(
            reason("0001/astro-ph0001001v1.ps.gz"),
            "PostScript, not a PDF; copied unchanged"
        );
        let readme = reason("2402/README.txt");
        assert!(!readme.contains("PostScript"), "{readme}");
        assert!(readme.contains("does not end in .pdf"), "{readme}");
    }
}
