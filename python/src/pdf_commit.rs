//! Stand-in for `pith::pdf::commit` until the library's crash-safe commit call lands on main
//! (pdf-layers branch, `pith::pdf::commit::inject_file`): same signature and protocol as
//! `src/cli/apply.rs` of the main crate. Remove this file and import the library's module
//! once main has it.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use pith::pdf::{Error, ErrorKind, Options};
use pith::PithNumber;

/// Where the update goes.
pub enum Target<'a> {
    /// Append to the input itself.
    InPlace,
    /// Write a new file (through a temporary file and a rename).
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

/// The result of [`inject_file`].
pub struct Report {
    pub applied: Applied,
    pub bytes_after: u64,
    pub written: Vec<String>,
    pub replaced_xmp: Option<Vec<u8>>,
}

fn io(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io).with_source(e)
}

fn tail(offset: u64, width: usize) -> Vec<u8> {
    format!("startxref\n{offset:0width$}\n%%EOF\n").into_bytes()
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// Injects `number` into the PDF at `input` and writes the result to `target`.
pub fn inject_file(
    input: &Path,
    target: Target<'_>,
    number: &PithNumber,
    opts: &Options,
) -> Result<Report, Error> {
    let in_place = matches!(target, Target::InPlace);
    let file = if in_place {
        OpenOptions::new().read(true).write(true).open(input)
    } else {
        File::open(input)
    }
    .map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(Error::new(ErrorKind::Unsupported("not a regular file".into())));
    }
    if in_place {
        file.lock().map_err(io)?;
    }
    let inj = pith::pdf::inject(&file, number, opts)?;
    let len = file.metadata().map_err(io)?.len();
    let report = |applied, bytes_after| Report {
        applied,
        bytes_after,
        written: inj.written.clone(),
        replaced_xmp: inj.replaced_xmp.clone(),
    };
    match target {
        Target::File(out) => {
            let dir = match out.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            let mut tmp = tempfile_in(dir)?;
            let mut src = file.try_clone().map_err(io)?;
            src.seek(SeekFrom::Start(0)).map_err(io)?;
            std::io::copy(&mut src, tmp.as_file_mut()).map_err(io)?;
            tmp.as_file_mut().write_all(&inj.appended).map_err(io)?;
            let _ = tmp.as_file().set_permissions(meta.permissions());
            tmp.as_file().sync_all().map_err(io)?;
            tmp.persist(out).map_err(|e| io(e.error))?;
            let applied = if inj.unchanged {
                Applied::Unchanged
            } else {
                Applied::Injected
            };
            Ok(report(applied, len + inj.appended.len() as u64))
        }
        Target::InPlace => {
            if inj.unchanged {
                return Ok(report(Applied::Unchanged, len));
            }
            let old_startxref = pith::pdf::Pdf::open(&file)?.startxref();
            let appended = &inj.appended;
            let bad = || Error::new(ErrorKind::Unsupported("update has no startxref".into()));
            let cut = rfind(appended, b"startxref").ok_or_else(bad)?;
            let new_xref: u64 = std::str::from_utf8(&appended[cut + 9..])
                .ok()
                .and_then(|s| s.split_whitespace().next())
                .and_then(|s| s.parse().ok())
                .ok_or_else(bad)?;
            let mut bulk = appended[..cut].to_vec();
            let width = new_xref.to_string().len().max(10);
            let tail_len = tail(0, width).len() as u64;
            let start = len + bulk.len() as u64;
            let room = 512 - (start % 512);
            if room < tail_len {
                bulk.extend(std::iter::repeat_n(b'\n', room as usize));
            }
            let tail_at = len + bulk.len() as u64;
            bulk.extend_from_slice(&tail(old_startxref, width));
            let undo = |e: std::io::Error| {
                let _ = file.set_len(len).and_then(|_| file.sync_data());
                io(e)
            };
            file.write_all_at(&bulk, len)
                .and_then(|_| file.sync_data())
                .map_err(undo)?;
            file.write_all_at(&tail(new_xref, width), tail_at)
                .and_then(|_| file.sync_data())
                .map_err(undo)?;
            Ok(report(Applied::Injected, tail_at + tail_len))
        }
    }
}

fn tempfile_in(dir: &Path) -> Result<tempfile::NamedTempFile, Error> {
    tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .tempfile_in(dir)
        .map_err(io)
}
