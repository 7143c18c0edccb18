//! Proofs and headers files read from a path, their sizes checked before they are read: a
//! regular file larger than the limit is refused from its length, and anything else (a
//! device, a pipe) through a reader that stops one byte past the limit. Every front end reads
//! them here, so `/dev/zero` is refused alike by `pith ots` and `pith index --anchors`.

use std::path::Path;

use super::header::MAX_HEADERS_BYTES;
use super::proof::MAX_PROOF;
use super::{Error, ErrorKind, Headers, Proof};

/// Opens `path`, refusing a regular file over `limit` bytes before reading it.
fn open(path: &Path, limit: u64, what: &'static str) -> Result<std::fs::File, Error> {
    let f = std::fs::File::open(path).map_err(ErrorKind::Io)?;
    let meta = f.metadata().map_err(ErrorKind::Io)?;
    if meta.is_file() && meta.len() > limit {
        return Err(ErrorKind::TooLarge { what, limit }.into());
    }
    Ok(f)
}

/// The proof at `path` and its bytes, at most [`MAX_PROOF`] of them.
///
/// # Errors
/// [`ErrorKind::TooLarge`] past [`MAX_PROOF`], [`ErrorKind::Io`], as [`Proof::parse`]. The
/// caller names the file.
pub fn read_proof(path: &Path) -> Result<(Proof, Vec<u8>), Error> {
    Proof::read(open(path, MAX_PROOF as u64, "the proof")?)
}

/// `into` with the headers of the file at `path` added ([`Headers::read`]), at most
/// [`MAX_HEADERS_BYTES`] of it.
///
/// # Errors
/// [`ErrorKind::TooLarge`] past [`MAX_HEADERS_BYTES`], [`ErrorKind::Io`], as
/// [`Headers::read`]. The caller names the file.
pub fn read_headers(path: &Path, into: Headers) -> Result<Headers, Error> {
    into.read(open(path, MAX_HEADERS_BYTES, "the headers file")?)
}
