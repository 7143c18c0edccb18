//! Whole-file outputs on disk: a file is either left as it was or replaced by its complete new
//! content, never left half-written.
//!
//! [`write_file_with`] writes one file through a temporary file in the target's directory,
//! synced, then renamed over the target; [`write_files`] stages several files that way and
//! renames them only once every one is written and synced, so a full disk leaves no
//! half-written set behind (`pith sty` writes `pith.sty` and `pith.sty.ltxml` together). A
//! device or FIFO at the target path ([`is_special`]) is written to directly instead: a rename
//! would replace the device node itself. New files get mode 0666 less the umask, as any new
//! file does; an existing file keeps its mode. The folders a file needs are made as it is
//! written (and removed again if it cannot be), so every output follows one rule.
//!
//! [`Group`] is the same commit for many files at once (`pith batch`): each file is
//! written to its temporary file (a large one has its writeback started at once, without
//! waiting); the group then syncs every temporary file (one `syncfs(2)` per file system where the kernel
//! reports its errors, else one sync per file), renames each synced one over its target and
//! syncs the directories it renamed into or made (one more `syncfs` per file system, else one
//! sync per directory). The guarantees are those of [`write_file_with`] (no
//! output is ever renamed into place before its bytes are on disk; a file that fails leaves
//! no output and no temporary file), plus the directory sync, so a committed output also
//! survives a crash under its name; what is shared is the waiting: the disk works on every
//! file of the group while the next ones are being written, instead of one file at a time.
//! A crash or SIGKILL before the commit leaves the group's temporary files (`.pith-tmp-*`) and
//! no output; dropping a group uncommitted removes its temporary files.
//!
//! A large file written as a stream (a tar) goes through [`Writeback`], which starts the
//! writeback of each stretch written while the next is being written.
//!
//! This module owns the commit of whole files; appending an incremental update to a PDF in
//! place is the `commit` module's. It prints nothing and knows no command-line flags.
//!
//! ```
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("badge.svg");
//! pith_pdf::output::write_file_with(&path, None, |f| std::io::Write::write_all(f, b"<svg/>"))?;
//! assert_eq!(std::fs::read(&path)?, b"<svg/>");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

mod group;
mod writeback;

pub use group::Group;
pub use writeback::{copy_stretch, Writeback};

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

/// Whether `path` names standard input or output (`-`) rather than a file: the one rule for
/// every command, reader and writer.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` exists as something other than a regular file, a directory or a symlink: a
/// device (`/dev/null`, `/dev/stdout`), a FIFO or a socket. Such an output is written to
/// directly; a temporary file renamed over it would replace the device node itself (as root,
/// `-o /dev/null` turned /dev/null into a regular file).
pub fn is_special(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| is_special_type(m.file_type()))
}

/// [`is_special`] on a type already read (`symlink_metadata`): neither a file, a folder nor a
/// symbolic link.
pub fn is_special_type(t: std::fs::FileType) -> bool {
    !t.is_file() && !t.is_dir() && !t.is_symlink()
}

/// Makes the folders `dir` lacks, as `mkdir -p` does: the folders of an output are made when
/// it is written, never before (a run refused or dry leaves none). The folders made, the
/// outermost first; the folder that could not be made with the error. With `sync`, each made
/// folder's entry in its parent is synced now; a group syncs them at its commit instead.
fn make_folders(dir: &Path, sync: bool) -> Result<Vec<PathBuf>, (PathBuf, io::Error)> {
    let missing: Vec<&Path> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| std::fs::symlink_metadata(a).is_err())
        .collect();
    let mut made = Vec::new();
    for folder in missing.into_iter().rev() {
        match std::fs::create_dir(folder) {
            Ok(()) => made.push(folder.to_path_buf()),
            // Made meanwhile by another writer (two batch workers): theirs to keep.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                unmake_folders(&made);
                return Err((folder.to_path_buf(), e));
            }
        }
    }
    // A new folder's own name is an entry of the folder above: durable too, as the file's
    // name will be.
    for folder in made.iter().filter(|_| sync) {
        let _ = sync_dir(parent_dir(folder));
    }
    Ok(made)
}

/// Removes the folders [`make_folders`] made for an output that was not written, the
/// innermost first, each only while empty.
fn unmake_folders(made: &[PathBuf]) {
    for folder in made.iter().rev() {
        let _ = std::fs::remove_dir(folder);
    }
}

/// The directory a relative or absolute `path` is in ("." for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes the entries of `dir` durable (a rename into it, a file created in it). A file system
/// that cannot sync directories (EINVAL) has nothing more to offer and is not an error.
fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir).and_then(|d| d.sync_all()) {
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::INVAL.raw_os_error()) => Ok(()),
        r => r,
    }
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
    let place = Place {
        sync_folders: true,
        ..Place::default()
    };
    let (tmp, _, permissions) = create(path, permissions, fill, &place)?;
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

/// What [`create`] is told of the folder its temporary file goes in.
#[derive(Default)]
struct Place<'a> {
    /// Sync the entries of the folders made now (a group syncs them at its commit instead).
    sync_folders: bool,
    /// The folder is there (a group holds a file staged in it): nothing to look at or make.
    folder_there: bool,
    /// The current directory, read once by the caller, that a relative folder is in
    /// (`tempfile` would read it again for each file); `None` leaves that to `tempfile`.
    cwd: Option<&'a Path>,
    /// Create the file with the permissions it is to get rather than 0666; the caller still
    /// sets them when the umask took bits away.
    exact_mode: bool,
}

/// A temporary file in `path`'s directory (as [`Place`] says), filled by `fill`, not synced,
/// with the folders made for it, whose entries are synced now with `sync_folders` (see
/// [`make_folders`]), and the permissions it is to get: `permissions` when set, else an
/// existing file's own; `None` keeps the 0666 less the umask it was created with.
fn create(
    path: &Path,
    permissions: Option<Permissions>,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
    place: &Place<'_>,
) -> Result<(NamedTempFile, Vec<PathBuf>, Option<Permissions>), Error> {
    let dir = parent_dir(path);
    let permissions = permissions.or_else(|| {
        std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions())
    });
    let made = if place.folder_there {
        Vec::new()
    } else {
        make_folders(dir, place.sync_folders).map_err(|(folder, e)| {
            Error::new(
                path,
                format!("cannot create the output folder {}", folder.display()),
                e,
            )
        })?
    };
    let absolute;
    let tmp_dir = match place.cwd {
        Some(cwd) if dir.is_relative() => {
            absolute = cwd.join(dir);
            &absolute
        }
        _ => dir,
    };
    // Created with 0666 the kernel applies the umask, as for any new file; tempfile's own
    // default (0600) made `pith sty -o` and `pith badge -o` unreadable to others. With
    // `exact_mode`, created with the mode it is to get, which the umask most often leaves
    // whole: no change of mode afterwards.
    let mode = match &permissions {
        Some(p) if place.exact_mode => p.mode() & 0o7777,
        _ => 0o666,
    };
    let tmp = tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .permissions(Permissions::from_mode(mode))
        .tempfile_in(tmp_dir)
        .map_err(|e| {
            // tempfile's error names the random temporary file; the user knows the folder.
            // (Unix error numbers: ENOENT, EACCES; this module is Unix-only.)
            let e = match e.kind() {
                io::ErrorKind::NotFound => io::Error::from_raw_os_error(2),
                io::ErrorKind::PermissionDenied => io::Error::from_raw_os_error(13),
                k => io::Error::new(k, k.to_string()),
            };
            Error::new(
                path,
                format!("cannot create a file in {}", dir.display()),
                e,
            )
        });
    let mut tmp = match tmp {
        Ok(t) => t,
        Err(e) => {
            unmake_folders(&made);
            return Err(e);
        }
    };
    if let Err(e) = fill(tmp.as_file_mut()) {
        drop(tmp);
        unmake_folders(&made);
        return Err(Error::new(path, "cannot write", e));
    }
    Ok((tmp, made, permissions))
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
        // A folder that cannot be made: a file is in its place.
        let blocked = dir.path().join("blocked");
        std::fs::write(&blocked, b"x").unwrap();
        let unmakeable = blocked.join("dir/b.txt");
        let e = write_files(&[(a.clone(), b"new"), (unmakeable.clone(), b"b")]).unwrap_err();
        assert_eq!(e.path(), unmakeable);
        assert_eq!(std::fs::read(&a).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        write_files(&[(a.clone(), b"new"), (dir.path().join("c.txt"), b"c")]).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"new");
    }

    #[test]
    fn an_output_makes_its_folders_and_a_failed_one_leaves_none() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c.txt");
        write_file_with(&deep, None, |f| f.write_all(b"c")).unwrap();
        assert_eq!(std::fs::read(&deep).unwrap(), b"c");
        let failed = dir.path().join("x/y/z.txt");
        let e = write_file_with(&failed, None, |_| Err(io::Error::other("no"))).unwrap_err();
        assert_eq!(e.path(), failed);
        assert!(
            !dir.path().join("x").exists(),
            "a folder left by a failed output"
        );
        // A folder that was there before stays.
        let e = write_file_with(&dir.path().join("a/q.txt"), None, |_| {
            Err(io::Error::other("no"))
        });
        assert!(e.is_err() && dir.path().join("a/b").is_dir());
    }

    /// Names of the files in `dir`, sorted.
    #[test]
    fn devices_are_written_to_not_replaced() {
        let null = Path::new("/dev/null");
        assert!(is_special(null));
        write_file_with(null, None, |f| f.write_all(b"x")).unwrap();
        assert!(is_special(null));
        assert!(!is_special(Path::new("/nonexistent/path")));
    }
}
