//! Streaming tar archives of PDFs, arXiv's bulk tars first (issue 26): one pass from a reader to
//! a writer, members in the same order, every PDF that has a number updated as `pith batch`
//! updates a file (append-only, same refusals), everything else copied byte for byte.
//!
//! - **Headers are kept as they were**: the 512-byte header blocks are copied, not re-encoded;
//!   a member that grows gets only its size field and checksum rewritten, and the `size`
//!   record of its pax extended header when it has one (the pax header's own size and
//!   checksum with it). ustar, GNU (`L`/`K` long names) and pax (`x`/`g`) headers are read;
//!   whatever follows the end-of-archive blocks is copied too.
//! - **Bounded memory**: a member up to [`SPOOL_BOUND`] is held in memory, a larger one is
//!   spooled to an unnamed temporary file; at most `threads + 2` members are in flight
//!   ([`crate::record::arxiv::pipeline::ordered`]), and the output keeps the input's order.
//! - **Deterministic**: the output depends only on the input and the options (the update time
//!   is [`crate::pdf::Options::now`]), not on the number of workers or on timing.
//! - The input's size, and with [`Options::md5`] its md5, are computed while it is read, the
//!   output's while it is written ([`Totals`]), for the manifest checks of [`super::manifest`].
//!
//! What happens to one PDF is [`process_member`]; which number a member gets is the caller's
//! `plan` ([`plan_arxiv`] for arXiv names and bulk metadata). This module writes only to the
//! writer it is given and to its spool files; it prints nothing.

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use md5::{Digest, Md5};
use serde::Serialize;

use super::{Status, Summary};
use crate::arxiv_match::{self, Collected, Decision, Wanted};
use crate::pdf;
use crate::PithNumber;

/// Members larger than this (64 MiB) are spooled to a temporary file instead of being held in
/// memory.
pub const SPOOL_BOUND: u64 = 64 << 20;

/// A tar block.
const BLOCK: usize = 512;

/// Largest pax or GNU long-name header data accepted (they hold a few names and numbers).
const META_BOUND: u64 = 1 << 20;

/// Error reading or writing a tar stream.
#[derive(Debug)]
pub struct Error {
    tar: String,
    kind: ErrorKind,
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
    #[error("cannot spool a member larger than 64 MiB to a temporary file")]
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
        }
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

/// A member's data: in memory, or spooled to a temporary file when larger than
/// [`SPOOL_BOUND`].
#[derive(Debug)]
pub enum Body {
    /// Held in memory.
    Mem(Vec<u8>),
    /// In an unnamed temporary file (removed when dropped).
    Spool(File),
}

impl Body {
    /// Size of the data in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Body::Mem(v) => v.len() as u64,
            Body::Spool(f) => f.metadata().map_or(0, |m| m.len()),
        }
    }

    /// Whether the data is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the first `len` bytes to `w`.
    fn write_prefix(&self, len: u64, w: &mut dyn Write) -> io::Result<()> {
        match self {
            Body::Mem(v) => w.write_all(&v[..usize::try_from(len).unwrap_or(v.len()).min(v.len())]),
            Body::Spool(f) => {
                let mut f = f;
                f.seek(SeekFrom::Start(0))?;
                let n = io::copy(&mut f.take(len), w)?;
                if n != len {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the spool file shrank",
                    ));
                }
                Ok(())
            }
        }
    }
}

/// A pax extended header or GNU long-name entry before a member: its header block, data and
/// padding, as read.
#[derive(Debug)]
struct Meta {
    header: [u8; BLOCK],
    data: Vec<u8>,
    pad: Vec<u8>,
}

/// One entry of the archive, as read: its extended headers, header block, name, data and
/// padding bytes.
#[derive(Debug)]
struct Entry {
    meta: Vec<Meta>,
    header: Box<[u8; BLOCK]>,
    name: String,
    body: Body,
    pad: Vec<u8>,
}

impl Entry {
    /// A regular file (`0`, NUL, or contiguous `7`).
    fn is_file(&self) -> bool {
        matches!(self.header[156], b'0' | 0 | b'7')
    }
}

/// Reads a numeric header field: octal digits (leading spaces or NULs, ended by a space or
/// NUL) or GNU base-256 (high bit of the first byte set).
fn parse_number(field: &[u8]) -> Option<u64> {
    if field.first()? & 0x80 != 0 {
        if field[0] & 0x40 != 0 {
            return None; // negative
        }
        let mut n: u64 = u64::from(field[0] & 0x3f);
        for &b in &field[1..] {
            n = n.checked_mul(256)?.checked_add(u64::from(b))?;
        }
        return Some(n);
    }
    let mut n: u64 = 0;
    let mut digits = false;
    for &b in field {
        match b {
            b'0'..=b'7' => {
                n = n.checked_mul(8)?.checked_add(u64::from(b - b'0'))?;
                digits = true;
            }
            b' ' | 0 if !digits => {}
            b' ' | 0 => break,
            _ => return None,
        }
    }
    Some(n)
}

/// The checksum of a header block: the sum of its bytes, the checksum field counted as
/// spaces (unsigned, and signed as some old tars wrote it).
fn checksums(h: &[u8; BLOCK]) -> (u64, i64) {
    let mut u = 0u64;
    let mut s = 0i64;
    for (i, &b) in h.iter().enumerate() {
        let b = if (148..156).contains(&i) { b' ' } else { b };
        u += u64::from(b);
        s += i64::from(b as i8);
    }
    (u, s)
}

/// Rewrites the checksum field as GNU tar and Python's tarfile write it: six octal digits, NUL,
/// space.
fn set_checksum(h: &mut [u8; BLOCK]) {
    let (sum, _) = checksums(h);
    h[148..154].copy_from_slice(format!("{:06o}", sum).as_bytes());
    h[154] = 0;
    h[155] = b' ';
}

/// Rewrites the size field: eleven octal digits with the field's own terminator, or GNU
/// base-256 when the size needs it (or the field already was).
fn set_size(h: &mut [u8; BLOCK], size: u64) {
    let f = &mut h[124..136];
    if f[0] & 0x80 == 0 && size < 8u64.pow(11) {
        let term = if f[11] == b' ' { b' ' } else { 0 };
        f[..11].copy_from_slice(format!("{size:011o}").as_bytes());
        f[11] = term;
    } else {
        f[0] = 0x80;
        f[1..4].fill(0);
        f[4..12].copy_from_slice(&size.to_be_bytes());
    }
}

/// The records of a pax extended header: `(key, value, the record's bytes)`.
/// A pax record: key, value and the whole record's bytes.
type PaxRecord<'a> = (&'a [u8], &'a [u8], &'a [u8]);

fn pax_records(data: &[u8]) -> Option<Vec<PaxRecord<'_>>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        if data[at..].iter().all(|&b| b == 0) {
            break;
        }
        let sp = data[at..].iter().position(|&b| b == b' ')?;
        let len: usize = std::str::from_utf8(&data[at..at + sp]).ok()?.parse().ok()?;
        let rec = data.get(at..at.checked_add(len)?)?;
        if rec.last() != Some(&b'\n') || sp + 1 > rec.len() - 1 {
            return None;
        }
        let kv = &rec[sp + 1..rec.len() - 1];
        let eq = kv.iter().position(|&b| b == b'=')?;
        out.push((&kv[..eq], &kv[eq + 1..], rec));
        at += len;
    }
    Some(out)
}

/// A pax record `LEN key=value\n`, its length counting its own digits.
fn pax_record(key: &str, value: &str) -> Vec<u8> {
    let body = key.len() + value.len() + 3; // space, '=', newline
    let mut len = body + 1;
    while len != body + len.to_string().len() {
        len = body + len.to_string().len();
    }
    format!("{len} {key}={value}\n").into_bytes()
}

fn zeros(n: usize) -> Vec<u8> {
    vec![0; n]
}

fn padding(size: u64) -> usize {
    ((BLOCK as u64 - size % BLOCK as u64) % BLOCK as u64) as usize
}

/// Counts bytes, and hashes them as they pass when asked to.
struct Hashing<T> {
    inner: T,
    md5: Option<Md5>,
    n: u64,
}

impl<T> Hashing<T> {
    fn new(inner: T, hash: bool) -> Self {
        Hashing {
            inner,
            md5: hash.then(Md5::new),
            n: 0,
        }
    }

    fn finish(self) -> (Option<String>, u64) {
        (self.md5.map(|m| format!("{:x}", m.finalize())), self.n)
    }
}

impl<T: Read> Read for Hashing<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(m) = &mut self.md5 {
            m.update(&buf[..n]);
        }
        self.n += n as u64;
        Ok(n)
    }
}

impl<T: Write> Write for Hashing<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        if let Some(m) = &mut self.md5 {
            m.update(&buf[..n]);
        }
        self.n += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// What the reader found next.
enum Next {
    Entry(Entry),
    /// The end-of-archive: these bytes (a zero block) and whatever follows them.
    End(Vec<u8>),
}

/// Header fields gathered from the extended headers before a member.
#[derive(Default)]
struct Extended {
    path: Option<String>,
    size: Option<u64>,
    long_name: Option<String>,
}

/// The extended headers, header block, name and data size of an entry.
struct Head {
    meta: Vec<Meta>,
    header: Box<[u8; BLOCK]>,
    name: String,
    size: u64,
}

/// The header, extended headers and name of the next entry, or `None` at the end-of-archive
/// (the zero block is returned).
fn read_head(r: &mut impl Read, offset: &mut u64) -> Result<Result<Head, Vec<u8>>, ErrorKind> {
    let mut meta = Vec::new();
    let mut ext = Extended::default();
    loop {
        let mut h = [0u8; BLOCK];
        let n = read_full(r, &mut h).map_err(ErrorKind::Read)?;
        let at = *offset;
        *offset += n as u64;
        let bad = |reason: &str| ErrorKind::Header {
            offset: at,
            reason: reason.into(),
        };
        if h[..n].iter().all(|&b| b == 0) {
            if !meta.is_empty() {
                return Err(bad("an extended header without a member"));
            }
            // The end-of-archive (or an archive without one, ended at a block boundary).
            return Ok(Err(h[..n].to_vec()));
        }
        if n < BLOCK {
            return Err(bad("a partial header block"));
        }
        let stored = parse_number(&h[148..156]).ok_or_else(|| bad("bad checksum field"))?;
        let (u, s) = checksums(&h);
        if stored != u && i64::try_from(stored).ok() != Some(s) {
            return Err(bad("bad header checksum"));
        }
        let size = parse_number(&h[124..136]).ok_or_else(|| bad("bad size field"))?;
        let flag = h[156];
        if matches!(flag, b'x' | b'g' | b'L' | b'K') {
            if size > META_BOUND {
                return Err(bad("an extended header larger than 1 MiB"));
            }
            let mut data = vec![0u8; size as usize];
            let mut pad = vec![0u8; padding(size)];
            let got = read_full(r, &mut data).map_err(ErrorKind::Read)?
                + read_full(r, &mut pad).map_err(ErrorKind::Read)?;
            *offset += got as u64;
            if got != data.len() + pad.len() {
                return Err(ErrorKind::Truncated {
                    member: "an extended header".into(),
                });
            }
            match flag {
                b'x' => {
                    let recs = pax_records(&data)
                        .ok_or_else(|| bad("a pax record that does not parse"))?;
                    for (k, v, _) in recs {
                        match k {
                            b"path" => ext.path = Some(String::from_utf8_lossy(v).into_owned()),
                            b"size" => {
                                ext.size = Some(
                                    std::str::from_utf8(v)
                                        .ok()
                                        .and_then(|v| v.parse().ok())
                                        .ok_or_else(|| {
                                            bad("a pax size record that is not a number")
                                        })?,
                                )
                            }
                            _ => {}
                        }
                    }
                }
                b'L' => {
                    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
                    ext.long_name = Some(String::from_utf8_lossy(&data[..end]).into_owned());
                }
                _ => {}
            }
            meta.push(Meta {
                header: h,
                data,
                pad,
            });
            continue;
        }
        let field = |r: std::ops::Range<usize>| {
            let f = &h[r];
            let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
            String::from_utf8_lossy(&f[..end]).into_owned()
        };
        let name = match (ext.path.take(), ext.long_name.take()) {
            (Some(p), _) | (None, Some(p)) => p,
            (None, None) => {
                let base = field(0..100);
                let prefix = field(345..500);
                // The prefix field is POSIX ustar's; old GNU headers keep other data there.
                if &h[257..263] == b"ustar\0" && !prefix.is_empty() {
                    format!("{prefix}/{base}")
                } else {
                    base
                }
            }
        };
        // Links carry no data whatever their size field says (POSIX ustar).
        let data = match flag {
            b'1' | b'2' => 0,
            _ => ext.size.unwrap_or(size),
        };
        return Ok(Ok(Head {
            meta,
            header: Box::new(h),
            name,
            size: data,
        }));
    }
}

/// Reads the next entry (data in memory, or spooled past [`SPOOL_BOUND`]).
fn read_entry(
    r: &mut impl Read,
    offset: &mut u64,
    spool_dir: Option<&Path>,
) -> Result<Next, ErrorKind> {
    let Head {
        meta,
        header,
        name,
        size,
    } = match read_head(r, offset)? {
        Ok(h) => h,
        Err(mut end) => {
            r.read_to_end(&mut end).map_err(ErrorKind::Read)?;
            return Ok(Next::End(end));
        }
    };
    let truncated = || ErrorKind::Truncated {
        member: name.clone(),
    };
    let body = if size <= SPOOL_BOUND {
        let mut data = vec![0u8; size as usize];
        let n = read_full(r, &mut data).map_err(ErrorKind::Read)?;
        *offset += n as u64;
        if n != data.len() {
            return Err(truncated());
        }
        Body::Mem(data)
    } else {
        let mut f = match spool_dir {
            Some(d) => tempfile::tempfile_in(d),
            None => tempfile::tempfile(),
        }
        .map_err(ErrorKind::Spool)?;
        let n = io::copy(&mut r.take(size), &mut f).map_err(|e| match e.kind() {
            io::ErrorKind::WriteZero | io::ErrorKind::StorageFull => ErrorKind::Spool(e),
            _ => ErrorKind::Read(e),
        })?;
        *offset += n;
        if n != size {
            return Err(truncated());
        }
        Body::Spool(f)
    };
    let mut pad = vec![0u8; padding(size)];
    let n = read_full(r, &mut pad).map_err(ErrorKind::Read)?;
    *offset += n as u64;
    if n != pad.len() {
        return Err(truncated());
    }
    Ok(Next::Entry(Entry {
        meta,
        header,
        name,
        body,
        pad,
    }))
}

/// The names of the regular files in the tar `file`, read from its headers alone (the data is
/// skipped with seeks): what a run needs to know before the metadata pass.
///
/// # Errors
/// As [`stream`]'s reading errors.
pub fn member_names(file: &File, tar: &str) -> Result<Vec<String>, Error> {
    let err = |kind| Error::new(tar, kind);
    let mut r = BufReader::with_capacity(BLOCK * 16, file);
    r.seek(SeekFrom::Start(0))
        .map_err(|e| err(ErrorKind::Read(e)))?;
    let len = file.metadata().map_err(|e| err(ErrorKind::Read(e)))?.len();
    let mut offset = 0u64;
    let mut names = Vec::new();
    loop {
        let Head {
            header: h,
            name,
            size,
            ..
        } = match read_head(&mut r, &mut offset).map_err(err)? {
            Ok(x) => x,
            Err(_) => return Ok(names),
        };
        let skip = size + padding(size) as u64;
        if offset + skip > len {
            return Err(err(ErrorKind::Truncated { member: name }));
        }
        r.seek_relative(i64::try_from(skip).unwrap_or(i64::MAX))
            .map_err(|e| err(ErrorKind::Read(e)))?;
        offset += skip;
        if matches!(h[156], b'0' | 0 | b'7') {
            names.push(name);
        }
    }
}

/// What to do with one member, decided from its name before its data is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The arXiv id its name gives.
    pub id: Option<String>,
    /// The version its name gives.
    pub version: Option<u32>,
    /// Inject a number, or leave the member as it is.
    pub action: Action,
}

/// The action of a [`Planned`] member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Update the PDF with this number.
    Inject(PithNumber),
    /// Copy the member unchanged, reported with this status and reason.
    Copy(Status, String),
}

/// The plan for a member named `name` of an arXiv bulk tar (`2402/2402.03791v3.pdf`,
/// `0001/hep-th0001001v1.pdf`), from the metadata `collected` for its id: its number when it
/// is the latest version (or any version with `any_version`), else a copy with the reason,
/// as `pith batch --arxiv-metadata` decides for a directory ([`arxiv_match::decide`]).
///
/// # Examples
/// ```
/// use pith::batch::tar::{plan_arxiv, Action};
/// let p = plan_arxiv("0001/astro-ph0001001v1.ps.gz", &Default::default(), false);
/// assert!(matches!(p.action, Action::Copy(..)));
/// let p = plan_arxiv("0001/hep-th0001001v1.pdf", &Default::default(), false);
/// assert_eq!((p.id.as_deref(), p.version), (Some("hep-th/0001001"), Some(1)));
/// ```
pub fn plan_arxiv(name: &str, collected: &Collected, any_version: bool) -> Planned {
    let path = Path::new(name);
    let is_pdf = name
        .len()
        .checked_sub(4)
        .is_some_and(|i| name.is_char_boundary(i) && name[i..].eq_ignore_ascii_case(".pdf"));
    if !is_pdf {
        return Planned {
            id: None,
            version: None,
            action: Action::Copy(
                Status::Unmatched,
                "not a PDF (PostScript or another format); copied unchanged".into(),
            ),
        };
    }
    let Some((id, version)) = arxiv_match::id_from_path(path) else {
        return Planned {
            id: None,
            version: None,
            action: Action::Copy(
                Status::Unmatched,
                "the name carries no arXiv id (YYMM/2402.03791v3.pdf, YYMM/hep-th0001001v1.pdf); copied unchanged".into(),
            ),
        };
    };
    let w = Wanted {
        pdf: path.to_owned(),
        relative: path.to_owned(),
        id: id.clone(),
        version,
        out: None,
    };
    let action = match arxiv_match::decide(&w, collected, any_version) {
        Decision::Number(n) => Action::Inject(n),
        Decision::Skip(reason) => Action::Copy(
            Status::Skipped,
            format!("{reason} (--arxiv-any-version, any_version=True in Python, injects it anyway); copied unchanged"),
        ),
        Decision::Fail(reason) if !collected.entries.contains_key(&id) => {
            Action::Copy(Status::Unmatched, format!("{reason}; copied unchanged"))
        }
        Decision::Fail(reason) => {
            Action::Copy(Status::Failed, format!("{reason}; copied unchanged"))
        }
    };
    Planned {
        id: Some(id),
        version,
        action,
    }
}

/// The year and month of an arXiv id (`2402.03791` → `2402`, `hep-th/0001001` → `0001`): the
/// `YYMM` of the bulk tar that holds its PDFs.
pub fn yymm_of(id: &str) -> Option<&str> {
    let digits = id.rsplit('/').next()?;
    digits
        .get(..4)
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
}

/// The result of [`process_member`].
#[derive(Debug, Clone)]
pub struct MemberOutcome {
    /// Injected, unchanged, refused or failed.
    pub status: Status,
    /// Why, when not injected.
    pub reason: Option<String>,
    /// The update: the length of the original data to keep and the bytes to append after it.
    pub update: Option<(u64, Vec<u8>)>,
}

/// Updates one PDF member with `number`: append-only, with the refusals of `pith batch` (not a
/// PDF, damaged without `repair`, encrypted with a password, certified or with unparsable XMP
/// without `force`, signed with a stamp). A member that already carries the number is
/// unchanged. Nothing is written: the caller copies the kept bytes and appends the update.
pub fn process_member(body: &Body, number: &PithNumber, opts: &pdf::Options) -> MemberOutcome {
    let r = match body {
        Body::Mem(v) => pdf::inject(v.as_slice(), number, opts),
        Body::Spool(f) => pdf::inject(f, number, opts),
    };
    match r {
        Ok(inj) => match inj.offsets {
            Some(off) => MemberOutcome {
                status: Status::Injected,
                reason: None,
                update: Some((off.base_len, inj.appended)),
            },
            None => MemberOutcome {
                status: Status::Unchanged,
                reason: Some(format!("already carries {}", number.full())),
                update: None,
            },
        },
        Err(e) => MemberOutcome {
            status: if e.is_refusal() {
                Status::Refused
            } else {
                Status::Failed
            },
            reason: Some(reason(&e, opts)),
            update: None,
        },
    }
}

/// The report's reason for a refusal, with the remedy, as `pith batch` words it.
fn reason(err: &pdf::Error, opts: &pdf::Options) -> String {
    let hint = match err.kind() {
        pdf::ErrorKind::Damaged(_) if opts.repair => "; --repair could not rebuild it",
        pdf::ErrorKind::Damaged(_) => "; rerun with --repair (repair=True in Python; append-only)",
        pdf::ErrorKind::Certified => {
            "; rerun with --force (force=True) to update anyway, which invalidates the certification"
        }
        pdf::ErrorKind::Xmp(_) if !opts.force => "; rerun with --force (force=True) to replace it",
        pdf::ErrorKind::Signed(..) => "; rerun without the stamp, or with --force (force=True)",
        _ => "",
    };
    let mut text = format!("{err}{hint}");
    let mut cause = std::error::Error::source(err);
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text.replace(['\n', '\r'], " ") + "; copied unchanged"
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
    /// The number written or found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// Whether the member was copied unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub copied: bool,
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
    /// md5 of the input (hex), when [`Options::md5`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub md5_in: Option<String>,
    /// Size of the input.
    pub size_in: u64,
    /// md5 of the output (hex), when [`Options::md5`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub md5: Option<String>,
    /// Size of the output.
    pub size: u64,
}

/// How [`stream`] runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The update's options (time, stamp, repair, force), as for one PDF.
    pub pdf: pdf::Options,
    /// Worker threads for the PDF updates (at least 1).
    pub threads: usize,
    /// Where large members are spooled (default: the system's temporary directory).
    pub spool_dir: Option<PathBuf>,
    /// The name errors and the totals give the tar (its path, or "standard input").
    pub name: String,
    /// Compute the md5 of the input and of the output (for a manifest); it costs about as
    /// much CPU as the rest of the run.
    pub md5: bool,
    /// Set (by a Ctrl-C handler) to stop before the next member: the run then fails with
    /// [`ErrorKind::Interrupted`], and a file output is not written.
    pub stop: Option<Arc<AtomicBool>>,
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
/// `on_member` receives each member's report line in that order. The output is flushed, not
/// synced.
///
/// Memory: at most `threads + 2` members in flight, each at most [`SPOOL_BOUND`] in memory.
///
/// # Errors
/// [`ErrorKind::Header`], [`ErrorKind::Truncated`], [`ErrorKind::Read`] for the input,
/// [`ErrorKind::Write`] for the output, [`ErrorKind::Spool`]. A refused or failed member is
/// not an error: it is copied unchanged and reported.
pub fn stream<R: Read + Send, W: Write>(
    input: R,
    output: W,
    plan: &(dyn Fn(&str) -> Planned + Sync),
    opts: &Options,
    on_member: &mut dyn FnMut(&MemberReport),
) -> Result<Totals, Error> {
    let start = Instant::now();
    let read_error: Mutex<Option<ErrorKind>> = Mutex::new(None);
    let read_sum: Mutex<Option<(Option<String>, u64)>> = Mutex::new(None);
    let mut out = Hashing::new(io::BufWriter::with_capacity(1 << 20, output), opts.md5);
    let mut write_error: Option<io::Error> = None;
    let mut summary = Summary {
        summary: "summary",
        ..Summary::default()
    };
    let mut entries = 0usize;
    let spool = opts.spool_dir.as_deref();
    let threads = opts.threads.max(1);
    crate::record::arxiv::pipeline::ordered(
        threads,
        threads + 2,
        |emit: &mut dyn FnMut(Item) -> bool| {
            let mut r = Hashing::new(BufReader::with_capacity(1 << 20, input), opts.md5);
            let mut offset = 0u64;
            loop {
                if opts
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
                {
                    *read_error.lock().unwrap_or_else(|p| p.into_inner()) =
                        Some(ErrorKind::Interrupted);
                    return;
                }
                match read_entry(&mut r, &mut offset, spool) {
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
                number: None,
                copied: true,
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
                Action::Inject(n) => {
                    let o = process_member(&entry.body, &n, &opts.pdf);
                    report.number = Some(n.full());
                    report.status = o.status;
                    report.reason = o.reason;
                    if let Some((keep, add)) = o.update {
                        report.copied = false;
                        report.bytes_after = keep + add.len() as u64;
                        update = Some((keep, add));
                    } else {
                        report.copied = !matches!(o.status, Status::Unchanged);
                    }
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
        |done: Done| {
            let r = write_done(&mut out, &done);
            if let Err(e) = r {
                write_error = Some(e);
                return false;
            }
            if done.entry.is_some() {
                entries += 1;
            }
            if let Some(rep) = &done.report {
                summary.total += 1;
                summary.add(&super::Outcome {
                    pdf: PathBuf::new(),
                    out: None,
                    status: rep.status,
                    reason: None,
                    number: None,
                    copied: false,
                    bytes_before: 0,
                    bytes_after: 0,
                    ms: 0,
                });
                on_member(rep);
            }
            true
        },
    );
    let err = |kind| Error::new(opts.name.clone(), kind);
    if let Some(e) = write_error {
        return Err(err(ErrorKind::Write(e)));
    }
    if let Some(k) = read_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(err(k));
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

/// Writes one finished entry: as read, or with its new size and the update appended.
fn write_done(out: &mut impl Write, done: &Done) -> io::Result<()> {
    let Some(e) = &done.entry else {
        return out.write_all(&done.end);
    };
    let Some((keep, add)) = &done.update else {
        for m in &e.meta {
            out.write_all(&m.header)?;
            out.write_all(&m.data)?;
            out.write_all(&m.pad)?;
        }
        out.write_all(&e.header[..])?;
        e.body.write_prefix(e.body.len(), out)?;
        return out.write_all(&e.pad);
    };
    let size = keep + add.len() as u64;
    for m in &e.meta {
        match (m.header[156], pax_records(&m.data)) {
            (b'x', Some(recs)) if recs.iter().any(|(k, _, _)| *k == b"size") => {
                let mut data = Vec::with_capacity(m.data.len() + 8);
                for (k, _, rec) in recs {
                    if k == b"size" {
                        data.extend_from_slice(&pax_record("size", &size.to_string()));
                    } else {
                        data.extend_from_slice(rec);
                    }
                }
                let mut h = m.header;
                set_size(&mut h, data.len() as u64);
                set_checksum(&mut h);
                out.write_all(&h)?;
                out.write_all(&data)?;
                out.write_all(&zeros(padding(data.len() as u64)))?;
            }
            _ => {
                out.write_all(&m.header)?;
                out.write_all(&m.data)?;
                out.write_all(&m.pad)?;
            }
        }
    }
    let mut h = *e.header;
    set_size(&mut h, size);
    set_checksum(&mut h);
    out.write_all(&h)?;
    e.body.write_prefix(*keep, out)?;
    out.write_all(add)?;
    out.write_all(&zeros(padding(size)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_fields() {
        assert_eq!(parse_number(b"00000001750\0"), Some(0o1750));
        assert_eq!(parse_number(b"   1750 \0\0\0\0"), Some(0o1750));
        assert_eq!(parse_number(b"\0\0\0\0\0\0\0\0\0\0\0\0"), Some(0));
        assert_eq!(parse_number(b"0000x001750\0"), None);
        let mut h = [0u8; BLOCK];
        set_size(&mut h, 8u64.pow(11) + 5);
        assert_eq!(parse_number(&h[124..136]), Some(8u64.pow(11) + 5));
        let mut h = [0u8; BLOCK];
        h[135] = b' ';
        set_size(&mut h, 1234);
        assert_eq!(&h[124..136], b"00000002322 ");
        set_checksum(&mut h);
        let (u, _) = checksums(&h);
        assert_eq!(parse_number(&h[148..156]), Some(u));
    }

    #[test]
    fn pax_records_round_trip() {
        for v in ["9", "99999", "123456789012"] {
            let r = pax_record("size", v);
            let recs = pax_records(&r).unwrap();
            assert_eq!(recs.len(), 1);
            assert_eq!((recs[0].0, recs[0].1), (&b"size"[..], v.as_bytes()));
        }
        // Lengths that cross a digit boundary count their own digits.
        assert_eq!(pax_record("path", &"a".repeat(90)).len(), 99);
        let r = pax_record("path", &"a".repeat(91));
        assert_eq!(r.len(), 101);
        assert!(r.starts_with(b"101 path="));
        assert!(pax_records(b"5 a=b\n").is_none());
        assert!(pax_records(b"x a=b\n").is_none());
    }

    #[test]
    fn yymm() {
        assert_eq!(yymm_of("2402.03791"), Some("2402"));
        assert_eq!(yymm_of("hep-th/0001001"), Some("0001"));
        assert_eq!(yymm_of("x"), None);
    }
}
