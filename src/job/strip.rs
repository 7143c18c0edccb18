//! The strip job (`pith strip`): take a Pith Number, its link and its stamp out of
//! a PDF as an append-only update ([`crate::pdf::strip()`]), to a new file, in place
//! (crash-safe, [`crate::pdf::commit`]), to a stream or to memory.

use serde::{Deserialize, Serialize};

use super::{check_output, Destination, Error, ErrorKind, Settings, Source, Status};
use crate::pdf::{self, commit};

/// One strip.
pub struct StripRequest<'a> {
    /// The PDF.
    pub source: Source<'a>,
    /// Where the result goes ([`Destination::Staged`] is written as a plain new file).
    pub destination: Destination<'a>,
    /// How (force, repair, password; the stamp and time are not used).
    pub settings: &'a Settings,
}

/// The report of a strip: `pith strip --json` and Python's `strip()` dict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StripReport {
    /// The input.
    pub input: String,
    /// Where the result went.
    pub output: String,
    /// `stripped`, or `unchanged` when the file carried nothing of pith's.
    pub status: Status,
    /// The number that was taken out.
    pub removed: Option<String>,
    /// Size of the input in bytes.
    pub bytes_before: Option<u64>,
    /// Size of the result in bytes.
    pub bytes_after: Option<u64>,
    /// What was written.
    pub written: Vec<pdf::Written>,
    /// What was left as it is, and why (number text on page 1 that pith did not draw).
    pub notes: Vec<String>,
}

/// Runs a strip; with [`Destination::Memory`] the whole result is returned too.
///
/// # Examples
/// ```
/// use pith::job::{self, strip, Destination, Settings, Source, Status, StripRequest};
/// let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"))?;
/// let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
/// let (numbered, _) = job::inject_bytes(&pdf, &n, &Settings::default())?;
/// let source = Source::Bytes { data: &numbered, name: "paper.pdf" };
/// let settings = Settings::default();
/// let (report, out) = strip::run(StripRequest { source, destination: Destination::Memory, settings: &settings })?;
/// assert_eq!((report.status, report.removed), (Status::Stripped, Some(n.full())));
/// assert!(out.unwrap().starts_with(&numbered));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`super::inject::run`].
pub fn run(req: StripRequest<'_>) -> Result<(StripReport, Option<Vec<u8>>), Error> {
    let StripRequest {
        source,
        mut destination,
        settings,
    } = req;
    // As an inject: the file deadline, unless a run gave the file its own token.
    let bounded = settings.bounded();
    let settings = &bounded;
    let input_path = match source {
        Source::File(p) => Some(p),
        Source::Bytes { .. } => None,
    };
    if let Destination::File(o) | Destination::Staged(o, _) = &destination {
        check_output(input_path, o, settings.no_clobber)?;
    }
    let opts = settings.options();
    let name = match source {
        Source::File(p) => p.display().to_string(),
        Source::Bytes { name, .. } => name.to_owned(),
    };
    let output = match &destination {
        Destination::File(p) | Destination::Staged(p, _) => p.display().to_string(),
        Destination::InPlace => name.clone(),
        Destination::Stream(_) => "-".into(),
        Destination::Memory => "<memory>".into(),
    };
    let mut report = StripReport {
        input: name,
        output,
        status: Status::Stripped,
        removed: None,
        bytes_before: None,
        bytes_after: None,
        written: Vec::new(),
        notes: Vec::new(),
    };
    match source {
        Source::File(input) => {
            report.bytes_before = std::fs::metadata(input).ok().map(|m| m.len());
            let mut memory = Vec::new();
            let mut stdout = std::io::stdout();
            let target = match &mut destination {
                Destination::File(o) if crate::output::is_stdio(o) => {
                    commit::Target::Stream(&mut stdout)
                }
                Destination::File(o) | Destination::Staged(o, _) => commit::Target::File(o),
                Destination::InPlace => commit::Target::InPlace,
                Destination::Stream(w) => commit::Target::Stream(*w),
                Destination::Memory => commit::Target::Stream(&mut memory),
            };
            let r = commit::strip_file(input, target, &opts)?;
            report.status = match r.applied {
                commit::Applied::Injected => Status::Stripped,
                commit::Applied::Unchanged => Status::Unchanged,
            };
            report.bytes_after = Some(r.bytes_after);
            report.removed = r.previous;
            report.notes = r.notes;
            report.written = if report.status == Status::Unchanged {
                Vec::new()
            } else {
                r.written
            };
            let bytes = matches!(destination, Destination::Memory).then_some(memory);
            Ok((report, bytes))
        }
        Source::Bytes { data, .. } => {
            report.bytes_before = Some(data.len() as u64);
            let s = pdf::strip(data, &opts)?;
            report.status = if s.unchanged {
                Status::Unchanged
            } else {
                Status::Stripped
            };
            report.removed = s.previous;
            report.written = s.written;
            report.notes = s.notes;
            let mut out = data.to_vec();
            out.extend_from_slice(&s.appended);
            report.bytes_after = Some(out.len() as u64);
            // Every byte goes through the engine's commit, as for a file's update.
            let mut stdout = std::io::stdout();
            let target = match destination {
                Destination::Memory => return Ok((report, Some(out))),
                Destination::InPlace => return Err(Error::new(ErrorKind::NotInPlace)),
                Destination::Stream(w) => commit::Target::Stream(w),
                Destination::File(o) | Destination::Staged(o, _) if crate::output::is_stdio(o) => {
                    commit::Target::Stream(&mut stdout)
                }
                Destination::File(o) => commit::Target::File(o),
                Destination::Staged(o, group) => commit::Target::Staged(o, group),
            };
            commit::write_bytes(&out, target, None)?;
            Ok((report, None))
        }
    }
}
