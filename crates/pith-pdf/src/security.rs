//! The security-handler hook (ISO 32000-2 §7.6): how encrypted files will plug into the reader
//! and the writer without reshaping either. pith implements no cipher here.
//!
//! - Reading: [`Pdf::set_security`](super::Pdf::set_security) installs a handler; every string
//!   inside a fetched object and every stream's data pass through
//!   [`SecurityHandler::decrypt_string`] / [`SecurityHandler::decrypt_stream`] with the
//!   identity ([`Ref`]) of the object that holds them, before anything else sees them. Objects
//!   inside object streams are not decrypted again (their container stream was), and the
//!   xref streams themselves are never encrypted (§7.5.8.2), so the chain is read without it.
//! - Writing: the [`Update`](super::writer::Update) asks the same handler to
//!   [`encrypt_string`](SecurityHandler::encrypt_string) each string the typed writers emit and
//!   to [`encrypt_stream`](SecurityHandler::encrypt_stream) each new stream's data, under the
//!   number and generation of the object being written, so per-object keys come out right.
//!   Strings copied verbatim from the original file (entries kept by
//!   [`DictPatch`](super::writer::object::DictPatch), the trailer `/ID`) are already in the
//!   file's encrypted form and are not touched — except that an object read from an object
//!   stream has its strings in clear (its container was encrypted as a whole), so its text is
//!   encrypted for its own number before it is copied ([`super::crypt::encrypt_text`]).
//!
//! [`Identity`] is the handler of unencrypted files; [`super::crypt::Handler`] implements the
//! Standard security handler.

use crate::syntax::{Dict, Obj, Ref};

/// Decrypts every string inside a parsed object of object `id`, in place: the reader does it
/// for every fetched object, and `document` for dictionaries it parses from object text.
pub fn decrypt_obj(h: &dyn SecurityHandler, id: Ref, obj: &mut Obj) {
    match obj {
        Obj::Str(s) => *s = h.decrypt_string(id, s),
        Obj::Array(a) => a.iter_mut().for_each(|o| decrypt_obj(h, id, o)),
        Obj::Dict(d) => d
            .entries
            .iter_mut()
            .for_each(|(_, o, _)| decrypt_obj(h, id, o)),
        _ => {}
    }
}

/// The kind of stream being encrypted: the metadata stream is left in clear text when the
/// file says `/EncryptMetadata false` (§7.6.3.1), so the handler needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// The document's XMP metadata stream (`/Type /Metadata`).
    Metadata,
    /// Any other stream (page content, font file, …).
    Other,
}

/// Decrypts what the reader fetches and encrypts what the writer emits, per object.
pub trait SecurityHandler {
    /// Decrypts a string found in object `id`.
    fn decrypt_string(&self, id: Ref, data: &[u8]) -> Vec<u8>;
    /// Decrypts the data of stream object `id` whose dictionary is `dict` (before its filters
    /// are applied). The dictionary decides the method: a `/Crypt` first filter names its own
    /// crypt filter, and cross-reference streams and, under `/EncryptMetadata false`, metadata
    /// streams are not encrypted.
    fn decrypt_stream(&self, id: Ref, dict: &Dict, data: &[u8]) -> Vec<u8>;
    /// Encrypts a string written into new object `id`.
    fn encrypt_string(&self, id: Ref, data: &[u8]) -> Vec<u8>;
    /// Encrypts the data of new stream object `id`, of `kind`.
    fn encrypt_stream(&self, id: Ref, kind: StreamKind, data: &[u8]) -> Vec<u8>;
}

/// The handler of unencrypted files: every method returns its input.
#[derive(Debug, Clone, Copy, Default)]
pub struct Identity;

impl SecurityHandler for Identity {
    fn decrypt_string(&self, _: Ref, data: &[u8]) -> Vec<u8> {
        data.to_vec()
    }
    fn decrypt_stream(&self, _: Ref, _: &Dict, data: &[u8]) -> Vec<u8> {
        data.to_vec()
    }
    fn encrypt_string(&self, _: Ref, data: &[u8]) -> Vec<u8> {
        data.to_vec()
    }
    fn encrypt_stream(&self, _: Ref, _: StreamKind, data: &[u8]) -> Vec<u8> {
        data.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_the_identity() {
        let r = Ref::new(3, 0);
        let h: &dyn SecurityHandler = &Identity;
        assert_eq!(h.decrypt_string(r, b"abc"), b"abc");
        assert_eq!(h.encrypt_stream(r, StreamKind::Metadata, b"x"), b"x");
    }
}
