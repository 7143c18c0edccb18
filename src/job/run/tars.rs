//! A tar run made ready from its request ([`TarRun`], [`BatchRequest::tar_run`]): arXiv's
//! manifest read, the references file created, the stream's options (settings, workers, spool
//! folder) decided once for `pith batch --tar/--tar-dir` and Python's `process_tar`.

use std::path::PathBuf;
use std::sync::Arc;

use super::request::{BatchRequest, TarPlan};
use crate::batch::manifest::Manifest;
use crate::job::refs::RefsSink;
use crate::job::tar::{self, run::Request};
use crate::job::{Error, ErrorKind};

/// A tar run ready to stream: [`TarRun::request`] is what [`tar::run::run_one`] and
/// [`tar::run::run_dir`] take; [`TarRun::finish`] writes out the references once it is done.
#[derive(Debug)]
pub struct TarRun {
    metadata: Vec<PathBuf>,
    any_version: bool,
    manifest: Option<(PathBuf, Manifest)>,
    any_tar: bool,
    options: tar::StreamSettings,
    refs: Option<Arc<RefsSink>>,
}

impl TarRun {
    /// The run as [`tar::run`] takes it.
    pub fn request(&self) -> Request<'_> {
        Request {
            metadata: &self.metadata,
            any_version: self.any_version,
            manifest: self.manifest.as_ref().map(|(p, m)| (p.as_path(), m)),
            any_tar: self.any_tar,
            tar: self.options.clone(),
        }
    }

    /// The settings each member is updated with (for the hints of a refused member).
    pub fn settings(&self) -> &crate::job::Settings {
        &self.options.settings
    }

    /// Writes out the references of the members read, when the request asked for them.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when they cannot be written.
    pub fn finish(&self) -> Result<(), Error> {
        self.refs.as_ref().map_or(Ok(()), |r| r.finish())
    }
}

impl BatchRequest {
    /// Checks a tar run's request ([`BatchRequest::validate`]) and makes it ready: one tar's
    /// output is refused when it exists and the request keeps it (no clobber), arXiv's
    /// manifest is read, the references file created, and the members are updated with the
    /// request's settings, `stop` (the caller's token: a signal handler's) and
    /// [`crate::job::pass_threads`] workers.
    ///
    /// # Errors
    /// What [`BatchRequest::validate`] refuses, and [`ErrorKind::Request`] for a run of PDFs
    /// ([`BatchRequest::prepare`] runs it); [`ErrorKind::Exists`] for an output kept;
    /// [`ErrorKind::Manifest`] (kind `io` when it cannot be read) for arXiv's manifest;
    /// [`ErrorKind::Io`] when the references file cannot be created.
    pub fn tar_run(&self, stop: crate::pdf::Stop) -> Result<TarRun, Error> {
        match self.tar_plan()? {
            None => {
                return Err(Error::new(ErrorKind::Request(
                    "a run of PDFs reads no tar: give a tar or a folder of tars".into(),
                )))
            }
            Some(TarPlan::One {
                output: Some(o), ..
            }) => crate::job::check_output(None, o, self.no_clobber)?,
            Some(_) => {}
        }
        let manifest = match &self.tar.arxiv_manifest {
            Some(p) => Some((p.clone(), Manifest::read(p)?)),
            None => None,
        };
        let refs = match &self.refs {
            Some(p) => Some(Arc::new(RefsSink::create(p)?)),
            None => None,
        };
        let settings = crate::job::Settings {
            stop,
            ..self.settings()?
        };
        Ok(TarRun {
            metadata: self.arxiv_metadata.clone(),
            any_version: self.any_version,
            manifest,
            any_tar: self.tar.any_tar,
            options: tar::StreamSettings {
                settings,
                threads: crate::job::pass_threads(self.jobs),
                spool_dir: self.tar.spool_dir.clone(),
                name: String::new(),
                // The manifest's checks compute the md5s ([`tar::run`]); nothing else needs them.
                md5: false,
                also: refs.clone().map(|r| r as Arc<dyn tar::AlsoRead>),
            },
            refs,
        })
    }
}
