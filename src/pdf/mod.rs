//! Reading and injecting Pith Numbers in compiled PDFs (issue #4).
//!
//! [`inject`] plans an append-only incremental update (ISO 32000-2 §7.5.6) that writes the
//! number into the Info dictionary (`/PithNumber`, `/PithURL`) and the XMP packet
//! (`xmp:Identifier`, `dc:relation`, `pith:*`); the caller copies the original file and
//! appends [`Injection::appended`], so the original bytes stay a byte-identical prefix.
//! [`inspect`] reads the values back. Both read only the xref chain and the few objects they
//! need, through [`ReadAt`], so memory does not grow with the file.
//!
//! Submodules: [`syntax`] (object parser), [`incremental`] (xref chain and update writer; the
//! only lopdf user), [`xmp`] (packet merge), [`info`] (Info entries), [`crypt`] (the Standard
//! security handler: encrypted files are read and updated with their own encryption). This
//! module ties them together and decides what to refuse: encrypted files it cannot open
//! (a password is needed, or the encryption is unsupported), files whose xref chain is broken,
//! certified files that forbid changes (unless forced), unparsable XMP (unless forced).
//! It does no printing and touches no paths.
//!
//! ```
//! use pith::pdf::{inject, inspect, Options};
//! let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"))?;
//! let number = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
//! let inj = inject(pdf.clone(), &number, &Options::new("2024-01-01T00:00:00Z"))?;
//! let mut out = pdf;
//! out.extend_from_slice(&inj.appended);
//! assert_eq!(inspect(out)?.found(), Some(number.full()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::PithNumber;

pub mod crypt;
pub mod incremental;
pub mod info;
pub mod syntax;
pub mod xmp;

pub use incremental::{Pdf, ReadAt, XrefKind};
use syntax::{Dict, Obj};

/// An error reading or updating a PDF.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    offset: Option<u64>,
    context: Option<String>,
    source: Option<std::io::Error>,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when reading the file fails.
    Io,
    /// Occurs when the file has no `%PDF-` header in its first 1024 bytes.
    NotPdf,
    /// Occurs when the xref chain or an object needed is broken, so a reader would have to
    /// reconstruct the cross-reference table; appending to such a file would lose objects.
    Damaged(String),
    /// Occurs when a full rewrite is asked of an encrypted file (only the incremental update
    /// keeps its encryption).
    Encrypted,
    /// Occurs when an encrypted file cannot be opened: it needs a password that was not given,
    /// the password is wrong, or its encryption is unsupported or malformed (issue 18.3).
    Crypt(crypt::Error),
    /// Occurs when a certification signature (`/DocMDP` with `/P 1`) forbids any change.
    Certified,
    /// Occurs when the existing XMP packet cannot be parsed (not UTF-8, not well-formed).
    Xmp(String),
    /// Occurs when the file needs a feature pith does not write (e.g. a table offset over
    /// ten digits).
    Unsupported(String),
}

impl Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            offset: None,
            context: None,
            source: None,
        }
    }
    /// Sets the byte offset where the problem was found (if none is set yet).
    pub fn at_offset(mut self, offset: u64) -> Self {
        if self.offset.is_none() && offset > 0 {
            self.offset = Some(offset);
        }
        self
    }
    /// Adds what was being read (e.g. "cross-reference table").
    pub fn context_msg(mut self, what: &str) -> Self {
        if self.context.is_none() {
            self.context = Some(what.to_string());
        }
        self
    }
    /// Attaches the underlying I/O error.
    pub fn with_source(mut self, e: std::io::Error) -> Self {
        self.source = Some(e);
        self
    }
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
    /// The byte offset in the file, when known.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Io => write!(f, "read error")?,
            ErrorKind::NotPdf => write!(f, "not a PDF (no %PDF- header)")?,
            ErrorKind::Damaged(m) => {
                write!(f, "damaged PDF, its cross-reference table would have to be reconstructed (")?;
                if let Some(c) = &self.context {
                    write!(f, "{c}: ")?;
                }
                write!(f, "{m}")?;
                if let Some(o) = self.offset {
                    write!(f, " at offset {o}")?;
                }
                return write!(f, "); not updated incrementally, use --rewrite to repair");
            }
            ErrorKind::Encrypted => write!(f, "encrypted PDF; a full rewrite would drop its encryption, only the incremental update is supported")?,
            ErrorKind::Crypt(crypt::Error::PasswordRequired) => write!(f, "encrypted PDF that needs a password (its user password is not empty); give the user or owner password with --password")?,
            ErrorKind::Crypt(e) => write!(f, "encrypted PDF: {e}")?,
            ErrorKind::Certified => write!(f, "certified PDF whose signature forbids any change (DocMDP /P 1); use --force to update anyway, which invalidates the certification")?,
            ErrorKind::Xmp(m) => write!(f, "existing XMP packet is unusable: {m}")?,
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}")?,
        }
        if let Some(o) = self.offset {
            write!(f, " at offset {o}")?;
        }
        if let Some(s) = &self.source {
            write!(f, ": {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

/// How [`inject`] behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// Update certified files that forbid changes, and replace unparsable XMP packets.
    pub force: bool,
    /// The update time for `xmp:MetadataDate` (ISO 8601, e.g. `2024-01-01T00:00:00Z`).
    pub now: String,
    /// The user or owner password of an encrypted file whose user password is not empty
    /// (issue 18.3); the empty user password is always tried.
    pub password: Option<Vec<u8>>,
}

impl Options {
    /// Options with `force` off and the given time.
    pub fn new(now: &str) -> Self {
        Options {
            force: false,
            now: now.to_string(),
            password: None,
        }
    }
}

/// The planned update.
#[derive(Debug, Clone)]
pub struct Injection {
    /// Bytes to append to the original file; empty when [`Injection::unchanged`].
    pub appended: Vec<u8>,
    /// The file already carries the number: nothing to write.
    pub unchanged: bool,
    /// Human-readable lines describing what is written (for the CLI).
    pub written: Vec<String>,
    /// The old XMP packet, when it was unparsable and replaced under `force`.
    pub replaced_xmp: Option<Vec<u8>>,
}

/// What a PDF says about its Pith Number.
#[derive(Debug, Clone, Default)]
pub struct Inspection {
    /// Header version (`1.7`).
    pub version: String,
    /// Kind of the newest xref section.
    pub xref_stream: bool,
    /// Number of xref sections (1 for a file never updated incrementally).
    pub sections: usize,
    /// Whether the file is encrypted.
    pub encrypted: bool,
    /// For an encrypted file that pith opened, its encryption (e.g. `Standard R6 V5,
    /// AES-256, 256-bit key`; issue 18.3).
    pub encryption: Option<String>,
    /// For an encrypted file that pith could not open, why (a password is needed, …): then
    /// no value was read, and [`Inspection::consistent`] says nothing about the file.
    pub not_read: Option<String>,
    /// Info `/PithNumber`.
    pub info_number: Option<String>,
    /// Info `/PithURL`.
    pub info_url: Option<String>,
    /// Values from XMP, if a packet was read.
    pub xmp: Option<xmp::Values>,
    /// Why the XMP packet could not be read.
    pub xmp_error: Option<String>,
    /// Signature fields with a value.
    pub signatures: usize,
    /// `/P` of a DocMDP certification signature, when certified.
    pub docmdp: Option<i64>,
}

impl Inspection {
    /// The number found (XMP `pith:number`, else Info `/PithNumber`).
    pub fn found(&self) -> Option<String> {
        self.xmp
            .as_ref()
            .and_then(|x| x.number.clone())
            .or_else(|| self.info_number.clone())
    }

    /// Whether every place that holds a number or URL holds the same one, and the short form
    /// and URL belong to it. A file without any number agrees trivially.
    pub fn consistent(&self) -> bool {
        let Some(n) = self.found() else {
            return self.xmp.as_ref().is_none_or(|x| {
                x.identifiers.is_empty() && x.relations.is_empty() && x.url.is_none()
            });
        };
        let Ok(num) = PithNumber::parse(&n) else {
            return false;
        };
        let url = num.url();
        let ok_info = self.info_number.as_ref().is_none_or(|i| *i == n)
            && self.info_url.as_ref().is_none_or(|u| *u == url);
        let ok_xmp = self.xmp.as_ref().is_none_or(|x| {
            x.number.as_ref().is_none_or(|v| *v == n)
                && x.short.as_ref().is_none_or(|v| *v == num.short())
                && x.url.as_ref().is_none_or(|v| *v == url)
                && x.identifiers.iter().all(|v| *v == n)
                && x.relations.iter().all(|v| *v == url)
        });
        ok_info && ok_xmp
    }

    /// The PDF/A claim, e.g. `PDF/A-1B`.
    pub fn pdfa(&self) -> Option<String> {
        let x = self.xmp.as_ref()?;
        let part = x.pdfa_part.as_ref()?;
        Some(format!(
            "PDF/A-{part}{}",
            x.pdfa_conformance.as_deref().unwrap_or("").to_uppercase()
        ))
    }
}

struct State<R: ReadAt> {
    pdf: Pdf<R>,
    root: (u32, u16),
    catalog: incremental::Fetched,
    metadata_ref: Option<(u32, u16)>,
    packet: Option<Vec<u8>>,
    info_ref: Option<(u32, u16)>,
    info: Option<(Dict, Vec<u8>)>,
}

/// Opens the security handler of an encrypted file (issue 18.3) and installs it in `pdf`.
fn open_security<R: ReadAt>(pdf: &mut Pdf<R>, password: Option<&[u8]>) -> Result<(), Error> {
    let (enc, num) = match pdf.trailer().get(b"Encrypt") {
        Some(Obj::Ref(n, _)) => (pdf.get(*n)?.map(|f| f.obj), Some(*n)),
        Some(o) => (Some(o.clone()), None),
        None => (None, None),
    };
    let enc = enc.as_ref().and_then(Obj::as_dict).ok_or_else(|| {
        Error::new(ErrorKind::Crypt(crypt::Error::Malformed(
            "/Encrypt is not a dictionary".into(),
        )))
    })?;
    let id0 = match pdf.trailer().get(b"ID") {
        Some(Obj::Array(a)) => match a.first() {
            Some(Obj::Str(s)) => s.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let h =
        crypt::Handler::open(enc, &id0, password).map_err(|e| Error::new(ErrorKind::Crypt(e)))?;
    pdf.set_security(h, num);
    Ok(())
}

/// A dictionary object's text with its strings in clear (issue 18.3): objects fetched
/// directly from an encrypted file hold encrypted strings, objects in object streams do not.
fn clear_text<R: ReadAt>(pdf: &Pdf<R>, f: &incremental::Fetched) -> Option<(Dict, Vec<u8>)> {
    let (d, text) = f.dict_text()?;
    match pdf.security() {
        Some(h) if !pdf.in_object_stream(f.id.0) => {
            let text = h.decrypt_text(f.id, text);
            let d = syntax::Parser::new(&text, 0, true).dict().ok()?;
            Some((d, text))
        }
        _ => {
            let mut d = d.clone();
            rebase(&mut d);
            Some((d, text.to_vec()))
        }
    }
}

fn load<R: ReadAt>(
    src: R,
    password: Option<&[u8]>,
) -> Result<(State<R>, Result<(), Error>), Error> {
    let mut pdf = Pdf::open(src)?;
    let encrypted = pdf
        .trailer()
        .get(b"Encrypt")
        .is_some_and(|e| !matches!(e, Obj::Null));
    let root = pdf
        .trailer()
        .get(b"Root")
        .and_then(Obj::as_ref)
        .ok_or_else(|| Error::new(ErrorKind::Damaged("no /Root".into())))?;
    let security = if encrypted {
        open_security(&mut pdf, password)
    } else {
        Ok(())
    };
    if let Err(e) = security {
        // Strings and streams are encrypted (object streams too): read nothing more.
        let catalog = incremental::Fetched {
            id: root,
            obj: Obj::Dict(Dict::default()),
            raw: Vec::new(),
            stream: None,
        };
        return Ok((
            State {
                pdf,
                root,
                catalog,
                metadata_ref: None,
                packet: None,
                info_ref: None,
                info: None,
            },
            Err(e),
        ));
    }
    let mut catalog = pdf
        .get(root.0)?
        .filter(|f| f.obj.as_dict().is_some())
        .ok_or_else(|| {
            Error::new(ErrorKind::Damaged(format!(
                "the catalog (object {}) is missing",
                root.0
            )))
        })?;
    if encrypted {
        // Issue 18.3: the catalog is spliced as text, so keep its text with clear strings.
        if let Some((d, text)) = clear_text(&pdf, &catalog) {
            catalog.obj = Obj::Dict(d);
            catalog.raw = text;
        }
    }
    let cat = catalog.obj.as_dict().cloned().unwrap_or_default();
    let mut metadata_ref = None;
    let mut packet = None;
    if let Some(Obj::Ref(n, g)) = cat.get(b"Metadata") {
        if let Some(f) = pdf.get(*n)? {
            if f.stream.is_some() {
                metadata_ref = Some((*n, *g));
                packet = Some(pdf.decoded(&f)?);
            }
        }
    }
    let mut info_ref = None;
    let mut info = None;
    match pdf.trailer().get(b"Info") {
        Some(Obj::Ref(n, g)) => {
            if let Some(f) = pdf.get(*n)? {
                if let Some((d, text)) = clear_text(&pdf, &f) {
                    info = Some((d, text));
                    info_ref = Some((*n, *g));
                }
            }
        }
        Some(Obj::Dict(d)) => {
            // A direct Info dictionary in the trailer: rebuild its text from the trailer.
            if let Some(text) = pdf.trailer_value_text(b"Info") {
                if let Ok(d2) = syntax::Parser::new(text, 0, true).dict() {
                    info = Some((d2, text[..].to_vec()));
                } else {
                    let _ = d;
                }
            }
        }
        _ => {}
    }
    Ok((
        State {
            pdf,
            root,
            catalog,
            metadata_ref,
            packet,
            info_ref,
            info,
        },
        Ok(()),
    ))
}

/// Shifts a dictionary's spans so they index its own text.
fn rebase(d: &mut Dict) {
    let base = d.span.start;
    d.span = 0..d.span.end - base;
    for (_, _, s) in &mut d.entries {
        *s = s.start - base..s.end - base;
    }
}

fn docmdp<R: ReadAt>(st: &State<R>) -> Result<Option<i64>, Error> {
    let pdf = &st.pdf;
    let cat = st.catalog.obj.as_dict().cloned().unwrap_or_default();
    let Some(perms) = cat.get(b"Perms") else {
        return Ok(None);
    };
    let Obj::Dict(perms) = pdf.resolve(perms)? else {
        return Ok(None);
    };
    let Some(sig) = perms.get(b"DocMDP") else {
        return Ok(None);
    };
    let Obj::Dict(sig) = pdf.resolve(sig)? else {
        return Ok(None);
    };
    let mut p = Some(2);
    if let Some(r) = sig.get(b"Reference") {
        if let Obj::Array(refs) = pdf.resolve(r)? {
            for r in refs.iter().take(16) {
                if let Obj::Dict(rd) = pdf.resolve(r)? {
                    if rd.get(b"TransformMethod").and_then(Obj::as_name) == Some(b"DocMDP") {
                        if let Some(tp) = rd.get(b"TransformParams") {
                            if let Obj::Dict(tp) = pdf.resolve(tp)? {
                                if let Some(v) = tp.get(b"P").and_then(Obj::as_int) {
                                    p = Some(v);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(p)
}

fn count_signatures<R: ReadAt>(st: &State<R>) -> Result<usize, Error> {
    let pdf = &st.pdf;
    let cat = st.catalog.obj.as_dict().cloned().unwrap_or_default();
    let Some(af) = cat.get(b"AcroForm") else {
        return Ok(0);
    };
    let Obj::Dict(af) = pdf.resolve(af)? else {
        return Ok(0);
    };
    let Some(fields) = af.get(b"Fields") else {
        return Ok(0);
    };
    let Obj::Array(fields) = pdf.resolve(fields)? else {
        return Ok(0);
    };
    let mut stack: Vec<(Obj, bool, usize)> = fields.into_iter().map(|f| (f, false, 0)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut count = 0;
    let mut visited = 0;
    while let Some((f, parent_sig, depth)) = stack.pop() {
        visited += 1;
        if visited > 10_000 || depth > 32 {
            break;
        }
        if let Obj::Ref(n, _) = f {
            if !seen.insert(n) {
                continue;
            }
        }
        let Obj::Dict(d) = pdf.resolve(&f)? else {
            continue;
        };
        let is_sig = match d.get(b"FT") {
            Some(Obj::Name(n)) => n == b"Sig",
            _ => parent_sig,
        };
        if is_sig && d.get(b"V").is_some_and(|v| !matches!(v, Obj::Null)) {
            count += 1;
        }
        if let Some(k) = d.get(b"Kids") {
            if let Obj::Array(kids) = pdf.resolve(k)? {
                stack.extend(kids.into_iter().map(|k| (k, is_sig, depth + 1)));
            }
        }
    }
    Ok(count)
}

/// Reads the Pith values, the PDF/A claim, signatures and update count from a PDF.
///
/// # Errors
/// As [`Pdf::open`]; an unreadable XMP packet is reported in
/// [`Inspection::xmp_error`], not as an error.
pub fn inspect<R: ReadAt>(src: R) -> Result<Inspection, Error> {
    inspect_with_password(src, None)
}

/// [`inspect`] for an encrypted file whose user password is not empty: `password` is its
/// user or owner password (issue 18.3). A file that cannot be opened is reported through
/// [`Inspection::encryption`], without values, not as an error.
///
/// # Errors
/// As [`inspect`].
pub fn inspect_with_password<R: ReadAt>(
    src: R,
    password: Option<&[u8]>,
) -> Result<Inspection, Error> {
    let (st, security) = load(src, password)?;
    let mut ins = Inspection {
        version: st.pdf.version().to_string(),
        xref_stream: st.pdf.xref_kind() == XrefKind::Stream,
        sections: st.pdf.sections(),
        encrypted: st
            .pdf
            .trailer()
            .get(b"Encrypt")
            .is_some_and(|e| !matches!(e, Obj::Null)),
        encryption: st.pdf.security().map(crypt::Handler::describe),
        not_read: security.as_ref().err().map(Error::to_string),
        ..Inspection::default()
    };
    if security.is_ok() {
        if let Some((d, _)) = &st.info {
            (ins.info_number, ins.info_url) = info::read(d);
        }
        if let Some(p) = &st.packet {
            match xmp::read(p) {
                Ok(v) => ins.xmp = Some(v),
                Err(e) => ins.xmp_error = Some(e.to_string()),
            }
        }
    }
    ins.signatures = count_signatures(&st)?;
    ins.docmdp = docmdp(&st)?;
    Ok(ins)
}

/// Plans the incremental update that writes `number` into the PDF read from `src`.
///
/// # Errors
/// [`ErrorKind::Encrypted`], [`ErrorKind::Damaged`], [`ErrorKind::NotPdf`],
/// [`ErrorKind::Certified`] (unless `force`), [`ErrorKind::Xmp`] (unless `force`),
/// [`ErrorKind::Unsupported`], [`ErrorKind::Io`].
pub fn inject<R: ReadAt>(src: R, number: &PithNumber, opts: &Options) -> Result<Injection, Error> {
    let (st, security) = load(src, opts.password.as_deref())?;
    security?;
    if docmdp(&st)? == Some(1) && !opts.force {
        return Err(Error::new(ErrorKind::Certified));
    }
    let props = xmp::Props {
        number: number.full(),
        short: number.short(),
        url: number.url(),
    };
    let mut replaced_xmp = None;
    let mut packet = st.packet.clone();
    let values = match &packet {
        None => None,
        Some(p) => match xmp::read(p) {
            Ok(v) => Some(v),
            Err(e) if opts.force => {
                let _ = e;
                replaced_xmp = packet.take();
                None
            }
            Err(e) => return Err(force_hint(e)),
        },
    };
    let pdfa4 = values.as_ref().and_then(|v| v.pdfa_part.as_deref()) == Some("4");
    let entries = if pdfa4 {
        vec![]
    } else {
        info::entries(&props.number, &props.url)
    };
    let info_ok = match &st.info {
        Some((d, _)) => info::carries(d, &entries) && (!pdfa4 || info::read(d) == (None, None)),
        None => entries.is_empty(),
    };
    let xmp_ok = values.as_ref().is_some_and(|v| v.carries(&props));
    if info_ok && xmp_ok {
        return Ok(Injection {
            appended: Vec::new(),
            unchanged: true,
            written: vec![],
            replaced_xmp: None,
        });
    }

    let pdf = &st.pdf;
    let mut last = [0u8; 1];
    pdf.read_last_byte(&mut last)?;
    let mut up = incremental::Update::new(pdf, last[0]);
    let mut written = Vec::new();

    // XMP: a new version of the existing metadata stream, or a new stream and catalog.
    let new_packet = match xmp::merge(packet.as_deref(), &props, &opts.now) {
        Ok(p) => p,
        Err(e) if opts.force && packet.is_some() => {
            let _ = e;
            replaced_xmp = packet.take();
            xmp::merge(None, &props, &opts.now)?
        }
        Err(e) => return Err(force_hint(e)),
    };
    let (mnum, mgen) = match st.metadata_ref {
        Some(r) => r,
        None => {
            let n = up.new_number();
            let (d, text) = st.catalog.dict_text().expect("catalog is a dictionary");
            let mut d = d.clone();
            rebase(&mut d);
            let mut body = format!("<< /Metadata {n} 0 R").into_bytes();
            let mut at = 2;
            for (k, _, span) in &d.entries {
                if k == b"Metadata" && span.start >= at {
                    body.extend_from_slice(&text[at..span.start]);
                    at = span.end;
                }
            }
            body.extend_from_slice(&text[at..]);
            let body = seal_text(pdf, st.root, body)?;
            up.object(st.root.0, st.root.1, &body);
            written.push(format!(
                "catalog {} {}: /Metadata {n} 0 R",
                st.root.0, st.root.1
            ));
            (n, 0)
        }
    };
    let new_packet = match pdf.security() {
        // Issue 18.3: clear when /EncryptMetadata is false, else the stream method's cipher.
        Some(h) => {
            let d = syntax::Parser::new(b"<< /Type /Metadata /Subtype /XML >>", 0, true)
                .dict()
                .unwrap_or_default();
            h.encrypt_stream((mnum, mgen), &d, &new_packet)
                .map_err(|e| Error::new(ErrorKind::Crypt(e)))?
        }
        None => new_packet,
    };
    up.stream(mnum, mgen, "/Type /Metadata /Subtype /XML", &new_packet);
    written.push(format!("XMP metadata {mnum} {mgen}: xmp:Identifier {}, dc:relation {}, pith:number, pith:shortNumber, pith:url", props.number, props.url));

    // Info: an indirect dictionary with the Pith entries (none on PDF/A-4).
    let mut info_ref = st.info_ref;
    if !entries.is_empty()
        || st
            .info
            .as_ref()
            .is_some_and(|(d, _)| info::read(d) != (None, None))
    {
        let (num, gen) = st.info_ref.unwrap_or_else(|| (up.new_number(), 0));
        let body = match &st.info {
            Some((d, text)) => info::splice(d, text, &entries),
            None => info::splice(
                &Dict {
                    entries: vec![],
                    span: 0..4,
                },
                b"<< >>",
                &entries,
            ),
        };
        let body = seal_text(pdf, (num, gen), body)?;
        up.object(num, gen, &body);
        info_ref = Some((num, gen));
        if entries.is_empty() {
            written.push(format!(
                "Info {num} {gen}: Pith entries removed (PDF/A-4 allows only ModDate)"
            ));
        } else {
            written.push(format!(
                "Info {num} {gen}: /PithNumber {} /PithURL {}",
                props.number, props.url
            ));
        }
    }

    let mut trailer = format!("/Root {} {} R", st.root.0, st.root.1).into_bytes();
    if let Some((n, g)) = info_ref {
        trailer.extend_from_slice(format!(" /Info {n} {g} R").as_bytes());
    }
    // /ID is copied byte for byte (its strings are binary).
    if let Some(id) = pdf.trailer_value_text(b"ID") {
        if id.starts_with(b"[") {
            trailer.extend_from_slice(b" /ID ");
            trailer.extend_from_slice(id);
        }
    }
    if pdf.security().is_some() {
        encrypt_trailer(pdf, &mut trailer)?;
    }
    let appended = up.finish(pdf.xref_kind(), pdf.startxref(), &trailer, pdf.size())?;
    written.push(format!(
        "incremental update: {} bytes, xref {}",
        appended.len(),
        if pdf.xref_kind() == XrefKind::Stream {
            "stream"
        } else {
            "table"
        }
    ));
    Ok(Injection {
        appended,
        unchanged: false,
        written,
        replaced_xmp,
    })
}

/// A full rewrite (`--rewrite`) that carries `number`: the whole file is loaded with lopdf
/// and saved compactly. A damaged file is first repaired by rebuilding its xref from a scan
/// ([`incremental::repair`]). Loads the whole file into memory; signatures do not survive.
///
/// # Errors
/// [`ErrorKind::Encrypted`], [`ErrorKind::NotPdf`], [`ErrorKind::Damaged`] when even the
/// rebuilt file cannot be loaded, [`ErrorKind::Xmp`] (unless `force`), [`ErrorKind::Io`].
pub fn rewrite<R: ReadAt>(src: R, number: &PithNumber, opts: &Options) -> Result<Vec<u8>, Error> {
    let mut data = vec![
        0u8;
        usize::try_from(src.len()).map_err(|_| Error::new(
            ErrorKind::Unsupported("file too large to rewrite".into())
        ))?
    ];
    let n = src
        .read_at(0, &mut data)
        .map_err(|e| Error::new(ErrorKind::Io).with_source(e))?;
    data.truncate(n);
    let data = match load(&data[..], None) {
        Ok((st, _))
            if st
                .pdf
                .trailer()
                .get(b"Encrypt")
                .is_some_and(|e| !matches!(e, Obj::Null)) =>
        {
            return Err(Error::new(ErrorKind::Encrypted))
        }
        Ok(_) => data,
        Err(e) if matches!(e.kind(), ErrorKind::Damaged(_)) => incremental::repair(&data)?,
        Err(e) => return Err(e),
    };
    let props = xmp::Props {
        number: number.full(),
        short: number.short(),
        url: number.url(),
    };
    incremental::rewrite_document(&data, |old| {
        let values = old.as_deref().map(xmp::read);
        let old = match values {
            Some(Err(e)) if !opts.force => return Err(force_hint(e)),
            Some(Err(_)) => None,
            _ => old,
        };
        let pdfa4 = matches!(values, Some(Ok(ref v)) if v.pdfa_part.as_deref() == Some("4"));
        let packet = xmp::merge(old.as_deref(), &props, &opts.now)?;
        let entries = if pdfa4 {
            vec![]
        } else {
            info::entries(&props.number, &props.url)
                .into_iter()
                .map(|e| (e.key.to_string(), e.value))
                .collect()
        };
        Ok((packet, entries))
    })
}

/// Issue 18.3: the text of an object written to an encrypted file, with every string
/// encrypted for that object (the text comes from [`clear_text`] and the new entries).
fn seal_text<R: ReadAt>(pdf: &Pdf<R>, id: (u32, u16), body: Vec<u8>) -> Result<Vec<u8>, Error> {
    match pdf.security() {
        Some(h) => h
            .encrypt_text(id, &body)
            .map_err(|e| Error::new(ErrorKind::Crypt(e))),
        None => Ok(body),
    }
}

/// Issue 18.3: the trailer of an update to an encrypted file carries the same `/Encrypt` and
/// `/ID` as the file's (readers take both from the newest trailer; the file key depends on
/// the first `/ID` string). Values inherited from older trailers are written out.
fn encrypt_trailer<R: ReadAt>(pdf: &Pdf<R>, trailer: &mut Vec<u8>) -> Result<(), Error> {
    match (
        pdf.trailer().get(b"Encrypt"),
        pdf.trailer_value_text(b"Encrypt"),
    ) {
        (Some(Obj::Ref(n, g)), _) => {
            trailer.extend_from_slice(format!(" /Encrypt {n} {g} R").as_bytes())
        }
        (_, Some(text)) => {
            trailer.extend_from_slice(b" /Encrypt ");
            trailer.extend_from_slice(text);
        }
        _ => {
            return Err(Error::new(ErrorKind::Unsupported(
                "a direct /Encrypt dictionary in an older trailer".into(),
            )))
        }
    }
    if pdf
        .trailer_value_text(b"ID")
        .is_none_or(|t| !t.starts_with(b"["))
    {
        if let Some(Obj::Array(ids)) = pdf.trailer().get(b"ID") {
            trailer.extend_from_slice(b" /ID [");
            for id in ids {
                if let Obj::Str(s) = id {
                    trailer.push(b'<');
                    trailer.extend_from_slice(data_encoding::HEXUPPER.encode(s).as_bytes());
                    trailer.push(b'>');
                }
            }
            trailer.push(b']');
        }
    }
    Ok(())
}

/// Adds the `--force` hint to an XMP error.
fn force_hint(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Xmp(m) => Error::new(ErrorKind::Xmp(format!("{m}; use --force to replace it"))),
        _ => e,
    }
}
