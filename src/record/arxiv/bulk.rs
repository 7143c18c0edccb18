//! A whole bulk run: metadata files in (snapshot JSON Lines or OAI-PMH pages, any supported
//! compression, `-` for standard input), one result per paper out, in input order, computed on
//! every core, with memory bounded whatever the input size.
//!
//! [`scan`] is the engine: a reader thread splits the input into [`Unit`]s (a snapshot line, an
//! OAI record, a problem with a file) and batches them; workers run the caller's function on
//! each unit; the caller's thread receives the results in input order ([`crate::pipeline`]).
//! [`number()`] is the `pith number --arxiv-snapshot/--arxiv-oai` run built on it; the batch
//! layer's arXiv matcher is another.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use super::oai::{Body, OaiReader, OaiRecord};
use super::{snapshot, RawMeta};
use crate::decompress::{self as input, LineRead};
use crate::number::{self, PithNumber};
use crate::record::{canonical, ArxivPaper};

/// The longest snapshot line accepted (a real line is a few kB; the longest about 100 kB).
pub const MAX_LINE: usize = 8 << 20;
/// Lines or records per batch handed to a worker.
const CHUNK_UNITS: usize = 1024;
/// Bytes per batch handed to a worker.
const CHUNK_BYTES: usize = 1 << 20;

/// The two bulk forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The metadata snapshot, JSON Lines.
    Snapshot,
    /// OAI-PMH `ListRecords` XML.
    Oai,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Snapshot => "snapshot JSON Lines",
            Format::Oai => "OAI-PMH XML",
        }
    }
}

/// One metadata file to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataFile {
    /// The file, or `-` for standard input.
    pub path: PathBuf,
    /// The expected form; `None` recognises it from the first byte (`{` or `<`).
    pub format: Option<Format>,
}

impl MetadataFile {
    /// The inputs of snapshot files and of OAI-PMH pages, in that order, each of its form.
    pub fn of_forms(snapshot: &[PathBuf], oai: &[PathBuf]) -> Vec<MetadataFile> {
        let snapshot = snapshot.iter().map(|p| (p, Format::Snapshot));
        snapshot
            .chain(oai.iter().map(|p| (p, Format::Oai)))
            .map(|(p, f)| MetadataFile {
                path: p.clone(),
                format: Some(f),
            })
            .collect()
    }

    /// The inputs of `paths`, each form recognised from its first byte.
    pub fn recognised(paths: &[PathBuf]) -> Vec<MetadataFile> {
        paths
            .iter()
            .map(|p| MetadataFile {
                path: p.clone(),
                format: None,
            })
            .collect()
    }
}

/// Where in the input a unit was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pos {
    /// A line of a snapshot file, 1-based.
    Line(u64),
    /// A record of an OAI file, 1-based, with its OAI identifier.
    Record(u64, String),
    /// The file as a whole, after this many lines or records.
    After(u64),
}

/// A position with its file, printed as `FILE:LINE`, `FILE: record N (oai:…)` or
/// `FILE: after N lines/records`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The file (`-` for standard input).
    pub path: PathBuf,
    /// The position in it.
    pub pos: Pos,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.pos {
            Pos::Line(n) => write!(f, "{p}:{n}"),
            Pos::Record(n, id) if id.is_empty() => write!(f, "{p}: record {n}"),
            Pos::Record(n, id) => write!(f, "{p}: record {n} ({id})"),
            Pos::After(n) => write!(f, "{p}: after {n} lines/records"),
        }
    }
}

/// What the reader found at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitKind {
    /// A snapshot line (without its newline).
    Line(Vec<u8>),
    /// A snapshot line longer than [`MAX_LINE`], skipped; its length.
    TooLong(u64),
    /// An OAI record.
    Oai(OaiRecord),
    /// The file cannot be read on from here (truncated compression, malformed XML, an OAI
    /// error response): the reason.
    Broken(String),
    /// Something to tell that is not an error (a resumption token: more pages exist).
    Notice(String),
}

/// One unit of input with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Where it was found.
    pub place: Place,
    /// What it is.
    pub kind: UnitKind,
}

/// What a unit means for numbering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meaning {
    /// A paper's metadata.
    Meta(RawMeta),
    /// A deleted record, with its arXiv id.
    Deleted(String),
    /// A line or record that cannot be used: why.
    Bad(String),
    /// A message that is neither.
    Notice(String),
    /// Nothing (a blank line).
    Nothing,
}

impl Unit {
    /// The arXiv id of the unit, read cheaply (for a snapshot line, only the `id` field is
    /// built). `None` when there is none to be had.
    pub fn arxiv_id(&self) -> Option<String> {
        match &self.kind {
            UnitKind::Line(l) => snapshot::parse_id(l).ok(),
            UnitKind::Oai(r) => Some(r.arxiv_id().to_owned()),
            _ => None,
        }
    }

    /// Interprets the unit.
    pub fn meaning(&self) -> Meaning {
        match &self.kind {
            UnitKind::Line(l) if l.iter().all(u8::is_ascii_whitespace) => Meaning::Nothing,
            UnitKind::Line(l) => match snapshot::parse_line(l) {
                Ok(m) => Meaning::Meta(m),
                Err(e) => Meaning::Bad(format!("not a snapshot line: {e}")),
            },
            UnitKind::TooLong(n) => {
                Meaning::Bad(format!("a line of {n} bytes, longer than {MAX_LINE}"))
            }
            UnitKind::Oai(r) => match &r.body {
                Ok(Body::Meta(m)) => Meaning::Meta(m.clone()),
                Ok(Body::Deleted) => Meaning::Deleted(r.arxiv_id().to_owned()),
                Err(e) => Meaning::Bad(e.clone()),
            },
            UnitKind::Broken(e) => Meaning::Bad(e.clone()),
            UnitKind::Notice(n) => Meaning::Notice(n.clone()),
        }
    }
}

kind_error! {
    /// Error of a bulk run.
}

/// What stopped a bulk run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a file cannot be opened, or is not of the form it was given as.
    #[error("{}: {reason}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Occurs when the output cannot be written.
    #[error("cannot write the output: {}", crate::pdf::chain(.0))]
    Write(#[source] io::Error),
    /// Occurs under `strict` at the first bad line or record.
    #[error("{place}: {reason}")]
    Bad {
        /// Where.
        place: Place,
        /// Why.
        reason: String,
    },
}

/// Opens an input and recognises its form (after decompression) from its first byte.
fn open_input(inp: &MetadataFile) -> Result<(Format, input::Stream), Error> {
    let err = |reason: String| Error {
        kind: ErrorKind::Open {
            path: inp.path.clone(),
            reason,
        },
    };
    let (comp, mut s) = input::open(&inp.path)
        .map_err(|e| err(format!("cannot read: {}", crate::pdf::chain(&e))))?;
    let first = loop {
        let buf = s.fill_buf().map_err(|e| {
            err(format!(
                "cannot read ({} stream): {}",
                comp.name(),
                crate::pdf::chain(&e)
            ))
        })?;
        let skip = buf
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(buf.len());
        if buf.is_empty() {
            break None;
        }
        if skip < buf.len() {
            // A UTF-8 byte order mark counts as nothing.
            if buf[skip..].starts_with(&[0xef, 0xbb, 0xbf]) {
                s.consume(skip + 3);
                continue;
            }
            break Some(buf[skip]);
        }
        let n = buf.len();
        s.consume(n);
    };
    let found = match first {
        Some(b'{') => Format::Snapshot,
        Some(b'<') => Format::Oai,
        None => inp.format.unwrap_or(Format::Snapshot),
        Some(b) => {
            return Err(err(format!(
                "neither snapshot JSON Lines nor OAI-PMH XML (first byte {:?}, compression {})",
                b as char,
                comp.name()
            )))
        }
    };
    if let Some(want) = inp.format {
        if want != found {
            return Err(err(format!(
                "given as {} but it is {}",
                want.name(),
                found.name()
            )));
        }
    }
    Ok((found, s))
}

/// Reads `inputs` in order and runs `work` on every unit on `threads` workers; `consume`
/// receives the results in input order on the calling thread and returns `false` to stop.
///
/// Memory: at most a few batches of `CHUNK_BYTES` (1 MiB) are in flight, whatever the input.
///
/// # Errors
/// [`ErrorKind::Open`] when a file cannot be opened or is not of its stated form. Problems
/// inside a file are units ([`UnitKind::Broken`], [`UnitKind::TooLong`]), not errors.
pub fn scan<T, W, C>(
    inputs: &[MetadataFile],
    threads: usize,
    work: W,
    mut consume: C,
) -> Result<(), Error>
where
    T: Send,
    W: Fn(Unit) -> T + Sync,
    C: FnMut(T) -> bool,
{
    let mut open_error = None;
    {
        let open_error = &mut open_error;
        crate::pipeline::ordered(
            threads,
            threads * 4 + 4,
            |emit: &mut dyn FnMut(Vec<Unit>) -> bool| {
                for inp in inputs {
                    match open_input(inp) {
                        Ok((fmt, stream)) => {
                            if !read_units(inp, fmt, stream, emit) {
                                return;
                            }
                        }
                        Err(e) => {
                            *open_error = Some(e);
                            return;
                        }
                    }
                }
            },
            |chunk: Vec<Unit>| chunk.into_iter().map(&work).collect::<Vec<T>>(),
            |results| {
                for r in results {
                    if !consume(r) {
                        return false;
                    }
                }
                true
            },
        );
    }
    match open_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Splits one file into batches of units; `false` when the run is stopping.
// `push!` resets the byte count also where the loop ends right after it.
#[allow(unused_assignments)]
fn read_units(
    inp: &MetadataFile,
    fmt: Format,
    mut stream: input::Stream,
    emit: &mut dyn FnMut(Vec<Unit>) -> bool,
) -> bool {
    let place = |pos| Place {
        path: inp.path.clone(),
        pos,
    };
    let mut chunk = Vec::with_capacity(CHUNK_UNITS);
    let mut bytes = 0usize;
    let mut count = 0u64;
    macro_rules! push {
        ($unit:expr, $len:expr) => {{
            chunk.push($unit);
            bytes += $len;
            if chunk.len() >= CHUNK_UNITS || bytes >= CHUNK_BYTES {
                if !emit(std::mem::replace(
                    &mut chunk,
                    Vec::with_capacity(CHUNK_UNITS),
                )) {
                    return false;
                }
                bytes = 0;
            }
        }};
    }
    match fmt {
        Format::Snapshot => {
            let mut buf = Vec::new();
            loop {
                match input::read_line(&mut stream, &mut buf, MAX_LINE) {
                    Ok(LineRead::Eof) => break,
                    Ok(LineRead::Line) => {
                        count += 1;
                        let len = buf.len();
                        push!(
                            Unit {
                                place: place(Pos::Line(count)),
                                kind: UnitKind::Line(std::mem::take(&mut buf)),
                            },
                            len
                        );
                    }
                    Ok(LineRead::TooLong(n)) => {
                        count += 1;
                        push!(
                            Unit {
                                place: place(Pos::Line(count)),
                                kind: UnitKind::TooLong(n),
                            },
                            0
                        );
                    }
                    Err(e) => {
                        push!(
                            Unit {
                                place: place(Pos::After(count)),
                                kind: UnitKind::Broken(format!(
                                    "cannot read on: {}",
                                    crate::pdf::chain(&e)
                                )),
                            },
                            0
                        );
                        break;
                    }
                }
            }
        }
        Format::Oai => {
            let mut r = OaiReader::new(stream);
            while let Some(rec) = r.next_record() {
                match rec {
                    Ok(rec) => {
                        count += 1;
                        let len = 2048;
                        push!(
                            Unit {
                                place: place(Pos::Record(rec.position, rec.identifier.clone())),
                                kind: UnitKind::Oai(rec),
                            },
                            len
                        );
                    }
                    Err(e) => push!(
                        Unit {
                            place: place(Pos::After(count)),
                            kind: UnitKind::Broken(e),
                        },
                        0
                    ),
                }
            }
            if let Some(t) = r.resumption().filter(|t| !t.token.is_empty()) {
                let size = t
                    .complete_list_size
                    .map(|n| format!(" of {n}"))
                    .unwrap_or_default();
                let cursor = t.cursor.map(|c| format!(" from {c}")).unwrap_or_default();
                push!(
                    Unit {
                        place: place(Pos::After(count)),
                        kind: UnitKind::Notice(format!(
                            "resumptionToken {:?}: this page holds records{cursor}{size}; more pages follow",
                            t.token
                        )),
                    },
                    0
                );
            }
        }
    }
    chunk.is_empty() || emit(chunk)
}

/// Pass of [`number()`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// Worker threads.
    pub threads: usize,
    /// Stop at the first bad line or record.
    pub strict: bool,
}

/// Counts of a [`number()`] run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Papers numbered (lines written).
    pub numbered: u64,
    /// Deleted records reported.
    pub deleted: u64,
    /// Bad lines, records or files reported.
    pub bad: u64,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} numbered, {} deleted, {} bad",
            self.numbered, self.deleted, self.bad
        )
    }
}

/// Something [`number()`] reports beside its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// A deleted record: not numbered.
    Deleted {
        /// Where.
        place: Place,
        /// Its arXiv id.
        id: String,
    },
    /// A line, record or file that cannot be used.
    Bad {
        /// Where.
        place: Place,
        /// Why.
        reason: String,
    },
    /// Information (more OAI pages exist).
    Notice {
        /// Where.
        place: Place,
        /// What.
        message: String,
    },
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Deleted { place, id } => write!(f, "{place}: {id} is deleted, not numbered"),
            Report::Bad { place, reason } => write!(f, "{place}: {reason}"),
            Report::Notice { place, message } => write!(f, "{place}: {message}"),
        }
    }
}

/// The record, digest and number of a paper.
///
/// # Errors
/// The one-line reason [`ArxivPaper::to_record`] gives.
pub fn number_paper(paper: &ArxivPaper) -> Result<(crate::Record, [u8; 32], PithNumber), String> {
    let record = paper.to_record().map_err(|e| e.to_string())?;
    let digest = record.digest();
    let n = PithNumber::from_digest(&digest, Some(record.year()));
    Ok((record, digest, n))
}

/// The output line of a numbered paper: `{"id":…,"version":…,"number":…,"url":…,
/// "canonical_sha256":…}` and a newline.
pub fn output_line(record: &crate::Record, digest: &[u8; 32], n: &PithNumber) -> Vec<u8> {
    let mut out = Vec::with_capacity(200);
    out.extend_from_slice(b"{\"id\":");
    canonical::write_string(&mut out, &record.source.id);
    out.extend_from_slice(
        format!(",\"version\":{},\"number\":\"", record.source.version).as_bytes(),
    );
    out.extend_from_slice(n.full().as_bytes());
    out.extend_from_slice(b"\",\"url\":\"");
    out.extend_from_slice(n.url().as_bytes());
    out.extend_from_slice(b"\",\"canonical_sha256\":\"");
    out.extend_from_slice(number::hex(digest).as_bytes());
    out.extend_from_slice(b"\"}\n");
    out
}

enum Numbered {
    Line(Vec<u8>),
    Report(Report, bool),
    Nothing,
}

/// Numbers every paper of `inputs`, writing one JSON line per paper to `out` in input order;
/// deleted records, bad lines/records/files and notices go to `report`, also in input order.
///
/// Without `strict`, a bad line or record is reported and the run goes on; with it, the first
/// one ends the run with [`ErrorKind::Bad`] (the lines before it are written).
///
/// # Errors
/// [`ErrorKind::Open`], [`ErrorKind::Write`], and [`ErrorKind::Bad`] under `strict`.
///
/// # Examples
/// ```
/// use pith::record::arxiv::bulk::{number, MetadataFile, Pass};
/// let dir = std::env::temp_dir().join(format!("pith-doc-bulk-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("snap.jsonl");
/// std::fs::write(&path, concat!(r#"{"id":"0704.0001","title":"T","abstract":"A","#,
///     r#""categories":"hep-ph","license":null,"#,
///     r#""versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}]}"#, "\n"))?;
/// let mut out = Vec::new();
/// let s = number(&[MetadataFile { path, format: None }], Pass { threads: 2, strict: false },
///                &mut out, &mut |_| {})?;
/// assert_eq!(s.numbered, 1);
/// assert!(String::from_utf8(out)?.starts_with(r#"{"id":"0704.0001","version":1,"number":"pith:2007:"#));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn number(
    inputs: &[MetadataFile],
    opts: Pass,
    out: &mut dyn Write,
    report: &mut dyn FnMut(&Report),
) -> Result<Summary, Error> {
    let mut summary = Summary::default();
    let mut failure: Option<Error> = None;
    let work = |u: Unit| -> Numbered {
        let place = u.place.clone();
        match u.meaning() {
            Meaning::Meta(m) => match m.into_paper().and_then(|p| number_paper(&p)) {
                Ok((r, d, n)) => Numbered::Line(output_line(&r, &d, &n)),
                Err(reason) => Numbered::Report(Report::Bad { place, reason }, true),
            },
            Meaning::Deleted(id) => Numbered::Report(Report::Deleted { place, id }, false),
            Meaning::Bad(reason) => Numbered::Report(Report::Bad { place, reason }, true),
            Meaning::Notice(message) => Numbered::Report(Report::Notice { place, message }, false),
            Meaning::Nothing => Numbered::Nothing,
        }
    };
    let consume = |n: Numbered| -> bool {
        match n {
            Numbered::Line(l) => {
                summary.numbered += 1;
                if let Err(e) = out.write_all(&l) {
                    failure = Some(Error {
                        kind: ErrorKind::Write(e),
                    });
                    return false;
                }
            }
            Numbered::Report(r, is_bad) => {
                if let Report::Deleted { .. } = r {
                    summary.deleted += 1;
                }
                if is_bad {
                    summary.bad += 1;
                    if opts.strict {
                        if let Report::Bad { place, reason } = r {
                            failure = Some(Error {
                                kind: ErrorKind::Bad { place, reason },
                            });
                        }
                        return false;
                    }
                }
                report(&r);
            }
            Numbered::Nothing => {}
        }
        true
    };
    scan(inputs, opts.threads, work, consume)?;
    if let Some(e) = failure {
        return Err(e);
    }
    out.flush().map_err(|e| Error {
        kind: ErrorKind::Write(e),
    })?;
    Ok(summary)
}
