//! The objects an update starts from: the catalog, the XMP packet, the Info dictionary, read
//! once through the [`Pdf`] reader. Encrypted files stop after the trailer (their strings
//! and streams cannot be read without a security handler).

use super::reader::{Fetched, Pdf, ReadAt};
use super::syntax::{self, Dict, Obj, Ref};
use super::writer::object::rebase;
use super::{Error, ErrorKind};

/// What [`load`] read.
pub(crate) struct Document<R: ReadAt> {
    pub pdf: Pdf<R>,
    pub encrypted: bool,
    pub root: Ref,
    pub catalog: Fetched,
    pub metadata_ref: Option<Ref>,
    pub packet: Option<Vec<u8>>,
    pub info_ref: Option<Ref>,
    /// The Info dictionary (rebased) and its original text.
    pub info: Option<(Dict, Vec<u8>)>,
}

impl<R: ReadAt> Document<R> {
    /// The catalog dictionary (empty for encrypted files).
    pub fn catalog(&self) -> Dict {
        self.catalog.obj.as_dict().cloned().unwrap_or_default()
    }
}

/// Opens `src` and reads the catalog, the metadata stream and the Info dictionary.
pub(crate) fn load<R: ReadAt>(src: R) -> Result<Document<R>, Error> {
    let pdf = Pdf::open(src)?;
    let encrypted = pdf
        .trailer()
        .get(b"Encrypt")
        .is_some_and(|e| !matches!(e, Obj::Null));
    let root = pdf
        .trailer()
        .get(b"Root")
        .and_then(Obj::as_ref)
        .ok_or_else(|| Error::new(ErrorKind::Damaged("no /Root".into())))?;
    let mut doc = Document {
        pdf,
        encrypted,
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
    };
    if encrypted {
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
    if let Some(Obj::Ref(r)) = doc.catalog().get(b"Metadata") {
        if let Some(f) = pdf.get(r.num)? {
            if f.stream.is_some() {
                doc.metadata_ref = Some(*r);
                doc.packet = Some(pdf.decoded(&f)?);
            }
        }
    }
    match pdf.trailer().get(b"Info") {
        Some(Obj::Ref(r)) => {
            if let Some(f) = pdf.get(r.num)? {
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
