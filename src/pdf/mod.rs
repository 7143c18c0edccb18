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
//! only lopdf user), [`xmp`] (packet merge), [`info`] (Info entries). This module ties them
//! together and decides what to refuse: encrypted files, files whose xref chain is broken,
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

pub mod incremental;
pub mod info;
pub mod stamp;
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
    /// Occurs when the trailer has `/Encrypt`: pith does not update encrypted files.
    Encrypted,
    /// Occurs when a certification signature (`/DocMDP` with `/P 1`) forbids any change.
    Certified,
    /// Occurs when `--stamp` is asked for a file with approval or certification signatures
    /// (the number of signatures, whether certified): a visible stamp changes page content,
    /// which validators report (issue 13).
    Signed(usize, bool),
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
            ErrorKind::Encrypted => write!(f, "encrypted PDF; pith does not update encrypted files")?,
            ErrorKind::Certified => write!(f, "certified PDF whose signature forbids any change (DocMDP /P 1); use --force to update anyway, which invalidates the certification")?,
            ErrorKind::Signed(n, certified) => write!(
                f,
                "{} PDF ({n} signature{}); a visible stamp changes page content, which signature validators report; use --force to stamp anyway, or inject without --stamp",
                if *certified { "certified" } else { "signed" },
                if *n == 1 { "" } else { "s" }
            )?,
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
    /// Also put a visible, linked stamp on page 1 ([`stamp`], issue 13).
    pub stamp: Option<stamp::Stamp>,
}

impl Options {
    /// Options with `force` off and the given time.
    pub fn new(now: &str) -> Self {
        Options {
            force: false,
            now: now.to_string(),
            stamp: None,
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
    /// Whether the file is encrypted (then values are not read).
    pub encrypted: bool,
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

fn load<R: ReadAt>(src: R) -> Result<(State<R>, bool), Error> {
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
    if encrypted {
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
            true,
        ));
    }
    let catalog = pdf
        .get(root.0)?
        .filter(|f| f.obj.as_dict().is_some())
        .ok_or_else(|| {
            Error::new(ErrorKind::Damaged(format!(
                "the catalog (object {}) is missing",
                root.0
            )))
        })?;
    let cat = catalog.obj.as_dict().cloned().unwrap_or_default();
    let mut metadata_ref = None;
    let mut packet = None;
    if let Some(Obj::Ref(n, g)) = cat.get(b"Metadata") {
        if let Some(f) = pdf.get(*n)? {
            if f.stream.is_some() {
                metadata_ref = Some((*n, *g));
                if !encrypted {
                    packet = Some(pdf.decoded(&f)?);
                }
            }
        }
    }
    let mut info_ref = None;
    let mut info = None;
    match pdf.trailer().get(b"Info") {
        Some(Obj::Ref(n, g)) => {
            if let Some(f) = pdf.get(*n)? {
                if let Some((d, text)) = f.dict_text() {
                    let mut d = d.clone();
                    rebase(&mut d);
                    info = Some((d, text.to_vec()));
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
        encrypted,
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
    let (st, encrypted) = load(src)?;
    let mut ins = Inspection {
        version: st.pdf.version().to_string(),
        xref_stream: st.pdf.xref_kind() == XrefKind::Stream,
        sections: st.pdf.sections(),
        encrypted,
        ..Inspection::default()
    };
    if !encrypted {
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
/// [`ErrorKind::Signed`] (with a stamp, unless `force`), [`ErrorKind::Unsupported`],
/// [`ErrorKind::Io`].
pub fn inject<R: ReadAt>(src: R, number: &PithNumber, opts: &Options) -> Result<Injection, Error> {
    let (st, encrypted) = load(src)?;
    if encrypted {
        return Err(Error::new(ErrorKind::Encrypted));
    }
    let mdp = docmdp(&st)?;
    if mdp == Some(1) && !opts.force {
        return Err(Error::new(ErrorKind::Certified));
    }
    // Issue 13: the stamp changes page content; signed files need --force.
    let stamp = match &opts.stamp {
        Some(s) => {
            let sigs = count_signatures(&st)?;
            if (sigs > 0 || mdp.is_some()) && !opts.force {
                return Err(Error::new(ErrorKind::Signed(sigs, mdp.is_some())));
            }
            let cat = st.catalog.obj.as_dict().cloned().unwrap_or_default();
            let pdfa = st
                .packet
                .as_deref()
                .and_then(|p| xmp::read(p).ok())
                .is_some_and(|v| v.pdfa_part.is_some());
            let s = stamp::Stamp {
                grey: s.grey && stamp::grey_allowed(&cat, pdfa),
                ..*s
            };
            Some(stamp::plan(&st.pdf, &cat, number, &s)?)
        }
        None => None,
    };
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
    let stamp_ok = stamp.as_ref().is_none_or(stamp::Plan::is_current);
    if info_ok && xmp_ok && stamp_ok {
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
            up.object(st.root.0, st.root.1, &body);
            written.push(format!(
                "catalog {} {}: /Metadata {n} 0 R",
                st.root.0, st.root.1
            ));
            (n, 0)
        }
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

    if let Some(plan) = &stamp {
        if !plan.is_current() {
            plan.write(&mut up, &mut written)?;
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
    let data = match load(&data[..]) {
        Ok((_, true)) => return Err(Error::new(ErrorKind::Encrypted)),
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

/// Adds the `--force` hint to an XMP error.
fn force_hint(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Xmp(m) => Error::new(ErrorKind::Xmp(format!("{m}; use --force to replace it"))),
        _ => e,
    }
}
