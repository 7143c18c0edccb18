//! `process_tar` and `write_tar_manifest`: arXiv bulk tars streamed through the
//! library's [`pith::job::tar::run`], from and to paths or binary file objects, the GIL
//! released except around the file objects' own `read`/`write` calls.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyModule};

use pith::batch::manifest::Manifest;
use pith::job;
use pith::job::run::TarPlan;
use pith::job::tar::request::TarRequest;
use pith::job::tar::run::{TarInput, TarOutput};
use pith::job::tar::{self, ErrorKind, MemberReport};

use crate::convert::value_to_py;
use crate::errors;
use crate::progress::Callback;

/// A path (str or os.PathLike) or a binary file object.
enum End<F> {
    Path(PathBuf),
    File(F),
}

impl<F> End<F> {
    /// The path, or `-` for a file object: a stream, as the CLI's standard streams.
    fn named(&self) -> PathBuf {
        match self {
            End::Path(p) => p.clone(),
            End::File(_) => PathBuf::from("-"),
        }
    }
}

fn end_arg<F>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    method: &str,
    wrap: fn(Py<PyAny>) -> F,
) -> PyResult<End<F>> {
    if let Ok(p) = obj.extract::<PathBuf>() {
        return Ok(End::Path(p));
    }
    if obj.hasattr(method)? {
        return Ok(End::File(wrap(obj.clone().unbind())));
    }
    Err(PyValueError::new_err(format!(
        "{what} must be a path or a binary file object with .{method}()"
    )))
}

/// A Python binary file object read through its `read` method, the GIL taken per call.
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let got = self
                .0
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let bytes = got
                .cast::<PyBytes>()
                .map_err(|_| io::Error::other("read() did not return bytes"))?
                .as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// A Python binary file object written through its `write` method, the GIL taken per call.
struct PyWriter(Py<PyAny>);

impl Write for PyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let n = self
                .0
                .bind(py)
                .call_method1("write", (PyBytes::new(py, buf),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            // Raw streams may write less and say so; buffered ones return None or the length.
            Ok(n.extract::<usize>().unwrap_or(buf.len()).min(buf.len()))
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Python::attach(|py| {
            let f = self.0.bind(py);
            if f.hasattr("flush").unwrap_or(false) {
                f.call_method0("flush")
                    .map_err(|e| io::Error::other(e.to_string()))?;
            }
            Ok(())
        })
    }
}

/// ``metadata``: a path or a list of paths (none when not given).
pub fn paths_arg(metadata: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PathBuf>> {
    let Some(metadata) = metadata else {
        return Ok(Vec::new());
    };
    match metadata.extract::<PathBuf>() {
        Ok(p) => Ok(vec![p]),
        Err(_) => metadata
            .extract::<Vec<PathBuf>>()
            .map_err(|_| PyValueError::new_err("metadata must be a path or a list of paths")),
    }
}

/// `TarError` with the library's kind, naming the tar.
fn tar_error(py: Python<'_>, e: &tar::Error) -> PyErr {
    let kind = match e.kind() {
        ErrorKind::Header { .. } => "header",
        ErrorKind::Truncated { .. } => "truncated",
        ErrorKind::Read(_) | ErrorKind::Write(_) | ErrorKind::Spool(_) | ErrorKind::Commit(_) => {
            "io"
        }
        ErrorKind::Metadata(_) => "metadata",
        ErrorKind::SameFile => "same_file",
        ErrorKind::NoManifest => "no_manifest",
        ErrorKind::Mismatch { .. } => "mismatch",
        ErrorKind::Unlisted { .. } => "unlisted",
        ErrorKind::Interrupted => "interrupted",
        _ => "tar",
    };
    errors::raise(
        py,
        "TarError",
        kind,
        pith::pdf::chain(e),
        errors::Attrs {
            path: Some(e.tar().to_owned()),
            ..Default::default()
        },
    )
}

/// arXiv's manifest at `path`, or the library's error (kind ``manifest``, ``io`` when it
/// cannot be read), as ``process_tar`` raises it.
fn manifest_arg(py: Python<'_>, path: &Path) -> PyResult<Manifest> {
    Manifest::read(path).map_err(|e| errors::job(py, "", &job::Error::from(e)))
}

/// Streams the tar ``src`` to ``dst``, updating each PDF member named by arXiv id
/// (``YYMM/2402.03791v3.pdf``, ``YYMM/hep-th0001001v1.pdf``) with the number of its entry in
/// the arXiv bulk ``metadata`` (snapshot JSON Lines or OAI-PMH pages, compressed or not; a
/// path or a list of paths), as ``pith batch --tar`` does: members in the same order, headers
/// kept, everything else copied byte for byte. The GIL is released while the tar streams.
///
/// ``src`` and ``dst`` are paths or binary file objects (``open(…, "rb")``, fsspec/s3fs
/// files; ``"-"`` is standard input or output, as at the command line): a path output is
/// written whole and renamed into place; a file object is written as the tar streams.
/// ``manifest`` (arXiv_pdf_manifest.xml) checks the tar's md5 and size against its entry,
/// found by ``src``'s file name, or for a file object by ``name`` (the tar's file name, for a
/// stream only) or else by content; ``any_tar`` accepts a tar it does not list. ``report``
/// writes the report lines and totals to that path (the CLI's ``NAME.jsonl``; its missing
/// folders made, ``"-"`` standard output), with the md5s when ``manifest`` is given. ``jobs``
/// workers update PDFs (default: the cores); ``now`` is the update time (default:
/// ``SOURCE_DATE_EPOCH`` or now). ``progress``, if given, is called with each member's line (a
/// dict) as it is written; returning ``False`` stops the run before the next member, as does
/// ``KeyboardInterrupt`` (raised again once the run has stopped), and stops the members being
/// updated: the run then raises TarError (kind ``interrupted``) and a path output is not
/// written. ``file_timeout`` bounds the seconds one member's update may take (0: no bound): a
/// member past it is ``failed`` (kind ``over_time``), copied unchanged, and the run goes on.
/// ``refs`` names a file that gets the references of every PDF member updated, read before
/// the update: the JSON Lines ``pith refs`` writes, each named by the member
/// (``pith batch --tar --refs``). The stamp, ``replace``, repair and force options are those
/// of :func:`inject`.
///
/// Returns a dict: ``members`` (a dict per regular file: ``pdf`` its name, ``id``,
/// ``version``, ``status``, ``reason``, ``number``, ``copied``, ``bytes_before``,
/// ``bytes_after``, ``ms``) and ``totals`` (the counts, ``md5_in``, ``size_in``, ``md5``,
/// ``size``). Raises OptionError (kind ``request``) for keywords that do not go together, with
/// the sentence ``pith batch --tar`` gives (the library's ``BatchRequest`` checks them: no
/// metadata, ``any_tar`` without ``manifest``, ``name`` with a tar file, ``jobs=0``, ``refs``
/// naming a folder, a PDF or a file read); BatchError (kind ``manifest``, or ``io`` when it
/// cannot be read) for ``manifest``; TarError (kinds ``header``, ``truncated``, ``io``,
/// ``metadata``, ``mismatch``, ``unlisted``, ``same_file``); a PDF that cannot be updated is a
/// member with status ``refused`` or ``failed``, copied unchanged, not an exception.
#[pyfunction]
#[pyo3(signature = (
    src, dst, *, metadata, any_version=false, manifest=None, any_tar=false, name=None,
    stamp=false, stamp_form=None, stamp_position=None, stamp_size=None, replace=false,
    repair=false, force=false, jobs=None, now=None, report=None, spool_dir=None,
    file_timeout=None, progress=None, refs=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn process_tar<'py>(
    py: Python<'py>,
    src: &Bound<'py, PyAny>,
    dst: &Bound<'py, PyAny>,
    metadata: &Bound<'py, PyAny>,
    any_version: bool,
    manifest: Option<PathBuf>,
    any_tar: bool,
    name: Option<String>,
    stamp: bool,
    stamp_form: Option<String>,
    stamp_position: Option<String>,
    stamp_size: Option<f64>,
    replace: bool,
    repair: bool,
    force: bool,
    jobs: Option<usize>,
    now: Option<String>,
    report: Option<PathBuf>,
    spool_dir: Option<PathBuf>,
    file_timeout: Option<f64>,
    progress: Option<Py<PyAny>>,
    refs: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut src = end_arg(src, "src", "read", PyReader)?;
    let mut dst = end_arg(dst, "dst", "write", PyWriter)?;
    // The keywords as the library's request (a file object is a stream, as the CLI's `-`):
    // it refuses what does not hold together, with the sentences `pith batch --tar` gives,
    // and makes the run ready (the manifest read, the references file created).
    let request = job::run::BatchRequest {
        update: crate::pdf::Update::new(force, repair, None, now, file_timeout)
            .stamp(stamp, stamp_form, stamp_position, stamp_size, replace)
            .request(),
        arxiv_metadata: paths_arg(Some(metadata))?,
        any_version,
        jobs,
        report,
        refs,
        tar: TarRequest {
            tar: Some(src.named()),
            out_tar: Some(dst.named()),
            arxiv_manifest: manifest,
            any_tar,
            tar_name: name,
            spool_dir,
            tar_dir: None,
        },
        ..Default::default()
    };
    let (input, output, name) = match request.tar_plan() {
        Ok(Some(TarPlan::One {
            input,
            output,
            name,
        })) => (input, output, name),
        Ok(_) => unreachable!("a request with a tar and where it goes is one tar's"),
        Err(e) => return Err(errors::job(py, "", &e)),
    };
    let run = py
        .detach(|| request.tar_run(pith::pdf::Stop::never()))
        .map_err(|e| errors::job(py, "", &e))?;
    let mut members: Callback<MemberReport> = Callback::new(progress);
    let result = py.detach(|| {
        // `-` (a path, or a file object's name) is a standard stream, as at the command line.
        let source = match (input, &mut src) {
            (Some(p), _) => TarInput::Path(p),
            (None, End::File(r)) => TarInput::Reader(Box::new(r), name),
            (None, End::Path(_)) => TarInput::Reader(Box::new(io::stdin()), name),
        };
        let sink = match (output, &mut dst) {
            (Some(p), _) => TarOutput::Path(p),
            (None, End::File(w)) => TarOutput::Writer(w),
            (None, End::Path(_)) => TarOutput::Stdout,
        };
        let totals = tar::run::run_one(&run.request(), source, sink, &mut members)?;
        if let Some(r) = &request.report {
            tar::run::write_report(r, &members.lines, &totals)?;
        }
        Ok::<_, tar::Error>(totals)
    });
    let written = py.detach(|| run.finish());
    // A KeyboardInterrupt or the callback's exception first: the tar's error is then that it
    // was interrupted.
    let members = members.finish()?;
    let totals = result.map_err(|e| tar_error(py, &e))?;
    written.map_err(|e| errors::job(py, "refs", &e))?;
    let v = serde_json::json!({
        "members": members,
        "totals": totals,
    });
    value_to_py(py, &v)
}

/// Writes ``out_dir/arXiv_pdf_manifest.xml`` from ``manifest``: the entries whose tar is done
/// in ``out_dir`` (the output ``NAME`` and its report ``NAME.jsonl`` agree), with the
/// outputs' md5 and size, other fields kept; the file ``pith batch --tar-dir`` writes. Returns
/// its path.
#[pyfunction]
pub fn write_tar_manifest(py: Python<'_>, manifest: PathBuf, out_dir: PathBuf) -> PyResult<String> {
    let m = manifest_arg(py, &manifest)?;
    let path = py
        .detach(|| tar::run::write_output_manifest(&m, &out_dir))
        .map_err(|e| tar_error(py, &e))?;
    Ok(path.display().to_string())
}

/// The key that assigns the tar ``name`` to a shard, as ``pith batch --tar-dir --shard K/N``
/// does: the tar belongs to shard ``tar_shard_key(name) % N``.
#[pyfunction]
pub fn tar_shard_key(name: &str) -> usize {
    pith::batch::manifest::shard_key(name)
}

/// Registers this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(process_tar, m)?)?;
    m.add_function(wrap_pyfunction!(write_tar_manifest, m)?)?;
    m.add_function(wrap_pyfunction!(tar_shard_key, m)?)?;
    Ok(())
}
