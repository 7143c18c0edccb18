//! File helpers for the CLI: whole outputs written through the library's atomic writer
//! ([`pith::output`]: temporary file, sync, rename; devices written to)
//! (same-file detection is the job layer's, [`pith::job::same_file`]).

use std::io::Write;
use std::path::Path;

use anyhow::Result;

/// Writes `bytes` to `path` through a temporary file in the same directory and an atomic
/// rename, so `path` is either untouched or complete. "-" writes to standard output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if pith::output::is_stdio(path) {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
        return Ok(());
    }
    Ok(pith::output::write_file_with(path, None, |f| {
        f.write_all(bytes)
    })?)
}
