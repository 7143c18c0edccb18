//! `batch`: the directory or manifest run of ``pith batch --dir/--manifest``, through the
//! library's [`pith::job::run`], the GIL released while it runs.

use std::path::PathBuf;

use pyo3::prelude::*;

use pith::job::{self, ItemReport};

use crate::convert::value_to_py;
use crate::errors;
use crate::progress::Callback;

/// Runs a batch as ``pith batch`` does: every PDF under ``dir`` takes its number from its
/// sidecar (``NAME.pith``, ``NAME.record.json`` or ``NAME.atom.xml``), or every PDF of the
/// JSON Lines ``manifest`` (paths relative to ``root``, default the manifest's directory)
/// from its line; with ``metadata`` (arXiv bulk metadata, a path or a list of paths) from the
/// entry of the arXiv id in its name (``any_version`` numbers older versions too;
/// ``unmatched`` gets the ids no PDF needed). Updated files go to a mirror tree under
/// ``out_dir``, or into the files themselves with ``in_place=True``; ``mirror`` copies the
/// files left alone too; ``dry_run`` plans and writes nothing; ``check`` changes nothing and
/// reports whether each output carries its number. ``shard="K/N"`` runs one slice; ``jobs``
/// workers (default: twice the cores). ``file_timeout`` bounds the seconds one file may take
/// (0: no bound): a file past it is a ``failed`` line of kind ``over_time`` and the run goes
/// on. ``refs`` names a file that gets every PDF's references as it is read, the JSON Lines
/// ``pith refs`` writes (``pith batch --refs``). The stamp, ``replace`` and
/// repair options are those of :func:`inject`.
///
/// ``progress``, if given, is called with each report line (a dict) as its file is done;
/// returning ``False`` stops the run: files in flight are stopped where they are (nothing is
/// written for them) and they and the others are reported ``skipped``. ``KeyboardInterrupt`` stops it the same way and is raised once it has stopped,
/// as is an exception of the callback.
///
/// Returns a dict: ``lines`` (the report lines, as ``pith batch --json`` prints them) and
/// ``summary`` (its last line). Raises OptionError (kind ``request``) for arguments that do
/// not go together, with the sentence ``pith batch`` prints for the same request (the
/// library's ``BatchRequest`` checks them: neither or both of ``dir`` and ``manifest``,
/// neither or both of ``out_dir`` and ``in_place``, ``mirror`` without ``out_dir`` or with
/// ``check``, ``check`` with ``dry_run``, ``any_version`` or ``unmatched`` without
/// ``metadata``, ``"-"`` twice, ``jobs=0``, ``refs`` naming a folder, a PDF or a file read);
/// BatchError and its kin when the inputs cannot be read; a file that is refused or fails is a
/// line, not an exception.
#[pyfunction]
#[pyo3(signature = (
    dir=None, *, manifest=None, root=None, out_dir=None, in_place=false, dry_run=false,
    check=false, mirror=false, shard=None, jobs=None, metadata=None, any_version=false,
    unmatched=None, force=false, repair=false, now=None, stamp=false, stamp_form=None,
    stamp_position=None, stamp_size=None, replace=false, file_timeout=None, progress=None,
    refs=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn batch<'py>(
    py: Python<'py>,
    dir: Option<PathBuf>,
    manifest: Option<PathBuf>,
    root: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    in_place: bool,
    dry_run: bool,
    check: bool,
    mirror: bool,
    shard: Option<String>,
    jobs: Option<usize>,
    metadata: Option<&Bound<'py, PyAny>>,
    any_version: bool,
    unmatched: Option<PathBuf>,
    force: bool,
    repair: bool,
    now: Option<String>,
    stamp: bool,
    stamp_form: Option<String>,
    stamp_position: Option<String>,
    stamp_size: Option<f64>,
    replace: bool,
    file_timeout: Option<f64>,
    progress: Option<Py<PyAny>>,
    refs: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    // The keywords as the library's request, nothing decided here: it fills what is left out
    // and refuses what does not hold together, with the sentence `pith batch` prints.
    let request = job::run::BatchRequest {
        dir,
        manifest,
        root,
        arxiv_metadata: crate::tar::paths_arg(metadata)?,
        any_version,
        unmatched,
        shard,
        out_dir,
        in_place,
        dry_run,
        mirror,
        check,
        jobs,
        refs,
        update: crate::pdf::Update::new(force, repair, None, now, file_timeout)
            .stamp(stamp, stamp_form, stamp_position, stamp_size, replace)
            .request(),
        ..Default::default()
    };
    let mut lines: Callback<ItemReport> = Callback::new(progress);
    let done = py.detach(|| {
        let prepared = request.prepare(&mut |_| {})?;
        job::run::run(prepared.run, &mut lines)
    });
    let name = request.dir.as_ref().or(request.manifest.as_ref());
    let name = name.map(|p| p.display().to_string()).unwrap_or_default();
    let done = done.map_err(|e| errors::job(py, &name, &e))?;
    let lines = lines.finish()?;
    let v = serde_json::json!({ "lines": lines, "summary": done.summary });
    value_to_py(py, &v)
}
