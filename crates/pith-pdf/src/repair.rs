//! Repairing what the reader refuses: rebuilding the cross-reference table of a damaged file
//! by scanning for objects ([`repair`]), and the full `--rewrite` through lopdf
//! ([`rewrite_document`]), which re-serialises every object (signatures do not survive).
//! The append-only update path never comes here.

use std::collections::{BTreeMap, HashMap};
use std::io;

use crate::budget::{Budget, Limits, Resource};
use crate::filters::{read_prefix, Decoder, FilterError, MAX_DECODED};
use crate::reader::Entry;
use crate::reader::{damaged, find, Fetched};
use crate::syntax::{is_white, Dict, Obj, Parser, Ref};
use crate::writer::xref::full_stream;
use crate::{Error, ErrorKind};

pub use crate::reader::Rebuilt;

/// Rebuilds a cross-reference table for a damaged file by scanning it for `N G obj` (the last
/// definition of an object wins, objects in object streams included) and appends it, without
/// `/Prev`, to the bytes from `%PDF-` on. The result is a readable file for
/// [`rewrite_document`]; it is not meant to be kept as is (`--repair` appends one complete
/// section instead, see [`scan`]).
///
/// # Errors
/// As [`scan`].
pub fn repair(data: &[u8]) -> Result<Vec<u8>, Error> {
    repair_within(data, &Budget::default())
}

/// [`repair`] spending from `budget` (objects parsed, bytes decoded, entries found) and
/// stopping when its token does.
///
/// # Errors
/// As [`scan_within`].
pub fn repair_within(data: &[u8], budget: &Budget) -> Result<Vec<u8>, Error> {
    let r = scan_within(data, budget)?;
    let data = &data[r.header..];
    let mut out = data.to_vec();
    if !matches!(out.last(), Some(b'\n' | b'\r')) {
        out.push(b'\n');
    }
    let at = out.len() as u64;
    out.extend_from_slice(&section(&r, at));
    Ok(out)
}

/// A stand-in cross-reference stream listing what [`scan`] found, to be written at offset `at`
/// (counted from `%PDF-`), without `/Prev`: appended to the damaged bytes, it makes them
/// readable. Its own object number is one past the highest found.
pub fn section(r: &Rebuilt, at: u64) -> Vec<u8> {
    let size = r.entries.keys().next_back().map_or(1, |m| m + 1);
    let mut trailer = format!("/Root {}", r.root);
    if let Some(i) = r.info {
        trailer.push_str(&format!(" /Info {i}"));
    }
    if let Some(id) = &r.id {
        trailer.push_str(&format!(" /ID {id}"));
    }
    // The one writer of complete xref streams, its own object listed last.
    let mut rows = r.entries.clone();
    rows.insert(size, Entry::Offset(at, 0));
    let mut out = Vec::new();
    full_stream(&mut out, size + 1, &rows, trailer.as_bytes(), at);
    out
}

/// Scans a damaged file for `N G obj` headers (the last definition of an object wins, as
/// readers do; objects in object streams count where no direct definition exists) and for
/// the catalog: the `/Root` of the last trailer (dictionary or xref stream) that exists, else
/// the last `/Type /Catalog` object.
///
/// # Errors
/// [`ErrorKind::NotPdf`] without a header, [`ErrorKind::Encrypted`] when a trailer has
/// `/Encrypt`, [`ErrorKind::Damaged`] when no catalog can be found.
pub fn scan(data: &[u8]) -> Result<Rebuilt, Error> {
    scan_within(data, &Budget::default())
}

/// [`scan`] spending from `budget`: each object found counts as an object parsed (and its
/// bytes), each entry as an entry held, the object streams' headers as bytes decoded; the
/// stop token is checked at each object.
///
/// # Errors
/// As [`scan`], and [`ErrorKind::OverLimit`], [`ErrorKind::Stopped`].
pub fn scan_within(data: &[u8], budget: &Budget) -> Result<Rebuilt, Error> {
    let hdr = find(&data[..data.len().min(1024)], b"%PDF-")
        .ok_or_else(|| Error::new(ErrorKind::NotPdf))?;
    let data = &data[hdr..];
    let mut objs: HashMap<u32, (u16, usize)> = HashMap::new();
    let mut root: Option<Ref> = None;
    let mut info: Option<Ref> = None;
    let mut id: Option<String> = None;
    let mut catalog: Option<Ref> = None;
    let mut objstms: Vec<u32> = Vec::new();
    let mut xref_streams = false;
    let mut is_page: HashMap<u32, bool> = HashMap::new();
    let mut decoded: Vec<(u32, usize)> = Vec::new();
    let trailer_entries = |d: &Dict,
                           root: &mut Option<Ref>,
                           info: &mut Option<Ref>,
                           id: &mut Option<String>|
     -> Result<(), Error> {
        if d.get(b"Encrypt").is_some_and(|e| !matches!(e, Obj::Null)) {
            return Err(Error::new(ErrorKind::Encrypted));
        }
        *root = d.get(b"Root").and_then(Obj::as_ref).or(*root);
        *info = d.get(b"Info").and_then(Obj::as_ref).or(*info);
        if let Some(Obj::Array(a)) = d.get(b"ID") {
            let hex: Vec<String> = a
                .iter()
                .filter_map(|o| match o {
                    Obj::Str(s) => Some(format!("<{}>", data_encoding::HEXUPPER.encode(s))),
                    _ => None,
                })
                .collect();
            if hex.len() == 2 {
                *id = Some(format!("[{}]", hex.join("")));
            }
        }
        Ok(())
    };
    let mut i = 0;
    while let Some(k) = find(&data[i..], b"obj") {
        let at = i + k;
        i = at + 3;
        if data
            .get(at + 3)
            .is_some_and(|&b| !is_white(b) && !b"<[(/%".contains(&b))
        {
            continue;
        }
        // Walk back over `N G `.
        let mut j = at;
        let skip_ws = |j: &mut usize| {
            while *j > 0 && is_white(data[*j - 1]) {
                *j -= 1
            }
        };
        let digits = |j: &mut usize| {
            let e = *j;
            while *j > 0 && data[*j - 1].is_ascii_digit() {
                *j -= 1;
            }
            e - *j
        };
        skip_ws(&mut j);
        if digits(&mut j) == 0 {
            continue;
        }
        skip_ws(&mut j);
        if digits(&mut j) == 0 {
            continue;
        }
        if j > 0 && !is_white(data[j - 1]) && !b">])}".contains(&data[j - 1]) {
            continue;
        }
        let mut p = Parser::new(data, j, true);
        let Ok(Ref { num, gen }) = p.obj_header() else {
            continue;
        };
        let Ok(obj) = p.object() else { continue };
        budget.spend(Resource::Objects, 1)?;
        budget.spend(Resource::ParsedBytes, (p.pos - j) as u64)?;
        if objs.insert(num, (gen, j)).is_none() {
            budget.spend(Resource::XrefEntries, 1)?;
        }
        is_page.insert(num, is_page_dict(&obj));
        if let Obj::Dict(d) = &obj {
            if matches!(
                d.get(b"Type").and_then(Obj::as_name),
                Some(b"ObjStm" | b"XRef" | b"Metadata")
            ) {
                decoded.push((num, j));
            }
            match d.get(b"Type").and_then(Obj::as_name) {
                Some(b"Catalog") => catalog = Some(Ref::new(num, gen)),
                Some(b"ObjStm") => objstms.push(num),
                Some(b"XRef") => {
                    xref_streams = true;
                    trailer_entries(d, &mut root, &mut info, &mut id)?;
                }
                _ => {}
            }
        }
    }
    let mut i = 0;
    while let Some(k) = find(&data[i..], b"trailer") {
        let at = i + k;
        i = at + 7;
        let mut p = Parser::new(data, at + 7, true);
        if let Ok(d) = p.dict() {
            trailer_entries(&d, &mut root, &mut info, &mut id)?;
        }
    }
    let mut entries: BTreeMap<u32, Entry> = objs
        .iter()
        .map(|(&n, &(g, off))| (n, Entry::Offset(off as u64, g)))
        .collect();
    // Objects in object streams (only where no direct definition exists).
    let src: &[u8] = data;
    for stm in objstms {
        let Some(&(_, off)) = objs.get(&stm) else {
            continue;
        };
        let Ok(f) = fetch_for_repair(src, off as u64) else {
            continue;
        };
        let Some(d) = f.obj.as_dict() else { continue };
        let n = d
            .get(b"N")
            .and_then(Obj::as_int)
            .unwrap_or(0)
            .clamp(0, 1 << 20);
        let first = d
            .get(b"First")
            .and_then(Obj::as_int)
            .unwrap_or(0)
            .clamp(0, MAX_DECODED as i64) as u64;
        // A header claims at most 32 bytes a pair (as the reader checks it): a /First far
        // past that is not one, and is not decoded.
        if first > (n as u64).saturating_mul(32).saturating_add(4096) {
            continue;
        }
        // Only the header (the pairs before /First) is decoded, never the objects.
        let dec = match Decoder::new(d, f.stream.as_deref().unwrap_or(&[]), budget.limits()) {
            Ok(dec) => dec,
            // A chain over the limits of one stream refuses the file, as when it is read.
            Err(FilterError::OverLimit(r, limit)) => return Err(crate::budget::over(r, limit)),
            Err(_) => continue,
        };
        // The header and up to 16 MiB of objects are decoded: enough to tell pages of any
        // real object stream, bounded for one that inflates without end.
        let Ok(content) = read_prefix(dec, first.saturating_add(16 << 20)) else {
            continue;
        };
        budget.spend(Resource::DecodedBytes, content.len() as u64)?;
        let first = (first as usize).min(content.len());
        let mut p = Parser::new(&content[..first], 0, true);
        for idx in 0..n {
            let Ok(num) = p.uint() else { break };
            let Ok(rel) = p.uint() else { break };
            let num = u32::try_from(num).unwrap_or(u32::MAX);
            if let std::collections::btree_map::Entry::Vacant(v) = entries.entry(num) {
                budget.spend(Resource::XrefEntries, 1)?;
                v.insert(Entry::InStream(stm, idx as u32));
                let at = usize::try_from(rel).map_or(usize::MAX, |r| first.saturating_add(r));
                if at < content.len() {
                    let page = Parser::new(&content, at, true)
                        .object()
                        .is_ok_and(|o| is_page_dict(&o));
                    is_page.insert(num, page);
                }
            }
        }
    }
    // Object 0 is the head of the free list; numbers past what a reader accepts are dropped.
    entries.remove(&0);
    entries.retain(|&n, _| n < 8_388_607);
    let root = root
        .filter(|r| entries.contains_key(&r.num))
        .or(catalog)
        .ok_or_else(|| {
            Error::new(ErrorKind::Damaged(
                "no catalog found while rebuilding the xref".into(),
            ))
        })?;
    let info = info.filter(|i| entries.contains_key(&i.num));
    let pages = is_page
        .iter()
        .filter(|(n, p)| **p && entries.contains_key(n))
        .count();
    let startxref = crate::reader::rfind(data, b"startxref")
        .and_then(|at| Parser::new(data, at + 9, true).uint().ok())
        .unwrap_or(0);
    Ok(Rebuilt {
        header: hdr,
        entries,
        root,
        info,
        id,
        xref_streams,
        startxref,
        pages,
        decoded,
    })
}

/// Refuses a file that a full load would inflate past `bound`: lopdf decodes
/// object streams, xref streams and the metadata stream whole, so each of those `r` found in
/// `data` (the bytes from `%PDF-` on) is first decoded here as a stream and counted, never
/// held.
///
/// # Errors
/// [`ErrorKind::TooLarge`] naming the first stream past the bound.
pub(crate) fn check_decoded(data: &[u8], r: &Rebuilt, bound: u64) -> Result<(), Error> {
    for &(num, off) in &r.decoded {
        let Ok(f) = fetch_for_repair(data, off as u64) else {
            continue;
        };
        let Some(d) = f.obj.as_dict() else { continue };
        let Ok(dec) = Decoder::new(d, f.stream.as_deref().unwrap_or(&[]), &Limits::default())
        else {
            continue;
        };
        let n = io::copy(&mut io::Read::take(dec, bound + 1), &mut io::sink()).unwrap_or(0);
        if n > bound {
            let what = match d.get(b"Type").and_then(Obj::as_name) {
                Some(b"ObjStm") => "an object stream",
                Some(b"XRef") => "the cross-reference stream",
                _ => "the XMP metadata stream",
            };
            return Err(Error::new(ErrorKind::TooLarge {
                what: what.to_string(),
                object: Some(num),
                bound,
            }));
        }
    }
    Ok(())
}

/// Whether `o` is a page object: a dictionary of `/Type /Page` (not `/Pages`).
fn is_page_dict(o: &Obj) -> bool {
    o.as_dict()
        .and_then(|d| d.get(b"Type"))
        .and_then(Obj::as_name)
        == Some(b"Page")
}

fn fetch_for_repair(src: &[u8], off: u64) -> Result<Fetched, Error> {
    let mut p = Parser::new(src, off as usize, true);
    let id = p.obj_header().map_err(|_| damaged("bad object", off))?;
    let obj = p.object().map_err(|_| damaged("bad object", off))?;
    let ds = p
        .stream_start()
        .map_err(|_| damaged("bad stream", off))?
        .ok_or_else(|| damaged("not a stream", off))?;
    let d = obj.as_dict().ok_or_else(|| damaged("not a stream", off))?;
    let len = d
        .get(b"Length")
        .and_then(Obj::as_int)
        .filter(|l| *l >= 0 && ds + (*l as usize) <= src.len());
    let end = match len {
        Some(l)
            if src[ds + l as usize..]
                .trim_ascii_start()
                .starts_with(b"endstream") =>
        {
            ds + l as usize
        }
        _ => find(&src[ds..], b"endstream")
            .map(|e| ds + e)
            .ok_or_else(|| damaged("stream without endstream", off))?,
    };
    Ok(Fetched {
        id,
        obj: obj.clone(),
        raw: Vec::new(),
        stream: Some(src[ds..end].to_vec()),
    })
}

/// A full rewrite with lopdf: loads `data`, lets `edit` turn the old XMP packet into the new
/// one and name the Info entries, and saves the whole document (compact, new xref, no
/// `/Prev`; signatures do not survive this).
///
/// # Errors
/// [`ErrorKind::Damaged`] when lopdf cannot load the file, [`ErrorKind::Encrypted`], and what
/// `edit` returns.
pub fn rewrite_document(
    data: &[u8],
    edit: impl FnOnce(Option<Vec<u8>>) -> Result<(Vec<u8>, Vec<(String, String)>), Error>,
) -> Result<Vec<u8>, Error> {
    use lopdf::{Dictionary as LD, Object as LO, Stream as LS};
    let mut doc = lopdf::Document::load_mem(data)
        .map_err(|e| damaged(format!("lopdf cannot load it: {e}"), 0))?;
    if doc.trailer.get(b"Encrypt").is_ok() {
        return Err(Error::new(ErrorKind::Encrypted));
    }
    let root = doc
        .trailer
        .get(b"Root")
        .and_then(LO::as_reference)
        .map_err(|_| damaged("no /Root", 0))?;
    let meta_id = doc
        .get_dictionary(root)
        .ok()
        .and_then(|c| c.get(b"Metadata").ok())
        .and_then(|m| m.as_reference().ok());
    let old = meta_id
        .and_then(|id| doc.get_object(id).ok())
        .and_then(|o| o.as_stream().ok())
        .map(|s| {
            s.decompressed_content()
                .unwrap_or_else(|_| s.content.clone())
        });
    let (packet, entries) = edit(old)?;
    let mut md = LD::new();
    md.set("Type", LO::Name(b"Metadata".to_vec()));
    md.set("Subtype", LO::Name(b"XML".to_vec()));
    let stream = LO::Stream(LS::new(md, packet).with_compression(false));
    let meta_id = match meta_id {
        Some(id) => {
            doc.objects.insert(id, stream);
            id
        }
        None => doc.add_object(stream),
    };
    doc.get_dictionary_mut(root)
        .map_err(|_| damaged("the catalog is missing", 0))?
        .set("Metadata", LO::Reference(meta_id));
    let info_id = match doc.trailer.get(b"Info") {
        Ok(LO::Reference(id)) if doc.get_dictionary(*id).is_ok() => *id,
        Ok(LO::Dictionary(d)) => {
            let d = d.clone();
            doc.add_object(LO::Dictionary(d))
        }
        _ => doc.add_object(LO::Dictionary(LD::new())),
    };
    if let Ok(d) = doc.get_dictionary_mut(info_id) {
        for (k, _) in &entries {
            d.remove(k.as_bytes());
        }
        d.remove(b"PithNumber");
        d.remove(b"PithURL");
        for (k, v) in &entries {
            d.set(
                k.as_bytes().to_vec(),
                LO::String(v.as_bytes().to_vec(), lopdf::StringFormat::Literal),
            );
        }
    }
    doc.trailer.set("Info", LO::Reference(info_id));
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| Error::new(ErrorKind::Io).with_source(io::Error::other(e.to_string())))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::testpdf::{build, DOC};
    use crate::Pdf;

    #[test]
    fn rebuilt_xref_reads_where_the_original_did_not() {
        let mut b = build(b"", &DOC, "");
        // Junk inserted after the header shifts every object: the table is now wrong.
        b.splice(9..9, b"% inserted line\n".iter().copied());
        assert!(Pdf::open(&b[..]).is_err());
        let fixed = repair(&b).unwrap();
        assert!(
            fixed.starts_with(&b),
            "the scan appends, it does not rewrite"
        );
        let pdf = Pdf::open(&fixed[..]).unwrap();
        let page = pdf.get(3).unwrap().unwrap();
        assert_eq!(
            page.obj
                .as_dict()
                .unwrap()
                .get(b"Type")
                .and_then(Obj::as_name),
            Some(&b"Page"[..])
        );
        assert!(rewrite_document(&fixed, |_| Ok((b"<x/>".to_vec(), vec![]))).is_ok());
    }

    #[test]
    fn scan_keeps_the_last_definition_and_finds_the_catalog_without_a_trailer() {
        let data = b"junk%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n\
            2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n\
            2 0 obj\n<< /Type /Pages /Kids [] /Count 0 /Later true >>\nendobj\n";
        let r = scan(data).unwrap();
        assert_eq!(r.header, 4);
        assert_eq!(r.root, Ref::new(1, 0));
        assert_eq!((r.info, r.id.as_deref(), r.startxref), (None, None, 0));
        let later = find(data, b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 /Later").unwrap();
        assert!(matches!(r.entries.get(&2), Some(Entry::Offset(o, 0)) if *o == (later - 4) as u64));
        assert_eq!(r.objects(), 2);
        assert_eq!(r.pages, 0);
        assert!(!r.has_compressed() && !r.xref_streams);
    }

    #[test]
    fn scan_lists_objects_in_object_streams_and_the_trailer_id() {
        let head = "3 0 4 10 ";
        let body = format!("{head}<< /A 1 >> << /B 2 >>");
        let data = format!(
            "%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n\
             5 0 obj\n<< /Type /ObjStm /N 2 /First {} /Length {} >>\nstream\n{body}\nendstream\nendobj\n\
             trailer\n<< /Root 1 0 R /Info 4 0 R /ID [<AB><CD>] >>\nstartxref\n999\n%%EOF\n",
            head.len(),
            body.len()
        );
        let r = scan(data.as_bytes()).unwrap();
        assert!(matches!(r.entries.get(&3), Some(Entry::InStream(5, 0))));
        assert!(matches!(r.entries.get(&4), Some(Entry::InStream(5, 1))));
        assert!(r.has_compressed());
        assert_eq!(r.info, Some(Ref::new(4, 0)));
        assert_eq!(r.id.as_deref(), Some("[<AB><CD>]"));
        assert_eq!(r.startxref, 999);
        // The stand-in section lists them: the file reads through it.
        let mut fixed = data.into_bytes();
        let at = fixed.len() as u64;
        fixed.extend_from_slice(&section(&r, at));
        let pdf = Pdf::open(&fixed[..]).unwrap();
        let f = pdf.get(4).unwrap().unwrap();
        assert_eq!(
            f.obj.as_dict().unwrap().get(b"B").and_then(Obj::as_int),
            Some(2)
        );
    }

    #[test]
    fn encrypted_trailers_are_refused() {
        let e = scan(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 9 0 R >>\n")
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Encrypted));
    }

    #[test]
    fn no_catalog_no_repair() {
        let e = repair(b"%PDF-1.4\n1 0 obj\n<< >>\nendobj\n").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Damaged(_)));
        assert!(matches!(
            repair(b"nothing").unwrap_err().kind(),
            ErrorKind::NotPdf
        ));
    }
}
