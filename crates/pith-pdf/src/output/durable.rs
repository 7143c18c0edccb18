//! Durability of the outputs on disk: syncing a file's folder after a rename, syncing whole
//! file systems at once where the kernel reports their errors (`syncfs(2)`, Linux 5.8 and
//! later), and starting a file's writeback early. Only what the kernel is asked; which files are
//! written and when they are renamed is the parent module's.

use std::fs::File;
use std::io;
use std::path::Path;

use super::Pending;

/// Makes the entries of `dir` durable (a rename into it, a file created in it). A file system
/// that cannot sync directories (EINVAL) has nothing more to offer and is not an error.
pub(super) fn sync_dir(dir: &Path) -> io::Result<()> {
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
pub(super) fn sync_file_systems(entries: &[Option<Pending>]) -> Vec<u64> {
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
pub(super) fn together_synced(together: &[u64], dev: Option<u64>, file: &File) -> io::Result<()> {
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
pub(super) fn linux_at_least(release: &str, (major, minor): (u64, u64)) -> bool {
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
pub(super) fn start_writeback(file: &File) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = rustix::fs::fadvise(file, 0, None, rustix::fs::Advice::DontNeed);
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = file;
}
