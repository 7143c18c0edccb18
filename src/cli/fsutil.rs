//! File helpers for the CLI: whole outputs written through the library's atomic writer
//! ([`pith::pdf::commit::write_file_with`]: temporary file, sync, rename; devices written to)
//! and same-file detection.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

pub use pith::pdf::commit::is_special;

/// Writes `bytes` to `path` through a temporary file in the same directory and an atomic
/// rename, so `path` is either untouched or complete. "-" writes to standard output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
        return Ok(());
    }
    Ok(pith::pdf::commit::write_file_with(path, None, |f| {
        f.write_all(bytes)
    })?)
}

/// Whether two paths name the same existing file (same device and inode).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}
