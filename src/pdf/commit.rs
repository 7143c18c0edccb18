//! Getting an update onto the disk: [`inject_file`] opens the input once, plans the update
//! ([`super::inject()`]) and commits it to a [`Target`], never touching a byte of the original.
//!
//! - **A new file**: a copy of the input (file to file, so the kernel copies or shares extents
//!   with `copy_file_range`) followed by the update, written to a temporary file in the
//!   target's directory, synced, then renamed over the target ([`write_file_with`]). A device
//!   or FIFO target is written to directly.
//! - **A stream** (standard output): the copy and the update, in order.
//! - **In place**: the update is appended to the input itself under an exclusive lock, in two
//!   steps so that a kill at any moment leaves a valid file. First the new objects, the new
//!   xref section and trailer are appended, followed by a copy of the *old* `startxref` tail:
//!   the file still opens as before (readers follow the last `startxref`). After a sync, that
//!   tail alone (a few dozen bytes, never crossing a 512-byte sector) is overwritten with the
//!   new `startxref`, which commits the update. Both tails zero-pad the offset to the same
//!   width, so the commit is one small write of equal length. Cost: a few KB, whatever the
//!   file's size. The offsets come from the writer ([`super::writer::Offsets`]); nothing is
//!   re-read or re-parsed.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::document::load;
use super::inject::{plan, Options};
use super::{Error, ErrorKind};
use crate::PithNumber;

/// Where the update goes.
pub enum Target<'a> {
    /// Append to the input itself.
    InPlace,
    /// Write a new file (through a temporary file and a rename).
    File(&'a Path),
    /// Write the updated PDF to a stream (standard output).
    Stream(&'a mut dyn Write),
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
#[derive(Debug, Clone)]
pub struct Report {
    /// What was done.
    pub applied: Applied,
    /// Size of the result.
    pub bytes_after: u64,
    /// Human-readable lines describing what was written.
    pub written: Vec<String>,
    /// The old XMP packet, when it was unparsable and replaced under `force`.
    pub replaced_xmp: Option<Vec<u8>>,
}

/// The `startxref` tail with the offset zero-padded to `width` digits (at least 10, like xref
/// table offsets; wider only past 10 GB), so the old and new tails have the same length.
fn tail(offset: u64, width: usize) -> Vec<u8> {
    format!("startxref\n{offset:0width$}\n%%EOF\n").into_bytes()
}

/// Injects `number` into the PDF at `input` and writes the result to `target`.
///
/// # Errors
/// Any refusal of [`super::inject()`], and [`ErrorKind::Io`] / [`ErrorKind::NotFile`] for the
/// files, each naming its file. On error the input is untouched and no output file exists.
pub fn inject_file(
    input: &Path,
    target: Target<'_>,
    number: &PithNumber,
    opts: &Options,
) -> Result<Report, Error> {
    let in_input = |e: Error| e.in_file(input);
    let in_place = matches!(target, Target::InPlace);
    let file = if in_place {
        OpenOptions::new().read(true).write(true).open(input)
    } else {
        File::open(input)
    }
    .map_err(|e| {
        Error::io(
            if in_place {
                "cannot open for update"
            } else {
                "cannot open"
            },
            e,
        )
        .in_file(input)
    })?;
    let meta = file
        .metadata()
        .map_err(|e| Error::io("cannot read", e).in_file(input))?;
    if !meta.is_file() {
        return Err(Error::new(ErrorKind::NotFile).in_file(input));
    }
    if in_place {
        // Two `pith` processes on one file: the second waits for the first, then finds the
        // number already there ("unchanged").
        file.lock()
            .map_err(|e| Error::io("cannot lock", e).in_file(input))?;
    }
    let doc = load(&file).map_err(in_input)?;
    let inj = plan(&doc, number, opts).map_err(in_input)?;
    let len = doc.pdf.len();
    drop(doc);
    let report = |applied, bytes_after| Report {
        applied,
        bytes_after,
        written: inj.written.clone(),
        replaced_xmp: inj.replaced_xmp.clone(),
    };
    let applied = match inj.offsets {
        None => Applied::Unchanged,
        Some(_) => Applied::Injected,
    };
    match target {
        Target::InPlace => {
            let Some(off) = inj.offsets else {
                return Ok(report(Applied::Unchanged, len));
            };
            let end = append_in_place(&file, &inj.appended, off, meta.accessed(), meta.modified())
                .map_err(in_input)?;
            Ok(report(Applied::Injected, end))
        }
        Target::Stream(w) => {
            copy_then(&file, len, &inj.appended, w).map_err(in_input)?;
            Ok(report(applied, len + inj.appended.len() as u64))
        }
        Target::File(out) => {
            write_file_with(out, Some(meta.permissions()), |w| {
                copy_then(&file, len, &inj.appended, w).map_err(|e| e.into_io())
            })?;
            Ok(report(applied, len + inj.appended.len() as u64))
        }
    }
}

/// Writes the first `len` bytes of `src`, then `append`, to `w`.
fn copy_then(src: &File, len: u64, append: &[u8], w: &mut dyn Write) -> Result<(), Error> {
    let mut f = src.try_clone().map_err(|e| Error::io("cannot read", e))?;
    f.seek(SeekFrom::Start(0))
        .map_err(|e| Error::io("cannot read", e))?;
    // File to file, std::io::copy uses copy_file_range(2): the kernel copies (or shares
    // extents) without the bytes passing through pith.
    let copied = copy_to(&mut f.take(len), w).map_err(|e| Error::io("cannot copy", e))?;
    if copied != len {
        return Err(Error::io(
            "cannot copy",
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file shrank while copying",
            ),
        ));
    }
    w.write_all(append)
        .and_then(|_| w.flush())
        .map_err(|e| Error::io("cannot write", e))
}

fn copy_to(r: &mut io::Take<File>, w: &mut dyn Write) -> io::Result<u64> {
    io::copy(r, w)
}

/// The two-step in-place commit described in the module docs; returns the new length.
fn append_in_place(
    file: &File,
    appended: &[u8],
    off: super::writer::Offsets,
    atime: io::Result<std::time::SystemTime>,
    mtime: io::Result<std::time::SystemTime>,
) -> Result<u64, Error> {
    let len = off.base_len;
    let mut bulk = appended[..off.tail_start].to_vec();
    // Keep the tail inside one 512-byte sector so the commit is a single-sector write.
    let width = off.startxref.to_string().len().max(10);
    let tail_len = tail(0, width).len() as u64;
    let start = len + bulk.len() as u64;
    let room = 512 - (start % 512);
    if room < tail_len {
        bulk.extend(std::iter::repeat_n(b'\n', room as usize));
    }
    let tail_at = len + bulk.len() as u64;
    bulk.extend_from_slice(&tail(off.prev_startxref, width));
    let restore_times = || {
        if let (Ok(a), Ok(m)) = (&atime, &mtime) {
            let _ = file.set_times(std::fs::FileTimes::new().set_accessed(*a).set_modified(*m));
        }
    };
    // A failed write (disk full, quota) can leave part of the update after %%EOF, so that no
    // `startxref` is left in the last kilobyte where readers look for it: cut the file back
    // to its original length (issue #7).
    let undo = |e: io::Error, what: &str| {
        let _ = file.set_len(len).and_then(|_| file.sync_data());
        restore_times();
        Err(Error::io(what, e))
    };
    if let Err(e) = file.write_all_at(&bulk, len).and_then(|_| file.sync_data()) {
        return undo(e, "cannot append");
    }
    if let Err(e) = file
        .write_all_at(&tail(off.startxref, width), tail_at)
        .and_then(|_| file.sync_data())
    {
        return undo(e, "cannot commit the update");
    }
    restore_times();
    Ok(tail_at + tail_len)
}

/// Writes `path` with `fill`. A device or FIFO at `path` ([`is_special`]) is opened and
/// written to directly; anything else gets a temporary file in the same directory, filled,
/// given `permissions` (when set; else an existing file's own, else 0666 less the umask, as
/// any new file gets: issue #15, outputs were 0600), synced and renamed over `path`, so `path`
/// is either untouched or complete and no partial file is left on error.
///
/// # Errors
/// [`ErrorKind::Io`] naming `path` and what failed.
pub fn write_file_with(
    path: &Path,
    permissions: Option<std::fs::Permissions>,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    let fail = |what: &str, e: io::Error| Error::io(what, e).in_file(path);
    if is_special(path) {
        let mut f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| fail("cannot open for writing", e))?;
        return fill(&mut f)
            .and_then(|_| f.flush())
            .map_err(|e| fail("cannot write", e));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let permissions = permissions.or_else(|| {
        std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions())
    });
    // Created with 0666 the kernel applies the umask, as for any new file; tempfile's own
    // default (0600) would make `pith sty -o` and `pith badge -o` unreadable to others.
    let mut tmp = tempfile::Builder::new()
        .prefix(".pith-tmp-")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|e| {
            fail(
                &format!("cannot create a temporary file in {}", dir.display()),
                e,
            )
        })?;
    fill(tmp.as_file_mut()).map_err(|e| fail("cannot write", e))?;
    if let Some(p) = permissions {
        let _ = tmp.as_file().set_permissions(p);
    }
    tmp.as_file()
        .sync_all()
        .map_err(|e| fail("cannot write", e))?;
    tmp.persist(path)
        .map_err(|e| fail("cannot replace", e.error))?;
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

impl Error {
    /// Turns the error into an `io::Error` carrying it (for `io::Result` callbacks).
    fn into_io(self) -> io::Error {
        io::Error::other(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NUM: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

    fn setup(name: &str) -> (tempfile::TempDir, std::path::PathBuf, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let bytes = std::fs::read(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let p = dir.path().join("in.pdf");
        std::fs::write(&p, &bytes).unwrap();
        (dir, p, bytes)
    }

    #[test]
    fn new_file_stream_and_in_place_agree_with_the_plan() {
        let (dir, input, bytes) = setup("minimal.pdf");
        let n = PithNumber::parse(NUM).unwrap();
        let opts = Options::new("2024-01-01T00:00:00Z");
        let planned = super::super::inject(&bytes[..], &n, &opts).unwrap();
        let out = dir.path().join("out.pdf");
        let r = inject_file(&input, Target::File(&out), &n, &opts).unwrap();
        assert_eq!(r.applied, Applied::Injected);
        let mut expect = bytes.clone();
        expect.extend_from_slice(&planned.appended);
        assert_eq!(std::fs::read(&out).unwrap(), expect);
        let mut streamed = Vec::new();
        inject_file(&input, Target::Stream(&mut streamed), &n, &opts).unwrap();
        assert_eq!(streamed, expect);
        let r = inject_file(&input, Target::InPlace, &n, &opts).unwrap();
        let after = std::fs::read(&input).unwrap();
        assert_eq!(r.bytes_after, after.len() as u64);
        assert!(after.starts_with(&bytes));
        let ins = super::super::inspect(&after[..]).unwrap();
        assert_eq!(ins.found().as_deref(), Some(NUM));
        let again = inject_file(&input, Target::InPlace, &n, &opts).unwrap();
        assert_eq!(again.applied, Applied::Unchanged);
        assert_eq!(std::fs::read(&input).unwrap(), after);
    }

    #[test]
    fn refusals_name_the_file_and_leave_no_output() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("not.pdf");
        std::fs::write(&input, b"hello").unwrap();
        let out = dir.path().join("out.pdf");
        let n = PithNumber::parse(NUM).unwrap();
        let e = inject_file(&input, Target::File(&out), &n, &Options::new("x")).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::NotPdf);
        assert!(e.to_string().starts_with(&input.display().to_string()));
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = inject_file(dir.path(), Target::InPlace, &n, &Options::new("x")).unwrap_err();
        assert!(!e.is_refusal());
    }
}
