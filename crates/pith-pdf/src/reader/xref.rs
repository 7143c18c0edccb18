//! The cross-reference chain (ISO 32000-2 §7.5.4–7.5.8): following `startxref` and `/Prev`
//! through classic tables and xref streams (hybrid `/XRefStm` included), merging the
//! trailers, and looking entries up section by section, newest first.

use std::collections::HashSet;
use std::io::Read;

use super::entry::{Entry, Section};
use super::source::{read_window, ReadAt};
use super::table::{parse_trailer, parse_whole, Indexed};
use super::{damaged, filter_err, too_large, Check, Metered, Pdf, MAX_SECTIONS};
use crate::budget::{Budget, Resource};
use crate::filters::{Decoder, MAX_DECODED};
use crate::syntax::Parser;
use crate::syntax::{Dict, Obj};
use crate::Error;

/// The kind of cross-reference section (§7.5.4 table, §7.5.8 stream).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XrefKind {
    /// A classic `xref` table with a `trailer` dictionary.
    Table,
    /// A cross-reference stream (PDF 1.5+).
    Stream,
}

/// One section of the chain as lookups see it; [`Pdf`] keeps them newest first and the
/// first section with an entry for an object decides it.
#[derive(Debug)]
pub(crate) enum Layer {
    /// Every entry decoded: xref streams, and classic tables read whole.
    Map(Section),
    /// A classic table whose entries are read when asked for.
    Table(Indexed),
}

impl Layer {
    /// Whether the section has an entry (in use or free) for `num`.
    pub(crate) fn covers(&self, num: u32) -> bool {
        match self {
            Layer::Map(m) => m.covers(num),
            Layer::Table(t) => t.covers(num),
        }
    }
}

/// Adds `e` for `num` unless the section already has an entry for it, counting an entry
/// held against the budget.
fn first_wins(map: &mut Section, num: u32, e: Entry, budget: &Budget) -> Result<(), Error> {
    if map.add(num, e) {
        budget.spend(Resource::XrefEntries, 1)?;
    }
    Ok(())
}

impl<R: ReadAt> Pdf<R> {
    /// Reads the chain. Regular classic tables are indexed, not read, unless `check` is
    /// [`Check::Full`] (which reads every entry anyway).
    pub(super) fn read_chain(&mut self, check: Check) -> Result<(), Error> {
        let mut next = Some(self.startxref);
        let mut seen = HashSet::new();
        let mut first = true;
        while let Some(off) = next {
            if !seen.insert(off) || self.sections >= MAX_SECTIONS {
                return Err(damaged("the /Prev chain loops", off));
            }
            self.budget.spend(Resource::WalkNodes, 1)?;
            self.sections += 1;
            let pos = off + self.delta;
            let w = read_window(&self.src, pos, 64)?;
            let mut p = Parser::new(&w, 0, true);
            p.skip_ws();
            let (kind, trailer, raw) = if w[p.pos..].starts_with(b"xref") {
                let (t, raw) = self.read_table(pos + p.pos as u64, check)?;
                (XrefKind::Table, t, raw)
            } else {
                let (t, raw, map) = self.read_xref_stream(pos, false)?;
                self.layers.push(Layer::Map(map));
                (XrefKind::Stream, t, raw)
            };
            if first {
                self.kind = kind;
                self.trailer = trailer.clone();
                self.trailer_raw = raw;
                first = false;
            } else {
                // Older trailers fill keys the newest one lacks (lenient, like most readers).
                for (k, v, _) in &trailer.entries {
                    if matches!(k.as_slice(), b"Root" | b"Info" | b"ID" | b"Encrypt")
                        && self.trailer.get(k).is_none()
                    {
                        self.trailer.entries.push((k.clone(), v.clone(), 0..0));
                    }
                }
            }
            if let Some(s) = trailer.get(b"Size").and_then(Obj::as_int) {
                self.size = self
                    .size
                    .max(u32::try_from(s.clamp(0, i64::from(u32::MAX))).unwrap_or(0));
            }
            next = match trailer.get(b"Prev") {
                None => None,
                Some(Obj::Int(v)) if *v >= 0 => Some(*v as u64),
                Some(_) => return Err(damaged("/Prev is not an offset", pos)),
            };
        }
        let max_num = self
            .layers
            .iter()
            .filter_map(|l| match l {
                Layer::Map(m) => m.max_num(),
                Layer::Table(t) => t.max_num(),
            })
            .max()
            .unwrap_or(0);
        self.size = self.size.max(max_num.saturating_add(1));
        if self.trailer.get(b"Root").and_then(Obj::as_ref).is_none() {
            return Err(damaged("the trailer has no /Root", self.startxref));
        }
        Ok(())
    }

    /// The entry for `num`: the newest section's that has one (cached).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Damaged`] for an indexed entry that does not parse, and
    /// I/O errors.
    pub(crate) fn entry(&self, num: u32) -> Result<Option<Entry>, Error> {
        if let Some(e) = self.looked_up.borrow().get(&num) {
            return Ok(*e);
        }
        let e = self.entry_in(num, 0)?.map(|(e, _)| e);
        self.looked_up.borrow_mut().insert(num, e);
        Ok(e)
    }

    /// The entry for `num` from the sections `from..` (newest first), and its section.
    pub(crate) fn entry_in(&self, num: u32, from: usize) -> Result<Option<(Entry, usize)>, Error> {
        for (i, layer) in self.layers.iter().enumerate().skip(from) {
            let e = match layer {
                Layer::Map(m) => m.get(num),
                Layer::Table(t) => t.get(&self.src, num)?,
            };
            if let Some(e) = e {
                return Ok(Some((e, i)));
            }
        }
        Ok(None)
    }

    /// Reads the classic table whose `xref` keyword is at `pos` into a new section.
    fn read_table(&mut self, pos: u64, check: Check) -> Result<(Dict, Vec<u8>), Error> {
        let indexed = match check {
            Check::Full => None,
            Check::Sampled => Indexed::walk(&self.src, pos, self.len)?,
        };
        let (trailer, raw, layer) = match indexed {
            Some((mut ix, trailer_at)) => {
                let (trailer, raw) = parse_trailer(&self.src, trailer_at)?;
                if let Some(x) = stm_offset(&trailer) {
                    let (_, _, map) = self.read_xref_stream(x + self.delta, true)?;
                    ix.hybrid = map;
                }
                (trailer, raw, Layer::Table(ix))
            }
            None => {
                let ((found, trailer), raw) = parse_whole(&self.src, pos)?;
                // Hybrid files (§7.5.8.4): entries of /XRefStm come before the table's free
                // entries and before older sections.
                let mut map = Section::default();
                let budget = &self.budget;
                for &(num, off, gen, used) in &found {
                    if used && off > 0 {
                        let e = Entry::Offset(off, gen.min(65535) as u16);
                        first_wins(&mut map, num, e, budget)?;
                    }
                }
                if let Some(x) = stm_offset(&trailer) {
                    let (_, _, hybrid) = self.read_xref_stream(x + self.delta, true)?;
                    for (num, e) in hybrid.used() {
                        first_wins(&mut map, num, e, &self.budget)?;
                    }
                }
                for &(num, off, _, used) in &found {
                    if !used || off == 0 {
                        first_wins(&mut map, num, Entry::Free, &self.budget)?;
                    }
                }
                self.budget.spend(
                    Resource::XrefEntries,
                    map.held().saturating_sub(map.used().count() as u64),
                )?;
                (trailer, raw, Layer::Map(map.done()))
            }
        };
        self.layers.push(layer);
        Ok((trailer, raw))
    }

    /// Reads the xref stream at `pos`: its dictionary, the buffer it was parsed from and its
    /// entries (for a hybrid file's `/XRefStm`, the in-use ones only).
    #[allow(clippy::type_complexity)]
    fn read_xref_stream(
        &mut self,
        pos: u64,
        hybrid: bool,
    ) -> Result<(Dict, Vec<u8>, Section), Error> {
        let f = self
            .fetch_at(pos, None)
            .map_err(|e| e.context_msg("cross-reference stream"))?;
        let d = f
            .obj
            .as_dict()
            .cloned()
            .ok_or_else(|| damaged("xref stream has no dictionary", pos))?;
        self.xref_streams.insert(f.id.num);
        if d.get(b"Type").and_then(Obj::as_name) != Some(b"XRef") {
            return Err(damaged(
                "startxref or /Prev points at an object that is not an xref stream",
                pos,
            ));
        }
        let w: Vec<usize> = match d.get(b"W") {
            Some(Obj::Array(a)) if a.len() == 3 => a
                .iter()
                .map(|o| o.as_int().unwrap_or(-1))
                .map(|v| if (0..=8).contains(&v) { v as usize } else { 99 })
                .collect(),
            _ => return Err(damaged("xref stream without a valid /W", pos)),
        };
        if w.iter().any(|&x| x > 8) || w.iter().sum::<usize>() == 0 {
            return Err(damaged("xref stream /W is out of range", pos));
        }
        let size = d.get(b"Size").and_then(Obj::as_int).unwrap_or(0).max(0);
        let index: Vec<(u64, u64)> = match d.get(b"Index") {
            Some(Obj::Array(a)) => a
                .chunks(2)
                .filter_map(|c| Some((c[0].as_int()? as u64, c.get(1)?.as_int()? as u64)))
                .collect(),
            _ => vec![(0, size as u64)],
        };
        let rec = w.iter().sum::<usize>();
        // Only the rows /Index (or /Size) asks for are decoded: data past them is
        // never inflated, and the rows themselves are bounded by MAX_DECODED.
        let rows: u64 = index
            .iter()
            .fold(0u64, |acc, &(_, c)| acc.saturating_add(c))
            .saturating_mul(rec as u64);
        let num = Some(f.id.num);
        let what = "the cross-reference stream";
        if rows > MAX_DECODED {
            return Err(too_large(what, num, MAX_DECODED).at_offset(pos));
        }
        let budget = &self.budget;
        let dec = Decoder::new(&d, f.stream.as_deref().unwrap_or(&[]), budget.limits())
            .map_err(|e| filter_err(e, what, num).at_offset(pos))?;
        // The rows are decoded a chunk at a time and never held: what is held is the
        // section, whose free entries are ranges.
        let mut rows_in = Metered::new(dec, budget);
        let mut chunk = vec![0u8; rec * 4096];
        let (mut have, mut at) = (0usize, 0usize);
        let field = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let mut map = Section::default();
        for (start, count) in index {
            for i in 0..count {
                if at + rec > have {
                    // Refill: keep the partial row, read up to a whole chunk.
                    chunk.copy_within(at..have, 0);
                    have -= at;
                    at = 0;
                    while have < rec {
                        let n = rows_in
                            .read(&mut chunk[have..])
                            .map_err(|e| rows_in.error(e, what, num).at_offset(pos))?;
                        if n == 0 {
                            return Err(damaged(
                                "xref stream is shorter than its /Index says",
                                pos,
                            ));
                        }
                        have += n;
                    }
                }
                let r = &chunk[at..at + rec];
                at += rec;
                let t = if w[0] == 0 { 1 } else { field(&r[..w[0]]) };
                let f2 = field(&r[w[0]..w[0] + w[1]]);
                let f3 = field(&r[w[0] + w[1]..]);
                let num = start + i;
                if num > u64::from(u32::MAX) {
                    continue;
                }
                let num = num as u32;
                match t {
                    0 if !hybrid => first_wins(&mut map, num, Entry::Free, budget)?,
                    1 => {
                        if f2 > 0 {
                            let e = Entry::Offset(f2, f3.min(65535) as u16);
                            first_wins(&mut map, num, e, budget)?
                        } else if !hybrid {
                            first_wins(&mut map, num, Entry::Free, budget)?
                        }
                    }
                    2 => {
                        let e = Entry::InStream(
                            f2.min(u64::from(u32::MAX)) as u32,
                            f3.min(u64::from(u32::MAX)) as u32,
                        );
                        first_wins(&mut map, num, e, budget)?
                    }
                    _ => {}
                }
            }
        }
        let map = map.done();
        budget.spend(
            Resource::XrefEntries,
            map.held().saturating_sub(map.used().count() as u64),
        )?;
        Ok((d, f.raw, map))
    }
}

/// The `/XRefStm` offset of a hybrid file's trailer.
fn stm_offset(trailer: &Dict) -> Option<u64> {
    match trailer.get(b"XRefStm") {
        Some(Obj::Int(x)) if *x >= 0 => Some(*x as u64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::find;
    use crate::reader::testpdf::{build, DOC};
    use crate::syntax::Ref;

    #[test]
    fn tables_with_subsections_free_entries_and_flag_junk() {
        let mut b = build(b"", &DOC, "");
        // Rewrite the table as two subsections, with junk after one flag (tolerated).
        let at = find(&b, b"xref\n").unwrap();
        let offs: Vec<u64> = (1..=3)
            .map(|n| find(&b, format!("{n} 0 obj").as_bytes()).unwrap() as u64)
            .collect();
        let table = format!(
            "xref\n0 2\n0000000000 65535 f\r\n{:010} 00000 n\r\n2 2\n{:010} 00000 n x\n{:010} 00000 n\r\ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n{at}\n%%EOF\n",
            offs[0], offs[1], offs[2]
        );
        b.truncate(at);
        b.extend_from_slice(table.as_bytes());
        let pdf = Pdf::open(&b[..]).unwrap();
        assert_eq!(pdf.entry(0).unwrap(), Some(Entry::Free));
        assert_eq!(pdf.entry(3).unwrap(), Some(Entry::Offset(offs[2], 0)));
        assert!(pdf.get(3).unwrap().is_some());
    }

    #[test]
    fn prev_chain_newest_entries_and_trailer_keys_win() {
        let b = build(b"", &DOC, "/Info 3 0 R");
        let pdf = Pdf::open(&b[..]).unwrap();
        // An update redefining object 3 and dropping /Info from the newest trailer.
        let mut up = b.clone();
        let at = up.len() as u64;
        up.extend_from_slice(b"3 0 obj\n<< /Type /Page /Parent 2 0 R /New true >>\nendobj\n");
        let x = up.len();
        up.extend_from_slice(
            format!(
                "xref\n3 1\n{at:010} 00000 n\r\ntrailer\n<< /Size 4 /Root 1 0 R /Prev {} >>\nstartxref\n{x}\n%%EOF\n",
                pdf.startxref()
            )
            .as_bytes(),
        );
        let pdf = Pdf::open(&up[..]).unwrap();
        assert_eq!(pdf.sections(), 2);
        let page = pdf.get(3).unwrap().unwrap();
        assert_eq!(
            page.obj.as_dict().unwrap().get(b"New"),
            Some(&Obj::Bool(true))
        );
        assert_eq!(
            pdf.trailer().get(b"Info").and_then(Obj::as_ref),
            Some(Ref::new(3, 0)),
            "older trailers fill keys the newest lacks"
        );
    }

    #[test]
    fn xref_streams_need_type_and_w() {
        let b = build(b"", &DOC, "");
        let x = find(&b, b"xref\n").unwrap();
        let mut s = b[..x].to_vec();
        s.extend_from_slice(
            format!("4 0 obj\n<< /Size 5 /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n{x}\n%%EOF\n")
                .as_bytes(),
        );
        let e = Pdf::open(&s[..]).err().unwrap();
        assert!(e.to_string().contains("not an xref stream"), "{e}");
    }
}
