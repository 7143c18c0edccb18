//! The Standard security handler (ISO 32000-2 §7.6.4) for updating encrypted PDFs whose
//! user password is empty, or whose password the owner gives (part 3).
//!
//! [`Handler::open`] reads an encryption dictionary (`/V` 1, 2, 4, 5; `/R` 2–6; `/Length`;
//! `/CF` with its crypt filters, `/StmF`, `/StrF`, `/Identity`; `/EncryptMetadata`),
//! authenticates a password and derives the file key ([`key`]). The handler then decrypts
//! and encrypts strings and streams of one object ([`Ref`]) with the per-object key
//! (Algorithm 1; RC4 40–128, AES-128, AES-256 through [`cipher`]), following the file's own
//! choice of method for strings, for streams, for a stream's `/Crypt` filter and for the
//! metadata stream under `/EncryptMetadata false`.
//!
//! It owns keys and byte transforms. It reads no files and decides nothing about updates:
//! installed as the [`SecurityHandler`] of the reader ([`super::Pdf::set_security`]), it
//! decrypts what the reader fetches and encrypts what the writer appends.
//!
//! ```
//! use pith_pdf::crypt::{Error, Handler};
//! use pith_pdf::syntax::Parser;
//! // An RC4-40 dictionary (R2) whose /U is not what the empty user password gives.
//! let text = b"<< /Filter /Standard /V 1 /R 2 /P -4 \
//!     /O <3b2a2f1e4a7e1d1b4c2e3d4d5a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d> \
//!     /U <3b2a2f1e4a7e1d1b4c2e3d4d5a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d> >>";
//! let dict = Parser::new(text, 0, true).dict().map_err(|e| format!("{e:?}"))?;
//! assert_eq!(Handler::open(&dict, b"id", None).unwrap_err(), Error::PasswordRequired);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod cipher;
pub mod key;

use crate::security::{SecurityHandler, StreamKind};
use crate::syntax::{Dict, Obj, Parser, Ref};

pub use key::Auth;

// The error's words live with every other error of reading (a leaf the reader's layers
// below this one also name).
pub use crate::error::CryptError as Error;

/// How one class of data is encrypted (a crypt filter's `/CFM`, §7.6.6 Table 25).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `/Identity` or `/CFM /None`: the data is not encrypted.
    Identity,
    /// `/V2` (and `/V 1`, `/V 2` files): RC4 with the per-object key.
    Rc4,
    /// `/AESV2`: AES-128 CBC with the per-object key (Algorithm 1 with `sAlT`).
    Aes128,
    /// `/AESV3`: AES-256 CBC with the file key.
    Aes256,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Identity => "Identity",
            Method::Rc4 => "RC4",
            Method::Aes128 => "AES-128",
            Method::Aes256 => "AES-256",
        }
    }
}

/// An opened Standard security handler: the file key and the file's choice of methods.
#[derive(Clone)]
pub struct Handler {
    version: u8,
    revision: u8,
    file_key: Vec<u8>,
    auth: Auth,
    strings: Method,
    streams: Method,
    filters: Vec<(Vec<u8>, Method)>,
    encrypt_metadata: bool,
    /// The object number of the encryption dictionary, whose strings are never encrypted.
    encrypt_object: Option<u32>,
}

impl std::fmt::Debug for Handler {
    // The file key stays out of debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handler")
            .field("version", &self.version)
            .field("revision", &self.revision)
            .field("auth", &self.auth)
            .field("strings", &self.strings)
            .field("streams", &self.streams)
            .field("encrypt_metadata", &self.encrypt_metadata)
            .finish_non_exhaustive()
    }
}

fn malformed(m: &str) -> Error {
    Error::Malformed(m.to_string())
}

fn int(d: &Dict, k: &[u8]) -> Option<i64> {
    d.get(k).and_then(Obj::as_int)
}

fn bytes<'a>(d: &'a Dict, k: &[u8]) -> &'a [u8] {
    match d.get(k) {
        Some(Obj::Str(s)) => s,
        _ => &[],
    }
}

/// The method of crypt filter `name` in `/CF` (V 4–5), and its `/Length` in bytes.
fn crypt_filter(cf: Option<&Dict>, name: &[u8]) -> Result<(Method, Option<usize>), Error> {
    if name == b"Identity" {
        return Ok((Method::Identity, None));
    }
    let d = cf
        .and_then(|cf| cf.get(name))
        .and_then(Obj::as_dict)
        .ok_or_else(|| {
            Error::Malformed(format!(
                "crypt filter /{} is not in /CF",
                String::from_utf8_lossy(name)
            ))
        })?;
    let m = match d.get(b"CFM").and_then(Obj::as_name) {
        None | Some(b"None") => Method::Identity,
        Some(b"V2") => Method::Rc4,
        Some(b"AESV2") => Method::Aes128,
        Some(b"AESV3") => Method::Aes256,
        Some(other) => {
            return Err(Error::Unsupported(format!(
                "crypt filter method /{}",
                String::from_utf8_lossy(other)
            )))
        }
    };
    // /Length of a crypt filter is in bytes per the spec, but many writers give bits.
    let len = int(d, b"Length").map(|l| if l > 32 { l / 8 } else { l });
    Ok((m, len.and_then(|l| usize::try_from(l).ok())))
}

impl Handler {
    /// Reads the encryption dictionary `encrypt`, authenticates `password` (tried as the
    /// user password, then as the owner password), and falls back to the empty user
    /// password, which is what a viewer tries first. `id0` is the first string of the
    /// trailer's `/ID`.
    ///
    /// # Errors
    /// [`Error::PasswordRequired`] when no password was given and the empty one does not
    /// open the file, [`Error::WrongPassword`] when neither the given nor the empty one does,
    /// [`Error::Unsupported`] for other security handlers, `/V 3` and unknown methods,
    /// [`Error::Malformed`] for missing or out-of-range values.
    ///
    /// # Examples
    /// See the [module](self) example.
    pub fn open(encrypt: &Dict, id0: &[u8], password: Option<&[u8]>) -> Result<Self, Error> {
        match encrypt.get(b"Filter").and_then(Obj::as_name) {
            Some(b"Standard") => {}
            Some(other) => {
                return Err(Error::Unsupported(format!(
                    "security handler /{} (only /Standard, password-based, is supported)",
                    String::from_utf8_lossy(other)
                )))
            }
            None => return Err(malformed("no /Filter")),
        }
        let version = int(encrypt, b"V").unwrap_or(0);
        let revision = int(encrypt, b"R").ok_or_else(|| malformed("no /R"))?;
        if !(2..=6).contains(&revision) {
            return Err(Error::Unsupported(format!("revision /R {revision}")));
        }
        let revision = revision as u8;
        let encrypt_metadata = !matches!(encrypt.get(b"EncryptMetadata"), Some(Obj::Bool(false)));
        // Key lengths to try: one, except for a /V 2 file whose /Length is missing or out of
        // range, where the spec's default (40 bits) and what qpdf assumes (128) are both tried.
        let (strings, streams, filters, key_lens) = match version {
            1 => (Method::Rc4, Method::Rc4, vec![], vec![5]),
            2 => {
                let lens = match int(encrypt, b"Length") {
                    Some(b) if (40..=128).contains(&b) && b % 8 == 0 => vec![b as usize / 8],
                    _ => vec![5, 16],
                };
                (Method::Rc4, Method::Rc4, vec![], lens)
            }
            4 | 5 => {
                let cf = encrypt.get(b"CF").and_then(Obj::as_dict);
                let name = |k: &[u8]| {
                    encrypt
                        .get(k)
                        .and_then(Obj::as_name)
                        .unwrap_or(b"Identity")
                        .to_vec()
                };
                let (strings, slen) = crypt_filter(cf, &name(b"StrF"))?;
                let (streams, mlen) = crypt_filter(cf, &name(b"StmF"))?;
                let mut filters = Vec::new();
                if let Some(cf) = cf {
                    for (k, _, _) in &cf.entries {
                        filters.push((k.clone(), crypt_filter(Some(cf), k)?.0));
                    }
                }
                let aes128 = [strings, streams].contains(&Method::Aes128)
                    || filters.iter().any(|(_, m)| *m == Method::Aes128);
                let key_len = if version == 5 {
                    32
                } else if aes128 {
                    // AESV2 takes a 128-bit key whatever /Length says.
                    16
                } else {
                    mlen.or(slen).unwrap_or(16).clamp(5, 16)
                };
                (strings, streams, filters, vec![key_len])
            }
            v => return Err(Error::Unsupported(format!("algorithm /V {v}"))),
        };
        let aes256 = [strings, streams].contains(&Method::Aes256)
            || filters.iter().any(|(_, m)| *m == Method::Aes256);
        if (version == 5) != (revision >= 5) || (aes256 && version != 5) {
            return Err(Error::Malformed(format!(
                "/V {version} does not go with /R {revision} and its methods"
            )));
        }
        let p = int(encrypt, b"P").ok_or_else(|| malformed("no /P"))?;
        // /P is a 32-bit value some writers give unsigned (4294967292 for -4).
        let p = p as u32 as i32;
        let mut prm = key::Params {
            revision,
            key_len: key_lens[0],
            o: bytes(encrypt, b"O"),
            u: bytes(encrypt, b"U"),
            oe: bytes(encrypt, b"OE"),
            ue: bytes(encrypt, b"UE"),
            p,
            id0,
            encrypt_metadata,
        };
        if revision >= 5
            && (prm.o.len() < 48 || prm.u.len() < 48 || prm.oe.len() < 32 || prm.ue.len() < 32)
        {
            return Err(Error::Malformed(format!(
                "/O, /U, /OE or /UE is too short for revision {revision}"
            )));
        }
        let mut found = None;
        for len in key_lens {
            prm.key_len = len;
            found = password
                .and_then(|pw| key::authenticate(&prm, pw))
                .or_else(|| key::authenticate(&prm, b""));
            if found.is_some() {
                break;
            }
        }
        let Some((file_key, auth)) = found else {
            return Err(if password.is_some() {
                Error::WrongPassword
            } else {
                Error::PasswordRequired
            });
        };
        Ok(Handler {
            version: version as u8,
            revision,
            file_key,
            auth,
            strings,
            streams,
            filters,
            encrypt_metadata,
            encrypt_object: None,
        })
    }

    /// Names the object that holds the encryption dictionary (when indirect): its strings
    /// (`/O`, `/U`, …) are never encrypted (§7.6.1), so the handler leaves them as they are.
    pub fn with_encrypt_object(mut self, num: Option<u32>) -> Self {
        self.encrypt_object = num;
        self
    }

    /// Which password opened the file.
    pub fn auth(&self) -> Auth {
        self.auth
    }

    /// `/R`, the revision of the Standard security handler.
    pub fn revision(&self) -> u8 {
        self.revision
    }

    /// The method for strings (`/StrF`).
    pub fn string_method(&self) -> Method {
        self.strings
    }

    /// Whether the document's metadata stream is encrypted (`/EncryptMetadata`).
    pub fn encrypts_metadata(&self) -> bool {
        self.encrypt_metadata
    }

    /// A one-line description, e.g. `Standard R4, AES-128 (strings RC4), metadata in clear`.
    pub fn describe(&self) -> String {
        let mut s = format!("Standard R{} V{}, ", self.revision, self.version);
        s.push_str(self.streams.name());
        if self.strings != self.streams {
            s.push_str(&format!(" (strings {})", self.strings.name()));
        }
        s.push_str(&format!(", {}-bit key", self.file_key.len() * 8));
        if !self.encrypt_metadata {
            s.push_str(", metadata in clear");
        }
        s
    }

    /// The method for a stream with dictionary `dict`: none for cross-reference streams
    /// (§7.5.8.2) and, under `/EncryptMetadata false`, for metadata streams; the named
    /// filter of a `/Crypt` first filter (§7.4.10, default `/Identity`); else `/StmF`.
    pub fn stream_method(&self, dict: &Dict) -> Method {
        match dict.get(b"Type").and_then(Obj::as_name) {
            Some(b"XRef") => return Method::Identity,
            Some(b"Metadata") if !self.encrypt_metadata => return Method::Identity,
            _ => {}
        }
        let first = match dict.get(b"Filter") {
            Some(Obj::Name(n)) => Some(n.as_slice()),
            Some(Obj::Array(a)) => a.first().and_then(Obj::as_name),
            _ => None,
        };
        if first == Some(b"Crypt") {
            let parms = match dict.get(b"DecodeParms") {
                Some(Obj::Dict(d)) => Some(d),
                Some(Obj::Array(a)) => a.first().and_then(Obj::as_dict),
                _ => None,
            };
            let name = parms
                .and_then(|p| p.get(b"Name"))
                .and_then(Obj::as_name)
                .unwrap_or(b"Identity");
            if name == b"Identity" {
                return Method::Identity;
            }
            // An unknown name falls back to the stream default, as qpdf does.
            return self
                .filters
                .iter()
                .find(|(k, _)| k == name)
                .map_or(self.streams, |(_, m)| *m);
        }
        self.streams
    }

    fn key_for(&self, m: Method, id: Ref) -> Vec<u8> {
        match m {
            Method::Aes256 | Method::Identity => self.file_key.clone(),
            Method::Rc4 => key::object_key(&self.file_key, id.num, id.gen, false),
            Method::Aes128 => key::object_key(&self.file_key, id.num, id.gen, true),
        }
    }

    fn decrypt(&self, m: Method, id: Ref, data: &[u8]) -> Vec<u8> {
        if Some(id.num) == self.encrypt_object {
            return data.to_vec();
        }
        match m {
            Method::Identity => data.to_vec(),
            Method::Rc4 => cipher::rc4(&self.key_for(m, id), data),
            Method::Aes128 | Method::Aes256 => cipher::aes_cbc_decrypt(&self.key_for(m, id), data),
        }
    }

    fn encrypt(&self, m: Method, id: Ref, data: &[u8]) -> Vec<u8> {
        match m {
            Method::Identity => data.to_vec(),
            Method::Rc4 => cipher::rc4(&self.key_for(m, id), data),
            // AES keys are 16 bytes (AESV2: Algorithm 1 on a 16-byte or 32-byte file key) or
            // 32 (AESV3) by construction in `open`; `aes_cbc_encrypt` never returns clear data.
            Method::Aes128 | Method::Aes256 => cipher::aes_cbc_encrypt(&self.key_for(m, id), data),
        }
    }
}

/// The reader and writer hook: strings with `/StrF`, streams as
/// [`Handler::stream_method`] decides, new metadata streams in clear under
/// `/EncryptMetadata false`; the encryption dictionary itself is never decrypted.
impl SecurityHandler for Handler {
    fn decrypt_string(&self, id: Ref, data: &[u8]) -> Vec<u8> {
        self.decrypt(self.strings, id, data)
    }
    fn decrypt_stream(&self, id: Ref, dict: &Dict, data: &[u8]) -> Vec<u8> {
        self.decrypt(self.stream_method(dict), id, data)
    }
    fn encrypt_string(&self, id: Ref, data: &[u8]) -> Vec<u8> {
        self.encrypt(self.strings, id, data)
    }
    fn encrypt_stream(&self, id: Ref, kind: StreamKind, data: &[u8]) -> Vec<u8> {
        let m = match kind {
            StreamKind::Metadata if !self.encrypt_metadata => Method::Identity,
            _ => self.streams,
        };
        self.encrypt(m, id, data)
    }
}

/// Object text (`<< … >>`, without stream data) with each string decrypted for object `id`,
/// written as a hexadecimal string; everything else is kept byte for byte.
pub fn decrypt_text(h: &dyn SecurityHandler, id: Ref, text: &[u8]) -> Vec<u8> {
    map_strings(text, |s| h.decrypt_string(id, s))
}

/// Object text with each string encrypted for object `id`, written as a hexadecimal string;
/// everything else is kept byte for byte. Used for an object read from an object stream
/// (strings in clear) that an update writes as a plain object.
pub fn encrypt_text(h: &dyn SecurityHandler, id: Ref, text: &[u8]) -> Vec<u8> {
    map_strings(text, |s| h.encrypt_string(id, s))
}

/// Rewrites each string token of PDF object text through `f`, as a hexadecimal string.
/// Comments, names and the other tokens are copied; a string that does not parse ends the
/// rewriting and the rest is copied unchanged (callers pass text the parser accepted).
fn map_strings(text: &[u8], mut f: impl FnMut(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 32);
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        let string_start = b == b'(' || (b == b'<' && text.get(i + 1) != Some(&b'<'));
        if b == b'<' && text.get(i + 1) == Some(&b'<') {
            out.extend_from_slice(b"<<");
            i += 2;
        } else if b == b'%' {
            while i < text.len() && !matches!(text[i], b'\r' | b'\n') {
                out.push(text[i]);
                i += 1;
            }
        } else if b == b'/' {
            // A name: copy it whole, so `#28` escapes or odd bytes never start a string.
            out.push(b);
            i += 1;
            while i < text.len()
                && !super::syntax::is_white(text[i])
                && !b"()<>[]{}/%".contains(&text[i])
            {
                out.push(text[i]);
                i += 1;
            }
        } else if string_start {
            let mut p = Parser::new(text, i, true);
            match p.object() {
                Ok(Obj::Str(s)) => {
                    let enc = f(&s);
                    out.push(b'<');
                    out.extend_from_slice(data_encoding::HEXUPPER.encode(&enc).as_bytes());
                    out.push(b'>');
                    i = p.pos;
                }
                _ => {
                    out.extend_from_slice(&text[i..]);
                    return out;
                }
            }
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
