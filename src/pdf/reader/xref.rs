//! The cross-reference chain (ISO 32000-2 §7.5.4–7.5.8): following `startxref` and `/Prev`
//! through classic tables and xref streams (hybrid `/XRefStm` included), merging the
//! trailers, and checking that in-use entries point at their objects.

use std::collections::HashSet;

use super::super::filters::decode_stream;
use super::super::syntax::{Dict, Obj, SyntaxError};
use super::super::Error;
use super::source::{parse_growing, read_window, ReadAt};
use super::{damaged, Pdf, MAX_SECTIONS};
use crate::pdf::syntax::Parser;

/// The kind of cross-reference section (§7.5.4 table, §7.5.8 stream).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XrefKind {
    /// A classic `xref` table with a `trailer` dictionary.
    Table,
    /// A cross-reference stream (PDF 1.5+).
    Stream,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    Free,
    /// Offset as written in the file (add `delta` for the position), generation.
    Offset(u64, u16),
    /// Object stream number, index.
    InStream(u32, u32),
}

impl<R: ReadAt> Pdf<R> {
    pub(super) fn read_chain(&mut self) -> Result<(), Error> {
        let mut next = Some(self.startxref);
        let mut seen = HashSet::new();
        let mut first = true;
        while let Some(off) = next {
            if !seen.insert(off) || self.sections >= MAX_SECTIONS {
                return Err(damaged("the /Prev chain loops", off));
            }
            self.sections += 1;
            let pos = off + self.delta;
            let w = read_window(&self.src, pos, 64)?;
            let mut p = Parser::new(&w, 0, true);
            p.skip_ws();
            let (kind, trailer, raw) = if w[p.pos..].starts_with(b"xref") {
                let (t, raw) = self.read_table(pos)?;
                (XrefKind::Table, t, raw)
            } else {
                let (t, raw) = self.read_xref_stream(pos, false)?;
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
        let max_num = self.entries.keys().copied().max().unwrap_or(0);
        self.size = self.size.max(max_num.saturating_add(1));
        if self.trailer.get(b"Root").and_then(Obj::as_ref).is_none() {
            return Err(damaged("the trailer has no /Root", self.startxref));
        }
        Ok(())
    }

    fn insert(&mut self, num: u32, e: Entry) {
        self.entries.entry(num).or_insert(e);
    }

    fn read_table(&mut self, pos: u64) -> Result<(Dict, Vec<u8>), Error> {
        let (parsed, buf) = parse_growing(&self.src, pos, |p| {
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
        .map_err(|e| e.context_msg("cross-reference table"))?;
        let (found, trailer) = parsed;
        // Hybrid files (§7.5.8.4): entries of /XRefStm come before the table's free entries
        // and before older sections.
        for &(num, off, gen, used) in &found {
            if used && off > 0 {
                self.insert(num, Entry::Offset(off, gen.min(65535) as u16));
            }
        }
        if let Some(Obj::Int(x)) = trailer.get(b"XRefStm") {
            if *x >= 0 {
                self.read_xref_stream(*x as u64 + self.delta, true)?;
            }
        }
        for &(num, off, _, used) in &found {
            if !used || off == 0 {
                self.insert(num, Entry::Free);
            }
        }
        Ok((trailer, buf))
    }

    fn read_xref_stream(&mut self, pos: u64, hybrid: bool) -> Result<(Dict, Vec<u8>), Error> {
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
        let data =
            decode_stream(&d, f.stream.as_deref().unwrap_or(&[])).map_err(|e| e.at_offset(pos))?;
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
        let mut at = 0usize;
        let field = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        for (start, count) in index {
            for i in 0..count {
                if at + rec > data.len() {
                    return Err(damaged("xref stream is shorter than its /Index says", pos));
                }
                let r = &data[at..at + rec];
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
                    0 if !hybrid => self.insert(num, Entry::Free),
                    1 => {
                        if f2 > 0 {
                            self.insert(num, Entry::Offset(f2, f3.min(65535) as u16))
                        } else if !hybrid {
                            self.insert(num, Entry::Free)
                        }
                    }
                    2 => self.insert(
                        num,
                        Entry::InStream(
                            f2.min(u64::from(u32::MAX)) as u32,
                            f3.min(u64::from(u32::MAX)) as u32,
                        ),
                    ),
                    _ => {}
                }
            }
        }
        Ok((d, f.raw))
    }

    /// Checks that each in-use entry points at `N G obj` (white space allowed before it), and
    /// that each compressed object's stream is itself an in-use object.
    pub(super) fn check_offsets(&self) -> Result<(), Error> {
        // The objects to check, in file order, so that neighbours are read together: one read
        // of up to WINDOW bytes covers every object header in it. A file with 100,000 objects
        // costs a few dozen reads instead of 100,000 (the 500 MB benchmark, issue #6); a file
        // with a few objects far apart still reads only a few bytes around each.
        const HEADER: u64 = 48;
        const WINDOW: u64 = 1 << 20;
        let mut at: Vec<(u64, u32, u16)> = Vec::new();
        for (&num, &e) in &self.entries {
            match e {
                Entry::Offset(_, _) if self.xref_streams.contains(&num) => {}
                Entry::Offset(off, gen) => {
                    let pos = off.saturating_add(self.delta);
                    if pos >= self.len {
                        return Err(damaged(
                            format!("object {num} {gen} lies past the end of the file"),
                            pos,
                        ));
                    }
                    at.push((pos, num, gen));
                }
                Entry::InStream(stm, _) => {
                    if !matches!(self.entries.get(&stm), Some(Entry::Offset(..))) {
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
        let mut i = 0;
        while i < at.len() {
            let start = at[i].0;
            let mut j = i;
            while j + 1 < at.len() && at[j + 1].0 + HEADER <= start + WINDOW {
                j += 1;
            }
            let end = (at[j].0 + HEADER).min(self.len);
            let buf = read_window(&self.src, start, (end - start) as usize)?;
            for &(pos, num, gen) in &at[i..=j] {
                let from = (pos - start) as usize;
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

#[cfg(test)]
mod tests {
    use super::super::find;
    use super::super::testpdf::{build, DOC};
    use super::*;
    use crate::pdf::syntax::Ref;

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
        assert_eq!(pdf.entries.get(&0), Some(&Entry::Free));
        assert_eq!(pdf.entries.get(&3), Some(&Entry::Offset(offs[2], 0)));
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
