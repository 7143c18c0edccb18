//! Streaming tar archives of PDFs, arXiv's bulk tars first: one pass from a reader to
//! a writer, members in the same order, every PDF that has a number updated as `pith batch`
//! updates a file (append-only, same refusals), everything else copied byte for byte.
//!
//! - **Headers are kept as they were**: the 512-byte header blocks are copied, not re-encoded;
//!   a member that grows gets only its size field and checksum rewritten, and the `size`
//!   record of its pax extended header when it has one (the pax header's own size and
//!   checksum with it). ustar, GNU (`L`/`K` long names) and pax (`x`/`g`) headers are read;
//!   whatever follows the end-of-archive blocks is copied too.
//! - **Bounded memory**: a member up to [`SPOOL_BOUND`] is held in memory, a larger one is
//!   spooled to an unnamed temporary file; at most [`IN_FLIGHT_PER_WORKER`] members per worker
//!   and two more are in flight ([`crate::pipeline::ordered`]), and the output keeps the
//!   input's order. The buffers of written members are used again for the next ones
//!   (`buffers`: at most as many kept as may be in flight, none over 8 MiB).
//! - **Read where they lie** ([`stream_file`]): a tar that is a regular file (and whose md5 is
//!   not asked for) is not read through. Its headers are read, its members left in it
//!   ([`Body::At`]): the update reads what it parses, the SHA-1 reads a member whole only when
//!   its line is kept, and the output gets each member from the kernel (`copy_file_range`)
//!   when it is a file. A member held this way holds no memory, whatever its size.
//! - **Deterministic**: the output depends only on the input and the options (the update time
//!   is [`crate::pdf::Options::now`]), not on the number of workers or on timing.
//! - The input's size, and with [`StreamSettings::md5`] its md5, are computed while it is read, the
//!   output's while it is written ([`Totals`]), for the manifest checks of [`crate::batch::manifest`].
//!
//! What happens to one PDF is [`process_member`]; which number a member gets is the caller's
//! `plan` ([`plan_arxiv`] for arXiv names and bulk metadata). This module writes only to the
//! writer it is given and to its spool files; it prints nothing.
//!
//! Layers: `body` (a member's data, where it is kept), `format` (private: headers, data,
//! padding), `streams` (the input read through or where it lies, the output, their counts and
//! md5) and `member` (planning and updating one PDF), under [`stream`]; [`run`] above it:
//! which tars, the metadata pass, the manifest checks and where the outputs go.

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

use crate::job::item::Summary;
use crate::job::progress::Progress;
use crate::job::{ErrorCode, Settings, Status};

mod body;
mod buffers;
pub(crate) mod format;
mod member;
pub mod request;
pub mod run;
mod streams;

use body::TarOut;
pub use body::{Body, Window};
use buffers::Buffers;
pub use format::member_names;
use format::{Entry, Next};
pub use member::{plan_arxiv, process_member, Action, Planned};
pub use streams::RangeWrite;
use streams::{Hashing, Source};

/// The reading and writing buffers of a tar stream.
const IO_BUFFER: usize = 64 << 10;

/// Members larger than this (16 MiB) are spooled to a temporary file instead of being held in
/// memory. Far above arXiv's PDFs (about 1 MB on average), and small enough that the members
/// in flight ([`IN_FLIGHT_PER_WORKER`]) hold little: 160 MiB at most with two workers.
pub const SPOOL_BOUND: u64 = 16 << 20;

/// Members in flight per worker (two more for the reader and the writer): enough that a
/// member slow to update does not leave the other worker idle while the writer waits for it
/// (with one per worker, a 256 MB tar took 1.2x as long on two cores).
pub const IN_FLIGHT_PER_WORKER: usize = 4;

/// Members in flight per worker when they are read where they lie ([`stream_file`]): such a
/// member holds no memory until it is updated (then its appended bytes, kilobytes), so the
/// workers may run far ahead of a writer that waits for the disk (with 4, a 256 MB tar took
/// 1.2x as long on two cores as with 16).
pub const IN_FLIGHT_WHERE_THEY_LIE: usize = 16;

/// Error reading or writing a tar stream.
#[derive(Debug)]
pub struct Error {
    tar: String,
    kind: ErrorKind,
    /// What an interrupted stream had done: its totals, `interrupted` set.
    partial: Option<Box<Totals>>,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a header block is not a tar header (bad checksum or size field, a pax
    /// record that does not parse, a long-name header without a member).
    #[error("not a tar archive, or a damaged one: {reason} (at byte {offset})")]
    Header {
        /// Offset of the header block in the input.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// Occurs when the input ends inside a member.
    #[error("the archive ends inside {member}")]
    Truncated {
        /// The member's name.
        member: String,
    },
    /// Occurs when the input cannot be read.
    #[error("cannot read")]
    Read(#[source] io::Error),
    /// Occurs when the output cannot be written.
    #[error("cannot write the output")]
    Write(#[source] io::Error),
    /// Occurs when a large member cannot be spooled to a temporary file.
    #[error("cannot spool a member larger than 16 MiB to a temporary file")]
    Spool(#[source] io::Error),
    /// Occurs when the input's md5 or size differs from what its manifest entry says.
    #[error(
        "md5 {md5} and size {size} differ from the manifest's md5 {want_md5} and size {want_size}"
    )]
    Mismatch {
        /// md5 of the input as read (hex).
        md5: String,
        /// Size of the input as read.
        size: u64,
        /// md5 in the manifest.
        want_md5: String,
        /// Size in the manifest.
        want_size: u64,
    },
    /// Occurs when the arXiv bulk metadata cannot be read.
    #[error("cannot read the arXiv metadata")]
    Metadata(#[source] crate::record::arxiv::bulk::Error),
    /// Occurs when the output file cannot be written or put in place.
    #[error("cannot write the output")]
    Commit(#[source] crate::output::Error),
    /// Occurs when the output is the input itself (the input is never replaced).
    #[error("the output is the input itself")]
    SameFile,
    /// Occurs when a directory of tars is given without a manifest to list them.
    #[error("a directory of tars needs the manifest that lists them")]
    NoManifest,
    /// Occurs when the run was stopped (Ctrl-C) before the end of the tar.
    #[error("interrupted before the end of the tar; no output file was written")]
    Interrupted,
    /// Occurs when the manifest does not list the tar.
    #[error("not listed in the manifest {manifest}")]
    Unlisted {
        /// The manifest file.
        manifest: PathBuf,
    },
}

impl Error {
    /// An error about the tar named `tar` (its path, or "standard input").
    pub fn new(tar: impl Into<String>, kind: ErrorKind) -> Self {
        Error {
            tar: tar.into(),
            kind,
            partial: None,
        }
    }

    /// An interrupted run's totals: the members reported before it stopped, counted as a
    /// finished run's are, with `interrupted` set (the report ends with them, as an
    /// interrupted `pith batch` report ends with its summary).
    pub fn partial(&self) -> Option<&Totals> {
        self.partial.as_deref()
    }

    /// The tar concerned, as named to [`stream`].
    pub fn tar(&self) -> &str {
        &self.tar
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl Error {
    /// This error's code in the one table ([`ErrorCode`]).
    pub fn code(&self) -> ErrorCode {
        use ErrorKind as K;
        match self.kind() {
            K::Header { .. } => ErrorCode::Header,
            K::Truncated { .. } => ErrorCode::Truncated,
            K::Read(_) | K::Write(_) | K::Spool(_) | K::Commit(_) => ErrorCode::Io,
            K::Metadata(_) => ErrorCode::Metadata,
            K::SameFile => ErrorCode::SameFile,
            K::NoManifest => ErrorCode::NoManifest,
            K::Mismatch { .. } => ErrorCode::Mismatch,
            K::Unlisted { .. } => ErrorCode::Unlisted,
            K::Interrupted => ErrorCode::Interrupted,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tar, self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

/// One line of the report: a regular-file member and what happened to it. The keys are those
/// of `pith batch`'s report lines (`pdf` is the member's name), plus `id` and `version`.
#[derive(Debug, Clone, Serialize)]
pub struct MemberReport {
    /// The member's name in the tar.
    pub pdf: String,
    /// The arXiv id its name gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The version its name gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// What happened.
    pub status: Status,
    /// Why (for everything but injected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What kind of refusal, for a refused member (as in `pith batch`'s lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<ErrorCode>,
    /// The number written or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// The different number the member carried before, now replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
    /// The member's SHA-1 in base32, as the Internet Archive writes digests, for a PDF pith
    /// read: what a capture (a CDX line) of the version's PDF is checked against. Not computed
    /// for a run that keeps no lines ([`Progress::keeps_lines`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha1: Option<String>,
    /// Whether the member was copied unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub copied: bool,
    /// What was left as it is, and why (as in `pith batch`'s lines; references that could not
    /// be read with `--refs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Size of the member in bytes.
    pub bytes_before: u64,
    /// Size in the output.
    pub bytes_after: u64,
    /// Wall time spent on it.
    pub ms: u64,
}

/// The totals of one tar: the batch summary and the md5 and size of the input and output.
#[derive(Debug, Clone, Serialize)]
pub struct Totals {
    /// The counts of [`MemberReport`] statuses, as `pith batch` reports them.
    #[serde(flatten)]
    pub summary: Summary,
    /// The tar, as named.
    pub tar: String,
    /// Entries in the archive (regular files and others: directories, links).
    pub entries: usize,
    /// md5 of the input (hex), when [`StreamSettings::md5`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub md5_in: Option<String>,
    /// Size of the input.
    pub size_in: u64,
    /// md5 of the output (hex), when [`StreamSettings::md5`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub md5: Option<String>,
    /// Size of the output.
    pub size: u64,
}

/// How [`stream`] runs.
#[derive(Debug, Clone)]
pub struct StreamSettings {
    /// The update's settings (time, stamp, repair, force, password), as for one PDF.
    pub settings: Settings,
    /// Worker threads for the PDF updates (at least 1).
    pub threads: usize,
    /// Where large members are spooled (default: the system's temporary directory).
    pub spool_dir: Option<PathBuf>,
    /// The name errors and the totals give the tar (its path, or "standard input").
    pub name: String,
    /// Compute the md5 of the input and of the output (for a manifest); it costs about as
    /// much CPU as the rest of the run.
    pub md5: bool,
    /// What else reads each PDF member the run updates, before it is updated (the references
    /// of `pith batch --refs`, [`crate::job::refs::RefsSink`]).
    pub also: Option<std::sync::Arc<dyn AlsoRead>>,
}

/// A reader each PDF member of a tar run is given too, where it lies (in memory or spooled),
/// on the worker that updates it.
pub trait AlsoRead: Send + Sync + fmt::Debug {
    /// Reads the member `name`, within `settings`' limits and stop; returns a note for its
    /// report line when it could not.
    fn member(&self, name: &str, body: &Body, settings: &Settings) -> Option<String>;
}

enum Item {
    Entry(Entry, Option<Planned>),
    End(Vec<u8>),
}

struct Done {
    entry: Option<Entry>,
    end: Vec<u8>,
    report: Option<MemberReport>,
    update: Option<(u64, Vec<u8>)>,
}

/// Streams the tar read from `input` to `output`: each regular-file member is planned by
/// `plan` from its name, PDFs to inject go to [`process_member`] on `opts.threads` workers,
/// and every member is written in the input's order (updated, or byte for byte);
/// `progress` receives each member's report line in that order (without the members' SHA-1
/// when it keeps no lines: [`Progress::keeps_lines`]). When `progress` asks to stop,
/// no further member is read and the run fails with [`ErrorKind::Interrupted`]. The output is
/// flushed, not synced.
///
/// Memory: at most `threads` × [`IN_FLIGHT_PER_WORKER`] + 2 members in flight, each at most
/// [`SPOOL_BOUND`] in memory ([`stream_file`]: `threads` × [`IN_FLIGHT_WHERE_THEY_LIE`] + 2,
/// each holding only its update).
///
/// # Errors
/// [`ErrorKind::Header`], [`ErrorKind::Truncated`], [`ErrorKind::Read`] for the input,
/// [`ErrorKind::Write`] for the output, [`ErrorKind::Spool`]. A refused or failed member is
/// not an error: it is copied unchanged and reported.
pub fn stream<R: Read + Send, W: RangeWrite>(
    input: R,
    output: W,
    plan: &(dyn Fn(&str) -> Planned + Sync),
    opts: &StreamSettings,
    progress: &mut dyn Progress<MemberReport>,
) -> Result<Totals, Error> {
    let source = Source::Stream {
        r: Hashing::new(BufReader::with_capacity(IO_BUFFER, input), opts.md5),
        offset: 0,
    };
    run_stream(source, output, plan, opts, progress)
}

/// [`stream`] from a tar that is a file: when it is a regular file and its md5 is not asked
/// for, its members are not read through but left where they lie, read by the update where it
/// parses them (and whole only for their SHA-1), and copied to the output by the kernel when
/// the output is a file ([`crate::output::Writeback`]). The output is the same, byte for
/// byte. A tar that changes while it is read (its size or modification time) is an error
/// ([`ErrorKind::Read`]), not an output of neither version.
///
/// # Errors
/// As [`stream`].
pub fn stream_file<W: RangeWrite>(
    input: File,
    output: W,
    plan: &(dyn Fn(&str) -> Planned + Sync),
    opts: &StreamSettings,
    progress: &mut dyn Progress<MemberReport>,
) -> Result<Totals, Error> {
    let len = match input.metadata() {
        Ok(m) if m.is_file() && !opts.md5 => m.len(),
        _ => return stream(input, output, plan, opts, progress),
    };
    let err = |e| Error::new(opts.name.clone(), ErrorKind::Read(e));
    let reader = input.try_clone().map_err(err)?;
    let file = Arc::new(input);
    // Its members are read twice (where the update parses them, and when they are copied):
    // a tar changed in between would give an output of neither, so a change is an error.
    let stamp = |f: &File| {
        use std::os::unix::fs::MetadataExt;
        f.metadata().map(|m| {
            (
                m.len(),
                m.mtime(),
                m.mtime_nsec(),
                m.ctime(),
                m.ctime_nsec(),
            )
        })
    };
    let before = stamp(&file).map_err(err)?;
    let source: Source<File> = Source::File {
        // Headers and padding only: a small buffer, read again after each member skipped.
        r: BufReader::with_capacity(16 << 10, reader),
        file: Arc::clone(&file),
        len,
        offset: 0,
    };
    let totals = run_stream(source, output, plan, opts, progress)?;
    if stamp(&file).map_err(err)? != before {
        return Err(err(io::Error::other("the tar changed while it was read")));
    }
    Ok(totals)
}

fn run_stream<R: Read + Send, W: RangeWrite>(
    source: Source<R>,
    output: W,
    plan: &(dyn Fn(&str) -> Planned + Sync),
    opts: &StreamSettings,
    progress: &mut dyn Progress<MemberReport>,
) -> Result<Totals, Error> {
    let start = Instant::now();
    // Set on the calling thread when `progress` asks to stop; the reader polls it.
    let stop = AtomicBool::new(false);
    let read_error: Mutex<Option<ErrorKind>> = Mutex::new(None);
    let read_sum: Mutex<Option<(Option<String>, u64)>> = Mutex::new(None);
    // Bytes read so far, for the totals of an interrupted run.
    let read_so_far = std::sync::atomic::AtomicU64::new(0);
    // Buffers of 64 KiB gather the headers and small members; the data of a larger member
    // goes between the file and its own buffer directly instead of through these (a copy of
    // every byte less, in each direction).
    let mut out = Hashing::new(io::BufWriter::with_capacity(IO_BUFFER, output), opts.md5);
    let mut write_error: Option<io::Error> = None;
    let mut summary = Summary::new(0);
    let mut entries = 0usize;
    let spool = opts.spool_dir.as_deref();
    let threads = opts.threads.max(1);
    let in_flight = match source {
        Source::Stream { .. } => threads * IN_FLIGHT_PER_WORKER + 2,
        Source::File { .. } => threads * IN_FLIGHT_WHERE_THEY_LIE + 2,
    };
    // As many kept as may be in flight: in a steady run every member's buffer is one used
    // before (a fresh one costs a page fault per 4 KiB). Members read where they lie need none.
    let buffers = Buffers::new(match source {
        Source::Stream { .. } => in_flight,
        Source::File { .. } => 0,
    });
    // The SHA-1 is for the report's lines only.
    let digests = progress.keeps_lines();
    // Each PDF member gets its own token: the per-file bound, cancelled when `progress`
    // asks to stop.
    let stops = crate::job::stop::Stops::new(opts.settings.file_timeout, &opts.settings.stop);
    // The run's own token (a signal handler's) stops the reader and the members in flight at
    // once, even while the member at the head of the queue is still being updated.
    let on_cancel = || stop.store(true, Ordering::Relaxed);
    stops.relaying(&on_cancel, || {
        crate::pipeline::ordered(
            threads,
            in_flight,
            |emit: &mut dyn FnMut(Item) -> bool| {
                let mut r = source;
                loop {
                    if stop.load(Ordering::Relaxed) {
                        *read_error.lock().unwrap_or_else(|p| p.into_inner()) =
                            Some(ErrorKind::Interrupted);
                        return;
                    }
                    let next = r.next(spool, &buffers);
                    read_so_far.store(r.read(), Ordering::Relaxed);
                    match next {
                        Ok(Next::Entry(e)) => {
                            let planned = e.is_file().then(|| plan(&e.name));
                            if !emit(Item::Entry(e, planned)) {
                                return;
                            }
                        }
                        Ok(Next::End(bytes)) => {
                            emit(Item::End(bytes));
                            break;
                        }
                        Err(k) => {
                            *read_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(k);
                            return;
                        }
                    }
                }
                *read_sum.lock().unwrap_or_else(|p| p.into_inner()) = Some(r.finish());
            },
            |item: Item| -> Done {
                let (entry, planned) = match item {
                    Item::End(end) => {
                        return Done {
                            entry: None,
                            end,
                            report: None,
                            update: None,
                        }
                    }
                    Item::Entry(e, p) => (e, p),
                };
                let Some(planned) = planned else {
                    return Done {
                        entry: Some(entry),
                        end: Vec::new(),
                        report: None,
                        update: None,
                    };
                };
                let t = Instant::now();
                let before = entry.body.len();
                let mut report = MemberReport {
                    pdf: entry.name.clone(),
                    id: planned.id,
                    version: planned.version,
                    status: Status::Unmatched,
                    reason: None,
                    refusal: None,
                    number: None,
                    replaced: None,
                    sha1: None,
                    copied: true,
                    notes: Vec::new(),
                    bytes_before: before,
                    bytes_after: before,
                    ms: 0,
                };
                let mut update = None;
                match planned.action {
                    Action::Copy(status, reason) => {
                        report.status = status;
                        report.reason = Some(reason);
                    }
                    Action::Inject(n, details) => {
                        let file = stops.file();
                        let settings = opts.settings.for_file(file.token());
                        // Read as it came, before it is updated.
                        if let Some(also) = &opts.also {
                            report
                                .notes
                                .extend(also.member(&entry.name, &entry.body, &settings));
                        }
                        let (u, o) =
                            process_member(&entry.name, &entry.body, &n, Some(&details), &settings);
                        report.number = o.number;
                        // A member held in memory is hashed where it lies; one spooled to disk
                        // (past the memory bound) was hashed as it was spooled.
                        report.sha1 = digests.then(|| entry.body.sha1().ok()).flatten();
                        report.status = o.status;
                        report.refusal = o.refusal;
                        report.replaced = o.replaced;
                        report.bytes_after = o.bytes_after;
                        report.copied = u.is_none() && o.status != Status::Unchanged;
                        report.reason = o.reason;
                        report.notes.extend(o.notes);
                        update = u;
                    }
                }
                report.ms = t.elapsed().as_millis() as u64;
                Done {
                    entry: Some(entry),
                    end: Vec::new(),
                    report: Some(report),
                    update,
                }
            },
            |mut done: Done| {
                let r = write_done(&mut out, &done);
                if let Err(e) = r {
                    write_error = Some(e);
                    return false;
                }
                if let Some(e) = done.entry.take() {
                    entries += 1;
                    if let Body::Mem(v) = e.body {
                        buffers.give(v);
                    }
                }
                if let Some(rep) = &done.report {
                    summary.total += 1;
                    summary.count(rep.status, rep.replaced.is_some());
                    progress.line(rep);
                }
                if progress.stopped() {
                    stop.store(true, Ordering::Relaxed);
                    stops.cancel();
                }
                true
            },
        )
    });
    let err = |kind| Error::new(opts.name.clone(), kind);
    if let Some(e) = write_error {
        return Err(err(ErrorKind::Write(e)));
    }
    let mut read_error = read_error.into_inner().unwrap_or_else(|p| p.into_inner());
    if stop.load(Ordering::Relaxed) {
        // Asked to stop: the run was interrupted, whatever the reader met after (a pipe
        // closed by the same Ctrl-C), and even if every member was read (those in flight
        // were stopped, not updated).
        read_error = Some(ErrorKind::Interrupted);
    }
    if let Some(k) = read_error {
        let mut e = err(k);
        if matches!(e.kind, ErrorKind::Interrupted) {
            summary.interrupted = true;
            summary.ms = start.elapsed().as_millis() as u64;
            let _ = out.flush();
            e.partial = Some(Box::new(Totals {
                summary,
                tar: opts.name.clone(),
                entries,
                md5_in: None,
                size_in: read_so_far.load(Ordering::Relaxed),
                md5: None,
                size: out.n,
            }));
        }
        return Err(e);
    }
    out.flush().map_err(|e| err(ErrorKind::Write(e)))?;
    let (md5_in, size_in) = read_sum
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .ok_or_else(|| {
            err(ErrorKind::Read(io::Error::other(
                "the reader stopped before the end of the archive",
            )))
        })?;
    let (md5, size) = out.finish();
    summary.ms = start.elapsed().as_millis() as u64;
    Ok(Totals {
        summary,
        tar: opts.name.clone(),
        entries,
        md5_in,
        size_in,
        md5,
        size,
    })
}

/// Writes one finished item: the end-of-archive bytes, or an entry (updated or not).
fn write_done(out: &mut impl TarOut, done: &Done) -> io::Result<()> {
    match &done.entry {
        None => out.write_all(&done.end),
        Some(e) => format::write_entry(out, e, done.update.as_ref()),
    }
}
