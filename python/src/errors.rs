//! Library errors → the Python exception hierarchy of `pith_number.errors`.
//!
//! The classes are defined in Python (so they can also derive from `ValueError`/`OSError`);
//! each library error is mapped by its `ErrorKind`, never by its message text. Every exception
//! carries `kind` (a stable snake_case name of the library's error kind) and, where the
//! library knows them, `path`, `offset` and `field`.

use pyo3::prelude::*;
use pyo3::types::PyString;

/// The error's message followed by its causes (`source()` chain), joined by ": " on one
/// line, as the CLI prints them; a cause whose text is already in the message is left out.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let t = c.to_string();
        if !t.is_empty() && !out.contains(&t) {
            out.push_str(": ");
            out.push_str(&t);
        }
        cur = c.source();
    }
    out.replace('\n', " ")
}

/// Extra attributes set on an exception instance.
#[derive(Default)]
pub struct Attrs {
    /// The file concerned (`path` attribute).
    pub path: Option<String>,
    /// The byte offset in that file (`offset` attribute).
    pub offset: Option<u64>,
    /// The record field or option concerned (`field` attribute).
    pub field: Option<String>,
}

/// An instance of `pith_number.errors.<class>` with `message` and the attributes, as a PyErr.
pub fn raise(py: Python<'_>, class: &str, kind: &str, message: String, attrs: Attrs) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let cls = py.import("pith_number.errors")?.getattr(class)?;
        let inst = cls.call1((PyString::new(py, &message),))?;
        inst.setattr("kind", kind)?;
        inst.setattr("path", attrs.path)?;
        inst.setattr("offset", attrs.offset)?;
        inst.setattr("field", attrs.field)?;
        Ok(PyErr::from_value(inst))
    };
    build().unwrap_or_else(|e| e)
}

/// `NumberError` for a number that does not parse.
pub fn number(py: Python<'_>, e: &pith::number::Error) -> PyErr {
    use pith::number::ErrorKind as K;
    let kind = match e.kind() {
        K::WrongLength { .. } => "wrong_length",
        K::BadCharacter { .. } => "bad_character",
        K::BadYear { .. } => "bad_year",
        K::BadForm => "bad_form",
        _ => "invalid",
    };
    raise(py, "NumberError", kind, chain(e), Attrs::default())
}

/// `RecordError` for an invalid record, paper metadata or Atom feed. An error about one entry
/// of a feed takes the kind (and field) of its cause.
pub fn record(py: Python<'_>, e: &pith::record::Error) -> PyErr {
    use pith::record::ErrorKind as K;
    let mut attrs = Attrs::default();
    let mut inner = e;
    while let K::Entry { source, .. } = inner.kind() {
        inner = source;
    }
    let kind = match inner.kind() {
        K::Json(_) => "json",
        K::Field { field, .. } => {
            attrs.field = Some((*field).to_string());
            "field"
        }
        K::Atom(_) => "atom",
        K::Xml(_) => "xml",
        K::Io(_) => "io",
        K::Utf8 { .. } => "utf8",
        K::Number(_) => "number",
        K::Entries { .. } => "entries",
        _ => "invalid",
    };
    raise(py, "RecordError", kind, chain(e), attrs)
}

/// `RecordError` for input that is not JSON at all (kind `json`).
pub fn not_json(py: Python<'_>, what: &str, message: String) -> PyErr {
    raise(
        py,
        "RecordError",
        "json",
        format!("{what}: {message}"),
        Attrs::default(),
    )
}

/// The `PdfError` subclass for a PDF error about the file at `path`.
pub fn pdf(py: Python<'_>, path: &str, e: &pith::pdf::Error) -> PyErr {
    use pith::pdf::ErrorKind as K;
    let (class, kind) = match e.kind() {
        K::Io => ("PdfIOError", "io"),
        K::NotFile => ("PdfIOError", "not_file"),
        K::NotPdf => ("NotPdfError", "not_pdf"),
        K::Damaged(_) => ("DamagedPdfError", "damaged"),
        K::Encrypted | K::Crypt(_) => ("EncryptedPdfError", "encrypted"),
        K::Certified => ("CertifiedPdfError", "certified"),
        K::Xmp(_) => ("XmpError", "xmp"),
        K::Unsupported(_) => ("UnsupportedPdfError", "unsupported"),
        K::Signed(..) => ("PdfError", "signed"),
        K::NoStampRoom => ("PdfError", "no_stamp_room"),
        K::TooLarge { .. } => ("PdfError", "too_large"),
        K::PagesLost { .. } => ("PdfError", "pages_lost"),
        _ => ("PdfError", "other"),
    };
    let message = chain(e);
    // The library may already name the file; name it exactly once.
    let message = if message.starts_with(path) {
        message
    } else {
        format!("{path}: {message}")
    };
    let attrs = Attrs {
        path: Some(path.to_string()),
        offset: e.offset(),
        field: None,
    };
    raise(py, class, kind, message, attrs)
}

/// `VerifyError` for a key, signature or bundle that cannot even be decoded.
pub fn verify(py: Python<'_>, e: &pith::verify::Error) -> PyErr {
    use pith::verify::ErrorKind as K;
    let kind = match e.kind() {
        K::BadKey(_) => "bad_key",
        K::BadSignature(_) => "bad_signature",
        K::BadHash(_) => "bad_hash",
        K::BundleJson(_) | K::BadBundle(_) | K::BundleRecord(_) => "bad_bundle",
        K::NotVerified(_) => "not_verified",
        _ => "invalid",
    };
    raise(py, "VerifyError", kind, chain(e), Attrs::default())
}

/// `VerifyError` of `kind` with `message` (inputs the library takes pre-decoded).
pub fn verify_msg(py: Python<'_>, kind: &str, message: String) -> PyErr {
    raise(py, "VerifyError", kind, message, Attrs::default())
}

/// `BadgeError` for badge and snippet options the library refuses.
pub fn badge(py: Python<'_>, e: &pith::badge::Error) -> PyErr {
    use pith::badge::ErrorKind as K;
    let mut attrs = Attrs::default();
    let kind = match e.kind() {
        K::ControlCharacter { field, .. } => {
            attrs.field = Some((*field).to_string());
            "control_character"
        }
        K::EmptyLabel => "empty_label",
        K::LabelTooLong { .. } => "label_too_long",
        K::QrModuleSize { .. } => "qr_module_size",
        K::Qr(_) => "qr",
        K::UnknownStyle(_) => "unknown_style",
        K::UnknownStatus(_) => "unknown_status",
        K::UnknownFormat(_) => "unknown_format",
        K::UnsupportedCharacter { field, .. } => {
            attrs.field = Some((*field).to_string());
            "unsupported_character"
        }
        K::EmptySource => "empty_source",
        K::Template(_) => "template",
        _ => "invalid",
    };
    raise(py, "BadgeError", kind, chain(e), attrs)
}

/// `StyError` for options `pith.sty` cannot be rendered with.
pub fn sty(py: Python<'_>, e: &pith::sty::Error) -> PyErr {
    use pith::sty::ErrorKind as K;
    let kind = match e.kind() {
        K::InvalidDate(_) => "invalid_date",
        K::InvalidVersion(_) => "invalid_version",
        K::Template => "template",
        _ => "invalid",
    };
    raise(py, "StyError", kind, chain(e), Attrs::default())
}
