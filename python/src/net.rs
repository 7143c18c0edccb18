//! The network functions: a paper's number from its arXiv id, the next version's
//! number, and a PDF verified against its record at the resolver. Every rule (the request,
//! the 3-second spacing shared with the CLI through the cache directory's lock, retries,
//! timeouts, the cache) is the Rust library's (`pith::net`); the GIL is released while the
//! network or a PDF is used. Errors are `pith_number.errors.NetworkError` with the library's
//! error kind.

use std::path::PathBuf;

use pyo3::prelude::*;

use pith::job::{self, input::ArxivSource};
use pith::net::arxiv::Want;
use pith::net::{ArxivId, Overrides, Settings};
use pith::verify::Bundle;

use crate::convert::{value_from_py, value_to_py};
use crate::errors;

/// The library's settings: the environment's (`PITH_ARXIV_URL`, `PITH_RESOLVER_URL`,
/// `PITH_CACHE_DIR`, `PITH_ARXIV_SPACING_MS`, …), then the keyword arguments.
fn settings(
    py: Python<'_>,
    offline: bool,
    refresh: bool,
    arxiv_url: Option<String>,
    resolver_url: Option<String>,
    cache_dir: Option<PathBuf>,
    timeout: Option<f64>,
) -> PyResult<Settings> {
    let mut s = Settings::from_env().map_err(|e| error(py, &e))?;
    s.offline = offline;
    s.refresh = refresh;
    if let Some(u) = arxiv_url {
        s.arxiv_url = u;
    }
    if let Some(u) = resolver_url {
        s.resolver_url = u;
    }
    if cache_dir.is_some() {
        s.cache_dir = cache_dir;
    }
    let setting = |name: &str, e: pith::net::Error| {
        errors::of_kind(
            py,
            pith::job::kind::of_net(&e),
            pith::pdf::chain(&e),
            errors::Attrs {
                field: Some(name.into()),
                ..errors::Attrs::default()
            },
        )
    };
    if let Some(t) = timeout {
        s.set_timeout_secs(t).map_err(|e| setting("timeout", e))?;
    }
    // The library's check of settings that contradict each other, as the CLI's.
    s.validate().map_err(|e| setting("refresh", e))?;
    Ok(s)
}

/// `NetworkError` (or the class of the PDF or record error inside) with the library's kind.
pub fn error(py: Python<'_>, e: &pith::net::Error) -> PyErr {
    errors::of_kind(
        py,
        pith::job::kind::of_net(e),
        pith::pdf::chain(e),
        errors::Attrs::default(),
    )
}

/// The number of a paper on arXiv, from its metadata (OAI-PMH GetRecord, arXivRaw), as
/// ``pith number ID`` prints it.
///
/// ``arxiv_id`` is any form authors paste (``2402.03791``, ``2402.03791v3``,
/// ``hep-th/9901001``, ``arXiv:…``, an arxiv.org/abs/ URL). Without a version: the latest.
/// An older version needs its ``title`` and ``abstract_text`` (arXiv serves only the latest
/// version's). ``next=True`` gives the number version N+1 will have (v1's date, the latest
/// metadata unless ``title``, ``abstract_text``, ``primary``, ``cross`` or ``license`` say
/// otherwise).
///
/// Requests to arXiv are at most one every 3 seconds, also across processes and together with
/// the ``pith`` command (a lock in the cache directory); answers are cached in ``cache_dir``
/// (default ``$PITH_CACHE_DIR``, else the platform cache directory). ``offline=True`` uses the
/// cache only; ``refresh=True`` fetches again. ``timeout`` is in seconds.
///
/// Returns a dict: ``arxiv_id`` (versioned), ``pith_number``, ``short_pith_number``,
/// ``canonical_sha256``, ``url``, ``record``, ``latest_version``, ``cached``. Raises
/// NetworkError (kinds ``bad_id``, ``id_does_not_exist``, ``deleted``, ``older_version``,
/// ``no_such_version``, ``not_cached``, ``connect``, ``timeout``, ``status``, ``bad_answer``…).
#[pyfunction]
#[pyo3(signature = (arxiv_id, *, next=false, title=None, abstract_text=None, primary=None, cross=None, license=None, offline=false, refresh=false, arxiv_url=None, cache_dir=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
pub fn number_from_arxiv<'py>(
    py: Python<'py>,
    arxiv_id: &str,
    next: bool,
    title: Option<String>,
    abstract_text: Option<String>,
    primary: Option<String>,
    cross: Option<Vec<String>>,
    license: Option<String>,
    offline: bool,
    refresh: bool,
    arxiv_url: Option<String>,
    cache_dir: Option<PathBuf>,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = settings(py, offline, refresh, arxiv_url, None, cache_dir, timeout)?;
    let id = ArxivId::parse(arxiv_id).map_err(|e| error(py, &e))?;
    let overrides = Overrides {
        title,
        abstract_text,
        primary,
        cross,
        license,
    };
    let want = if next { Want::Next } else { Want::Asked };
    let req = job::NumberRequest {
        input: job::RecordSource::Arxiv(Box::new(ArxivSource {
            id,
            want,
            overrides,
        })),
        net: s,
    };
    let mut reports = py
        .detach(|| job::number::run(&req))
        .map_err(|e| errors::job(py, "", &e))?;
    let report = reports.remove(0);
    value_to_py(py, &serde_json::to_value(&report).unwrap_or_default())
}

/// Verifies a PDF: reads its number (XMP, else Info, else the record link alone), gets the
/// record of that number from the resolver (``{resolver_url}/pith/<26>.json``, wrapped or
/// bare, and ``…/bundle.json`` for receipts), or from ``record`` / ``bundle`` (dicts or JSON
/// text) when given, and checks the record's hash against the number and every receipt
/// signature (``keys``: extra Ed25519 public keys besides the registry's).
///
/// Returns a dict: ``file``, ``pith_number``, ``found_in`` (``XMP``, ``Info``, ``record
/// link``), ``arxiv_id``, ``arxiv_version``, ``holds``, ``verdict`` (``verified``,
/// ``unverified``, ``mismatch``, ``unknown``), ``headline`` (the verdict as the sentence
/// ``pith verify`` ends with), ``checks`` and ``newer_version`` (``version``,
/// ``pith_number``, ``url`` of a newer version of the paper when the resolver names one, else
/// None; it changes no verdict) and ``mirror`` (``name``, ``base_url`` of the mirror that
/// answered when a mirror manifest, ``mirrors`` (a URL or a file) or ``PITH_MIRRORS``, named
/// the mirrors asked, else None). A number the resolver has no record of is
/// ``unknown`` (it may name a version not yet announced), not a mismatch and not an error. Raises NetworkError (``no_number``, ``pdf``, ``connect``,
/// ``not_cached``…). The same spacing and cache rules as :func:`number_from_arxiv` apply (one
/// resolver request a second by default). ``file_timeout`` bounds reading the PDF, in seconds
/// (0: no bound; left out, the library's per-file deadline), as ``pith verify --file-timeout``.
#[pyfunction]
#[pyo3(signature = (path, *, record=None, bundle=None, keys=None, password=None, offline=false, refresh=false, resolver_url=None, cache_dir=None, timeout=None, mirrors=None, file_timeout=None))]
#[allow(clippy::too_many_arguments)]
pub fn verify_pdf<'py>(
    py: Python<'py>,
    path: PathBuf,
    record: Option<&Bound<'py, PyAny>>,
    bundle: Option<&Bound<'py, PyAny>>,
    keys: Option<Vec<String>>,
    password: Option<crate::pdf::Password>,
    offline: bool,
    refresh: bool,
    resolver_url: Option<String>,
    cache_dir: Option<PathBuf>,
    timeout: Option<f64>,
    mirrors: Option<String>,
    file_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut s = settings(py, offline, refresh, None, resolver_url, cache_dir, timeout)?;
    if mirrors.is_some() {
        s.mirrors = mirrors;
    }
    let record = match record {
        Some(r) => Some(job::RecordSource::Local(pith::record::LocalSource::Record(
            Box::new(crate::record_arg(py, r)?),
        ))),
        None => None,
    };
    let bundle = match bundle {
        Some(b) => {
            let v = value_from_py(b)?.map_err(|m| errors::not_json(py, "bundle", m))?;
            Some(Bundle::from_value(v).map_err(|e| errors::verify(py, &e))?)
        }
        None => None,
    };
    let req = job::VerifyRequest {
        pdf: Some(path.clone()),
        password: password.map(crate::pdf::Password::into_bytes),
        record,
        bundle,
        keys: keys.unwrap_or_default(),
        file_timeout,
        net: s,
        ..job::VerifyRequest::default()
    };
    let name = path.display().to_string();
    let report = py
        .detach(|| job::verify::run(&req))
        .map_err(|e| errors::job(py, &name, &e))?;
    crate::verify_report(py, &report)
}
