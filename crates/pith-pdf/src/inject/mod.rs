//! Planning the update that writes a Pith Number: the XMP packet (`xmp:Identifier`,
//! `dc:relation`, `pith:*`) as a new version of the metadata stream (or a new stream and
//! catalog), the Info entries `/PithNumber` and `/PithURL` (none on PDF/A-4), and the
//! trailer. It decides what to refuse (encrypted files it cannot open, certified unless
//! forced, unparsable XMP unless forced, a page 1 that prints another number unless
//! [`Options::replace`], which redraws pith's badge and links in the same update) and returns bytes; it touches no files ([`super::commit`] does). Also the
//! full rewrite ([`rewrite()`]), which goes through [`super::repair`].

mod rewrite;
mod update;

use crate::budget::{Budget, Limits, Stop};
use crate::document::{load, load_repaired, Document};
use crate::error::PrintedNumber;
use crate::mark::code_of;
use crate::reader::{ReadAt, XrefKind};
use crate::signature::{count_signatures, docmdp};
use crate::stamp::printed::{self, Kind, Printed};
use crate::writer::object::{DictPatch, Value};
use crate::writer::Offsets;
use crate::Identifier;
use crate::{info, stamp, xmp, Error, ErrorKind};

pub use rewrite::rewrite;
pub(crate) use update::{finish_update, sealed_entries, start_update};

/// How [`inject`] behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// Update certified files that forbid changes, and replace unparsable XMP packets.
    pub force: bool,
    /// The update time for `xmp:MetadataDate` (ISO 8601, e.g. `2024-01-01T00:00:00Z`).
    pub now: String,
    /// The user or owner password of an encrypted file whose user password is not empty;
    /// the empty user password is tried too.
    pub password: Option<Vec<u8>>,
    /// Also put a visible, linked stamp on page 1 ([`stamp`]).
    pub stamp: Option<stamp::Stamp>,
    /// When the file is refused as damaged, rebuild its cross-reference table by scanning and
    /// append the update with a complete section; the original bytes stay a
    /// prefix. A file that is not damaged is updated as without it.
    pub repair: bool,
    /// What is known of the paper: its identifiers are written beside the number, its title
    /// and authors where the file has none ([`xmp::PaperFacts`]).
    pub paper: xmp::PaperFacts,
    /// When page 1 prints another number in pith's badge, stamp or record links, redraw
    /// them with the number written (in the same box, in the same update) instead of
    /// refusing the file ([`ErrorKind::Printed`]).
    pub replace: bool,
    /// The most reading the file may cost ([`Limits::default`]).
    pub limits: Limits,
    /// Stops the work when cancelled or past its deadline ([`Stop::never`] by default).
    pub stop: Stop,
}

impl Options {
    /// Options with `force` off and the given time.
    pub fn new(now: &str) -> Self {
        Options {
            force: false,
            now: now.to_string(),
            password: None,
            stamp: None,
            repair: false,
            paper: xmp::PaperFacts::default(),
            replace: false,
            limits: Limits::default(),
            stop: Stop::never(),
        }
    }

    /// A fresh budget of these options' limits and stop token, for one document.
    pub(crate) fn budget(&self) -> Budget {
        Budget::new(self.limits, self.stop.clone())
    }
}

/// The planned update.
#[derive(Debug, Clone)]
pub struct Injection {
    /// Bytes to append to the original file; empty when [`Injection::unchanged`].
    pub appended: Vec<u8>,
    /// Where `appended` goes and the `startxref` values around it; `None` when unchanged.
    pub offsets: Option<Offsets>,
    /// The file already carries the number: nothing to write.
    pub unchanged: bool,
    /// What is written, one item per object or section.
    pub written: Vec<Written>,
    /// The old XMP packet, when it was unparsable and replaced under `force`.
    pub replaced_xmp: Option<Vec<u8>>,
    /// The number the file carried before (XMP `pith:number`, else Info `/PithNumber`), as
    /// found, whether or not it is the one written (a replaced number is said).
    pub previous: Option<String>,
    /// What was left as it is, and why (a stamp not added because page 1 already prints
    /// the number), for people.
    pub notes: Vec<String>,
}

/// One thing an update writes (typed, not only a line of text).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Written {
    /// Which part of the file.
    pub item: Item,
    /// The object written, `NUM GEN`, when the item is one object.
    pub object: Option<String>,
    /// A description of what was written, for people.
    pub text: String,
}

/// The parts of a file an update writes ([`Written::item`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Item {
    /// The cross-reference table rebuilt from a scan (a repair).
    Rebuilt,
    /// The document catalog (a new `/Metadata` entry).
    Catalog,
    /// The XMP metadata stream.
    Xmp,
    /// The document Info dictionary.
    Info,
    /// The visible stamp on page 1 and its link.
    Stamp,
    /// The badge `pith.sty` printed on page 1 (its form XObject).
    Badge,
    /// A page-1 link annotation to a record.
    Link,
    /// The incremental update itself (its size and xref kind).
    Update,
}

impl Injection {
    /// Nothing to write: the file already says what the update would.
    pub(crate) fn nothing_to_write(previous: Option<String>, notes: Vec<String>) -> Self {
        Injection {
            appended: Vec::new(),
            offsets: None,
            unchanged: true,
            written: Vec::new(),
            replaced_xmp: None,
            previous,
            notes,
        }
    }
}

impl Written {
    pub(crate) fn new(item: Item, object: Option<super::Ref>, text: String) -> Self {
        Written {
            item,
            object: object.map(|r| format!("{} {}", r.num, r.gen)),
            text,
        }
    }
}

impl std::fmt::Display for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Plans the incremental update that writes `number` into the PDF read from `src`.
///
/// # Errors
/// [`ErrorKind::Crypt`] (an encrypted file that the empty password, or the one given, does
/// not open), [`ErrorKind::Damaged`], [`ErrorKind::NotPdf`],
/// [`ErrorKind::Certified`] (unless `force`), [`ErrorKind::Xmp`] (unless `force`),
/// [`ErrorKind::Signed`] (with a stamp, unless `force`), [`ErrorKind::Unsupported`],
/// [`ErrorKind::Io`].
pub fn inject<R: ReadAt>(
    src: R,
    number: &dyn Identifier,
    opts: &Options,
) -> Result<Injection, Error> {
    match load(&src, opts.password.as_deref(), opts.budget()) {
        Err(e) if opts.repair && matches!(e.kind(), ErrorKind::Damaged(_)) => plan(
            &load_repaired(read_all(&src)?, opts.budget())?,
            number,
            opts,
        ),
        r => plan(&r?, number, opts),
    }
}

/// The largest file read whole, by a repair (rebuilding the cross-reference table from a scan)
/// or a full rewrite: 512 MiB. The append-only update reads only the objects it
/// needs and has no such limit.
pub const MAX_READ_WHOLE: u64 = 512 << 20;

/// The whole of `src` (for a rewrite or a repair), refused past [`MAX_READ_WHOLE`]: as long
/// as `src` says it is and no longer, so a device that never ends (`/dev/zero`, whose length
/// is 0) is read as empty, never on.
///
/// # Errors
/// [`ErrorKind::Unsupported`] past the bound, [`ErrorKind::Io`].
pub fn read_all<R: ReadAt>(src: &R) -> Result<Vec<u8>, Error> {
    if src.len() > MAX_READ_WHOLE {
        return Err(Error::new(ErrorKind::Unsupported(format!(
            "rebuilding or rewriting a file of more than {} MiB, which is read whole for that",
            MAX_READ_WHOLE >> 20
        ))));
    }
    let mut data = vec![0u8; src.len() as usize];
    let n = src
        .read_at(0, &mut data)
        .map_err(|e| Error::new(ErrorKind::Io).with_source(e))?;
    data.truncate(n);
    Ok(data)
}

/// [`inject`] on a document already loaded.
pub(crate) fn plan<R: ReadAt>(
    doc: &Document<R>,
    number: &dyn Identifier,
    opts: &Options,
) -> Result<Injection, Error> {
    let inj = plan_update(doc, number, opts)?;
    // A limit reached or a stop inside a part read tolerantly (page 1, its annotations)
    // refuses the file: never an update planned on a partial reading.
    doc.pdf.budget().verdict()?;
    Ok(inj)
}

fn plan_update<R: ReadAt>(
    doc: &Document<R>,
    number: &dyn Identifier,
    opts: &Options,
) -> Result<Injection, Error> {
    if let Some(kind) = &doc.not_opened {
        return Err(Error::new(kind.clone()));
    }
    doc.check_referenced()?;
    let cat = doc.catalog();
    let mdp = docmdp(&doc.pdf, &cat)?;
    if mdp == Some(1) && !opts.force {
        return Err(Error::new(ErrorKind::Certified));
    }
    // What page 1 prints: another number is refused, or with `replace` redrawn; a stamp is
    // not added where page 1 already prints this number.
    let page1 = printed::read(&doc.pdf, &cat).ok();
    let code = code_of(&number.url()).unwrap_or_default();
    let places = page1.as_ref().map(|p| p.places.as_slice()).unwrap_or(&[]);
    let others: Vec<&Printed> = places
        .iter()
        .filter(|p| p.holds() && !p.names(&code))
        .collect();
    let shows = |p: &Printed| p.text.clone().or_else(|| p.url.clone()).unwrap_or_default();
    // Text pith did not draw: refused when the file would name another number beside it,
    // not when it carries this one already (the text then stands as it stood).
    // The packet is parsed once, here, for every question below and for the merge (parsing
    // it was the dearest step of an update after the file system's).
    let text = doc.packet.as_deref().map(xmp::Text::of);
    let parsed = text.as_ref().map(xmp::Text::parse);
    let read_ok = parsed
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .map(xmp::Parsed::values);
    let carries = read_ok
        .and_then(|v| v.number.clone())
        .or_else(|| doc.info.as_ref().and_then(|(d, _)| info::read(d).0))
        .and_then(|n| code_of(&n))
        .is_some_and(|c| c == code);
    if let Some(t) = others.iter().find(|p| p.kind == Kind::Text) {
        if !opts.force && !carries {
            return Err(Error::new(ErrorKind::Printed(Box::new(PrintedNumber {
                printed: shows(t),
                writing: number.full(),
                drawn: false,
            }))));
        }
    }
    let redraw: Vec<&Printed> = others
        .iter()
        .copied()
        .filter(|p| p.kind != Kind::Text)
        .collect();
    if let Some(p) = redraw.first() {
        if !opts.replace {
            return Err(Error::new(ErrorKind::Printed(Box::new(PrintedNumber {
                printed: shows(p),
                writing: number.full(),
                drawn: true,
            }))));
        }
    }
    let mut notes = Vec::new();
    // The badge prints this number already, or will once redrawn (another number's badge
    // reaching here is redrawn: without `replace` it was refused above).
    let badge_shows = places.iter().find(|p| p.kind == Kind::Badge && p.holds());
    let old_stamp = redraw.iter().any(|p| p.kind == Kind::Stamp);
    let want_stamp = match (&opts.stamp, badge_shows) {
        (Some(_), Some(b)) => {
            let text = match b.names(&code) {
                true => b.text.clone().unwrap_or_else(|| number.short()),
                false => number.short(),
            };
            notes.push(format!(
                "no stamp added: page 1 already prints {text} in its badge"
            ));
            None
        }
        // A stamp of another number is replaced by one of this number.
        (None, _) if old_stamp => Some(stamp::Stamp::default()),
        (s, _) => *s,
    };
    // A stamp changes page content, which signature validators report.
    let stamp = match &want_stamp {
        // On an encrypted file the stamp's strings and streams are encrypted like the rest
        // of the update (the writer's security handler).
        Some(s) => {
            let sigs = count_signatures(&doc.pdf, &cat)?;
            if (sigs > 0 || mdp.is_some()) && !opts.force {
                return Err(Error::new(ErrorKind::Signed(sigs, mdp.is_some())));
            }
            let pdfa = read_ok.is_some_and(|v| v.pdfa_part.is_some());
            let s = stamp::Stamp {
                grey: s.grey && stamp::grey_allowed(&cat, pdfa),
                ..*s
            };
            Some(stamp::plan(&doc.pdf, &cat, number, &s)?)
        }
        None => None,
    };
    let props = xmp::Props {
        number: number.full(),
        short: number.short(),
        url: number.url(),
        paper: opts.paper.clone(),
    };
    let mut replaced_xmp = None;
    let previous = read_ok
        .and_then(|v| v.number.clone())
        .or_else(|| doc.info.as_ref().and_then(|(d, _)| info::read(d).0));
    // The packet merged into below, parsed; none when there is none, or when it is not XMP
    // and `force` replaces it.
    let parsed = match parsed {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(_)) if opts.force => {
            replaced_xmp = doc.packet.clone();
            None
        }
        Some(Err(e)) => return Err(e),
    };
    let values = parsed.as_ref().map(xmp::Parsed::values);
    let pdfa4 = values.and_then(|v| v.pdfa_part.as_deref()) == Some("4");
    let paper_entries = paper_info(
        parsed.as_ref(),
        doc.info.as_ref().map(|(d, _)| d),
        &opts.paper,
    );
    let entries = if pdfa4 {
        vec![]
    } else {
        let mut e = info::entries(&props.number, &props.url);
        e.extend(paper_entries.iter().cloned());
        e
    };
    let info_added: Vec<&str> = paper_entries.iter().map(info::added_name).collect();
    // Info entries pith wrote for a paper before that this update does not write again (the
    // number is now another paper's, or none is known): they go.
    let stale_info: Vec<&str> = info::paper_keys_held(doc.info.as_ref().map(|(d, _)| d), |name| {
        values.is_some_and(|v| v.added(name))
    })
    .into_iter()
    .filter(|key| !entries.iter().any(|e| e.key == *key))
    .collect();
    let info_ok = stale_info.is_empty()
        && match &doc.info {
            Some((d, _)) => info::carries(d, &entries) && (!pdfa4 || info::read(d) == (None, None)),
            None => entries.is_empty(),
        };
    let xmp_ok = parsed.as_ref().is_some_and(|p| {
        p.values().carries(&props)
            && info_added.iter().all(|a| p.values().added(a))
            && p.current(&props, &info_added).unwrap_or(false)
    });
    let stamp_ok = stamp.as_ref().is_none_or(stamp::Plan::is_current);
    if info_ok && xmp_ok && stamp_ok && redraw.is_empty() {
        return Ok(Injection::nothing_to_write(previous, notes));
    }

    let pdf = &doc.pdf;
    let (mut up, mut written) = start_update(doc)?;

    // XMP: a new version of the existing metadata stream, or a new stream and catalog.
    let merged = match parsed
        .as_ref()
        .map(|p| p.merge(&props, &opts.now, &info_added))
    {
        Some(Ok(m)) => m,
        None => xmp::merge_new(&props, &opts.now, &info_added)?,
        Some(Err(_)) if opts.force => {
            replaced_xmp = doc.packet.clone();
            xmp::merge_new(&props, &opts.now, &info_added)?
        }
        Some(Err(e)) => return Err(e),
    };
    let meta = match doc.metadata_ref {
        Some(r) => r,
        None => {
            let m = up.alloc();
            let (d, text) = doc.catalog.dict_text().expect("catalog is a dictionary");
            let mut d = d.clone();
            super::writer::object::rebase(&mut d);
            let mut cat = DictPatch::of(&d, text);
            cat.set("Metadata", Value::Ref(m));
            up.dict(doc.root, &cat);
            written.push(Written::new(
                Item::Catalog,
                Some(doc.root),
                format!("catalog {} {}: /Metadata {m}", doc.root.num, doc.root.gen),
            ));
            m
        }
    };
    up.metadata(meta, &merged.bytes);
    let also = merged
        .values
        .added
        .iter()
        .filter(|a| !a.starts_with("Info/"))
        .map(String::as_str)
        .collect::<Vec<_>>();
    let also = if also.is_empty() {
        String::new()
    } else {
        format!("; for the paper: {}", also.join(", "))
    };
    written.push(Written::new(Item::Xmp, Some(meta), format!("XMP metadata {} {}: xmp:Identifier {}, dc:relation {}, pith:number, pith:shortNumber, pith:url{also}", meta.num, meta.gen, props.number, props.url)));

    // Info: an indirect dictionary with the Pith entries (none on PDF/A-4).
    let mut info_ref = doc.info_ref;
    if !entries.is_empty()
        || !stale_info.is_empty()
        || doc
            .info
            .as_ref()
            .is_some_and(|(d, _)| info::read(d) != (None, None))
    {
        let r = doc.info_ref.unwrap_or_else(|| up.alloc());
        let mut d = match &doc.info {
            Some((d, text)) => DictPatch::of(d, text),
            None => DictPatch::new(),
        };
        for e in &entries {
            d.set(e.key, Value::Text(e.value.clone()));
        }
        for key in &stale_info {
            d.remove(key);
        }
        if entries.is_empty() {
            // PDF/A-4 allows no custom Info entries (ISO 19005-4 §6.1.3): drop old ones.
            d.remove(info::KEY_NUMBER).remove(info::KEY_URL);
        }
        up.dict(r, &d);
        info_ref = Some(r);
        if entries.is_empty() {
            written.push(Written::new(
                Item::Info,
                Some(r),
                format!(
                    "Info {} {}: Pith entries removed (PDF/A-4 allows only ModDate)",
                    r.num, r.gen
                ),
            ));
        } else {
            let also: String = paper_entries
                .iter()
                .map(|e| format!(" /{}", e.key))
                .collect();
            written.push(Written::new(
                Item::Info,
                Some(r),
                format!(
                    "Info {} {}: /PithNumber {} /PithURL {}{also}",
                    r.num, r.gen, props.number, props.url
                ),
            ));
        }
    }

    // An encrypted file's update repeats /Encrypt and /ID (the file key depends on the first
    // /ID string), written out when they come from an older trailer.
    let sealed = sealed_entries(doc)?;
    if let Some(plan) = stamp.as_ref().filter(|p| !p.is_current()) {
        let mut lines = Vec::new();
        plan.write(&mut up, &mut lines)?;
        written.extend(
            lines
                .into_iter()
                .map(|l| Written::new(Item::Stamp, None, l)),
        );
    }

    // Redraw pith's badges and point the links at the new record (the stamp was replaced
    // above, with its own link).
    for p in &redraw {
        match p.kind {
            Kind::Badge => {
                let text = match p.text.as_deref().and_then(crate::mark::code_of) {
                    Some(_) => number.full(),
                    None => number.short(),
                };
                let line = stamp::badge::redraw(&mut up, p, &text, &number.url())?;
                written.push(Written::new(Item::Badge, p.object, line));
            }
            Kind::Link if !stamp_links(p) => {
                match stamp::badge::relink(pdf, &mut up, p, &number.url())? {
                    Some(line) => written.push(Written::new(Item::Link, p.object, line)),
                    None => notes.push(format!(
                        "a page-1 link to {} is not an object of its own and was left as it is",
                        p.url.as_deref().unwrap_or("-")
                    )),
                }
            }
            _ => {}
        }
    }

    let kind = up.xref_kind();
    let app = finish_update(up, doc, info_ref, &sealed)?;
    written.push(Written::new(
        Item::Update,
        None,
        format!(
            "incremental update: {} bytes, xref {}",
            app.bytes.len(),
            if kind == XrefKind::Stream {
                "stream"
            } else {
                "table"
            }
        ),
    ));
    Ok(Injection {
        appended: app.bytes,
        offsets: Some(app.offsets),
        unchanged: false,
        written,
        replaced_xmp,
        previous,
        notes,
    })
}

/// The Info entries `/Title` and `/Author` written for the paper: only where the file has
/// none of the publisher's, neither in Info nor in XMP (what pith added before counts as
/// pith's), and never on PDF/A, whose Info and XMP must agree entry by entry.
fn paper_info(
    parsed: Option<&xmp::Parsed>,
    info: Option<&crate::syntax::Dict>,
    paper: &xmp::PaperFacts,
) -> Vec<info::Entry> {
    let values = parsed.map(xmp::Parsed::values);
    if values.is_some_and(|v| v.pdfa_part.is_some()) {
        return Vec::new();
    }
    if paper.title.as_ref().is_none_or(|t| t.is_empty()) && paper.creators.is_empty() {
        return Vec::new();
    }
    let (xmp_title, xmp_creator) = parsed
        .and_then(|p| p.publisher_has().ok())
        .unwrap_or((false, false));
    let was_ours = |name: &str| values.is_some_and(|v| v.added(name));
    let info_has = |key: &str, name: &str| {
        info.and_then(|d| info::text(d, key))
            .is_some_and(|t| !t.trim().is_empty())
            && !was_ours(name)
    };
    let mut out = Vec::new();
    if let Some(t) = paper.title.as_ref().filter(|t| !t.is_empty()) {
        if !xmp_title && !info_has(info::KEY_TITLE, crate::vocab::added::INFO_TITLE) {
            out.push(info::Entry {
                key: info::KEY_TITLE,
                value: t.clone(),
            });
        }
    }
    if !paper.creators.is_empty()
        && !xmp_creator
        && !info_has(info::KEY_AUTHOR, crate::vocab::added::INFO_AUTHOR)
    {
        out.push(info::Entry {
            key: info::KEY_AUTHOR,
            value: paper.creators.join(", "),
        });
    }
    out
}

/// Whether `p` is the stamp's own link (the stamp's plan writes it).
fn stamp_links(p: &Printed) -> bool {
    p.stamp_link
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect;
    use crate::reader::testpdf::{build, DOC};

    #[test]
    fn pdfa4_info_loses_its_pith_entries_and_a_rerun_is_unchanged() {
        let packet = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="4"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#;
        let meta = format!(
            "<< /Type /Metadata /Subtype /XML /Length {} >>\nstream\n{packet}\nendstream",
            packet.len()
        );
        let objs = [
            "<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>",
            DOC[1],
            DOC[2],
            &meta,
            "<< /Title (A4) /PithNumber (pith:2020:OLD) /PithURL (https://pith.science/pith/OLD) >>",
        ];
        let bytes = build(b"", &objs, "/Info 5 0 R");
        let n = crate::Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let opts = Options::new("2024-01-01T00:00:00Z");
        let inj = inject(&bytes[..], &n, &opts).unwrap();
        assert!(inj
            .written
            .iter()
            .any(|l| l.text.contains("Pith entries removed")));
        let mut out = bytes.clone();
        out.extend_from_slice(&inj.appended);
        let ins = inspect(&out[..]).unwrap();
        assert_eq!((&ins.info_number, &ins.info_url), (&None, &None));
        assert_eq!(ins.found(), Some(n.full()));
        assert!(inject(&out[..], &n, &opts).unwrap().unchanged);
    }
}
