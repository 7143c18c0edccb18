//! Taking a Pith Number out of a PDF (`pith strip`): an incremental update that
//! removes the Info entries `/PithNumber` and `/PithURL`, pith's XMP values
//! ([`super::xmp::strip`]: everything else in the packet stays) and the stamp on page 1 with
//! its link annotation, recognised by their `/PithStamp` keys ([`super::stamp`]). The original
//! bytes stay a prefix; [`super::commit::strip_file`] writes it like an inject.
//!
//! The stamp's font objects stay in the file (the page's resources still name them; nothing
//! draws with them).

use crate::document::{load, load_repaired, Document};
use crate::inject::{encryption_entries, read_all, Injection, Item, Options, Written};
use crate::reader::{Pdf, ReadAt};
use crate::signature::docmdp;
use crate::syntax::{Dict, Obj, Ref};
use crate::writer::object::{to_vec, Strings};
use crate::writer::object::{DictPatch, Trailer};
use crate::writer::Update;
use crate::{info, xmp, Error, ErrorKind};

/// Plans the update that takes pith's values out of the PDF read from `src`; `unchanged`
/// when it carries none. [`Injection::previous`] is the number that was there.
///
/// # Errors
/// As [`super::inject()`]: a file that cannot be opened, damaged (unless `repair`), certified
/// (unless `force`), an unparsable XMP packet.
pub fn strip<R: ReadAt>(src: R, opts: &Options) -> Result<Injection, Error> {
    match load(&src, opts.password.as_deref()) {
        Err(e) if opts.repair && matches!(e.kind(), ErrorKind::Damaged(_)) => {
            let data = read_all(&src)?;
            plan(&load_repaired(data)?, opts)
        }
        r => plan(&r?, opts),
    }
}

/// [`strip`] on a document already loaded.
pub(crate) fn plan<R: ReadAt>(doc: &Document<R>, opts: &Options) -> Result<Injection, Error> {
    if let Some(kind) = &doc.not_opened {
        return Err(Error::new(kind.clone()));
    }
    doc.check_referenced()?;
    let cat = doc.catalog();
    if docmdp(&doc.pdf, &cat)? == Some(1) && !opts.force {
        return Err(Error::new(ErrorKind::Certified));
    }
    let values = doc.packet.as_deref().map(xmp::read).transpose()?;
    let info_values = doc.info.as_ref().map(|(d, _)| info::read(d));
    let previous = values
        .as_ref()
        .and_then(|v| v.number.clone())
        .or_else(|| info_values.clone().and_then(|v| v.0));
    let packet = doc.packet.as_deref().map(xmp::strip).transpose()?.flatten();
    // The Info entries pith wrote for the paper (`pith:added` lists them), beside its own.
    let paper_keys: Vec<&str> = [
        (crate::vocab::added::INFO_TITLE, info::KEY_TITLE),
        (crate::vocab::added::INFO_AUTHOR, info::KEY_AUTHOR),
    ]
    .into_iter()
    .filter(|(name, key)| {
        values.as_ref().is_some_and(|v| v.added(name))
            && doc
                .info
                .as_ref()
                .is_some_and(|(d, _)| info::text(d, key).is_some())
    })
    .map(|(_, key)| key)
    .collect();
    let info_has = info_values.is_some_and(|v| v != (None, None)) || !paper_keys.is_empty();
    let stamp = stamped_page(&doc.pdf, &cat);

    if packet.is_none() && !info_has && stamp.is_none() {
        return Ok(Injection {
            appended: Vec::new(),
            offsets: None,
            unchanged: true,
            written: Vec::new(),
            replaced_xmp: None,
            previous,
        });
    }
    let pdf = &doc.pdf;
    let mut up = Update::new(pdf)?;
    let mut written = Vec::new();
    if let Some((rebuilt, len, last)) = &doc.rebuilt {
        up.complete(rebuilt, *len, *last);
        written.push(Written::new(
            Item::Rebuilt,
            None,
            format!(
                "cross-reference table rebuilt from a scan: {} objects, written complete after the original bytes",
                rebuilt.objects()
            ),
        ));
    }
    if let (Some(p), Some(m)) = (&packet, doc.metadata_ref) {
        up.metadata(m, p);
        written.push(Written::new(
            Item::Xmp,
            Some(m),
            format!(
                "XMP metadata {} {}: pith:*, Pith xmp:Identifier and dc:relation items removed",
                m.num, m.gen
            ),
        ));
    }
    if let (true, Some(r), Some((d, text))) = (info_has, doc.info_ref, &doc.info) {
        let mut patch = DictPatch::of(d, text);
        patch.remove(info::KEY_NUMBER).remove(info::KEY_URL);
        for key in &paper_keys {
            patch.remove(key);
        }
        up.dict(r, &patch);
        written.push(Written::new(
            Item::Info,
            Some(r),
            format!("Info {} {}: /PithNumber and /PithURL removed", r.num, r.gen),
        ));
    }
    if let Some((page_ref, page)) = &stamp {
        let sec = up.security();
        up.object(
            *page_ref,
            &to_vec(&Obj::Dict(page.clone()), Strings::of(sec, *page_ref)),
        );
        written.push(Written::new(
            Item::Stamp,
            Some(*page_ref),
            format!(
                "page 1 (object {}): the stamp's content and link annotation removed",
                page_ref.num
            ),
        ));
    }
    let (encrypt, id) = if doc.encrypted {
        let (e, id) = encryption_entries(pdf)?;
        (Some(e), id)
    } else {
        (None, None)
    };
    let app = up.finish(&Trailer {
        root: doc.root,
        info: doc.info_ref,
        id: id.as_deref().or_else(|| pdf.trailer_value_text(b"ID")),
        encrypt: encrypt.as_deref(),
    })?;
    written.push(Written::new(
        Item::Update,
        None,
        format!("incremental update: {} bytes", app.bytes.len()),
    ));
    Ok(Injection {
        appended: app.bytes,
        offsets: Some(app.offsets),
        unchanged: false,
        written,
        replaced_xmp: None,
        previous,
    })
}

/// Whether object `o` (a reference) is a dictionary or stream marked `/PithStamp`.
fn marked<R: ReadAt>(pdf: &Pdf<R>, o: &Obj) -> bool {
    let Obj::Ref(r) = o else { return false };
    pdf.get(r.num)
        .ok()
        .flatten()
        .and_then(|f| f.obj.as_dict().map(|d| d.get(b"PithStamp").is_some()))
        .unwrap_or(false)
}

/// Page 1 without the stamp's content streams and link annotation, when it carries them.
fn stamped_page<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> Option<(Ref, Dict)> {
    let (page_ref, mut page) = first_page(pdf, catalog)?;
    let mut changed = false;
    for key in [&b"Contents"[..], b"Annots"] {
        let Some(Obj::Array(items)) = page.get(key).cloned() else {
            continue;
        };
        let kept: Vec<Obj> = items.iter().filter(|o| !marked(pdf, o)).cloned().collect();
        if kept.len() != items.len() {
            changed = true;
            for (k, v, _) in &mut page.entries {
                if k.as_slice() == key {
                    *v = Obj::Array(kept.clone());
                }
            }
        }
    }
    changed.then_some((page_ref, page))
}

/// Page 1 of the page tree (the first kid at each level), if it can be found. A page tree
/// that cannot be read holds no stamp of pith's (inject never stamps it), so read errors are
/// "no page", not a refusal: the number and link still come out.
fn first_page<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> Option<(Ref, Dict)> {
    let mut node = catalog.get(b"Pages").and_then(Obj::as_ref)?;
    for _ in 0..64 {
        let f = pdf.get(node.num).ok().flatten()?;
        let d = f.obj.as_dict().cloned()?;
        let kids = match d.get(b"Kids").map(|k| pdf.resolve(k)) {
            Some(Ok(Obj::Array(a))) => a,
            Some(_) => return None,
            None => return Some((node, d)),
        };
        node = kids.first().and_then(Obj::as_ref)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::testpdf::{build, DOC};
    use crate::Mark;
    use crate::{inject, inspect};

    #[test]
    fn inject_then_strip_leaves_no_number_and_the_original_prefix() {
        let bytes = build(b"", &DOC, "");
        let n = Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let opts = Options::new("2024-01-01T00:00:00Z");
        assert!(
            strip(&bytes[..], &opts).unwrap().unchanged,
            "nothing of pith's"
        );
        let mut out = bytes.clone();
        out.extend_from_slice(&inject(&bytes[..], &n, &opts).unwrap().appended);
        let s = strip(&out[..], &opts).unwrap();
        assert_eq!(s.previous, Some(n.full.clone()));
        assert!(s.written.iter().any(|w| w.item == Item::Info));
        let mut stripped = out.clone();
        stripped.extend_from_slice(&s.appended);
        assert!(stripped.starts_with(&out));
        let ins = inspect(&stripped[..]).unwrap();
        assert_eq!((ins.found(), ins.info_url), (None, None));
        assert!(strip(&stripped[..], &opts).unwrap().unchanged);
    }
}
