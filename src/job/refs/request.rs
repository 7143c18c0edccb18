//! What `pith refs` is asked ([`RefsRequest`]): the files to read, where the lines go and how
//! long one file may take, each the library's default when left out, checked once
//! ([`RefsRequest::validate`]) before any file is read.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::job::{outputs, stop, Error, ErrorKind, Settings};

/// The references asked for, as a door was given them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RefsRequest {
    /// PDFs, arXiv source tars or `.bbl` files; a folder stands for its PDFs.
    pub paths: Vec<PathBuf>,
    /// The file the lines are written to, whole or not at all; standard output when left out
    /// or `-`.
    pub output: Option<PathBuf>,
    /// How long one file may take, in seconds (0: no bound); the file deadline every command
    /// that reads a PDF takes ([`stop::FILE_TIMEOUT`] when left out).
    pub file_timeout: Option<f64>,
}

impl RefsRequest {
    /// Refuses a request without files, and an output that is a folder, names a PDF or is a
    /// file the run reads.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] with the sentence of the first contradiction, naming the output
    /// where it is the output's.
    ///
    /// # Examples
    /// ```
    /// use pith::job::refs::request::RefsRequest;
    /// assert!(RefsRequest::default().validate().is_err());
    /// let one = RefsRequest { paths: vec!["a.pdf".into()], ..Default::default() };
    /// assert!(one.validate().is_ok());
    /// let over = RefsRequest { output: Some("a.pdf".into()), ..one };
    /// assert!(over.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        if self.paths.is_empty() {
            return Err(Error::new(ErrorKind::Request(
                "give the PDFs, source tars or .bbl files whose references are read".into(),
            )));
        }
        let Some(out) = self.destination() else {
            return Ok(());
        };
        outputs::not_a_folder(out, "the list of references")?;
        super::RefsSink::check_target(out, self.paths.iter().map(PathBuf::as_path))
    }

    /// The file the lines go to; `None` for standard output.
    pub fn destination(&self) -> Option<&Path> {
        self.output
            .as_deref()
            .filter(|o| !crate::output::is_stdio(o))
    }

    /// Makes the missing folders above [`RefsRequest::destination`], as every writer makes
    /// them, before any file is read.
    ///
    /// # Errors
    /// As [`outputs::ready_file`].
    pub fn ready(&self) -> Result<(), Error> {
        self.destination()
            .map_or(Ok(()), |o| outputs::ready_file(o, "the list of references"))
    }

    /// The settings each file is read with: the deadline asked for, else the library's.
    pub fn settings(&self) -> Settings {
        Settings {
            file_timeout: stop::file_bound(self.file_timeout),
            ..Settings::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contradiction_is_refused_before_reading_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let one = RefsRequest {
            paths: vec![dir.path().join("a.pdf")],
            ..Default::default()
        };
        assert!(one.validate().is_ok());
        assert_eq!(one.settings().file_timeout, Some(stop::FILE_TIMEOUT));
        let unbound = RefsRequest {
            file_timeout: Some(0.0),
            ..one.clone()
        };
        assert_eq!(unbound.settings().file_timeout, None);
        let to = |o: &Path| RefsRequest {
            output: Some(o.to_owned()),
            ..one.clone()
        };
        assert!(to(Path::new("-")).validate().is_ok());
        assert_eq!(to(Path::new("-")).destination(), None);
        for bad in [dir.path().to_owned(), dir.path().join("a.pdf")] {
            let e = to(&bad).validate().unwrap_err();
            assert_eq!(e.kind_of(), crate::job::ErrorCode::Request, "{e}");
        }
        let deep = to(&dir.path().join("x/y/r.jsonl"));
        deep.validate().unwrap();
        deep.ready().unwrap();
        assert!(dir.path().join("x/y").is_dir());
        let json = serde_json::to_string(&unbound).unwrap();
        assert_eq!(serde_json::from_str::<RefsRequest>(&json).unwrap(), unbound);
    }
}
