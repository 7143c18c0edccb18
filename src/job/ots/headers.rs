//! Where the Bitcoin block headers that proofs are checked against come from: a headers file
//! when one is given, else the Bitcoin API [`ENV_BITCOIN_URL`] names, else nowhere. The one
//! rule `pith ots verify` and the index's anchored records (`pith index --anchors`) share,
//! with the reading from each source.

use std::collections::HashSet;
use std::path::Path;

use crate::job::{Error, ErrorKind};
use crate::net::ots::ENV_BITCOIN_URL;
use crate::ots::{Chain, Headers};

/// Where the headers come from ([`HeadersSource::of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeadersSource<'a> {
    /// A headers file (`-`: standard input), read as a stream: only the headers whose merkle
    /// root a proof arrives at are kept.
    File(&'a Path),
    /// The Bitcoin API at this URL ([`ENV_BITCOIN_URL`]), asked for the blocks the proofs
    /// claim.
    Api(String),
    /// Nowhere: each Bitcoin attestation is refused for want of its header.
    Nowhere,
}

impl<'a> HeadersSource<'a> {
    /// The headers file when one is given; else the API [`ENV_BITCOIN_URL`] names, when it is
    /// set and not blank; else nowhere.
    pub fn of(file: Option<&'a Path>) -> HeadersSource<'a> {
        if let Some(f) = file {
            return HeadersSource::File(f);
        }
        match std::env::var(ENV_BITCOIN_URL) {
            Ok(u) if !u.trim().is_empty() => HeadersSource::Api(u.trim().to_owned()),
            _ => HeadersSource::Nowhere,
        }
    }

    /// The headers this source gives for what the proofs claim: of a file, those whose
    /// merkle root is one of `roots`; of the API, those of the blocks at `heights`, asked with
    /// the client `net` gives. Each of the three is asked only when this source needs it, so
    /// reading the proofs (or the network settings) costs nothing where no header comes from.
    ///
    /// # Errors
    /// What `roots`, `heights` or `net` return; the headers file's ([`ErrorKind::Ots`], naming
    /// the file); the client's ([`ErrorKind::Net`]). A block the API cannot give is no error:
    /// it is marked missing ([`crate::net::ots::headers`]).
    pub fn headers<E: From<Error>>(
        &self,
        roots: impl FnOnce() -> Result<HashSet<[u8; 32]>, E>,
        heights: impl FnOnce() -> Result<Vec<u64>, E>,
        net: impl FnOnce() -> Result<crate::net::Settings, E>,
    ) -> Result<Headers, E> {
        match self {
            HeadersSource::File(path) => {
                let keep = Headers::keeping(Chain::Main, roots()?);
                let read = if crate::output::is_stdio(path) {
                    keep.read(std::io::stdin().lock())
                } else {
                    crate::ots::file::read_headers(path, keep)
                };
                read.map_err(|e| Error::new(ErrorKind::Ots(e)).in_file(path).into())
            }
            HeadersSource::Api(url) => {
                let client = crate::net::Client::new(&net()?)
                    .map_err(|e| Error::new(ErrorKind::Net(Box::new(e))))?;
                Ok(crate::net::ots::headers(&client, url, &heights()?))
            }
            HeadersSource::Nowhere => Ok(Headers::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_given_is_the_source_and_only_what_it_needs_is_asked() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("h.hex");
        std::fs::write(&f, "# no header yet\n").unwrap();
        let source = HeadersSource::of(Some(&f));
        assert_eq!(source, HeadersSource::File(&f));
        let never = || -> Result<Vec<u64>, Error> { panic!("a file asks no API") };
        let no_net = || -> Result<crate::net::Settings, Error> { panic!("a file needs no client") };
        let e = source
            .headers(|| Ok(HashSet::new()), never, no_net)
            .unwrap_err();
        // Holding no header, the file is refused, named.
        assert_eq!(e.path(), Some(f.as_path()), "{e}");
        assert!(matches!(e.kind(), ErrorKind::Ots(_)), "{e}");
        // Nowhere asks nothing, and gives no header.
        let h = HeadersSource::Nowhere
            .headers(
                || -> Result<_, Error> { panic!("no roots needed") },
                never,
                no_net,
            )
            .unwrap();
        assert!(h.is_empty());
    }
}
