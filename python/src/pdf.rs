//! `inspect` and `inject`: a path in, a report dict out, the GIL released while the library
//! reads and writes.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{json, Value};

use pith::pdf::{self, Options};

use crate::convert::value_to_py;
use crate::errors;
use pith::pdf::commit::{inject_file, Applied, Target};

/// The update time: ``SOURCE_DATE_EPOCH`` when set (reproducible output), else now; the CLI's
/// rule.
pub(crate) fn default_now() -> String {
    let t = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .unwrap_or_else(chrono::Utc::now);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

// The signature spells the default stamp size as a literal (so that Python sees `9.0`, not `...`).
const _: () = assert!(pith::pdf::stamp::DEFAULT_SIZE == 9.0);

/// A password given as text (UTF-8) or bytes.
#[derive(FromPyObject)]
pub enum Password {
    /// Text, encoded as UTF-8.
    Text(String),
    /// Bytes, as given.
    Bytes(Vec<u8>),
}

/// The library's stamp settings from the keyword arguments, or ValueError naming the bad one.
pub(crate) fn stamp_settings(
    form: &str,
    position: &str,
    size: f64,
) -> PyResult<pith::pdf::stamp::Stamp> {
    use pith::pdf::stamp::{Form, Position, Stamp};
    let form = match form {
        "short" => Form::Short,
        "full" => Form::Full,
        other => {
            return Err(PyValueError::new_err(format!(
                "stamp_form must be \"short\" or \"full\", not {other:?}"
            )))
        }
    };
    let position = match position {
        "left" => Position::Left,
        "right" => Position::Right,
        "top" => Position::Top,
        "bottom" => Position::Bottom,
        other => {
            return Err(PyValueError::new_err(format!(
                "stamp_position must be \"left\", \"right\", \"top\" or \"bottom\", not {other:?}"
            )))
        }
    };
    if !(2.0..=72.0).contains(&size) {
        return Err(PyValueError::new_err(format!(
            "stamp_size must be from 2 to 72 points, not {size}"
        )));
    }
    Ok(Stamp {
        form,
        position,
        size,
        grey: true,
    })
}

/// Whether two paths name the same existing file (same device and inode).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Reads what a PDF says about its Pith Number, without changing it.
///
/// Returns a dict: ``version`` (header, e.g. ``"1.7"``), ``xref_stream``, ``sections`` (xref
/// sections; 1 for a file never updated), ``encrypted``, ``info_number`` / ``info_url`` (Info
/// ``/PithNumber`` / ``/PithURL``), ``xmp`` (dict of the XMP values — ``number``, ``short``,
/// ``url``, ``identifiers``, ``relations``, ``pdfa_part``, ``pdfa_conformance``,
/// ``pith_schema_declared`` — or None), ``xmp_error``, ``signatures``, ``docmdp``, ``found``
/// (the number found, or None), ``consistent`` (every place agrees), ``pdfa``
/// (e.g. ``"PDF/A-1B"`` or None), and ``code`` / ``url`` / ``url_only``: the record the file
/// names, which a file written from the bare 26-character code names by its URL only, with
/// no full number (``url_only`` True, ``found`` None).
///
/// Raises PdfIOError when the file cannot be read, NotPdfError / DamagedPdfError /
/// UnsupportedPdfError when it cannot be read as a PDF.
#[pyfunction]
pub fn inspect<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let name = path.display().to_string();
    let file =
        std::fs::File::open(&path).map_err(|e| errors::pdf_io(py, &name, "cannot open", &e))?;
    let meta = file
        .metadata()
        .map_err(|e| errors::pdf_io(py, &name, "cannot read", &e))?;
    if !meta.is_file() {
        return Err(errors::raise(
            py,
            "PdfIOError",
            "not_file",
            format!("{name}: not a regular file"),
            errors::Attrs {
                path: Some(name),
                ..errors::Attrs::default()
            },
        ));
    }
    let ins = py
        .detach(|| pdf::inspect(&file))
        .map_err(|e| errors::pdf(py, &name, &e))?;
    let xmp = ins.xmp.as_ref().map(|x| {
        json!({
            "number": x.number,
            "short": x.short,
            "url": x.url,
            "identifiers": x.identifiers,
            "relations": x.relations,
            "pdfa_part": x.pdfa_part,
            "pdfa_conformance": x.pdfa_conformance,
            "pith_schema_declared": x.pith_schema_declared,
        })
    });
    let v = json!({
        "path": name,
        "version": ins.version,
        "xref_stream": ins.xref_stream,
        "sections": ins.sections,
        "encrypted": ins.encrypted,
        "info_number": ins.info_number,
        "info_url": ins.info_url,
        "xmp": xmp.unwrap_or(Value::Null),
        "xmp_error": ins.xmp_error,
        "signatures": ins.signatures,
        "docmdp": ins.docmdp,
        "found": ins.found(),
        "consistent": ins.consistent(),
        "pdfa": ins.pdfa(),
        "code": ins.code(),
        "url": ins.url(),
        "url_only": ins.url_only(),
    });
    value_to_py(py, &v)
}

/// Writes ``number`` into the PDF at ``path`` (XMP packet and Info dictionary) as an
/// append-only incremental update: the original bytes stay a byte-identical prefix and
/// existing signatures stay valid.
///
/// Give exactly one target: ``output`` (a new file: copy + update through a temporary file,
/// synced and renamed, so it is either complete or absent; it must not be ``path`` itself) or
/// ``in_place=True`` (the update is appended to ``path`` under an exclusive lock in three
/// synced steps, so a crash at any moment leaves the original or the updated file). ``force``
/// updates certified files that forbid changes, replaces unparsable XMP and stamps signed
/// files; ``now`` is the ``xmp:MetadataDate`` (ISO 8601; default ``SOURCE_DATE_EPOCH`` or the
/// current time).
///
/// ``stamp=True`` also prints the number on page 1 as real, linked text (``pith inject
/// --stamp``): ``stamp_form`` ``"short"`` (``pith:7BMK4ZKT``) or ``"full"``,
/// ``stamp_position`` ``"left"`` (the default, like arXiv's identifier), ``"right"``,
/// ``"top"`` or ``"bottom"``, ``stamp_size`` in points (2 to 72). ``password`` (str or bytes)
/// opens an encrypted file whose user password is not empty (user or owner password).
/// ``repair=True`` rebuilds the cross-reference table of a file refused as damaged and appends
/// the update with a complete section (the original bytes stay a prefix).
///
/// Returns a dict: ``path``, ``output``, ``number``, ``applied`` (``injected``, or
/// ``unchanged`` when the file already carried the number), ``bytes_after``, ``written`` (lines
/// describing what was written) and ``replaced_xmp`` (the old packet's bytes when it was
/// replaced under ``force``, else None).
///
/// Raises NumberError for the number, ValueError for conflicting targets, and a PdfError
/// subclass when the file is refused (NotPdfError, DamagedPdfError, EncryptedPdfError,
/// CertifiedPdfError, XmpError, UnsupportedPdfError) or cannot be read/written (PdfIOError).
/// On any error the input is untouched and no output file exists.
#[pyfunction]
#[pyo3(signature = (
    path, number, output=None, *, in_place=false, force=false, now=None, stamp=false,
    stamp_form="short", stamp_position="left", stamp_size=9.0,
    password=None, repair=false,
))]
#[allow(clippy::too_many_arguments)]
pub fn inject<'py>(
    py: Python<'py>,
    path: PathBuf,
    number: &str,
    output: Option<PathBuf>,
    in_place: bool,
    force: bool,
    now: Option<String>,
    stamp: bool,
    stamp_form: &str,
    stamp_position: &str,
    stamp_size: f64,
    password: Option<Password>,
    repair: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let n = pith::PithNumber::parse(number).map_err(|e| errors::number(py, &e))?;
    let stamp = stamp
        .then(|| stamp_settings(stamp_form, stamp_position, stamp_size))
        .transpose()?;
    let name = path.display().to_string();
    // The target is built inside the closure: `Target` can hold a `dyn Write`, which is not Send.
    let to_file = match (&output, in_place) {
        (Some(_), true) => {
            return Err(PyValueError::new_err(
                "give either output or in_place=True, not both",
            ))
        }
        (None, false) => {
            return Err(PyValueError::new_err(
                "give an output path, or in_place=True to update the file itself",
            ))
        }
        (Some(o), false) => {
            if same_file(&path, o) {
                return Err(PyValueError::new_err(format!(
                    "{name}: output is the input file; use in_place=True to update it"
                )));
            }
            Some(o.as_path())
        }
        (None, true) => None,
    };
    let mut opts = Options::new(&now.unwrap_or_else(default_now));
    opts.force = force;
    opts.stamp = stamp;
    opts.password = password.map(|p| match p {
        Password::Text(t) => t.into_bytes(),
        Password::Bytes(b) => b,
    });
    opts.repair = repair;
    let report = py
        .detach(|| {
            let target = match to_file {
                Some(o) => Target::File(o),
                None => Target::InPlace,
            };
            inject_file(&path, target, &n, &opts)
        })
        .map_err(|e| errors::pdf(py, &name, &e))?;
    let out_name = output
        .as_ref()
        .map(|o| o.display().to_string())
        .unwrap_or_else(|| name.clone());
    let v = json!({
        "path": name,
        "output": out_name,
        "number": n.full(),
        "applied": match report.applied {
            Applied::Injected => "injected",
            Applied::Unchanged => "unchanged",
        },
        "bytes_after": report.bytes_after,
        "written": report.written,
    });
    let d = value_to_py(py, &v)?;
    let replaced = report
        .replaced_xmp
        .as_ref()
        .map(|b| pyo3::types::PyBytes::new(py, b));
    d.set_item("replaced_xmp", replaced)?;
    Ok(d)
}
