//! The inject job: write a number into one PDF, from a file or from bytes in memory, to a new
//! file, in place, to a stream or to memory; an incremental update, or a whole rewrite.
//!
//! A door fills an [`InjectRequest`] (data: what the user asked, each option left out taking
//! the library's default), checks it ([`InjectRequest::validate`]) and runs it with the number
//! it resolved ([`InjectRequest::run`]); [`InjectRun`] is the run it becomes, with its source
//! and destination resolved (a batch builds one of its own for each file).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::pdf_input::{PdfInput, Source};
use super::update::UpdateRequest;
use super::{check_output, replaced, Error, ErrorKind, Settings, Status};
use crate::pdf::{self, commit};
use crate::record::Details;
use crate::PithNumber;

/// What the PDF layer writes for a paper: its arXiv DOI and versioned id as qualified
/// `xmp:Identifier` items (and `dc:identifier`, `prism:doi`), its title and authors where the
/// file has none.
pub fn paper(d: &Details) -> pdf::xmp::PaperFacts {
    pdf::xmp::PaperFacts {
        doi: Some(d.doi()),
        arxiv: Some(d.versioned_id()),
        title: Some(d.title.clone()).filter(|t| !t.is_empty()),
        creators: d.authors.clone(),
    }
}

/// Where the updated PDF goes.
pub enum Destination<'a> {
    /// A new file, through a temporary file and a rename (never the input itself).
    File(&'a Path),
    /// The input file itself: the update is appended, crash-safe ([`commit`]).
    InPlace,
    /// A stream (standard output).
    Stream(&'a mut dyn Write),
    /// Memory: the whole updated PDF is returned in [`Injected::bytes`].
    Memory,
    /// A new file staged in a group of a batch, committed by the group. Its caller (the batch
    /// item, [`super::item`]) has checked it as it chose it: never the input, nor a file
    /// `no_clobber` keeps.
    Staged(&'a Path, &'a mut crate::output::Group),
}

impl Destination<'_> {
    fn name(&self, source: &Source) -> String {
        match self {
            Destination::File(p) | Destination::Staged(p, _) => p.display().to_string(),
            Destination::InPlace => source.name(),
            Destination::Stream(_) => "-".into(),
            Destination::Memory => "<memory>".into(),
        }
    }
}

/// `pith inject` and Python's `inject` and `inject_bytes` as data: the PDF, where the result
/// goes and how. Every door builds this from its arguments and nothing else; what is left out
/// is the library's default, and [`InjectRequest::validate`] refuses what does not hold
/// together. The number is resolved by the door's input ([`super::input`]) and given to
/// [`InjectRequest::run`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InjectRequest {
    /// The PDF (a file, `-` for standard input; none when its bytes are given to
    /// [`InjectRequest::run`], whose result is then returned), its password and deadline.
    #[serde(flatten)]
    pub pdf: PdfInput,
    /// Where the result goes: a file, a folder (the input's name inside it; its missing
    /// folders are made) or `-` for standard output.
    pub output: Option<PathBuf>,
    /// Update the input file itself, crash-safe.
    pub in_place: bool,
    /// A whole rewrite instead of an incremental update (a stamp then goes on top as an
    /// incremental update).
    pub rewrite: bool,
    /// Work out the update and report it ([`Status::Planned`]); write nothing (the output
    /// may be left out).
    pub dry_run: bool,
    /// How the PDF is updated: force, repair, the stamp, replace, the time. (Its password and
    /// deadline are the PDF's, [`InjectRequest::pdf`]: given here too, they are refused.)
    pub update: UpdateRequest,
    /// Refuse to replace an output file that exists.
    pub no_clobber: bool,
}

impl InjectRequest {
    /// Refuses a request that does not hold together, once for every door: where the result
    /// goes ([`InjectRequest::destination`]), the update's settings
    /// ([`UpdateRequest::settings`]), and a rewrite with a dry run or a repair.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] for where the result goes, for a rewrite with a dry run or a
    /// repair and for a deadline or password given with the update instead of the PDF;
    /// [`ErrorKind::NotInPlace`] for standard input in place; [`ErrorKind::Stamp`] for the
    /// stamp's settings.
    ///
    /// # Examples
    /// ```
    /// use pith::job::{InjectRequest, pdf_input::PdfInput};
    /// let pdf = PdfInput { input: Some("paper.pdf".into()), ..Default::default() };
    /// let r = InjectRequest { pdf, in_place: true, ..Default::default() };
    /// assert!(r.validate().is_ok());
    /// let r = InjectRequest { rewrite: true, dry_run: true, ..r };
    /// assert!(r.validate().is_err(), "a dry run writes nothing");
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        self.destination()?;
        self.settings()?;
        if self.update.file_timeout.is_some() || self.update.password.is_some() {
            return Err(Error::new(ErrorKind::Request(
                "the deadline and the password go with the PDF, once: not with the update".into(),
            )));
        }
        if self.rewrite && self.dry_run {
            return Err(Error::new(ErrorKind::Request(
                "a rewrite and a dry run contradict each other: a dry run writes nothing".into(),
            )));
        }
        if self.rewrite && self.update.repair {
            return Err(Error::new(ErrorKind::Request(
                "a repair and a rewrite contradict each other: a repair keeps the original bytes, a rewrite replaces them (and repairs the table itself)".into(),
            )));
        }
        Ok(())
    }

    /// The settings of the run: the update's ([`UpdateRequest::settings`]), the PDF's
    /// password and deadline ([`PdfInput::settings`]) and no clobber.
    ///
    /// # Errors
    /// As [`UpdateRequest::settings`].
    pub fn settings(&self) -> Result<Settings, Error> {
        let read = self.pdf.settings();
        Ok(Settings {
            no_clobber: self.no_clobber,
            password: read.password,
            file_timeout: read.file_timeout,
            ..self.update.settings()?
        })
    }

    /// Where the result goes ([`PdfInput::destination`]): `Some` file (`-` for standard
    /// output), or `None` for in place (a file), memory (bytes) or nothing (a dry run).
    ///
    /// # Errors
    /// As [`PdfInput::destination`].
    pub fn destination(&self) -> Result<Option<PathBuf>, Error> {
        self.pdf
            .destination(self.output.as_deref(), self.in_place, self.dry_run)
    }

    /// Whether the PDF goes to standard output (then a report goes to standard error).
    pub fn writes_stdout(&self) -> bool {
        self.output.as_deref().is_some_and(crate::output::is_stdio)
    }

    /// Checks the request and writes `number` (with the fields of `paper`, when the input
    /// named the paper) into the file [`PdfInput::input`] names, standard input's bytes
    /// for `-`, or `bytes` (then the whole result is returned in [`Injected::bytes`]).
    ///
    /// # Errors
    /// What [`InjectRequest::validate`] refuses; [`ErrorKind::Request`] when neither a file
    /// nor bytes are given, or both; [`ErrorKind::Io`] when standard input cannot be read; as
    /// [`run`].
    pub fn run(
        &self,
        number: &PithNumber,
        paper: Option<&Details>,
        bytes: Option<&[u8]>,
    ) -> Result<Injected, Error> {
        self.validate()?;
        let settings = self.settings()?;
        let out = self.destination()?;
        let mut stdin = Vec::new();
        let source = self.pdf.source(bytes, &mut stdin, "inject")?;
        let mut stdout = std::io::stdout();
        let destination = match &out {
            Some(o) if crate::output::is_stdio(o) => Destination::Stream(&mut stdout),
            Some(o) => Destination::File(o),
            // Bytes (given, or standard input's) are updated in memory.
            None if matches!(source, Source::Bytes { .. }) => Destination::Memory,
            None => Destination::InPlace,
        };
        run(InjectRun {
            source,
            destination,
            number,
            settings: &settings,
            rewrite: self.rewrite,
            dry_run: self.dry_run,
            paper,
        })
    }
}

/// One inject, its source and destination resolved ([`InjectRequest::run`] makes it).
pub struct InjectRun<'a> {
    /// The PDF.
    pub source: Source<'a>,
    /// Where the result goes.
    pub destination: Destination<'a>,
    /// The number to write.
    pub number: &'a PithNumber,
    /// How.
    pub settings: &'a Settings,
    /// A whole rewrite instead of an incremental update (a stamp then goes on top as an
    /// incremental update).
    pub rewrite: bool,
    /// Work out the update and report it ([`Status::Planned`]); write nothing.
    pub dry_run: bool,
    /// The paper, when the input named it (an arXiv id, Atom, bulk metadata, a record): its
    /// DOI and arXiv id are written beside the number, its title and authors where the file
    /// has none ([`paper`]).
    pub paper: Option<&'a Details>,
}

/// The report of an inject: `pith inject --json` and Python's `inject()` dict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InjectReport {
    /// The input (a path, `-` for standard input, or the name given to bytes).
    pub input: String,
    /// Where the result went (the input itself in place, `-` for standard output).
    pub output: String,
    /// What was done: injected, rewritten, unchanged or planned.
    pub status: Status,
    /// The number written, `pith:YYYY:<26>`.
    pub number: String,
    /// Its record URL.
    pub url: String,
    /// The different number the file carried before and no longer does, if any.
    pub replaced: Option<String>,
    /// Size of the input in bytes.
    pub bytes_before: Option<u64>,
    /// Size of the result in bytes (what it would be, for a dry run).
    pub bytes_after: Option<u64>,
    /// What was written, one item per object or section (empty when unchanged).
    pub written: Vec<pdf::Written>,
    /// The start of an unparsable XMP packet that was replaced (with `force`), as text.
    pub replaced_xmp: Option<String>,
    /// What was left as it is, and why: a stamp not added because page 1 already prints
    /// the number, a link that could not be rewritten.
    pub notes: Vec<String>,
}

/// What [`run`] did.
#[derive(Debug, Clone)]
pub struct Injected {
    /// The report.
    pub report: InjectReport,
    /// The whole updated PDF, for [`Destination::Memory`].
    pub bytes: Option<Vec<u8>>,
    /// The base32 SHA-1 of the input file, when the update read all of it anyway (copied it
    /// to a new file or a stream); `None` otherwise.
    pub sha1: Option<String>,
}

/// At most this many characters of a replaced XMP packet are kept in the report.
const REPLACED_XMP_CHARS: usize = 200;

fn replaced_xmp(old: Option<&[u8]>) -> Option<String> {
    old.map(|b| {
        String::from_utf8_lossy(b)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .take(REPLACED_XMP_CHARS)
            .collect()
    })
}

/// Runs an inject.
///
/// # Errors
/// [`ErrorKind::SameFile`] (the output is the input), [`ErrorKind::Exists`] (with
/// `no_clobber`), [`ErrorKind::NotInPlace`] (bytes in place), [`ErrorKind::BadNumber`] for a
/// number without its year, and
/// every refusal and failure of the PDF layer ([`ErrorKind::Pdf`]). On error the input is
/// untouched and no output file exists.
pub fn run(req: InjectRun<'_>) -> Result<Injected, Error> {
    let InjectRun {
        source,
        mut destination,
        number,
        settings,
        rewrite,
        dry_run,
        paper: details,
    } = req;
    // A rewrite with a dry run or a repair is refused by the request
    // ([`InjectRequest::validate`]); a run given them plans the rewrite, and a rewrite repairs
    // the table itself.
    // One file alone gets the file deadline here, whichever door it came through; a run's
    // file already has its own token.
    let bounded = settings.bounded();
    let settings = &bounded;
    if let Destination::File(o) = &destination {
        if !dry_run {
            check_output(source.path(), o, settings.no_clobber)?;
        } else if source.path().is_some_and(|i| super::same_file(o, i)) {
            return Err(Error::new(ErrorKind::SameFile).in_file(source.path().unwrap_or(o)));
        }
    }
    if matches!(destination, Destination::InPlace) && source.path().is_none() {
        return Err(Error::new(ErrorKind::NotInPlace));
    }
    // Metadata carries the full number: a bare code reaching here (resolve it first,
    // `super::input::full_number`) would be written as a value no reader takes for a number.
    number
        .require_year()
        .map_err(|e| Error::new(ErrorKind::BadNumber(e)))?;
    let mut opts = settings.options();
    if let Some(d) = details {
        opts.paper = paper(d);
    }
    let mut report = InjectReport {
        input: source.name(),
        output: destination.name(&source),
        status: Status::Injected,
        number: number.full(),
        url: number.url(),
        replaced: None,
        // An incremental update of a file takes the size from the file it opens.
        bytes_before: match source {
            Source::File(_) if !rewrite && !dry_run => None,
            Source::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Source::Bytes { data, .. } => Some(data.len() as u64),
        },
        bytes_after: None,
        written: Vec::new(),
        replaced_xmp: None,
        notes: Vec::new(),
    };
    let in_source = |e: pdf::Error| match source.path() {
        Some(p) => Error::from(e.in_file(p)),
        None => Error::from(e),
    };

    // A dry run of a file, and an incremental update of a file: the commit machinery reads
    // only what it needs and copies the rest file to file.
    if let (Source::File(input), false) = (source, rewrite) {
        if dry_run {
            let file = std::fs::File::open(input)
                .map_err(|e| Error::new(ErrorKind::Io("cannot open".into(), e)).in_file(input))?;
            let inj = pdf::inject(&file, number, &opts).map_err(in_source)?;
            report.status = if inj.unchanged {
                Status::Unchanged
            } else {
                Status::Planned
            };
            report.bytes_after = report.bytes_before.map(|b| b + inj.appended.len() as u64);
            report.replaced = replaced(inj.previous.as_deref(), number);
            report.written = inj.written;
            report.replaced_xmp = replaced_xmp(inj.replaced_xmp.as_deref());
            report.notes = inj.notes;
            return Ok(Injected {
                report,
                bytes: None,
                sha1: None,
            });
        }
        let mut memory = Vec::new();
        let mut stdout = std::io::stdout();
        let target = match &mut destination {
            Destination::File(o) if crate::output::is_stdio(o) => {
                commit::Target::Stream(&mut stdout)
            }
            Destination::File(o) => commit::Target::File(o),
            Destination::InPlace => commit::Target::InPlace,
            Destination::Stream(w) => commit::Target::Stream(*w),
            Destination::Memory => commit::Target::Stream(&mut memory),
            Destination::Staged(o, g) => commit::Target::Staged(o, g),
        };
        let r = commit::inject_file(input, target, number, &opts)?;
        report.status = match r.applied {
            commit::Applied::Injected => Status::Injected,
            commit::Applied::Unchanged => Status::Unchanged,
        };
        report.bytes_before = Some(r.bytes_before);
        report.bytes_after = Some(r.bytes_after);
        report.replaced = replaced(r.previous.as_deref(), number);
        report.written = if r.applied == commit::Applied::Unchanged {
            Vec::new()
        } else {
            r.written
        };
        report.replaced_xmp = replaced_xmp(r.replaced_xmp.as_deref());
        report.notes = r.notes;
        let bytes = match destination {
            Destination::Memory => Some(memory),
            _ => None,
        };
        let sha1 = r.sha1.map(|h| data_encoding::BASE32.encode(&h));
        return Ok(Injected {
            report,
            bytes,
            sha1,
        });
    }

    // Whole-file work: bytes in memory, or a rewrite.
    let owned;
    let data: &[u8] = match source {
        Source::Bytes { data, .. } => data,
        Source::File(p) => {
            // The engine's whole read: refused past its bound in its own words, and as long as
            // the file says it is, so a name that points at an endless file (a FIFO,
            // `/dev/zero`) is never read on.
            let file = std::fs::File::open(p)
                .map_err(|e| Error::new(ErrorKind::Io("cannot read".into(), e)).in_file(p))?;
            owned = pdf::read_all(&file).map_err(in_source)?;
            &owned
        }
    };
    let out = if rewrite {
        let before = pdf::inspect_opts(data, &settings.inspect_options(pdf::Check::Sampled))
            .ok()
            .and_then(|i| i.found());
        let mut out = pdf::rewrite(data, number, &opts).map_err(in_source)?;
        if opts.stamp.is_some() {
            // Rewrite, then stamp: the stamp goes on top as an incremental update.
            let inj = pdf::inject(&out[..], number, &opts).map_err(in_source)?;
            out.extend_from_slice(&inj.appended);
        }
        report.status = Status::Rewritten;
        report.replaced = replaced(before.as_deref(), number);
        out
    } else {
        let inj = pdf::inject(data, number, &opts).map_err(in_source)?;
        report.status = match (inj.unchanged, dry_run) {
            (true, _) => Status::Unchanged,
            (false, true) => Status::Planned,
            (false, false) => Status::Injected,
        };
        report.replaced = replaced(inj.previous.as_deref(), number);
        report.written = inj.written;
        report.replaced_xmp = replaced_xmp(inj.replaced_xmp.as_deref());
        report.notes = inj.notes;
        let mut out = data.to_vec();
        out.extend_from_slice(&inj.appended);
        out
    };
    report.bytes_after = Some(out.len() as u64);
    if dry_run {
        return Ok(Injected {
            report,
            bytes: None,
            sha1: None,
        });
    }
    // A new file gets the input file's permissions, as the incremental path gives it.
    let permissions = source
        .path()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| m.permissions());
    // Every byte goes through the engine's commit, as for an incremental update.
    let mut stdout = std::io::stdout();
    let target = match destination {
        Destination::Memory => {
            return Ok(Injected {
                report,
                bytes: Some(out),
                sha1: None,
            })
        }
        Destination::Stream(w) => commit::Target::Stream(w),
        Destination::File(o) if crate::output::is_stdio(o) => commit::Target::Stream(&mut stdout),
        Destination::File(o) => commit::Target::File(o),
        Destination::Staged(o, group) => commit::Target::Staged(o, group),
        // A rewrite in place replaces the file: it keeps the permissions it had.
        Destination::InPlace => {
            commit::Target::File(source.path().expect("checked above: in place needs a file"))
        }
    };
    commit::write_bytes(&out, target, permissions)?;
    Ok(Injected {
        report,
        bytes: None,
        sha1: None,
    })
}

/// Injects `number` into the PDF held in `data` and returns the whole updated PDF (the
/// original bytes followed by the update; `data` itself when it already carries the number)
/// and the report. Nothing is read or written on disk: for engines that hold PDFs in memory.
///
/// # Errors
/// Every refusal and failure of [`run`] ([`ErrorKind::Pdf`]).
pub fn inject_bytes(
    data: &[u8],
    number: &PithNumber,
    settings: &Settings,
) -> Result<(Vec<u8>, InjectReport), Error> {
    let done = run(InjectRun {
        source: Source::Bytes {
            data,
            name: "<memory>",
        },
        destination: Destination::Memory,
        number,
        settings,
        rewrite: false,
        dry_run: false,
        paper: None,
    })?;
    Ok((done.bytes.unwrap_or_default(), done.report))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn a_number_without_its_year_is_refused_before_the_engine() {
        let pdf = fixture("minimal.pdf");
        let bare = PithNumber::parse("7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let e = inject_bytes(&pdf, &bare, &Settings::default()).unwrap_err();
        assert_eq!(e.kind_name(), "no_year", "{e}");
        assert!(e.to_string().contains("a bare code has no year"), "{e}");
    }

    #[test]
    fn bytes_in_memory_and_a_replaced_number() {
        let pdf = fixture("minimal.pdf");
        let a = PithNumber::parse("pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
        let b = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let s = Settings {
            now: Some("2024-01-01T00:00:00Z".into()),
            ..Settings::default()
        };
        let (one, r) = inject_bytes(&pdf, &a, &s).unwrap();
        assert_eq!((r.status, r.replaced.as_deref()), (Status::Injected, None));
        assert!(one.starts_with(&pdf) && r.bytes_after == Some(one.len() as u64));
        let (two, r) = inject_bytes(&one, &b, &s).unwrap();
        assert_eq!(r.replaced.as_deref(), Some(a.full().as_str()));
        let (three, r) = inject_bytes(&two, &b, &s).unwrap();
        assert_eq!((r.status, r.replaced), (Status::Unchanged, None));
        assert_eq!(three, two);
        let e = run(InjectRun {
            source: Source::Bytes {
                data: &pdf,
                name: "-",
            },
            destination: Destination::InPlace,
            number: &a,
            settings: &s,
            rewrite: false,
            dry_run: false,
            paper: None,
        })
        .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::NotInPlace));
    }
}
