//! Getting an update onto the disk: [`inject_file`] opens the input once, plans the update
//! ([`super::inject()`]) and commits it to a [`Target`], never touching a byte of the original.
//!
//! - **A new file**: a copy of the input (file to file, so the kernel copies or shares extents
//!   with `copy_file_range`) followed by the update, written to a temporary file in the
//!   target's directory, synced, then renamed over the target ([`crate::output`]). A device
//!   or FIFO target is written to directly.
//! - **A new file in a group** ([`crate::output::Group`], `pith batch`): the same copy and
//!   update in a temporary file, whose sync and rename wait for the group's commit. The copy
//!   passes through one buffer and is hashed there: a batch reports each input's SHA-1, which
//!   then costs no second read of the file.
//! - **A stream** (standard output): the copy and the update, in order.
//!
//! For a new file or a stream, an input of up to 2 MiB (most papers) is read once, whole, and
//! planned, hashed and copied from memory: one read of the file instead of one per object
//! the plan looks at, then the copy's.
//! - **In place**: the update is appended to the input itself under an exclusive lock, in
//!   three synced steps, so that a kill at any moment leaves a file that reads as the original
//!   or as the updated one, and that pith recognises exactly:
//!   1. the last bytes first: a [`journal`](super::journal) marker line naming the original length and both
//!      `startxref` values, then a copy of the *old* `startxref` tail, written where they
//!      will end (the bytes in between are a hole of NULs, white space to PDF readers);
//!   2. the new objects, xref section and trailer, in 1 KB writes, into the hole;
//!   3. the commit: the old tail alone (a few dozen bytes, never crossing a 512-byte sector,
//!      zero-padded to the same width) is overwritten with the new `startxref`.
//!
//!   Before step 3 completes, readers follow the old `startxref` and see the original
//!   document; the bytes after it are pith's uncommitted update, which the marker names.
//!   Any later pith run on the file sees only the original bytes ([`Pdf::uncommitted`]), and
//!   an in-place run cuts the uncommitted bytes off (restoring the original byte for byte)
//!   before doing anything else. After step 3 the file is the updated one; the marker stays
//!   as a comment. Cost: a few KB, whatever the file's size. The offsets come from the writer
//!   ([`super::writer::Offsets`]); nothing is re-read or re-parsed.
//!
//! [`Pdf::uncommitted`]: super::Pdf::uncommitted

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use crate::document::{load, load_repaired};
use crate::inject::{plan, read_all, Options};
use crate::journal::{marker, recognise, tail};
use crate::Identifier;
use crate::{Error, ErrorKind};

/// Where the update goes.
pub enum Target<'a> {
    /// Append to the input itself.
    InPlace,
    /// Write a new file (through a temporary file and a rename).
    File(&'a Path),
    /// Stage a new file in a group; it is synced and renamed into place by the group's
    /// [`commit`](crate::output::Group::commit), which reports its own errors.
    Staged(&'a Path, &'a mut crate::output::Group),
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
    /// Size of the input file as it was opened (what a report gives as the size before,
    /// read once with the file, not looked up again by name).
    pub bytes_before: u64,
    /// Size of the result.
    pub bytes_after: u64,
    /// What was written.
    pub written: Vec<super::inject::Written>,
    /// The old XMP packet, when it was unparsable and replaced under `force`.
    pub replaced_xmp: Option<Vec<u8>>,
    /// The number the file carried before, as found ([`super::Injection::previous`]).
    pub previous: Option<String>,
    /// What was left as it is, and why ([`super::Injection::notes`]).
    pub notes: Vec<String>,
    /// The SHA-1 of the input file, computed as its bytes were copied to a new file of a
    /// group ([`Target::Staged`]); `None` for the other targets, which leave the copy to the
    /// kernel, and when the copy left some out (an uncommitted update of pith's at its end).
    pub sha1: Option<[u8; 20]>,
}

/// Injects `number` into the PDF at `input` and writes the result to `target`.
///
/// # Errors
/// Any refusal of [`super::inject()`], and [`ErrorKind::Io`] / [`ErrorKind::NotFile`] for the
/// files, each naming its file. On error the input is untouched and no output file exists.
pub fn inject_file(
    input: &Path,
    target: Target<'_>,
    number: &dyn Identifier,
    opts: &Options,
) -> Result<Report, Error> {
    commit_file(input, target, Work::Inject(number), opts)
}

/// Takes pith's number, link and stamp out of the PDF at `input` ([`super::strip()`]) and
/// writes the result to `target`, as [`inject_file`] writes an inject.
///
/// # Errors
/// As [`inject_file`].
pub fn strip_file(input: &Path, target: Target<'_>, opts: &Options) -> Result<Report, Error> {
    commit_file(input, target, Work::Strip, opts)
}

/// What an update does.
#[derive(Clone, Copy)]
enum Work<'a> {
    Inject(&'a dyn Identifier),
    Strip,
}

impl Work<'_> {
    fn plan<R: super::reader::ReadAt>(
        self,
        doc: &super::document::Document<R>,
        opts: &Options,
    ) -> Result<super::Injection, Error> {
        match self {
            Work::Inject(n) => plan(doc, n, opts),
            Work::Strip => super::strip::plan(doc, opts),
        }
    }
}

fn commit_file(
    input: &Path,
    target: Target<'_>,
    work: Work<'_>,
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
    // A small file to a new file or a stream is read once, whole, and planned and copied from
    // memory: one read instead of a read per object the plan looks at and then the copy's.
    let whole = if !in_place && meta.len() <= READ_WHOLE {
        Some(read_whole(&file, meta.len()).map_err(in_input)?)
    } else {
        None
    };
    let (inj, len) = match &whole {
        Some(data) => plan_update(&&data[..], None, work, opts),
        None => plan_update(&&file, in_place.then_some(&file), work, opts),
    }
    .map_err(in_input)?;
    // A job stopped while it planned writes nothing.
    opts.stop.check().map_err(in_input)?;
    let report = |applied, bytes_after, sha1: Option<[u8; 20]>| Report {
        applied,
        bytes_before: meta.len(),
        bytes_after,
        written: inj.written.clone(),
        replaced_xmp: inj.replaced_xmp.clone(),
        previous: inj.previous.clone(),
        notes: inj.notes.clone(),
        // The digest names the file as it is on disk, every byte.
        sha1: sha1.filter(|_| len == meta.len()),
    };
    let from = match &whole {
        Some(data) => From::Bytes(data),
        None => From::File(&file),
    };
    let applied = match inj.offsets {
        None => Applied::Unchanged,
        Some(_) => Applied::Injected,
    };
    match target {
        Target::InPlace => {
            let Some(off) = inj.offsets else {
                return Ok(report(Applied::Unchanged, len, None));
            };
            let end = append_in_place(&file, &inj.appended, off, meta.accessed(), meta.modified())
                .map_err(in_input)?;
            Ok(report(Applied::Injected, end, None))
        }
        Target::Stream(w) => {
            let sha1 = copy_then(&from, len, &inj.appended, w, false).map_err(in_input)?;
            Ok(report(applied, len + inj.appended.len() as u64, sha1))
        }
        Target::File(out) => {
            let mut sha1 = None;
            write_file_with(out, Some(meta.permissions()), |w| {
                sha1 = copy_then(&from, len, &inj.appended, w, false).map_err(|e| e.into_io())?;
                Ok(())
            })?;
            Ok(report(applied, len + inj.appended.len() as u64, sha1))
        }
        Target::Staged(out, group) => {
            let mut sha1 = None;
            group
                .stage(out, Some(meta.permissions()), |w| {
                    sha1 =
                        copy_then(&from, len, &inj.appended, w, true).map_err(|e| e.into_io())?;
                    Ok(())
                })
                .map_err(output_error)?;
            Ok(report(applied, len + inj.appended.len() as u64, sha1))
        }
    }
}

/// The largest input read whole, once, for a new file or a stream (see [`commit_file`]): most
/// papers are smaller, and a worker holds at most this much of a file in memory.
const READ_WHOLE: u64 = 2 << 20;

/// The first `len` bytes of `file` (its length when opened), in as few reads as the kernel
/// allows: one, for a regular file.
fn read_whole(file: &File, len: u64) -> Result<Vec<u8>, Error> {
    let mut data = vec![0u8; usize::try_from(len).unwrap_or(0)];
    let mut at = 0;
    while at < data.len() {
        match file.read_at(&mut data[at..], at as u64) {
            Ok(0) => return Err(shrank()),
            Ok(n) => at += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io("cannot read", e)),
        }
    }
    Ok(data)
}

/// Loads the PDF in `src` and plans `work` on it; returns the plan and the length of the
/// original it applies to. With `in_place` (the input opened for update), an uncommitted
/// update of pith's at the file's end is cut off first.
fn plan_update<R: super::reader::ReadAt>(
    src: &R,
    in_place: Option<&File>,
    work: Work<'_>,
    opts: &Options,
) -> Result<(super::Injection, u64), Error> {
    match load(src, opts.password.as_deref(), opts.budget()) {
        Err(e) if opts.repair && matches!(e.kind(), ErrorKind::Damaged(_)) => {
            // `--repair`: the whole file, less an uncommitted update of pith's.
            let mut data = read_all(src)?;
            let end = &data[data.len().saturating_sub(256)..];
            if let Some(m) = recognise(end, data.len() as u64).filter(|m| !m.committed) {
                data.truncate(usize::try_from(m.base).unwrap_or(data.len()));
                if let Some(file) = in_place {
                    file.set_len(m.base)
                        .and_then(|_| file.sync_data())
                        .map_err(|e| Error::io("cannot remove an interrupted update", e))?;
                }
            }
            let len = data.len() as u64;
            let doc = load_repaired(data, opts.budget())?;
            Ok((work.plan(&doc, opts)?, len))
        }
        doc => {
            let doc = doc?;
            if let (Some(file), true) = (in_place, doc.pdf.uncommitted().is_some()) {
                // An interrupted in-place run left its uncommitted update: restore the
                // original bytes before anything else (readers never saw those bytes).
                file.set_len(doc.pdf.len())
                    .and_then(|_| file.sync_data())
                    .map_err(|e| Error::io("cannot remove an interrupted update", e))?;
            }
            Ok((work.plan(&doc, opts)?, doc.pdf.len()))
        }
    }
}

/// Where the original bytes are copied from: the file, or its bytes read whole.
enum From<'a> {
    File(&'a File),
    Bytes(&'a [u8]),
}

/// The buffer of [`copy_then`]: large enough that a file costs few calls, small enough to
/// stay in the CPU's cache between its read, its hash and its write.
const COPY_BUFFER: usize = 256 << 10;

/// Writes the first `len` bytes of `src`, then `append`, to `w`; with `hash`, returns the
/// SHA-1 of those `len` bytes. Bytes read whole are written (and hashed) from memory.
/// Hashed, a file's bytes pass through pith once, through one buffer, and are hashed there
/// (no second read of the file for its digest). Otherwise the kernel copies them: generic,
/// not `dyn`, so that for a file `w` std's `io::copy` sees two files and uses
/// copy_file_range(2), which shares extents where the file system can.
fn copy_then<W: Write + ?Sized>(
    src: &From<'_>,
    len: u64,
    append: &[u8],
    w: &mut W,
    hash: bool,
) -> Result<Option<[u8; 20]>, Error> {
    use sha1::Digest;
    let src = match src {
        From::File(f) => *f,
        From::Bytes(data) => {
            let data = data
                .get(..usize::try_from(len).unwrap_or(usize::MAX))
                .ok_or_else(shrank)?;
            write_both(w, data, append)
                .and_then(|_| w.flush())
                .map_err(|e| Error::io("cannot write", e))?;
            return Ok(hash.then(|| sha1::Sha1::digest(data).into()));
        }
    };
    if !hash {
        let mut f = src.try_clone().map_err(|e| Error::io("cannot read", e))?;
        f.seek(SeekFrom::Start(0))
            .map_err(|e| Error::io("cannot read", e))?;
        let copied = io::copy(&mut f.take(len), w).map_err(|e| Error::io("cannot copy", e))?;
        if copied != len {
            return Err(shrank());
        }
        w.write_all(append)
            .and_then(|_| w.flush())
            .map_err(|e| Error::io("cannot write", e))?;
        return Ok(None);
    }
    let mut digest = sha1::Sha1::new();
    let size = usize::try_from(len).map_or(COPY_BUFFER, |l| l.clamp(1, COPY_BUFFER));
    let mut buf = vec![0u8; size];
    let mut at = 0u64;
    while at < len {
        let want = usize::try_from(len - at).map_or(buf.len(), |l| l.min(buf.len()));
        let n = match src.read_at(&mut buf[..want], at) {
            Ok(0) => return Err(shrank()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io("cannot copy", e)),
        };
        digest.update(&buf[..n]);
        w.write_all(&buf[..n])
            .map_err(|e| Error::io("cannot copy", e))?;
        at += n as u64;
    }
    w.write_all(append)
        .and_then(|_| w.flush())
        .map_err(|e| Error::io("cannot write", e))?;
    Ok(Some(digest.finalize().into()))
}

/// Writes `a` then `b`, in one call where `w` takes both at once (`writev(2)` to a file),
/// else as two `write_all`s.
fn write_both<W: Write + ?Sized>(w: &mut W, a: &[u8], b: &[u8]) -> io::Result<()> {
    let n = loop {
        match w.write_vectored(&[io::IoSlice::new(a), io::IoSlice::new(b)]) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            r => break r?,
        }
    };
    if n == 0 && a.len() + b.len() > 0 {
        return Err(io::Error::new(
            io::ErrorKind::WriteZero,
            "failed to write whole buffer",
        ));
    }
    match n.checked_sub(a.len()) {
        Some(past) => w.write_all(&b[past..]),
        None => w.write_all(&a[n..]).and_then(|_| w.write_all(b)),
    }
}

/// The input ended before the length it had when it was read.
fn shrank() -> Error {
    Error::io(
        "cannot copy",
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the file shrank while copying",
        ),
    )
}

/// Size of the writes of step 2 of the in-place commit (so a kill can land between them).
const CHUNK: usize = 1024;

/// The three-step in-place commit described in the module docs; returns the new length.
fn append_in_place(
    file: &File,
    appended: &[u8],
    off: super::writer::Offsets,
    atime: io::Result<std::time::SystemTime>,
    mtime: io::Result<std::time::SystemTime>,
) -> Result<u64, Error> {
    let len = off.base_len;
    let mut body = appended[..off.tail_start].to_vec();
    let width = off.startxref.to_string().len().max(10);
    let mark = marker(len, off.prev_startxref, off.startxref);
    let end_len = (mark.len() + tail(0, width).len()) as u64;
    // Marker and tail inside one 512-byte sector: step 1 is one write that lands whole or not
    // at all, and the commit (step 3) is a single-sector write.
    let start = len + body.len() as u64;
    let room = 512 - (start % 512);
    if room < end_len {
        body.extend(std::iter::repeat_n(b'\n', room as usize));
    }
    let end_at = len + body.len() as u64;
    let tail_at = end_at + mark.len() as u64;
    let mut end = mark;
    end.extend_from_slice(&tail(off.prev_startxref, width));
    let restore_times = || {
        if let (Ok(a), Ok(m)) = (&atime, &mtime) {
            let _ = file.set_times(std::fs::FileTimes::new().set_accessed(*a).set_modified(*m));
        }
    };
    // A failed write (disk full, quota) is undone at once: cut the file back to its original
    // length. A kill is undone by the next run, through the marker.
    let undo = |e: io::Error, what: &str| {
        let _ = file.set_len(len).and_then(|_| file.sync_data());
        restore_times();
        Err(Error::io(what, e))
    };
    // 1. Marker and old tail, at the end.
    if let Err(e) = file
        .write_all_at(&end, end_at)
        .and_then(|_| file.sync_data())
    {
        return undo(e, "cannot append");
    }
    // 2. The update itself, into the hole.
    let mut at = len;
    for chunk in body.chunks(CHUNK) {
        if let Err(e) = file.write_all_at(chunk, at) {
            return undo(e, "cannot append");
        }
        at += chunk.len() as u64;
    }
    if let Err(e) = file.sync_data() {
        return undo(e, "cannot append");
    }
    // 3. Commit.
    if let Err(e) = file
        .write_all_at(&tail(off.startxref, width), tail_at)
        .and_then(|_| file.sync_data())
    {
        return undo(e, "cannot commit the update");
    }
    restore_times();
    Ok(tail_at + tail(0, width).len() as u64)
}

/// Writes a whole PDF held in memory (a full rewrite, or an update of bytes in memory) to
/// `target` the way [`inject_file`] writes an update: a new file through a temporary file,
/// synced and renamed, with `permissions` (the input file's, when there is one); a staged file
/// by its group's commit; a stream in order, flushed. [`Target::InPlace`] names no file here:
/// the caller replaces its input by giving it as [`Target::File`].
///
/// # Errors
/// [`ErrorKind::Io`] naming the output; [`ErrorKind::Io`] for `InPlace`.
pub fn write_bytes(
    bytes: &[u8],
    target: Target<'_>,
    permissions: Option<std::fs::Permissions>,
) -> Result<(), Error> {
    match target {
        Target::File(out) => write_file_with(out, permissions, |f| f.write_all(bytes)),
        Target::Staged(out, group) => group
            .stage(out, permissions, |f| f.write_all(bytes))
            .map_err(output_error),
        Target::Stream(w) => w
            .write_all(bytes)
            .and_then(|_| w.flush())
            .map_err(|e| Error::io("cannot write", e)),
        Target::InPlace => Err(Error::io(
            "cannot replace",
            io::Error::new(io::ErrorKind::InvalidInput, "no file named to replace"),
        )),
    }
}

/// [`crate::output::write_file_with`] with its error as this module's [`ErrorKind::Io`].
fn write_file_with(
    path: &Path,
    permissions: Option<std::fs::Permissions>,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    crate::output::write_file_with(path, permissions, fill).map_err(output_error)
}

/// A [`crate::output::Error`] as this module's [`ErrorKind::Io`], naming the output file.
pub fn output_error(e: crate::output::Error) -> Error {
    let (path, what, source) = e.into_parts();
    Error::io(&what, source).in_file(&path)
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

    #[test]
    fn whole_bytes_go_through_the_same_targets() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.pdf");
        let perms = std::fs::Permissions::from_mode(0o640);
        write_bytes(b"%PDF-1.7 whole", Target::File(&out), Some(perms)).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"%PDF-1.7 whole");
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let mut sink = Vec::new();
        write_bytes(b"bytes", Target::Stream(&mut sink), None).unwrap();
        assert_eq!(sink, b"bytes");
        assert!(write_bytes(b"x", Target::InPlace, None).is_err());
        // Nothing but the output: no temporary file is left beside it.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn two_buffers_land_whole_and_in_order_however_the_writer_takes_them() {
        /// Takes at most three bytes a call, and only the first buffer of a vectored write.
        struct Trickle(Vec<u8>);
        impl Write for Trickle {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                let n = buf.len().min(3);
                self.0.extend_from_slice(&buf[..n]);
                Ok(n)
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        for (a, b) in [
            (&b"head"[..], &b"tail!"[..]),
            (b"", b"tail"),
            (b"head", b""),
            (b"", b""),
        ] {
            let mut t = Trickle(Vec::new());
            write_both(&mut t, a, b).unwrap();
            let mut v = Vec::new();
            write_both(&mut v, a, b).unwrap();
            assert_eq!((t.0, v), ([a, b].concat(), [a, b].concat()));
        }
        let dir = tempfile::tempdir().unwrap();
        let mut f = File::create(dir.path().join("f")).unwrap();
        write_both(&mut f, b"%PDF", b" update").unwrap();
        assert_eq!(std::fs::read(dir.path().join("f")).unwrap(), b"%PDF update");
    }

    fn setup(name: &str) -> (tempfile::TempDir, std::path::PathBuf, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let bytes = crate::testkit::fixture(name);
        let p = dir.path().join("in.pdf");
        std::fs::write(&p, &bytes).unwrap();
        (dir, p, bytes)
    }

    #[test]
    fn new_file_stream_and_in_place_agree_with_the_plan() {
        let (dir, input, bytes) = setup("minimal.pdf");
        let n = crate::Mark::parse(NUM).unwrap();
        let opts = Options::new("2024-01-01T00:00:00Z");
        let planned = crate::inject(&bytes[..], &n, &opts).unwrap();
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
        let ins = crate::inspect(&after[..]).unwrap();
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
        let n = crate::Mark::parse(NUM).unwrap();
        let e = inject_file(&input, Target::File(&out), &n, &Options::new("x")).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::NotPdf);
        assert!(e.to_string().starts_with(&input.display().to_string()));
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = inject_file(dir.path(), Target::InPlace, &n, &Options::new("x")).unwrap_err();
        assert!(!e.is_refusal());
    }
}
