//! The extractors that read what a path names, through the library's own readers: a number or
//! short alias ([`Named`], by [`NumberRef::parse_segment`]) and an arXiv id ([`ArxivPath`], by
//! [`ArxivId::parse`]), each with the file suffix it ends in. A path they cannot read is an
//! [`Error`] (400 for a path that is not text, 404 for one that names nothing).

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use pith::net::ArxivId;
use pith::number::NumberRef;

use crate::error::Error;
use crate::http::negotiate::Media;

/// The file suffixes a path may end in, longest first, and the representation each names.
pub const SUFFIXES: [(&str, Media); 5] = [
    (".csl.json", Media::CslJson),
    (".json", Media::Json),
    (".bib", Media::Bibtex),
    (".ris", Media::Ris),
    (".svg", Media::Svg),
];

/// The suffix of a representation (`""` for none).
pub fn suffix(file: Option<Media>) -> &'static str {
    SUFFIXES
        .iter()
        .find(|(_, m)| Some(*m) == file)
        .map_or("", |(s, _)| s)
}

/// `segment` without its file suffix, and the representation the suffix names.
fn split(segment: &str) -> (&str, Option<Media>) {
    SUFFIXES
        .iter()
        .find_map(|(s, m)| segment.strip_suffix(s).map(|stem| (stem, Some(*m))))
        .unwrap_or((segment, None))
}

/// The one path parameter of the route, percent-decoded.
async fn param<S: Send + Sync>(parts: &mut Parts, state: &S) -> Result<String, Error> {
    Path::<String>::from_request_parts(parts, state)
        .await
        .map(|Path(p)| p)
        .map_err(|_| Error::bad_path())
}

/// A record named by a path segment: `<26>` or `<8|12|16>` characters, any case, then a file
/// suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The number or short alias.
    pub number: NumberRef,
    /// Whether the segment was written as the number is (upper case); other spellings are
    /// sent on to that one.
    pub canonical: bool,
    /// The representation the suffix names, if any.
    pub file: Option<Media>,
}

impl Named {
    /// Reads a path segment.
    ///
    /// # Errors
    /// A 404 saying why the segment is not a number.
    pub fn parse(segment: &str) -> Result<Named, Error> {
        let (stem, file) = split(segment);
        let number = NumberRef::parse_segment(stem).map_err(|e| {
            Error::not_found(format!(
                "not a Pith Number: /pith/ takes its 26 characters (A-Z, 2-7) or a short alias of 8, 12 or 16 ({e})"
            ))
        })?;
        let canonical = match &number {
            NumberRef::Full(n) => n.code() == stem,
            NumberRef::Alias(a) => a.prefix() == stem,
        };
        Ok(Named {
            number,
            canonical,
            file,
        })
    }

    /// The 26 characters, when the segment is a whole number written as it is.
    ///
    /// # Errors
    /// A 404 for a short alias or another spelling (upper case is the only one these paths
    /// take).
    pub fn exact_code(&self) -> Result<&str, Error> {
        match &self.number {
            NumberRef::Full(n) if self.canonical => Ok(n.code()),
            _ => Err(Error::not_found(
                "not a Pith Number of 26 upper-case characters",
            )),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Named {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        Named::parse(&param(parts, state).await?)
    }
}

/// An arXiv paper named by the path, with its version when one is given, then a file suffix
/// (`/arxiv/2402.03791v3`, `/badge/arxiv/hep-th/9901001.svg`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArxivPath {
    /// The paper.
    pub id: ArxivId,
    /// The representation the suffix names, if any.
    pub file: Option<Media>,
}

impl ArxivPath {
    /// Reads a path.
    ///
    /// # Errors
    /// A 404 saying what an arXiv id looks like.
    pub fn parse(path: &str) -> Result<ArxivPath, Error> {
        let (stem, file) = split(path);
        let id = ArxivId::parse(stem).map_err(|_| {
            Error::not_found(
                "not an arXiv id (YYMM.NNNNN or archive/YYMMNNN, with vN for a version)",
            )
        })?;
        Ok(ArxivPath { id, file })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ArxivPath {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        ArxivPath::parse(&param(parts, state).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_read_by_the_library() {
        let code = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
        let n = Named::parse(&format!("{code}.csl.json")).unwrap();
        assert_eq!(n.file, Some(Media::CslJson));
        assert_eq!(n.exact_code().unwrap(), code);
        let n = Named::parse(&code.to_lowercase()).unwrap();
        assert!(!n.canonical && n.file.is_none() && n.exact_code().is_err());
        let n = Named::parse("7BMK4ZKT").unwrap();
        assert!(matches!(n.number, NumberRef::Alias(_)) && n.canonical);
        for bad in [
            "",
            "7BMK",
            "pith:7BMK4ZKT",
            "..",
            "7BMK4ZKTPUTUY3JKWBANNPOFR1",
        ] {
            assert_eq!(
                Named::parse(bad).unwrap_err().status(),
                axum::http::StatusCode::NOT_FOUND,
                "{bad}"
            );
        }
        assert_eq!(suffix(Some(Media::Bibtex)), ".bib");
        assert_eq!(suffix(None), "");
        let p = ArxivPath::parse("math/0406128v1.svg").unwrap();
        assert_eq!(
            (p.id.id(), p.id.version(), p.file),
            ("math/0406128", Some(1), Some(Media::Svg))
        );
        assert!(ArxivPath::parse("2402.3791").is_err());
    }
}
