//! Whole-file outputs on disk: a file is either left as it was or replaced by its complete new
//! content, never left half-written (issues #7, #11, #15).
//!
//! [`write_file_with`] writes one file through a temporary file in the target's directory,
//! synced, then renamed over the target; [`write_files`] stages several files that way and
//! renames them only once every one is written and synced, so a full disk leaves no
//! half-written set behind (`pith sty` writes `pith.sty` and `pith.sty.ltxml` together). A
//! device or FIFO at the target path ([`is_special`]) is written to directly instead: a rename
//! would replace the device node itself. New files get mode 0666 less the umask, as any new
//! file does; an existing file keeps its mode.
//!
//! This module owns the commit of whole files; appending an incremental update to a PDF in
//! place is [`crate::pdf::commit`]'s. It prints nothing and knows no command-line flags.
//!
//! ```
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("badge.svg");
//! pith::output::write_file_with(&path, None, |f| std::io::Write::write_all(f, b"<svg/>"))?;
//! assert_eq!(std::fs::read(&path)?, b"<svg/>");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// An output that could not be written: the file, what failed, and the I/O error as its cause.
#[derive(Debug, thiserror::Error)]
#[error("{}: {what}", path.display())]
pub struct Error {
    path: PathBuf,
    what: String,
    #[source]
    source: io::Error,
}

impl Error {
    fn new(path: &Path, what: impl Into<String>, source: io::Error) -> Self {
        Error {
            path: path.to_path_buf(),
            what: what.into(),
            source,
        }
    }
    /// The output file.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// What failed ("cannot write", "cannot replace", …).
    pub fn what(&self) -> &str {
        &self.what
    }
    /// The parts: the file, what failed and the I/O error.
    pub fn into_parts(self) -> (PathBuf, String, io::Error) {
        (self.path, self.what, self.source)
    }
}

/// Writes `path` with `fill`: through a temporary file in the same directory, given
/// `permissions` (when set; else an existing file's own, else 0666 less the umask), synced and
/// renamed over `path`; a device or FIFO at `path` is opened and written to directly.
///
/// # Errors
/// An [`Error`] naming `path` and what failed; no partial file is left behind.
pub fn write_file_with(
    path: &Path,
    permissions: Option<Permissions>,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    if is_special(path) {
        let mut f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::new(path, "cannot open for writing", e))?;
        return fill(&mut f)
            .and_then(|_| f.flush())
            .map_err(|e| Error::new(path, "cannot write", e));
    }
    stage(path, permissions, fill)?.commit()
}

/// Writes every `(path, bytes)` pair as [`write_file_with`] does, all or none: each file is
/// staged (written and synced to a temporary file) before any is renamed into place. Devices
/// and FIFOs among the paths are written to directly, after the others are staged.
///
/// # Errors
/// An [`Error`] naming the first file that failed; when staging fails no file is changed.
pub fn write_files(files: &[(PathBuf, &[u8])]) -> Result<(), Error> {
    let mut staged = Vec::new();
    let mut devices = Vec::new();
    for (path, bytes) in files {
        if is_special(path) {
            devices.push((path, *bytes));
        } else {
            staged.push(stage(path, None, |f| f.write_all(bytes))?);
        }
    }
    for (path, bytes) in devices {
        write_file_with(path, None, |f| f.write_all(bytes))?;
    }
    staged.into_iter().try_for_each(Staged::commit)
}

/// Whether `path` exists as something other than a regular file, a directory or a symlink: a
/// device (`/dev/null`, `/dev/stdout`), a FIFO or a socket. Such an output is written to
/// directly; a temporary file renamed over it would replace the device node itself (as root,
/// `-o /dev/null` turned /dev/null into a regular file; issue #7).
pub fn is_special(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        !t.is_file() && !t.is_dir() && !t.is_symlink()
    })
}

/// A temporary file, written and synced, waiting to be renamed over its target.
struct Staged {
    tmp: NamedTempFile,
    path: PathBuf,
}

impl Staged {
    fn commit(self) -> Result<(), Error> {
        self.tmp
            .persist(&self.path)
            .map(|_| ())
            .map_err(|e| Error::new(&self.path, "cannot replace", e.error))
    }
}

fn stage(
    path: &Path,
    permissions: Option<Permissions>,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<Staged, Error> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let permissions = permissions.or_else(|| {
        std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions())
    });
    // Created with 0666 the kernel applies the umask, as for any new file; tempfile's own
    // default (0600) made `pith sty -o` and `pith badge -o` unreadable to others (issue #15).
    let mut tmp = tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|e| {
            Error::new(
                path,
                format!("cannot create a temporary file in {}", dir.display()),
                e,
            )
        })?;
    fill(tmp.as_file_mut()).map_err(|e| Error::new(path, "cannot write", e))?;
    if let Some(p) = permissions {
        // The umask applied at creation; an existing file's exact mode is set again.
        let _ = tmp.as_file().set_permissions(p);
    }
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::new(path, "cannot write", e))?;
    Ok(Staged {
        tmp,
        path: path.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn new_files_get_the_umask_mode_and_existing_files_keep_theirs() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.txt");
        write_file_with(&new, None, |f| f.write_all(b"a")).unwrap();
        // The test process's umask is at least as strict as 0o022 on the machines we run on;
        // what matters is that group/other read bits survive, which 0600 would drop.
        assert_ne!(std::fs::metadata(&new).unwrap().mode() & 0o044, 0);
        let old = dir.path().join("old.txt");
        std::fs::write(&old, b"x").unwrap();
        std::fs::set_permissions(&old, Permissions::from_mode(0o640)).unwrap();
        write_file_with(&old, None, |f| f.write_all(b"y")).unwrap();
        assert_eq!(std::fs::metadata(&old).unwrap().mode() & 0o777, 0o640);
        assert_eq!(std::fs::read(&old).unwrap(), b"y");
    }

    #[test]
    fn a_failed_fill_leaves_the_target_untouched_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, b"before").unwrap();
        let e = write_file_with(&path, None, |_| Err(io::Error::other("disk full"))).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: cannot write", path.display()));
        assert_eq!(
            std::error::Error::source(&e).unwrap().to_string(),
            "disk full"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"before");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_files_changes_nothing_when_one_cannot_be_staged() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, b"old").unwrap();
        let missing = dir.path().join("no/such/dir/b.txt");
        let e = write_files(&[(a.clone(), b"new"), (missing.clone(), b"b")]).unwrap_err();
        assert_eq!(e.path(), missing);
        assert_eq!(std::fs::read(&a).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        write_files(&[(a.clone(), b"new"), (dir.path().join("c.txt"), b"c")]).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"new");
    }

    #[test]
    fn devices_are_written_to_not_replaced() {
        let null = Path::new("/dev/null");
        assert!(is_special(null));
        write_file_with(null, None, |f| f.write_all(b"x")).unwrap();
        assert!(is_special(null));
        assert!(!is_special(Path::new("/nonexistent/path")));
    }
}
