//! File helpers for the CLI: atomic writes (temporary file + rename) and same-file detection.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` through a temporary file in the same directory and an atomic
/// rename, so `path` is either untouched or complete (see [`write_file_with`]). "-" writes to
/// standard output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
        return Ok(());
    }
    write_file_with(path, None, |f| Ok(f.write_all(bytes)?))
}

/// Writes `path` with `fill`. A device or FIFO at `path` ([`is_special`]) is opened and written
/// to directly; anything else gets a temporary file in the same directory, filled, given
/// `permissions` (when set), synced and renamed over `path`, so `path` is either untouched or
/// complete and no partial file is left on error.
pub fn write_file_with(
    path: &Path,
    permissions: Option<std::fs::Permissions>,
    fill: impl FnOnce(&mut std::fs::File) -> Result<()>,
) -> Result<()> {
    if is_special(path) {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("{}: cannot open for writing", path.display()))?;
        fill(&mut f)
            .and_then(|_| Ok(f.flush()?))
            .with_context(|| format!("{}: cannot write", path.display()))?;
        return Ok(());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .tempfile_in(dir)
        .with_context(|| {
            format!(
                "{}: cannot create a temporary file in {}",
                path.display(),
                dir.display()
            )
        })?;
    fill(tmp.as_file_mut()).with_context(|| format!("{}: cannot write", path.display()))?;
    if let Some(p) = permissions {
        let _ = tmp.as_file().set_permissions(p);
    }
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("{}: cannot write", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot replace", path.display()))?;
    Ok(())
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

/// Whether two paths name the same existing file (same device and inode).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}
