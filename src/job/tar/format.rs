//! The tar format: reading header blocks (ustar, GNU long names, pax extended
//! headers), member data (in memory, or spooled past [`SPOOL_BOUND`], or left where it lies in a
//! tar that is a regular file) and padding exactly as they are, and writing an entry back either byte for byte or with a new size: the size field and the
//! checksum rewritten, and the `size` record of a pax header (with that header's own size and
//! checksum). Nothing else of a header is re-encoded. No PDF knowledge here.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use super::body::{Body, TarOut};
use super::buffers::Buffers;
use super::{Error, ErrorKind, SPOOL_BOUND};
use crate::stream::read_full;

/// A tar block.
const BLOCK: usize = 512;

/// Most bytes kept after a tar's end-of-archive (written back as they were).
const TRAILER_BOUND: u64 = 16 << 20;

/// Largest pax or GNU long-name header data accepted (they hold a few names and numbers).
const META_BOUND: u64 = 1 << 20;

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
pub(crate) struct Entry {
    meta: Vec<Meta>,
    header: Box<[u8; BLOCK]>,
    pub(crate) name: String,
    pub(crate) body: Body,
    pad: Vec<u8>,
}

impl Entry {
    /// A regular file (`0`, NUL, or contiguous `7`).
    pub(crate) fn is_file(&self) -> bool {
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
/// What the reader found next.
pub(crate) enum Next {
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

/// A writer that hashes (SHA-1) what it passes on to a file.
struct Hashed<'a> {
    file: &'a mut File,
    hash: sha1::Sha1,
}

impl Write for Hashed<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        sha1::Digest::update(&mut self.hash, &buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Reads the next entry (data in memory, or spooled past [`SPOOL_BOUND`]).
pub(crate) fn read_entry(
    r: &mut impl Read,
    offset: &mut u64,
    spool_dir: Option<&Path>,
    buffers: &Buffers,
) -> Result<Next, ErrorKind> {
    let Head {
        meta,
        header,
        name,
        size,
    } = match next_head(r, offset)? {
        Ok(h) => h,
        Err(end) => return Ok(end),
    };
    let truncated = || ErrorKind::Truncated {
        member: name.clone(),
    };
    let body = if size <= SPOOL_BOUND {
        let mut data = buffers.take(size as usize);
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
        // Hashed as the bytes go to the file: a large member is read from the archive once.
        let mut to = Hashed {
            file: &mut f,
            hash: sha1::Sha1::default(),
        };
        let n = io::copy(&mut r.take(size), &mut to).map_err(|e| match e.kind() {
            io::ErrorKind::WriteZero | io::ErrorKind::StorageFull => ErrorKind::Spool(e),
            _ => ErrorKind::Read(e),
        })?;
        *offset += n;
        if n != size {
            return Err(truncated());
        }
        let sha1 = data_encoding::BASE32.encode(&sha1::Digest::finalize(to.hash));
        Body::Spool(f, sha1)
    };
    let pad = read_pad(r, offset, size, &name)?;
    Ok(Next::Entry(Entry {
        meta,
        header,
        name,
        body,
        pad,
    }))
}

/// Reads the next entry of a tar that is a regular file of `len` bytes, read through `r`
/// (at `offset`): headers and padding are read, a member's data is left where it lies
/// ([`Body::At`] in `file`) and read past. A member that ends past `len` is cut off, as a
/// stream that ends inside it is.
pub(crate) fn read_entry_at(
    r: &mut BufReader<File>,
    file: &Arc<File>,
    len: u64,
    offset: &mut u64,
) -> Result<Next, ErrorKind> {
    let h = match next_head(r, offset)? {
        Ok(h) => h,
        Err(end) => return Ok(end),
    };
    let (meta, header, name, size) = (h.meta, h.header, h.name, h.size);
    let at = *offset;
    if len.saturating_sub(at) < size {
        return Err(ErrorKind::Truncated { member: name });
    }
    let skip = i64::try_from(size).map_err(|_| ErrorKind::Truncated {
        member: name.clone(),
    })?;
    r.seek_relative(skip).map_err(ErrorKind::Read)?;
    *offset += size;
    let pad = read_pad(r, offset, size, &name)?;
    Ok(Next::Entry(Entry {
        meta,
        header,
        name,
        body: Body::At(Arc::clone(file), at, size),
        pad,
    }))
}

/// The next entry's head, or the end-of-archive with what follows it.
fn next_head(r: &mut impl Read, offset: &mut u64) -> Result<Result<Head, Next>, ErrorKind> {
    Ok(match read_head(r, offset)? {
        Ok(h) => Ok(h),
        Err(end) => Err(read_trailer(r, offset, end)?),
    })
}

/// The padding after a member of `size` bytes named `name`, as it is.
fn read_pad(
    r: &mut impl Read,
    offset: &mut u64,
    size: u64,
    name: &str,
) -> Result<Vec<u8>, ErrorKind> {
    let mut pad = vec![0u8; padding(size)];
    let n = read_full(r, &mut pad).map_err(ErrorKind::Read)?;
    *offset += n as u64;
    if n != pad.len() {
        return Err(ErrorKind::Truncated {
            member: name.to_owned(),
        });
    }
    Ok(pad)
}

/// What follows the end-of-archive, kept to be written back as it was: zero blocks up to
/// the archive's record size, real tars a few KiB. More than [`TRAILER_BOUND`] is refused
/// rather than held.
fn read_trailer(r: &mut impl Read, offset: &mut u64, mut end: Vec<u8>) -> Result<Next, ErrorKind> {
    let at = *offset;
    *offset += r
        .take(TRAILER_BOUND + 1)
        .read_to_end(&mut end)
        .map_err(ErrorKind::Read)? as u64;
    if end.len() as u64 > TRAILER_BOUND {
        return Err(ErrorKind::Header {
            offset: at,
            reason: format!(
                "more than {} MiB follow the end-of-archive",
                TRAILER_BOUND >> 20
            ),
        });
    }
    Ok(Next::End(end))
}

/// What [`read_wanted`] found next.
pub(crate) enum Wanted {
    /// A member `want` asked for, its data in memory.
    Member(String, Vec<u8>),
    /// A member read past without being held (its data skipped, counted by the reader).
    Skipped,
    /// The end-of-archive (what follows it is not read).
    End,
}

/// Reads the next entry, holding its data only when `want` asks for it and its size is at
/// most `max`; every other member's data is read past into nothing, so a member
/// of any size costs no memory and no temporary file. What the archive decompresses to is the
/// caller's to bound (a [`crate::bounded::Reader`] under `r`).
pub(crate) fn read_wanted(
    r: &mut impl Read,
    offset: &mut u64,
    max: u64,
    want: &dyn Fn(&Entry0) -> bool,
) -> Result<Wanted, ErrorKind> {
    let head = match read_head(r, offset)? {
        Ok(h) => h,
        Err(_) => return Ok(Wanted::End),
    };
    let truncated = || ErrorKind::Truncated {
        member: head.name.clone(),
    };
    let e = Entry0 {
        name: &head.name,
        flag: head.header[156],
    };
    let keep = head.size <= max && want(&e);
    let data = if keep {
        let mut data = vec![0u8; head.size as usize];
        let n = read_full(r, &mut data).map_err(ErrorKind::Read)?;
        *offset += n as u64;
        if n != data.len() {
            return Err(truncated());
        }
        Some(data)
    } else {
        let n = io::copy(&mut r.take(head.size), &mut io::sink()).map_err(ErrorKind::Read)?;
        *offset += n;
        if n != head.size {
            return Err(truncated());
        }
        None
    };
    let pad = padding(head.size) as u64;
    let n = io::copy(&mut r.take(pad), &mut io::sink()).map_err(ErrorKind::Read)?;
    *offset += n;
    if n != pad {
        return Err(truncated());
    }
    Ok(match data {
        Some(d) => Wanted::Member(head.name, d),
        None => Wanted::Skipped,
    })
}

/// A member's header as [`read_wanted`] shows it to the caller's choice.
pub(crate) struct Entry0<'a> {
    /// Its name.
    pub name: &'a str,
    flag: u8,
}

impl Entry0<'_> {
    /// Whether it is a regular file.
    pub fn is_file(&self) -> bool {
        matches!(self.flag, b'0' | 0 | b'7')
    }
}

/// The names of the regular files in the tar `file`, read from its headers alone (the data is
/// skipped with seeks): what a run needs to know before the metadata pass.
///
/// # Errors
/// As [`super::stream`]'s reading errors.
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
/// Writes an entry: as read, or with its new size and `update` (the length of the data to
/// keep, the bytes to append) applied.
pub(super) fn write_entry(
    out: &mut impl TarOut,
    e: &Entry,
    update: Option<&(u64, Vec<u8>)>,
) -> io::Result<()> {
    let Some((keep, add)) = update else {
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
    fn what_follows_the_end_of_archive_is_bounded() {
        let mut offset = 0;
        let short = vec![0u8; 10240];
        match read_entry(&mut &short[..], &mut offset, None, &Buffers::default()) {
            Ok(Next::End(end)) => assert_eq!(end.len(), 10240),
            _ => panic!("the end-of-archive and its padding"),
        }
        let long = std::io::repeat(0).take(TRAILER_BOUND + 4096);
        let mut offset = 0;
        assert!(matches!(
            read_entry(&mut { long }, &mut offset, None, &Buffers::default()),
            Err(ErrorKind::Header { .. })
        ));
    }

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
}
