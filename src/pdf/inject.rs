//! Planning the update that writes a Pith Number (issue #4): the XMP packet (`xmp:Identifier`,
//! `dc:relation`, `pith:*`) as a new version of the metadata stream (or a new stream and
//! catalog), the Info entries `/PithNumber` and `/PithURL` (none on PDF/A-4), and the
//! trailer. It decides what to refuse (encrypted, certified unless forced, unparsable XMP
//! unless forced) and returns bytes; it touches no files ([`super::commit`] does). Also the
//! full rewrite ([`rewrite`]), which goes through [`super::repair`].

use super::document::{load, Document};
use super::reader::{ReadAt, XrefKind};
use super::signature::docmdp;
use super::writer::object::{DictPatch, Trailer, Value};
use super::writer::{Offsets, Update};
use super::{info, repair, xmp, Error, ErrorKind};
use crate::PithNumber;

/// How [`inject`] behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// Update certified files that forbid changes, and replace unparsable XMP packets.
    pub force: bool,
    /// The update time for `xmp:MetadataDate` (ISO 8601, e.g. `2024-01-01T00:00:00Z`).
    pub now: String,
}

impl Options {
    /// Options with `force` off and the given time.
    pub fn new(now: &str) -> Self {
        Options {
            force: false,
            now: now.to_string(),
        }
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
    /// Human-readable lines describing what is written (for the CLI).
    pub written: Vec<String>,
    /// The old XMP packet, when it was unparsable and replaced under `force`.
    pub replaced_xmp: Option<Vec<u8>>,
}

/// Plans the incremental update that writes `number` into the PDF read from `src`.
///
/// # Errors
/// [`ErrorKind::Encrypted`], [`ErrorKind::Damaged`], [`ErrorKind::NotPdf`],
/// [`ErrorKind::Certified`] (unless `force`), [`ErrorKind::Xmp`] (unless `force`),
/// [`ErrorKind::Unsupported`], [`ErrorKind::Io`].
pub fn inject<R: ReadAt>(src: R, number: &PithNumber, opts: &Options) -> Result<Injection, Error> {
    plan(&load(src)?, number, opts)
}

/// [`inject`] on a document already loaded.
pub(crate) fn plan<R: ReadAt>(
    doc: &Document<R>,
    number: &PithNumber,
    opts: &Options,
) -> Result<Injection, Error> {
    if doc.encrypted {
        return Err(Error::new(ErrorKind::Encrypted));
    }
    if docmdp(&doc.pdf, &doc.catalog())? == Some(1) && !opts.force {
        return Err(Error::new(ErrorKind::Certified));
    }
    let props = xmp::Props {
        number: number.full(),
        short: number.short(),
        url: number.url(),
    };
    let mut replaced_xmp = None;
    let mut packet = doc.packet.clone();
    let values = match &packet {
        None => None,
        Some(p) => match xmp::read(p) {
            Ok(v) => Some(v),
            Err(_) if opts.force => {
                replaced_xmp = packet.take();
                None
            }
            Err(e) => return Err(e),
        },
    };
    let pdfa4 = values.as_ref().and_then(|v| v.pdfa_part.as_deref()) == Some("4");
    let entries = if pdfa4 {
        vec![]
    } else {
        info::entries(&props.number, &props.url)
    };
    let info_ok = match &doc.info {
        Some((d, _)) => info::carries(d, &entries) && (!pdfa4 || info::read(d) == (None, None)),
        None => entries.is_empty(),
    };
    let xmp_ok = values.as_ref().is_some_and(|v| v.carries(&props));
    if info_ok && xmp_ok {
        return Ok(Injection {
            appended: Vec::new(),
            offsets: None,
            unchanged: true,
            written: vec![],
            replaced_xmp: None,
        });
    }

    let pdf = &doc.pdf;
    let mut up = Update::new(pdf)?;
    let mut written = Vec::new();

    // XMP: a new version of the existing metadata stream, or a new stream and catalog.
    let new_packet = match xmp::merge(packet.as_deref(), &props, &opts.now) {
        Ok(p) => p,
        Err(_) if opts.force && packet.is_some() => {
            replaced_xmp = packet.take();
            xmp::merge(None, &props, &opts.now)?
        }
        Err(e) => return Err(e),
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
            written.push(format!(
                "catalog {} {}: /Metadata {m}",
                doc.root.num, doc.root.gen
            ));
            m
        }
    };
    up.metadata(meta, &new_packet);
    written.push(format!("XMP metadata {} {}: xmp:Identifier {}, dc:relation {}, pith:number, pith:shortNumber, pith:url", meta.num, meta.gen, props.number, props.url));

    // Info: an indirect dictionary with the Pith entries (none on PDF/A-4).
    let mut info_ref = doc.info_ref;
    if !entries.is_empty()
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
        up.dict(r, &d);
        info_ref = Some(r);
        if entries.is_empty() {
            written.push(format!(
                "Info {} {}: Pith entries removed (PDF/A-4 allows only ModDate)",
                r.num, r.gen
            ));
        } else {
            written.push(format!(
                "Info {} {}: /PithNumber {} /PithURL {}",
                r.num, r.gen, props.number, props.url
            ));
        }
    }

    let app = up.finish(&Trailer {
        root: doc.root,
        info: info_ref,
        id: pdf.trailer_value_text(b"ID"),
    })?;
    written.push(format!(
        "incremental update: {} bytes, xref {}",
        app.bytes.len(),
        if pdf.xref_kind() == XrefKind::Stream {
            "stream"
        } else {
            "table"
        }
    ));
    Ok(Injection {
        appended: app.bytes,
        offsets: Some(app.offsets),
        unchanged: false,
        written,
        replaced_xmp,
    })
}

/// A full rewrite that carries `number`: the whole file is loaded with lopdf and saved
/// compactly. A damaged file is first repaired by rebuilding its xref from a scan
/// ([`repair::repair`]). Loads the whole file into memory; signatures do not survive.
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
        Ok(d) if d.encrypted => return Err(Error::new(ErrorKind::Encrypted)),
        Ok(_) => data,
        Err(e) if matches!(e.kind(), ErrorKind::Damaged(_)) => repair::repair(&data)?,
        Err(e) => return Err(e),
    };
    let props = xmp::Props {
        number: number.full(),
        short: number.short(),
        url: number.url(),
    };
    repair::rewrite_document(&data, |old| {
        let values = old.as_deref().map(xmp::read);
        let old = match values {
            Some(Err(e)) if !opts.force => return Err(e),
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
