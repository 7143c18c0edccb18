//! PDF functions: keyword arguments into the library's job requests ([`pith::job`]), its
//! reports out as dicts with the keys `pith … --json` prints (docs/reports.md). Nothing is
//! decided here; the GIL is released while the library reads and writes.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use serde::Serialize;

use pith::job::pdf_input::PdfInput;
use pith::job::{self, InjectRequest, InspectRequest, Settings, StripRequest};

use crate::convert::value_to_py;
use crate::errors;

/// A password given as text (UTF-8) or bytes.
#[derive(FromPyObject)]
pub enum Password {
    /// Text, encoded as UTF-8.
    Text(String),
    /// Bytes, as given.
    Bytes(Vec<u8>),
}

impl Password {
    /// The password's bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Password::Text(t) => t.into_bytes(),
            Password::Bytes(b) => b,
        }
    }
}

/// A report as a dict, through its serde form (the CLI's `--json` keys).
fn report<'py>(py: Python<'py>, r: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(r)
        .map_err(|e| PyValueError::new_err(format!("report not serialisable: {e}")))?;
    value_to_py(py, &v)
}

/// The exception for a job error about `name`.
fn raise(py: Python<'_>, name: &str, e: &job::Error) -> PyErr {
    errors::job(py, name, e)
}

/// The number to write: any form the command line takes, a bare code's year from its record
/// at the resolver (the library's rule), or the library's refusal.
fn full_number(py: Python<'_>, text: &str) -> PyResult<pith::PithNumber> {
    py.detach(|| {
        let net = job::Settings::default().net_settings()?;
        job::input::full_number(text, &net)
    })
    .map(|r| r.number)
    .map_err(|e| raise(py, "", &e))
}

/// The number to write and, when the input names the paper (a record, an Atom entry), its
/// fields: one of ``number``, ``record`` (a dict or JSON text, bare or wrapped with its display
/// fields) and ``arxiv_atom`` (a path; ``arxiv_id`` picks an entry of a feed), resolved as
/// ``pith inject --number/--record/--arxiv-atom`` resolves them
/// ([`job::input::RecordSource::to_write`]).
fn to_write(
    py: Python<'_>,
    number: Option<&str>,
    record: Option<&Bound<'_, PyAny>>,
    arxiv_atom: Option<PathBuf>,
    arxiv_id: Option<String>,
) -> PyResult<(pith::PithNumber, Option<pith::record::Details>)> {
    let record_value = record
        .map(|r| {
            crate::convert::value_from_py(r)?.map_err(|m| crate::errors::not_json(py, "record", m))
        })
        .transpose()?;
    // The library checks what was given, as for the command line.
    let input = job::given::Given {
        number: number.map(str::to_owned),
        record_value,
        arxiv_atom,
        id: arxiv_id,
        ..job::given::Given::default()
    }
    .input()
    .map_err(|e| raise(py, "", &e))?;
    py.detach(|| {
        let net = job::Settings::default().net_settings()?;
        input.to_write(&net)
    })
    .map(|(r, d)| (r.number, d))
    .map_err(|e| raise(py, "", &e))
}

/// The keyword arguments every writing function takes, as given, gathered once into the
/// library's update request: the library fills the defaults and refuses what does not hold
/// together.
pub(crate) struct Update(job::update::UpdateRequest);

impl Update {
    /// ``force``, ``repair``, ``password``, ``now`` and ``file_timeout``; no stamp.
    pub(crate) fn new(
        force: bool,
        repair: bool,
        password: Option<Password>,
        now: Option<String>,
        file_timeout: Option<f64>,
    ) -> Self {
        Update(job::update::UpdateRequest {
            force,
            repair,
            now,
            file_timeout,
            password: password.map(Password::into_bytes),
            ..job::update::UpdateRequest::default()
        })
    }

    /// The stamp keywords: ``stamp``, ``stamp_form``, ``stamp_position``, ``stamp_size`` and
    /// ``replace``.
    pub(crate) fn stamp(
        mut self,
        stamp: bool,
        form: Option<String>,
        position: Option<String>,
        size: Option<f64>,
        replace: bool,
    ) -> Self {
        self.0.stamp = stamp;
        self.0.stamp_form = form;
        self.0.stamp_position = position;
        self.0.stamp_size = size;
        self.0.replace = replace;
        self
    }

    /// The library's update request, checked with the rest of its job.
    pub(crate) fn request(self) -> job::update::UpdateRequest {
        self.0
    }

    /// The job settings, or the library's refusal of the keywords.
    pub(crate) fn settings(self, py: Python<'_>) -> PyResult<Settings> {
        self.0.settings().map_err(|e| raise(py, "stamp", &e))
    }
}

/// Reads what a PDF says about its Pith Number, without changing it.
///
/// ``source`` is a path or the PDF's bytes. ``deep=True`` checks every cross-reference entry
/// against the file; ``password`` opens an encrypted file whose user password is not empty;
/// ``number`` is the number the file should carry (any form, the short ``pith:XXXXXXXX``
/// included): ``matches_expected`` then says whether it does.
///
/// Returns a dict with the keys of ``pith inspect --json`` (docs/reports.md): ``file``,
/// ``version``, ``xref``, ``sections``, ``encrypted``, ``encryption``, ``not_read``,
/// ``number``, ``has_number``, ``info`` (``PithNumber``, ``PithURL``), ``xmp``
/// (``pith:number``, ``pith:shortNumber``, ``pith:url``, ``xmp:Identifier``,
/// ``dc:relation``, ``pith_schema_declared``) or None, ``xmp_error``, ``pdfa``,
/// ``signatures``, ``docmdp``, ``consistent``, ``matches_expected``, ``uncommitted_bytes``.
///
/// Raises PdfIOError when the file cannot be read, NotPdfError / DamagedPdfError /
/// UnsupportedPdfError when it cannot be read as a PDF, NumberError for ``number``.
#[pyfunction]
#[pyo3(signature = (source, *, deep=false, password=None, number=None))]
pub fn inspect<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    deep: bool,
    password: Option<Password>,
    number: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let (path, data) = path_or_bytes(source)?;
    let name = path
        .as_ref()
        .map_or_else(|| "<memory>".to_owned(), |p| p.display().to_string());
    let req = InspectRequest {
        pdf: PdfInput {
            input: path,
            password: password.map(Password::into_bytes),
            ..PdfInput::default()
        },
        deep,
        expected: number.map(str::to_owned),
    };
    req.validate().map_err(|e| raise(py, "number", &e))?;
    let bytes = req.pdf.input.is_none().then_some(data.as_slice());
    let r = py
        .detach(|| req.run(bytes))
        .map_err(|e| raise(py, &name, &e))?;
    report(py, &r)
}

/// A path (str or os.PathLike) or bytes.
fn path_or_bytes(obj: &Bound<'_, PyAny>) -> PyResult<(Option<PathBuf>, Vec<u8>)> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok((None, b.as_bytes().to_vec()));
    }
    Ok((Some(obj.extract::<PathBuf>()?), Vec::new()))
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
/// --stamp``): ``stamp_form`` ``"short"`` (``pith:7BMK4ZKT``, the default) or ``"full"``,
/// ``stamp_position`` ``"left"`` (the default, like arXiv's identifier), ``"right"``,
/// ``"top"`` or ``"bottom"``, ``stamp_size`` in points (2 to 72, default 9); the three go with ``stamp=True`` (OptionError
/// without it). A file whose page 1 prints
/// another number (the badge ``pith.sty`` draws, a stamp, links to a record) is refused with
/// PdfError of kind ``printed`` naming both numbers; ``replace=True`` (``pith inject
/// --replace``) redraws the badge in its box, replaces the stamp and points the links at the
/// new record, in the same update. ``password`` (str or bytes)
/// opens an encrypted file whose user password is not empty (user or owner password).
/// ``repair=True`` rebuilds the cross-reference table of a file refused as damaged and appends
/// the update with a complete section (the original bytes stay a prefix). ``rewrite=True``
/// writes a full rewrite instead (compacts, repairs, breaks signatures); ``dry_run=True``
/// works the update out and writes nothing (``status`` ``planned``).
///
/// Returns a dict with the keys of ``pith inject --json`` (docs/reports.md): ``input``,
/// ``output``, ``status`` (``injected``, ``rewritten``, ``unchanged``, ``planned``),
/// ``number``, ``url``, ``replaced`` (the different number that was there, or None),
/// ``bytes_before``, ``bytes_after``, ``written`` (dicts: ``item``, ``object``, ``text``)
/// and ``replaced_xmp``.
///
/// ``number`` is any form ``pith inject --number`` takes: the full number, or the bare code or
/// record URL, whose year comes from its record at the resolver (``PITH_RESOLVER_URL``; cached)
/// or, when it cannot be had, NumberError of kind ``no_year`` with the sentence the command
/// line prints. Instead of ``number``, ``record`` (a dict or JSON text: a canonical record, or
/// one wrapped with its ``title`` and ``authors`` as the resolver serves it) or ``arxiv_atom``
/// (the path of an arXiv Atom entry or feed; ``arxiv_id`` picks an entry) names the paper:
/// its DOI, arXiv id, title and authors are then written beside the number, as ``pith inject
/// --record/--arxiv-atom`` writes them (a title or authors the file has already are kept). A
/// file that already carries the number is left as it is (``unchanged``), fields and all.
/// ``file_timeout`` bounds the seconds the update may take (0: no bound); past it, PdfError
/// of kind ``over_time`` and nothing is written.
///
/// Raises NumberError for the number, ValueError (OptionError, OutputError) for conflicting
/// targets, stamp settings or an output that is the input, and a PdfError subclass when the
/// file is refused (NotPdfError, DamagedPdfError,
/// EncryptedPdfError, CertifiedPdfError, XmpError, UnsupportedPdfError, PdfError of kind
/// ``printed``) or cannot be
/// read/written (PdfIOError). On any error the input is untouched and no output file exists.
#[pyfunction]
#[pyo3(signature = (
    path, number=None, output=None, *, record=None, arxiv_atom=None, arxiv_id=None,
    in_place=false, force=false, now=None, stamp=false,
    stamp_form=None, stamp_position=None, stamp_size=None, replace=false,
    password=None, repair=false, rewrite=false, dry_run=false, file_timeout=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn inject<'py>(
    py: Python<'py>,
    path: PathBuf,
    number: Option<&str>,
    output: Option<PathBuf>,
    record: Option<&Bound<'py, PyAny>>,
    arxiv_atom: Option<PathBuf>,
    arxiv_id: Option<String>,
    in_place: bool,
    force: bool,
    now: Option<String>,
    stamp: bool,
    stamp_form: Option<String>,
    stamp_position: Option<String>,
    stamp_size: Option<f64>,
    replace: bool,
    password: Option<Password>,
    repair: bool,
    rewrite: bool,
    dry_run: bool,
    file_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let name = path.display().to_string();
    let req = InjectRequest {
        pdf: PdfInput {
            input: Some(path),
            file_timeout,
            password: password.map(Password::into_bytes),
        },
        output,
        in_place,
        rewrite,
        dry_run,
        update: Update::new(force, repair, None, now, None)
            .stamp(stamp, stamp_form, stamp_position, stamp_size, replace)
            .request(),
        no_clobber: false,
    };
    req.validate().map_err(|e| raise(py, &name, &e))?;
    let (n, details) = to_write(py, number, record, arxiv_atom, arxiv_id)?;
    let done = py
        .detach(|| req.run(&n, details.as_ref(), None))
        .map_err(|e| raise(py, &name, &e))?;
    report(py, &done.report)
}

/// Injects ``number`` into a PDF held in memory and returns ``(pdf, report)``: the whole
/// updated PDF (the original bytes followed by the update; the same bytes when it already
/// carries the number) and the report dict of :func:`inject` (``input`` and ``output`` are
/// ``"<memory>"``). Nothing touches the disk, and the GIL is released while the library
/// works, so map functions of Dask, Ray, Spark or Beam can call it on many PDFs at once.
/// Options and errors as :func:`inject`.
#[pyfunction]
#[pyo3(signature = (
    data, number, *, force=false, now=None, stamp=false, stamp_form=None,
    stamp_position=None, stamp_size=None, replace=false, password=None, repair=false,
    file_timeout=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn inject_bytes<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
    number: &str,
    force: bool,
    now: Option<String>,
    stamp: bool,
    stamp_form: Option<String>,
    stamp_position: Option<String>,
    stamp_size: Option<f64>,
    replace: bool,
    password: Option<Password>,
    repair: bool,
    file_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyTuple>> {
    let req = InjectRequest {
        pdf: PdfInput {
            input: None,
            file_timeout,
            password: password.map(Password::into_bytes),
        },
        update: Update::new(force, repair, None, now, None)
            .stamp(stamp, stamp_form, stamp_position, stamp_size, replace)
            .request(),
        ..InjectRequest::default()
    };
    req.validate().map_err(|e| raise(py, "<memory>", &e))?;
    let n = full_number(py, number)?;
    let bytes = data.as_bytes();
    let done = py
        .detach(|| req.run(&n, None, Some(bytes)))
        .map_err(|e| raise(py, "<memory>", &e))?;
    let out = done.bytes.unwrap_or_default();
    PyTuple::new(
        py,
        [PyBytes::new(py, &out).into_any(), report(py, &done.report)?],
    )
}

/// Takes the Pith Number, its link and the stamp out of a PDF (``pith strip``): an
/// append-only update that removes the Info entries ``/PithNumber`` and ``/PithURL``, pith's
/// XMP values (everything else in the packet stays) and the stamp on page 1 with its link.
///
/// ``source`` is a path or the PDF's bytes. For a path give ``output`` or ``in_place=True``
/// (crash-safe, as :func:`inject`); for bytes the result is returned: ``(pdf, report)``.
/// Returns the report dict: ``input``, ``output``, ``status`` (``stripped`` or
/// ``unchanged``), ``removed`` (the number taken out), ``bytes_before``, ``bytes_after``,
/// ``written``. ``file_timeout`` bounds the seconds it may take (0: no bound), as for
/// :func:`inject`. Errors as :func:`inject`.
#[pyfunction]
#[pyo3(signature = (source, output=None, *, in_place=false, force=false, password=None, repair=false, file_timeout=None))]
#[allow(clippy::too_many_arguments)]
pub fn strip<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    output: Option<PathBuf>,
    in_place: bool,
    force: bool,
    password: Option<Password>,
    repair: bool,
    file_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (path, data) = path_or_bytes(source)?;
    let name = path
        .as_ref()
        .map_or_else(|| "<memory>".to_owned(), |p| p.display().to_string());
    let req = StripRequest {
        pdf: PdfInput {
            input: path,
            file_timeout,
            password: password.map(Password::into_bytes),
        },
        output,
        in_place,
        force,
        repair,
        no_clobber: false,
    };
    req.validate().map_err(|e| raise(py, &name, &e))?;
    let bytes = req.pdf.input.is_none().then_some(data.as_slice());
    let (r, out) = py
        .detach(|| req.run(bytes))
        .map_err(|e| raise(py, &name, &e))?;
    match out {
        Some(out) => {
            let out = PyBytes::new(py, &out).into_any();
            Ok(PyTuple::new(py, [out, report(py, &r)?])?.into_any())
        }
        None => report(py, &r),
    }
}

/// One item of a batch, as ``pith batch`` runs it: ``pdf`` gets ``number`` (any form ``pith inject`` takes)
/// written to ``out``, or to ``out_dir`` joined with ``relative`` (default: the file's name),
/// or in place when neither is given; an output that already carries the number is left
/// (``unchanged``), an output that would be the input or leave ``out_dir`` is refused.
/// ``check=True`` changes nothing and reports ``matches``, ``differs`` or ``missing``.
/// ``dry_run=True`` reports ``planned``. The stamp, ``replace`` and repair options are those
/// of :func:`inject`.
///
/// Returns the batch report line as a dict (docs/reports.md): ``pdf``, ``out``, ``status``,
/// ``reason``, ``refusal``, ``number``, ``replaced``, ``found``, ``copied``,
/// ``bytes_before``, ``bytes_after``, ``ms`` (empty keys left out). Never raises for a
/// refused or failed file, a number that does not parse or whose year cannot be had included:
/// that is the line's ``status`` and ``refusal`` (the kind).
#[pyfunction]
#[pyo3(signature = (
    pdf, number, *, out=None, out_dir=None, relative=None, check=false, dry_run=false,
    mirror=false, force=false, repair=false, now=None, stamp=false, stamp_form=None,
    stamp_position=None, stamp_size=None, replace=false, file_timeout=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn batch_item<'py>(
    py: Python<'py>,
    pdf: PathBuf,
    number: &str,
    out: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    relative: Option<PathBuf>,
    check: bool,
    dry_run: bool,
    mirror: bool,
    force: bool,
    repair: bool,
    now: Option<String>,
    stamp: bool,
    stamp_form: Option<String>,
    stamp_position: Option<String>,
    stamp_size: Option<f64>,
    replace: bool,
    file_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = Update::new(force, repair, None, now, file_timeout)
        .stamp(stamp, stamp_form, stamp_position, stamp_size, replace)
        .settings(py)?;
    let relative = relative
        .or_else(|| pdf.file_name().map(PathBuf::from))
        .unwrap_or_default();
    let job = pith::batch::Item {
        index: 0,
        pdf,
        relative,
        source: pith::record::LocalSource::Number(number.to_owned()),
        also: Vec::new(),
        out,
        details: None,
    };
    let line = py.detach(|| {
        let req = job::ItemRequest {
            job: &job,
            out_dir: out_dir.as_deref(),
            dry_run,
            mirror,
            settings: &s,
        };
        job::run::item(&req, check)
    });
    report(py, &line)
}
