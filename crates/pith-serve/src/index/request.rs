//! What `pith index` is asked ([`IndexRequest`]): the index file, the inputs it is built
//! from and how, each the library's default when left out, checked once
//! ([`IndexRequest::validate`]) before anything is read or written.

use std::path::{Path, PathBuf};

use pith::job::{self, Error, ErrorKind};
use serde::{Deserialize, Serialize};

use super::BuildOptions;

/// A build of an index, as a door was given it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRequest {
    /// The index file to build or update.
    pub output: Option<PathBuf>,
    /// arXiv's metadata snapshot files.
    pub arxiv_snapshot: Vec<PathBuf>,
    /// OAI-PMH ListRecords pages in arXivRaw.
    pub arxiv_oai: Vec<PathBuf>,
    /// Folders of records.
    pub records: Vec<PathBuf>,
    /// Folders of bundles.
    pub bundles: Vec<PathBuf>,
    /// Folders of OpenTimestamps proofs.
    pub anchors: Vec<PathBuf>,
    /// The Bitcoin headers the proofs are checked against.
    pub headers: Option<PathBuf>,
    /// Folders of Internet Archive captures.
    pub captures: Vec<PathBuf>,
    /// The lines `pith refs` wrote.
    pub refs: Vec<PathBuf>,
    /// Keys whose receipt signatures make a record verified, as given.
    pub key: Vec<String>,
    /// Forget the keys the index trusted before.
    pub drop_keys: bool,
    /// Start from an empty index.
    pub fresh: bool,
    /// Stop at the first input that cannot be indexed.
    pub strict: bool,
    /// Worker threads computing numbers ([`job::pass_threads`] when left out).
    pub jobs: Option<usize>,
}

impl IndexRequest {
    /// Refuses a build without its index file, one with nothing to index, an index file that
    /// is a folder or standard output, and headers without the proofs they check.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] with the sentence of the first contradiction.
    ///
    /// # Examples
    /// ```
    /// use pith_serve::index::request::IndexRequest;
    /// let r = IndexRequest { records: vec!["records/".into()], ..Default::default() };
    /// assert!(r.validate().is_err());
    /// assert!(IndexRequest { output: Some("a.pith-index".into()), ..r }.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let refuse = |m: &str| Err(Error::new(ErrorKind::Request(m.into())));
        let Some(out) = &self.output else {
            return refuse("give the index file to build or update (-o INDEX)");
        };
        let inputs = [
            &self.arxiv_snapshot,
            &self.arxiv_oai,
            &self.records,
            &self.bundles,
            &self.anchors,
            &self.captures,
            &self.refs,
        ];
        if inputs.iter().all(|i| i.is_empty()) && self.key.is_empty() && !self.drop_keys {
            return refuse("nothing to index: give --arxiv-snapshot, --arxiv-oai, --records, --bundles, --anchors, --captures or --refs (or --key, --drop-keys to change the keys an index trusts)");
        }
        if self.headers.is_some() && self.anchors.is_empty() {
            return refuse(
                "Bitcoin headers check proofs: give the folder of proofs (--anchors) they check",
            );
        }
        if pith::output::is_stdio(out) {
            return Err(Error::new(ErrorKind::Request(
                "an index is a file pith serve reads, not a stream: give its file".into(),
            ))
            .in_file(out));
        }
        job::outputs::not_a_folder(out, "the index")
    }

    /// The index file (after [`IndexRequest::validate`]; empty before).
    pub fn index_file(&self) -> &Path {
        self.output.as_deref().unwrap_or(Path::new(""))
    }

    /// Makes the missing folders above the index file, as every writer makes them.
    ///
    /// # Errors
    /// As [`job::outputs::ready_file`].
    pub fn ready(&self) -> Result<(), Error> {
        job::outputs::ready_file(self.index_file(), "the index")
    }

    /// The keys the index trusts: the registry key, those given, and those `PITH_KEYS` pins
    /// ([`job::run_keys`]), as at every other door; kept in the index as `--key`'s are.
    ///
    /// # Errors
    /// What [`job::read_key`] refuses, naming the key as given (or `PITH_KEYS`).
    pub fn keys(&self) -> Result<Vec<pith::verify::Key>, Error> {
        let given = self
            .key
            .iter()
            .map(|k| job::read_key(k).map_err(|e| e.in_file(Path::new(k))))
            .collect::<Result<Vec<_>, _>>()?;
        job::run_keys(&given)
    }

    /// How the build runs.
    pub fn options(&self) -> BuildOptions {
        BuildOptions {
            threads: job::pass_threads(self.jobs),
            strict: self.strict,
            fresh: self.fresh,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_contradiction_is_refused_once_and_the_request_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let ok = IndexRequest {
            output: Some(dir.path().join("new/x.pith-index")),
            records: vec![dir.path().to_owned()],
            ..Default::default()
        };
        ok.validate().unwrap();
        let bad = [
            IndexRequest {
                output: None,
                ..ok.clone()
            },
            IndexRequest {
                records: Vec::new(),
                ..ok.clone()
            },
            IndexRequest {
                headers: Some("h.bin".into()),
                ..ok.clone()
            },
            IndexRequest {
                output: Some("-".into()),
                ..ok.clone()
            },
            IndexRequest {
                output: Some(dir.path().to_owned()),
                ..ok.clone()
            },
        ];
        let mut sentences = std::collections::BTreeSet::new();
        for b in &bad {
            let e = b.validate().unwrap_err();
            assert_eq!(e.kind_of(), job::ErrorCode::Request, "{e}");
            sentences.insert(e.to_string());
        }
        assert_eq!(sentences.len(), bad.len(), "{sentences:?}");
        ok.ready().unwrap();
        assert!(dir.path().join("new").is_dir());
        let json = serde_json::to_string(&ok).unwrap();
        assert_eq!(serde_json::from_str::<IndexRequest>(&json).unwrap(), ok);
    }
}
