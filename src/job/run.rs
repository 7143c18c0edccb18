//! The batch run job: many PDFs (a manifest's or a directory's, or those arXiv metadata
//! matched) on a pool of workers, one report line each ([`ItemReport`]), then the summary
//! ([`Summary`]). A front end turns its arguments into a [`BatchRequest`]; the request checks
//! itself ([`BatchRequest::validate`]: one refusal, with one sentence, whichever front end
//! built it) and reads its inputs into a [`RunRequest`] ([`BatchRequest::prepare`]). The
//! front end watches the lines and stops the run through [`Progress`] (the CLI writes the
//! report and draws the bar; a Python caller may pass a callback); what ends a run badly
//! ([`RunReport::end`]) is decided here, and so is how one item runs alone ([`item()`]).

use std::path::{Path, PathBuf};

use super::item::{self, ItemRequest, Summary};
use super::progress::Progress;
use super::{Error, ErrorKind, ItemReport, Settings, Status};
use crate::batch::{self, Item};

/// Where a batch run's PDFs and their numbers come from: what `pith batch --dir/--manifest`
/// and Python's `batch` are given.
#[derive(Debug, Clone, Default)]
pub struct Inputs<'a> {
    /// A JSON Lines manifest: one object per PDF with `pdf` and its number source.
    pub manifest: Option<&'a Path>,
    /// The base of the manifest's relative paths (default: the manifest's directory).
    pub root: Option<&'a Path>,
    /// A directory tree of PDFs whose numbers come from sidecars (or, with
    /// `arxiv_metadata`, from the arXiv ids in their names).
    pub dir: Option<&'a Path>,
    /// arXiv bulk metadata: each PDF's number comes from the entry of its arXiv id.
    pub arxiv_metadata: &'a [PathBuf],
    /// With `arxiv_metadata`: number PDFs that are not the latest version too.
    pub any_version: bool,
    /// With `arxiv_metadata`: where the ids of entries no PDF needed are written.
    pub unmatched: Option<&'a Path>,
    /// Only this slice of the inputs.
    pub shard: Option<batch::Shard>,
}

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
    /// Worker threads ([`super::worker_threads`] when `None`; the metadata pass takes
    /// [`super::pass_threads`]).
    pub jobs: Option<usize>,
    /// How each file is updated.
    pub settings: &'a Settings,
    /// Where the references of every PDF read go, as `pith refs` writes them
    /// ([`super::refs::RefsSink`]).
    pub refs: Option<&'a Path>,
}

/// A batch ready to run: the request for [`run`] and, with arXiv metadata, what its pass
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
    /// standard input named once; a references file that is none of the files read, no PDF
    /// and not standard output.
    ///
    /// # Errors
    /// [`ErrorKind::Request`], whose sentence says what to give.
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
        let dashes = i
            .manifest
            .into_iter()
            .chain(i.arxiv_metadata.iter().map(|p| p.as_path()));
        super::stdin_once(dashes.clone())?;
        match self.refs {
            Some(r) => super::refs::RefsSink::check_target(r, dashes),
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
        note: &mut dyn FnMut(&super::progress::Notice),
    ) -> Result<Prepared<'a>, Error> {
        self.validate()?;
        let plan = plan(&self.inputs, super::pass_threads(self.jobs), note)?;
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
            threads: super::worker_threads(self.jobs),
            refs: self.refs,
        };
        Ok(Prepared {
            run,
            arxiv: plan.arxiv,
        })
    }
}

/// The inputs read: the run's jobs, orphans and lines decided before it.
#[derive(Debug, Default)]
struct Plan {
    /// The PDFs to update, each with where its number comes from.
    pub jobs: Vec<Item>,
    /// PDFs a directory holds with no number source.
    pub orphans: Vec<PathBuf>,
    /// Lines arXiv matching decided (skips and misses).
    pub decided: Vec<ItemReport>,
    /// With arXiv metadata: what its pass found.
    pub arxiv: Option<ArxivPass>,
}

/// What the arXiv metadata pass of a batch found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArxivPass {
    /// How the PDFs were decided.
    pub matched: Matched,
    /// Lines or records read.
    pub read: u64,
    /// Entries no PDF needed.
    pub unmatched: u64,
    /// Unusable lines or records without an id.
    pub unattributed_bad: u64,
}

/// Reads `inputs` into the jobs of a run, keeping the shard's ([`BatchRequest::prepare`]);
/// the metadata pass runs on `threads`.
fn plan(
    inputs: &Inputs<'_>,
    threads: usize,
    note: &mut dyn FnMut(&super::progress::Notice),
) -> Result<Plan, Error> {
    let base = inputs.manifest.map(|m| match (inputs.root, m.parent()) {
        (Some(r), _) => r.to_owned(),
        (None, Some(p)) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    });
    let mut plan = Plan::default();
    let mut decided = Vec::new();
    let mut links = Vec::new();
    if inputs.arxiv_metadata.is_empty() {
        (plan.jobs, plan.orphans) = match (inputs.manifest, &base, inputs.dir) {
            (Some(m), Some(base), _) => {
                let text =
                    super::input::read_text(m).map_err(|e| Error::new(ErrorKind::Input(e)))?;
                let jobs = batch::read_manifest(m, &text, base)
                    .map_err(|e| Error::new(ErrorKind::Number(e)))?;
                (jobs, Vec::new())
            }
            (_, _, Some(d)) => {
                let (jobs, orphans, refused) =
                    batch::discover(d).map_err(|e| Error::new(ErrorKind::Number(e)))?;
                links = refused;
                (jobs, orphans)
            }
            _ => return Err(no_inputs()),
        };
    } else {
        let (jobs, lines, pass);
        (jobs, lines, pass, links) = arxiv_plan(inputs, base.as_deref(), threads, note)?;
        (plan.jobs, decided, plan.arxiv) = (jobs, lines, Some(pass));
    }
    // A `*.pdf` link the walk did not follow has its line, as every input does.
    let after = plan.jobs.len() + decided.len();
    decided.extend(links.into_iter().enumerate().map(|(k, (pdf, why))| {
        let line = ItemReport {
            status: Status::Refused,
            reason: Some(format!("{}: {why}", pdf.display())),
            ..ItemReport::new(&pdf)
        };
        (after + k, line)
    }));
    if let Some(s) = inputs.shard {
        plan.jobs.retain(|j| s.contains(j.index));
        decided.retain(|(i, _)| s.contains(*i));
    }
    plan.decided = decided.into_iter().map(|(_, o)| o).collect();
    Ok(plan)
}

/// Lines decided before a run, each with its input's position (for sharding).
type Decided = Vec<(usize, ItemReport)>;

/// `*.pdf` links a folder's walk did not follow, each with why.
type Links = Vec<(PathBuf, String)>;

fn no_inputs() -> Error {
    Error::new(ErrorKind::Request(
        "a batch needs a manifest or a directory of PDFs".into(),
    ))
}

/// The arXiv side of [`plan`]: which PDFs, their ids, the metadata pass, and a decision per
/// PDF.
fn arxiv_plan(
    inputs: &Inputs<'_>,
    base: Option<&Path>,
    threads: usize,
    note: &mut dyn FnMut(&super::progress::Notice),
) -> Result<(Vec<Item>, Decided, ArxivPass, Links), Error> {
    use crate::batch::arxiv as arxiv_match;
    use crate::record::arxiv::bulk::MetadataFile;
    let arxiv = |e| Error::new(ErrorKind::Arxiv(e));
    let (wanted, unnamed, links) = match (inputs.manifest, base, inputs.dir) {
        (Some(m), Some(base), _) => {
            let text = super::input::read_text(m).map_err(|e| Error::new(ErrorKind::Input(e)))?;
            (
                arxiv_match::read_manifest(m, &text, base).map_err(arxiv)?,
                Vec::new(),
                Vec::new(),
            )
        }
        (_, _, Some(d)) => arxiv_match::scan_dir(d).map_err(arxiv)?,
        _ => return Err(no_inputs()),
    };
    let ids: std::collections::HashSet<String> = wanted.iter().map(|w| w.id.clone()).collect();
    let metadata = MetadataFile::recognised(inputs.arxiv_metadata);
    let mut list = match inputs.unmatched {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| Error::new(ErrorKind::Io("cannot create".into(), e)).in_file(p),
        )?)),
        None => None,
    };
    let mut write_err = None;
    let mut on_unmatched = |id: &str| {
        use std::io::Write;
        if let Some(w) = &mut list {
            if let Err(e) = writeln!(w, "{id}") {
                write_err.get_or_insert(e);
            }
        }
    };
    let collected = arxiv_match::collect(&metadata, &ids, threads, &mut on_unmatched, note)
        .map_err(|e| Error::new(ErrorKind::Metadata(e)))?;
    let flushed = match list {
        Some(mut w) => std::io::Write::flush(&mut w),
        None => Ok(()),
    };
    if let (Some(e), Some(p)) = (
        write_err.map(Err).unwrap_or(flushed).err(),
        inputs.unmatched,
    ) {
        return Err(
            Error::new(ErrorKind::Io("cannot write the unmatched ids".into(), e)).in_file(p),
        );
    }
    let (jobs, decided, matched) = arxiv_jobs(wanted, unnamed, &collected, inputs.any_version);
    let pass = ArxivPass {
        matched,
        read: collected.read,
        unmatched: collected.unmatched,
        unattributed_bad: collected.unattributed_bad,
    };
    Ok((jobs, decided, pass, links))
}

/// One batch run.
pub struct RunRequest<'a> {
    /// The PDFs to update (or check), each with where its number comes from.
    pub jobs: Vec<Item>,
    /// PDFs a directory run found no number source for, under `root`: reported `unmatched`
    /// (with `mirror`, copied unchanged into the output folder).
    pub orphans: Vec<PathBuf>,
    /// The directory the orphans were found under.
    pub root: Option<&'a Path>,
    /// Lines decided before the run (arXiv matching's skips and misses).
    pub decided: Vec<ItemReport>,
    /// The output folder the input tree is mirrored into; `None` with no `out` is in place.
    pub out_dir: Option<&'a Path>,
    /// Work out every item and report it (`planned`); write nothing.
    pub dry_run: bool,
    /// With `out_dir`: copy files that are not updated unchanged (a complete mirror).
    pub mirror: bool,
    /// Change nothing: report whether each output carries its number.
    pub check: bool,
    /// How each file is updated.
    pub settings: &'a Settings,
    /// Worker threads.
    pub threads: usize,
    /// Where the references of every PDF read go (created, or emptied, when the run starts):
    /// each job's input is read for them before it is updated, in every mode.
    pub refs: Option<&'a Path>,
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// The summary line (the report's last line).
    pub summary: Summary,
    /// `check`: the files whose output carries another number or none.
    pub differ: Vec<PathBuf>,
}

/// How a run ended, for the front ends' exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Every file was done (or refused, unless strict).
    Ok,
    /// `check`: some outputs do not carry their number.
    Differs,
    /// Stopped before every file was started.
    Interrupted,
    /// Some files failed (or, strict, were refused).
    Failed,
}

impl RunReport {
    /// How the run ended; `strict` counts a refused file as a failure.
    pub fn end(&self, strict: bool) -> End {
        let s = &self.summary;
        if !self.differ.is_empty() {
            End::Differs
        } else if s.interrupted {
            End::Interrupted
        } else if s.failed > 0 || (strict && s.refused > 0) {
            End::Failed
        } else {
            End::Ok
        }
    }
}

/// Runs a batch: creates the output folder, reports the lines decided before the run and the
/// orphans, then every job through the worker pool, each line to `progress` as it completes.
/// When `progress` asks to stop, files in flight finish and the others are `skipped`.
///
/// With `refs`, each job's input is read for its references too, before it is updated (in
/// place, the file as it was), and their lines go to that file as each file is done; a file
/// whose references cannot be read gets a note in its line saying why.
///
/// # Errors
/// [`ErrorKind::Io`] when the output folder or the references file cannot be created, or the
/// references cannot be written. A file's own failure is its line, never an error of the run.
///
/// # Examples
/// A directory of PDFs with `NAME.pith` sidecars, as `pith batch --dir in --out-dir out`
/// runs it; the lines are gathered in a list (a [`Progress`] that never stops the run).
/// ```
/// use pith::job::{run, ItemReport, Settings, Status};
/// let dir = tempfile::tempdir()?;
/// let input = dir.path().join("in");
/// std::fs::create_dir(&input)?;
/// std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"), input.join("a.pdf"))?;
/// std::fs::write(input.join("a.pith"), "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n")?;
/// let out = dir.path().join("out");
/// let settings = Settings::default();
/// let batch = run::BatchRequest {
///     inputs: run::Inputs { dir: Some(&input), ..Default::default() },
///     out_dir: Some(&out),
///     in_place: false,
///     dry_run: false,
///     mirror: false,
///     check: false,
///     jobs: Some(2),
///     settings: &settings,
///     refs: None,
/// };
/// let prepared = batch.prepare(&mut |_| {})?;
/// let mut lines: Vec<ItemReport> = Vec::new();
/// let report = run::run(prepared.run, &mut lines)?;
/// assert_eq!(lines[0].status, Status::Injected);
/// assert_eq!((report.summary.injected, report.end(false)), (1, run::End::Ok));
/// assert!(out.join("a.pdf").is_file());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    req: RunRequest<'_>,
    progress: &mut dyn Progress<ItemReport>,
) -> Result<RunReport, Error> {
    if let Some(d) = req.out_dir.filter(|_| !req.dry_run && !req.check) {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::new(ErrorKind::Io("cannot create".into(), e)).in_file(d))?;
    }
    let refs = req.refs.map(super::refs::RefsSink::create).transpose()?;
    let mut before = Vec::new();
    for pdf in &req.orphans {
        let rel = pdf
            .strip_prefix(req.root.unwrap_or(Path::new(".")))
            .unwrap_or(pdf);
        let mirror = req.mirror && !req.dry_run;
        before.push(item::unmatched(pdf, rel, req.out_dir, mirror));
    }
    before.extend(req.decided.iter().cloned());
    let mut summary = Summary::new(req.jobs.len() + before.len());
    progress.start(summary.total);
    for o in &before {
        summary.add(o);
        progress.line(o);
    }
    let mut differ = Vec::new();
    // Each file gets its own token: its deadline is the per-file bound, and a stop asked by
    // `progress` cancels the files in flight, which end as `skipped` lines with nothing written.
    let stops = super::stop::Stops::new(req.settings.file_timeout, &req.settings.stop);
    let run = batch::run(
        &req.jobs,
        req.threads,
        |j, group| {
            let file = stops.file();
            let settings = req.settings.for_file(file.token());
            let ir = ItemRequest {
                job: j,
                out_dir: req.out_dir,
                dry_run: req.dry_run,
                mirror: req.mirror,
                settings: &settings,
            };
            let not_read = refs
                .as_ref()
                .and_then(|sink| match std::fs::File::open(&j.pdf) {
                    Ok(f) => sink.pdf(f, &j.pdf, &settings),
                    Err(e) => Some(format!("references not read: cannot open: {e}")),
                });
            let mut line = in_group(&ir, req.check, group);
            line.notes.extend(not_read);
            line
        },
        |o| {
            if let Some(o) = o {
                if matches!(o.status, Status::Differs | Status::Missing) {
                    differ.push(o.pdf.clone());
                }
                summary.add(o);
                progress.line(o);
            }
            let stop = progress.stopped() || stops.relay();
            if stop {
                stops.cancel();
            }
            stop
        },
    );
    summary.interrupted = run.interrupted;
    summary.ms = run.ms;
    if let Some(sink) = refs {
        sink.finish()?;
    }
    Ok(RunReport { summary, differ })
}

/// One item, its output staged in `group` (the pool commits it): checked with `check`,
/// else updated.
fn in_group(req: &ItemRequest<'_>, check: bool, group: &mut crate::output::Group) -> ItemReport {
    if check {
        item::check(req)
    } else {
        item::run(req, group)
    }
}

/// One item run alone, as a batch runs it (Python's `batch_item`): checked with `check`, else
/// updated and its output committed at once; a commit that fails is the line's failure, as
/// in a batch ([`crate::batch::Line::commit_failed`]).
pub fn item(req: &ItemRequest<'_>, check: bool) -> ItemReport {
    use crate::batch::Line;
    let mut group = crate::output::Group::new();
    let stops = super::stop::Stops::new(req.settings.file_timeout, &req.settings.stop);
    let file = stops.file();
    let settings = req.settings.for_file(file.token());
    let req = ItemRequest {
        settings: &settings,
        ..*req
    };
    let mut line = in_group(&req, check, &mut group);
    if let Some(Err(e)) = group.commit().into_iter().find(Result::is_err) {
        line.commit_failed(crate::pdf::chain(&e));
    }
    line
}

/// How many PDFs arXiv matching numbered, skipped and could not number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Matched {
    /// PDFs that get a number.
    pub matched: usize,
    /// Older versions left alone on purpose.
    pub skipped: usize,
    /// PDFs without an id in their name, an entry, or a usable one.
    pub failed: usize,
}

/// Turns arXiv matching's decisions into the run: a job for each PDF that gets a number, a
/// line (with its status) for each that does not; `unnamed` are PDFs whose name carries no
/// arXiv id. Lines keep their input position, for sharding.
fn arxiv_jobs(
    wanted: Vec<crate::batch::arxiv::Wanted>,
    unnamed: Vec<PathBuf>,
    collected: &crate::batch::arxiv::Collected,
    any_version: bool,
) -> (Vec<Item>, Vec<(usize, ItemReport)>, Matched) {
    use crate::batch::arxiv::{decide, Decision};
    let line = |pdf: &Path, status: Status, reason: String| ItemReport {
        status,
        reason: Some(reason),
        ..ItemReport::new(pdf)
    };
    let (mut jobs, mut decided, mut m) = (Vec::new(), Vec::new(), Matched::default());
    let all = wanted
        .into_iter()
        .map(Ok)
        .chain(unnamed.into_iter().map(Err));
    for (index, w) in all.enumerate() {
        let w = match w {
            Ok(w) => w,
            Err(pdf) => {
                m.failed += 1;
                let why = "the file name carries no arXiv id (2402.03791v3.pdf, hep-th9901001v1.pdf, hep-th/9901001v1.pdf)";
                decided.push((index, line(&pdf, Status::Unmatched, why.into())));
                continue;
            }
        };
        let (status, reason) = match decide(&w, collected, any_version) {
            Decision::Number(n, details) => {
                m.matched += 1;
                jobs.push(Item {
                    index,
                    pdf: w.pdf,
                    relative: w.relative,
                    source: crate::record::Input::Number(n.full()),
                    also: Vec::new(),
                    out: w.out,
                    details: Some(details),
                });
                continue;
            }
            Decision::Skip(r) => (Status::Skipped, r),
            Decision::Unmatched(r) => (Status::Unmatched, r),
            Decision::Fail(r) => (Status::Failed, r),
        };
        match status {
            Status::Skipped => m.skipped += 1,
            _ => m.failed += 1,
        }
        decided.push((index, line(&w.pdf, status, reason)));
    }
    (jobs, decided, m)
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
            assert_eq!(e.kind_of(), super::super::ErrorCode::Request, "{e}");
            // Refused before the inputs (which do not exist) are read.
            assert!(matches!(
                r.prepare(&mut |_| {}).err().map(|e| e.kind_of()),
                Some(super::super::ErrorCode::Request)
            ));
            sentences.insert(e.to_string());
        }
        assert_eq!(sentences.len(), 10, "{sentences:#?}");
    }

    #[test]
    fn a_run_reports_every_line_and_ends_by_its_summary() {
        let dir = tempfile::tempdir().unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal.pdf");
        let pdf = dir.path().join("a.pdf");
        std::fs::copy(&src, &pdf).unwrap();
        let job = |i: usize, n: &str| Item {
            index: i,
            pdf: pdf.clone(),
            relative: PathBuf::from(format!("{i}.pdf")),
            source: crate::record::Input::Number(n.into()),
            also: Vec::new(),
            out: None,
            details: None,
        };
        let out = dir.path().join("out");
        let settings = Settings::default();
        let mut lines = Vec::new();
        let r = run(
            RunRequest {
                jobs: vec![
                    job(0, "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"),
                    job(1, "nonsense"),
                ],
                orphans: Vec::new(),
                root: None,
                decided: Vec::new(),
                out_dir: Some(&out),
                dry_run: false,
                mirror: false,
                check: false,
                settings: &settings,
                threads: 2,
                refs: None,
            },
            &mut lines,
        )
        .unwrap();
        assert_eq!(lines.len(), 2);
        let status = |name: &str| {
            let o = lines
                .iter()
                .find(|o| o.out == Some(out.join(name)))
                .unwrap();
            o.status
        };
        assert_eq!(status("0.pdf"), Status::Injected);
        assert_eq!(status("1.pdf"), Status::Failed);
        assert_eq!((r.summary.injected, r.summary.failed), (1, 1));
        assert_eq!(r.end(false), End::Failed);
        assert!(out.join("0.pdf").is_file() && !out.join("1.pdf").exists());
    }
}
