//! File helpers for the CLI: atomic writes (temporary file + rename) and same-file detection.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` through a temporary file in the same directory and an atomic
/// rename, so `path` is either untouched or complete. "-" writes to standard output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
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
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("{}: cannot write", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot replace", path.display()))?;
    Ok(())
}

/// Whether two paths name the same existing file (same device and inode).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}
