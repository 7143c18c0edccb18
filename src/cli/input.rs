//! The metadata inputs shared by `pith number`, `pith record`, `pith inject` and others:
//! a record file, an arXiv Atom entry, or explicit fields.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use pith::job::given::{Conflict, Given};
use pith::job::input::{ArxivSource, RecordSource};
use pith::record::{ErrorKind, Record};
use pith::PithNumber;

/// Where a record comes from. Exactly one of `--arxiv`, `--record`, `--arxiv-atom` or the
/// explicit fields (with `--arxiv`, the fields given replace arXiv's).
#[derive(Debug, Clone, Args, Default)]
pub struct RecordInput {
    /// A paper on arXiv (2402.03791, 2402.03791v3, hep-th/9901001, arXiv:2402.03791, an
    /// arxiv.org/abs/ URL): its metadata is fetched from arXiv (or the cache). --title-file,
    /// --abstract-file, --primary, --cross and --license replace arXiv's fields.
    #[arg(long, value_name = "ID", help_heading = "Record input")]
    pub arxiv: Option<String>,
    /// With --arxiv or --arxiv-atom: the record the next version (latest + 1) will have (from
    /// an Atom file, offline).
    #[arg(long, help_heading = "Record input")]
    pub next: bool,
    #[command(flatten)]
    pub net: super::net::NetArgs,
    /// A canonical record as JSON ("-" reads standard input).
    #[arg(long, value_name = "FILE", help_heading = "Record input")]
    pub record: Option<PathBuf>,
    /// An arXiv API Atom entry or feed (the XML the export API returns).
    #[arg(long, value_name = "FILE", help_heading = "Record input")]
    pub arxiv_atom: Option<PathBuf>,
    /// arXiv id (2402.03791 or 2402.03791v3); with --arxiv-atom, picks that entry of a feed.
    #[arg(long, help_heading = "Record input")]
    pub id: Option<String>,
    /// Latest version number (unless the id carries it).
    #[arg(long = "version", value_name = "N", help_heading = "Record input")]
    pub paper_version: Option<u32>,
    /// Title as arXiv publishes it.
    #[arg(long, help_heading = "Record input")]
    pub title: Option<String>,
    /// Read the title from a file.
    #[arg(long, value_name = "FILE", help_heading = "Record input")]
    pub title_file: Option<PathBuf>,
    /// Abstract of the latest version, as arXiv publishes it.
    #[arg(long = "abstract", help_heading = "Record input")]
    pub abstract_text: Option<String>,
    /// Read the abstract from a file.
    #[arg(long, value_name = "FILE", help_heading = "Record input")]
    pub abstract_file: Option<PathBuf>,
    /// v1 submission time (RFC 3339, e.g. 2024-02-06T08:14:56Z).
    #[arg(long, value_name = "TIME", help_heading = "Record input")]
    pub submitted: Option<String>,
    /// Primary category (cs.DC).
    #[arg(long, value_name = "CAT", help_heading = "Record input")]
    pub primary: Option<String>,
    /// Cross-list category; repeat or separate with commas.
    #[arg(
        long,
        value_name = "CAT",
        value_delimiter = ',',
        help_heading = "Record input"
    )]
    pub cross: Vec<String>,
    /// License URL (omit when arXiv shows none).
    #[arg(long, value_name = "URL", help_heading = "Record input")]
    pub license: Option<String>,
}

/// Reads a file as UTF-8 text ("-" is standard input), naming the file in every error.
pub fn read_text(path: &Path) -> Result<String> {
    Ok(pith::job::input::read_text(path)?)
}

impl RecordInput {
    /// The record inputs given, for the library to check ([`Given::input`]).
    pub fn given(&self) -> Result<Given, pith::job::Error> {
        use pith::job::given::text;
        Ok(Given {
            number: None,
            arxiv: self.arxiv.clone(),
            next: self.next,
            record: self.record.clone(),
            record_value: None,
            arxiv_atom: self.arxiv_atom.clone(),
            id: self.id.clone(),
            version: self.paper_version,
            title: text(self.title.clone(), self.title_file.clone(), "title")?,
            abstract_text: text(
                self.abstract_text.clone(),
                self.abstract_file.clone(),
                "abstract",
            )?,
            submitted: self.submitted.clone(),
            primary: self.primary.clone(),
            cross: self.cross.clone(),
            license: self.license.clone(),
        })
    }

    /// Whether any input was given at all.
    pub fn is_given(&self) -> bool {
        // Both a value and its file are given too: the request refuses them.
        self.given().map_or(true, |g| g.names_a_record())
    }

    /// The arXiv source of `text`, with these arguments' overrides.
    pub fn arxiv_source(&self, text: &str) -> Result<ArxivSource> {
        hint(self.given().and_then(|g| g.arxiv_source(text))).map_err(|e| {
            // A file where an id goes: the flag that reads it.
            if !std::path::Path::new(text).is_file() {
                return e;
            }
            let flag = match text.to_ascii_lowercase() {
                t if t.ends_with(".xml") => "an Atom entry with --arxiv-atom FILE",
                t if t.ends_with(".json") => "a record with --record FILE",
                _ => "an Atom entry with --arxiv-atom FILE, or a record with --record FILE",
            };
            let line = format!(
                "{}; that is a file: give {flag}",
                pith::pdf::chain(e.as_ref())
            );
            super::Failure::new(super::kind_of(&e), line).into()
        })
    }

    /// The library input these arguments describe.
    pub fn to_input(&self) -> Result<RecordSource> {
        hint(self.given().and_then(|g| g.input()))
    }

    /// The single record the input describes.
    pub fn record(&self, ui: super::Ui) -> Result<Record> {
        hint(self.to_input()?.record(&self.net.settings(ui)?))
    }
}

/// Adds the CLI's hints to library errors that have a flag as their remedy.
pub fn hint<T>(r: Result<T, pith::job::Error>) -> Result<T> {
    r.map_err(|e| {
        let r = match e.kind() {
            pith::job::ErrorKind::Net(n) => {
                // The network error's own line, cause and hint.
                return super::net::with_kind(n, super::net::describe(n));
            }
            pith::job::ErrorKind::Input(r) => r,
            pith::job::ErrorKind::Given(c) => {
                let line = format!("{e} ({})", flags(*c));
                return super::Failure::new(e.kind_of(), line).into();
            }
            // An arXiv id where a number goes: the flag that takes it.
            pith::job::ErrorKind::BadNumber(n)
                if pith::net::ArxivId::parse(n.input().trim()).is_ok() =>
            {
                return super::Failure::new(
                    e.kind_of(),
                    format!("{e}; that is an arXiv id: give it with --arxiv ID (or --arxiv-atom FILE offline)"),
                )
                .into();
            }
            _ => return e.into(),
        };
        let h = match r.kind() {
            ErrorKind::Entries { .. } => Some("pick one with --id"),
            ErrorKind::Field {
                field: "source.version",
                ..
            } => Some("give --version or an id like 2402.03791v3"),
            _ => None,
        };
        match h {
            // These kinds have no cause to chain: the hint goes after the message.
            Some(h) => super::Failure::new(e.kind_of(), format!("{e} ({h})")).into(),
            None => e.into(),
        }
    })
}

/// The flags that name what the library's refusal of the record inputs names in words.
fn flags(c: Conflict) -> &'static str {
    match c {
        Conflict::NumberAndRecord => "--number, or --arxiv, --record, --arxiv-atom or the fields",
        Conflict::Several => "one of --arxiv, --record, --arxiv-atom, or --id --title …",
        Conflict::Nothing => {
            "--number PITH, --arxiv ID, --record FILE, --arxiv-atom FILE or --id --title …"
        }
        Conflict::NextWithoutLatest => "--next with --arxiv ID or --arxiv-atom FILE",
        Conflict::ArxivGivesThem => "--id, --version and --submitted go without --arxiv",
        Conflict::IdWithRecord => "--id without --record",
        Conflict::NoId => "--id with --title, --abstract, --submitted, --primary",
        Conflict::NoTitle => "--title or --title-file",
        Conflict::NoAbstract => "--abstract or --abstract-file",
        Conflict::NoSubmitted => "--submitted TIME",
        Conflict::NoPrimary => "--primary CAT",
        Conflict::ValueAndFile("title") => "--title or --title-file",
        Conflict::ValueAndFile("abstract") => "--abstract or --abstract-file",
        Conflict::ValueAndFile("password") => "--password or --password-file",
        Conflict::SeveralNumberSources => {
            "ARXIV_ID…, a record input, --jsonl, or --arxiv-snapshot/--arxiv-oai"
        }
        Conflict::TexAndJson => "--tex or --json",
        Conflict::BulkOptionsAlone => "--strict and --jobs with --arxiv-snapshot or --arxiv-oai",
        Conflict::SeveralSubjects => "NUMBER|RECORD, --file or --digest",
        _ => "see --help",
    }
}

/// A number given directly (`--number`) or computed from any [`RecordInput`].
#[derive(Debug, Clone, Args, Default)]
pub struct NumberInput {
    /// The Pith Number: pith:YYYY:<26> or its resolver URL. Writing needs the full number: a
    /// bare <26> takes its year from its record at the resolver (or the cache with --offline);
    /// a short pith:<8|12|16> is accepted only for checking.
    #[arg(long, value_name = "PITH")]
    pub number: Option<String>,
    #[command(flatten)]
    pub input: RecordInput,
}

impl NumberInput {
    /// The library input these arguments name: the number as text, or the record input.
    pub fn to_input(&self) -> Result<RecordSource> {
        hint(self.input.given().and_then(|g| {
            Given {
                number: self.number.clone(),
                ..g
            }
            .input()
        }))
    }

    /// The number to write into metadata, with its year (a bare code or record URL takes it
    /// from its record at the resolver, or from the cache with `--offline`: the library's rule,
    /// [`pith::job::input::full_number`]) and, when the input names the paper (anything but
    /// `--number`), its display fields, which `inject` writes beside the number
    /// ([`pith::job::input::RecordSource::to_write`]).
    pub fn full_described(
        &self,
        ui: super::Ui,
    ) -> Result<(PithNumber, Option<pith::record::Details>)> {
        let (resolved, details) = hint(self.to_input()?.to_write(&self.input.net.settings(ui)?))?;
        if resolved.year_from_resolver {
            super::note!(
                ui,
                "{}: the year comes from its record at the resolver: {}",
                resolved.number.code(),
                resolved.number.full()
            );
        }
        Ok((resolved.number, details))
    }

    /// The number to check against: any form, a short alias included (`pith:7BMK4ZKT` as
    /// printed on page 1).
    pub fn reference(&self, ui: super::Ui) -> Result<pith::NumberRef> {
        hint(self.to_input()?.reference(&self.input.net.settings(ui)?))
    }
}
