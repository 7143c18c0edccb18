//! Which tar run a batch asks for, as a door was given it ([`TarRequest`]): one tar streamed
//! to another, or a folder of tars listed by arXiv's manifest, and the folder run's options
//! neither takes. [`TarRequest::validate`] refuses every contradiction once, with one sentence.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::job::{Error, ErrorKind};

/// The tar options of a batch, and which of the folder run's options were given beside them.
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
    /// The file name of a tar read from standard input.
    pub tar_name: Option<String>,
    /// arXiv metadata files were given (every tar run numbers its members from them).
    pub arxiv_metadata: bool,
    /// An output folder was given.
    pub out_dir: bool,
    /// A shard was given.
    pub shard: bool,
    /// The folder run's own options given (a folder or manifest of PDFs, in place, a mirror,
    /// a dry run, a check, unmatched lines, strict), by name.
    pub folder_options: Vec<String>,
}

impl TarRequest {
    /// Whether a tar run was asked for.
    pub fn active(&self) -> bool {
        self.tar.is_some() || self.tar_dir.is_some()
    }

    /// Refuses what does not hold together: one tar and a folder of tars; a tar run without
    /// its metadata, one tar without where it goes, a folder of tars without its manifest or
    /// output folder; options of one tar without it; the manifest's option without the
    /// manifest; the folder run's options beside a tar run.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] with the sentence of the first contradiction.
    ///
    /// # Examples
    /// ```
    /// use pith::job::tar::request::TarRequest;
    /// let no_out = TarRequest { tar: Some("a.tar".into()), arxiv_metadata: true, ..Default::default() };
    /// assert!(no_out.validate().is_err());
    /// assert!(TarRequest { out_tar: Some("b.tar".into()), ..no_out }.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let refuse = |m: &str| Err(Error::new(ErrorKind::Request(m.into())));
        let one = self.tar.is_some();
        let folder = self.tar_dir.is_some();
        if one && folder {
            return refuse("a tar run reads one tar or a folder of tars, not both");
        }
        if (self.out_tar.is_some() || self.tar_name.is_some()) && !one {
            return refuse("where the updated tar goes and the tar's name go with the one tar read: give the tar");
        }
        if self.any_tar && self.arxiv_manifest.is_none() {
            return refuse(
                "taking a tar the manifest does not list needs arXiv's manifest: give it",
            );
        }
        if !self.active() {
            return Ok(());
        }
        if let Some(o) = self.folder_options.first() {
            return refuse(&format!(
                "a tar run takes none of a folder run's options ({o} among them): a folder or manifest of PDFs, in place, a mirror, a dry run, a check, unmatched lines, strict"
            ));
        }
        if !self.arxiv_metadata {
            return refuse(
                "a tar run numbers its members from arXiv's metadata: give the metadata",
            );
        }
        if one {
            if self.out_tar.is_none() {
                return refuse("a tar run writes the updated tar whole: give where it goes");
            }
            if self.out_dir || self.shard {
                return refuse("one tar is written to one tar: an output folder and a shard go with a folder of tars");
            }
        }
        if folder {
            if !self.out_dir {
                return refuse("a folder of tars is written into an output folder: give one");
            }
            if self.arxiv_manifest.is_none() {
                return refuse(
                    "a folder of tars is read as arXiv's manifest lists it: give the manifest",
                );
            }
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
            arxiv_metadata: true,
            ..Default::default()
        };
        assert!(tar.validate().is_ok());
        let dir = TarRequest {
            tar_dir: Some("tars".into()),
            arxiv_manifest: Some("m.xml".into()),
            out_dir: true,
            shard: true,
            arxiv_metadata: true,
            ..Default::default()
        };
        assert!(dir.validate().is_ok());
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
                any_tar: true,
                ..Default::default()
            },
            TarRequest {
                arxiv_metadata: false,
                ..tar.clone()
            },
            TarRequest {
                folder_options: vec!["check".into()],
                ..tar.clone()
            },
            TarRequest {
                out_tar: None,
                ..tar.clone()
            },
            TarRequest {
                shard: true,
                ..tar.clone()
            },
            TarRequest {
                out_dir: false,
                ..dir.clone()
            },
            TarRequest {
                arxiv_manifest: None,
                ..dir.clone()
            },
        ];
        let mut sentences = std::collections::BTreeSet::new();
        for r in &bad {
            sentences.insert(r.validate().unwrap_err().to_string());
        }
        assert_eq!(sentences.len(), bad.len(), "{sentences:#?}");
    }
}
