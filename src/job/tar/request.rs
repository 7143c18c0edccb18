//! The tar options of a batch, as a door was given them ([`TarRequest`]): one tar streamed to
//! another, or a folder of tars listed by arXiv's manifest. [`TarRequest::validate`] refuses
//! what the tar options contradict among themselves; what a tar run needs beside them (the
//! metadata, an output folder) and what of a run of PDFs it does not take are checked with the
//! rest of the batch ([`crate::job::run::BatchRequest::validate`]).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::job::{Error, ErrorKind};

/// The tar options of a batch; none given is a run of PDFs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TarRequest {
    /// One tar to read (`-` for standard input).
    pub tar: Option<PathBuf>,
    /// Where the updated tar goes (`-` for standard output).
    pub out_tar: Option<PathBuf>,
    /// A folder of the tars arXiv's manifest lists.
    pub tar_dir: Option<PathBuf>,
    /// arXiv's `arXiv_pdf_manifest.xml`.
    pub arxiv_manifest: Option<PathBuf>,
    /// Take a tar the manifest does not list too.
    pub any_tar: bool,
    /// The file name of a tar read from standard input (to find its manifest entry).
    pub tar_name: Option<String>,
    /// Where members larger than [`super::SPOOL_BOUND`] are spooled (the system's temporary
    /// directory when left out).
    pub spool_dir: Option<PathBuf>,
}

impl TarRequest {
    /// Whether a tar run was asked for.
    pub fn active(&self) -> bool {
        self.tar.is_some() || self.tar_dir.is_some()
    }

    /// Refuses what the tar options contradict among themselves: one tar and a folder of
    /// tars; where the updated tar goes, or the tar's name, without the one tar; the tar's
    /// name beside a tar file (which has its own); a tar the manifest does not list without
    /// the manifest; the manifest or a spool folder without a tar run.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] with the sentence of the first contradiction.
    ///
    /// # Examples
    /// ```
    /// use pith::job::tar::request::TarRequest;
    /// let one = TarRequest { tar: Some("a.tar".into()), out_tar: Some("b.tar".into()), ..Default::default() };
    /// assert!(one.validate().is_ok());
    /// assert!(TarRequest { tar_dir: Some("tars".into()), ..one }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let refuse = |m: &str| Err(Error::new(ErrorKind::Request(m.into())));
        let one = self.tar.as_deref();
        if one.is_some() && self.tar_dir.is_some() {
            return refuse("a tar run reads one tar or a folder of tars, not both");
        }
        if (self.out_tar.is_some() || self.tar_name.is_some()) && one.is_none() {
            return refuse("where the updated tar goes and the tar's name go with the one tar read: give the tar");
        }
        if self.tar_name.is_some() && one.is_some_and(|t| !crate::output::is_stdio(t)) {
            return refuse("the tar's name is that of a tar read from standard input: a tar file is found in the manifest by its own name");
        }
        if self.any_tar && self.arxiv_manifest.is_none() {
            return refuse(
                "taking a tar the manifest does not list needs arXiv's manifest: give it",
            );
        }
        if !self.active() && (self.arxiv_manifest.is_some() || self.spool_dir.is_some()) {
            return refuse("arXiv's manifest and a folder to spool large members to go with a tar run: give a tar or a folder of tars");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_contradiction_has_its_own_sentence() {
        let tar = TarRequest {
            tar: Some("a.tar".into()),
            out_tar: Some("b.tar".into()),
            ..Default::default()
        };
        assert!(tar.validate().is_ok());
        let piped = TarRequest {
            tar: Some("-".into()),
            tar_name: Some("arXiv_pdf_2402_001.tar".into()),
            ..tar.clone()
        };
        assert!(piped.validate().is_ok());
        assert!(TarRequest::default().validate().is_ok());
        let bad = [
            TarRequest {
                tar_dir: Some("t".into()),
                ..tar.clone()
            },
            TarRequest {
                out_tar: Some("b.tar".into()),
                ..Default::default()
            },
            TarRequest {
                tar_name: Some("a.tar".into()),
                ..tar.clone()
            },
            TarRequest {
                any_tar: true,
                ..tar.clone()
            },
            TarRequest {
                spool_dir: Some("spool".into()),
                ..Default::default()
            },
        ];
        let mut sentences = std::collections::BTreeSet::new();
        for r in &bad {
            sentences.insert(r.validate().unwrap_err().to_string());
        }
        assert_eq!(sentences.len(), bad.len(), "{sentences:#?}");
    }
}
