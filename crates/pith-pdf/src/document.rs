//! The objects an update starts from: the catalog, the XMP packet, the Info dictionary, read
//! once through the [`Pdf`] reader. An encrypted file is opened with the Standard security
//! handler ([`super::crypt`]), installed in the reader; one that cannot be
//! opened (a password is needed, unsupported encryption) stops after the trailer.

use crate::budget::Budget;
use crate::crypt;
use crate::filters::MAX_WHOLE;
use crate::reader::{Check, Fetched, Pdf, ReadAt};
use crate::repair::{scan_within, section, Rebuilt};
use crate::syntax::{self, Dict, Obj, Ref};
use crate::writer::object::rebase;
use crate::{Error, ErrorKind};

/// What [`load`] read.
pub(crate) struct Document<R: ReadAt> {
    pub pdf: Pdf<R>,
    pub encrypted: bool,
    /// Why an encrypted file could not be opened (then nothing past the trailer was read).
    pub not_opened: Option<ErrorKind>,
    /// The encryption of an encrypted file that was opened, described.
    pub encryption: Option<String>,
    pub root: Ref,
    pub catalog: Fetched,
    pub metadata_ref: Option<Ref>,
    pub packet: Option<Vec<u8>>,
    pub info_ref: Option<Ref>,
    /// The Info dictionary (rebased) and its original text.
    pub info: Option<(Dict, Vec<u8>)>,
    /// For a damaged file opened by [`load_repaired`]: what the scan found, the length of the
    /// damaged bytes and their last byte (the update goes right after them).
    pub rebuilt: Option<(Rebuilt, u64, u8)>,
}

impl<R: ReadAt> Document<R> {
    /// The catalog dictionary (empty for encrypted files).
    pub fn catalog(&self) -> Dict {
        self.catalog.obj.as_dict().cloned().unwrap_or_default()
    }

    /// Checks that the objects an update rewrites or points at start where the xref says:
    /// the catalog, Info and metadata stream (already verified when fetched) and every
    /// object the catalog and Info dictionaries reference directly.
    pub fn check_referenced(&self) -> Result<(), Error> {
        let mut nums = vec![self.root.num];
        let mut refs = |d: &Dict| {
            for (_, v, _) in &d.entries {
                if let Obj::Ref(r) = v {
                    nums.push(r.num);
                }
            }
        };
        refs(&self.catalog());
        if let Some((d, _)) = &self.info {
            refs(d);
        }
        nums.extend(self.info_ref.map(|r| r.num));
        nums.extend(self.metadata_ref.map(|r| r.num));
        self.pdf.check_objects(&nums)
    }
}

/// Opens `src` ([`Check::Sampled`]) and reads the catalog, the metadata stream and the Info
/// dictionary; an encrypted file is opened with the empty user password or `password` (user
/// or owner).
pub(crate) fn load<R: ReadAt>(
    src: R,
    password: Option<&[u8]>,
    budget: Budget,
) -> Result<Document<R>, Error> {
    load_checked(src, Check::Sampled, password, budget)
}

/// [`load`] with the given xref check.
pub(crate) fn load_checked<R: ReadAt>(
    src: R,
    check: Check,
    password: Option<&[u8]>,
    budget: Budget,
) -> Result<Document<R>, Error> {
    let mut pdf = Pdf::open_within(src, check, budget)?;
    let encrypted = pdf
        .trailer()
        .get(b"Encrypt")
        .is_some_and(|e| !matches!(e, Obj::Null));
    let root = pdf
        .trailer()
        .get(b"Root")
        .and_then(Obj::as_ref)
        .ok_or_else(|| Error::new(ErrorKind::Damaged("no /Root".into())))?;
    let (not_opened, encryption) = if encrypted {
        match open_security(&mut pdf, password) {
            Ok(d) => (None, Some(d)),
            Err(k) => (Some(k), None),
        }
    } else {
        (None, None)
    };
    let mut doc = Document {
        pdf,
        encrypted,
        not_opened,
        encryption,
        root,
        catalog: Fetched {
            id: root,
            obj: Obj::Dict(Dict::default()),
            raw: Vec::new(),
            stream: None,
        },
        metadata_ref: None,
        packet: None,
        info_ref: None,
        info: None,
        rebuilt: None,
    };
    if doc.not_opened.is_some() {
        // Strings and streams are encrypted (object streams too): read nothing more.
        return Ok(doc);
    }
    let pdf = &doc.pdf;
    doc.catalog = pdf
        .get(root.num)?
        .filter(|f| f.obj.as_dict().is_some())
        .ok_or_else(|| {
            Error::new(ErrorKind::Damaged(format!(
                "the catalog (object {}) is missing",
                root.num
            )))
        })?;
    if let Some((d, text)) = copyable_text(pdf, &doc.catalog) {
        doc.catalog.obj = Obj::Dict(d);
        doc.catalog.raw = text;
    }
    if let Some(Obj::Ref(r)) = doc.catalog().get(b"Metadata") {
        if let Some(f) = pdf.get(r.num)? {
            if f.stream.is_some() {
                doc.metadata_ref = Some(*r);
                // The packet is parsed and rewritten whole: bounded.
                doc.packet = Some(pdf.decoded(&f, "the XMP metadata stream", MAX_WHOLE)?);
            }
        }
    }
    match pdf.trailer().get(b"Info") {
        Some(Obj::Ref(r)) => {
            if let Some(mut f) = pdf.get(r.num)? {
                if let Some((d, text)) = copyable_text(pdf, &f) {
                    f.obj = Obj::Dict(d);
                    f.raw = text;
                }
                if let Some((d, text)) = f.dict_text() {
                    let mut d = d.clone();
                    rebase(&mut d);
                    doc.info = Some((d, text.to_vec()));
                    doc.info_ref = Some(*r);
                }
            }
        }
        Some(Obj::Dict(_)) => {
            // A direct Info dictionary in the trailer: rebuild its text from the trailer.
            if let Some(text) = pdf.trailer_value_text(b"Info") {
                if let Ok(d2) = syntax::Parser::new(text, 0, true).dict() {
                    doc.info = Some((d2, text.to_vec()));
                }
            }
        }
        _ => {}
    }
    Ok(doc)
}

/// Opens a damaged file (`--repair`): rebuilds its cross-reference table by
/// scanning ([`scan`]) and reads it through a stand-in section appended to it in memory;
/// the update planned on the result goes right after `data` with a complete section of its own
/// ([`super::writer::Update::complete`]), so `data` stays a byte-identical prefix.
///
/// # Errors
/// As [`scan`] ([`ErrorKind::Encrypted`] for an encrypted damaged file), and what [`load`]
/// returns on the repaired bytes.
pub(crate) fn load_repaired(data: Vec<u8>, budget: Budget) -> Result<Document<Vec<u8>>, Error> {
    budget.check()?;
    let rebuilt = scan_within(&data, &budget).map_err(|e| match e.kind() {
        ErrorKind::Encrypted => Error::new(ErrorKind::Unsupported(
            "rebuilding the cross-reference table of an encrypted file".into(),
        )),
        _ => e,
    })?;
    let last = data.last().copied().unwrap_or(b'\n');
    let len = data.len() as u64;
    // The damaged bytes are extended in place, not copied (one copy of the file in memory).
    let mut staged = data;
    if !matches!(last, b'\n' | b'\r') {
        staged.push(b'\n');
    }
    let at = (staged.len() - rebuilt.header) as u64;
    staged.extend_from_slice(&section(&rebuilt, at));
    let mut doc = load_checked(staged, Check::Full, None, budget)?;
    if doc.encrypted {
        return Err(Error::new(ErrorKind::Unsupported(
            "rebuilding the cross-reference table of an encrypted file".into(),
        )));
    }
    let pages = count_pages(&doc.pdf, doc.catalog().get(b"Pages"))?;
    if pages == 0 {
        return Err(Error::new(ErrorKind::Damaged(
            "the rebuilt cross-reference table leads to no page".into(),
        )));
    }
    doc.rebuilt = Some((rebuilt, len, last));
    Ok(doc)
}

/// Counts the pages under the page tree node `node` ([`Pdf::count_pages`]), refusing a tree
/// with a missing or malformed node: once a complete table is appended, readers stop
/// reconstructing, so a file whose pages they now find only by their own scan (a page tree
/// object lost) must not get one.
pub(crate) fn count_pages<R: ReadAt>(pdf: &Pdf<R>, node: Option<&Obj>) -> Result<u64, Error> {
    pdf.count_pages(node, "after rebuilding the cross-reference table")
}

/// Opens the security handler of an encrypted file and installs it in the reader; the error
/// kind says why it could not be.
fn open_security<R: ReadAt>(
    pdf: &mut Pdf<R>,
    password: Option<&[u8]>,
) -> Result<String, ErrorKind> {
    let (enc, num) = match pdf.trailer().get(b"Encrypt") {
        Some(Obj::Ref(r)) => (pdf.get(r.num).ok().flatten().map(|f| f.obj), Some(r.num)),
        Some(o) => (Some(o.clone()), None),
        None => (None, None),
    };
    let malformed = |m: &str| ErrorKind::Crypt(crypt::Error::Malformed(m.into()));
    let enc = enc
        .as_ref()
        .and_then(Obj::as_dict)
        .ok_or_else(|| malformed("/Encrypt is not a dictionary"))?;
    let id0 = match pdf.trailer().get(b"ID") {
        Some(Obj::Array(a)) => match a.first() {
            Some(Obj::Str(s)) => s.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let h = crypt::Handler::open(enc, &id0, password).map_err(ErrorKind::Crypt)?;
    let describe = h.describe();
    pdf.set_security(Box::new(h.with_encrypt_object(num)));
    Ok(describe)
}

/// For an encrypted file, the text of a dictionary object as an update copies it into a plain
/// object of the same number: an object read from an object stream has its strings in clear
/// (its container was encrypted as a whole), so they are encrypted for its number; a plain
/// object's text is already so. The dictionary returned indexes that text and holds the
/// values in clear. `None` when there is nothing to change.
fn copyable_text<R: ReadAt>(pdf: &Pdf<R>, f: &Fetched) -> Option<(Dict, Vec<u8>)> {
    let h = pdf.security()?;
    if !pdf.in_object_stream(f.id.num) {
        return None;
    }
    let (_, text) = f.dict_text()?;
    let text = crypt::encrypt_text(h, f.id, text);
    let mut d = syntax::Parser::new(&text, 0, true).dict().ok()?;
    for (_, v, _) in &mut d.entries {
        crate::security::decrypt_obj(h, f.id, v);
    }
    Some((d, text))
}
