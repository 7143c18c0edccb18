//! The runs of arXiv bulk tars, for `pith batch --tar/--tar-dir` and Python's
//! `process_tar`: which tars, the arXiv metadata pass, the manifest checks, where outputs go,
//! what is already done.
//!
//! - [`run_one`]: one tar, from a file or a stream, to a file or a stream. With a manifest the
//!   tar must be listed (unless `any_tar`) and its md5 and size must match its entry: a file
//!   output is written to a temporary file beside it and renamed into place only then
//!   ([`crate::output::write_file_with`]); a stream has been written already, and the run
//!   fails ([`ErrorKind::Mismatch`]).
//! - [`run_dir`]: the manifest's tars found in a directory that fall to a shard, each to the
//!   same name in an output directory with its report beside it (`NAME.jsonl`); tars already
//!   done are skipped ([`manifest::done`]); the output manifest
//!   (`arXiv_pdf_manifest.xml`, the outputs' md5 and size) is rewritten at the end.
//!
//! The metadata is read once per run, keeping only the entries the tars need: the ids in
//! their member names when the tars are files (their headers are read first, the data
//! skipped), else the ids of the tar's month (`YYMM` from its manifest entry or its name
//! `arXiv_pdf_YYMM_NNN.tar`), else every id.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{self as tar, Error, ErrorKind, MemberReport, Totals};
use crate::batch::arxiv::{self as arxiv_match, Collected};
use crate::batch::manifest::{self, Manifest, TarEntry};
use crate::batch::Shard;
use crate::job::progress::{Notice, Progress};
use crate::record::arxiv::bulk::MetadataFile;

/// What a run is asked to do.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// arXiv bulk metadata: snapshot JSON Lines or OAI-PMH pages, compressed or not.
    pub metadata: &'a [PathBuf],
    /// Number PDFs that are not the latest version too (with the latest version's number).
    pub any_version: bool,
    /// The manifest to check the tars against: its path (for messages) and content.
    pub manifest: Option<(&'a Path, &'a Manifest)>,
    /// Process a tar the manifest does not list.
    pub any_tar: bool,
    /// The tar stream's options (`name` is set per tar); its `threads` also read the
    /// metadata.
    pub tar: tar::StreamSettings,
}

/// Where a tar comes from.
pub enum TarInput<'a> {
    /// A file.
    Path(&'a Path),
    /// A stream (standard input, a Python file object) and, when known, the tar's file name
    /// (to find its manifest entry).
    Reader(Box<dyn Read + Send + 'a>, Option<&'a str>),
}

/// Where the updated tar goes.
pub enum TarOutput<'a> {
    /// A new file, renamed into place once whole and checked.
    Path(&'a Path),
    /// A stream (a Python file object).
    Writer(&'a mut dyn Write),
    /// Standard output: when it is a regular file (`> out.tar`), written as a file is (its
    /// writeback started as it grows, members copied by the kernel), else as a stream.
    Stdout,
}

/// Which metadata entries a run keeps.
enum Wanted {
    Ids(HashSet<String>),
    Months(HashSet<String>),
    All,
}

impl Wanted {
    fn add(&mut self, other: Wanted) {
        match (self, other) {
            (Wanted::Ids(a), Wanted::Ids(b)) => a.extend(b),
            (Wanted::Months(a), Wanted::Months(b)) => a.extend(b),
            (s, _) => *s = Wanted::All,
        }
    }

    fn accepts(&self, id: &str) -> bool {
        match self {
            Wanted::Ids(s) => s.contains(id),
            Wanted::Months(m) => arxiv_match::yymm_of(id).is_some_and(|y| m.contains(y)),
            Wanted::All => true,
        }
    }
}

/// The month of a bulk tar's name `arXiv_pdf_YYMM_NNN.tar`.
fn month_of_name(name: &str) -> Option<String> {
    let rest = name.rsplit('/').next()?.strip_prefix("arXiv_pdf_")?;
    let m = rest.get(..4)?;
    (m.bytes().all(|b| b.is_ascii_digit()) && rest.as_bytes().get(4) == Some(&b'_'))
        .then(|| m.to_owned())
}

/// The ids the tar at `path` needs (from its member names).
fn wanted_in_file(path: &Path, name: &str) -> Result<Wanted, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::new(name, ErrorKind::Read(e)))?;
    let names = tar::member_names(&f, name)?;
    Ok(Wanted::Ids(
        names
            .iter()
            .filter_map(|n| arxiv_match::id_from_path(Path::new(n)).map(|(id, _)| id))
            .collect(),
    ))
}

/// The metadata entries `wanted` keeps; notices and unusable lines go to `on_note`.
fn collect(
    req: &Request,
    shown: &str,
    wanted: &Wanted,
    on_note: &mut dyn FnMut(&Notice),
) -> Result<Collected, Error> {
    if req.metadata.is_empty() {
        return Ok(Collected::default());
    }
    let inputs = MetadataFile::recognised(req.metadata);
    arxiv_match::collect_where(
        &inputs,
        &|id| wanted.accepts(id),
        req.tar.threads.max(1),
        &mut |_| {},
        on_note,
    )
    .map_err(|e| Error::new(shown, ErrorKind::Metadata(e)))
}

/// The entry of the tar `file_name` in the request's manifest; an unlisted tar is refused
/// unless `any_tar`.
fn entry_of<'m>(
    req: &Request<'m>,
    file_name: &str,
    shown: &str,
) -> Result<Option<&'m TarEntry>, Error> {
    let Some((path, m)) = req.manifest else {
        return Ok(None);
    };
    match m.find(file_name) {
        Some(e) => Ok(Some(e)),
        None if req.any_tar => Ok(None),
        None => Err(Error::new(
            shown,
            ErrorKind::Unlisted {
                manifest: path.to_owned(),
            },
        )),
    }
}

/// Streams one tar from `src` to `sink`, as the module docs say: the manifest entry is looked
/// up, the metadata read for the tar's ids, every member planned by
/// [`tar::plan_arxiv`] and reported to `progress` in order, with the metadata pass's notices;
/// when `progress` asks to stop, the run fails ([`ErrorKind::Interrupted`]) and a file output
/// is not written.
///
/// # Errors
/// [`ErrorKind::Unlisted`] and [`ErrorKind::Mismatch`] for the manifest checks (a file
/// output is then not written), [`ErrorKind::SameFile`] when the output is the input,
/// [`ErrorKind::Metadata`] for the metadata, [`ErrorKind::Commit`] for the output file, and
/// the errors of [`tar::stream`].
pub fn run_one(
    req: &Request,
    src: TarInput,
    sink: TarOutput,
    progress: &mut dyn Progress<MemberReport>,
) -> Result<Totals, Error> {
    let (shown, file_name) = match &src {
        TarInput::Path(p) => (
            p.display().to_string(),
            p.file_name().map(|n| n.to_string_lossy().into_owned()),
        ),
        TarInput::Reader(_, n) => (
            n.map_or_else(|| "standard input".to_owned(), str::to_owned),
            n.map(str::to_owned),
        ),
    };
    let entry = match &file_name {
        Some(n) => entry_of(req, n, &shown)?,
        None => None,
    };
    let wanted = match (&src, entry) {
        (TarInput::Path(p), _) => wanted_in_file(p, &shown)?,
        (_, Some(e)) if e.get("yymm").is_some() => {
            Wanted::Months(e.get("yymm").into_iter().map(str::to_owned).collect())
        }
        _ => match file_name.as_deref().and_then(month_of_name) {
            Some(m) => Wanted::Months([m].into()),
            None => Wanted::All,
        },
    };
    let collected = collect(req, &shown, &wanted, &mut |n| progress.note(n))?;
    // A stream without a name is found in the manifest by its content at the end.
    let by_content = file_name.is_none() && req.manifest.is_some() && !req.any_tar;
    stream_checked(
        req, &collected, src, sink, &shown, entry, by_content, progress,
    )
}

/// [`tar::stream`] with the manifest checks and the output file's commit.
#[allow(clippy::too_many_arguments)]
fn stream_checked(
    req: &Request,
    collected: &Collected,
    src: TarInput,
    sink: TarOutput,
    shown: &str,
    entry: Option<&TarEntry>,
    by_content: bool,
    progress: &mut dyn Progress<MemberReport>,
) -> Result<Totals, Error> {
    let err = |kind| Error::new(shown, kind);
    let plan = |name: &str| tar::plan_arxiv(name, collected, req.any_version);
    let mut opts = req.tar.clone();
    opts.name = shown.to_owned();
    // The manifest checks need the md5s; the output's goes into the report for the next stage.
    opts.md5 |= req.manifest.is_some();
    let check = |t: &Totals| -> Result<(), Error> {
        if let Some(e) = entry {
            if t.md5_in.as_deref() != Some(e.md5().as_str()) || e.size() != t.size_in {
                return Err(err(ErrorKind::Mismatch {
                    md5: t.md5_in.clone().unwrap_or_default(),
                    size: t.size_in,
                    want_md5: e.md5(),
                    want_size: e.size(),
                }));
            }
        }
        if let (true, Some((path, m))) = (by_content, req.manifest) {
            if m.find_content(t.md5_in.as_deref().unwrap_or_default(), t.size_in)
                .is_none()
            {
                return Err(err(ErrorKind::Unlisted {
                    manifest: path.to_owned(),
                }));
            }
        }
        Ok(())
    };
    if let (TarInput::Path(i), TarOutput::Path(o)) = (&src, &sink) {
        if crate::job::same_file(i, o) {
            return Err(err(ErrorKind::SameFile));
        }
    }
    // A tar named by its path is read where it lies (its members are not read through).
    let input = match src {
        TarInput::Path(p) => {
            Opened::File(std::fs::File::open(p).map_err(|e| err(ErrorKind::Read(e)))?)
        }
        TarInput::Reader(r, _) => Opened::Reader(r),
    };
    match sink {
        TarOutput::Stdout => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            let _ = lock.flush();
            match stdout_file() {
                Some(mut f) => {
                    let to = crate::output::Writeback::from_here(&mut f)
                        .map_err(|e| err(ErrorKind::Write(e)))?;
                    stream_checked_to(input, to, &plan, &opts, progress, &check)
                }
                None => stream_checked_to(input, &mut lock, &plan, &opts, progress, &check),
            }
        }
        TarOutput::Writer(w) => stream_checked_to(input, w, &plan, &opts, progress, &check),
        TarOutput::Path(out) => {
            // The writer makes the folders the tar needs (`out/my.tar` in a fresh directory).
            let mut result = None;
            let committed = crate::output::write_file_with(out, None, |f| {
                // Its writeback runs while the rest is read and updated: the sync before the
                // rename then waits for the last stretch only.
                let to = crate::output::Writeback::new(f);
                let r = stream_checked_to(input, to, &plan, &opts, progress, &check);
                let ok = r.is_ok();
                result = Some(r);
                if ok {
                    Ok(())
                } else {
                    // Not written: the temporary file goes, the target stays as it was.
                    Err(std::io::Error::other("the tar was not written"))
                }
            });
            match (result, committed) {
                (Some(Err(e)), _) => Err(e),
                (_, Err(e)) => Err(err(ErrorKind::Commit(e))),
                (Some(Ok(t)), Ok(())) => Ok(t),
                (None, Ok(())) => Err(err(ErrorKind::Write(std::io::Error::other(
                    "the output was not written",
                )))),
            }
        }
    }
}

/// A tar opened for a run: a file (read where it lies when it is a regular one), or a stream.
enum Opened<'a> {
    File(std::fs::File),
    Reader(Box<dyn Read + Send + 'a>),
}

/// [`tar::stream_file`] or [`tar::stream`] to `w`, then the manifest checks.
fn stream_checked_to<W: tar::RangeWrite>(
    input: Opened<'_>,
    w: W,
    plan: &(dyn Fn(&str) -> tar::Planned + Sync),
    opts: &tar::StreamSettings,
    progress: &mut dyn Progress<MemberReport>,
    check: &dyn Fn(&Totals) -> Result<(), Error>,
) -> Result<Totals, Error> {
    let t = match input {
        Opened::File(f) => tar::stream_file(f, w, plan, opts, progress)?,
        Opened::Reader(r) => tar::stream(r, w, plan, opts, progress)?,
    };
    check(&t)?;
    Ok(t)
}

/// Standard output as a file of its own (a duplicate of its descriptor), when it is a regular
/// file.
fn stdout_file() -> Option<std::fs::File> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let f = std::fs::File::from(fd);
    f.metadata().ok()?.is_file().then_some(f)
}

/// What happened to one tar of a [`run_dir`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TarStatus {
    /// Processed now.
    Done,
    /// Already done by an earlier run (output and report present and consistent).
    Skipped,
    /// Not processed: the reason says why; no output.
    Failed,
}

/// One line of a [`run_dir`] report: a tar.
#[derive(Debug, Clone, Serialize)]
pub struct TarLine {
    /// The tar's file name.
    pub tar: String,
    /// What happened.
    pub status: TarStatus,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// md5 of the output (hex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub md5: Option<String>,
    /// Size of the output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The tar's totals, when processed now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub totals: Option<Totals>,
}

/// The counts of a [`run_dir`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct DirSummary {
    /// Always `"tars"`.
    pub summary: &'static str,
    /// Tars of the shard.
    pub total: usize,
    /// Processed now.
    pub done: usize,
    /// Already done.
    pub skipped: usize,
    /// Failed.
    pub failed: usize,
    /// Members with an error of their own (status "failed" in a tar's report).
    pub failed_members: usize,
    /// Whether the run was stopped before every tar was done (the others were not started).
    pub interrupted: bool,
}

/// The name of the output manifest in an output directory.
pub const OUTPUT_MANIFEST: &str = "arXiv_pdf_manifest.xml";

/// Processes the tars of `req.manifest` found in `tar_dir` that fall to `shard`
/// ([`manifest::shard_key`]), as the module docs say, each to `out_dir/NAME` with its report
/// `out_dir/NAME.jsonl`; `progress` receives a line per tar in manifest order (and the
/// metadata pass's notices); when it asks to stop, the tar in flight fails as interrupted
/// and no further tar starts ([`DirSummary::interrupted`]). Finally writes
/// `out_dir/arXiv_pdf_manifest.xml` listing every tar done in `out_dir` (by any shard) with
/// its output's md5 and size.
///
/// # Errors
/// When the output directory or the output manifest cannot be written, the output directory
/// is the tar directory, or the metadata cannot be read; a tar that fails is a
/// [`TarStatus::Failed`] line, not an error.
pub fn run_dir(
    req: &Request,
    tar_dir: &Path,
    out_dir: &Path,
    shard: Option<Shard>,
    progress: &mut dyn Progress<TarLine>,
) -> Result<DirSummary, Error> {
    let Some((_, m)) = req.manifest else {
        return Err(Error::new(
            tar_dir.display().to_string(),
            ErrorKind::NoManifest,
        ));
    };
    let shown = out_dir.display().to_string();
    std::fs::create_dir_all(out_dir).map_err(|e| Error::new(&*shown, ErrorKind::Write(e)))?;
    if crate::job::same_file(tar_dir, out_dir) {
        return Err(Error::new(shown, ErrorKind::SameFile));
    }
    let mut summary = DirSummary {
        summary: "tars",
        ..DirSummary::default()
    };
    let mut lines: Vec<Option<TarLine>> = Vec::new();
    let mut pending = Vec::new();
    let mut wanted = Wanted::Ids(HashSet::new());
    let ours: Vec<&TarEntry> = m
        .entries
        .iter()
        .filter(|e| shard.is_none_or(|s| s.contains(manifest::shard_key(e.name()))))
        .collect();
    for (i, e) in ours.iter().enumerate() {
        summary.total += 1;
        if let Some(d) = manifest::done(out_dir, e) {
            lines.push(Some(TarLine {
                tar: e.name().to_owned(),
                status: TarStatus::Skipped,
                reason: None,
                md5: Some(d.md5),
                size: Some(d.size),
                totals: None,
            }));
            continue;
        }
        let path = tar_dir.join(e.name());
        match wanted_in_file(&path, &path.display().to_string()) {
            Ok(w) => {
                wanted.add(w);
                pending.push(i);
                lines.push(None);
            }
            Err(err) => lines.push(Some(failed(e, &err))),
        }
    }
    let collected = if pending.is_empty() {
        Collected::default()
    } else {
        collect(req, &tar_dir.display().to_string(), &wanted, &mut |n| {
            progress.note(n)
        })?
    };
    progress.start(summary.total);
    for (i, e) in ours.iter().enumerate() {
        if progress.stopped() {
            summary.interrupted = true;
            break;
        }
        if let Some(line) = lines[i].take() {
            emit(&mut summary, &line, progress);
            continue;
        }
        let input = tar_dir.join(e.name());
        let output = out_dir.join(e.name());
        let mut members = Members {
            lines: Vec::new(),
            outer: &mut *progress,
        };
        let r = stream_checked(
            req,
            &collected,
            TarInput::Path(&input),
            TarOutput::Path(&output),
            &input.display().to_string(),
            Some(e),
            false,
            &mut members,
        )
        .and_then(|t| {
            write_report(
                &manifest::report_path(out_dir, e.name()),
                &members.lines,
                &t,
            )?;
            Ok(t)
        });
        let stopped = matches!(&r, Err(e) if matches!(e.kind(), ErrorKind::Interrupted));
        let line = match r {
            Ok(t) => TarLine {
                tar: e.name().to_owned(),
                status: TarStatus::Done,
                reason: None,
                md5: t.md5.clone(),
                size: Some(t.size),
                totals: Some(t),
            },
            Err(err) => failed(e, &err),
        };
        emit(&mut summary, &line, progress);
        if stopped {
            summary.interrupted = true;
            break;
        }
    }
    write_output_manifest(m, out_dir)?;
    Ok(summary)
}

/// The member lines of one tar of a [`run_dir`], gathered for its report; the run's own
/// progress is asked whether to stop.
struct Members<'p> {
    lines: Vec<MemberReport>,
    outer: &'p mut dyn Progress<TarLine>,
}

impl Progress<MemberReport> for Members<'_> {
    fn line(&mut self, line: &MemberReport) {
        self.lines.push(line.clone());
    }

    fn note(&mut self, note: &Notice) {
        self.outer.note(note);
    }

    fn stopped(&mut self) -> bool {
        self.outer.stopped()
    }
}

fn failed(e: &TarEntry, err: &Error) -> TarLine {
    let reason = crate::pdf::chain(err);
    TarLine {
        tar: e.name().to_owned(),
        status: TarStatus::Failed,
        reason: Some(reason),
        md5: None,
        size: None,
        totals: None,
    }
}

fn emit(summary: &mut DirSummary, line: &TarLine, progress: &mut dyn Progress<TarLine>) {
    match line.status {
        TarStatus::Done => summary.done += 1,
        TarStatus::Skipped => summary.skipped += 1,
        TarStatus::Failed => summary.failed += 1,
    }
    if let Some(t) = &line.totals {
        summary.failed_members += t.summary.failed;
    }
    progress.line(line);
}

/// Writes the report of one tar to `path` (`-` is standard output; a file is written whole,
/// its missing folders made): its member lines, then its totals (what [`manifest::done`]
/// reads back from `NAME.jsonl` in an output directory).
///
/// # Errors
/// [`ErrorKind::Commit`] when it cannot be written ([`ErrorKind::Write`] on standard output).
pub fn write_report(path: &Path, members: &[MemberReport], t: &Totals) -> Result<(), Error> {
    let mut text = Vec::new();
    for m in members {
        // Serialising these plain structs cannot fail.
        let _ = serde_json::to_writer(&mut text, m);
        text.push(b'\n');
    }
    let _ = serde_json::to_writer(&mut text, t);
    text.push(b'\n');
    if crate::output::is_stdio(path) {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(&text)
            .and_then(|()| out.flush())
            .map_err(|e| Error::new("standard output", ErrorKind::Write(e)));
    }
    crate::output::write_file_with(path, None, |f| f.write_all(&text))
        .map_err(|e| Error::new(path.display().to_string(), ErrorKind::Commit(e)))
}

/// Writes `out_dir/arXiv_pdf_manifest.xml`: the entries of `m` whose tar is done in `out_dir`
/// ([`manifest::done`]), with the outputs' md5 and size, the other fields kept. Returns its
/// path.
///
/// # Errors
/// [`ErrorKind::Commit`] when it cannot be written.
pub fn write_output_manifest(m: &Manifest, out_dir: &Path) -> Result<PathBuf, Error> {
    let xml = m.outputs(out_dir).to_xml();
    let path = out_dir.join(OUTPUT_MANIFEST);
    crate::output::write_file_with(&path, None, |f| f.write_all(xml.as_bytes()))
        .map_err(|e| Error::new(path.display().to_string(), ErrorKind::Commit(e)))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_of_names() {
        assert_eq!(
            month_of_name("pdf/arXiv_pdf_2402_001.tar").as_deref(),
            Some("2402")
        );
        assert_eq!(month_of_name("arXiv_pdf_24_001.tar"), None);
        assert_eq!(month_of_name("x.tar"), None);
        let w = Wanted::Months(["0001".to_owned()].into());
        assert!(w.accepts("hep-th/0001001") && !w.accepts("2402.03791"));
    }
}
