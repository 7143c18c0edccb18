//! `pith_number._native`: the pith library for Python.
//!
//! Binds the library, not the CLI: records and bundles come in as dicts (or JSON text), reports
//! go out as dicts; errors are raised as the exception hierarchy of `pith_number.errors`,
//! chosen by the library's error kinds. PDF work releases the GIL. The public Python API is
//! re-exported by `pith_number/__init__.py` and typed in `pith_number/_native.pyi`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use serde_json::{json, Value};

use pith::badge;
use pith::job;
use pith::number::NumberRef;
use pith::record::{self, Record};
use pith::verify::{self, Bundle, Check, TextField};
use pith::PithNumber;

mod batch;
mod convert;
mod errors;
mod net;
mod pdf;
mod progress;
mod tar;

use convert::{value_from_py, value_to_py};

/// A validated record from a dict or JSON text, or the exception to raise.
fn record_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Record> {
    let value = value_from_py(obj)?.map_err(|m| errors::not_json(py, "record", m))?;
    Record::from_value(&value).map_err(|e| errors::record(py, &e))
}

/// A full number (`pith:YYYY:<26>` or the bare 26 characters), or `NumberError`.
fn full_number_arg(py: Python<'_>, text: &str) -> PyResult<PithNumber> {
    PithNumber::parse(text).map_err(|e| errors::number(py, &e))
}

fn check_value(c: &Check) -> Value {
    serde_json::to_value(c).unwrap_or(Value::Null)
}

/// A verify report as a dict: the keys of ``pith verify --json``.
pub(crate) fn verify_report<'py>(
    py: Python<'py>,
    r: &job::VerifyReport,
) -> PyResult<Bound<'py, PyAny>> {
    value_to_py(py, &serde_json::to_value(r).unwrap_or(Value::Null))
}

/// The canonical JSON bytes of a record (what is hashed): UTF-8, sorted keys, no whitespace,
/// byte for byte what ``json.dumps(r, sort_keys=True, separators=(",", ":"),
/// ensure_ascii=False).encode()`` gives.
///
/// ``record`` is a dict or JSON text (str/bytes). Raises RecordError when it is not a valid
/// canonical record (missing or unknown fields, wrong types, values the SPEC does not allow).
#[pyfunction]
fn canonical_bytes<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let r = record_arg(py, record)?;
    Ok(PyBytes::new(py, &r.canonical_bytes()))
}

/// The validated canonical record as a new dict (keys sorted). Raises RecordError when
/// ``record`` is not a valid canonical record.
#[pyfunction]
fn canonical_record<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = record_arg(py, record)?;
    value_to_py(py, &r.to_value())
}

/// The full Pith Number (``pith:YYYY:<26 characters>``) of a canonical record given as a dict
/// or JSON text. Raises RecordError when the record is invalid.
#[pyfunction]
fn number(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(record_arg(py, record)?.number().full())
}

/// The number of a record with its other forms, as ``pith number --json`` prints them:
/// ``arxiv_id`` (versioned), ``canonical_sha256``, ``pith_number``, ``short_pith_number`` and
/// ``url`` (the number job's report, docs/reports.md, without the record itself).
#[pyfunction]
fn number_details<'py>(py: Python<'py>, record: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let r = record_arg(py, record)?;
    let mut v = serde_json::to_value(job::NumberReport::of(&r)).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("record");
    }
    value_to_py(py, &v)
}

/// The canonical records of every entry of an arXiv Atom document (what the arXiv export
/// API returns: a feed or a single entry), in document order.
///
/// The XML is parsed with DTDs refused and nesting bounded. Raises RecordError (kind
/// ``atom``) when it is malformed or an entry lacks a required element, (kind ``field``) when
/// an entry's values cannot make a record.
#[pyfunction]
fn records_from_atom<'py>(py: Python<'py>, xml: &str) -> PyResult<Bound<'py, PyList>> {
    let papers = py
        .detach(|| record::atom::parse(xml))
        .map_err(|e| errors::record(py, &e))?;
    let list = PyList::empty(py);
    for p in &papers {
        let r = p.to_record().map_err(|e| errors::record(py, &e))?;
        list.append(value_to_py(py, &r.to_value())?)?;
    }
    Ok(list)
}

/// The canonical record built from a paper's fields, as ``pith number --id … --title …`` does.
///
/// ``id`` is an arXiv id (``2402.03791`` or ``hep-th/9901001``), optionally with its version
/// (``2402.03791v3``) when ``version`` is not given; ``submitted`` is the ISO 8601 time of
/// that version; ``cross`` the cross-list categories. Categories typed by hand are checked
/// against arXiv's taxonomy (``cs.dc`` for ``cs.DC`` would silently give another number).
/// Raises RecordError (kind ``field``, with ``field`` naming the record field) for a value
/// the SPEC or the taxonomy does not allow.
#[pyfunction]
#[pyo3(signature = (*, id, title, abstract_text, submitted, primary, version=None, cross=Vec::new(), license=None))]
#[allow(clippy::too_many_arguments)]
fn record_from_fields<'py>(
    py: Python<'py>,
    id: String,
    title: String,
    abstract_text: String,
    submitted: String,
    primary: String,
    version: Option<u32>,
    cross: Vec<String>,
    license: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    // The fields as `pith number --id … --title …` gives them: the library's Given decides.
    let given = job::given::Given {
        id: Some(id),
        version,
        title: Some(job::given::Text::Value(title)),
        abstract_text: Some(job::given::Text::Value(abstract_text)),
        submitted: Some(submitted),
        primary: Some(primary),
        cross,
        license,
        ..job::given::Given::default()
    };
    let r = given
        .input()
        .and_then(|i| i.record(&pith::net::Settings::default()))
        .map_err(|e| errors::job(py, "", &e))?;
    value_to_py(py, &r.to_value())
}

/// The canonical record of one line of arXiv's bulk metadata snapshot (JSON Lines, one paper a
/// line: ``id``, ``title``, ``abstract``, ``categories``, ``license``, ``versions``), as
/// ``pith number --arxiv-snapshot`` reads it: the latest version, v1's date as
/// ``submitted_at``, the first category as primary.
///
/// ``line`` is str or bytes. Raises RecordError (kind ``arxiv``) when the line is not a
/// snapshot object or lacks what a record needs, (kind ``field``) for values the SPEC does not
/// allow.
#[pyfunction]
fn record_from_arxiv_line<'py>(
    py: Python<'py>,
    line: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = if let Ok(s) = line.cast::<pyo3::types::PyString>() {
        s.to_cow()?.as_bytes().to_vec()
    } else if let Ok(b) = line.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "expected a str or bytes line",
        ));
    };
    let bad = |m: String| {
        errors::of_kind(
            py,
            job::ErrorCode::Arxiv,
            format!("arXiv snapshot line: {m}"),
            errors::Attrs::default(),
        )
    };
    let raw = record::arxiv::snapshot::parse_line(&bytes).map_err(bad)?;
    let paper = raw.into_paper().map_err(bad)?;
    let r = paper.to_record().map_err(|e| errors::record(py, &e))?;
    value_to_py(py, &r.to_value())
}

/// Parses a Pith Number in any published form (``pith:YYYY:<26>``, the bare 26 characters,
/// a short alias ``pith:<8|12|16>``; any case) into a dict: ``form`` (``full`` or ``alias``),
/// ``code`` (the 26 characters, or the alias prefix), ``year`` (or None), ``full`` and ``url``
/// (None for an alias, which names no single record). Raises NumberError saying what was
/// expected.
#[pyfunction]
fn parse_number<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let r = NumberRef::parse(text).map_err(|e| errors::number(py, &e))?;
    let v = match &r {
        NumberRef::Full(n) => json!({
            "form": "full",
            "code": n.code(),
            "year": n.year(),
            "full": n.full(),
            "short": n.short(),
            "url": n.url(),
        }),
        NumberRef::Alias(a) => json!({
            "form": "alias",
            "code": a.prefix(),
            "year": Value::Null,
            "full": Value::Null,
            "short": r.to_string(),
            "url": Value::Null,
        }),
    };
    value_to_py(py, &v)
}

/// A title or abstract canonicalised as the record hashes it: Unicode whitespace collapsed
/// to single spaces, trimmed, lower-cased (Python's ``" ".join(text.split()).lower()``).
#[pyfunction]
fn canon_text(text: &str) -> String {
    record::canon(text)
}

/// The hex SHA-256 of :func:`canon_text` of ``text`` (``title_canon_sha256`` /
/// ``abstract_canon_sha256`` of a record).
#[pyfunction]
fn canon_sha256(text: &str) -> String {
    record::canon_sha256(text)
}

/// Verifies a record as ``pith verify --record`` does: a ``canonical_record`` check (its
/// canonical hash and number), then, when given, that ``number`` (any published form; a short
/// alias is compared by prefix) is its number, that ``title`` / ``abstract_text`` match its
/// canonical-text hashes, and that ``signature`` (base64 Ed25519 over the record's canonical
/// hash) verifies with the registry key or one of ``keys`` (base64/hex raw public keys).
///
/// Returns a report dict: ``holds`` (no check is a mismatch), ``verdict`` (``verified``,
/// ``mismatch``, or ``unverified`` — also for a record alone, which is valid but compared with
/// nothing), ``headline`` (the verdict as the sentence ``pith verify`` ends with) and
/// ``checks`` (each with ``subject``, ``status`` — ``ok``/``mismatch``/
/// ``unverified`` — and ``detail``). A mismatch is a result, not an exception; RecordError,
/// NumberError and VerifyError are raised for input that cannot be read at all.
#[pyfunction]
#[pyo3(signature = (record, number=None, *, title=None, abstract_text=None, signature=None, keys=None))]
fn verify_record<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    number: Option<&str>,
    title: Option<&str>,
    abstract_text: Option<&str>,
    signature: Option<&str>,
    keys: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = record_arg(py, record)?;
    let mut texts = Vec::new();
    if let Some(t) = title {
        texts.push((TextField::Title, t.to_owned()));
    }
    if let Some(a) = abstract_text {
        texts.push((TextField::Abstract, a.to_owned()));
    }
    let req = job::VerifyRequest {
        record: Some(job::RecordSource::Local(record::LocalSource::Record(
            Box::new(r),
        ))),
        number: number.map(str::to_owned),
        texts,
        signature: signature.map(str::to_owned),
        keys: keys.unwrap_or_default(),
        ..job::VerifyRequest::default()
    };
    let report = job::verify::run(&req).map_err(|e| errors::job(py, "", &e))?;
    verify_report(py, &report)
}

/// Checks one text (``field`` is ``"title"`` or ``"abstract"``) against the record's
/// canonical-text hash; returns one check dict (``subject``, ``status``, ``detail``).
/// Whitespace and case are ignored, any other change counts.
#[pyfunction]
#[pyo3(signature = (record, text, field=None))]
fn verify_text<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    text: &str,
    field: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let which = field
        .map(str::parse::<TextField>)
        .transpose()
        .map_err(pyo3::exceptions::PyValueError::new_err)?
        .unwrap_or_default();
    let r = record_arg(py, record)?;
    value_to_py(
        py,
        &check_value(&verify::text_against_record(which, text, &r)),
    )
}

/// Verifies a ``pith_open_graph_bundle`` (dict or JSON text): the canonical hash of its
/// record, every number, short number, hash and record it repeats, and every receipt
/// signature against the built-in registry key plus ``keys`` (raw Ed25519 public keys, base64
/// or hex). A receipt signed by an unknown key, or a bundle without receipts, is reported
/// ``unverified``, never as a pass.
///
/// Returns a report dict like :func:`verify_record`. Raises VerifyError (kind ``bad_bundle``)
/// when the bundle is not a JSON object with a readable ``canonical_record``, (kind
/// ``bad_key``) for a key that cannot be decoded.
#[pyfunction]
#[pyo3(signature = (bundle, keys=None))]
fn verify_bundle<'py>(
    py: Python<'py>,
    bundle: &Bound<'py, PyAny>,
    keys: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let value = value_from_py(bundle)?.map_err(|m| {
        errors::verify_msg(
            py,
            job::ErrorCode::BadBundle,
            format!("invalid bundle: {m}"),
        )
    })?;
    let bundle = Bundle::from_value(value).map_err(|e| errors::verify(py, &e))?;
    let req = job::VerifyRequest {
        bundle: Some(bundle),
        keys: keys.unwrap_or_default(),
        ..job::VerifyRequest::default()
    };
    let report = py
        .detach(|| job::verify::run(&req))
        .map_err(|e| errors::job(py, "", &e))?;
    verify_report(py, &report)
}

/// Checks one receipt signature: ``signature`` (base64 Ed25519 over the 32 raw bytes of the
/// canonical hash ``sha256``, 64 hex digits) against the keys every verification trusts: the
/// registry key ``pith-v1-2026-05``, those ``PITH_KEYS`` pins, and ``key`` (base64 or hex raw
/// public key) when given.
///
/// Returns a check dict (``subject``, ``status`` ``ok`` or ``mismatch``, ``detail``). Raises
/// VerifyError (kind ``bad_hash``, ``bad_signature`` or ``bad_key``) when the hash, the
/// signature or the key cannot be decoded: that is an input error, not a mismatch.
#[pyfunction]
#[pyo3(signature = (sha256, signature, key=None))]
fn verify_signature<'py>(
    py: Python<'py>,
    sha256: &str,
    signature: &str,
    key: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    // The request `pith verify --signature … --sha256 …` makes, so the keys trusted are the
    // same: the registry's, PITH_KEYS' and the one given.
    let req = job::VerifyRequest {
        signature: Some(signature.to_owned()),
        sha256: Some(sha256.to_owned()),
        keys: key.map(str::to_owned).into_iter().collect(),
        ..job::VerifyRequest::default()
    };
    let report = job::verify::run(&req).map_err(|e| errors::job(py, "", &e))?;
    match report.checks.first() {
        Some(check) => value_to_py(py, &check_value(check)),
        None => Err(errors::verify_msg(
            py,
            job::ErrorCode::BadSignature,
            "the signature was not checked".to_owned(),
        )),
    }
}

/// The badge options of a request built from Python's keyword arguments, checked by the
/// library ([`job::badge::BadgeRequest::options`]).
fn badge_options(
    py: Python<'_>,
    full: bool,
    status: Option<&str>,
    style: Option<String>,
    label: Option<String>,
    qr: Option<u32>,
) -> PyResult<badge::Look> {
    job::badge::BadgeRequest {
        full,
        status: status.map(str::to_owned),
        style,
        label,
        qr: qr.is_some(),
        qr_module: qr,
        dark: false,
    }
    .options()
    .map_err(|e| errors::badge(py, &e))
}

/// The SVG badge of ``number`` (a full number: ``pith:YYYY:<26>`` or the 26 characters).
///
/// ``full`` shows the whole number instead of the short form; ``status="computed"`` adds a
/// third segment (``verified`` is found by checking a bundle's receipt, ``stored`` and
/// ``anchored`` by a mirror checking a capture or a proof, never stated: each raises
/// BadgeError, kind ``unchecked_status``); ``style`` is ``flat`` (the default) or ``flat-square``; ``label`` the first segment's text (default ``pith``); ``qr`` draws a QR code of the record URL
/// below the badge with modules of that many px (2–16). Raises NumberError for the number,
/// BadgeError for options the badge refuses.
#[pyfunction]
#[pyo3(signature = (number, *, full=false, status=None, style=None, label=None, qr=None))]
fn badge_svg(
    py: Python<'_>,
    number: &str,
    full: bool,
    status: Option<&str>,
    style: Option<String>,
    label: Option<String>,
    qr: Option<u32>,
) -> PyResult<String> {
    let n = full_number_arg(py, number)?;
    let opts = badge_options(py, full, status, style, label, qr)?;
    badge::svg(&n, &opts).map_err(|e| errors::badge(py, &e))
}

/// The snippet that embeds the badge of ``number`` in ``format`` (``md``, ``html``, ``rst``,
/// ``adoc`` or ``tex``), linked to the record URL.
///
/// ``src`` is the badge image's URL or path (default ``pith-<8 characters>.svg``, ``.pdf`` for
/// tex); ``dark_src`` (HTML only) an image for the dark colour scheme. The badge options are
/// those of :func:`badge_svg` (they set the alt text and size). Raises BadgeError for an
/// unknown format or a source the format cannot carry.
#[pyfunction]
#[pyo3(signature = (number, format, *, src=None, dark_src=None, full=false, status=None, style=None, label=None, qr=None))]
#[allow(clippy::too_many_arguments)]
fn badge_snippet(
    py: Python<'_>,
    number: &str,
    format: &str,
    src: Option<String>,
    dark_src: Option<String>,
    full: bool,
    status: Option<&str>,
    style: Option<String>,
    label: Option<String>,
    qr: Option<u32>,
) -> PyResult<String> {
    let n = full_number_arg(py, number)?;
    let request = job::badge::SnippetRequest {
        format: Some(format.to_owned()),
        src,
        dark_src,
        download: None,
    };
    request.validate().map_err(|e| errors::badge(py, &e))?;
    let badge = badge_options(py, full, status, style, label, qr)?;
    request.render(&n, badge).map_err(|e| errors::badge(py, &e))
}

fn sty_options(
    py: Python<'_>,
    version: Option<String>,
    date: Option<String>,
) -> PyResult<pith::sty::Release> {
    job::sty::StyRequest { version, date }
        .options()
        .map_err(|e| errors::sty(py, &e))
}

/// The text of the LaTeX package ``pith.sty`` (what ``pith sty`` writes). ``version`` and
/// ``date`` (``YYYY/MM/DD``) override the ``\ProvidesPackage`` line; raises StyError when they
/// cannot be written there.
#[pyfunction]
#[pyo3(signature = (version=None, date=None))]
fn sty(py: Python<'_>, version: Option<String>, date: Option<String>) -> PyResult<String> {
    pith::sty::render(&sty_options(py, version, date)?).map_err(|e| errors::sty(py, &e))
}

/// The LaTeXML binding ``pith.sty.ltxml`` (arXiv's HTML view of papers using ``pith.sty``);
/// options as :func:`sty`.
#[pyfunction]
#[pyo3(signature = (version=None, date=None))]
fn sty_ltxml(py: Python<'_>, version: Option<String>, date: Option<String>) -> PyResult<String> {
    pith::sty::render_ltxml(&sty_options(py, version, date)?).map_err(|e| errors::sty(py, &e))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SCHEMA_VERSION", record::SCHEMA_VERSION)?;
    m.add("REGISTRY_KEY_ID", verify::REGISTRY_KEY_ID)?;
    m.add("REGISTRY_KEY_B64", verify::REGISTRY_KEY_B64)?;
    m.add("URL_BASE", pith::vocab::URL_BASE)?;
    m.add_function(wrap_pyfunction!(canonical_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_record, m)?)?;
    m.add_function(wrap_pyfunction!(number, m)?)?;
    m.add_function(wrap_pyfunction!(number_details, m)?)?;
    m.add_function(wrap_pyfunction!(records_from_atom, m)?)?;
    m.add_function(wrap_pyfunction!(record_from_fields, m)?)?;
    m.add_function(wrap_pyfunction!(record_from_arxiv_line, m)?)?;
    m.add_function(wrap_pyfunction!(parse_number, m)?)?;
    m.add_function(wrap_pyfunction!(errors::error_table, m)?)?;
    m.add_function(wrap_pyfunction!(canon_text, m)?)?;
    m.add_function(wrap_pyfunction!(canon_sha256, m)?)?;
    m.add_function(wrap_pyfunction!(verify_record, m)?)?;
    m.add_function(wrap_pyfunction!(verify_text, m)?)?;
    m.add_function(wrap_pyfunction!(verify_bundle, m)?)?;
    m.add_function(wrap_pyfunction!(verify_signature, m)?)?;
    m.add_function(wrap_pyfunction!(badge_svg, m)?)?;
    m.add_function(wrap_pyfunction!(badge_snippet, m)?)?;
    m.add_function(wrap_pyfunction!(sty, m)?)?;
    m.add_function(wrap_pyfunction!(sty_ltxml, m)?)?;
    m.add_function(wrap_pyfunction!(pdf::inspect, m)?)?;
    m.add_function(wrap_pyfunction!(pdf::inject, m)?)?;
    tar::register(m)?;
    m.add_function(wrap_pyfunction!(net::number_from_arxiv, m)?)?;
    m.add_function(wrap_pyfunction!(net::verify_pdf, m)?)?;
    m.add_function(wrap_pyfunction!(pdf::inject_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(pdf::strip, m)?)?;
    m.add_function(wrap_pyfunction!(pdf::batch_item, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch, m)?)?;
    Ok(())
}
