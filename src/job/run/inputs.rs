//! What a batch reads: where its PDFs and their numbers come from ([`Inputs`], the part of a
//! [`super::BatchRequest`] its plan reads), and the shapes of what its plan decides before the
//! run (lines with their input's position, links a folder's walk did not follow).

use std::path::{Path, PathBuf};

use crate::job::{Error, ErrorKind, ItemReport};

/// Where a batch run's PDFs and their numbers come from, as its request holds them
/// ([`super::BatchRequest::inputs`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Inputs<'a> {
    /// A JSON Lines manifest: one object per PDF with `pdf` and its number source.
    pub manifest: Option<&'a Path>,
    /// The base of the manifest's relative paths (default: the manifest's directory).
    pub root: Option<&'a Path>,
    /// A directory tree of PDFs whose numbers come from sidecars (or, with
    /// `arxiv_metadata`, from the arXiv ids in their names).
    pub dir: Option<&'a Path>,
    /// arXiv bulk metadata: each PDF's number comes from the entry of its arXiv id.
    pub arxiv_metadata: &'a [PathBuf],
    /// With `arxiv_metadata`: number PDFs that are not the latest version too.
    pub any_version: bool,
    /// With `arxiv_metadata`: where the ids of entries no PDF needed are written.
    pub unmatched: Option<&'a Path>,
    /// Only this slice of the inputs, as given (`K/N`, read by [`crate::job::shard`]).
    pub shard: Option<&'a str>,
}

/// Lines decided before a run, each with its input's position (for sharding).
pub(super) type Decided = Vec<(usize, ItemReport)>;

/// `*.pdf` links a folder's walk did not follow, each with why.
pub(super) type Links = Vec<(PathBuf, String)>;

pub(super) fn no_inputs() -> Error {
    Error::new(ErrorKind::Request(
        "a batch needs a manifest or a directory of PDFs".into(),
    ))
}
