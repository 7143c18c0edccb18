//! Where a file output goes when a writer other than [`crate::output`] makes it (an index, a
//! stream of report lines): its missing folders made as [`crate::output`] makes them for every
//! other output, and a folder where one file is wanted refused in words, with the path the
//! user gave. (`-` for standard output is [`crate::output::is_stdio`]'s rule, for every door.)

use std::fs::File;
use std::path::Path;

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
    if path.is_dir() {
        return Err(Error::new(ErrorKind::Request(format!(
            "is a folder: give the file {what} is written to (a name inside it, say {})",
            path.join("out").display()
        )))
        .in_file(path));
    }
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

/// Creates the file `path` for `what` to be streamed into, after [`ready_file`].
///
/// # Errors
/// As [`ready_file`]; [`ErrorKind::Io`] when the file cannot be created.
pub fn create_file(path: &Path, what: &str) -> Result<File, Error> {
    ready_file(path, what)?;
    File::create(path)
        .map_err(|e| Error::new(ErrorKind::Io(format!("cannot create {what}"), e)).in_file(path))
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
