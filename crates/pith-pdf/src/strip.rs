//! Taking a Pith Number out of a PDF (`pith strip`): an incremental update that
//! removes the Info entries `/PithNumber` and `/PithURL`, pith's XMP values
//! ([`super::xmp::strip`]: everything else in the packet stays), the stamp on page 1 with
//! its link annotation, recognised by their `/PithStamp` keys ([`super::stamp`]), the text of
//! the badge `pith.sty` printed (its form, marked `/PithMark /Badge`, gets an empty content
//! stream: it draws nothing where it stood) and every page-1 link to a record the file names
//! ([`super::stamp::printed`]). Number text pith did not draw stays, and is said. The original
//! bytes stay a prefix; [`super::commit::strip_file`] writes it like an inject.
//!
//! The stamp's font objects stay in the file (the page's resources still name them; nothing
//! draws with them).

use crate::document::{load, load_repaired, Document};
use crate::inject::{
    finish_update, read_all, sealed_entries, start_update, Injection, Item, Options, Written,
};
use crate::mark::code_of;
use crate::reader::{Pdf, ReadAt};
use crate::security::StreamKind;
use crate::signature::docmdp;
use crate::stamp::printed::{self, Kind, Printed};
use crate::syntax::{Dict, Obj, Ref};
use crate::writer::object::DictPatch;
use crate::writer::object::{to_vec, Strings};
use crate::{info, xmp, Error, ErrorKind};

/// Plans the update that takes pith's values out of the PDF read from `src`; `unchanged`
/// when it carries none. [`Injection::previous`] is the number that was there.
///
/// # Errors
/// As [`super::inject()`]: a file that cannot be opened, damaged (unless `repair`), certified
/// (unless `force`), an unparsable XMP packet.
pub fn strip<R: ReadAt>(src: R, opts: &Options) -> Result<Injection, Error> {
    match load(&src, opts.password.as_deref(), opts.budget()) {
        Err(e) if opts.repair && matches!(e.kind(), ErrorKind::Damaged(_)) => {
            let data = read_all(&src)?;
            plan(&load_repaired(data, opts.budget())?, opts)
        }
        r => plan(&r?, opts),
    }
}

/// [`strip`] on a document already loaded.
pub(crate) fn plan<R: ReadAt>(doc: &Document<R>, opts: &Options) -> Result<Injection, Error> {
    let inj = plan_strip(doc, opts)?;
    // A limit reached or a stop inside a part read tolerantly (page 1, its annotations)
    // refuses the file: never an update planned on a partial reading.
    doc.pdf.budget().verdict()?;
    Ok(inj)
}

fn plan_strip<R: ReadAt>(doc: &Document<R>, opts: &Options) -> Result<Injection, Error> {
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
    let paper_keys = info::paper_keys_held(doc.info.as_ref().map(|(d, _)| d), |name| {
        values.as_ref().is_some_and(|v| v.added(name))
    });
    let info_has =
        info_values.as_ref().is_some_and(|v| *v != (None, None)) || !paper_keys.is_empty();
    // What page 1 prints: pith's badges are emptied, its links and stamp taken off, and so
    // is every other link to a record the file names.
    let page1 = printed::read(&doc.pdf, &cat).ok();
    let places = page1.as_ref().map(|p| p.places.as_slice()).unwrap_or(&[]);
    let mut codes: Vec<String> = [previous.clone(), info_values.clone().and_then(|v| v.1)]
        .into_iter()
        .flatten()
        .chain(values.iter().flat_map(|v| v.url.clone()))
        .filter_map(|v| code_of(&v))
        .collect();
    codes.extend(
        places
            .iter()
            .filter(|p| p.marked)
            .filter_map(|p| p.url.as_deref().and_then(code_of)),
    );
    let badges: Vec<&Printed> = places
        .iter()
        .filter(|p| p.kind == Kind::Badge && p.holds())
        .collect();
    let drop_link = |p: &Printed| {
        p.kind == Kind::Link
            && (p.marked
                || p.url
                    .as_deref()
                    .and_then(code_of)
                    .is_some_and(|c| codes.contains(&c)))
    };
    let links: Vec<Ref> = places
        .iter()
        .filter(|p| drop_link(p))
        .filter_map(|p| p.object)
        .collect();
    let stamp = stamped_page(&doc.pdf, &cat, &links);
    let had_stamp = places.iter().any(|p| p.kind == Kind::Stamp);
    // Text pith did not draw stays; it is said.
    let notes: Vec<String> = places
        .iter()
        .filter(|p| p.kind == Kind::Text)
        .filter_map(|p| p.text.as_ref())
        .map(|t| {
            format!("page 1 shows {t} in its own text, which pith did not draw and cannot remove")
        })
        .collect();

    if packet.is_none() && !info_has && stamp.is_none() && badges.is_empty() {
        return Ok(Injection::nothing_to_write(previous, notes));
    }
    let (mut up, mut written) = start_update(doc)?;
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
    for b in &badges {
        let (Some(r), Some(d)) = (b.object, b.dict.as_ref()) else {
            continue;
        };
        up.stream(r, &emptied(d), StreamKind::Other, b"");
        written.push(Written::new(
            Item::Badge,
            Some(r),
            format!(
                "page 1: the badge (form {} {}) emptied, it showed {}",
                r.num,
                r.gen,
                b.text.as_deref().or(b.url.as_deref()).unwrap_or("-")
            ),
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
                "page 1 (object {}): {} removed",
                page_ref.num,
                if had_stamp {
                    "the stamp's content and the links to the record"
                } else {
                    "the links to the record"
                }
            ),
        ));
    }
    let sealed = sealed_entries(doc)?;
    let app = finish_update(up, doc, doc.info_ref, &sealed)?;
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
        notes,
    })
}

/// A badge form's dictionary once emptied: what it showed and its record taken out, its
/// filters gone with the data; `/PithMark /Badge` stays, so the box is still pith's.
fn emptied(d: &Dict) -> Obj {
    let mut d = d.clone();
    d.entries.retain(|(k, _, _)| {
        ![
            printed::KEY_TEXT,
            printed::KEY_URL,
            b"Length",
            b"Filter",
            b"DecodeParms",
        ]
        .contains(&k.as_slice())
    });
    Obj::Dict(d)
}

/// Whether object `o` (a reference) is a dictionary or stream marked `/PithStamp`, or one of
/// the `links` to take off.
fn marked<R: ReadAt>(pdf: &Pdf<R>, o: &Obj, links: &[Ref]) -> bool {
    let Obj::Ref(r) = o else { return false };
    if links.contains(r) {
        return true;
    }
    pdf.get(r.num)
        .ok()
        .flatten()
        .and_then(|f| f.obj.as_dict().map(|d| d.get(b"PithStamp").is_some()))
        .unwrap_or(false)
}

/// Page 1 without the stamp's content streams, its link annotation and the other `links`,
/// when it carries any.
fn stamped_page<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict, links: &[Ref]) -> Option<(Ref, Dict)> {
    let (page_ref, mut page) = first_page(pdf, catalog)?;
    let mut changed = false;
    for key in [&b"Contents"[..], b"Annots"] {
        // An array of its own (XeTeX and LuaTeX write /Annots so) is written into the
        // page's new version as a direct array.
        let items = match page.get(key).map(|v| pdf.resolve(v)) {
            Some(Ok(Obj::Array(items))) => items,
            _ => continue,
        };
        let kept: Vec<Obj> = items
            .iter()
            .filter(|o| !marked(pdf, o, links))
            .cloned()
            .collect();
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

/// Page 1 (the page the stamp goes on), if it can be found. A page tree that cannot be read
/// holds no stamp of pith's (inject never stamps it), so read errors are "no page", not a
/// refusal: the number and link still come out. A limit reached on the way still refuses the
/// file, when the plan ends ([`crate::budget::Budget::verdict`]).
fn first_page<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> Option<(Ref, Dict)> {
    let p = pdf.first_page(catalog).ok()?;
    Some((p.page_ref, p.page))
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
