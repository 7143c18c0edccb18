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

/// Makes the entries of `dir` durable (a rename into it, a file created in it). A file system
/// that cannot sync directories (EINVAL) has nothing more to offer and is not an error.
fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir).and_then(|d| d.sync_all()) {
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::INVAL.raw_os_error()) => Ok(()),
        r => r,
    }
}

/// The file systems (`st_dev`) that one `syncfs(2)` each made durable, with every file of
/// `entries` on them: their data, their inodes and the disk's cache. Only where `syncfs`
/// reports the write errors it met (Linux 5.8 and later, which checks them against the time
/// the file it is given was opened: the group's first file on each file system, opened before
/// any of the group's files on it was written); elsewhere none, and each file is synced alone.
/// Many small files then cost one flush of the disk's cache instead of one each.
fn sync_file_systems(entries: &[Option<Pending>]) -> Vec<u64> {
    let mut done: Vec<u64> = Vec::new();
    if !syncfs_reports_errors() {
        return done;
    }
    let mut tried: Vec<u64> = Vec::new();
    for p in entries.iter().flatten() {
        let Some(dev) = p.dev.filter(|d| !tried.contains(d)) else {
            continue;
        };
        tried.push(dev);
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if rustix::fs::syncfs(p.tmp.as_file()).is_ok() {
            done.push(dev);
        }
    }
    done
}

/// Syncs `file` unless it is on a file system of `together` (already synced whole).
fn together_synced(together: &[u64], dev: Option<u64>, file: &File) -> io::Result<()> {
    match dev {
        Some(d) if together.contains(&d) => Ok(()),
        _ => file.sync_all(),
    }
}

/// Whether `syncfs(2)` reports write errors here: Linux 5.8 and later (before, it returned 0
/// whatever happened).
fn syncfs_reports_errors() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| {
        if !cfg!(any(target_os = "linux", target_os = "android")) {
            return false;
        }
        std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .is_ok_and(|r| linux_at_least(&r, (5, 8)))
    })
}

/// Whether a Linux release string (`6.1.0-18-amd64`) is at least `major.minor`.
fn linux_at_least(release: &str, (major, minor): (u64, u64)) -> bool {
    let mut parts = release
        .trim()
        .split(['.', '-'])
        .map(|p| p.parse::<u64>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}

/// Asks the kernel to start writing `file`'s dirty pages to disk now, without waiting; the
/// sync at the commit then mostly finds them written. Only a hint: nothing depends on it but
/// speed. On Linux `POSIX_FADV_DONTNEED` starts the writeback (and drops pages already clean,
/// so a batch does not fill the page cache with its outputs); `sync_file_range` would do the
/// same but has no safe wrapper in our dependencies.
fn start_writeback(file: &File) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = rustix::fs::fadvise(file, 0, None, rustix::fs::Advice::DontNeed);
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = file;
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
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn linux_releases_compare_by_major_then_minor() {
        assert!(linux_at_least("6.1.0-18-amd64\n", (5, 8)));
        assert!(linux_at_least("5.8.0", (5, 8)));
        assert!(linux_at_least("5.10.1-fc", (5, 8)));
        assert!(!linux_at_least("5.4.0-150-generic", (5, 8)));
        assert!(!linux_at_least("4.19.0", (5, 8)));
        assert!(!linux_at_least("weird", (5, 8)));
    }

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
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_group_puts_nothing_in_place_before_its_commit_and_everything_after() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let mut group = Group::new();
        for i in 0..5 {
            let d = if i % 2 == 0 { dir.path() } else { &sub };
            let body = format!("file {i}");
            group
                .stage(&d.join(format!("{i}.txt")), None, |f| {
                    f.write_all(body.as_bytes())
                })
                .unwrap();
        }
        group.sync_dir(dir.path());
        assert_eq!((group.len(), group.bytes()), (5, 30));
        // Only temporary files until the commit.
        assert!(names(dir.path())
            .iter()
            .all(|n| n == "sub" || n.starts_with(".pith-tmp-")));
        assert!(group.commit().iter().all(Result::is_ok));
        assert_eq!(names(dir.path()), ["0.txt", "2.txt", "4.txt", "sub"]);
        assert_eq!(names(&sub), ["1.txt", "3.txt"]);
        assert_eq!(std::fs::read(sub.join("3.txt")).unwrap(), b"file 3");
        assert_ne!(
            std::fs::metadata(sub.join("3.txt")).unwrap().mode() & 0o044,
            0
        );
    }

    #[test]
    fn a_file_that_fails_in_a_group_fails_alone_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        // A rename over a non-empty directory fails at the commit, after the sync.
        let blocked = dir.path().join("blocked.txt");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("keep"), b"k").unwrap();
        let mut group = Group::new();
        group
            .stage(&dir.path().join("a.txt"), None, |f| f.write_all(b"a"))
            .unwrap();
        // A fill that fails is refused at once and stages nothing.
        let e = group
            .stage(&dir.path().join("b.txt"), None, |_| {
                Err(io::Error::other("disk full"))
            })
            .unwrap_err();
        assert_eq!(e.what(), "cannot write");
        group.stage(&blocked, None, |f| f.write_all(b"x")).unwrap();
        group
            .stage(&dir.path().join("c.txt"), None, |f| f.write_all(b"c"))
            .unwrap();
        let results = group.commit();
        assert_eq!(results.len(), 3);
        assert!(results[0].is_ok() && results[2].is_ok());
        let e = results[1].as_ref().unwrap_err();
        assert_eq!((e.path(), e.what()), (blocked.as_path(), "cannot replace"));
        assert_eq!(names(dir.path()), ["a.txt", "blocked.txt", "c.txt"]);
        assert_eq!(names(&blocked), ["keep"]);
    }

    #[test]
    fn a_group_dropped_uncommitted_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.txt");
        std::fs::write(&old, b"old").unwrap();
        let mut group = Group::new();
        group.stage(&old, None, |f| f.write_all(b"new")).unwrap();
        group
            .stage(&dir.path().join("new.txt"), None, |f| f.write_all(b"n"))
            .unwrap();
        drop(group);
        assert_eq!(names(dir.path()), ["old.txt"]);
        assert_eq!(std::fs::read(&old).unwrap(), b"old");
        // A group of devices writes them at once and commits nothing else.
        let mut group = Group::new();
        group
            .stage(Path::new("/dev/null"), None, |f| f.write_all(b"x"))
            .unwrap();
        assert!(is_special(Path::new("/dev/null")));
        assert!(group.commit().iter().all(Result::is_ok));
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
