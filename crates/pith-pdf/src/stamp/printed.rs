//! What page 1 prints of a Pith Number, and where ([`read`]): the badge `pith.sty` draws (a
//! Form XObject of page 1's resources whose dictionary carries `/PithMark /Badge`, the text it
//! shows in `/PithText` and its record in `/PithURL`), pith's stamp (a content stream marked
//! `/PithStamp /Stamp`), the link annotations to a record URL (marked `/PithMark /Link` or
//! `/PithStamp /Link` when pith wrote them), and number text in page 1's own content streams
//! that pith did not draw and cannot rewrite.
//!
//! The text is found in strings shown between `BT` and `ET` read byte for byte, which is how
//! simple fonts (pdfTeX's Type 1 fonts, the standard fonts) encode letters and digits; text in
//! fonts with two-byte codes (XeTeX's and LuaTeX's) is not read. It reads only; nothing is
//! decided here about what to do with a place.

use std::collections::HashSet;

use crate::budget::Resource;
use crate::filters::MAX_WHOLE;
use std::io::Read;

use super::text::TextScan;
use crate::reader::{Fetched, Pdf, ReadAt};
use crate::syntax::{Dict, Obj, Ref};
use crate::vocab::{NUMBER_SCHEME, URL_BASE};
use crate::Error;

use super::geometry::Rect;

/// Which kind of place on page 1 holds a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The badge `pith.sty` draws (a marked Form XObject).
    Badge,
    /// pith's stamp (`pith inject --stamp`).
    Stamp,
    /// A link annotation whose URI is a record URL.
    Link,
    /// Number text in page 1's content that pith did not draw.
    Text,
}

/// One place on page 1 that holds a number.
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// What it is.
    pub kind: Kind,
    /// The object: the badge's form, the stamp's content stream, the annotation (`None` for
    /// text, or a direct annotation).
    pub object: Option<Ref>,
    /// The number text it shows (`pith:7BMK4ZKT`, or the full form), when known.
    pub text: Option<String>,
    /// The record URL it names (the badge's `/PithURL`, a link's `/URI`), when known.
    pub url: Option<String>,
    /// Whether pith drew it (a badge, a stamp, a link with pith's mark): pith can rewrite it.
    pub marked: bool,
    /// A badge's `/BBox` in form space.
    pub(crate) bbox: Option<Rect>,
    /// A badge form's dictionary, as read. A link's is not kept (an annotation may carry
    /// megabytes of `/QuadPoints`, and a page hundreds of links): [`super::badge::relink`]
    /// reads it again.
    pub(crate) dict: Option<Dict>,
    /// Whether it is the link of pith's stamp (its annotation carries `/PithStamp`).
    pub(crate) stamp_link: bool,
}

impl Printed {
    fn new(kind: Kind, object: Option<Ref>) -> Self {
        Printed {
            kind,
            object,
            text: None,
            url: None,
            marked: false,
            bbox: None,
            dict: None,
            stamp_link: false,
        }
    }

    /// Whether it holds a number at all (a badge emptied by `pith strip` holds none).
    pub fn holds(&self) -> bool {
        self.text.is_some() || self.url.is_some()
    }

    /// Whether it names the record whose 26-character code is `code`: its URL names that
    /// code and its text is that record's short or full form.
    pub fn names(&self, code: &str) -> bool {
        let url_ok = self
            .url
            .as_deref()
            .is_none_or(|u| crate::mark::code_of(u).as_deref() == Some(code));
        let text_ok = self.text.as_deref().is_none_or(|t| text_names(t, code));
        url_ok && text_ok
    }
}

/// Whether number text `t` (`pith:<8>` or `pith:YYYY:<26>`) is a form of the record `code`.
pub fn text_names(t: &str, code: &str) -> bool {
    match crate::mark::code_of(t) {
        Some(c) => c == code,
        None => t
            .strip_prefix(NUMBER_SCHEME)
            .is_some_and(|s| s.len() == crate::mark::SHORT_LEN && code.starts_with(s)),
    }
}

/// `/PithMark` (pith.sty, and pith's own writers) on what pith draws.
pub(crate) const MARK_KEY: &[u8] = b"PithMark";
/// Value of [`MARK_KEY`] on a badge's form.
pub(crate) const MARK_BADGE: &[u8] = b"Badge";
/// Value of [`MARK_KEY`] (or of the stamp's `/PithStamp`) on a link.
pub(crate) const MARK_LINK: &[u8] = b"Link";
/// The keys on a badge form naming what it shows and its record.
pub(crate) const KEY_TEXT: &[u8] = b"PithText";
pub(crate) const KEY_URL: &[u8] = b"PithURL";

/// The most XObjects and annotations of page 1 looked at.
const MAX_ITEMS: usize = 4096;
/// The most of page 1's decoded content searched for number text, all its streams together:
/// a stream that would take the total past it, and every stream after it, is not searched.
const MAX_TEXT: u64 = 16 << 20;

/// Page 1 and what it prints of a number.
#[derive(Debug, Clone)]
pub struct PageOne {
    /// Page 1's object.
    pub page_ref: Ref,
    /// Its dictionary.
    pub page: Dict,
    /// The places, badges first, then the stamp, links and text.
    pub places: Vec<Printed>,
}

fn string_of<R: ReadAt>(pdf: &Pdf<R>, d: &Dict, key: &[u8]) -> Option<String> {
    match d.get(key).map(|v| pdf.resolve(v)) {
        Some(Ok(Obj::Str(s))) => String::from_utf8(s).ok(),
        _ => None,
    }
}

/// Reads page 1's places.
///
/// # Errors
/// [`crate::ErrorKind::Unsupported`] when there is no page 1; [`crate::ErrorKind::Damaged`]
/// when page 1 cannot be parsed; [`crate::ErrorKind::Io`].
pub fn read<R: ReadAt>(pdf: &Pdf<R>, catalog: &Dict) -> Result<PageOne, Error> {
    let (page_ref, page, inh) = super::first_page(pdf, catalog)?;
    let mut places = Vec::new();
    // Badges: marked forms of the page's resources.
    let res = match inh.resources.as_ref().map(|r| pdf.resolve(r)) {
        Some(Ok(Obj::Dict(d))) => d,
        _ => Dict::default(),
    };
    // Each object is looked at once, however often the page lists it (a shared object is
    // one place, not thousands), and each one counts as a node walked.
    let mut seen = HashSet::new();
    if let Some(Ok(Obj::Dict(xo))) = res.get(b"XObject").map(|x| pdf.resolve(x)) {
        for (_, v, _) in xo.entries.iter().take(MAX_ITEMS) {
            let Obj::Ref(r) = v else { continue };
            if !seen.insert(r.num) {
                continue;
            }
            pdf.budget().spend(Resource::WalkNodes, 1)?;
            // The dictionary only: an image's data can be megabytes.
            let Some(f) = pdf.get_dict(r.num).ok().flatten() else {
                continue;
            };
            let Some(d) = f.obj.as_dict() else { continue };
            if d.get(MARK_KEY).and_then(Obj::as_name) != Some(MARK_BADGE) {
                continue;
            }
            let mut p = Printed::new(Kind::Badge, Some(*r));
            p.text = string_of(pdf, d, KEY_TEXT);
            p.url = string_of(pdf, d, KEY_URL);
            p.marked = true;
            p.bbox = super::rect(pdf, d.get(b"BBox"));
            p.dict = Some(d.clone());
            places.push(p);
        }
    }
    let contents = super::page_contents(pdf, &page);
    let mut texts = Vec::new();
    let mut budget = MAX_TEXT.min(MAX_WHOLE);
    for c in contents.iter().take(MAX_ITEMS) {
        let Obj::Ref(r) = c else { continue };
        if !seen.insert(r.num) {
            continue;
        }
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        let Some(head) = pdf.get_dict(r.num).ok().flatten() else {
            continue;
        };
        let stamp = head
            .obj
            .as_dict()
            .and_then(|d| d.get(b"PithStamp"))
            .and_then(Obj::as_name)
            == Some(b"Stamp");
        if stamp {
            let mut p = Printed::new(Kind::Stamp, Some(*r));
            if let Some(d) = head.obj.as_dict() {
                p.text = string_of(pdf, d, KEY_TEXT);
                p.url = string_of(pdf, d, KEY_URL);
            }
            p.marked = true;
            places.push(p);
            continue;
        }
        // Read the data only when its encoded length fits what is left to search.
        let len = head
            .obj
            .as_dict()
            .and_then(|d| d.get(b"Length"))
            .and_then(|l| pdf.resolve(l).ok())
            .and_then(|l| l.as_int())
            .and_then(|l| u64::try_from(l).ok());
        if budget == 0 || len.is_none_or(|l| l > budget) {
            continue;
        }
        let Some(f) = pdf.get(r.num).ok().flatten().filter(|f| f.stream.is_some()) else {
            continue;
        };
        // Searched as it is decoded, a window at a time; a stream that breaks off or goes
        // past what is left to search gives nothing, as if it had been decoded whole.
        // A window of a few times the encoded length, within 4 and 64 KiB: a first page's
        // content is most often a few KiB, and a window is zeroed before it is read into.
        let window = usize::try_from(len.unwrap_or(0).saturating_mul(4))
            .unwrap_or(usize::MAX)
            .clamp(4 << 10, 64 << 10);
        match search(pdf, &f, budget, window) {
            Some((read, found)) => {
                budget = budget.saturating_sub(read);
                texts.extend(found);
            }
            None => budget = 0,
        }
    }
    let annots = match page.get(b"Annots").map(|a| pdf.resolve(a)) {
        Some(Ok(Obj::Array(a))) => a,
        _ => vec![],
    };
    for a in annots.iter().take(MAX_ITEMS) {
        if let Obj::Ref(r) = a {
            if !seen.insert(r.num) {
                continue;
            }
        }
        pdf.budget().spend(Resource::WalkNodes, 1)?;
        let Some((d, action)) = link_action(pdf, a) else {
            continue;
        };
        let Some(uri) = string_of(pdf, &action, b"URI") else {
            continue;
        };
        let marked = [&b"PithMark"[..], b"PithStamp"]
            .iter()
            .any(|k| d.get(k).and_then(Obj::as_name) == Some(MARK_LINK));
        if !uri.starts_with(URL_BASE) && !marked {
            continue;
        }
        let mut p = Printed::new(Kind::Link, a.as_ref());
        p.url = Some(uri);
        p.marked = marked;
        p.stamp_link = d.get(b"PithStamp").is_some();
        places.push(p);
    }
    // A stamp written by older versions names its record through its link only.
    let stamp_url = places
        .iter()
        .find(|p| p.kind == Kind::Link && p.marked && p.stamp_link)
        .and_then(|p| p.url.clone());
    for p in places
        .iter_mut()
        .filter(|p| p.kind == Kind::Stamp && p.url.is_none())
    {
        p.url = stamp_url.clone();
    }
    for t in texts {
        let mut p = Printed::new(Kind::Text, None);
        p.text = Some(t);
        places.push(p);
    }
    Ok(PageOne {
        page_ref,
        page,
        places,
    })
}

/// The number texts of content stream `f` and the bytes it decoded to, reading at most
/// `bound` bytes of it through a window of `window` bytes; `None` when it does not decode or
/// is longer.
fn search<R: ReadAt>(
    pdf: &Pdf<R>,
    f: &Fetched,
    bound: u64,
    window: usize,
) -> Option<(u64, Vec<String>)> {
    let mut dec = pdf.decoder(f).ok()?.take(bound.saturating_add(1));
    let mut scan = TextScan::default();
    let mut window = vec![0u8; window];
    let mut read = 0u64;
    loop {
        let n = match dec.read(&mut window) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        read += n as u64;
        if read > bound {
            return None;
        }
        scan.feed(&window[..n]);
    }
    Some((read, scan.finish()))
}

/// The dictionary of annotation `a` and its action's when `a` is a link annotation with an
/// action dictionary; an unreadable annotation is not a link.
pub(super) fn link_action<R: ReadAt>(pdf: &Pdf<R>, a: &Obj) -> Option<(Dict, Dict)> {
    let Ok(Obj::Dict(d)) = pdf.resolve(a) else {
        return None;
    };
    if d.get(b"Subtype").and_then(Obj::as_name) != Some(b"Link") {
        return None;
    }
    let Some(Ok(Obj::Dict(action))) = d.get(b"A").map(|x| pdf.resolve(x)) else {
        return None;
    };
    Some((d, action))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_names_its_record() {
        let code = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
        assert!(text_names("pith:7BMK4ZKT", code));
        assert!(text_names("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5", code));
        assert!(!text_names("pith:AAAAAAAA", code));
        let mut p = Printed::new(Kind::Badge, None);
        p.text = Some("pith:7BMK4ZKT".into());
        p.url = Some(format!("{URL_BASE}{code}"));
        assert!(p.names(code) && p.holds());
        p.url = Some(format!("{URL_BASE}AAAAAAAAAAAAAAAAAAAAAAAAAA"));
        assert!(!p.names(code));
    }
}
