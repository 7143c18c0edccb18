//! The group commit of many new files at once ([`Group`], `pith batch`): see the
//! [module docs](super) for its guarantees.
//!
//! What a group costs is its waits for the disk, so it waits as few times as it can: one
//! `syncfs(2)` per file system for the data of every staged file, the renames, then one more
//! for every directory entry they changed (a directory synced alone only where `syncfs` does
//! not report errors). A staged file keeps no descriptor open, except the first of its file
//! system (the one `syncfs` is given, opened before any of the others was written), so a group
//! may hold far more files than the process may open.

use std::fs::{File, Permissions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use tempfile::TempPath;

use super::{create, parent_dir, sync_dir, write_file_with, Error, Place};

/// Outputs written now and made durable together: a group commit.
///
/// [`Group::stage`] writes a file to a temporary file in its target's directory (and starts
/// the writeback of a large one without waiting for it); [`Group::commit`] syncs every temporary file, renames
/// each one that synced over its target, then syncs each directory it renamed into or made
/// (and those given to [`Group::sync_dir`]). Dropping a group without committing it removes
/// its temporary files and changes no target.
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
    /// Staged files whose descriptor is still open.
    open: usize,
    /// The folders that hold a staged file: there until the commit (none is removed while a
    /// file is in it), so a file staged in one of them has no folder to look at or make.
    holding: Vec<PathBuf>,
    /// The current directory, read at the first file staged under a relative folder.
    cwd: Option<PathBuf>,
    /// The output [`Group::looked_at`] found empty: nothing was there when its caller looked.
    empty: Option<PathBuf>,
}

/// Files from this size (1 MiB) have their writeback started as soon as they are staged, so
/// that the disk works on them while the next ones are written. Smaller ones are left to the
/// commit's sync, which writes them back together: one submission to the disk for many files
/// instead of one each, as `cp -r` followed by `sync` does.
const WRITEBACK_FROM: u64 = 1 << 20;

/// A file renamed into place and the directory it was renamed into.
type Placed = (PathBuf, PathBuf);

/// A temporary file written, its writeback started, not yet synced.
struct Pending {
    tmp: TempPath,
    /// Kept open for the first file of each file system while `syncfs` reports errors (the
    /// file that sync is given), and for every file where it does not (each is synced
    /// alone); closed otherwise.
    file: Option<File>,
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

    /// How many staged files hold an open descriptor until the commit: one per file system
    /// where `syncfs(2)` reports errors (Linux 5.8 on), every staged file elsewhere.
    pub fn open_files(&self) -> usize {
        self.open
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
        // Nothing at `path` when the caller looked: no device there to write to directly.
        let empty = self.empty.take().is_some_and(|e| e == path);
        if !empty && super::is_special(path) {
            write_file_with(path, permissions, fill)?;
            self.entries.push(None);
            return Ok(());
        }
        let dir = parent_dir(path);
        if dir.is_relative() && self.cwd.is_none() {
            self.cwd = std::env::current_dir().ok();
        }
        let place = Place {
            // The folders made for it are synced at the commit, with the renames.
            sync_folders: false,
            folder_there: self.holds_files_in(dir),
            cwd: self.cwd.as_deref(),
            exact_mode: true,
        };
        let (tmp, made, permissions) = create(path, permissions, fill, &place)?;
        for folder in &made {
            self.sync_dir(parent_dir(folder));
        }
        let meta = tmp.as_file().metadata().ok();
        if let Some(p) = permissions {
            // Created with this mode, less the umask: set again when the umask took bits.
            let mode = |p: &Permissions| p.mode() & 0o7777;
            if meta
                .as_ref()
                .is_none_or(|m| mode(&m.permissions()) != mode(&p))
            {
                let _ = tmp.as_file().set_permissions(p);
            }
        }
        if !self.holds_files_in(dir) {
            self.holding.push(dir.to_path_buf());
        }
        let size = meta.as_ref().map_or(0, |m| m.len());
        if size >= WRITEBACK_FROM {
            super::writeback::start(tmp.as_file(), 0, 0);
        }
        self.bytes += size;
        let dev = meta.map(|m| std::os::unix::fs::MetadataExt::dev(&m));
        let (file, tmp) = tmp.into_parts();
        let shared = syncfs_reports_errors()
            && dev.is_some_and(|d| {
                self.entries
                    .iter()
                    .flatten()
                    .any(|p| p.dev == Some(d) && p.file.is_some())
            });
        let file = (!shared).then_some(file);
        self.open += usize::from(file.is_some());
        self.entries.push(Some(Pending {
            tmp,
            file,
            path: path.to_path_buf(),
            dev,
        }));
        Ok(())
    }

    /// Whether a file staged in this group has its temporary file in `dir`: that folder is
    /// there until the commit (a folder is removed only while empty), so an output into it
    /// needs no folder made nor looked at.
    pub fn holds_files_in(&self, dir: &Path) -> bool {
        self.holding.iter().any(|d| d == dir)
    }

    /// Tells the group what its caller found at `path` as it chose to stage it: `empty` when
    /// nothing was there, not even a symbolic link (`symlink_metadata` found no entry). The
    /// next [`Group::stage`] of an empty `path` does not look again for a device or FIFO to
    /// write to directly; something made there meanwhile is replaced by the commit's rename,
    /// as a file made after that look would be.
    pub fn looked_at(&mut self, path: &Path, empty: bool) {
        self.empty = empty.then(|| path.to_path_buf());
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
    /// every one given to [`Group::sync_dir`]. Returns one result per staged file, in stage
    /// order.
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
        let holders: Vec<(u64, File)> = self
            .entries
            .iter()
            .flatten()
            .filter_map(|p| Some((p.dev?, p.file.as_ref()?.try_clone().ok()?)))
            .collect();
        let together = sync_file_systems(&holders);
        let synced: Vec<Option<Result<Pending, Error>>> = self
            .entries
            .into_iter()
            .map(|e| {
                e.map(|p| match together_synced(&together, &p) {
                    Ok(()) => Ok(p),
                    // Dropping `p` removes its temporary file.
                    Err(e) => Err(Error::new(&p.path, "cannot write", e)),
                })
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
                    let dir = parent_dir(&p.path).to_path_buf();
                    drop(p.file);
                    if let Err(e) = p.tmp.persist(&p.path) {
                        // Dropping the error's path removes the temporary file.
                        return (Err(Error::new(&p.path, "cannot replace", e.error)), None);
                    }
                    if !dirs.contains(&dir) {
                        dirs.push(dir.clone());
                    }
                    (Ok(()), Some((p.path, dir)))
                }
            })
            .collect();
        // The directories' entries: one more sync of each file system synced whole covers
        // every directory on it; the others are synced one by one.
        let again = sync_file_systems(&holders);
        for dir in &dirs {
            let on_synced = dir_dev(dir).is_some_and(|d| again.contains(&d));
            let Err(e) = (if on_synced { Ok(()) } else { sync_dir(dir) }) else {
                continue;
            };
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

/// The file system a directory is on.
fn dir_dev(dir: &Path) -> Option<u64> {
    std::fs::metadata(dir)
        .ok()
        .map(|m| std::os::unix::fs::MetadataExt::dev(&m))
}

/// The file systems (`st_dev`) that one `syncfs(2)` each made durable, with every file
/// on them: their data, their inodes and the disk's cache. Given one open file per file system
/// (`holders`), and only where `syncfs` reports the write errors it met (Linux 5.8 and later,
/// which checks them against the time the file it is given was opened: the group's first file
/// on each file system, opened before any of the group's files on it was written); elsewhere
/// none, and each file is synced alone. Many small files then cost one flush of the disk's
/// cache instead of one each.
fn sync_file_systems(holders: &[(u64, File)]) -> Vec<u64> {
    let mut done: Vec<u64> = Vec::new();
    if !syncfs_reports_errors() {
        return done;
    }
    for (dev, file) in holders {
        if done.contains(dev) {
            continue;
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if rustix::fs::syncfs(file).is_ok() {
            done.push(*dev);
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let _ = file;
    }
    done
}

/// Syncs the file of `p` unless it is on a file system of `together` (already synced whole).
/// A file whose descriptor was closed (its file system's sync failed) is opened again: an
/// error no descriptor has seen yet is reported to the new one.
fn together_synced(together: &[u64], p: &Pending) -> io::Result<()> {
    match (p.dev, &p.file) {
        (Some(d), _) if together.contains(&d) => Ok(()),
        (_, Some(f)) => f.sync_all(),
        (_, None) => File::open(&p.tmp).and_then(|f| f.sync_all()),
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

#[cfg(test)]
mod tests {
    use super::super::is_special;
    use super::*;
    use std::io::Write;
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
    fn what_a_group_was_told_or_holds_spares_it_a_look_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("made");
        let mut group = Group::new();
        assert!(!group.holds_files_in(&sub));
        // Told empty: staged (the folder made as ever), with the mode asked for exactly,
        // whatever the umask takes away at creation.
        let a = sub.join("a.txt");
        group.looked_at(&a, true);
        let all = Permissions::from_mode(0o666);
        group.stage(&a, Some(all), |f| f.write_all(b"a")).unwrap();
        assert!(group.holds_files_in(&sub) && !group.holds_files_in(dir.path()));
        // A read-only mode too.
        let b = sub.join("b.txt");
        group.looked_at(&b, true);
        let read_only = Permissions::from_mode(0o444);
        group
            .stage(&b, Some(read_only), |f| f.write_all(b"b"))
            .unwrap();
        // What it was told of one path says nothing of another: a device is still found.
        group.looked_at(&a, true);
        group
            .stage(Path::new("/dev/null"), None, |f| f.write_all(b"x"))
            .unwrap();
        assert_eq!(group.len(), 3);
        assert!(group.commit().iter().all(Result::is_ok));
        assert!(is_special(Path::new("/dev/null")));
        let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
        assert_eq!((mode(&a), mode(&b)), (0o666, 0o444));
        assert_eq!(names(&sub), ["a.txt", "b.txt"]);
    }

    #[test]
    fn a_group_holds_one_open_file_per_file_system_where_syncfs_reports_errors() {
        let dir = tempfile::tempdir().unwrap();
        let mut group = Group::new();
        for i in 0..50 {
            let path = dir.path().join(format!("made/{}/{i}.txt", i % 2));
            group.stage(&path, None, |f| f.write_all(b"x")).unwrap();
        }
        let expect = if syncfs_reports_errors() { 1 } else { 50 };
        assert_eq!((group.len(), group.open_files()), (50, expect));
        // The folders made for the files are synced at the commit, with the renames.
        assert!(group.dirs.iter().any(|d| d == dir.path()));
        assert!(group.commit().iter().all(Result::is_ok));
        assert_eq!(names(&dir.path().join("made/1")).len(), 25);
    }
}
