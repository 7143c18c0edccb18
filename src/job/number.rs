//! The number job: the Pith Number of every record an input describes (an arXiv id, with the
//! version asked for or the next; a record; an Atom feed; a paper's fields), one report each
//! ([`NumberReport`]): `pith number --json` prints them, Python returns them.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::Conflict;
use super::given::Given;
use super::input::{ArxivSource, RecordSource};
use super::{Error, ErrorKind};
use crate::net;
use crate::record::arxiv::bulk;
use crate::record::Record;

/// What to number.
#[derive(Debug, Clone)]
pub struct NumberRequest {
    /// The input.
    pub input: RecordSource,
    /// How arXiv is asked (for an arXiv input).
    pub net: net::Settings,
}

/// The number of one record: `pith number --json` (one object per record) and Python's
/// number functions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumberReport {
    /// The versioned arXiv id the record is about (`2402.03791v3`).
    pub arxiv_id: String,
    /// The number, `pith:YYYY:<26>`.
    pub pith_number: String,
    /// Its short form, `pith:<8>`.
    pub short_pith_number: String,
    /// The SHA-256 of the canonical record, hex.
    pub canonical_sha256: String,
    /// The record URL.
    pub url: String,
    /// The canonical record.
    pub record: Value,
    /// For an arXiv input: the latest version arXiv lists (left out for other inputs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_version: Option<u32>,
    /// For an arXiv input: whether arXiv's answer came from the cache (left out for other
    /// inputs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached: Option<bool>,
}

impl NumberReport {
    /// The report of `record`.
    pub fn of(record: &Record) -> Self {
        let n = record.number();
        NumberReport {
            arxiv_id: format!("{}v{}", record.source.id, record.source.version),
            pith_number: n.full(),
            short_pith_number: n.short(),
            canonical_sha256: record.canonical_sha256(),
            url: n.url(),
            record: record.to_value(),
            latest_version: None,
            cached: None,
        }
    }

    /// The version of the record numbered.
    pub fn version(&self) -> Option<u32> {
        self.record["source"]["version"]
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
    }
}

/// Numbers every record the input describes.
///
/// # Errors
/// As [`RecordSource::records`]; for an arXiv input, [`ErrorKind::Net`] with arXiv's refusal (an id
/// that does not exist, an older version without its texts…).
pub fn run(req: &NumberRequest) -> Result<Vec<NumberReport>, Error> {
    match &req.input {
        RecordSource::Arxiv(src) => Ok(vec![arxiv(src, &req.net)?]),
        input => Ok(input
            .records(&req.net)?
            .iter()
            .map(NumberReport::of)
            .collect()),
    }
}

/// Numbers canonical records given as JSON Lines (`path`, `-` for standard input): one
/// record a line, blank lines skipped; each report goes to `each` in order.
///
/// # Errors
/// [`ErrorKind::Input`] when the file cannot be read; [`ErrorKind::Line`] (naming the line) at
/// the first line that is no record, after the reports of the lines before it; `each`'s own
/// error, as [`ErrorKind::Io`].
pub fn jsonl(
    path: &Path,
    each: &mut dyn FnMut(&NumberReport) -> std::io::Result<()>,
) -> Result<(), Error> {
    let text = super::input::read_text(path).map_err(|e| Error::new(ErrorKind::Input(e)))?;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = Record::from_json(line).map_err(|source| {
            Error::new(ErrorKind::Line {
                line: i + 1,
                source,
            })
            .in_file(path)
        })?;
        each(&NumberReport::of(&record))
            .map_err(|e| Error::new(ErrorKind::Io("cannot write".into(), e)))?;
    }
    Ok(())
}

/// The sources of numbers `pith number` takes beside a record input, and how it prints them,
/// as a door was given them: [`NumberSources::validate`] refuses more than one source.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NumberSources {
    /// arXiv ids or abs URLs; with an Atom file, one id picks its entry.
    pub ids: Vec<String>,
    /// Canonical records as JSON Lines.
    pub jsonl: Option<PathBuf>,
    /// arXiv metadata snapshot files.
    pub arxiv_snapshot: Vec<PathBuf>,
    /// OAI-PMH ListRecords pages in arXivRaw format.
    pub arxiv_oai: Vec<PathBuf>,
    /// With the bulk metadata: stop at the first bad line or record.
    pub strict: bool,
    /// With the bulk metadata: worker threads (the available cores when `None`).
    pub jobs: Option<usize>,
    /// Print the LaTeX line `\pithnumber{…}`.
    pub tex: bool,
    /// Print JSON.
    pub json: bool,
}

impl NumberSources {
    /// The run over arXiv's bulk metadata these name (no files when they name none).
    pub fn bulk(&self) -> BulkRequest {
        BulkRequest {
            snapshot: self.arxiv_snapshot.clone(),
            oai: self.arxiv_oai.clone(),
            strict: self.strict,
            jobs: self.jobs,
        }
    }

    /// Refuses more than one source of numbers (ids, a record input, JSON Lines, the bulk
    /// metadata; ids may pick an Atom file's entry and take the paper's fields), both LaTeX
    /// and JSON, and what [`BulkRequest::validate`] refuses.
    ///
    /// # Errors
    /// [`Conflict::SeveralNumberSources`], [`Conflict::TexAndJson`],
    /// [`Conflict::BulkOptionsAlone`] (kind `request`).
    ///
    /// # Examples
    /// ```
    /// use pith::job::{given::Given, number::NumberSources};
    /// let ids = NumberSources { ids: vec!["2402.03791".into()], ..Default::default() };
    /// assert!(ids.validate(&Given::default()).is_ok());
    /// let record = Given { record: Some("r.json".into()), ..Given::default() };
    /// assert!(ids.validate(&record).is_err());
    /// ```
    pub fn validate(&self, given: &Given) -> Result<(), Error> {
        let refused = |c| Err(Error::new(ErrorKind::Given(c)));
        if self.tex && self.json {
            return refused(Conflict::TexAndJson);
        }
        let bulk_run = self.bulk();
        bulk_run.validate()?;
        let bulk = bulk_run.has_files();
        let ids = !self.ids.is_empty();
        let sources = [ids, self.jsonl.is_some(), bulk]
            .iter()
            .filter(|s| **s)
            .count();
        // An id picks the entry of an Atom file, and the paper's fields stand in for arXiv's.
        let beside_ids = given.record.is_some()
            || given.record_value.is_some()
            || given.id.is_some()
            || given.arxiv.is_some();
        let record = beside_ids || given.arxiv_atom.is_some();
        if sources > 1 || (ids && beside_ids) || ((self.jsonl.is_some() || bulk) && record) {
            return refused(Conflict::SeveralNumberSources);
        }
        Ok(())
    }
}

/// A run over arXiv's bulk metadata (`pith number --arxiv-snapshot/--arxiv-oai`), as a door
/// was given it; [`BulkRequest::validate`] refuses what does not go together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BulkRequest {
    /// Metadata snapshot files (JSON Lines; compressed or not; `-` for standard input).
    pub snapshot: Vec<PathBuf>,
    /// OAI-PMH ListRecords pages in arXivRaw format.
    pub oai: Vec<PathBuf>,
    /// Stop at the first bad line or record.
    pub strict: bool,
    /// Worker threads ([`super::pass_threads`] when `None`).
    pub jobs: Option<usize>,
}

impl BulkRequest {
    /// Whether any metadata file is named.
    pub fn has_files(&self) -> bool {
        !self.snapshot.is_empty() || !self.oai.is_empty()
    }

    /// Refuses how metadata is read without metadata to read, and standard input named twice.
    ///
    /// # Errors
    /// [`Conflict::BulkOptionsAlone`]; [`ErrorKind::Request`] when standard input is named
    /// twice.
    ///
    /// # Examples
    /// ```
    /// use pith::job::number::BulkRequest;
    /// let strict = BulkRequest { strict: true, ..Default::default() };
    /// assert!(strict.validate().is_err());
    /// let files = BulkRequest { snapshot: vec!["s.jsonl".into()], ..strict };
    /// assert!(files.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        if !self.has_files() && (self.strict || self.jobs.is_some()) {
            return Err(Error::new(ErrorKind::Given(Conflict::BulkOptionsAlone)));
        }
        super::stdin_once(self.snapshot.iter().chain(&self.oai).map(PathBuf::as_path))
    }
}

/// Numbers every paper of arXiv's bulk metadata: one JSON line per paper to `out`, in input
/// order ([`bulk::number`]); bad lines and deleted records to `report`, and the run goes on
/// unless `strict`.
///
/// # Errors
/// As [`BulkRequest::validate`]; [`ErrorKind::Metadata`] when the metadata cannot be read or
/// written, or at the first bad line when `strict`.
pub fn bulk(
    req: &BulkRequest,
    out: &mut dyn std::io::Write,
    report: &mut dyn FnMut(&bulk::Report),
) -> Result<bulk::Summary, Error> {
    req.validate()?;
    let inputs = bulk::MetadataFile::of_forms(&req.snapshot, &req.oai);
    let opts = bulk::Pass {
        threads: super::pass_threads(req.jobs),
        strict: req.strict,
    };
    bulk::number(&inputs, opts, out, report).map_err(|e| Error::new(ErrorKind::Metadata(e)))
}

fn arxiv(src: &ArxivSource, settings: &net::Settings) -> Result<NumberReport, Error> {
    let e = |e: net::Error| Error::new(ErrorKind::Net(Box::new(e)));
    let client = net::Client::new(settings).map_err(e)?;
    let meta = net::arxiv::fetch(&client, &src.id).map_err(e)?;
    let paper = net::arxiv::paper(&meta, &src.id, src.want, &src.overrides).map_err(e)?;
    let record = paper.to_record().map_err(|r| {
        e(net::Error::from(net::ErrorKind::Record(Box::new(r))).about(src.id.to_string()))
    })?;
    let mut report = NumberReport::of(&record);
    report.latest_version = Some(meta.latest);
    report.cached = Some(meta.cached);
    Ok(report)
}

/// The one run a `pith number` request asks for ([`NumberSources::run_of`]).
#[derive(Debug, Clone, PartialEq)]
pub enum NumberRun {
    /// arXiv's bulk metadata ([`bulk()`]).
    Bulk(BulkRequest),
    /// Canonical records as JSON Lines ([`jsonl`]).
    Jsonl(PathBuf),
    /// Each paper of these arXiv ids or abs URLs, from arXiv, with the fields given in place
    /// of arXiv's ([`Given::arxiv_source`]).
    Ids(Vec<String>),
    /// The record input ([`Given::input`]); an id given beside an Atom file picks its entry.
    Input(Box<Given>),
}

impl NumberSources {
    /// The run these and the record input `given` ask for, once [`NumberSources::validate`]
    /// holds: the bulk metadata, JSON Lines, the ids, or the record input. An id given with an
    /// Atom file picks that file's entry (`pith number ID --arxiv-atom FILE`), as `id` does.
    ///
    /// # Errors
    /// As [`NumberSources::validate`]; [`ErrorKind::Request`] for more than one id beside an
    /// Atom file.
    ///
    /// # Examples
    /// ```
    /// use pith::job::{given::Given, number::{NumberRun, NumberSources}};
    /// let ids = NumberSources { ids: vec!["2402.03791".into()], ..Default::default() };
    /// let atom = Given { arxiv_atom: Some("a.xml".into()), ..Given::default() };
    /// let NumberRun::Input(g) = ids.run_of(atom)? else { panic!() };
    /// assert_eq!(g.id.as_deref(), Some("2402.03791"));
    /// # Ok::<(), pith::job::Error>(())
    /// ```
    pub fn run_of(&self, mut given: Given) -> Result<NumberRun, Error> {
        self.validate(&given)?;
        let bulk = self.bulk();
        if bulk.has_files() {
            return Ok(NumberRun::Bulk(bulk));
        }
        if let Some(path) = &self.jsonl {
            return Ok(NumberRun::Jsonl(path.clone()));
        }
        if given.arxiv_atom.is_some() {
            match self.ids.as_slice() {
                [] => {}
                [id] => given.id = Some(id.clone()),
                more => {
                    return Err(Error::new(ErrorKind::Request(format!(
                        "a saved Atom feed takes one arXiv id (the entry to number), not {}",
                        more.len()
                    ))))
                }
            }
        } else if !self.ids.is_empty() {
            return Ok(NumberRun::Ids(self.ids.clone()));
        }
        Ok(NumberRun::Input(Box::new(given)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atom_feed_is_numbered() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/2402.03791v3.atom.xml"
        );
        let r = run(&NumberRequest {
            input: RecordSource::Local(crate::record::LocalSource::Atom {
                path: path.into(),
                id: None,
                next: false,
            }),
            net: net::Settings::default(),
        })
        .unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].pith_number, "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
        assert_eq!(r[0].arxiv_id, "2402.03791v3");
        assert_eq!(r[0].version(), Some(3));
        assert_eq!(r[0].latest_version, None);
    }
}
