//! The PDF a one-file request reads ([`PdfInput`]): its file, `-` for standard input, or bytes
//! the caller gives; its password; how long it may take. `inject`, `strip` and `inspect` flatten
//! it into their requests, so the three read a PDF, take standard input and bound their time by
//! one rule, and the result of an update goes where one rule says ([`PdfInput::destination`]).
//! [`Source`] is the PDF once resolved: a file, or bytes (standard input's, or given).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{outputs, stop, Error, ErrorKind, Settings};

/// Where the PDF comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A file, read as needed (never modified unless the destination is in place).
    File(&'a Path),
    /// Bytes in memory; `name` is what reports call it (`-` for standard input).
    Bytes {
        /// The PDF.
        data: &'a [u8],
        /// The name reports give it.
        name: &'a str,
    },
}

impl Source<'_> {
    /// What reports call it: the file's path, or the name given to the bytes.
    pub(super) fn name(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::Bytes { name, .. } => (*name).to_owned(),
        }
    }
    /// The file, when it is one.
    pub(super) fn path(&self) -> Option<&Path> {
        match self {
            Source::File(p) => Some(p),
            Source::Bytes { .. } => None,
        }
    }
}

/// The PDF a request reads, as a door was given it; what is left out is the library's
/// default. Flattened into [`super::InjectRequest`], [`super::StripRequest`] and
/// [`super::InspectRequest`]: its keys sit beside theirs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PdfInput {
    /// The PDF file, `-` for standard input; none when its bytes are given to the request's
    /// run (the result of an update is then returned).
    pub input: Option<PathBuf>,
    /// How long the file may take, in seconds: 0 is no bound, left out
    /// [`super::defaults::FILE_TIMEOUT_SECS`] ([`stop::file_bound`]).
    pub file_timeout: Option<f64>,
    /// The user or owner password of an encrypted file (never written out with the request).
    #[serde(skip)]
    pub password: Option<Vec<u8>>,
}

impl PdfInput {
    /// Whether the PDF is standard input's (`-`).
    pub fn is_stdin(&self) -> bool {
        self.input.as_deref().is_some_and(crate::output::is_stdio)
    }

    /// The settings the PDF is read with: its password and its deadline (0: none).
    pub fn settings(&self) -> Settings {
        Settings {
            password: self.password.clone(),
            file_timeout: stop::file_bound(self.file_timeout),
            ..Settings::default()
        }
    }

    /// Where an update of this PDF goes (`inject`, `strip`): `Some` file (`-` for standard
    /// output; the input's name inside a folder, [`super::output_file`]), or `None` for the
    /// file itself in place, for bytes (whose result is returned) and for a dry run that
    /// names no output. Standard input is never updated in place and has no name to keep
    /// inside a folder: its result goes to a file or to standard output, said.
    ///
    /// # Errors
    /// [`ErrorKind::NotInPlace`] for standard input in place; [`ErrorKind::Request`] for
    /// neither an output nor in place (unless a dry run), or both, for standard input without
    /// an output, and for an output or in place given with bytes.
    ///
    /// # Examples
    /// ```
    /// use pith::job::pdf_input::PdfInput;
    /// let stdin = PdfInput { input: Some("-".into()), ..Default::default() };
    /// assert_eq!(stdin.destination(Some("-".as_ref()), false, false)?, Some("-".into()));
    /// assert_eq!(stdin.destination(None, true, false).unwrap_err().kind_name(), "not_in_place");
    /// assert_eq!(stdin.destination(None, false, false).unwrap_err().kind_name(), "request");
    /// # Ok::<(), pith::job::Error>(())
    /// ```
    pub fn destination(
        &self,
        output: Option<&Path>,
        in_place: bool,
        dry_run: bool,
    ) -> Result<Option<PathBuf>, Error> {
        let Some(input) = &self.input else {
            return outputs::in_memory(output, in_place).map(|()| None);
        };
        if !self.is_stdin() {
            return outputs::destination(input, input.file_name(), output, in_place, dry_run);
        }
        match output {
            _ if in_place => Err(Error::new(ErrorKind::NotInPlace).in_file(input)),
            // Standard input has no name to keep inside an output folder.
            Some(o) => super::output_file(o, None).map(Some),
            None if dry_run => Ok(None),
            None => Err(Error::new(ErrorKind::Request(
                "standard input is not updated in place: say where the result goes, an output file or - for standard output".into(),
            ))
            .in_file(input)),
        }
    }

    /// The PDF this names: its file, standard input's bytes for `-` (read whole into `stdin`,
    /// which the caller keeps), or the `bytes` the caller gives; exactly one of them, else
    /// [`ErrorKind::Request`] saying what to give the command `verb` names.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] for neither or both; [`ErrorKind::Io`] when standard input
    /// cannot be read.
    pub(crate) fn source<'a>(
        &'a self,
        bytes: Option<&'a [u8]>,
        stdin: &'a mut Vec<u8>,
        verb: &str,
    ) -> Result<Source<'a>, Error> {
        match (self.input.as_deref(), bytes) {
            (Some(_), None) if self.is_stdin() => {
                *stdin = read_stdin()?;
                let data: &'a [u8] = stdin;
                Ok(Source::Bytes { data, name: "-" })
            }
            (Some(p), None) => Ok(Source::File(p)),
            (None, Some(data)) => Ok(Source::Bytes {
                data,
                name: "<memory>",
            }),
            _ => Err(Error::new(ErrorKind::Request(format!(
                "give the PDF to {verb}: a file or its bytes, one of them"
            )))),
        }
    }
}

/// Standard input's bytes, for a PDF given as `-`: held whole, up to the engine's bound on a
/// file held whole ([`crate::pdf::MAX_READ_WHOLE`]), so an endless stream ends in an error
/// instead of exhausting memory.
fn read_stdin() -> Result<Vec<u8>, Error> {
    let bounds = crate::bounded::Bounds {
        bytes: crate::pdf::MAX_READ_WHOLE,
        ..Default::default()
    };
    crate::bounded::read_all(std::io::stdin().lock(), &bounds).map_err(|e| {
        Error::new(ErrorKind::Io(
            "cannot read standard input".into(),
            std::io::Error::from(e),
        ))
        .in_file(Path::new("-"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_goes_to_a_file_or_standard_output_never_in_place() {
        let stdin = PdfInput {
            input: Some("-".into()),
            ..Default::default()
        };
        let dash = Path::new("-");
        assert_eq!(
            stdin.destination(Some(dash), false, false).unwrap(),
            Some(dash.into())
        );
        assert_eq!(stdin.destination(None, false, true).unwrap(), None);
        for (out, in_place, kind) in [
            (None, true, "not_in_place"),
            (Some(dash), true, "not_in_place"),
            (None, false, "request"),
        ] {
            let e = stdin.destination(out, in_place, false).unwrap_err();
            assert_eq!((e.kind_name(), e.path()), (kind, Some(dash)), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let e = stdin
            .destination(Some(dir.path()), false, false)
            .unwrap_err();
        assert!(e.to_string().contains("standard input has no name"), "{e}");
        let file = PdfInput {
            input: Some("a.pdf".into()),
            ..Default::default()
        };
        assert_eq!(file.destination(None, true, false).unwrap(), None);
        assert!(file.destination(None, false, false).is_err());
        assert_eq!(file.settings().file_timeout, Some(stop::FILE_TIMEOUT));
        let unbound = PdfInput {
            file_timeout: Some(0.0),
            ..file
        };
        assert_eq!(unbound.settings().file_timeout, None);
    }
}
