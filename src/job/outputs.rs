//! Where a file output goes when a writer other than [`crate::output`] makes it (an index, a
//! stream of report lines): its missing folders made as [`crate::output`] makes them for every
//! other output, and a folder where one file is wanted refused in words, with the path the
//! user gave. (`-` for standard output is [`crate::output::is_stdio`]'s rule, for every door.)

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};

use super::{Error, ErrorKind};

/// Readies `path` for one whole file a writer other than [`crate::output`] makes (an
/// index, a stream of report lines): a folder is refused, naming it, and the missing folders
/// above the file are made, as [`crate::output`] makes them for every other output. `what`
/// names the file in the sentence (`the index`, `the report`).
///
/// # Errors
/// [`ErrorKind::Request`] when `path` is a folder; [`ErrorKind::Io`] when a folder above it
/// cannot be made.
pub fn ready_file(path: &Path, what: &str) -> Result<(), Error> {
    not_a_folder(path, what)?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| {
            Error::new(ErrorKind::Io(
                format!("cannot make the folder {}", parent.display()),
                e,
            ))
            .in_file(path)
        })?;
    }
    Ok(())
}

/// Refuses a folder where one file is wanted, naming it, before anything is read or made.
/// `what` names the file in the sentence (`the index`, `the report`).
///
/// # Errors
/// [`ErrorKind::Request`] when `path` is a folder.
pub fn not_a_folder(path: &Path, what: &str) -> Result<(), Error> {
    if path.is_dir() {
        return Err(Error::new(ErrorKind::Request(format!(
            "is a folder: give the file {what} is written to (a name inside it, say {})",
            path.join("out").display()
        )))
        .in_file(path));
    }
    Ok(())
}

/// Creates the file `path` for `what` to be streamed into, after [`ready_file`].
///
/// # Errors
/// As [`ready_file`]; [`ErrorKind::Io`] when the file cannot be created.
pub fn create_file(path: &Path, what: &str) -> Result<File, Error> {
    ready_file(path, what)?;
    File::create(path)
        .map_err(|e| Error::new(ErrorKind::Io(format!("cannot create {what}"), e)).in_file(path))
}

/// Writes `bytes`, one whole file, to `path`: `-` is standard output; a file is written
/// whole or not at all ([`crate::output::write_file_with`], its missing folders made), and
/// with `no_clobber` one that exists is kept.
///
/// # Errors
/// [`ErrorKind::Exists`] (with `no_clobber`); [`ErrorKind::Io`] when it cannot be written.
pub fn write_whole(path: &Path, bytes: &[u8], no_clobber: bool) -> Result<(), Error> {
    use std::io::Write;
    if crate::output::is_stdio(path) {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| {
                Error::new(ErrorKind::Io("cannot write standard output".into(), e)).in_file(path)
            });
    }
    super::check_output(None, path, no_clobber)?;
    Ok(crate::output::write_file_with(path, None, |f| {
        f.write_all(bytes)
    })?)
}

/// Where an update of the PDF `input` goes (`pith inject`, `pith strip`, Python's `inject`
/// and `strip`): the file `output` names (the input's `name` inside it when it is a folder,
/// [`super::output_file`]), or `None` for the input itself, in place. One of the two is
/// given, not both; a dry run, which writes nothing, may give neither.
///
/// # Errors
/// [`ErrorKind::Request`] naming `input` when neither or both are given; what
/// [`super::output_file`] refuses.
///
/// # Examples
/// ```
/// use std::path::Path;
/// use pith::job::outputs::destination;
/// let pdf = Path::new("paper.pdf");
/// assert_eq!(destination(pdf, None, None, true, false)?, None);
/// assert!(destination(pdf, None, None, false, false).is_err());
/// assert!(destination(pdf, None, Some(Path::new("o.pdf")), true, false).is_err());
/// assert_eq!(destination(pdf, None, None, false, true)?, None);
/// # Ok::<(), pith::job::Error>(())
/// ```
pub fn destination(
    input: &Path,
    name: Option<&OsStr>,
    output: Option<&Path>,
    in_place: bool,
    dry_run: bool,
) -> Result<Option<PathBuf>, Error> {
    let refuse = |m: &str| Err(Error::new(ErrorKind::Request(m.into())).in_file(input));
    match (output, in_place) {
        (Some(_), true) => refuse("the result goes to an output file or in place, not both"),
        (None, false) if dry_run => Ok(None),
        (None, false) => refuse(
            "say where the result goes: an output file for a new file, or in place to update it",
        ),
        (Some(o), false) => super::output_file(o, name).map(Some),
        (None, true) => Ok(None),
    }
}

/// Refuses a destination for bytes updated in memory (Python's `strip` of bytes): their
/// result is returned, so there is no output file and nothing in place.
///
/// # Errors
/// [`ErrorKind::NotInPlace`] for in place, as for standard input; [`ErrorKind::Request`] for
/// an output.
pub fn in_memory(output: Option<&Path>, in_place: bool) -> Result<(), Error> {
    match (output, in_place) {
        (_, true) => Err(Error::new(ErrorKind::NotInPlace)),
        (Some(_), false) => Err(Error::new(ErrorKind::Request(
            "bytes are updated in memory and returned: give no output".into(),
        ))),
        (None, false) => Ok(()),
    }
}

/// Refuses a tar written to standard output (`-`) with its report there too: the two would
/// be one stream.
///
/// # Errors
/// [`ErrorKind::Request`], saying to give the report a file.
pub fn tar_stdout_once(out_tar: &Path, report: Option<&Path>) -> Result<(), Error> {
    let dash = crate::output::is_stdio;
    if dash(out_tar) && report.is_some_and(dash) {
        return Err(Error::new(ErrorKind::Request(
            "the tar goes to standard output (-): give the report a file".into(),
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_folders_are_made_and_a_folder_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/r.jsonl");
        create_file(&deep, "the report").unwrap();
        assert!(deep.is_file());
        let e = ready_file(dir.path(), "the index").unwrap_err();
        assert_eq!(e.kind_of(), super::super::ErrorCode::Request);
        assert!(e.to_string().contains("is a folder"), "{e}");
        assert_eq!(e.path(), Some(dir.path()));
    }
}
