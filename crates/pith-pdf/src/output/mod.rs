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
//! written to its temporary file and its writeback is started at once, without waiting; the
//! group then syncs every temporary file (one `syncfs(2)` per file system where the kernel
//! reports its errors, else one sync per file), renames each synced one over its target and
//! syncs each directory it renamed into, once. The guarantees are those of [`write_file_with`] (no
//! output is ever renamed into place before its bytes are on disk; a file that fails leaves
//! no output and no temporary file), plus the directory sync, so a committed output also
//! survives a crash under its name; what is shared is the waiting: the disk works on every
//! file of the group while the next ones are being written, instead of one file at a time.
//! A crash or SIGKILL before the commit leaves the group's temporary files (`.pith-tmp-*`) and
//! no output; dropping a group uncommitted removes its temporary files.
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

use durable::{start_writeback, sync_dir, sync_file_systems, together_synced};

mod durable;

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
    std::fs::symlink_metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        !t.is_file() && !t.is_dir() && !t.is_symlink()
    })
}

/// Outputs written now and made durable together: a group commit.
///
/// [`Group::stage`] writes a file to a temporary file in its target's directory and starts
/// its writeback without waiting for it; [`Group::commit`] syncs every temporary file, renames
/// each one that synced over its target, then syncs each directory it renamed into (and those
/// given to [`Group::sync_dir`]) once. Dropping a group without committing it removes its
/// temporary files and changes no target.
///
/// # Examples
/// ```
/// use std::io::Write;
/// let dir = tempfile::tempdir()?;
/// let mut group = pith_pdf::output::Group::new();
/// for name in ["a.txt", "b.txt"] {
///     group.stage(&dir.path().join(name), None, |f| f.write_all(name.as_bytes()))?;
/// }
/// assert!(!dir.path().join("a.txt").exists()); // nothing is in place before the commit
/// for result in group.commit() {
///     result?;
/// }
/// assert_eq!(std::fs::read(dir.path().join("b.txt"))?, b"b.txt");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct Group {
    /// In stage order; `None` for a device or FIFO, written to directly when staged.
    entries: Vec<Option<Pending>>,
    /// Directories to sync at the commit besides those renamed into.
    dirs: Vec<PathBuf>,
    bytes: u64,
}

/// A file renamed into place and the directory it was renamed into.
type Placed = (PathBuf, PathBuf);

/// A temporary file written, its writeback started, not yet synced.
struct Pending {
    tmp: NamedTempFile,
    path: PathBuf,
    /// The file system it is on (`st_dev`), `None` when unknown: synced alone.
    dev: Option<u64>,
}

impl Group {
    /// An empty group.
    pub fn new() -> Self {
        Group::default()
    }

    /// How many files were staged since the last commit.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no file is staged.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes written to the staged files so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Writes `path` with `fill` into a temporary file in the same directory, as
    /// [`write_file_with`] does, and starts writing it to disk without waiting; `path` is
    /// replaced only by [`Group::commit`]. A device or FIFO at `path` is written to directly,
    /// now.
    ///
    /// # Errors
    /// An [`Error`] naming `path` and what failed; the group is unchanged and no temporary
    /// file is left behind.
    pub fn stage(
        &mut self,
        path: &Path,
        permissions: Option<Permissions>,
        fill: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), Error> {
        if is_special(path) {
            write_file_with(path, permissions, fill)?;
            self.entries.push(None);
            return Ok(());
        }
        let tmp = create(path, permissions, fill)?;
        let meta = tmp.as_file().metadata().ok();
        start_writeback(tmp.as_file());
        self.bytes += meta.as_ref().map_or(0, |m| m.len());
        self.entries.push(Some(Pending {
            tmp,
            path: path.to_path_buf(),
            dev: meta.map(|m| std::os::unix::fs::MetadataExt::dev(&m)),
        }));
        Ok(())
    }

    /// Also syncs `dir` at the commit: a directory created for this group's files, whose own
    /// entry in its parent must survive a crash too (pass the parent).
    pub fn sync_dir(&mut self, dir: &Path) {
        if !self.dirs.iter().any(|d| d == dir) {
            self.dirs.push(dir.to_path_buf());
        }
    }

    /// Makes the staged files durable and puts them in place: syncs each temporary file,
    /// renames each synced one over its target, then syncs every directory renamed into and
    /// every one given to [`Group::sync_dir`], once each. Returns one result per staged file,
    /// in stage order.
    ///
    /// A file that cannot be synced or renamed fails alone: its temporary file is removed
    /// and its target untouched, and the other files still land. When a directory cannot be
    /// synced, the files renamed into it are in place, complete, but reported as failed: their
    /// names might not survive a crash.
    pub fn commit(self) -> Vec<Result<(), Error>> {
        // Everything is synced before anything is renamed: the waits overlap (the writeback of
        // every file started when it was staged), and no name ever points at unsynced bytes.
        // One sync of each file system holding files of the group makes them all durable at
        // once; a file whose file system could not be synced so is synced alone, which also
        // names the file a write error belongs to.
        let together = sync_file_systems(&self.entries);
        let synced: Vec<Option<Result<Pending, Error>>> = self
            .entries
            .into_iter()
            .map(|e| {
                e.map(
                    |p| match together_synced(&together, p.dev, p.tmp.as_file()) {
                        Ok(()) => Ok(p),
                        // Dropping `p` removes its temporary file.
                        Err(e) => Err(Error::new(&p.path, "cannot write", e)),
                    },
                )
            })
            .collect();
        let mut dirs = self.dirs;
        // Each result, with the file and the directory it was renamed into.
        let mut results: Vec<(Result<(), Error>, Option<Placed>)> = synced
            .into_iter()
            .map(|s| match s {
                None => (Ok(()), None),
                Some(Err(e)) => (Err(e), None),
                Some(Ok(p)) => {
                    let (path, dir) = (p.path.clone(), parent_dir(&p.path).to_path_buf());
                    let renamed = Staged {
                        tmp: p.tmp,
                        path: p.path,
                    }
                    .commit();
                    if renamed.is_err() {
                        return (renamed, None);
                    }
                    if !dirs.contains(&dir) {
                        dirs.push(dir.clone());
                    }
                    (renamed, Some((path, dir)))
                }
            })
            .collect();
        for dir in &dirs {
            let Err(e) = sync_dir(dir) else { continue };
            for (r, placed) in &mut results {
                if let (Ok(()), Some((path, d))) = (&r, placed) {
                    if d == dir {
                        let what = format!("cannot sync its directory {}", dir.display());
                        *r = Err(Error::new(
                            path,
                            what,
                            io::Error::new(e.kind(), e.to_string()),
                        ));
                    }
                }
            }
        }
        results.into_iter().map(|(r, _)| r).collect()
    }
}

/// The directory a relative or absolute `path` is in ("." for a bare file name).
/// Makes the folders `dir` lacks, as `mkdir -p` does: the folders of an output are made when
/// it is written, never before (a run refused or dry leaves none). The folders made, the
/// outermost first; the folder that could not be made with the error.
fn make_folders(dir: &Path) -> Result<Vec<PathBuf>, (PathBuf, io::Error)> {
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
    for folder in &made {
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

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
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
    let tmp = create(path, permissions, fill)?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::new(path, "cannot write", e))?;
    Ok(Staged {
        tmp,
        path: path.to_path_buf(),
    })
}

/// A temporary file in `path`'s directory, filled by `fill`, with `permissions` (when set;
/// else an existing file's own, else 0666 less the umask); not synced.
fn create(
    path: &Path,
    permissions: Option<Permissions>,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<NamedTempFile, Error> {
    let dir = parent_dir(path);
    let permissions = permissions.or_else(|| {
        std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions())
    });
    let made = make_folders(dir).map_err(|(folder, e)| {
        Error::new(
            path,
            format!("cannot create the output folder {}", folder.display()),
            e,
        )
    })?;
    // Created with 0666 the kernel applies the umask, as for any new file; tempfile's own
    // default (0600) made `pith sty -o` and `pith badge -o` unreadable to others.
    let tmp = tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(dir)
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
    if let Some(p) = permissions {
        // The umask applied at creation; an existing file's exact mode is set again.
        let _ = tmp.as_file().set_permissions(p);
    }
    Ok(tmp)
}

#[cfg(test)]
mod tests;
