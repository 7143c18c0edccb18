//! The batch item job: one PDF of a batch (a manifest line or a directory entry), with the
//! batch's policy: its output under the output folder and never outside it, never the input
//! itself, restartable (an output that already carries its number is done), the folders made
//! for a refused file removed again, and with `mirror` a file left alone copied unchanged.
//! [`bytes`] is the same item for a PDF held in memory (a tar member).

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::folders::Writing;
use super::{Destination, Error, ErrorCode, ErrorKind, InjectRun, Settings, Source, Status};
use crate::batch::Item;
use crate::output::Group;
use crate::PithNumber;

/// One line of a batch report (JSON Lines).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemReport {
    /// The input PDF.
    pub pdf: PathBuf,
    /// Where the result was written (the input itself when in place).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    /// What happened.
    pub status: Status,
    /// Why (for unchanged, refused, failed, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The kind of a refusal or failure, a stable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<ErrorCode>,
    /// The number written or found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// The different number the file carried before and no longer does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
    /// The input's SHA-1 in base32, as the Internet Archive writes digests, when the PDF was
    /// read: what a capture (a CDX line) of the version's PDF is checked against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha1: Option<String>,
    /// A check: the number the output carries, when it is not the expected one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// Whether the file was copied unchanged into the output tree (a complete mirror).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub copied: bool,
    /// Size of the input in bytes.
    pub bytes_before: u64,
    /// Size of the output in bytes (equal to `bytes_before` when nothing was written).
    pub bytes_after: u64,
    /// Wall time spent on this file.
    pub ms: u64,
    /// What was left as it is, and why (a stamp not added because page 1's badge already
    /// prints the number).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl ItemReport {
    /// A report for `pdf` before anything is done: failed, the sizes of the input.
    pub fn new(pdf: &Path) -> Self {
        let size = std::fs::metadata(pdf).map(|m| m.len()).unwrap_or(0);
        Self::of_size(pdf, size)
    }

    /// A report for `pdf`, `size` bytes, before anything is done: failed, that size before
    /// and after.
    pub fn of_size(pdf: &Path, size: u64) -> Self {
        ItemReport {
            pdf: pdf.to_owned(),
            out: None,
            status: Status::Failed,
            reason: None,
            refusal: None,
            number: None,
            replaced: None,
            sha1: None,
            found: None,
            copied: false,
            bytes_before: size,
            bytes_after: size,
            ms: 0,
            notes: Vec::new(),
        }
    }

    /// Records `e`: refused or failed, its message and kind.
    pub fn error(&mut self, e: &Error) {
        self.status = match e.kind_of() {
            // Cancelled by its run's interruption: not done, as the files not started.
            ErrorCode::Interrupted => Status::Skipped,
            _ if e.is_refusal() => Status::Refused,
            _ => Status::Failed,
        };
        self.reason = Some(one_line(&chain(e)));
        self.refusal = Some(e.kind_of());
    }
}

/// Totals of a run, printed as the report's final line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Always `"summary"`, so a reader can tell this line from file lines.
    pub summary: String,
    /// Files considered (after sharding).
    pub total: usize,
    /// Files updated.
    pub injected: usize,
    /// Files that already had the number.
    pub unchanged: usize,
    /// Files refused.
    pub refused: usize,
    /// Files that failed.
    pub failed: usize,
    /// Files not attempted because of an interruption.
    pub skipped: usize,
    /// PDFs without a number source (directory runs).
    pub unmatched: usize,
    /// Files a dry run would update.
    pub planned: usize,
    /// Files that carried a different number, now replaced.
    pub replaced: usize,
    /// `--check`: outputs that carry the number their input assigns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<usize>,
    /// `--check`: outputs that carry another number or disagree with themselves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differs: Option<usize>,
    /// `--check`: outputs that are missing or carry no number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<usize>,
    /// Whether the run was interrupted.
    pub interrupted: bool,
    /// Wall time of the run.
    pub ms: u64,
}

impl Summary {
    /// The totals of a run over `total` files, nothing counted yet.
    pub fn new(total: usize) -> Self {
        Summary {
            summary: "summary".into(),
            total,
            ..Summary::default()
        }
    }

    /// Counts one report line.
    pub fn add(&mut self, o: &ItemReport) {
        self.count(o.status, o.replaced.is_some());
    }

    /// Counts one line of `status`, which `replaced` a different number or not (a tar member's
    /// line is not an [`ItemReport`] but counts the same way).
    pub fn count(&mut self, status: Status, replaced: bool) {
        let count = |c: &mut Option<usize>| *c = Some(c.unwrap_or(0) + 1);
        match status {
            Status::Injected | Status::Rewritten | Status::Stripped => self.injected += 1,
            Status::Unchanged => self.unchanged += 1,
            Status::Refused => self.refused += 1,
            Status::Failed => self.failed += 1,
            Status::Skipped => self.skipped += 1,
            Status::Unmatched => self.unmatched += 1,
            Status::Planned => self.planned += 1,
            Status::Matches => count(&mut self.matches),
            Status::Differs => count(&mut self.differs),
            Status::Missing => count(&mut self.missing),
        }
        if replaced {
            self.replaced += 1;
        }
    }
}

impl crate::batch::Line for ItemReport {
    fn not_started(job: &Item) -> Self {
        ItemReport {
            status: Status::Skipped,
            reason: Some("interrupted before this file was started".into()),
            ..ItemReport::new(&job.pdf)
        }
    }

    fn commit_failed(&mut self, reason: String) {
        self.status = Status::Failed;
        self.reason = Some(one_line(&reason));
        self.refusal = Some(ErrorCode::Io);
        self.bytes_after = self.bytes_before;
    }

    fn set_ms(&mut self, ms: u64) {
        self.ms = ms;
    }
}

/// One item of a batch.
#[derive(Debug, Clone, Copy)]
pub struct ItemRequest<'a> {
    /// The PDF and where its number comes from.
    pub job: &'a Item,
    /// The output folder the input tree is mirrored into; `None` (and no `out` in the job)
    /// is in place.
    pub out_dir: Option<&'a Path>,
    /// Resolve and report ([`Status::Planned`]); write nothing.
    pub dry_run: bool,
    /// With `out_dir`: copy a file that is not updated unchanged (a complete mirror).
    pub mirror: bool,
    /// How each file is updated.
    pub settings: &'a Settings,
}

impl ItemRequest<'_> {
    /// Where this item's result goes; `None` is in place.
    pub fn output(&self) -> Option<PathBuf> {
        self.job
            .out
            .clone()
            .or_else(|| self.out_dir.map(|d| d.join(&self.job.relative)))
    }

    /// Whether the relative path would leave the output folder.
    fn leaves_out_dir(&self) -> bool {
        self.job.out.is_none() && self.out_dir.is_some() && leaves(&self.job.relative)
    }
}

fn leaves(relative: &Path) -> bool {
    relative
        .components()
        .any(|c| matches!(c, Component::ParentDir))
}

/// Runs one item: resolve the number, pick the output, inject (a new output is staged in
/// `group`, whose commit puts it in place); with `mirror`, a file that is not updated is
/// copied unchanged. Never fails: every outcome is a report line.
pub fn run(req: &ItemRequest<'_>, group: &mut Group) -> ItemReport {
    let mut o = inject(req, group);
    if req.mirror && matches!(o.status, Status::Refused | Status::Failed) {
        if let Some(dir) = req.out_dir {
            mirror_copy(&mut o, dir, &req.job.relative);
        }
    }
    o
}

/// The start every item shares, run or checked: its line names where the result goes (the
/// input itself in place) and, once resolved, the number; an item whose number cannot be
/// resolved, or whose output would leave its output folder, ends here: no number comes back.
fn start(req: &ItemRequest<'_>, size: Option<u64>) -> (ItemReport, Option<PithNumber>) {
    let job = req.job;
    let mut o = match size {
        Some(size) => ItemReport::of_size(&job.pdf, size),
        None => ItemReport::new(&job.pdf),
    };
    // Every line says where the result goes, and the number once it is known.
    o.out = Some(req.output().unwrap_or_else(|| job.pdf.clone()));
    let number = match req
        .settings
        .net_settings()
        .and_then(|net| super::input::item_number(job, &net))
    {
        Ok(n) => n,
        Err(e) => {
            o.error(&e);
            return (o, None);
        }
    };
    o.number = Some(number.full());
    // Mirroring into the output folder must stay inside it: a manifest line
    // `"pdf": "../x.pdf"` would otherwise write beside or over files outside it.
    if req.leaves_out_dir() {
        o.out = None;
        o.error(&Error::new(ErrorKind::LeavesOutDir).in_file(&job.pdf));
        return (o, None);
    }
    (o, Some(number))
}

/// A size not read yet (no file is that large): an update reads the input's size from the
/// file it opens, so the line looks it up by name only when the update did not.
const UNREAD: u64 = u64::MAX;

fn inject(req: &ItemRequest<'_>, group: &mut Group) -> ItemReport {
    let mut o = update_file(req, group);
    if o.bytes_before == UNREAD {
        o.bytes_before = std::fs::metadata(&req.job.pdf).map_or(0, |m| m.len());
    }
    if o.bytes_after == UNREAD {
        // Nothing was written: the size after is the size before.
        o.bytes_after = o.bytes_before;
    }
    o
}

/// The item's update, as [`inject`] words it; the line's sizes are [`UNREAD`] where no update
/// measured the input.
fn update_file(req: &ItemRequest<'_>, group: &mut Group) -> ItemReport {
    let job = req.job;
    let out_path = req.output();
    let (mut o, number) = start(req, Some(UNREAD));
    let Some(number) = number else { return o };
    let Some(p) = &out_path else {
        // A dry run plans the update (reading the PDF) and writes nothing.
        return apply(&mut o, req, &number, To::InPlace, None, group);
    };
    // Nothing at the output, not even a link (a new tree: the usual case): it is not the
    // input, carries no number and is no file to keep. One look answers all three.
    let empty =
        std::fs::symlink_metadata(p).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
    // The input is never modified except in place.
    if !empty && super::same_file(p, &job.pdf) {
        o.error(&Error::new(ErrorKind::SameFile).in_file(&job.pdf));
        return o;
    }
    // Restartable: an output that already carries this number is done. (An output with the
    // number but without the stamp asked for is not done: with a stamp, page 1 must print
    // the number too, as pith's stamp or badge.)
    let done = if empty {
        None
    } else {
        already_done(p, &number, req.settings)
    };
    if let Some(size) = done {
        o.status = Status::Unchanged;
        o.bytes_after = size;
        o.reason = Some(format!("{} already carries {}", p.display(), number.full()));
        return o;
    }
    if req.settings.no_clobber && !empty && super::kept(p) {
        o.error(&Error::new(ErrorKind::Exists).in_file(p));
        return o;
    }
    if req.dry_run {
        // What would be written is planned from the input, which must be there and readable.
        return apply(&mut o, req, &number, To::File(p), None, group);
    }
    if crate::output::is_stdio(p) {
        // "out": "-" is standard output, as for pith inject.
        return apply(&mut o, req, &number, To::Stdout, None, group);
    }
    let mut writing = None;
    // A folder that holds a file this worker staged is there until its commit.
    let parent = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !group.holds_files_in(d));
    if let Some(parent) = parent {
        match Writing::enter(parent) {
            Ok(w) => writing = Some(w),
            Err(e) => {
                o.error(
                    &Error::new(ErrorKind::Io("cannot create the folder".into(), e))
                        .in_file(parent),
                );
                return o;
            }
        }
    }
    group.looked_at(p, empty);
    apply(&mut o, req, &number, To::File(p), writing.as_ref(), group)
}

/// Where an item's update goes.
enum To<'p> {
    InPlace,
    Stdout,
    /// A new file, staged in the worker's group.
    File(&'p Path),
}

/// Injects into `to` (a [`Destination::File`] is staged in `group`) and records the result;
/// on error the folders `writing` made go again.
fn apply(
    o: &mut ItemReport,
    req: &ItemRequest<'_>,
    number: &PithNumber,
    to: To<'_>,
    writing: Option<&Writing>,
    group: &mut Group,
) -> ItemReport {
    let staged = group.len();
    let mut stdout = std::io::stdout();
    let details = req
        .settings
        .net_settings()
        .ok()
        .and_then(|net| super::input::item_details(req.job, &net));
    let run = |destination| {
        super::inject::run(InjectRun {
            source: Source::File(&req.job.pdf),
            destination,
            number,
            settings: req.settings,
            rewrite: false,
            dry_run: req.dry_run,
            paper: details.as_ref(),
        })
    };
    let r = match to {
        To::File(p) => run(Destination::Staged(p, group)),
        To::InPlace => run(Destination::InPlace),
        To::Stdout => run(Destination::Stream(&mut stdout)),
    };
    match r {
        Ok(done) => {
            if group.len() > staged {
                // The entries of the folders made for it must survive a crash too.
                for d in writing.map_or(&[][..], |w| &w.created[..]) {
                    if let Some(parent) = d.parent().filter(|p| !p.as_os_str().is_empty()) {
                        group.sync_dir(parent);
                    }
                }
            }
            o.status = done.report.status;
            o.sha1 = done.sha1.or_else(|| file_sha1(&req.job.pdf));
            o.bytes_before = done.report.bytes_before.unwrap_or(o.bytes_before);
            o.bytes_after = done.report.bytes_after.unwrap_or(o.bytes_before);
            o.replaced = done.report.replaced;
            o.notes = done.report.notes;
            if o.status == Status::Unchanged {
                o.reason = Some(format!("already carries {}", number.full()));
            }
        }
        Err(e) => {
            o.error(&e);
            // Nothing was written: the folders made for the output go again.
            if let Some(w) = writing {
                w.remove_made();
            }
        }
    }
    o.clone()
}

/// The base32 SHA-1 of a file, streamed (the PDF was just read, so it comes from the page
/// cache), for an update that did not read every byte (in place); `None` when it cannot be
/// read.
fn file_sha1(path: &Path) -> Option<String> {
    use sha1::Digest;
    let mut h = sha1::Sha1::new();
    let mut f = std::fs::File::open(path).ok()?;
    std::io::copy(&mut f, &mut h).ok()?;
    Some(data_encoding::BASE32.encode(&h.finalize()))
}

/// Checks one item without changing anything (`pith batch --check`): its output (the input
/// itself in place) must carry the number its input assigns, consistently. The line is
/// [`Status::Matches`], [`Status::Differs`] (with `found`), [`Status::Missing`] (no output, or
/// no number in it), or failed when the number cannot be resolved or the output not read.
pub fn check(req: &ItemRequest<'_>) -> ItemReport {
    let job = req.job;
    let out = req.output().unwrap_or_else(|| job.pdf.clone());
    let (mut o, number) = start(req, None);
    let Some(number) = number else { return o };
    if !out.exists() {
        o.status = Status::Missing;
        o.reason = Some(format!("{}: no such output", out.display()));
        return o;
    }
    // Read within the settings' limits and stop token, as an update would be.
    let r = read_output(&out, req.settings).map(|ins| {
        let expected = crate::NumberRef::Full(number.clone());
        super::inspect::report(out.display().to_string(), &ins, Some(&expected))
    });
    match r {
        Err(e) => o.error(&e),
        Ok(r) => {
            o.bytes_after = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
            (o.status, o.reason) = match (r.number, r.consistent, r.matches_expected) {
                (None, _, _) => (Status::Missing, Some("carries no Pith Number".into())),
                (Some(_), Some(true), Some(true)) => (Status::Matches, None),
                (Some(f), Some(true), _) => {
                    let why = format!("carries {f}, not {}", number.full());
                    o.found = Some(f);
                    (Status::Differs, Some(why))
                }
                (Some(f), _, _) => {
                    o.found = Some(f);
                    (
                        Status::Differs,
                        Some("the places that hold its number disagree".into()),
                    )
                }
            };
        }
    }
    o
}

/// The inspection of an output a check reads, within `settings`' limits and stop token; a
/// FIFO or device is refused without being opened (the open would block).
fn read_output(out: &Path, settings: &Settings) -> Result<crate::pdf::Inspection, Error> {
    let not_file =
        || Error::from(crate::pdf::Error::new(crate::pdf::ErrorKind::NotFile).in_file(out));
    if is_special(out) {
        return Err(not_file());
    }
    let file = std::fs::File::open(out)
        .map_err(|e| Error::new(ErrorKind::Io("cannot open".into(), e)).in_file(out))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(not_file());
    }
    crate::pdf::inspect_opts(&file, &settings.inspect_options(crate::pdf::Check::Sampled))
        .map_err(|e| Error::from(e.in_file(out)))
}

/// One item on bytes in memory: the number is given, nothing is read or written on disk.
/// Returns the update to append to `data` (empty when the PDF already carries the number, or
/// when it is refused) and the report line, named `name`. [`update`] on a slice.
///
/// # Examples
/// ```
/// use pith::job::{item, Settings, Status};
/// let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"))?;
/// let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
/// let (update, line) = item::bytes("a/paper.pdf".as_ref(), &pdf, &n, &Settings::default());
/// assert_eq!(line.status, Status::Injected);
/// assert_eq!(line.bytes_after, (pdf.len() + update.len()) as u64);
/// let (_, refused) = item::bytes("junk.pdf".as_ref(), b"junk", &n, &Settings::default());
/// assert_eq!(refused.status, Status::Refused);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bytes(
    name: &Path,
    data: &[u8],
    number: &PithNumber,
    settings: &Settings,
) -> (Vec<u8>, ItemReport) {
    let (update, o) = update(name, data, data.len() as u64, number, None, settings);
    (update.map(|(_, add)| add).unwrap_or_default(), o)
}

/// One item read through `src` (`size` bytes: a buffer, or a tar member spooled to a file),
/// the batch's rules applied as for a file on disk, with nothing written: returns the update
/// (the length of `src` to keep, and the bytes to append after it), `None` when the PDF
/// already carries the number or is refused, and the report line, named `name`. The paper's
/// fields in `paper` are written beside the number, as [`super::inject::run`] writes them.
pub fn update<R: crate::pdf::ReadAt>(
    name: &Path,
    src: R,
    size: u64,
    number: &PithNumber,
    paper: Option<&crate::record::Details>,
    settings: &Settings,
) -> (Option<(u64, Vec<u8>)>, ItemReport) {
    let mut o = ItemReport {
        number: Some(number.full()),
        ..ItemReport::of_size(name, size)
    };
    let t = std::time::Instant::now();
    let mut opts = settings.options();
    if let Some(d) = paper {
        opts.paper = super::inject::paper(d);
    }
    let update = match crate::pdf::inject(src, number, &opts) {
        Ok(inj) => {
            o.replaced = super::replaced(inj.previous.as_deref(), number);
            o.notes = inj.notes.clone();
            match inj.offsets {
                Some(off) if !inj.unchanged => {
                    o.status = Status::Injected;
                    o.bytes_after = off.base_len + inj.appended.len() as u64;
                    Some((off.base_len, inj.appended))
                }
                _ => {
                    o.status = Status::Unchanged;
                    o.reason = Some(format!("already carries {}", number.full()));
                    None
                }
            }
        }
        Err(e) => {
            o.error(&Error::from(e.in_file(name)));
            None
        }
    };
    o.ms = t.elapsed().as_millis() as u64;
    (update, o)
}

/// Copies `o.pdf` unchanged to its place under `out_dir` (a complete mirror), unless the
/// place is outside it or is the input itself.
fn mirror_copy(o: &mut ItemReport, dir: &Path, relative: &Path) {
    if leaves(relative) {
        return;
    }
    let dst = dir.join(relative);
    if super::same_file(&dst, &o.pdf) {
        return;
    }
    // Held until the copy is written, so that no refused item removes its folder meanwhile.
    let writing = dst
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Writing::enter)
        .transpose();
    let (writing, made) = match writing {
        Ok(w) => (w, Ok(())),
        Err(e) => (None, Err(e)),
    };
    // Copied file to file (the kernel's copy where it can), never held: a refused file may
    // be as large as any.
    let copied = made
        .and_then(|()| std::fs::File::open(&o.pdf))
        .map_err(|e| e.to_string())
        .and_then(|mut src| {
            crate::output::write_file_with(&dst, None, |f| std::io::copy(&mut src, f).map(|_| ()))
                .map_err(|e| chain(&e))
        });
    drop(writing);
    match copied {
        Ok(()) => {
            o.copied = true;
            o.out = Some(dst);
        }
        Err(e) => {
            let r = o.reason.take().unwrap_or_default();
            o.reason = Some(one_line(&format!("{r}; copying it unchanged failed: {e}")));
        }
    }
}

/// Reports a PDF a directory run found no number source for (`unmatched`), with `mirror`
/// copied unchanged to its place under `out_dir` (`relative` to the run's root).
pub fn unmatched(pdf: &Path, relative: &Path, out_dir: Option<&Path>, mirror: bool) -> ItemReport {
    let mut o = ItemReport::new(pdf);
    o.status = Status::Unmatched;
    o.reason = Some(format!(
        "{}: no NAME.pith, NAME.record.json or NAME.atom.xml beside it; left alone",
        pdf.display()
    ));
    if let (true, Some(dir)) = (mirror, out_dir) {
        mirror_copy(&mut o, dir, relative);
    }
    o
}

fn is_special(p: &Path) -> bool {
    crate::output::is_special(p)
}

/// The size of `out` when it exists and already carries `number` consistently; with a stamp
/// in `settings`, page 1 must also print it as pith's stamp or badge (what a stamp run adds).
/// It is read within `settings`' limits and stop token, as the update would be.
pub fn already_done(out: &Path, number: &PithNumber, settings: &Settings) -> Option<u64> {
    use crate::pdf::stamp::printed::Kind;
    // Nothing there (a new output, the usual case): nothing to open. A FIFO would block the
    // open; a device holds no PDF.
    let kind = std::fs::symlink_metadata(out).ok()?.file_type();
    if crate::output::is_special_type(kind) {
        return None;
    }
    let f = std::fs::File::open(out).ok()?;
    let found =
        crate::pdf::inspect_opts(&f, &settings.inspect_options(crate::pdf::Check::Sampled)).ok()?;
    let prints = || {
        found.printed.iter().any(|p| {
            matches!(p.kind, Kind::Stamp | Kind::Badge) && p.holds() && p.names(number.code())
        })
    };
    let printed = settings.stamp.is_some();
    (found.found()? == number.full() && found.consistent() && (!printed || prints()))
        .then(|| f.metadata().map(|m| m.len()).unwrap_or(0))
}

/// An error and its causes, `: `-separated, each cause once, OS errors in words.
pub(crate) use crate::pdf::chain;

use super::one_line;
