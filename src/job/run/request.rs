//! `pith batch` (with its tar forms) and Python's `batch` and `process_tar` as data
//! ([`BatchRequest`]): where the PDFs (or tars) and their numbers come from, where the results,
//! the report and the references go, and how each file is updated; each option left out takes
//! the library's default. [`BatchRequest::validate`] refuses a request that is incomplete or
//! contradicts itself, once for every door, before anything is read; [`BatchRequest::tar_plan`]
//! says which run it is; a run of PDFs reads its inputs into a [`BatchRun`]
//! ([`BatchRequest::prepare`]), a tar run is made ready by [`BatchRequest::tar_run`].

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::arxiv::ArxivPass;
use super::inputs::{no_inputs, Inputs};
use super::plan::plan;
use super::BatchRun;
use crate::job::tar::request::TarRequest;
use crate::job::update::UpdateRequest;
use crate::job::{outputs, Error, ErrorKind, Placement, Settings};

/// A batch as a door is asked for it: every door builds this from its arguments and nothing
/// else; what is left out is the library's default, and [`BatchRequest::validate`] refuses what
/// does not hold together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BatchRequest {
    /// A directory tree of PDFs whose numbers come from sidecars (or, with
    /// `arxiv_metadata`, from the arXiv ids in their names).
    pub dir: Option<PathBuf>,
    /// A JSON Lines manifest: one object per PDF with `pdf` and its number source (`-` for
    /// standard input).
    pub manifest: Option<PathBuf>,
    /// The base of the manifest's relative paths (the manifest's folder when left out).
    pub root: Option<PathBuf>,
    /// arXiv bulk metadata: each PDF's (or tar member's) number comes from the entry of its
    /// arXiv id (`-` for standard input).
    pub arxiv_metadata: Vec<PathBuf>,
    /// With `arxiv_metadata`: number PDFs that are not the latest version too.
    pub any_version: bool,
    /// With `arxiv_metadata`, in a run of PDFs: where the ids of entries no PDF needed are
    /// written.
    pub unmatched: Option<PathBuf>,
    /// Only this slice of the inputs (or of a folder of tars), `K/N` ([`crate::job::shard`]).
    pub shard: Option<String>,
    /// The output folder the input tree (or a folder of tars) is written into.
    pub out_dir: Option<PathBuf>,
    /// Update the files themselves (instead of `out_dir`).
    pub in_place: bool,
    /// Work out every item and report it (`planned`); write nothing.
    pub dry_run: bool,
    /// With `out_dir`: copy files that are not updated unchanged (a complete mirror).
    pub mirror: bool,
    /// Change nothing: report whether each output carries its number.
    pub check: bool,
    /// A refused file ends the run badly too, not only a failed one ([`super::RunReport::end`]).
    pub strict: bool,
    /// Worker threads, at least 1 ([`crate::job::worker_threads`] for a run of PDFs and
    /// [`crate::job::pass_threads`] for the metadata pass and a tar's members when left out).
    pub jobs: Option<usize>,
    /// Where the report's lines go ([`BatchRequest::report_to`]): a file (its missing folders
    /// made), `-` or left out for standard output.
    pub report: Option<PathBuf>,
    /// Where the references of every PDF read go, as `pith refs` writes them
    /// ([`crate::job::refs::RefsSink`]; its missing folders made).
    pub refs: Option<PathBuf>,
    /// How each file is updated: force, repair, the stamp, replace, the time, the deadline.
    pub update: UpdateRequest,
    /// Refuse to replace an output file that exists.
    pub no_clobber: bool,
    /// The tar run's options (a run of PDFs when none is given).
    pub tar: TarRequest,
}

/// Which tar run a valid request is ([`BatchRequest::tar_plan`]), with what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TarPlan<'a> {
    /// One tar streamed to another.
    One {
        /// The tar read; `None` for standard input.
        input: Option<&'a Path>,
        /// Where the updated tar goes; `None` for standard output.
        output: Option<&'a Path>,
        /// The file name of a tar read from standard input, to find its manifest entry.
        name: Option<&'a str>,
    },
    /// The tars arXiv's manifest lists in a folder, each into the output folder.
    Dir {
        /// The folder of tars.
        dir: &'a Path,
        /// The output folder.
        out_dir: &'a Path,
        /// The slice of the tars this run takes.
        shard: Option<crate::batch::Shard>,
    },
}

/// Where a batch's report lines go ([`BatchRequest::report_to`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportTo<'a> {
    /// A file, created (or emptied) when the run starts, its missing folders made.
    File(&'a Path),
    /// Standard output.
    Stdout,
    /// Standard error: the tar itself goes to standard output.
    Stderr,
}

impl ReportTo<'_> {
    /// Whether the lines go nowhere: a report written to the null device (`--report
    /// /dev/null`). What only the lines need (each member's SHA-1) is then not computed.
    pub fn discards(&self) -> bool {
        matches!(self, ReportTo::File(p) if crate::job::same_file(p, std::path::Path::new("/dev/null")))
    }

    /// Opens the report's destination: the file created ([`outputs::create_file`]) or the
    /// standard stream.
    ///
    /// # Errors
    /// As [`outputs::create_file`].
    pub fn open(self) -> Result<Box<dyn Write>, Error> {
        Ok(match self {
            ReportTo::File(p) => Box::new(std::io::BufWriter::new(outputs::create_file(
                p,
                "the report",
            )?)),
            ReportTo::Stdout => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            ReportTo::Stderr => Box::new(std::io::stderr()),
        })
    }
}

/// A run of PDFs ready to run: the run for [`super::run()`] and, with arXiv metadata, what
/// its pass found.
pub struct Prepared<'a> {
    /// The run.
    pub run: BatchRun<'a>,
    /// With arXiv metadata: what its pass found.
    pub arxiv: Option<ArxivPass>,
}

/// The options of a run of PDFs that a tar run does not take, each with whether it is given.
fn files_only(r: &BatchRequest) -> [(&'static str, bool); 9] {
    [
        ("--dir", r.dir.is_some()),
        ("--manifest", r.manifest.is_some()),
        ("--root", r.root.is_some()),
        ("--in-place", r.in_place),
        ("--mirror", r.mirror),
        ("--dry-run", r.dry_run),
        ("--check", r.check),
        ("--arxiv-unmatched", r.unmatched.is_some()),
        ("--strict", r.strict),
    ]
}

/// The file `p` names; `None` for a standard stream (`-`).
fn named(p: &Path) -> Option<&Path> {
    Some(p).filter(|p| !crate::output::is_stdio(p))
}

fn refuse<T>(m: &str) -> Result<T, Error> {
    Err(Error::new(ErrorKind::Request(m.into())))
}

impl BatchRequest {
    /// Refuses a request that is incomplete or contradicts itself, before anything is read
    /// ([`BatchRequest::tar_plan`] says what is checked).
    ///
    /// # Errors
    /// As [`BatchRequest::tar_plan`].
    ///
    /// # Examples
    /// ```
    /// use pith::job::run::BatchRequest;
    /// let r = BatchRequest { dir: Some("papers".into()), in_place: true, ..Default::default() };
    /// assert!(r.validate().is_ok());
    /// let r = BatchRequest { check: true, dry_run: true, ..r };
    /// assert!(r.validate().is_err(), "a check changes nothing: no dry run");
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        self.tar_plan().map(|_| ())
    }

    /// Checks the request and says which run it is: `None` for a run of PDFs, else the tar
    /// run. Refused, each with one sentence: the tar options' own contradictions
    /// ([`TarRequest::validate`]); for a tar run, an option of a run of PDFs, no metadata, one
    /// tar without where it goes or with an output folder or a shard, a folder of tars
    /// without an output folder or arXiv's manifest, the tar and its report both on standard
    /// output; for a run of PDFs, neither or both of a manifest and a directory, a root
    /// without a manifest, neither or both of an output folder and in place, an output folder
    /// inside the folder read, a mirror without an output folder, a check with a dry run or a
    /// mirror, the arXiv options without arXiv metadata; for both, a shard that is not `K/N`,
    /// standard input named twice, no worker, a report or references file that is a folder, a
    /// references file that is one of the files read, a PDF or standard output, and the
    /// update's settings ([`UpdateRequest::settings`]).
    ///
    /// # Errors
    /// [`ErrorKind::Request`], whose sentence says what to give; [`ErrorKind::Number`] (kind
    /// `shard`) for a shard that is not `K/N`; [`ErrorKind::Stamp`] for the stamp's settings.
    pub fn tar_plan(&self) -> Result<Option<TarPlan<'_>>, Error> {
        self.tar.validate()?;
        let plan = if self.tar.active() {
            Some(self.check_tar()?)
        } else {
            self.check_files()?;
            None
        };
        if self.jobs == Some(0) {
            return refuse("a run needs one worker at least: give 1 or more jobs, or leave them out for the default");
        }
        if let ReportTo::File(p) = self.report_to() {
            outputs::not_a_folder(p, "the report")?;
        }
        if let Some(r) = &self.refs {
            crate::job::refs::RefsSink::check_target(r, self.read())?;
        }
        self.update.validate()?;
        Ok(plan)
    }

    /// Where the outputs of a run of PDFs go: an output folder or in place, exactly one of
    /// them (a tar run writes where its tar options say).
    ///
    /// # Errors
    /// [`ErrorKind::Placement`] for neither ([`Placement::Unsaid`]) or both
    /// ([`Placement::Both`]).
    pub fn destination(&self) -> Result<(), Error> {
        if self.tar.active() {
            return Ok(());
        }
        let placement = match (&self.out_dir, self.in_place) {
            (None, false) => Placement::Unsaid,
            (Some(_), true) => Placement::Both,
            _ => return Ok(()),
        };
        Err(Error::new(ErrorKind::Placement(placement)))
    }

    /// The checks of a run of PDFs.
    fn check_files(&self) -> Result<(), Error> {
        match (&self.manifest, &self.dir) {
            (None, None) => return Err(no_inputs()),
            (Some(_), Some(_)) => {
                return refuse("a batch takes a manifest or a directory of PDFs, not both")
            }
            _ => {}
        }
        if self.root.is_some() && self.manifest.is_none() {
            return refuse("a root is the base of a manifest's paths: give it with a manifest");
        }
        self.destination()?;
        // Outputs inside the folder read would be read as inputs: refused as every file
        // (the same folder), or numbered again on the next run (a folder within it).
        if let (Some(dir), Some(out)) = (&self.dir, &self.out_dir) {
            if let Some(same) = inside(out, dir) {
                let place = if same { "" } else { "inside " };
                return refuse(&format!(
                    "the output folder {} is {place}the folder of PDFs {}: the outputs would be read as inputs; write them into a folder outside it",
                    out.display(),
                    dir.display()
                ));
            }
        }
        if self.mirror && self.out_dir.is_none() {
            return refuse("a mirror is made in an output folder: give one");
        }
        if self.check && (self.dry_run || self.mirror) {
            return refuse("a check changes nothing: it takes no dry run and makes no mirror");
        }
        if self.arxiv_metadata.is_empty() && (self.any_version || self.unmatched.is_some()) {
            return refuse(
                "numbering every version and listing the unmatched ids need arXiv metadata",
            );
        }
        crate::job::shard(self.shard.as_deref())?;
        crate::job::stdin_once(
            self.manifest
                .iter()
                .chain(&self.arxiv_metadata)
                .map(PathBuf::as_path),
        )
    }

    /// The checks of a tar run, and its plan.
    fn check_tar(&self) -> Result<TarPlan<'_>, Error> {
        if let Some((o, _)) = files_only(self).iter().find(|(_, given)| *given) {
            return refuse(&format!(
                "a tar run takes none of a folder run's options ({o} among them): a folder or manifest of PDFs, its root, in place, a mirror, a dry run, a check, unmatched lines, strict"
            ));
        }
        if self.arxiv_metadata.is_empty() {
            return refuse(
                "a tar run numbers its members from arXiv's metadata: give the metadata",
            );
        }
        let t = &self.tar;
        let plan = match (&t.tar, &t.tar_dir) {
            (Some(input), _) => {
                let Some(output) = &t.out_tar else {
                    return refuse("a tar run writes the updated tar whole: give where it goes");
                };
                if self.out_dir.is_some() || self.shard.is_some() {
                    return refuse("one tar is written to one tar: an output folder and a shard go with a folder of tars");
                }
                TarPlan::One {
                    input: named(input),
                    output: named(output),
                    name: t.tar_name.as_deref(),
                }
            }
            (None, Some(dir)) => {
                let Some(out_dir) = &self.out_dir else {
                    return refuse("a folder of tars is written into an output folder: give one");
                };
                if t.arxiv_manifest.is_none() {
                    return refuse(
                        "a folder of tars is read as arXiv's manifest lists it: give the manifest",
                    );
                }
                TarPlan::Dir {
                    dir,
                    out_dir,
                    shard: crate::job::shard(self.shard.as_deref())?,
                }
            }
            (None, None) => return Err(no_inputs()),
        };
        crate::job::stdin_once(
            t.tar
                .iter()
                .chain(&self.arxiv_metadata)
                .map(PathBuf::as_path),
        )?;
        if let Some(o) = &t.out_tar {
            outputs::tar_stdout_once(o, self.report.as_deref())?;
        }
        Ok(plan)
    }

    /// The files the run reads by name (the manifests, the tar, the metadata).
    fn read(&self) -> impl Iterator<Item = &Path> {
        let t = &self.tar;
        [&self.manifest, &t.tar, &t.arxiv_manifest]
            .into_iter()
            .flatten()
            .chain(&self.arxiv_metadata)
            .map(PathBuf::as_path)
    }

    /// Where the report's lines go: the file named, else standard output (`-` or none),
    /// unless one tar goes there: then standard error.
    pub fn report_to(&self) -> ReportTo<'_> {
        match self.report.as_deref() {
            Some(p) if !crate::output::is_stdio(p) => ReportTo::File(p),
            _ if self
                .tar
                .out_tar
                .as_deref()
                .is_some_and(crate::output::is_stdio) =>
            {
                ReportTo::Stderr
            }
            _ => ReportTo::Stdout,
        }
    }

    /// The settings each file is updated with: the update's ([`UpdateRequest::settings`]) and
    /// no clobber.
    ///
    /// # Errors
    /// As [`UpdateRequest::settings`].
    pub fn settings(&self) -> Result<Settings, Error> {
        Ok(Settings {
            no_clobber: self.no_clobber,
            ..self.update.settings()?
        })
    }

    /// What a run of PDFs reads, as its plan reads it.
    fn inputs(&self) -> Inputs<'_> {
        Inputs {
            manifest: self.manifest.as_deref(),
            root: self.root.as_deref(),
            dir: self.dir.as_deref(),
            arxiv_metadata: &self.arxiv_metadata,
            any_version: self.any_version,
            unmatched: self.unmatched.as_deref(),
            shard: self.shard.as_deref(),
        }
    }

    /// Checks the request ([`BatchRequest::validate`]) and reads the inputs of a run of PDFs
    /// (the manifest or the directory, and the arXiv metadata with its notices to `note`)
    /// into the run, keeping the shard's jobs.
    ///
    /// # Errors
    /// What [`BatchRequest::validate`] refuses, and [`ErrorKind::Request`] for a tar run
    /// ([`BatchRequest::tar_run`] runs it); [`ErrorKind::Input`] when the manifest cannot be
    /// read; [`ErrorKind::Number`] and [`ErrorKind::Arxiv`] for a bad manifest line or an
    /// unreadable directory; [`ErrorKind::Metadata`] for the metadata; [`ErrorKind::Io`] when
    /// the unmatched ids cannot be written.
    pub fn prepare(
        &self,
        note: &mut dyn FnMut(&crate::job::progress::Notice),
    ) -> Result<Prepared<'_>, Error> {
        if self.tar_plan()?.is_some() {
            return refuse("a tar run streams its tars: run it as one");
        }
        let settings = self.settings()?;
        let plan = plan(&self.inputs(), crate::job::pass_threads(self.jobs), note)?;
        let run = BatchRun {
            jobs: plan.jobs,
            orphans: plan.orphans,
            root: self.dir.as_deref(),
            decided: plan.decided,
            out_dir: self.out_dir.as_deref(),
            dry_run: self.dry_run,
            mirror: self.mirror,
            check: self.check,
            settings,
            threads: crate::job::worker_threads(self.jobs),
            refs: self.refs.as_deref(),
        };
        Ok(Prepared {
            run,
            arxiv: plan.arxiv,
        })
    }
}

/// Whether `out` is `dir` (`Some(true)`) or a folder within it (`Some(false)`), by their real
/// paths: symbolic links and `..` resolved, an output folder not made yet by its nearest
/// existing parent.
fn inside(out: &Path, dir: &Path) -> Option<bool> {
    let dir = std::fs::canonicalize(dir).ok()?;
    let mut rest = Vec::new();
    let mut at = out;
    let real = loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            break real;
        }
        rest.push(at.file_name()?.to_owned());
        at = match at.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
    };
    let out = rest.iter().rev().fold(real, |p, c| p.join(c));
    if out == dir {
        Some(true)
    } else {
        out.starts_with(&dir).then_some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each request, and the sentences its refusals gave (each once).
    fn refused(bad: &[BatchRequest]) -> std::collections::BTreeSet<String> {
        let mut sentences = std::collections::BTreeSet::new();
        for r in bad {
            let e = r.validate().unwrap_err();
            assert_eq!(e.kind_of(), crate::job::ErrorCode::Request, "{e}");
            // Refused before the inputs (which do not exist) are read.
            assert!(matches!(
                r.prepare(&mut |_| {}).err().map(|e| e.kind_of()),
                Some(crate::job::ErrorCode::Request)
            ));
            sentences.insert(e.to_string());
        }
        sentences
    }

    #[test]
    fn contradictory_batch_requests_are_refused_before_anything_is_read() {
        let ok = BatchRequest {
            dir: Some("in".into()),
            out_dir: Some("out".into()),
            ..Default::default()
        };
        assert!(ok.validate().is_ok());
        assert_eq!(ok.tar_plan().unwrap(), None);
        let with = |f: &dyn Fn(&mut BatchRequest)| {
            let mut r = ok.clone();
            f(&mut r);
            r
        };
        let bad = [
            with(&|r| r.dir = None),
            with(&|r| r.manifest = Some("m.jsonl".into())),
            with(&|r| r.root = Some("in".into())),
            with(&|r| r.out_dir = None),
            with(&|r| r.in_place = true),
            with(&|r| (r.out_dir, r.in_place, r.mirror) = (None, true, true)),
            with(&|r| (r.check, r.dry_run) = (true, true)),
            with(&|r| (r.check, r.mirror) = (true, true)),
            with(&|r| r.any_version = true),
            with(&|r| r.unmatched = Some("u.txt".into())),
            with(&|r| r.arxiv_metadata = vec!["-".into(), "-".into()]),
            with(&|r| r.refs = Some("a.pdf".into())),
            with(&|r| r.jobs = Some(0)),
            with(&|r| r.tar.spool_dir = Some("spool".into())),
        ];
        // A check's two contradictions share one sentence, as do the two arXiv options.
        assert_eq!(refused(&bad).len(), bad.len() - 2);
    }

    #[test]
    fn where_the_outputs_go_is_refused_by_its_own_kind() {
        let placement = |out_dir: Option<&str>, in_place| {
            let r = BatchRequest {
                dir: Some("in".into()),
                out_dir: out_dir.map(PathBuf::from),
                in_place,
                ..Default::default()
            };
            let e = r.validate().err()?;
            assert_eq!(e.kind_of(), crate::job::ErrorCode::Request, "{e}");
            match e.kind() {
                ErrorKind::Placement(p) => Some(*p),
                _ => None,
            }
        };
        assert_eq!(placement(None, false), Some(Placement::Unsaid));
        assert_eq!(placement(Some("out"), true), Some(Placement::Both));
        assert_eq!(placement(Some("out"), false), None);
        assert_eq!(placement(None, true), None);
        // Another refusal of a run of PDFs is no placement's.
        let mirror = BatchRequest {
            dir: Some("in".into()),
            in_place: true,
            mirror: true,
            ..Default::default()
        };
        let e = mirror.validate().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Request(_)), "{e:?}");
    }

    #[test]
    fn tar_runs_are_planned_and_their_contradictions_refused() {
        let one = BatchRequest {
            arxiv_metadata: vec!["meta.json".into()],
            tar: TarRequest {
                tar: Some("-".into()),
                out_tar: Some("out.tar".into()),
                ..Default::default()
            },
            ..Default::default()
        };
        assert_eq!(
            one.tar_plan().unwrap(),
            Some(TarPlan::One {
                input: None,
                output: Some(Path::new("out.tar")),
                name: None
            })
        );
        let dir = BatchRequest {
            out_dir: Some("out".into()),
            shard: Some("1/2".into()),
            tar: TarRequest {
                tar_dir: Some("tars".into()),
                arxiv_manifest: Some("m.xml".into()),
                ..Default::default()
            },
            ..one.clone()
        };
        assert!(matches!(
            dir.tar_plan().unwrap(),
            Some(TarPlan::Dir { shard: Some(_), .. })
        ));
        let with = |base: &BatchRequest, f: &dyn Fn(&mut BatchRequest)| {
            let mut r = base.clone();
            f(&mut r);
            r
        };
        let bad = [
            with(&one, &|r| r.check = true),
            with(&one, &|r| r.arxiv_metadata.clear()),
            with(&one, &|r| r.tar.out_tar = None),
            with(&one, &|r| r.out_dir = Some("out".into())),
            with(&one, &|r| r.arxiv_metadata = vec!["-".into()]),
            with(&one, &|r| {
                (r.tar.out_tar, r.report) = (Some("-".into()), Some("-".into()))
            }),
            with(&dir, &|r| r.out_dir = None),
            with(&dir, &|r| r.tar.arxiv_manifest = None),
        ];
        assert_eq!(refused(&bad).len(), bad.len());
        // The report beside a tar on standard output goes to standard error.
        let piped = with(&one, &|r| r.tar.out_tar = Some("-".into()));
        assert_eq!(piped.report_to(), ReportTo::Stderr);
        assert_eq!(one.report_to(), ReportTo::Stdout);
    }
}
