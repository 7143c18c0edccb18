//! Library errors → the Python exception hierarchy of `pith_number.errors`.
//!
//! The classes are defined in Python (so they can also derive from `ValueError`/`OSError`);
//! each library error is mapped by its `ErrorKind`, never by its message text. Every exception
//! carries `kind` (a stable snake_case name of the library's error kind) and, where the
//! library knows them, `path`, `offset` and `field`.

use pyo3::prelude::*;
use pyo3::types::PyString;

use pith::job::kind::{self, ErrorCode};
// One line per error, as the CLI writes it (operating-system errors in words).
use pith::pdf::chain;

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

/// The exception of `kind` (its class from the library's table of kinds) with `message`.
pub fn of_kind(py: Python<'_>, kind: ErrorCode, message: String, attrs: Attrs) -> PyErr {
    raise(py, kind.class(), kind.name(), message, attrs)
}

/// `NumberError` for a number that does not parse.
pub fn number(py: Python<'_>, e: &pith::number::Error) -> PyErr {
    of_kind(py, kind::of_number(e), chain(e), Attrs::default())
}

/// The record field an error is about, when it is about one.
fn field_of(e: &pith::record::Error) -> Option<String> {
    use pith::record::ErrorKind as K;
    match e.kind() {
        K::Field { field, .. } => Some((*field).to_string()),
        K::Entry { source, .. } => field_of(source),
        _ => None,
    }
}

/// `RecordError` for an invalid record, paper metadata or Atom feed. An error about one entry
/// of a feed takes the kind (and field) of its cause.
pub fn record(py: Python<'_>, e: &pith::record::Error) -> PyErr {
    let attrs = Attrs {
        field: field_of(e),
        path: e.path().map(|p| p.display().to_string()),
        ..Attrs::default()
    };
    of_kind(py, kind::of_record(e), chain(e), attrs)
}

/// `RecordError` for input that is not JSON at all (kind `json`).
pub fn not_json(py: Python<'_>, what: &str, message: String) -> PyErr {
    of_kind(
        py,
        ErrorCode::Json,
        format!("{what}: {message}"),
        Attrs::default(),
    )
}

/// The `PdfError` subclass for a PDF error about the file at `path`.
pub fn pdf(py: Python<'_>, path: &str, e: &pith::pdf::Error) -> PyErr {
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
    of_kind(py, kind::of_pdf(e), message, attrs)
}

/// The exception for a job error (about `name` when it is about a PDF).
pub fn job(py: Python<'_>, name: &str, e: &pith::job::Error) -> PyErr {
    use pith::job::ErrorKind as K;
    match e.kind() {
        K::Pdf(p) => pdf(py, name, p),
        K::Input(r) => record(py, r),
        _ => of_kind(
            py,
            e.kind_of(),
            chain(e),
            Attrs {
                path: e.path().map(|p| p.display().to_string()),
                ..Attrs::default()
            },
        ),
    }
}

/// `VerifyError` for a key, signature or bundle that cannot even be decoded.
pub fn verify(py: Python<'_>, e: &pith::verify::Error) -> PyErr {
    of_kind(py, kind::of_verify(e), chain(e), Attrs::default())
}

/// `VerifyError` of `kind` with `message` (inputs the library takes pre-decoded).
pub fn verify_msg(py: Python<'_>, kind: ErrorCode, message: String) -> PyErr {
    of_kind(py, kind, message, Attrs::default())
}

/// `BadgeError` for badge and snippet options the library refuses.
pub fn badge(py: Python<'_>, e: &pith::badge::Error) -> PyErr {
    use pith::badge::ErrorKind as K;
    let field = match e.kind() {
        K::ControlCharacter { field, .. } | K::UnsupportedCharacter { field, .. } => {
            Some((*field).to_string())
        }
        _ => None,
    };
    let attrs = Attrs {
        field,
        ..Attrs::default()
    };
    of_kind(py, kind::of_badge(e), chain(e), attrs)
}

/// `StyError` for options `pith.sty` cannot be rendered with.
pub fn sty(py: Python<'_>, e: &pith::sty::Error) -> PyErr {
    of_kind(py, kind::of_sty(e), chain(e), Attrs::default())
}

/// The table of kinds and classes, for `pith_number.errors` to make its classes from:
/// `(classes, kinds)`, classes as `(name, bases, doc)` in an order where bases come first,
/// kinds as `(name, class, doc)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn error_table() -> (
    Vec<(&'static str, Vec<&'static str>, &'static str)>,
    Vec<(&'static str, &'static str, &'static str)>,
) {
    let classes = kind::CLASSES
        .iter()
        .map(|(n, b, d)| (*n, b.to_vec(), *d))
        .collect();
    let kinds = ErrorCode::ALL
        .iter()
        .map(|k| (k.name(), k.class(), k.doc()))
        .collect();
    (classes, kinds)
}
