//! Applying an incremental update to a file on disk, shared by `pith inject` and `pith batch`.
//!
//! Two ways, both never touching a byte of the original:
//! - **to a new file**: copy of the input + the update, written to a temporary file in the
//!   target's directory, synced, then renamed over the target (atomic);
//! - **in place**: the update is appended to the input itself under an exclusive lock, in two
//!   steps so that a kill at any moment leaves a valid file. First the new objects, the new
//!   xref section and trailer are appended, followed by a copy of the *old* `startxref` tail:
//!   the file still opens as before (readers follow the last `startxref`). After a sync, that
//!   tail alone (a few dozen bytes, never crossing a 512-byte sector) is overwritten with the
//!   new `startxref`, which commits the update. Both tails zero-pad the offset to the same
//!   width, so the commit is one small write of equal length. Cost: a few KB, whatever the
//!   file's size.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use anyhow::{Context, Result};
use pith::pdf::{ErrorKind, Options};
use pith::PithNumber;

/// Where the update goes.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// Append to the input itself.
    InPlace,
    /// Write a new file (through a temporary file and a rename); "-" is standard output.
    File(&'a Path),
}

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The update was written.
    Injected,
    /// The file already carried the number.
    Unchanged,
}

/// The result of [`apply`].
#[derive(Debug, Clone)]
pub struct Report {
    /// What was done.
    pub applied: Applied,
    /// Size of the result.
    pub bytes_after: u64,
    /// Human-readable lines describing what was written.
    pub written: Vec<String>,
    /// The old XMP packet, when it was unparsable and replaced under `--force`.
    pub replaced_xmp: Option<Vec<u8>>,
}

/// The `startxref` tail with the offset zero-padded to `width` digits (at least 10, like xref
/// table offsets; wider only past 10 GB), so the old and new tails have the same length.
fn tail(offset: u64, width: usize) -> Vec<u8> {
    format!("startxref\n{offset:0width$}\n%%EOF\n").into_bytes()
}

/// The update time: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
pub fn now() -> String {
    let t = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .unwrap_or_else(chrono::Utc::now);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Injects `number` into `input`, writing to `target`.
///
/// # Errors
/// Any read, parse or write error, with the file named; on error the input is untouched and no
/// output file exists.
pub fn apply(input: &Path, target: Target, number: &PithNumber, opts: &Options) -> Result<Report> {
    let what = || input.display().to_string();
    match target {
        Target::InPlace => {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .open(input)
                .with_context(|| format!("{}: cannot open for update", input.display()))?;
            refuse_non_file(&file, input)?;
            // Two `pith` processes on one file: the second waits for the first, then finds the
            // number already there ("unchanged").
            file.lock()
                .with_context(|| format!("{}: cannot lock", input.display()))?;
            let times = file.metadata().ok().map(|m| (m.accessed(), m.modified()));
            let inj = pith::pdf::inject(&file, number, opts).with_context(what)?;
            let len = file.metadata().with_context(what)?.len();
            if inj.unchanged {
                return Ok(Report {
                    applied: Applied::Unchanged,
                    bytes_after: len,
                    written: inj.written,
                    replaced_xmp: inj.replaced_xmp,
                });
            }
            let old_startxref = pith::pdf::Pdf::open(&file).with_context(what)?.startxref();
            let appended = &inj.appended;
            let cut = rfind(appended, b"startxref").context("update has no startxref")?;
            let new_xref =
                parse_startxref(&appended[cut..]).context("update has no startxref offset")?;
            let mut bulk = appended[..cut].to_vec();
            // Keep the tail inside one 512-byte sector so the commit is a single-sector write.
            let width = new_xref.to_string().len().max(10);
            let tail_len = tail(0, width).len() as u64;
            let start = len + bulk.len() as u64;
            let room = 512 - (start % 512);
            if room < tail_len {
                bulk.extend(std::iter::repeat_n(b'\n', room as usize));
            }
            let tail_at = len + bulk.len() as u64;
            bulk.extend_from_slice(&tail(old_startxref, width));
            let restore_times = || {
                if let Some((Ok(a), Ok(m))) = times {
                    let _ =
                        file.set_times(std::fs::FileTimes::new().set_accessed(a).set_modified(m));
                }
            };
            // A failed write (disk full, quota) can leave part of the update after %%EOF, so
            // that no `startxref` is left in the last kilobyte where readers look for it: cut
            // the file back to its original length (issue #7).
            let undo = |e: std::io::Error, what: &str| {
                let _ = file.set_len(len).and_then(|_| file.sync_data());
                restore_times();
                Err::<(), _>(e).with_context(|| format!("{}: {what}", input.display()))
            };
            if let Err(e) = file.write_all_at(&bulk, len).and_then(|_| file.sync_data()) {
                undo(e, "cannot append")?;
            }
            if let Err(e) = file
                .write_all_at(&tail(new_xref, width), tail_at)
                .and_then(|_| file.sync_data())
            {
                undo(e, "cannot commit the update")?;
            }
            restore_times();
            Ok(Report {
                applied: Applied::Injected,
                bytes_after: tail_at + tail_len,
                written: inj.written,
                replaced_xmp: inj.replaced_xmp,
            })
        }
        Target::File(out) => {
            let file =
                File::open(input).with_context(|| format!("{}: cannot open", input.display()))?;
            refuse_non_file(&file, input)?;
            let inj = pith::pdf::inject(&file, number, opts).with_context(what)?;
            let len = file.metadata().with_context(what)?.len();
            write_copy(out, input, &file, &inj.appended)?;
            Ok(Report {
                applied: if inj.unchanged {
                    Applied::Unchanged
                } else {
                    Applied::Injected
                },
                bytes_after: len + inj.appended.len() as u64,
                written: inj.written,
                replaced_xmp: inj.replaced_xmp,
            })
        }
    }
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn parse_startxref(t: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(t).ok()?;
    s.strip_prefix("startxref")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn refuse_non_file(file: &File, path: &Path) -> Result<()> {
    let m = file
        .metadata()
        .with_context(|| format!("{}: cannot read", path.display()))?;
    if !m.is_file() {
        anyhow::bail!("{}: not a regular file", path.display());
    }
    Ok(())
}

/// Writes `out` as a copy of `src` followed by `append`, through a temporary file in its
/// directory and an atomic rename ("-" streams to standard output). On any error the
/// temporary file is removed and `out` is untouched.
pub fn write_copy(out: &Path, input: &Path, src: &File, append: &[u8]) -> Result<()> {
    let source = || -> Result<File> {
        let mut f = src
            .try_clone()
            .with_context(|| format!("{}: cannot read", input.display()))?;
        f.seek(SeekFrom::Start(0))?;
        Ok(f)
    };
    if out.as_os_str() == "-" {
        let mut o = std::io::stdout().lock();
        std::io::copy(&mut source()?, &mut o)
            .with_context(|| format!("{}: cannot copy", input.display()))?;
        o.write_all(append)?;
        o.flush()?;
        return Ok(());
    }
    let permissions = src.metadata().ok().map(|m| m.permissions());
    super::fsutil::write_file_with(out, permissions, |w| {
        // File to file, so that std::io::copy can use copy_file_range(2): the kernel copies
        // (or shares extents) without the bytes passing through pith.
        std::io::copy(&mut source()?, w)
            .with_context(|| format!("{}: cannot copy", input.display()))?;
        Ok(w.write_all(append)?)
    })
}

/// Whether an error is a refusal (the file cannot be updated safely: not a PDF, damaged,
/// encrypted, certified, unparsable XMP, unsupported) rather than a failure (I/O).
pub fn is_refusal(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<pith::pdf::Error>()
            .is_some_and(|p| !matches!(p.kind(), ErrorKind::Io))
    })
}
