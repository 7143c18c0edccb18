//! Fetching objects by number: the bounded cache of parsed objects, objects read at their
//! offsets or out of object streams (decoded as far as asked), and stream data, raw or
//! decoded within a bound.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Read;

use super::source::{find, parse_growing, read_window};
use super::{damaged, filter_err, too_large, Entry, Fetched, Metered, Pdf, ReadAt};
use crate::budget::{Budget, Resource};
use crate::filters::{Decoder, MAX_DECODED};
use crate::security::decrypt_obj;
use crate::syntax::{Obj, Parser, Ref, SyntaxError};
use crate::Error;

/// An object stream decoded as far as the objects asked for so far: its data is
/// a prefix of the decoded stream, extended when an object lies past it, up to
/// [`MAX_DECODED`]; the decoder keeps its place in between.
pub(super) struct ObjStm {
    num: u32,
    data: RefCell<Vec<u8>>,
    /// The decoder, until the stream ends.
    rest: RefCell<Option<Decoder<'static>>>,
    /// (object number, offset from `first`)
    index: Vec<(u32, usize)>,
    first: usize,
}

impl ObjStm {
    /// Decodes more of the stream: at least doubles the prefix (64 KiB at first), or up to
    /// `want` bytes, never past [`MAX_DECODED`]. False when the stream has ended.
    pub(super) fn more(&self, want: usize, budget: &Budget) -> Result<bool, Error> {
        let mut rest = self.rest.borrow_mut();
        let Some(dec) = rest.as_mut() else {
            return Ok(false);
        };
        let mut data = self.data.borrow_mut();
        let have = data.len() as u64;
        if have >= MAX_DECODED {
            return Err(too_large("object stream", Some(self.num), MAX_DECODED));
        }
        let target = (have * 2).max(64 << 10).max(want as u64).min(MAX_DECODED);
        let mut m = Metered::new(dec.by_ref(), budget);
        let got = (&mut m)
            .take(target - have)
            .read_to_end(&mut data)
            .map_err(|e| m.error(e, "object stream", Some(self.num)))?;
        if (got as u64) < target - have {
            *rest = None;
        }
        Ok(true)
    }

    pub(super) fn ended(&self) -> bool {
        self.rest.borrow().is_none()
    }
}

/// Parsed objects kept by number, oldest out first when they would hold more than the
/// budget's `cache_bytes`.
#[derive(Default)]
pub(super) struct Cache {
    map: HashMap<u32, Fetched>,
    order: std::collections::VecDeque<u32>,
    bytes: u64,
}

impl Cache {
    /// What an object costs held: its text, its stream data and its parsed tree as the heap
    /// holds it. The tree is measured, not guessed from the text: a token of two bytes (`1 `)
    /// is a node of [`Obj`]'s size, so an array of small numbers holds many times its text.
    pub(super) fn cost(f: &Fetched) -> u64 {
        std::mem::size_of::<Fetched>() as u64
            + f.raw.capacity() as u64
            + f.stream.as_ref().map_or(0, |s| s.capacity() as u64)
            + held(&f.obj)
    }

    pub(super) fn get(&self, num: u32) -> Option<&Fetched> {
        self.map.get(&num)
    }

    pub(super) fn put(&mut self, num: u32, f: &Fetched, cap: u64) {
        // One object may take a quarter of the cache: larger ones are read again. (A clone
        // holds no more than the object: its vectors' spare room is not copied.)
        if Cache::cost(f) > cap / 4 || self.map.contains_key(&num) {
            return;
        }
        // What is kept is counted as kept, so that what leaves takes back what it added.
        let kept = f.clone();
        let cost = Cache::cost(&kept);
        while self.bytes + cost > cap {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(o) = self.map.remove(&old) {
                self.bytes -= Cache::cost(&o);
            }
        }
        self.bytes += cost;
        self.order.push_back(num);
        self.map.insert(num, kept);
    }

    pub(super) fn clear(&mut self) {
        *self = Cache::default();
    }
}

/// The heap bytes a parsed object holds: every array's and dictionary's slots, every string,
/// name and key. Walked with a stack of its own, so nesting costs no call depth.
fn held(obj: &Obj) -> u64 {
    let node = std::mem::size_of::<Obj>() as u64;
    let entry = std::mem::size_of::<(Vec<u8>, Obj, std::ops::Range<usize>)>() as u64;
    let mut total = 0u64;
    let mut stack = vec![obj];
    while let Some(o) = stack.pop() {
        match o {
            Obj::Str(s) | Obj::Name(s) => total += s.capacity() as u64,
            Obj::Array(a) => {
                total += a.capacity() as u64 * node;
                stack.extend(a.iter());
            }
            Obj::Dict(d) => {
                total += d.entries.capacity() as u64 * entry;
                for (k, v, _) in &d.entries {
                    total += k.capacity() as u64;
                    stack.push(v);
                }
            }
            Obj::Null | Obj::Bool(_) | Obj::Int(_) | Obj::Real(_) | Obj::Ref(_) => {}
        }
    }
    total
}

impl<R: ReadAt> Pdf<R> {
    /// Reads object `num`. Missing and free objects are `Ok(None)` (they are `null`).
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`](crate::ErrorKind::Damaged) when the object cannot be parsed.
    pub fn get(&self, num: u32) -> Result<Option<Fetched>, Error> {
        self.get_depth(num, 0)
    }

    pub(super) fn get_depth(&self, num: u32, depth: usize) -> Result<Option<Fetched>, Error> {
        if depth > 8 {
            return Err(damaged(
                format!("object {num}: references nest too deep"),
                0,
            ));
        }
        self.budget.check()?;
        if let Some(f) = self.cache.borrow().get(num) {
            return Ok(Some(f.clone()));
        }
        let f = self.parse_object(num, depth)?;
        if let Some(f) = &f {
            self.cache
                .borrow_mut()
                .put(num, f, self.budget.limits().cache_bytes);
        }
        Ok(f)
    }

    /// Counts one object parsed, of `bytes` bytes, against the budget.
    pub(super) fn spend_object(&self, bytes: usize) -> Result<(), Error> {
        self.budget.spend(Resource::Objects, 1)?;
        self.budget.spend(Resource::ParsedBytes, bytes as u64)
    }

    /// Parses object `num` from the file (no cache).
    pub(super) fn parse_object(&self, num: u32, depth: usize) -> Result<Option<Fetched>, Error> {
        match self.entry(num)? {
            None | Some(Entry::Free) => Ok(None),
            Some(Entry::Offset(off, _)) => {
                let f = self.fetch_at_depth(off + self.delta, Some(num), depth, true)?;
                Ok(Some(f))
            }
            Some(Entry::InStream(stm, idx)) => {
                let os = self.objstm(stm, depth)?;
                let (n2, rel) = *os.index.get(idx as usize).ok_or_else(|| {
                    damaged(
                        format!("object {num}: index {idx} outside object stream {stm}"),
                        0,
                    )
                })?;
                if n2 != num {
                    return Err(damaged(
                        format!(
                            "object stream {stm} holds object {n2} where the xref expects {num}"
                        ),
                        0,
                    ));
                }
                let start = os.first.saturating_add(rel);
                // Decode as far as the object reaches: past its start, then further while
                // the parser runs out of bytes.
                while os.data.borrow().len() <= start && os.more(start + 1, &self.budget)? {}
                loop {
                    let data = os.data.borrow();
                    if start > data.len() {
                        return Err(damaged(
                            format!("object {num}: offset outside object stream {stm}"),
                            0,
                        ));
                    }
                    let mut p = Parser::new(&data, start, os.ended());
                    match p.object() {
                        Ok(_) => {
                            // The object's own bytes, parsed again so its spans index them.
                            let raw = data[start..p.pos].to_vec();
                            drop(data);
                            self.spend_object(raw.len())?;
                            let obj = Parser::new(&raw, 0, true).object().map_err(|_| {
                                damaged(
                                    format!("object {num} in object stream {stm} does not parse"),
                                    0,
                                )
                            })?;
                            // Already decrypted with its object stream.
                            return Ok(Some(Fetched {
                                id: Ref::new(num, 0),
                                obj,
                                raw,
                                stream: None,
                            }));
                        }
                        Err(SyntaxError::Eof) if !os.ended() => {
                            drop(data);
                            os.more(0, &self.budget)?;
                        }
                        Err(_) => {
                            return Err(damaged(
                                format!("object {num} in object stream {stm} does not parse"),
                                0,
                            ))
                        }
                    }
                }
            }
        }
    }

    pub(super) fn objstm(&self, stm: u32, depth: usize) -> Result<std::rc::Rc<ObjStm>, Error> {
        if let Some(o) = self.objstms.borrow().get(&stm) {
            return Ok(o.clone());
        }
        let f = self
            .get_depth(stm, depth + 1)?
            .ok_or_else(|| damaged(format!("object stream {stm} is missing"), 0))?;
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object stream {stm} is not a stream"), 0))?;
        let n = d.get(b"N").and_then(Obj::as_int).unwrap_or(-1);
        let first = d.get(b"First").and_then(Obj::as_int).unwrap_or(-1);
        let bad = || damaged(format!("object stream {stm} has a bad /N or /First"), 0);
        if n < 0 || first < 0 || first as u64 > MAX_DECODED {
            return Err(bad());
        }
        // The header's claims are checked before any of it is decoded: each of the /N
        // objects counts against the objects limit, and the pairs before /First take at
        // least three bytes each ("1 0") and at most two numbers and their white space
        // (32 bytes is ample), so a /First far past them is not a header.
        let (n_u, first_u) = (n as u64, first as u64);
        let limits = self.budget.limits();
        if n_u
            > limits
                .objects
                .saturating_sub(self.budget.used(Resource::Objects))
        {
            return Err(crate::budget::over(Resource::Objects, limits.objects));
        }
        if n_u.saturating_mul(3) > first_u.saturating_add(1)
            || first_u > n_u.saturating_mul(32).saturating_add(4096)
        {
            return Err(bad());
        }
        let dec = Decoder::new(
            d,
            std::io::Cursor::new(f.stream.unwrap_or_default()),
            limits,
        )
        .map_err(|e| filter_err(e, "object stream", Some(stm)))?;
        let os = ObjStm {
            num: stm,
            data: RefCell::new(Vec::new()),
            rest: RefCell::new(Some(dec)),
            index: Vec::new(),
            first: first as usize,
        };
        // The header (pairs of numbers before /First) first.
        while os.data.borrow().len() < first as usize && os.more(first as usize, &self.budget)? {}
        let data = os.data.borrow();
        if first as usize > data.len() || n as usize > data.len() {
            return Err(bad());
        }
        let mut p = Parser::new(&data[..first as usize], 0, true);
        // Grown as pairs parse: a claim is not an allocation.
        let mut index = Vec::with_capacity((n as usize).min(4096));
        for _ in 0..n {
            let (a, b) = match (p.uint(), p.uint()) {
                (Ok(a), Ok(b)) => (a, b),
                _ => return Err(damaged(format!("object stream {stm} has a bad header"), 0)),
            };
            index.push((
                u32::try_from(a).unwrap_or(u32::MAX),
                usize::try_from(b).unwrap_or(usize::MAX),
            ));
        }
        drop(data);
        let os = std::rc::Rc::new(ObjStm { index, ..os });
        self.objstms.borrow_mut().insert(stm, os.clone());
        Ok(os)
    }

    /// Resolves a reference one level: `Ref` → the object it names (or `Null`), other objects
    /// unchanged.
    ///
    /// # Errors
    /// As [`Pdf::get`].
    pub fn resolve(&self, o: &Obj) -> Result<Obj, Error> {
        match o {
            Obj::Ref(r) => {
                // A cached object lends its tree alone: its text and stream stay in the cache.
                self.budget.check()?;
                if let Some(f) = self.cache.borrow().get(r.num) {
                    return Ok(f.obj.clone());
                }
                Ok(self.get(r.num)?.map(|f| f.obj).unwrap_or(Obj::Null))
            }
            other => Ok(other.clone()),
        }
    }

    pub(super) fn fetch_at(&self, pos: u64, expect: Option<u32>) -> Result<Fetched, Error> {
        self.fetch_at_depth(pos, expect, 0, true)
    }

    /// Object `num` as [`Pdf::get`] reads it, but without a stream's data (`stream` is
    /// `None`): for looking at a stream's dictionary without reading what may be megabytes
    /// of image or content.
    ///
    /// # Errors
    /// As [`Pdf::get`].
    pub fn get_dict(&self, num: u32) -> Result<Option<Fetched>, Error> {
        self.budget.check()?;
        if let Some(f) = self.cache.borrow().get(num) {
            // The stream's data is not copied only to be dropped.
            return Ok(Some(Fetched {
                id: f.id,
                obj: f.obj.clone(),
                raw: f.raw.clone(),
                stream: None,
            }));
        }
        match self.entry(num)? {
            Some(Entry::Offset(off, _)) => Ok(Some(self.fetch_at_depth(
                off + self.delta,
                Some(num),
                0,
                false,
            )?)),
            // Objects in object streams are never streams.
            _ => self.get(num),
        }
    }

    pub(super) fn fetch_at_depth(
        &self,
        pos: u64,
        expect: Option<u32>,
        depth: usize,
        with_data: bool,
    ) -> Result<Fetched, Error> {
        let nesting = self.budget.limits().nesting;
        let ((id, obj, data_start), raw) = parse_growing(&self.src, pos, nesting, |p| {
            let id = p.obj_header()?;
            let obj = p.object()?;
            let ds = if matches!(obj, Obj::Dict(_)) {
                p.stream_start()?
            } else {
                None
            };
            Ok((id, obj, ds))
        })?;
        self.spend_object(raw.len())?;
        if let Some(n) = expect {
            if id.num != n {
                return Err(damaged(
                    format!("object {n} is not at the offset the xref gives"),
                    pos,
                ));
            }
        }
        let stream = match data_start {
            None => None,
            Some(_) if !with_data => None,
            Some(ds) => {
                let d = obj.as_dict().expect("stream_start only after a dictionary");
                let abs = pos + ds as u64;
                let len = match d.get(b"Length") {
                    Some(Obj::Int(l)) if *l >= 0 => Some(*l as u64),
                    Some(Obj::Ref(r)) if Some(r.num) != expect => {
                        match self.get_depth(r.num, depth + 1) {
                            Ok(Some(Fetched {
                                obj: Obj::Int(l), ..
                            })) if l >= 0 => Some(l as u64),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                Some(self.stream_data(abs, len)?)
            }
        };
        let mut f = Fetched {
            id,
            obj,
            raw,
            stream,
        };
        // Xref streams (fetched without `expect`) are never encrypted (§7.5.8.2).
        if let (Some(h), Some(_)) = (self.security.as_deref(), expect) {
            decrypt_obj(h, id, &mut f.obj);
            if let (Some(data), Some(d)) = (&mut f.stream, f.obj.as_dict()) {
                *data = h.decrypt_stream(id, d, data);
            }
        }
        Ok(f)
    }

    /// Reads stream data at `abs`: `len` bytes when `endstream` follows them, else (a wrong
    /// or missing `/Length`, which qpdf also tolerates) up to the next `endstream`.
    pub(super) fn stream_data(&self, abs: u64, len: Option<u64>) -> Result<Vec<u8>, Error> {
        if let Some(l) = len {
            if abs.checked_add(l).is_some_and(|e| e <= self.len) && l <= MAX_DECODED {
                let data = read_window(&self.src, abs, l as usize)?;
                let after = read_window(&self.src, abs + l, 32)?;
                let mut p = Parser::new(&after, 0, true);
                p.skip_ws();
                if after[p.pos..].starts_with(b"endstream") {
                    return Ok(data);
                }
            }
        }
        let mut size = 4096usize;
        loop {
            let w = read_window(&self.src, abs, size)?;
            if let Some(i) = find(&w, b"endstream") {
                let mut end = i;
                if end > 0 && w[end - 1] == b'\n' {
                    end -= 1;
                }
                if end > 0 && w[end - 1] == b'\r' {
                    end -= 1;
                }
                let mut data = w;
                data.truncate(end);
                return Ok(data);
            }
            if abs + w.len() as u64 >= self.len || size as u64 >= MAX_DECODED {
                return Err(damaged("stream without endstream", abs));
            }
            size *= 4;
        }
    }

    /// Decodes the whole data of a fetched stream object, refusing past `bound` bytes
    /// (decoding stops there); `what` names the stream in that refusal ("the XMP metadata
    /// stream").
    ///
    /// # Errors
    /// [`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge) past the bound, [`ErrorKind::Damaged`](crate::ErrorKind::Damaged) when a filter fails or
    /// is unsupported.
    pub fn decoded(&self, f: &Fetched, what: &str, bound: u64) -> Result<Vec<u8>, Error> {
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object {} is not a stream", f.id.num), 0))?;
        let data = f.stream.as_deref().unwrap_or(&[]);
        let dec = Decoder::new(d, data, self.budget.limits())
            .map_err(|e| filter_err(e, what, Some(f.id.num)))?;
        let mut m = Metered::new(dec, &self.budget);
        let mut out = Vec::new();
        let n = (&mut m)
            .take(bound.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| m.error(e, what, Some(f.id.num)))?;
        if n as u64 > bound {
            return Err(too_large(what, Some(f.id.num), bound));
        }
        Ok(out)
    }

    /// A decoder of a fetched stream object's data, for callers that scan it as it comes
    /// (and set their own bound).
    ///
    /// # Errors
    /// [`ErrorKind::Damaged`](crate::ErrorKind::Damaged) when the object is not a stream or its filters are unsupported.
    pub fn decoder<'f>(&'f self, f: &'f Fetched) -> Result<Metered<'f, Decoder<'f>>, Error> {
        let d = f
            .obj
            .as_dict()
            .ok_or_else(|| damaged(format!("object {} is not a stream", f.id.num), 0))?;
        let dec = Decoder::new(d, f.stream.as_deref().unwrap_or(&[]), self.budget.limits())
            .map_err(|e| filter_err(e, "content stream", Some(f.id.num)))?;
        Ok(Metered::new(dec, &self.budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An array of small numbers holds many times its text: the cache counts what the tree
    /// holds, so 32 MiB of cache is 32 MiB of memory whatever the objects are made of.
    #[test]
    fn the_cache_counts_what_a_parsed_object_holds() {
        let text: String = (0..15_000).map(|i| format!("{} ", i % 600)).collect();
        let raw = format!("<< /QuadPoints [{text}] /A << /URI (x) >> >>").into_bytes();
        let obj = Parser::new(&raw, 0, true).object().unwrap();
        let f = Fetched {
            id: Ref::new(6, 0),
            obj,
            raw,
            stream: None,
        };
        let nodes = 15_000 * std::mem::size_of::<Obj>() as u64;
        assert!(Cache::cost(&f) >= nodes + f.raw.len() as u64);
        // What the reader guessed from the text alone was a fraction of it.
        assert!(Cache::cost(&f) > 4 * f.raw.len() as u64);
        // A cache of 32 MiB keeps no more than 32 MiB of such objects.
        let mut c = Cache::default();
        let cap = 8 << 20;
        for n in 0..100 {
            c.put(n, &f, cap);
        }
        let real: u64 = c.map.values().map(Cache::cost).sum();
        assert!(real <= cap, "{real}");
        assert_eq!(c.bytes, real);
    }
}
