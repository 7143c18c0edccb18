//! OpenTimestamps proofs, checked offline against Bitcoin block headers.
//!
//! An OpenTimestamps proof (`.ots`) shows that a digest existed by a time: starting from the
//! digest, a tree of operations (append, prepend, hashes) arrives at messages, each carrying
//! an attestation. A Bitcoin attestation says "this message is the merkle root of block H";
//! a pending one names the calendar that will complete the proof once the calendar's
//! transaction is mined.
//!
//! This module owns the format ([`proof`]: reading and writing `.ots` files, evaluating the
//! operation tree, merging a calendar's answer into a proof), the block headers
//! ([`header`]: 80 bytes, double SHA-256, the compact target) and the verdict ([`check()`]):
//! which attestation the headers given bear out, whether the proof starts from the digest
//! asked about, and why a proof is refused. Its only I/O is reading a proof or a headers file
//! ([`mod@file`]), bounded before it is read, so that every front end reads them alike; it never
//! talks to a calendar or a node: the network is the `net` module's (`net::ots`).
//!
//! Bounded by construction: a proof is at most [`proof::MAX_PROOF`] bytes, holds at most
//! [`proof::MAX_OPS`] operations, [`proof::MAX_ATTESTATIONS`] attestations and
//! [`proof::MAX_HEIGHTS`] different Bitcoin blocks; a headers file at most
//! [`header::MAX_HEADERS_BYTES`] and [`header::MAX_HEADERS`] headers, read as a stream and
//! looked up by merkle root and height, so checking a proof costs one replay of it and one
//! lookup per attestation.
//!
//! Its own parser rather than the `opentimestamps` crate: that crate (MIT/Apache-2.0) parses
//! and replays proofs but checks no header, writes no merged proof, bounds neither the work a
//! proof may ask for nor its depth by the reference's rules, and brings `env_logger` and
//! `bitcoin_hashes` for what is a few hundred lines here on the `sha2` pith already uses.

pub mod check;
pub mod file;
pub mod header;
mod merge;
pub mod proof;

pub use check::{check, Anchor, Expected, Refusal, Verdict};
pub use header::{BlockHeader, Chain, Headers};
pub use proof::{Attestation, Op, Proof, Timestamp};

kind_error! {
    /// An error reading a proof or block headers.
}

/// What is wrong with a proof or a headers file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when the bytes do not start with OpenTimestamps' proof header.
    #[error("not an OpenTimestamps proof (no OpenTimestamps header)")]
    NotAProof,
    /// Occurs when the proof's major version is not 1, the only one defined.
    #[error("OpenTimestamps proof version {0} is not supported (only version 1 is)")]
    Version(u64),
    /// Occurs when the proof ends in the middle of an item.
    #[error("the proof is cut short at byte {0}")]
    Truncated(usize),
    /// Occurs when an operation tag is not one OpenTimestamps defines.
    #[error("unknown operation 0x{tag:02x} at byte {at}")]
    UnknownOp {
        /// The tag byte.
        tag: u8,
        /// Its offset in the file.
        at: usize,
    },
    /// Occurs when the file's digest is not made by a hash operation.
    #[error("the file digest's operation 0x{0:02x} is not a hash")]
    FileDigestOp(u8),
    /// Occurs when a length, a message or the nesting exceeds OpenTimestamps' own limits
    /// (4096-byte messages and arguments, 8192-byte attestations, 256 operations deep), the
    /// proof holds more than [`proof::MAX_OPS`] operations, [`proof::MAX_ATTESTATIONS`]
    /// attestations or [`proof::MAX_HEIGHTS`] different Bitcoin blocks, or evaluating it would
    /// take more work than [`proof::MAX_WORK`].
    #[error("{0}")]
    Limit(String),
    /// Occurs when an attestation's payload does not hold what its kind says.
    #[error("bad {kind} attestation: {reason}")]
    BadAttestation {
        /// The attestation's kind.
        kind: &'static str,
        /// Why.
        reason: String,
    },
    /// Occurs when bytes follow the end of the proof.
    #[error("{0} bytes follow the end of the proof")]
    Trailing(usize),
    /// Occurs when a headers file is neither 80-byte headers nor lines of 160 hex digits, or
    /// holds more than [`header::MAX_HEADERS`].
    #[error("{0}")]
    Headers(String),
    /// Occurs when a proof, a calendar's answer or a headers file is larger than pith reads
    /// ([`proof::MAX_PROOF`], [`header::MAX_HEADERS_BYTES`]); it is refused before it is read
    /// whole.
    #[error("{what} is larger than {}, the most pith reads", size(*.limit))]
    TooLarge {
        /// What: `the proof`, `the headers file`.
        what: &'static str,
        /// The limit, in bytes.
        limit: u64,
    },
    /// Occurs when a proof or headers cannot be read.
    #[error("cannot be read")]
    Io(#[source] std::io::Error),
}

/// A size as people read it: `1 MiB`, `400 MB`, `5000 bytes`.
pub fn size(n: u64) -> String {
    match n {
        n if n >= 1 << 20 && n.is_multiple_of(1 << 20) => format!("{} MiB", n >> 20),
        n if n >= 1_000_000 && n.is_multiple_of(1_000_000) => format!("{} MB", n / 1_000_000),
        n => format!("{n} bytes"),
    }
}

/// Reads all of `r` when it holds at most `limit` bytes, through [`crate::bounded::read_all`]:
/// no more than `limit` + 1 bytes of it are read otherwise, so a device or a pipe that never
/// ends is refused at once.
///
/// # Errors
/// [`ErrorKind::TooLarge`] (naming `what`) past `limit`; [`ErrorKind::Io`].
pub fn read_bounded(
    r: impl std::io::Read,
    limit: u64,
    what: &'static str,
) -> Result<Vec<u8>, Error> {
    let bounds = crate::bounded::Bounds {
        bytes: limit,
        ..Default::default()
    };
    crate::bounded::read_all(r, &bounds).map_err(|e| match e.kind() {
        crate::bounded::ErrorKind::Bytes(_) => ErrorKind::TooLarge { what, limit }.into(),
        _ => ErrorKind::Io(e.into()).into(),
    })
}
