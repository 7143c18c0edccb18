//! A batch as a front end asks for it ([`BatchRequest`]): where its PDFs and their numbers
//! come from ([`Inputs`]), where the results go, and the one check that refuses a request
//! that is incomplete or contradicts itself ([`BatchRequest::validate`]) before its inputs are
//! read into a run ([`BatchRequest::prepare`]).

use std::path::Path;

use super::arxiv::ArxivPass;
use super::inputs::{no_inputs, Inputs};
use super::plan::plan;
use super::RunRequest;
use crate::job::{Error, ErrorKind, Settings};

/// A batch as a front end is asked for it (`pith batch --dir/--manifest …`, Python's
/// `batch`): where the PDFs and their numbers come from, where the results go, and how.
#[derive(Debug, Clone)]
pub struct BatchRequest<'a> {
    /// The PDFs and their number sources.
    pub inputs: Inputs<'a>,
    /// The output folder the input tree is mirrored into.
    pub out_dir: Option<&'a Path>,
    /// Update the files themselves (instead of `out_dir`).
    pub in_place: bool,
    /// Work out every item and report it (`planned`); write nothing.
    pub dry_run: bool,
    /// With `out_dir`: copy files that are not updated unchanged (a complete mirror).
    pub mirror: bool,
    /// Change nothing: report whether each output carries its number.
    pub check: bool,
    /// Worker threads ([`crate::job::worker_threads`] when `None`; the metadata pass takes
    /// [`crate::job::pass_threads`]).
    pub jobs: Option<usize>,
    /// How each file is updated.
    pub settings: &'a Settings,
    /// Where the references of every PDF read go, as `pith refs` writes them
    /// ([`crate::job::refs::RefsSink`]).
    pub refs: Option<&'a Path>,
}

/// A batch ready to run: the request for [`super::run()`] and, with arXiv metadata, what its pass
/// found.
pub struct Prepared<'a> {
    /// The run.
    pub run: RunRequest<'a>,
    /// With arXiv metadata: what its pass found.
    pub arxiv: Option<ArxivPass>,
}

impl<'a> BatchRequest<'a> {
    /// Refuses a request that is incomplete or contradicts itself, before anything is read:
    /// exactly one of a manifest and a directory; a root only with a manifest; exactly one of
    /// an output folder and in place; a mirror only into an output folder and not with a
    /// check; a check or a dry run, not both; the arXiv options only with arXiv metadata;
    /// a shard that is `K/N` with `0 <= K < N`; standard input named once; a references file that is none of the files read, no PDF
    /// and not standard output.
    ///
    /// # Errors
    /// [`ErrorKind::Request`], whose sentence says what to give; [`ErrorKind::Number`] (kind
    /// `shard`) for a shard that is not `K/N`.
    pub fn validate(&self) -> Result<(), Error> {
        let i = &self.inputs;
        let refuse = |m: &str| Err(Error::new(ErrorKind::Request(m.into())));
        match (i.manifest, i.dir) {
            (None, None) => return Err(no_inputs()),
            (Some(_), Some(_)) => {
                return refuse("a batch takes a manifest or a directory of PDFs, not both")
            }
            _ => {}
        }
        if i.root.is_some() && i.manifest.is_none() {
            return refuse("a root is the base of a manifest's paths: give it with a manifest");
        }
        match (self.out_dir, self.in_place) {
            (None, false) => {
                return refuse(
                    "a batch needs an output folder, or to update the files themselves in place",
                )
            }
            (Some(_), true) => {
                return refuse("a batch writes into an output folder or in place, not both")
            }
            _ => {}
        }
        // Outputs inside the folder read would be read as inputs: refused as every file
        // (the same folder), or numbered again on the next run (a folder within it).
        if let (Some(dir), Some(out)) = (i.dir, self.out_dir) {
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
        if i.arxiv_metadata.is_empty() && (i.any_version || i.unmatched.is_some()) {
            return refuse(
                "numbering every version and listing the unmatched ids need arXiv metadata",
            );
        }
        crate::job::shard(i.shard)?;
        let dashes = i
            .manifest
            .into_iter()
            .chain(i.arxiv_metadata.iter().map(|p| p.as_path()));
        crate::job::stdin_once(dashes.clone())?;
        match self.refs {
            Some(r) => crate::job::refs::RefsSink::check_target(r, dashes),
            None => Ok(()),
        }
    }

    /// Checks the request ([`BatchRequest::validate`]) and reads its inputs (the manifest or
    /// the directory, and the arXiv metadata with its notices to `note`) into the run,
    /// keeping the shard's jobs.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] from [`BatchRequest::validate`]; [`ErrorKind::Input`] when the
    /// manifest cannot be read; [`ErrorKind::Number`] and [`ErrorKind::Arxiv`] for a bad
    /// manifest line or an unreadable directory; [`ErrorKind::Metadata`] for the metadata;
    /// [`ErrorKind::Io`] when the unmatched ids cannot be written.
    pub fn prepare(
        &self,
        note: &mut dyn FnMut(&crate::job::progress::Notice),
    ) -> Result<Prepared<'a>, Error> {
        self.validate()?;
        let plan = plan(&self.inputs, crate::job::pass_threads(self.jobs), note)?;
        let run = RunRequest {
            jobs: plan.jobs,
            orphans: plan.orphans,
            root: self.inputs.dir,
            decided: plan.decided,
            out_dir: self.out_dir,
            dry_run: self.dry_run,
            mirror: self.mirror,
            check: self.check,
            settings: self.settings,
            threads: crate::job::worker_threads(self.jobs),
            refs: self.refs,
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
    use std::path::PathBuf;

    #[test]
    fn contradictory_batch_requests_are_refused_before_anything_is_read() {
        let settings = Settings::default();
        let (dir, m, o) = (Path::new("in"), Path::new("m.jsonl"), Path::new("out"));
        let dash = [PathBuf::from("-"), PathBuf::from("-")];
        let ok = BatchRequest {
            inputs: Inputs {
                dir: Some(dir),
                ..Default::default()
            },
            out_dir: Some(o),
            in_place: false,
            dry_run: false,
            mirror: false,
            check: false,
            jobs: None,
            settings: &settings,
            refs: None,
        };
        assert!(ok.validate().is_ok());
        let with = |f: &dyn Fn(&mut BatchRequest<'_>)| {
            let mut r = ok.clone();
            f(&mut r);
            r
        };
        let bad = [
            with(&|r| r.inputs.dir = None),
            with(&|r| r.inputs.manifest = Some(m)),
            with(&|r| r.inputs.root = Some(dir)),
            with(&|r| r.out_dir = None),
            with(&|r| r.in_place = true),
            with(&|r| (r.out_dir, r.in_place, r.mirror) = (None, true, true)),
            with(&|r| (r.check, r.dry_run) = (true, true)),
            with(&|r| (r.check, r.mirror) = (true, true)),
            with(&|r| r.inputs.any_version = true),
            with(&|r| r.inputs.unmatched = Some(o)),
        ];
        let mut twice = ok.clone();
        twice.inputs.arxiv_metadata = &dash;
        let pdf = Path::new("a.pdf");
        let refs_over_a_pdf = with(&|r| r.refs = Some(pdf));
        let bad = bad.iter().chain([&twice, &refs_over_a_pdf]);
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
        assert_eq!(sentences.len(), 10, "{sentences:#?}");
    }
}
