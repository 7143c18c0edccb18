//! The strip job (`pith strip`): take a Pith Number, its link and its stamp out of
//! a PDF as an append-only update ([`crate::pdf::strip()`]), to a new file, in place
//! (crash-safe, [`crate::pdf::commit`]), to a stream or to memory.
//!
//! A door fills a [`StripRequest`] (data: what the user asked, each option left out taking
//! the library's default) and runs it ([`StripRequest::run`]); [`StripRun`] is the run it
//! becomes, with its source and destination resolved.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::pdf_input::PdfInput;
use super::update::UpdateRequest;
use super::{check_output, Destination, Error, ErrorKind, Settings, Source, Status};
use crate::pdf::{self, commit};

/// `pith strip` and Python's `strip` as data: the PDF, where the result goes and how. Every
/// door builds this from its arguments and nothing else; what is left out is the library's
/// default, and [`StripRequest::validate`] refuses what does not hold together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StripRequest {
    /// The PDF (a file, `-` for standard input; none when its bytes are given to
    /// [`StripRequest::run`], whose result is then returned), its password and deadline.
    #[serde(flatten)]
    pub pdf: PdfInput,
    /// Where the result goes: a file, a folder (the input's name inside it) or `-` for
    /// standard output; standard input's goes to a file or to standard output, never in
    /// place ([`PdfInput::destination`]).
    pub output: Option<PathBuf>,
    /// Update the input file itself, crash-safe.
    pub in_place: bool,
    /// Update certified files that forbid changes.
    pub force: bool,
    /// Rebuild the cross-reference table of a file refused as damaged (append-only).
    pub repair: bool,
    /// Refuse to replace an output file that exists.
    pub no_clobber: bool,
}

impl StripRequest {
    /// Refuses a request that does not hold together, once for every door: where the result
    /// goes ([`PdfInput::destination`]: neither an output nor in place for a file, or both;
    /// standard input in place or without an output; an output or in place for bytes, whose
    /// result is returned).
    ///
    /// # Errors
    /// [`ErrorKind::Request`] naming the input; [`ErrorKind::NotInPlace`] for standard input
    /// or bytes in place; what [`UpdateRequest::settings`] refuses.
    ///
    /// # Examples
    /// ```
    /// use pith::job::{StripRequest, pdf_input::PdfInput};
    /// let pdf = PdfInput { input: Some("paper.pdf".into()), ..Default::default() };
    /// let r = StripRequest { pdf, ..Default::default() };
    /// assert!(r.validate().is_err(), "where the result goes is not said");
    /// let r = StripRequest { in_place: true, ..r };
    /// assert!(r.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        self.settings()?;
        self.destination().map(|_| ())
    }

    /// The settings of the run: force, repair, the PDF's password and deadline
    /// ([`PdfInput::settings`]), no clobber.
    ///
    /// # Errors
    /// As [`UpdateRequest::settings`].
    pub fn settings(&self) -> Result<Settings, Error> {
        let read = self.pdf.settings();
        let settings = UpdateRequest {
            force: self.force,
            repair: self.repair,
            ..UpdateRequest::default()
        }
        .settings()?;
        Ok(Settings {
            no_clobber: self.no_clobber,
            password: read.password,
            file_timeout: read.file_timeout,
            ..settings
        })
    }

    /// Where the result goes ([`PdfInput::destination`]): `Some` file (`-` for standard
    /// output), or `None` for in place (a file) or memory (bytes).
    ///
    /// # Errors
    /// As [`PdfInput::destination`].
    pub fn destination(&self) -> Result<Option<PathBuf>, Error> {
        self.pdf
            .destination(self.output.as_deref(), self.in_place, false)
    }

    /// Whether the PDF goes to standard output (then a report goes to standard error).
    pub fn writes_stdout(&self) -> bool {
        self.output.as_deref().is_some_and(crate::output::is_stdio)
    }

    /// Checks the request and runs it: the file [`PdfInput::input`] names, standard input's
    /// bytes for `-`, or `bytes` (then the result is returned too).
    ///
    /// # Errors
    /// What [`StripRequest::validate`] refuses; [`ErrorKind::Request`] when neither a file
    /// nor bytes are given, or both; [`ErrorKind::Io`] when standard input cannot be read;
    /// as [`run`].
    pub fn run(&self, bytes: Option<&[u8]>) -> Result<(StripReport, Option<Vec<u8>>), Error> {
        let settings = self.settings()?;
        let out = self.destination()?;
        let mut stdin = Vec::new();
        let source = self.pdf.source(bytes, &mut stdin, "strip")?;
        let destination = match (&source, &out) {
            (_, Some(o)) => Destination::File(o),
            (Source::File(_), None) => Destination::InPlace,
            (Source::Bytes { .. }, None) => Destination::Memory,
        };
        run(StripRun {
            source,
            destination,
            settings: &settings,
        })
    }
}

/// One strip, its source and destination resolved ([`StripRequest::run`] makes it).
pub struct StripRun<'a> {
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
/// use pith::job::strip::{self, StripRun};
/// use pith::job::{self, Destination, Settings, Source, Status};
/// let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"))?;
/// let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
/// let (numbered, _) = job::inject_bytes(&pdf, &n, &Settings::default())?;
/// let source = Source::Bytes { data: &numbered, name: "paper.pdf" };
/// let settings = Settings::default();
/// let (report, out) = strip::run(StripRun { source, destination: Destination::Memory, settings: &settings })?;
/// assert_eq!((report.status, report.removed), (Status::Stripped, Some(n.full())));
/// assert!(out.unwrap().starts_with(&numbered));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`super::inject::run`].
pub fn run(req: StripRun<'_>) -> Result<(StripReport, Option<Vec<u8>>), Error> {
    let StripRun {
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
