//! The job layer (qpdf's `QPDFJob` is the model): typed requests in, serialisable
//! reports out, and every policy the front ends used to write twice.
//!
//! A front end (the `pith` CLI, the Python module) turns its arguments into a request, runs
//! it here and prints or returns the report; it decides nothing. What lives here:
//! - the same-file refusal (an output that is the input itself), `--no-clobber`'s refusal, and the confinement of batch outputs to their output folder;
//! - the update time ([`now`]: `SOURCE_DATE_EPOCH`, else the clock);
//! - rewrite-then-stamp ([`inject::run`]), the stamp's size range ([`STAMP_SIZES`]);
//! - the restart check of a batch (an output that already carries its number is done), the
//!   mirror copy of files left alone ([`item`]);
//! - the replaced-number rule: a different number that was there before is reported in
//!   `replaced`, the same code completed with its year is not;
//! - how a long run reports its lines and is asked to stop ([`progress::Progress`]: the batch
//!   run, the tar runs), which inputs a batch runs and whether its request holds together
//!   ([`run::BatchRequest`]);
//! - the requests the doors fill from their arguments, each with its defaults and one check:
//!   a badge's look ([`badge::BadgeRequest`]), how a PDF is updated
//!   ([`update::UpdateRequest`]), the PDF one file's request reads, its standard input and
//!   deadline, and where its update goes ([`pdf_input::PdfInput`], shared by inject, strip and
//!   inspect), the LaTeX package ([`sty::StyRequest`]), OpenTimestamps proofs
//!   ([`ots::OtsRequest`]), a number given as text or as a record input
//!   ([`given::text_or_input`]);
//! - the thread counts when none is given ([`worker_threads`], [`pass_threads`]), the keys a
//!   receipt may be signed with ([`trusted_keys`]), and how an error becomes one line
//!   ([`one_line`]);
//! - the reports themselves ([`InjectReport`], [`InspectReport`], [`ItemReport`],
//!   [`StripReport`]): their keys are the CLI's `--json` keys and the Python dicts' keys,
//!   documented once in `docs/reports.md`.
//!
//! It prints nothing and composes no command-line text: errors say what is wrong with the
//! file or request, and the CLI adds how to get past them ("use --in-place").
//!
//! ```
//! use pith::job::{self, Settings};
//! let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"))?;
//! let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
//! let (out, report) = job::inject_bytes(&pdf, &n, &Settings::default())?;
//! assert_eq!(report.status, job::Status::Injected);
//! assert!(out.starts_with(&pdf));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::pdf;

pub mod badge;
pub mod capture;
pub mod cite;
pub mod defaults;
mod error;
mod folders;
pub mod given;
pub mod inject;
pub mod input;
pub mod inspect;
pub mod item;
pub mod kind;
pub mod number;
pub mod ots;
pub mod outputs;
pub mod pdf_input;
pub mod progress;
pub mod record;
pub mod refs;
pub mod run;
pub mod stop;
pub mod strip;
pub mod sty;
pub mod tar;
pub mod update;
pub mod usage;
pub mod verify;

pub use error::{Error, ErrorKind, Placement};
pub use inject::{inject_bytes, Destination, InjectReport, InjectRequest, InjectRun, Injected};
pub use input::RecordSource;
pub use inspect::{InspectReport, InspectRequest};
pub use item::{ItemReport, ItemRequest};
pub use kind::ErrorCode;
pub use number::{NumberReport, NumberRequest};
pub use pdf_input::{PdfInput, Source};
pub use strip::{StripReport, StripRequest};
pub use verify::{VerifyReport, VerifyRequest};

/// What a job did to one file: the `status` of every report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The number was written (an incremental update).
    Injected,
    /// The whole file was rewritten with the number (`--rewrite`).
    Rewritten,
    /// The file already carried this number; nothing was written.
    Unchanged,
    /// A dry run: the update was worked out; nothing was written.
    Planned,
    /// The number was taken out of the file (`pith strip`).
    Stripped,
    /// The file cannot be updated safely (encrypted, damaged, certified…); left untouched.
    Refused,
    /// An error (unreadable input, bad number, unwritable output); left untouched.
    Failed,
    /// Not attempted because the run was interrupted.
    Skipped,
    /// No number source for this PDF; left alone.
    Unmatched,
    /// A check: the output carries the number its input assigns.
    Matches,
    /// A check: the output carries another number, or disagrees with itself.
    Differs,
    /// A check: the output is missing or carries no number.
    Missing,
}

impl Status {
    /// The name used in reports (`"injected"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Injected => "injected",
            Status::Rewritten => "rewritten",
            Status::Unchanged => "unchanged",
            Status::Planned => "planned",
            Status::Stripped => "stripped",
            Status::Refused => "refused",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::Unmatched => "unmatched",
            Status::Matches => "matches",
            Status::Differs => "differs",
            Status::Missing => "missing",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The font sizes a stamp may have, in points.
pub const STAMP_SIZES: RangeInclusive<f64> = 2.0..=72.0;

/// The stamp's settings from their names, as both front ends take them: `form` `short` or
/// `full`, `position` `left`, `right`, `top` or `bottom`, `size` in [`STAMP_SIZES`].
///
/// # Errors
/// [`ErrorKind::Stamp`] naming the setting that is not allowed.
pub fn stamp(form: &str, position: &str, size: f64) -> Result<pdf::stamp::Stamp, Error> {
    let bad = |m: String| Error::new(ErrorKind::Stamp(m));
    stamp_of(
        form.parse().map_err(bad)?,
        position.parse().map_err(bad)?,
        size,
    )
}

/// The stamp's settings from the engine's own types (what clap parses `--stamp-form` and
/// `--stamp-position` into), the size checked against [`STAMP_SIZES`].
///
/// # Errors
/// [`ErrorKind::Stamp`] for a size that is not allowed.
pub fn stamp_of(
    form: pdf::stamp::Form,
    position: pdf::stamp::Position,
    size: f64,
) -> Result<pdf::stamp::Stamp, Error> {
    use pdf::stamp::Stamp;
    let bad = |m: String| Error::new(ErrorKind::Stamp(m));
    if !STAMP_SIZES.contains(&size) {
        return Err(bad(format!(
            "size {size} is not from {} to {} points",
            STAMP_SIZES.start(),
            STAMP_SIZES.end()
        )));
    }
    Ok(Stamp {
        form,
        position,
        size,
        grey: true,
    })
}

/// The QR code a badge asks for ([`crate::badge::Look::qr`]): none unless `qr`, then with `module_px`
/// pixels a module ([`defaults::QR_MODULE_PX`] unless given). The same rule at
/// every door: a module size without the QR code is refused, never taken as asking for it.
///
/// # Errors
/// [`crate::badge::ErrorKind::QrModuleWithoutQr`] for a module size without `qr`.
pub fn qr_of(qr: bool, module_px: Option<u32>) -> Result<Option<u32>, crate::badge::Error> {
    match (qr, module_px) {
        (false, Some(_)) => Err(crate::badge::Error::new(
            crate::badge::ErrorKind::QrModuleWithoutQr,
        )),
        (false, None) => Ok(None),
        (true, m) => Ok(Some(m.unwrap_or(defaults::QR_MODULE_PX))),
    }
}

/// How a PDF is updated: the settings shared by inject, batch items and strip. The default
/// bounds each file by [`stop::FILE_TIMEOUT`], whichever door the request comes through.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Update certified files that forbid changes, replace an unparsable XMP packet, stamp
    /// signed files.
    pub force: bool,
    /// Rebuild the cross-reference table of a file refused as damaged (append-only).
    pub repair: bool,
    /// The user or owner password of an encrypted file.
    pub password: Option<Vec<u8>>,
    /// Also put the visible stamp on page 1 ([`stamp`]).
    pub stamp: Option<pdf::stamp::Stamp>,
    /// Redraw a badge, stamp or record links on page 1 that show another number, instead of
    /// refusing the file.
    pub replace: bool,
    /// The update time (ISO 8601); [`now`] when `None`.
    pub now: Option<String>,
    /// Never replace an existing output file: refuse it.
    pub no_clobber: bool,
    /// How the resolver is asked for the year of a bare code (a batch sidecar's);
    /// [`crate::net::Settings::from_env`] when `None`.
    pub net: Option<crate::net::Settings>,
    /// The most reading one file may cost ([`pdf::Limits::default`]).
    pub limits: pdf::Limits,
    /// Stops the work on a file when cancelled or past its deadline: a run gives each of its
    /// files its own ([`stop::Stops`]); [`pdf::Stop::never`] by default.
    pub stop: pdf::Stop,
    /// How long one file may take ([`stop::FILE_TIMEOUT`] by default); `None` is no bound.
    pub file_timeout: Option<std::time::Duration>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            force: false,
            repair: false,
            password: None,
            stamp: None,
            replace: false,
            now: None,
            no_clobber: false,
            net: None,
            limits: pdf::Limits::default(),
            stop: pdf::Stop::never(),
            file_timeout: Some(stop::FILE_TIMEOUT),
        }
    }
}

impl Settings {
    /// How the resolver is asked: [`Settings::net`], else the environment's settings.
    ///
    /// # Errors
    /// [`ErrorKind::Net`] for an environment variable that cannot be used.
    pub fn net_settings(&self) -> Result<crate::net::Settings, Error> {
        match &self.net {
            Some(s) => Ok(s.clone()),
            None => crate::net::Settings::from_env()
                .map_err(|e| Error::new(ErrorKind::Net(Box::new(e)))),
        }
    }

    /// The PDF layer's options.
    pub fn options(&self) -> pdf::Options {
        let mut o = pdf::Options::new(&self.now.clone().unwrap_or_else(now));
        o.force = self.force;
        o.repair = self.repair;
        o.password = self.password.clone();
        o.stamp = self.stamp;
        o.replace = self.replace;
        o.limits = self.limits;
        o.stop = self.stop.clone();
        o
    }

    /// The PDF layer's options for reading a file (its password, limits and stop token).
    pub fn inspect_options(&self, check: pdf::Check) -> pdf::InspectOptions {
        pdf::InspectOptions {
            check,
            password: self.password.clone(),
            limits: self.limits,
            stop: self.stop.clone(),
        }
    }

    /// These settings for one file run alone (an inject, a strip, a read): a stop token
    /// whose deadline is [`Settings::file_timeout`] from now, unless a stop token is already
    /// set (a run's token for one of its files, or the caller's own); as they are without a
    /// bound.
    pub fn bounded(&self) -> Settings {
        match self.file_timeout {
            Some(b) if self.stop.is_never() => self.for_file(&pdf::Stop::after(b)),
            _ => self.clone(),
        }
    }

    /// These settings for one file of a run: its own stop token.
    pub fn for_file(&self, stop: &pdf::Stop) -> Settings {
        Settings {
            stop: stop.clone(),
            ..self.clone()
        }
    }
}

/// The update time: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now, as
/// `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now() -> String {
    let t = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .unwrap_or_else(chrono::Utc::now);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// The worker threads that update PDFs when the caller gives none (`jobs`): twice the cores,
/// since a worker also waits, for its group's syncs and for the file system, and the others
/// keep the cores busy meanwhile (741 small PDFs on 2 cores: 0.26-0.35 s with 2 workers,
/// 0.19-0.27 s with 4). Never fewer than one.
pub fn worker_threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| 2 * cores()).max(1)
}

/// The threads of a pass that computes and waits for nothing (reading arXiv metadata,
/// numbering it, building an index, a tar's members) when the caller gives none (`jobs`): the
/// cores. Never fewer than one.
pub fn pass_threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(cores).max(1)
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The keys a receipt signature is checked against: the built-in registry key, then the keys
/// the caller gives, each once.
pub fn trusted_keys(given: &[crate::verify::Key]) -> Vec<crate::verify::Key> {
    let mut keys = vec![crate::verify::Key::registry()];
    for k in given {
        if !keys.iter().any(|t| t.same_key(k)) {
            keys.push(k.clone());
        }
    }
    keys
}

/// The environment variable that pins keys for every run, beside `--key` (Python's `keys=`):
/// keys (base64 or hex) or files holding one, separated by commas or white space.
pub const ENV_KEYS: &str = "PITH_KEYS";

/// The keys a receipt may be signed with for this run: the registry's, the keys `given` and
/// those [`ENV_KEYS`] pins, each once. Nothing else is ever trusted: a key a manifest, a
/// mirror or a bundle names is not among them. Every front end's keys pass through here
/// (the jobs call it on the keys they are given), so `PITH_KEYS` counts at every door.
///
/// # Errors
/// As [`read_key`], for one of [`ENV_KEYS`] (named as such).
pub fn run_keys(given: &[crate::verify::Key]) -> Result<Vec<crate::verify::Key>, Error> {
    let mut keys = given.to_vec();
    let env = std::env::var(ENV_KEYS).unwrap_or_default();
    for k in env.split(|c: char| c == ',' || c.is_whitespace()) {
        if !k.is_empty() {
            // The message names where the key came from, as it names a file.
            let from = format!("{ENV_KEYS} ({k})");
            keys.push(read_key(k).map_err(|e| e.in_file(Path::new(&from)))?);
        }
    }
    Ok(trusted_keys(&keys))
}

/// The keys a front end was given (`--key`, Python's `keys=`), each read by [`read_key`]:
/// what a request's `keys` holds. The registry's and [`ENV_KEYS`]' are added by the job
/// ([`run_keys`]).
///
/// # Errors
/// As [`read_key`].
pub fn given_keys(given: &[String]) -> Result<Vec<crate::verify::Key>, Error> {
    given.iter().map(|k| read_key(k)).collect()
}

/// The keys a receipt may be signed with for this run, from the keys a front end was given:
/// [`given_keys`], then [`run_keys`].
///
/// # Errors
/// As [`read_key`], for a given key or one of [`ENV_KEYS`] (named as such).
pub fn pinned_keys(given: &[String]) -> Result<Vec<crate::verify::Key>, Error> {
    run_keys(&given_keys(given)?)
}

/// A public key a front end was given: the key itself (base64 or hex), or a file holding it.
///
/// # Errors
/// [`ErrorKind::Input`] when the file cannot be read; [`ErrorKind::Verify`] when the text is
/// no key.
pub fn read_key(given: &str) -> Result<crate::verify::Key, Error> {
    let path = Path::new(given);
    let text = if path.is_file() {
        input::read_text(path).map_err(|e| Error::new(ErrorKind::Input(e)))?
    } else {
        given.to_owned()
    };
    crate::verify::Key::parse(&text).map_err(|e| Error::new(ErrorKind::Verify(e)))
}

/// The longest error line, in characters. A hostile input can put megabytes into a message
/// (serde quotes the offending JSON string, roxmltree the offending name); the line stays
/// readable and bounded.
pub const MAX_LINE_CHARS: usize = 2000;

/// `text` as one line, for an error or a report's reason: newlines and runs of spaces become
/// one space, and the line is cut after [`MAX_LINE_CHARS`] characters, saying how many bytes
/// were left out.
pub fn one_line(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => format!("{}… ({} more bytes)", &line[..cut], line.len() - cut),
        None => line,
    }
}

/// Refuses a list of inputs that names standard input (`-`) more than once: it can be read
/// only once.
///
/// # Errors
/// [`ErrorKind::Request`].
pub fn stdin_once<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<(), Error> {
    if paths
        .into_iter()
        .filter(|p| crate::output::is_stdio(p))
        .count()
        > 1
    {
        return Err(Error::new(ErrorKind::Request(
            "standard input (-) can be read only once".into(),
        )));
    }
    Ok(())
}

/// Reads a shard as given (`K/N`, 0-based: `0/4` … `3/4`), for every door and command that
/// runs a slice of its inputs (`pith batch --shard`, `pith batch --tar-dir --shard`, Python's
/// `batch(shard=…)`); none is every input.
///
/// # Errors
/// [`ErrorKind::Number`] (kind `shard`) unless `0 <= K < N`.
pub fn shard(text: Option<&str>) -> Result<Option<crate::batch::Shard>, Error> {
    text.map(crate::batch::Shard::parse)
        .transpose()
        .map_err(|e| Error::new(ErrorKind::Number(e)))
}

/// Whether two paths name the same existing file (same device and inode). `b` is looked at
/// only when `a` exists: pass the path more likely missing (a new output) as `a`, and a
/// batch asks the file system once instead of twice for each new file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(x) = std::fs::metadata(a) else {
        return false;
    };
    std::fs::metadata(b).is_ok_and(|y| x.dev() == y.dev() && x.ino() == y.ino())
}

/// The number that was replaced: `previous` when it names another code than `number`. The
/// same code completed with its year (a file `pith.sty` wrote from a bare code) is not a
/// replacement.
pub fn replaced(previous: Option<&str>, number: &crate::PithNumber) -> Option<String> {
    let p = previous?.trim();
    if p.is_empty() {
        return None;
    }
    let same = match crate::NumberRef::parse(p) {
        Ok(crate::NumberRef::Full(q)) => q.code() == number.code(),
        Ok(crate::NumberRef::Alias(a)) => number.code().starts_with(a.prefix()),
        Err(_) => false,
    };
    (!same).then(|| p.to_owned())
}

/// The file an output named `out` is: `out` itself, or, when `out` is a folder (one that
/// exists, or any name written with a final `/`), the file `name` inside it, as `cp` and
/// `mv` do (`name` is the input's file name, or the command's own name for what it writes).
/// Folders an output needs are made when it is written ([`crate::output`]): `-o new/x.pdf`
/// and `-o new/` both work in a fresh directory, as `--out-dir` and `--out-tar` do.
///
/// # Errors
/// [`ErrorKind::Request`] when `out` is a folder and there is no `name` (standard input).
///
/// # Examples
/// ```
/// use std::path::Path;
/// let dir = tempfile::tempdir()?;
/// let into = pith::job::output_file(dir.path(), Some("paper.pdf".as_ref()))?;
/// assert_eq!(into, dir.path().join("paper.pdf"));
/// let new = pith::job::output_file(Path::new("out/"), Some("paper.pdf".as_ref()))?;
/// assert_eq!(new, Path::new("out/paper.pdf"));
/// assert_eq!(pith::job::output_file(Path::new("a.pdf"), None)?, Path::new("a.pdf"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn output_file(out: &Path, name: Option<&std::ffi::OsStr>) -> Result<PathBuf, Error> {
    let folder = !crate::output::is_stdio(out)
        && (out.as_os_str().as_encoded_bytes().ends_with(b"/") || out.is_dir());
    if !folder {
        return Ok(out.to_path_buf());
    }
    let name = name.ok_or_else(|| {
        Error::new(ErrorKind::Request(format!(
            "{} is a folder: name the file to write in it (standard input has no name)",
            out.display()
        )))
    })?;
    Ok(out.join(name))
}

/// Checks an output path before anything is written: not the input itself (`input`, when it
/// is a file), and not an existing file under `no_clobber`. (A folder that does not exist is
/// found when the output is written, after the input was read: the input's own refusal comes
/// first; [`crate::output`] names the folder.)
///
/// # Errors
/// [`ErrorKind::SameFile`], [`ErrorKind::Exists`].
pub fn check_output(input: Option<&Path>, out: &Path, no_clobber: bool) -> Result<(), Error> {
    if crate::output::is_stdio(out) {
        return Ok(());
    }
    if input.is_some_and(|i| same_file(out, i)) {
        return Err(Error::new(ErrorKind::SameFile).in_file(input.unwrap_or(out)));
    }
    if no_clobber && kept(out) {
        return Err(Error::new(ErrorKind::Exists).in_file(out));
    }
    Ok(())
}

/// Whether `--no-clobber`'s rule keeps `out` from being replaced: it exists and is a file to
/// keep (a device such as `/dev/null` is not, nor `-`, standard output).
pub fn kept(out: &Path) -> bool {
    !crate::output::is_stdio(out)
        && std::fs::symlink_metadata(out).is_ok()
        && !crate::output::is_special(out)
}

/// The code of any library error in the one table ([`kind`]): the first error of the chain (`e`, then its sources) the
/// library knows; [`ErrorCode::Invalid`] when none is.
pub fn code_of(e: &(dyn std::error::Error + 'static)) -> ErrorCode {
    let mut cur = Some(e);
    while let Some(c) = cur {
        if let Some(k) = known(c) {
            return k;
        }
        cur = c.source();
    }
    ErrorCode::Invalid
}

fn known(e: &(dyn std::error::Error + 'static)) -> Option<ErrorCode> {
    if let Some(j) = e.downcast_ref::<Error>() {
        return Some(j.kind_of());
    }
    if let Some(x) = e.downcast_ref::<crate::pdf::Error>() {
        return Some(kind::of_pdf(x));
    }
    if let Some(x) = e.downcast_ref::<crate::number::Error>() {
        return Some(kind::of_number(x));
    }
    if let Some(x) = e.downcast_ref::<crate::record::Error>() {
        return Some(kind::of_record(x));
    }
    if let Some(x) = e.downcast_ref::<crate::net::Error>() {
        return Some(kind::of_net(x));
    }
    if let Some(x) = e.downcast_ref::<crate::verify::Error>() {
        return Some(kind::of_verify(x));
    }
    if let Some(x) = e.downcast_ref::<crate::batch::Error>() {
        return Some(kind::of_batch(x));
    }
    if let Some(x) = e.downcast_ref::<tar::Error>() {
        return Some(x.code());
    }
    if let Some(x) = e.downcast_ref::<crate::badge::Error>() {
        return Some(kind::of_badge(x));
    }
    if let Some(x) = e.downcast_ref::<crate::sty::Error>() {
        return Some(kind::of_sty(x));
    }
    if let Some(x) = e.downcast_ref::<capture::CaptureError>() {
        return Some(x.code());
    }
    if e.downcast_ref::<std::io::Error>().is_some() {
        return Some(ErrorCode::Io);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_alone_gets_the_deadline_a_run_keeps_its_own() {
        let s = Settings::default();
        assert_eq!(s.file_timeout, Some(stop::FILE_TIMEOUT));
        assert!(s.bounded().stop.deadline().is_some());
        // A run's token for one of its files stays: its deadline and its cancellation.
        let run = pdf::Stop::new();
        let file = s.for_file(&run).bounded();
        run.cancel();
        assert!(file.stop.is_stopped() && file.stop.deadline().is_none());
        let unbounded = Settings {
            file_timeout: None,
            ..Settings::default()
        };
        assert!(unbounded.bounded().stop.is_never());
    }

    #[test]
    fn replaced_ignores_the_same_code() {
        let n = crate::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        assert_eq!(replaced(Some("7BMK4ZKTPUTUY3JKWBANNPOFR5"), &n), None);
        assert_eq!(
            replaced(Some("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"), &n),
            None
        );
        assert_eq!(replaced(None, &n), None);
        let other = "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA";
        assert_eq!(replaced(Some(other), &n).as_deref(), Some(other));
        assert_eq!(replaced(Some("garbage"), &n).as_deref(), Some("garbage"));
    }

    #[test]
    fn lines_are_bounded() {
        let long = format!("a\nb {}", "é".repeat(5000));
        let l = one_line(&long);
        let (head, tail) = l.split_once('…').unwrap();
        assert!(head.starts_with("a b éé"), "{l}");
        assert_eq!(head.chars().count(), MAX_LINE_CHARS);
        assert_eq!(tail, " (6008 more bytes)");
        assert_eq!(one_line("x\n y"), "x y");
    }

    #[test]
    fn thread_defaults_are_at_least_one() {
        assert_eq!(worker_threads(Some(0)), 1);
        assert_eq!(pass_threads(Some(0)), 1);
        assert_eq!(pass_threads(Some(3)), 3);
        assert_eq!(worker_threads(None), 2 * pass_threads(None));
    }

    #[test]
    fn stdin_is_read_once() {
        let p = |s: &'static str| Path::new(s);
        assert!(stdin_once([p("-"), p("a")]).is_ok());
        let e = stdin_once([p("-"), p("a"), p("-")]).unwrap_err();
        assert_eq!(e.kind_of(), ErrorCode::Request);
    }

    #[test]
    fn stamp_settings_are_checked() {
        assert!(stamp("short", "left", 9.0).is_ok());
        for (f, p, s) in [
            ("tiny", "left", 9.0),
            ("short", "middle", 9.0),
            ("full", "top", 1.0),
        ] {
            assert!(matches!(
                stamp(f, p, s).unwrap_err().kind(),
                ErrorKind::Stamp(_)
            ));
        }
    }
}
