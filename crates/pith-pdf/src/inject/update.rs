//! The frame of an incremental update, shared by inject and strip: the update started (with a
//! cross-reference table rebuilt from a scan first), and its trailer finished with the root,
//! the Info dictionary and an encrypted file's `/Encrypt` and `/ID`.

use super::{Item, Written};
use crate::document::Document;
use crate::reader::ReadAt;
use crate::writer::object::Trailer;
use crate::writer::{Appendix, Update};
use crate::{Error, ErrorKind};

/// The update to `doc`, and what it writes so far: where the cross-reference table was
/// rebuilt from a scan, the rebuilt table comes first, complete.
pub(crate) fn start_update<R: ReadAt>(
    doc: &Document<R>,
) -> Result<(Update<'_>, Vec<Written>), Error> {
    let mut up = Update::new(&doc.pdf)?;
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
    Ok((up, written))
}

/// The `/Encrypt` value text and the `/ID` written out, that an encrypted file's update
/// repeats in its trailer.
pub(crate) type Sealed = (Option<Vec<u8>>, Option<Vec<u8>>);

/// An encrypted file's `/Encrypt` and `/ID` for the update's trailer ([`encryption_entries`]);
/// `(None, None)` for a file in the clear.
pub(crate) fn sealed_entries<R: ReadAt>(doc: &Document<R>) -> Result<Sealed, Error> {
    if doc.encrypted {
        let (e, id) = encryption_entries(&doc.pdf)?;
        Ok((Some(e), id))
    } else {
        Ok((None, None))
    }
}

/// Finishes `up` with its trailer: `doc`'s root, `info`, and the `/Encrypt` and `/ID` of
/// [`sealed_entries`] (the newest trailer's `/ID` where none is written out).
pub(crate) fn finish_update<R: ReadAt>(
    up: Update<'_>,
    doc: &Document<R>,
    info: Option<crate::syntax::Ref>,
    (encrypt, id): &Sealed,
) -> Result<Appendix, Error> {
    up.finish(&Trailer {
        root: doc.root,
        info,
        id: id.as_deref().or_else(|| doc.pdf.trailer_value_text(b"ID")),
        encrypt: encrypt.as_deref(),
    })
}

/// The `/Encrypt` value text of an encrypted file's trailer, and its `/ID` written out when
/// the newest trailer does not carry it as text.
pub(crate) fn encryption_entries<R: ReadAt>(
    pdf: &crate::Pdf<R>,
) -> Result<(Vec<u8>, Option<Vec<u8>>), Error> {
    use crate::syntax::Obj;
    let encrypt = match (
        pdf.trailer().get(b"Encrypt"),
        pdf.trailer_value_text(b"Encrypt"),
    ) {
        (Some(Obj::Ref(r)), _) => r.to_string().into_bytes(),
        (_, Some(text)) => text.to_vec(),
        _ => {
            return Err(Error::new(ErrorKind::Unsupported(
                "a direct /Encrypt dictionary in an older trailer".into(),
            )))
        }
    };
    let id = match (pdf.trailer_value_text(b"ID"), pdf.trailer().get(b"ID")) {
        (Some(t), _) if t.starts_with(b"[") => None,
        (_, Some(Obj::Array(ids))) => {
            let mut t = b"[".to_vec();
            for s in ids.iter().filter_map(|o| match o {
                Obj::Str(s) => Some(s),
                _ => None,
            }) {
                t.push(b'<');
                t.extend_from_slice(data_encoding::HEXUPPER.encode(s).as_bytes());
                t.push(b'>');
            }
            t.push(b']');
            Some(t)
        }
        _ => None,
    };
    Ok((encrypt, id))
}
