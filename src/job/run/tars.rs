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
        let plan = self.tar_plan()?;
        // A member's SHA-1 is read from its report line only (by the checks of captures):
        // a tar whose lines are thrown away skips it. A folder of tars writes each tar's
        // lines beside its output, always kept.
        let digests = !matches!(plan, Some(TarPlan::One { .. })) || !self.report_to().discards();
        match plan {
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
                digests,
                also: refs.clone().map(|r| r as Arc<dyn tar::AlsoRead>),
            },
            refs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::tar::request::TarRequest;

    /// A member's SHA-1 is computed for its report line unless the lines are thrown away:
    /// the null device by any name.
    #[test]
    fn members_are_hashed_unless_the_report_is_thrown_away() {
        let dir = tempfile::tempdir().unwrap();
        let base = BatchRequest {
            arxiv_metadata: vec!["meta.jsonl".into()],
            tar: TarRequest {
                tar: Some("-".into()),
                out_tar: Some(dir.path().join("out.tar")),
                ..Default::default()
            },
            ..Default::default()
        };
        let digests = |r: &BatchRequest| {
            r.tar_run(crate::pdf::Stop::never())
                .unwrap()
                .options
                .digests
        };
        let to = |p: PathBuf| BatchRequest {
            report: Some(p),
            ..base.clone()
        };
        assert!(digests(&base));
        assert!(digests(&to(dir.path().join("report.jsonl"))));
        assert!(!digests(&to("/dev/null".into())));
        let link = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(!digests(&to(link)));
        // A FIFO is read by someone: its lines are kept.
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        assert!(digests(&to(fifo)));
    }
}
