//! Where a paper's record or number comes from: one [`Input`] for the CLI and for batch jobs.
//!
//! A number can be given as text, or computed from a canonical record (a file or an inline
//! JSON value), an arXiv Atom entry or feed, or the paper's explicit fields. Resolving it here,
//! once, means `pith number`, `pith inject` and a batch manifest line apply the same rules
//! (issue #11: they were resolved twice, with different rules). A number is never typed twice:
//! it is parsed, or computed from the record.
//!
//! Files are read whole; `-` names standard input.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{atom, split_versioned_id, Error, ErrorKind, Paper, Record};
use crate::number::PithNumber;

/// One source of a record or number.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A number as text, in any full form ([`PithNumber::parse`]).
    Number(String),
    /// A canonical record JSON file (`-` for standard input).
    RecordFile(PathBuf),
    /// A canonical record given as a JSON value (inline in a manifest).
    RecordValue(Value),
    /// An arXiv Atom entry or feed file (`-` for standard input); `id` picks the entries with
    /// that arXiv id (and version, when it carries one).
    Atom {
        /// The Atom file.
        path: PathBuf,
        /// `2402.03791` or `2402.03791v3`.
        id: Option<String>,
    },
    /// The paper's explicit fields, typed by hand: their categories are checked against
    /// arXiv's taxonomy ([`Paper::check_categories`]).
    Fields(Box<Paper>),
    /// A paper on arXiv, its metadata fetched from arXiv or read from the cache
    /// ([`crate::net::arxiv::record`]; issue 22).
    Arxiv(Box<ArxivSource>),
}

/// A paper on arXiv as a record input: which paper and version, the fields the author gives
/// in place of arXiv's, and how the network is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArxivSource {
    /// The paper, with the version when one is asked for.
    pub id: crate::net::ArxivId,
    /// That version, or the next one.
    pub want: crate::net::arxiv::Want,
    /// Fields in place of arXiv's.
    pub overrides: crate::net::Overrides,
    /// Where and how politely to ask.
    pub settings: crate::net::Settings,
}

/// Reads a file as UTF-8 text (`-` is standard input), naming the file in every error.
///
/// # Errors
/// [`ErrorKind::Io`] or [`ErrorKind::Utf8`], with the path.
pub fn read_text(path: &Path) -> Result<String, Error> {
    let at = |k: ErrorKind| Error::from(k).at(path);
    let bytes = if path.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .map_err(|e| at(ErrorKind::Io(e)))?;
        v
    } else {
        std::fs::read(path).map_err(|e| at(ErrorKind::Io(e)))?
    };
    String::from_utf8(bytes).map_err(|e| {
        at(ErrorKind::Utf8 {
            valid_up_to: e.utf8_error().valid_up_to(),
        })
    })
}

impl Input {
    /// Every record the input describes: one, or one per matching entry of an Atom feed.
    ///
    /// # Errors
    /// [`ErrorKind::NotARecord`] for [`Input::Number`]; read errors; the record's or the
    /// feed's own errors, with the file named; [`ErrorKind::NoEntry`] when `id` matches no
    /// entry; [`ErrorKind::Net`] when arXiv's record cannot be had.
    pub fn records(&self) -> Result<Vec<Record>, Error> {
        match self {
            Input::Number(_) => Err(ErrorKind::NotARecord.into()),
            Input::RecordFile(p) => {
                let text = read_text(p)?;
                Ok(vec![Record::from_json(&text).map_err(|e| e.at(p))?])
            }
            Input::RecordValue(v) => Ok(vec![Record::from_value(v)?]),
            Input::Atom { path, id } => {
                let text = read_text(path)?;
                let mut papers = atom::parse(&text).map_err(|e| e.at(path))?;
                if let Some(want) = id {
                    let (want_id, want_v) = split_versioned_id(want.trim());
                    papers.retain(|p| p.id == want_id && want_v.is_none_or(|v| v == p.version));
                    if papers.is_empty() {
                        return Err(Error::from(ErrorKind::NoEntry(want.clone())).at(path));
                    }
                }
                papers
                    .iter()
                    .map(|p| {
                        p.to_record().map_err(|e| {
                            let id = p.id.clone();
                            Error::from(ErrorKind::Entry {
                                id,
                                source: Box::new(e),
                            })
                            .at(path)
                        })
                    })
                    .collect()
            }
            Input::Fields(paper) => {
                paper.check_categories()?;
                Ok(vec![paper.to_record()?])
            }
            Input::Arxiv(src) => {
                let net = |e: crate::net::Error| Error::from(ErrorKind::Net(Box::new(e)));
                let client = crate::net::Client::new(&src.settings).map_err(net)?;
                let r = crate::net::arxiv::record(&client, &src.id, src.want, &src.overrides)
                    .map_err(net)?;
                Ok(vec![r])
            }
        }
    }

    /// The one record the input describes.
    ///
    /// # Errors
    /// As [`Input::records`], and [`ErrorKind::Entries`] when a feed has several entries.
    pub fn record(&self) -> Result<Record, Error> {
        let mut v = self.records()?;
        if v.len() != 1 {
            let e = Error::from(ErrorKind::Entries { count: v.len() });
            return Err(match self {
                Input::Atom { path, .. } => e.at(path),
                _ => e,
            });
        }
        Ok(v.remove(0))
    }

    /// The number: parsed from text, or computed from the one record.
    ///
    /// # Errors
    /// [`ErrorKind::Number`] for a number that does not parse; otherwise as [`Input::record`].
    ///
    /// # Examples
    /// ```
    /// use pith::record::Input;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.atom.xml");
    /// let n = Input::Atom { path: path.into(), id: None }.number()?;
    /// assert_eq!(n, Input::Number("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into()).number()?);
    /// # Ok::<(), pith::record::Error>(())
    /// ```
    pub fn number(&self) -> Result<PithNumber, Error> {
        match self {
            Input::Number(n) => Ok(PithNumber::parse(n)?),
            _ => Ok(self.record()?.number()),
        }
    }

    /// The file the input is read from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Input::RecordFile(p) | Input::Atom { path: p, .. } => Some(p),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name)
    }

    #[test]
    fn every_source_gives_the_same_number() {
        let want = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
        let rec = example("2402.03791v3.record.json");
        let value: Value = serde_json::from_str(&read_text(&rec).unwrap()).unwrap();
        for input in [
            Input::Number(want.to_lowercase()),
            Input::RecordFile(rec),
            Input::RecordValue(value),
            Input::Atom {
                path: example("2402.03791v3.atom.xml"),
                id: Some("2402.03791v3".into()),
            },
        ] {
            assert_eq!(input.number().unwrap().full(), want, "{input:?}");
        }
    }

    #[test]
    fn typed_fields_are_checked_and_conflicts_refused() {
        let paper = |id: &str, version: u32, primary: &str, cross: &[&str]| {
            Input::Fields(Box::new(Paper {
                id: id.into(),
                version,
                title: "t".into(),
                abstract_text: "a".into(),
                submitted: "2024-02-06T08:14:56Z".into(),
                primary: primary.into(),
                categories: cross.iter().map(|c| c.to_string()).collect(),
                license: None,
            }))
        };
        paper("2402.03791v3", 0, "cs.DC", &["cs.LG"])
            .number()
            .unwrap();
        paper("2402.03791v3", 3, "cs.DC", &[]).number().unwrap();
        paper("alg-geom/9202001", 1, "alg-geom", &[])
            .number()
            .unwrap();
        let e = paper("2402.03791v3", 2, "cs.DC", &[]).number().unwrap_err();
        assert!(
            e.to_string().contains("says version 3 but version 2"),
            "{e}"
        );
        let e = paper("2402.03791", 3, "cs.dc", &[]).number().unwrap_err();
        assert!(e.to_string().contains("did you mean cs.DC?"), "{e}");
        let e = paper("2402.03791", 3, "cs.DC", &["cs.XX"])
            .number()
            .unwrap_err();
        assert!(
            e.to_string().contains("\"cs.XX\" is not an arXiv category"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_file_and_keep_their_cause() {
        let e = Input::RecordFile("/nonexistent/r.json".into())
            .number()
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Io(_)));
        assert!(e.to_string().starts_with("/nonexistent/r.json: "), "{e}");
        assert!(std::error::Error::source(&e).is_some());
        let e = Input::Atom {
            path: example("2402.03791v3.atom.xml"),
            id: Some("2401.00001".into()),
        }
        .number()
        .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::NoEntry(_)), "{e}");
        let e = Input::Number("pith:7BMK4ZKT".into()).record().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::NotARecord));
    }
}
