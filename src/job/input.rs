//! The one resolver of inputs: a number in any form, a record, an Atom entry, a paper's fields
//! or an arXiv id become a record or a number here, for the CLI, Python and batch items alike,
//! so that the same input reaches the same outcome: the same number, or the same refusal with
//! the same kind and sentence.
//!
//! A number to be written into metadata needs its year; a bare code (or a record URL, which
//! carries only the code) takes it from its record at the resolver, or from the cache when
//! offline ([`full_number`]). A short alias names no single record and is refused for writing.
//! Files are read whole; `-` names standard input.

use std::path::Path;

use super::{Error, ErrorKind};
use crate::net::arxiv::Want;
use crate::net::{self, ArxivId, Overrides};
use crate::number::{NumberRef, PithNumber};
use crate::record::{self, atom, split_versioned_id, ArxivPaper, Details, LocalSource, Record};

/// One source of a record or number: local (text, files, values, fields) or a paper on arXiv.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordSource {
    /// A number as text, a record file, a record value, an Atom file or a paper's fields.
    Local(LocalSource),
    /// A paper on arXiv, its metadata fetched from arXiv or read from the cache.
    Arxiv(Box<ArxivSource>),
}

impl From<LocalSource> for RecordSource {
    fn from(l: LocalSource) -> Self {
        RecordSource::Local(l)
    }
}

/// A paper on arXiv as a record input: which paper and version, and the fields the author
/// gives in place of arXiv's.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArxivSource {
    /// The paper, with the version when one is asked for.
    pub id: ArxivId,
    /// That version, or the next one.
    pub want: Want,
    /// Fields in place of arXiv's.
    pub overrides: Overrides,
}

/// Reads a file as UTF-8 text (`-` is standard input), naming the file in every error.
///
/// # Errors
/// [`record::ErrorKind::Io`] or [`record::ErrorKind::Utf8`], with the path.
pub fn read_text(path: &Path) -> Result<String, record::Error> {
    read_text_within(path, crate::bounded::FILE_BYTES)
}

/// The most bytes read from a number file ([`LocalSource::NumberFile`], a `NAME.pith`
/// sidecar), which holds one number: a few KiB is far more than any real one.
const NUMBER_FILE_BYTES: u64 = 64 << 10;

/// [`read_text`] of a file of at most `limit` bytes.
fn read_text_within(path: &Path, limit: u64) -> Result<String, record::Error> {
    let at = |k: record::ErrorKind| record::Error::from(k).at(path);
    let bytes = crate::bounded::read_file(path, limit).map_err(|e| at(record::ErrorKind::Io(e)))?;
    String::from_utf8(bytes).map_err(|e| {
        at(record::ErrorKind::Utf8 {
            valid_up_to: e.utf8_error().valid_up_to(),
        })
    })
}

fn input_error(e: record::Error) -> Error {
    Error::new(ErrorKind::Input(e))
}

fn net_error(e: net::Error) -> Error {
    Error::new(ErrorKind::Net(Box::new(e)))
}

/// The papers of an Atom file (`id` picks those with that arXiv id, and version when it
/// carries one); with `next`, each as its next version will be announced: version N+1, the
/// v1 date and the latest metadata, as [`net::arxiv::paper`] makes it from arXiv's answer.
fn atom_papers(
    path: &Path,
    id: Option<&str>,
    next: bool,
) -> Result<Vec<ArxivPaper>, record::Error> {
    let text = read_text(path)?;
    let mut papers = atom::parse(&text).map_err(|e| e.at(path))?;
    if let Some(want) = id {
        let (want_id, want_v) = split_versioned_id(want.trim());
        papers.retain(|p| p.id == want_id && want_v.is_none_or(|v| v == p.version));
        if papers.is_empty() {
            return Err(record::Error::from(record::ErrorKind::NoEntry(want.to_owned())).at(path));
        }
    }
    if next {
        for p in &mut papers {
            p.version += 1;
        }
    }
    Ok(papers)
}

fn local_records(input: &LocalSource) -> Result<Vec<Record>, record::Error> {
    match input {
        LocalSource::Number(_) | LocalSource::NumberFile(_) => {
            Err(record::ErrorKind::NotARecord.into())
        }
        LocalSource::RecordFile(p) => {
            let text = read_text(p)?;
            let v: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| record::Error::from(e).at(p))?;
            Ok(vec![record_value(&v).map_err(|e| e.at(p))?.0])
        }
        LocalSource::RecordValue(v) => Ok(vec![record_value(v)?.0]),
        LocalSource::Record(r) => Ok(vec![(**r).clone()]),
        LocalSource::Atom { path, id, next } => atom_papers(path, id.as_deref(), *next)?
            .iter()
            .map(|p| {
                p.to_record().map_err(|e| {
                    record::Error::from(record::ErrorKind::Entry {
                        id: p.id.clone(),
                        source: Box::new(e),
                    })
                    .at(path)
                })
            })
            .collect(),
        LocalSource::Fields(paper) => {
            paper.check_categories()?;
            Ok(vec![paper.to_record()?])
        }
    }
}

/// A record given as JSON: bare, or wrapped as the resolver and the mirror serve it
/// (`canonical_record` beside `pith_number`, `title` and `authors`), with the wrapper's
/// display fields (empty when bare). A stated number must be the record's own.
fn record_value(v: &serde_json::Value) -> Result<(Record, String, String), record::Error> {
    let Some(inner) = v.get("canonical_record") else {
        return Ok((Record::from_value(v)?, String::new(), String::new()));
    };
    let r = Record::from_value(inner)?;
    if let Some(stated) = v.get("pith_number").and_then(serde_json::Value::as_str) {
        let n = r.number();
        let same = PithNumber::parse(stated)
            .is_ok_and(|s| s.code() == n.code() && s.year().is_none_or(|y| n.year() == Some(y)));
        if !same {
            return Err(record::Error::field(
                "pith_number",
                format!("states {stated} but the record's number is {n}"),
            ));
        }
    }
    let text = |k: &str| {
        v.get(k)
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    Ok((r, text("title"), text("authors")))
}

/// A paper's record with its display fields ([`RecordSource::described`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Described {
    /// The canonical record.
    pub record: Record,
    /// Its display fields (title and authors empty when the input gave none).
    pub details: Details,
}

impl RecordSource {
    /// The one record the input describes, with the display fields its source gives: an Atom
    /// entry's title and authors, arXiv's (through a client of `net`), a wrapped record's
    /// `title` and `authors`, a paper's typed fields. A number is looked up at the resolver
    /// (the cache when offline), whose answer may carry them too.
    ///
    /// # Errors
    /// As [`RecordSource::record`]; for a number, [`ErrorKind::BadNumber`] and [`ErrorKind::Net`]
    /// when its record cannot be had.
    pub fn described(&self, net: &net::Settings) -> Result<Described, Error> {
        let one = |v: Vec<Described>, path: Option<&Path>| {
            let count = v.len();
            let mut v = v;
            if count != 1 {
                let e = record::Error::from(record::ErrorKind::Entries { count });
                return Err(input_error(match path {
                    Some(p) => e.at(p),
                    None => e,
                }));
            }
            Ok(v.remove(0))
        };
        let paper = |p: &record::ArxivPaper| -> Result<Described, record::Error> {
            let record = p.to_record()?;
            Ok(Described {
                details: p.details(&record),
                record,
            })
        };
        match self {
            RecordSource::Local(LocalSource::Number(_) | LocalSource::NumberFile(_)) => {
                let text = self.number_text()?.unwrap_or_default();
                let n =
                    PithNumber::parse(&text).map_err(|e| Error::new(ErrorKind::BadNumber(e)))?;
                let client = net::Client::new(net).map_err(net_error)?;
                let (r, title, authors) =
                    net::resolver::described(&client, n.code()).map_err(net_error)?;
                if r.record.number().code() != n.code() {
                    return Err(net_error(net::Error::from(net::ErrorKind::BadAnswer(
                        format!("the record served for {} is of another number", n.code()),
                    ))));
                }
                Ok(Described {
                    details: Details::of(&r.record, &title, &authors),
                    record: r.record,
                })
            }
            RecordSource::Local(l @ (LocalSource::RecordFile(_) | LocalSource::RecordValue(_))) => {
                let (v, path) = match l {
                    LocalSource::RecordFile(p) => {
                        let text = read_text(p).map_err(input_error)?;
                        let v = serde_json::from_str(&text)
                            .map_err(|e| input_error(record::Error::from(e).at(p)))?;
                        (v, Some(p.as_path()))
                    }
                    LocalSource::RecordValue(v) => (v.clone(), None),
                    _ => unreachable!("matched above"),
                };
                let (record, title, authors) = record_value(&v).map_err(|e| {
                    input_error(match path {
                        Some(p) => e.at(p),
                        None => e,
                    })
                })?;
                Ok(Described {
                    details: Details::of(&record, &title, &authors),
                    record,
                })
            }
            RecordSource::Local(LocalSource::Record(r)) => Ok(Described {
                details: Details::of(r, "", ""),
                record: (**r).clone(),
            }),
            RecordSource::Local(LocalSource::Atom { path, id, next }) => {
                let papers = atom_papers(path, id.as_deref(), *next).map_err(input_error)?;
                let v = papers
                    .iter()
                    .map(|p| {
                        paper(p).map_err(|e| {
                            input_error(
                                record::Error::from(record::ErrorKind::Entry {
                                    id: p.id.clone(),
                                    source: Box::new(e),
                                })
                                .at(path),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                one(v, Some(path))
            }
            RecordSource::Local(LocalSource::Fields(p)) => {
                p.check_categories().map_err(input_error)?;
                paper(p).map_err(input_error)
            }
            RecordSource::Arxiv(src) => {
                let client = net::Client::new(net).map_err(net_error)?;
                let meta = net::arxiv::fetch(&client, &src.id).map_err(net_error)?;
                let p = net::arxiv::paper(&meta, &src.id, src.want, &src.overrides)
                    .map_err(net_error)?;
                paper(&p).map_err(|e| {
                    net_error(
                        net::Error::from(net::ErrorKind::Record(Box::new(e)))
                            .about(src.id.to_string()),
                    )
                })
            }
        }
    }

    /// The input a paper is named by on a command line: a number in any form, else an arXiv
    /// id or abs URL (its latest version unless the id carries one).
    ///
    /// # Errors
    /// [`ErrorKind::BadNumber`] when the text is neither (the number's own reason).
    pub fn from_text(text: &str) -> Result<RecordSource, Error> {
        let text = text.trim();
        match PithNumber::parse(text) {
            Ok(_) => Ok(LocalSource::Number(text.to_owned()).into()),
            Err(e) => match ArxivId::parse(text) {
                Ok(id) => Ok(RecordSource::Arxiv(Box::new(ArxivSource {
                    id,
                    want: Want::Asked,
                    overrides: Overrides::default(),
                }))),
                Err(_) => Err(Error::new(ErrorKind::BadNumber(e))),
            },
        }
    }

    /// The number to write into metadata ([`RecordSource::full_number`]) and, when the input names
    /// the paper (anything but a number given as text), its display fields: what `inject`
    /// and `batch` write as the paper's identifiers, title and authors.
    ///
    /// # Errors
    /// As [`RecordSource::full_number`] and [`RecordSource::described`].
    pub fn to_write(&self, net: &net::Settings) -> Result<(Resolved, Option<Details>), Error> {
        if let Some(n) = self.number_text()? {
            return Ok((full_number(&n, net)?, None));
        }
        let d = self.described(net)?;
        Ok((
            Resolved {
                number: d.record.number(),
                year_from_resolver: false,
            },
            Some(d.details),
        ))
    }

    /// The number as text when the input is one: given as text, or read from its file (at
    /// most 64 KiB, trimmed); `None` for any other input.
    ///
    /// # Errors
    /// [`ErrorKind::Input`] naming the number file when it cannot be read or is not UTF-8.
    fn number_text(&self) -> Result<Option<std::borrow::Cow<'_, str>>, Error> {
        match self {
            RecordSource::Local(LocalSource::Number(n)) => Ok(Some(n.as_str().into())),
            RecordSource::Local(LocalSource::NumberFile(p)) => {
                let text = read_text_within(p, NUMBER_FILE_BYTES).map_err(input_error)?;
                Ok(Some(text.trim().to_owned().into()))
            }
            _ => Ok(None),
        }
    }

    /// Every record the input describes: one, or one per matching entry of an Atom feed.
    /// arXiv is asked through a client of `net`.
    ///
    /// # Errors
    /// [`ErrorKind::Input`] for a number (which determines no record), read errors and the
    /// record's or feed's own errors, with the file named; [`ErrorKind::Net`] when arXiv's
    /// record cannot be had.
    pub fn records(&self, net: &net::Settings) -> Result<Vec<Record>, Error> {
        match self {
            RecordSource::Local(l) => local_records(l).map_err(input_error),
            RecordSource::Arxiv(src) => {
                let client = net::Client::new(net).map_err(net_error)?;
                let r = net::arxiv::record(&client, &src.id, src.want, &src.overrides)
                    .map_err(net_error)?;
                Ok(vec![r])
            }
        }
    }

    /// The one record the input describes.
    ///
    /// # Errors
    /// As [`RecordSource::records`], and [`record::ErrorKind::Entries`] when a feed has several
    /// entries.
    pub fn record(&self, net: &net::Settings) -> Result<Record, Error> {
        let mut v = self.records(net)?;
        if v.len() != 1 {
            let e = record::Error::from(record::ErrorKind::Entries { count: v.len() });
            return Err(input_error(match self.path() {
                Some(p) => e.at(p),
                None => e,
            }));
        }
        Ok(v.remove(0))
    }

    /// The number: parsed from text (a bare code or record URL keeps no year), or computed
    /// from the one record.
    ///
    /// # Errors
    /// [`ErrorKind::BadNumber`] for a number that does not parse; otherwise as
    /// [`RecordSource::record`].
    ///
    /// # Examples
    /// ```
    /// use pith::job::input::RecordSource;
    /// use pith::record::LocalSource;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.atom.xml");
    /// let net = pith::net::Settings::default();
    /// let n = RecordSource::from(LocalSource::Atom { path: path.into(), id: None, next: false }).number(&net)?;
    /// assert_eq!(n.full(), "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
    /// # Ok::<(), pith::job::Error>(())
    /// ```
    pub fn number(&self, net: &net::Settings) -> Result<PithNumber, Error> {
        match self.number_text()? {
            Some(n) => PithNumber::parse(&n).map_err(|e| Error::new(ErrorKind::BadNumber(e))),
            None => Ok(self.record(net)?.number()),
        }
    }

    /// The number to write into metadata: [`RecordSource::number`] with its year
    /// ([`full_number`] for a number given as text).
    ///
    /// # Errors
    /// As [`RecordSource::number`] and [`full_number`].
    pub fn full_number(&self, net: &net::Settings) -> Result<Resolved, Error> {
        match self.number_text()? {
            Some(n) => full_number(&n, net),
            None => Ok(Resolved {
                number: self.number(net)?,
                year_from_resolver: false,
            }),
        }
    }

    /// The number to check against: any form, a short alias included (as printed on page 1).
    ///
    /// # Errors
    /// As [`RecordSource::number`].
    pub fn reference(&self, net: &net::Settings) -> Result<NumberRef, Error> {
        match self.number_text()? {
            Some(n) => NumberRef::parse(&n).map_err(|e| Error::new(ErrorKind::BadNumber(e))),
            None => Ok(NumberRef::Full(self.number(net)?)),
        }
    }

    /// The file the input is read from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            RecordSource::Local(l) => l.path(),
            RecordSource::Arxiv(_) => None,
        }
    }
}

/// A number to write, with where its year came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The full number.
    pub number: PithNumber,
    /// Whether the year came from the number's record at the resolver (or the cache): the
    /// text gave only the code.
    pub year_from_resolver: bool,
}

/// The full number of `text`, any form: `pith:YYYY:<26>` as it is; a bare code or a record
/// URL with the year of its record at the resolver (the cache when offline), whose own number
/// must be that code. The number pith.science's record pages tell authors to paste is the bare
/// code, so this is what every writer (inject, a sidecar of a batch) calls.
///
/// # Errors
/// [`ErrorKind::BadNumber`] when the text is no number (a short alias included: it names no
/// single record); [`ErrorKind::NoYear`] when the record cannot be had, saying why.
pub fn full_number(text: &str, net: &net::Settings) -> Result<Resolved, Error> {
    let n = PithNumber::parse(text).map_err(|e| Error::new(ErrorKind::BadNumber(e)))?;
    if n.year().is_some() {
        return Ok(Resolved {
            number: n,
            year_from_resolver: false,
        });
    }
    let looked_up =
        net::Client::new(net).and_then(|client| net::resolver::full_number(&client, n.code()));
    match looked_up {
        Ok(number) => Ok(Resolved {
            number,
            year_from_resolver: true,
        }),
        Err(e) => Err(Error::new(ErrorKind::NoYear {
            code: n.code().to_owned(),
            why: Box::new(e),
        })),
    }
}

/// The number of a batch item, to be written: its source's, with its year (a bare code in a
/// `NAME.pith` sidecar is resolved as on the command line), which every further sidecar must
/// give too. Errors name the file they are about: the record or Atom file, else the PDF.
///
/// # Errors
/// As [`RecordSource::full_number`]; [`ErrorKind::Number`] ([`crate::batch::ErrorKind::Conflict`])
/// when two sidecars disagree.
pub fn item_number(job: &crate::batch::Item, net: &net::Settings) -> Result<PithNumber, Error> {
    let number = |l: &LocalSource| {
        RecordSource::Local(l.clone())
            .full_number(net)
            .map(|r| r.number)
            .map_err(|e| e.in_file(&job.pdf))
    };
    let n = number(&job.source)?;
    for other in &job.also {
        let m = number(other)?;
        if !n.matches(&NumberRef::Full(m.clone())) {
            // A number given as text is the manifest line's.
            let name = |l: &LocalSource| match l.path() {
                Some(p) => p.display().to_string(),
                None => "the manifest's number".to_owned(),
            };
            return Err(Error::new(ErrorKind::Number(crate::batch::Error::new(
                &job.pdf,
                None,
                crate::batch::ErrorKind::Conflict(format!(
                    "{} gives {n}, {} gives {m}",
                    name(&job.source),
                    name(other)
                )),
            ))));
        }
    }
    Ok(n)
}

/// The display fields of a batch item's paper, when its source or a further sidecar names it
/// (a record, an Atom entry; a number alone names none): what its inject writes beside the
/// number. The number itself is [`item_number`]'s, which checks the sources agree.
pub fn item_details(job: &crate::batch::Item, net: &net::Settings) -> Option<Details> {
    if let Some(d) = &job.details {
        return Some((**d).clone());
    }
    std::iter::once(&job.source)
        .chain(&job.also)
        .filter(|l| !matches!(l, LocalSource::Number(_) | LocalSource::NumberFile(_)))
        .find_map(|l| RecordSource::Local(l.clone()).described(net).ok())
        .map(|d| d.details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn example(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name)
    }

    fn offline() -> net::Settings {
        net::Settings {
            offline: true,
            cache_dir: Some(std::env::temp_dir().join("pith-no-such-cache-for-tests")),
            ..net::Settings::default()
        }
    }

    #[test]
    fn every_source_gives_the_same_number() {
        let want = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
        let rec = example("2402.03791v3.record.json");
        let value: serde_json::Value = serde_json::from_str(&read_text(&rec).unwrap()).unwrap();
        let record = Record::from_value(&value).unwrap();
        for input in [
            LocalSource::Number(want.to_lowercase()),
            LocalSource::RecordFile(rec),
            LocalSource::RecordValue(value),
            LocalSource::Record(Box::new(record)),
            LocalSource::Atom {
                path: example("2402.03791v3.atom.xml"),
                id: Some("2402.03791v3".into()),
                next: false,
            },
        ] {
            let input = RecordSource::from(input);
            assert_eq!(input.number(&offline()).unwrap().full(), want, "{input:?}");
        }
    }

    #[test]
    fn typed_fields_are_checked() {
        let paper = |id: &str, version: u32, primary: &str, cross: &[&str]| {
            RecordSource::from(LocalSource::Fields(Box::new(record::ArxivPaper {
                id: id.into(),
                version,
                title: "t".into(),
                abstract_text: "a".into(),
                submitted: "2024-02-06T08:14:56Z".into(),
                primary: primary.into(),
                categories: cross.iter().map(|c| c.to_string()).collect(),
                license: None,
                authors: vec![],
            })))
        };
        let net = offline();
        paper("2402.03791v3", 0, "cs.DC", &["cs.LG"])
            .number(&net)
            .unwrap();
        paper("alg-geom/9202001", 1, "alg-geom", &[])
            .number(&net)
            .unwrap();
        let e = paper("2402.03791v3", 2, "cs.DC", &[])
            .number(&net)
            .unwrap_err();
        assert!(
            e.to_string().contains("says version 3 but version 2"),
            "{e}"
        );
        let e = paper("2402.03791", 3, "cs.dc", &[])
            .number(&net)
            .unwrap_err();
        assert!(e.to_string().contains("did you mean cs.DC?"), "{e}");
    }

    #[test]
    fn errors_name_the_file_and_keep_their_cause() {
        let net = offline();
        let e = RecordSource::from(LocalSource::RecordFile("/nonexistent/r.json".into()))
            .number(&net)
            .unwrap_err();
        assert_eq!(e.kind_name(), "io");
        assert!(e.to_string().starts_with("/nonexistent/r.json: "), "{e}");
        assert!(std::error::Error::source(&e).is_some());
        let e = RecordSource::from(LocalSource::Atom {
            path: example("2402.03791v3.atom.xml"),
            id: Some("2401.00001".into()),
            next: false,
        })
        .number(&net)
        .unwrap_err();
        assert_eq!(e.kind_name(), "no_entry", "{e}");
        let e = RecordSource::from(LocalSource::Number("pith:7BMK4ZKT".into()))
            .record(&net)
            .unwrap_err();
        assert_eq!(e.kind_name(), "not_a_record");
    }

    #[test]
    fn a_bare_code_without_its_record_is_refused_with_the_reason() {
        let e = full_number("7BMK4ZKTPUTUY3JKWBANNPOFR5", &offline()).unwrap_err();
        assert_eq!(e.kind_name(), "no_year");
        let text = e.to_string();
        assert!(
            text.starts_with("7BMK4ZKTPUTUY3JKWBANNPOFR5: a bare code has no year"),
            "{text}"
        );
        assert!(text.contains("its record could not be read"), "{text}");
        let url = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5";
        assert_eq!(
            full_number(url, &offline()).unwrap_err().kind_name(),
            "no_year"
        );
        let full = full_number("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5", &offline()).unwrap();
        assert!(!full.year_from_resolver);
        assert_eq!(
            full_number("pith:7BMK4ZKT", &offline())
                .unwrap_err()
                .kind_name(),
            "wrong_length"
        );
    }
}
