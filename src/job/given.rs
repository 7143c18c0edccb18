//! What a request names as the paper's record, checked once for every door: a number, a
//! paper on arXiv, a record (a file or a value), an Atom file, or the paper's own fields. The
//! command line's flags and Python's keywords fill a [`Given`] and nothing more; [`Given::input`]
//! refuses every contradiction (more than one source, options that do not go with the one
//! given, fields missing) with a typed [`Conflict`], and builds the [`RecordSource`] the jobs read.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use super::error::Conflict;
use super::input::{read_text, ArxivSource, RecordSource};
use super::{Error, ErrorKind};
use crate::net::arxiv::Want;
use crate::net::{ArxivId, Overrides};
use crate::record::{ArxivPaper, LocalSource};

/// A text given as a value, or in a file (`--title` or `--title-file`); as JSON,
/// `{"value": "…"}` or `{"file": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Text {
    /// The text itself.
    Value(String),
    /// A file that holds it (`-` is standard input).
    File(PathBuf),
}

impl Text {
    fn read(&self) -> Result<String, Error> {
        match self {
            Text::Value(t) => Ok(t.clone()),
            Text::File(p) => read_text(p).map_err(|e| Error::new(ErrorKind::Input(e))),
        }
    }
}

/// The record inputs of a request, as the user gave them: every field is optional, and
/// [`Given::input`] decides which combinations mean something.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Given {
    /// A number as text (any form; `--number`, `number=`).
    pub number: Option<String>,
    /// A paper on arXiv (`--arxiv`): its metadata comes from arXiv or the cache.
    pub arxiv: Option<String>,
    /// With an arXiv id or an Atom file: the record the next version will have.
    pub next: bool,
    /// A record file (`--record`; `-` is standard input).
    pub record: Option<PathBuf>,
    /// A record as a JSON value (Python's `record=`).
    pub record_value: Option<serde_json::Value>,
    /// An arXiv Atom entry or feed (`--arxiv-atom`).
    pub arxiv_atom: Option<PathBuf>,
    /// The paper's arXiv id: with an Atom file, the entry of a feed to take; else the id of
    /// the paper whose fields are given.
    pub id: Option<String>,
    /// The latest version's number, unless the id carries it.
    pub version: Option<u32>,
    /// The title.
    pub title: Option<Text>,
    /// The abstract of the latest version.
    pub abstract_text: Option<Text>,
    /// The v1 submission time (RFC 3339).
    pub submitted: Option<String>,
    /// The primary category.
    pub primary: Option<String>,
    /// Cross-list categories.
    pub cross: Vec<String>,
    /// The license URL.
    pub license: Option<String>,
}

/// A text given as a value or a file (`--title` or `--title-file`), refused when both are.
///
/// # Errors
/// [`Conflict::ValueAndFile`] naming `what` when both are given.
///
/// # Examples
/// ```
/// use pith::job::given::{text, Text};
/// assert_eq!(text(Some("T".into()), None, "title")?, Some(Text::Value("T".into())));
/// assert!(text(Some("T".into()), Some("t.txt".into()), "title").is_err());
/// # Ok::<(), pith::job::Error>(())
/// ```
pub fn text(
    value: Option<String>,
    file: Option<PathBuf>,
    what: &'static str,
) -> Result<Option<Text>, Error> {
    match (value, file) {
        (Some(_), Some(_)) => Err(refused(Conflict::ValueAndFile(what))),
        (Some(t), None) => Ok(Some(Text::Value(t))),
        (None, Some(p)) => Ok(Some(Text::File(p))),
        (None, None) => Ok(None),
    }
}

fn refused(c: Conflict) -> Error {
    Error::new(ErrorKind::Given(c))
}

impl Given {
    /// Whether a record input was given (a number aside).
    pub fn names_a_record(&self) -> bool {
        self.arxiv.is_some()
            || self.record.is_some()
            || self.record_value.is_some()
            || self.arxiv_atom.is_some()
            || self.id.is_some()
            || self.has_fields()
    }

    fn has_fields(&self) -> bool {
        self.title.is_some()
            || self.abstract_text.is_some()
            || self.submitted.is_some()
            || self.primary.is_some()
            || !self.cross.is_empty()
            || self.license.is_some()
            || self.version.is_some()
    }

    /// The fields given in place of arXiv's.
    ///
    /// # Errors
    /// [`ErrorKind::Input`] when a text file cannot be read.
    pub fn overrides(&self) -> Result<Overrides, Error> {
        Ok(Overrides {
            title: self.title.as_ref().map(Text::read).transpose()?,
            abstract_text: self.abstract_text.as_ref().map(Text::read).transpose()?,
            primary: self.primary.clone(),
            cross: (!self.cross.is_empty()).then(|| self.cross.clone()),
            license: self.license.clone(),
        })
    }

    /// The paper on arXiv of id `text` (the one given, or each of several a command takes),
    /// with the fields given in place of arXiv's.
    ///
    /// # Errors
    /// [`Conflict::ArxivGivesThem`] beside an id, a version or a v1 date; [`ErrorKind::Net`]
    /// for text that is no arXiv id; [`ErrorKind::Input`] for a text file that cannot be read.
    pub fn arxiv_source(&self, text: &str) -> Result<ArxivSource, Error> {
        if self.id.is_some() || self.submitted.is_some() || self.version.is_some() {
            return Err(refused(Conflict::ArxivGivesThem));
        }
        let id = ArxivId::parse(text).map_err(|e| Error::new(ErrorKind::Net(Box::new(e))))?;
        Ok(ArxivSource {
            id,
            want: if self.next { Want::Next } else { Want::Asked },
            overrides: self.overrides()?,
        })
    }

    /// The one input these name.
    ///
    /// # Errors
    /// [`ErrorKind::Given`] for inputs that contradict each other or are incomplete,
    /// [`ErrorKind::Net`] for an arXiv id that is none, [`ErrorKind::Input`] for a text file
    /// that cannot be read.
    ///
    /// # Examples
    /// ```
    /// use pith::job::given::{Conflict, Given};
    /// let n = Given { number: Some("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into()), ..Given::default() };
    /// assert!(n.input().is_ok());
    /// let both = Given { record: Some("r.json".into()), ..n };
    /// assert!(matches!(both.input().unwrap_err().kind(), pith::job::ErrorKind::Given(Conflict::NumberAndRecord)));
    /// ```
    pub fn input(&self) -> Result<RecordSource, Error> {
        match (&self.number, self.names_a_record()) {
            (Some(_), true) => Err(refused(Conflict::NumberAndRecord)),
            (Some(n), false) => Ok(LocalSource::Number(n.clone()).into()),
            (None, false) => Err(refused(Conflict::Nothing)),
            (None, true) => self.record_input(),
        }
    }

    fn record_input(&self) -> Result<RecordSource, Error> {
        let sources = [
            self.arxiv.is_some(),
            self.record.is_some() || self.record_value.is_some(),
            self.arxiv_atom.is_some(),
            // With an arXiv id the fields replace arXiv's: they are no source of their own.
            self.arxiv.is_none() && self.has_fields(),
        ];
        if sources.iter().filter(|s| **s).count() > 1
            || (self.record.is_some() && self.record_value.is_some())
        {
            return Err(refused(Conflict::Several));
        }
        if let Some(text) = &self.arxiv {
            return Ok(RecordSource::Arxiv(Box::new(self.arxiv_source(text)?)));
        }
        if self.next && self.arxiv_atom.is_none() {
            return Err(refused(Conflict::NextWithoutLatest));
        }
        if (self.record.is_some() || self.record_value.is_some()) && self.id.is_some() {
            return Err(refused(Conflict::IdWithRecord));
        }
        if let Some(path) = &self.record {
            return Ok(LocalSource::RecordFile(path.clone()).into());
        }
        if let Some(v) = &self.record_value {
            return Ok(LocalSource::RecordValue(v.clone()).into());
        }
        if let Some(path) = &self.arxiv_atom {
            return Ok(LocalSource::Atom {
                path: path.clone(),
                id: self.id.clone(),
                next: self.next,
            }
            .into());
        }
        self.fields()
    }

    fn fields(&self) -> Result<RecordSource, Error> {
        let id = self.id.clone().ok_or(refused(Conflict::NoId))?;
        let need = |t: &Option<Text>, c: Conflict| t.as_ref().ok_or(refused(c))?.read();
        Ok(LocalSource::Fields(Box::new(ArxivPaper {
            id,
            version: self.version.unwrap_or(0),
            title: need(&self.title, Conflict::NoTitle)?,
            abstract_text: need(&self.abstract_text, Conflict::NoAbstract)?,
            submitted: self
                .submitted
                .clone()
                .ok_or(refused(Conflict::NoSubmitted))?,
            primary: self.primary.clone().ok_or(refused(Conflict::NoPrimary))?,
            categories: self.cross.clone(),
            license: self.license.clone(),
            authors: Vec::new(),
        }))
        .into())
    }

    /// The file the input is read from, when it is one (a record or Atom file).
    pub fn path(&self) -> Option<&Path> {
        self.record.as_deref().or(self.arxiv_atom.as_deref())
    }
}

/// What a command that takes a number (or a paper's id) or a record input was given: the
/// text, or the record input ([`Given`]); one of the two, not both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOrInput<'a> {
    /// The number or id given as text.
    Text(&'a str),
    /// A record input (`--arxiv`, `--record`, …) was given.
    Input,
}

/// Which of a command's two sources of a number was given ([`TextOrInput`]); `what` names
/// the text (`the number`, `ID|NUMBER`), `inputs` the record inputs and `none` the sentence
/// for neither.
///
/// # Errors
/// [`ErrorKind::Request`] when both or neither are given.
pub fn text_or_input<'a>(
    text: Option<&'a str>,
    input_given: bool,
    what: &str,
    inputs: &str,
    none: &str,
) -> Result<TextOrInput<'a>, Error> {
    let refuse = |m: String| Err(Error::new(ErrorKind::Request(m)));
    match (text, input_given) {
        (Some(_), true) => refuse(format!(
            "give either {what} or a record input ({inputs}), not both"
        )),
        (Some(t), false) => Ok(TextOrInput::Text(t)),
        (None, true) => Ok(TextOrInput::Input),
        (None, false) => refuse(none.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conflict(g: &Given) -> Option<Conflict> {
        match g.input() {
            Err(e) => match e.kind() {
                ErrorKind::Given(c) => Some(*c),
                _ => None,
            },
            Ok(_) => None,
        }
    }

    #[test]
    fn every_contradiction_is_refused_by_its_name() {
        let number = || Given {
            number: Some("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into()),
            ..Given::default()
        };
        let record = || Given {
            record: Some("r.json".into()),
            ..Given::default()
        };
        let atom = || Given {
            arxiv_atom: Some("a.xml".into()),
            ..Given::default()
        };
        let arxiv = || Given {
            arxiv: Some("2402.03791".into()),
            ..Given::default()
        };
        let cases = [
            (Given::default(), Some(Conflict::Nothing)),
            (number(), None),
            (
                Given {
                    record: Some("r.json".into()),
                    ..number()
                },
                Some(Conflict::NumberAndRecord),
            ),
            (
                Given {
                    arxiv_atom: Some("a.xml".into()),
                    ..record()
                },
                Some(Conflict::Several),
            ),
            (
                Given {
                    record_value: Some(serde_json::json!({})),
                    ..record()
                },
                Some(Conflict::Several),
            ),
            (
                Given {
                    arxiv_atom: Some("a.xml".into()),
                    ..arxiv()
                },
                Some(Conflict::Several),
            ),
            (
                Given {
                    title: Some(Text::Value("T".into())),
                    ..record()
                },
                Some(Conflict::Several),
            ),
            (
                Given {
                    id: Some("2402.03791".into()),
                    ..arxiv()
                },
                Some(Conflict::ArxivGivesThem),
            ),
            (
                Given {
                    title: Some(Text::Value("T".into())),
                    next: true,
                    ..arxiv()
                },
                None,
            ),
            (
                Given {
                    next: true,
                    ..record()
                },
                Some(Conflict::NextWithoutLatest),
            ),
            (
                Given {
                    id: Some("2402.03791".into()),
                    ..record()
                },
                Some(Conflict::IdWithRecord),
            ),
            (
                Given {
                    id: Some("2402.03791".into()),
                    ..atom()
                },
                None,
            ),
            (
                Given {
                    title: Some(Text::Value("T".into())),
                    ..Given::default()
                },
                Some(Conflict::NoId),
            ),
            (
                Given {
                    id: Some("2402.03791".into()),
                    title: Some(Text::Value("T".into())),
                    ..Given::default()
                },
                Some(Conflict::NoAbstract),
            ),
        ];
        for (g, want) in cases {
            assert_eq!(conflict(&g), want, "{g:?}");
        }
    }
}
