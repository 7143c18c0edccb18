//! Checking the xref against the file before anything is appended to it:
//! in-use entries must point at their objects. [`Check::Sampled`] reads a bounded spread of
//! object headers; [`Check::Full`] reads them all (`pith inspect --deep`).

use std::collections::HashSet;

use super::entry::{Entry, RangeSet};
use super::source::{read_window, ReadAt};
use super::table::Window;
use super::xref::Layer;
use super::{damaged, Check, Pdf};
use crate::syntax::Parser;
use crate::Error;

impl<R: ReadAt> Pdf<R> {
    /// Checks the xref against the file.
    ///
    /// - Decoded sections (xref streams, tables read whole): every entry that decides its
    ///   object lies inside the file, every compressed object's stream is an in-use object,
    ///   and the entries `check` selects (all, or the spread [`sample`] by position) start
    ///   with their `N G obj`.
    /// - Indexed tables (read on demand): a spread of their entries by rank in the
    ///   table, the first and last [`SAMPLE_ENDS`] and [`SAMPLE_SPREAD`] between, each the
    ///   first in-use entry at or after its rank, must lie inside the file and start with
    ///   their headers.
    ///
    /// Headers are checked in file order, so the first bad one reported is the first in the
    /// file.
    pub(super) fn check_offsets(&self, check: Check) -> Result<(), Error> {
        let mut decided: Vec<(u32, Entry)> = Vec::new();
        // The numbers newer sections have entries for: in-use ones of decoded sections by
        // number, the rest as ranges (a section of millions of free entries, an indexed
        // table's subsections). Each section adds its own once, so a chain of thousands of
        // updates costs what its entries do, not entries times sections.
        let mut seen: HashSet<u32> = HashSet::new();
        let mut covered = RangeSet::default();
        for (i, layer) in self.layers.iter().enumerate() {
            self.budget.check()?;
            // The oldest section shadows nothing (a file never updated keeps no set).
            let last = i + 1 == self.layers.len();
            match layer {
                Layer::Map(m) => {
                    for (num, e) in m.used() {
                        if !seen.contains(&num) && !covered.contains(num) {
                            decided.push((num, e));
                        }
                    }
                    if last {
                        break;
                    }
                    seen.extend(m.used().map(|(n, _)| n));
                    for (s, e) in m.free_ranges() {
                        covered.insert(s, e);
                    }
                }
                Layer::Table(t) => {
                    for (s, e) in t.ranges() {
                        covered.insert(s, e);
                    }
                    seen.extend(t.hybrid.used().map(|(n, _)| n));
                    for (s, e) in t.hybrid.free_ranges() {
                        covered.insert(s, e);
                    }
                }
            }
        }
        decided.sort_unstable_by_key(|&(num, _)| num);
        let mut at: Vec<(u64, u32, u16)> = Vec::new();
        for (num, e) in decided {
            match e {
                Entry::Offset(_, _) if self.xref_streams.contains(&num) => {}
                Entry::Offset(off, gen) => at.push(self.inside(num, off, gen)?),
                Entry::InStream(stm, _) => {
                    if !matches!(self.entry(stm)?, Some(Entry::Offset(..))) {
                        return Err(damaged(
                            format!("object {num} lies in object stream {stm}, which is missing"),
                            self.startxref,
                        ));
                    }
                }
                Entry::Free => {}
            }
        }
        at.sort_unstable();
        let (mut headers, window) = match check {
            Check::Full => (at, FULL_WINDOW),
            Check::Sampled => (sample(&at), SAMPLE_WINDOW),
        };
        headers.extend(self.sample_tables()?);
        headers.sort_unstable();
        headers.dedup();
        self.check_headers(&headers, window)
    }

    /// The position of an in-use entry, refused when it lies past the end of the file.
    fn inside(&self, num: u32, off: u64, gen: u16) -> Result<(u64, u32, u16), Error> {
        let pos = off.saturating_add(self.delta);
        if pos >= self.len {
            return Err(damaged(
                format!("object {num} {gen} lies past the end of the file"),
                pos,
            ));
        }
        Ok((pos, num, gen))
    }

    /// The sampled entries of the indexed tables (see [`Pdf::check_offsets`]). Past the
    /// sixteenth table of a long chain of updates, each table gives its two end entries.
    fn sample_tables(&self) -> Result<Vec<(u64, u32, u16)>, Error> {
        let mut out = Vec::new();
        let mut tables = 0;
        for (i, layer) in self.layers.iter().enumerate() {
            let Layer::Table(t) = layer else { continue };
            tables += 1;
            let (ends, spread) = if tables <= 16 {
                (SAMPLE_ENDS, SAMPLE_SPREAD)
            } else {
                (1, 0)
            };
            let n = t.len();
            let newer = &self.layers[..i];
            let mut win = Window::new(ENTRY_WINDOW);
            for k in ranks(n, ends, spread) {
                for k in k..(k + PROBES).min(n) {
                    let Some((num, pos)) = t.nth(k) else { break };
                    let e = t.read(&mut win, &self.src, pos, num)?;
                    let Entry::Offset(off, gen) = e else {
                        continue;
                    };
                    // An entry another subsection overrides is not the object's: the full
                    // check, which reads the table whole, does not look at it either.
                    if t.may_repeat() && t.get(&self.src, num)? != Some(e) {
                        continue;
                    }
                    if !self.xref_streams.contains(&num) && !newer.iter().any(|l| l.covers(num)) {
                        out.push(self.inside(num, off, gen)?);
                    }
                    break;
                }
            }
        }
        Ok(out)
    }

    /// Checks that the in-use objects `nums` (direct ones; compressed ones are checked when
    /// fetched) start where the xref says. Used for the objects an update references.
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`](crate::ErrorKind::Damaged) naming the first one that
    /// does not.
    pub fn check_objects(&self, nums: &[u32]) -> Result<(), Error> {
        let mut at = Vec::with_capacity(nums.len());
        for &n in nums {
            if let Some(Entry::Offset(off, gen)) = self.entry(n)? {
                if !self.xref_streams.contains(&n) {
                    at.push((off.saturating_add(self.delta), n, gen));
                }
            }
        }
        at.sort_unstable();
        at.dedup();
        self.check_headers(&at, SAMPLE_WINDOW)
    }

    /// Reads the object headers at `at` (sorted positions), merging neighbours closer than
    /// `window` into one read.
    fn check_headers(&self, at: &[(u64, u32, u16)], window: u64) -> Result<(), Error> {
        let mut i = 0;
        while i < at.len() {
            self.budget.check()?;
            let start = at[i].0;
            if start >= self.len {
                let (pos, num, gen) = at[i];
                return Err(damaged(
                    format!("object {num} {gen} lies past the end of the file"),
                    pos,
                ));
            }
            let mut j = i;
            while j + 1 < at.len() && at[j + 1].0 + HEADER <= start + window {
                j += 1;
            }
            let end = (at[j].0 + HEADER).min(self.len);
            let buf = read_window(&self.src, start, (end - start) as usize)?;
            for &(pos, num, gen) in &at[i..=j] {
                let from = ((pos - start) as usize).min(buf.len());
                let to = (from + HEADER as usize).min(buf.len());
                let mut p = Parser::new(&buf[from..to], 0, start + to as u64 >= self.len);
                match p.obj_header() {
                    Ok(r) if r.num == num => {}
                    _ => {
                        return Err(damaged(
                            format!("object {num} {gen} is not at the offset the xref gives"),
                            pos,
                        ))
                    }
                }
            }
            i = j + 1;
        }
        Ok(())
    }
}

/// Entries checked at each end (of the file, or of an indexed table) by [`Check::Sampled`].
pub const SAMPLE_ENDS: usize = 16;
/// Entries checked at even ranks between the ends by [`Check::Sampled`].
pub const SAMPLE_SPREAD: usize = 224;
/// Bytes read to check one object header.
const HEADER: u64 = 48;
/// A full check reads neighbours together: one read of up to 1 MB covers every object
/// header in it, so a file with 100,000 objects costs a few dozen reads.
const FULL_WINDOW: u64 = 1 << 20;
/// A sampled check merges only headers within 4 KB (one page) of each other.
const SAMPLE_WINDOW: u64 = 4096;

/// Bytes read around a sampled entry of an indexed table (its neighbours, for the probes).
const ENTRY_WINDOW: usize = 16 * super::table::ENTRY as usize;
/// Entries probed after a free one to find an in-use entry near a sampled rank.
const PROBES: u64 = 16;

/// The sample of [`Check::Sampled`] from the entries sorted by position.
fn sample(at: &[(u64, u32, u16)]) -> Vec<(u64, u32, u16)> {
    ranks(at.len() as u64, SAMPLE_ENDS, SAMPLE_SPREAD)
        .map(|i| at[i as usize])
        .collect()
}

/// The ranks sampled among `n`: the first and last `ends`, and `spread` at even ranks
/// between (all of them when there are few), increasing.
fn ranks(n: u64, ends: usize, spread: usize) -> impl Iterator<Item = u64> {
    let (e, s) = (ends as u64, spread as u64);
    let all = n <= 2 * e + s;
    let inner = n.saturating_sub(2 * e);
    let mut idx: Vec<u64> = if all {
        (0..n).collect()
    } else {
        let mid = (0..s).map(move |k| e + k * inner / s + inner / (2 * s));
        (0..e).chain(mid).chain(n - e..n).collect()
    };
    idx.dedup();
    idx.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::testpdf::{build, DOC};
    use crate::reader::{find, rfind};

    fn many_objects(n: usize) -> Vec<u8> {
        let mut objs: Vec<String> = DOC.iter().map(|s| s.to_string()).collect();
        objs.extend((0..n).map(|i| format!("<< /Filler {i} >>")));
        let refs: Vec<&str> = objs.iter().map(String::as_str).collect();
        build(b"", &refs, "")
    }

    #[test]
    fn the_sample_is_spread_bounded_and_deterministic() {
        let at: Vec<(u64, u32, u16)> = (0..10_000u32).map(|i| (u64::from(i) * 100, i, 0)).collect();
        let s = sample(&at);
        assert!(s.len() <= 2 * SAMPLE_ENDS + SAMPLE_SPREAD);
        assert_eq!(s[0], at[0]);
        assert_eq!(*s.last().unwrap(), at[9_999]);
        // No gap between sampled entries is wider than 1/SAMPLE_SPREAD of the file, plus one.
        let widest = s.windows(2).map(|w| w[1].1 - w[0].1).max().unwrap();
        assert!(widest as usize <= 10_000 / SAMPLE_SPREAD + 1, "{widest}");
        assert_eq!(s, sample(&at));
        let few = &at[..100];
        assert_eq!(sample(few), few.to_vec());
    }

    #[test]
    fn sampled_catches_shifts_full_catches_everything() {
        // 2,000 objects: a 40 KB table, held in memory once walked; 6,000: a 120 KB table,
        // whose entries are read one by one.
        for n in [2_000, 6_000] {
            damage_is_caught(&many_objects(n));
        }
    }

    fn damage_is_caught(good: &[u8]) {
        let good = good.to_vec();
        Pdf::open_checked(&good[..], Check::Full).unwrap();
        // One object renumbered in place, in the middle: a single wrong entry that the
        // sample may miss, but the full check names.
        let mid = find(&good, b"<< /Filler 1001 >>").unwrap();
        let head = good[..mid].iter().rposition(|&b| b == b'\n').unwrap();
        let head = good[..head].iter().rposition(|&b| b == b'\n').unwrap() + 1;
        let mut one = good.clone();
        one[head] = b'9';
        let e = Pdf::open_checked(&one[..], Check::Full).err().unwrap();
        assert!(e.to_string().contains("is not at the offset"), "{e}");
        // Bytes inserted shift every later object: the sample catches it.
        let at = find(&good, b"<< /Filler 1500 >>").unwrap();
        assert!(Pdf::open_checked(&good[..], Check::Sampled).is_ok());
        let mut shifted = good.clone();
        shifted.splice(at..at, b"% x\r\n".iter().copied());
        let fix = rfind(&shifted, b"startxref\n").unwrap() + 10;
        let end = fix + shifted[fix..].iter().position(|&c| c == b'\n').unwrap();
        let v: u64 = std::str::from_utf8(&shifted[fix..end])
            .unwrap()
            .parse()
            .unwrap();
        shifted.splice(fix..end, (v + 5).to_string().bytes());
        let e = Pdf::open_checked(&shifted[..], Check::Sampled)
            .err()
            .unwrap();
        assert!(matches!(e.kind(), crate::ErrorKind::Damaged(_)), "{e}");
        // A truncated file: entries past the end.
        let cut = &good[..good.len() / 2];
        let mut cut = cut.to_vec();
        cut.extend_from_slice(&good[find(&good, b"xref\n").unwrap()..]);
        assert!(Pdf::open_checked(&cut[..], Check::Sampled).is_err());
    }
}
