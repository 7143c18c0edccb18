//! Classic cross-reference tables (ISO 32000-2 §7.5.4), read two ways:
//!
//! - **Indexed** ([`Indexed`]): a conforming table is a run of subsections, each a
//!   header line `first count` and `count` entries of exactly 20 bytes, so the entry of any
//!   object sits at a computable offset. Opening the table walks the subsection headers only
//!   (one jump of `count × 20` bytes each) and entries are read when asked for. A table of a
//!   million objects costs a few reads, not 20 MB.
//! - **Whole** ([`parse_whole`]): entries of other lengths (19-byte entries, junk after the
//!   flag, as qpdf tolerates), and every table when each entry is to be checked
//!   ([`super::Check::Full`]).
//!
//! A table is indexed only when its layout proves regular: each subsection's first and last
//! entries parse, and right after the last one comes the next header or `trailer`. Anything
//! else falls back to the whole read, which tolerates more and names the damage it finds.

use super::damaged;
use super::entry::{Entry, Section};
use super::source::{parse_growing, read_window, ReadAt};
use crate::budget::Limits;
use crate::syntax::{is_white, Dict, SyntaxError};
use crate::Error;

/// Length of a conforming entry: `nnnnnnnnnn ggggg n` and a two-byte end of line.
pub(crate) const ENTRY: u64 = 20;
/// Most subsections an indexed table may have (more, and reading it whole is as cheap).
const MAX_SUBSECTIONS: usize = 1 << 16;
/// The window read while walking subsection headers.
const WALK_WINDOW: usize = 4096;
/// Tables up to this size are kept in memory once walked (most papers' tables are a few KB).
const HELD: u64 = 64 << 10;

/// One subsection of an indexed table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sub {
    /// First object number.
    first: u32,
    /// Number of entries.
    count: u32,
    /// Position in the file of the first entry.
    at: u64,
}

/// A classic table whose entries are read on demand (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Indexed {
    subs: Vec<Sub>,
    /// Subsections in increasing, non-overlapping order (then found by binary search).
    sorted: bool,
    /// In-use entries of a hybrid file's `/XRefStm` (§7.5.8.4): they come after the
    /// table's in-use entries and before its free ones.
    pub(crate) hybrid: Section,
    /// A small table's bytes and their position, kept from the walk: reading them once costs
    /// less than a read per entry.
    held: Option<(u64, Vec<u8>)>,
}

impl Indexed {
    /// Walks the table whose `xref` keyword is at `pos`: returns the index and the position
    /// of `trailer`, or `None` when the layout is not regular (read it whole then).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Io`] only: irregular layouts are `Ok(None)`.
    pub(crate) fn walk<R: ReadAt + ?Sized>(
        src: &R,
        pos: u64,
        len: u64,
    ) -> Result<Option<(Indexed, u64)>, Error> {
        let mut win = Window::new(WALK_WINDOW);
        win.get(src, pos, 4)?; // the window starts at `xref`: a small table is read once
        let mut at = pos + 4; // past `xref`
        let mut subs = Vec::new();
        loop {
            let w = win.get(src, at, 64)?;
            let skip = w.iter().take_while(|&&b| is_white(b)).count();
            let w = &w[skip..];
            at += skip as u64;
            if w.starts_with(b"trailer") {
                break;
            }
            let Some((first, count, header)) = header(w) else {
                return Ok(None);
            };
            let entries_at = at + header as u64;
            let (Ok(first), Ok(count)) = (u32::try_from(first), u32::try_from(count)) else {
                return Ok(None);
            };
            if first.checked_add(count).is_none()
                || entries_at + u64::from(count) * ENTRY > len
                || subs.len() >= MAX_SUBSECTIONS
            {
                return Ok(None);
            }
            if count > 0 {
                let last = entries_at + u64::from(count - 1) * ENTRY;
                for p in [entries_at, last] {
                    if parse_entry(win.get(src, p, ENTRY as usize)?).is_none() {
                        return Ok(None);
                    }
                }
                subs.push(Sub {
                    first,
                    count,
                    at: entries_at,
                });
            }
            at = entries_at + u64::from(count) * ENTRY;
        }
        let sorted = subs
            .windows(2)
            .all(|w| u64::from(w[0].first) + u64::from(w[0].count) <= u64::from(w[1].first));
        let held = if at - pos <= HELD {
            let bytes = win.get(src, pos, (at - pos) as usize)?.to_vec();
            // A table small enough to hold is checked entry by entry: one entry of another
            // length in the middle shifts those after it, and the whole read, which
            // tolerates that, must then read it (as the full check does), not the index.
            let regular = subs.iter().all(|s| {
                (0..u64::from(s.count)).all(|k| {
                    let from = (s.at - pos + k * ENTRY) as usize;
                    bytes
                        .get(from..from + ENTRY as usize)
                        .and_then(|e| parse_entry(e).or_else(|| parse_entry_with_junk(e)))
                        .is_some()
                })
            });
            if !regular {
                return Ok(None);
            }
            Some((pos, bytes))
        } else {
            None
        };
        Ok(Some((
            Indexed {
                subs,
                sorted,
                hybrid: Section::default(),
                held,
            },
            at,
        )))
    }

    /// Whether the table (or its `/XRefStm`) has an entry for `num`, in use or free: then
    /// older sections do not count for it.
    pub(crate) fn covers(&self, num: u32) -> bool {
        self.hybrid.covers(num) || self.subs_of(num).next().is_some()
    }

    /// Whether an object may have entries in two subsections: they are not in increasing,
    /// non-overlapping order. Then the entry read at a position may be one that an earlier
    /// subsection's entry overrides ([`Indexed::get`] decides).
    pub(crate) fn may_repeat(&self) -> bool {
        !self.sorted
    }

    /// The object numbers of the subsections, `start..end`.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.subs.iter().map(|s| (s.first, s.first + s.count))
    }

    /// Largest object number with an entry.
    pub(crate) fn max_num(&self) -> Option<u32> {
        let subs = self.subs.iter().map(|s| s.first + (s.count - 1));
        subs.chain(self.hybrid.max_num()).max()
    }

    /// Number of entries in the table.
    pub(crate) fn len(&self) -> u64 {
        self.subs.iter().map(|s| u64::from(s.count)).sum()
    }

    /// The object number and the entry position of the table's `k`th entry.
    pub(crate) fn nth(&self, mut k: u64) -> Option<(u32, u64)> {
        for s in &self.subs {
            if k < u64::from(s.count) {
                return Some((s.first + k as u32, s.at + k * ENTRY));
            }
            k -= u64::from(s.count);
        }
        None
    }

    /// The entry of object `num` at `at`: from the held bytes of a small table, else read
    /// through `win` (entries read in order share its reads).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Damaged`] when it does not parse, and I/O errors.
    pub(crate) fn read<R: ReadAt + ?Sized>(
        &self,
        win: &mut Window,
        src: &R,
        at: u64,
        num: u32,
    ) -> Result<Entry, Error> {
        let held = self.held.as_ref().and_then(|(base, bytes)| {
            let from = usize::try_from(at.checked_sub(*base)?).ok()?;
            bytes.get(from..from + ENTRY as usize)
        });
        let bytes = match held {
            Some(b) => b,
            None => win.get(src, at, ENTRY as usize)?,
        };
        entry_from(bytes, at, num)
    }

    fn subs_of(&self, num: u32) -> impl Iterator<Item = &Sub> {
        let inside = move |s: &&Sub| num >= s.first && num - s.first < s.count;
        let range = if self.sorted {
            let i = self
                .subs
                .partition_point(|s| u64::from(s.first) + u64::from(s.count) <= u64::from(num));
            &self.subs[i..(i + 1).min(self.subs.len())]
        } else {
            &self.subs[..]
        };
        range.iter().filter(inside)
    }

    /// The entry for `num`: the table's in-use entry, else the `/XRefStm`'s, else the
    /// table's free entry; `None` when neither has one.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Damaged`] for an entry that does not parse, and I/O errors.
    pub(crate) fn get<R: ReadAt + ?Sized>(
        &self,
        src: &R,
        num: u32,
    ) -> Result<Option<Entry>, Error> {
        let mut free = false;
        let mut win = Window::new(ENTRY as usize);
        for s in self.subs_of(num) {
            let at = s.at + u64::from(num - s.first) * ENTRY;
            match self.read(&mut win, src, at, num)? {
                e @ Entry::Offset(..) => return Ok(Some(e)),
                _ => free = true,
            }
        }
        if let Some(e) = self.hybrid.get(num) {
            return Ok(Some(e));
        }
        Ok(free.then_some(Entry::Free))
    }
}

/// Parses the entry of object `num` read at `at`.
///
/// # Errors
/// [`crate::ErrorKind::Damaged`] when it does not parse.
fn entry_from(bytes: &[u8], at: u64, num: u32) -> Result<Entry, Error> {
    let (off, gen, used) = parse_entry(bytes)
        .or_else(|| parse_entry_with_junk(bytes))
        .ok_or_else(|| {
            damaged(
                format!("the cross-reference entry of object {num} is malformed"),
                at,
            )
        })?;
    Ok(if used && off > 0 {
        Entry::Offset(off, gen.min(65535) as u16)
    } else {
        Entry::Free
    })
}

/// Parses an entry with a junk byte after its flag whose line still ends at the entry's 20th
/// byte (`0000000697 00000 n0` and a line feed): the whole read tolerates junk after the flag up
/// to the end of the line, as qpdf does, and the layout stays regular, so the indexed read
/// takes it alike (the full and the sampled checks then agree on the file).
fn parse_entry_with_junk(b: &[u8]) -> Option<(u64, u64, bool)> {
    let b = b.get(..ENTRY as usize)?;
    if !matches!(b[19], b'\r' | b'\n') {
        return None;
    }
    let mut e = [0u8; ENTRY as usize];
    e.copy_from_slice(b);
    e[18] = b' ';
    parse_entry(&e)
}

/// Parses a subsection header `first count` and the end of its line; returns the numbers and
/// the length of the header (where the first entry starts).
fn header(w: &[u8]) -> Option<(u64, u64, usize)> {
    let digits = |from: usize| w[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let a = digits(0);
    let mut i = a;
    let spaces = w[i..].iter().take_while(|&&b| b == b' ').count();
    i += spaces;
    let b = digits(i);
    if a == 0 || a > 10 || spaces == 0 || b == 0 || b > 10 {
        return None;
    }
    let first = std::str::from_utf8(&w[..a]).ok()?.parse().ok()?;
    let count = std::str::from_utf8(&w[i..i + b]).ok()?.parse().ok()?;
    i += b;
    // Spaces, then one end of line (CR, LF or CR LF); entries follow at once.
    i += w[i..].iter().take_while(|&&c| c == b' ').count();
    match w.get(i..i + 2) {
        Some([b'\r', b'\n']) => i += 2,
        Some([b'\r' | b'\n', _]) => i += 1,
        _ => return None,
    }
    Some((first, count, i))
}

/// Parses one 20-byte entry: `nnnnnnnnnn ggggg f` or `… n`, then two bytes of white space.
pub(crate) fn parse_entry(b: &[u8]) -> Option<(u64, u64, bool)> {
    let b = b.get(..ENTRY as usize)?;
    let num = |s: &[u8]| {
        s.iter().try_fold(0u64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + u64::from(c - b'0'))
        })
    };
    let used = match b[17] {
        b'n' => true,
        b'f' => false,
        _ => return None,
    };
    let eol = |c: u8| matches!(c, b' ' | b'\r' | b'\n');
    if b[10] != b' ' || b[16] != b' ' || !eol(b[18]) || !eol(b[19]) {
        return None;
    }
    Some((num(&b[..10])?, num(&b[11..16])?, used))
}

/// Reads the whole table at `pos` (tolerant: any entry length, junk after the flag, as qpdf
/// reads them). Returns `(number, offset, generation, in use)` for each entry in order, the
/// trailer dictionary and the buffer it was parsed from (its spans index into it).
///
/// # Errors
/// [`crate::ErrorKind::Damaged`] when the table does not parse.
#[allow(clippy::type_complexity)]
pub(crate) fn parse_whole<R: ReadAt + ?Sized>(
    src: &R,
    pos: u64,
) -> Result<((Vec<(u32, u64, u64, bool)>, Dict), Vec<u8>), Error> {
    parse_growing(src, pos, Limits::default().nesting, |p| {
        p.keyword(b"xref")?;
        let mut found = Vec::new();
        loop {
            p.skip_ws();
            let save = p.pos;
            if p.keyword(b"trailer").is_ok() {
                break;
            }
            p.pos = save;
            let start = p.uint()?;
            let count = p.uint()?;
            for i in 0..count {
                let off = p.uint()?;
                let gen = p.uint()?;
                p.skip_ws();
                let at = p.pos;
                let kind = match p.byte_at(at) {
                    Some(b'n') => true,
                    Some(b'f') => false,
                    Some(_) => return Err(SyntaxError::Invalid(at)),
                    None => return Err(SyntaxError::Eof),
                };
                p.pos += 1;
                // Tolerate junk after the n/f flag up to the end of the line, as qpdf does.
                while let Some(b) = p.byte_at(p.pos) {
                    if b == b'\r' || b == b'\n' {
                        break;
                    }
                    p.pos += 1;
                }
                let num = start + i;
                if num <= u64::from(u32::MAX) {
                    found.push((num as u32, off, gen, kind));
                }
            }
        }
        let d = p.dict()?;
        Ok((found, d))
    })
    .map_err(|e| e.context_msg("cross-reference table"))
}

/// Parses the `trailer` dictionary at `pos`; returns it and the buffer it was parsed from.
///
/// # Errors
/// [`crate::ErrorKind::Damaged`] when it does not parse.
pub(crate) fn parse_trailer<R: ReadAt + ?Sized>(
    src: &R,
    pos: u64,
) -> Result<(Dict, Vec<u8>), Error> {
    parse_growing(src, pos, Limits::default().nesting, |p| {
        p.keyword(b"trailer")?;
        p.dict()
    })
    .map_err(|e| e.context_msg("trailer"))
}

/// A window of the file kept while reading forward (headers, sampled entries), re-read when
/// a request falls outside it.
pub(crate) struct Window {
    base: u64,
    buf: Vec<u8>,
    size: usize,
}

impl Window {
    /// A window that reads `size` bytes at a time.
    pub(crate) fn new(size: usize) -> Self {
        Window {
            base: 0,
            buf: Vec::new(),
            size,
        }
    }

    /// Up to `n` bytes at `at` (fewer at the end of the file).
    pub(crate) fn get<R: ReadAt + ?Sized>(
        &mut self,
        src: &R,
        at: u64,
        n: usize,
    ) -> Result<&[u8], Error> {
        let inside = at >= self.base && at + n as u64 <= self.base + self.buf.len() as u64;
        if !inside {
            self.base = at;
            self.buf = read_window(src, at, self.size.max(n))?;
        }
        let from = (at - self.base) as usize;
        Ok(&self.buf[from..(from + n).min(self.buf.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junk_after_the_flag_is_read_as_the_whole_read_does() {
        let e = entry_from(b"0000000697 00000 n0\n", 0, 7).unwrap();
        assert!(matches!(e, Entry::Offset(697, 0)));
        // Junk up to the next entry is no end of line: still malformed.
        assert!(entry_from(b"0000000697 00000 n00", 0, 7).is_err());
    }

    #[test]
    fn entries_parse_exactly() {
        assert_eq!(
            parse_entry(b"0000012345 00002 n\r\n"),
            Some((12345, 2, true))
        );
        assert_eq!(
            parse_entry(b"0000000000 65535 f \n"),
            Some((0, 65535, false))
        );
        for bad in [
            &b"0000012345 00002 n\n"[..],
            b"000001234x 00002 n\r\n",
            b"0000012345 00002 x\r\n",
            b"0000012345  0002 n\r\n",
            b"0000012345 00002 nx\n",
        ] {
            assert_eq!(parse_entry(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn headers_end_with_one_line_end() {
        assert_eq!(header(b"0 12\r\n0000"), Some((0, 12, 6)));
        assert_eq!(header(b"7 1 \n0000"), Some((7, 1, 5)));
        assert_eq!(header(b"7 1\r0000"), Some((7, 1, 4)));
        assert_eq!(header(b"7\n1\n0000"), None);
        assert_eq!(header(b"trailer"), None);
    }

    fn table(subs: &[(u32, &[(u64, bool)])], eol: &str) -> Vec<u8> {
        let mut t = b"xref\n".to_vec();
        for (first, es) in subs {
            t.extend_from_slice(format!("{first} {}\n", es.len()).as_bytes());
            for (off, used) in *es {
                let flag = if *used { 'n' } else { 'f' };
                t.extend_from_slice(format!("{off:010} 00000 {flag}{eol}").as_bytes());
            }
        }
        t.extend_from_slice(b"trailer\n<< /Size 9 >>\n");
        t
    }

    #[test]
    fn regular_tables_are_indexed_and_read_on_demand() {
        let t = table(
            &[
                (0, &[(0, false), (100, true)]),
                (5, &[(300, true), (0, false)]),
            ],
            "\r\n",
        );
        let (ix, trailer) = Indexed::walk(&t[..], 0, t.len() as u64).unwrap().unwrap();
        assert!(t[trailer as usize..].starts_with(b"trailer"));
        assert!(ix.sorted);
        assert_eq!(ix.len(), 4);
        assert_eq!(ix.max_num(), Some(6));
        assert_eq!(ix.get(&t[..], 1).unwrap(), Some(Entry::Offset(100, 0)));
        assert_eq!(ix.get(&t[..], 5).unwrap(), Some(Entry::Offset(300, 0)));
        assert_eq!(ix.get(&t[..], 6).unwrap(), Some(Entry::Free));
        assert_eq!(ix.get(&t[..], 3).unwrap(), None);
        assert!(ix.covers(0) && !ix.covers(2));
        assert_eq!(ix.nth(2).map(|(n, _)| n), Some(5));
    }

    #[test]
    fn irregular_tables_are_left_to_the_whole_read() {
        // 19-byte entries (a single LF after the flag).
        let t = table(&[(0, &[(0, false), (100, true), (200, true)])], "\n");
        assert!(Indexed::walk(&t[..], 0, t.len() as u64).unwrap().is_none());
        let ((found, trailer), _) = parse_whole(&t[..], 0).unwrap();
        assert_eq!(found.len(), 3);
        assert!(trailer.get(b"Size").is_some());
        // A count larger than the table.
        let mut t = table(&[(0, &[(0, false), (100, true)])], "\r\n");
        t[7] = b'9';
        assert!(Indexed::walk(&t[..], 0, t.len() as u64).unwrap().is_none());
    }

    #[test]
    fn overlapping_subsections_take_the_first_in_use_entry() {
        let t = table(
            &[
                (3, &[(0, false)]),
                (1, &[(10, true), (20, true), (30, true)]),
            ],
            "\r\n",
        );
        let (ix, _) = Indexed::walk(&t[..], 0, t.len() as u64).unwrap().unwrap();
        assert!(!ix.sorted);
        assert_eq!(ix.get(&t[..], 3).unwrap(), Some(Entry::Offset(30, 0)));
        assert_eq!(ix.get(&t[..], 1).unwrap(), Some(Entry::Offset(10, 0)));
    }

    #[test]
    fn a_bad_entry_inside_a_regular_table_is_damage_when_read() {
        // A table too large to hold: its entries are read when asked for.
        let mut es: Vec<(u64, bool)> = vec![(0, false)];
        es.extend((1..4_000).map(|n| (n * 100, true)));
        let mut t = table(&[(0, &es)], "\r\n");
        let second = t.windows(10).position(|w| w == b"0000000200").unwrap();
        t[second + 3] = b'x';
        let (ix, _) = Indexed::walk(&t[..], 0, t.len() as u64).unwrap().unwrap();
        assert_eq!(ix.get(&t[..], 3).unwrap(), Some(Entry::Offset(300, 0)));
        let e = ix.get(&t[..], 2).unwrap_err();
        assert!(
            e.to_string().contains("entry of object 2 is malformed"),
            "{e}"
        );
    }

    #[test]
    fn a_small_table_with_an_entry_of_another_length_is_read_whole() {
        // The fuzzer's file: a 21-byte entry, then a 19-byte one, inside a table whose first
        // and last entries are regular. The index would misread the middle; the whole read,
        // which the full check uses, reads it.
        let t = b"xref\n0 4\n0000000000 65535 f \n0000000135 00000 n 0\n000000307 00000 n \n0000000403 00000 n \ntrailer\n<< /Size 4 >>\n";
        assert!(Indexed::walk(&t[..], 0, t.len() as u64).unwrap().is_none());
        let ((found, _), _) = parse_whole(&t[..], 0).unwrap();
        assert_eq!(found[2], (2, 307, 0, true));
    }
}
