//! The verdict on a proof: whether it starts from the digest asked about, whether every
//! header given carries its proof of work, and which Bitcoin attestation a header bears out;
//! else pending (a calendar still holds it) or refused, with the reason.

use serde::Serialize;

use super::header::{display, Headers};
use super::proof::{Attestation, HashOp, Proof};
use super::Error;

/// What the proof must start from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// This digest, made by the proof's own hash (a file's, hashed with it).
    Digest(Vec<u8>),
    /// The SHA-256 a Pith Number is made from: the 26 characters of the number's code must be
    /// the base32 of the proof's digest (130 bits of it, all the number holds).
    Code(String),
}

impl Expected {
    /// What a record's proof starts from: the SHA-256 of its canonical bytes, the digest its
    /// number is made from.
    pub fn record(record: &crate::record::Record) -> Expected {
        Expected::Digest(record.digest().to_vec())
    }

    /// What a number's proof starts from: a SHA-256 whose base32 begins with the number's
    /// 26 characters.
    pub fn number(number: &crate::number::PithNumber) -> Expected {
        Expected::Code(number.code().to_owned())
    }

    /// The digest of a file's bytes as `proof` hashes its file.
    pub fn file(proof: &Proof, bytes: &[u8]) -> Expected {
        Expected::Digest(proof.hash.apply(bytes))
    }

    /// The digest of what `r` holds as `proof` hashes its file, read as a stream.
    ///
    /// # Errors
    /// `r`'s own.
    pub fn file_from(proof: &Proof, r: impl std::io::Read) -> std::io::Result<Expected> {
        Ok(Expected::Digest(proof.hash.apply_reader(r)?))
    }
}

/// A block that bears a proof out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Anchor {
    /// The block height: the node's when the headers came from one, else the proof's claim
    /// (a header does not hold its height).
    pub height: u64,
    /// The header's time, seconds since the Unix epoch.
    pub time: u32,
    /// The header's time, `2015-05-28T15:41:18Z`.
    pub time_utc: String,
    /// The block hash as explorers write it.
    pub block_hash: String,
    /// The merkle root as explorers write it.
    pub merkle_root: String,
}

/// Why a proof is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Refusal {
    /// Occurs when the proof starts from another digest than the one asked about.
    #[error("the proof is for {proof}, not {given}")]
    OtherDigest {
        /// The proof's digest (hex).
        proof: String,
        /// The digest asked about (hex), or the number's code.
        given: String,
    },
    /// Occurs when a header given does not carry the proof of work its own `bits` ask for.
    #[error("block header {block_hash} fails its proof of work (its hash is above its target)")]
    HeaderWork {
        /// The header's hash as explorers write it.
        block_hash: String,
    },
    /// Occurs when the proof claims a block whose header, among those given, does not have
    /// the merkle root the proof arrives at.
    #[error("the proof arrives at merkle root {merkle_root} for block {height}, which no header given has")]
    EndsElsewhere {
        /// The block the proof claims.
        height: u64,
        /// The message it arrives at, as explorers write a merkle root.
        merkle_root: String,
    },
    /// Occurs when the proof claims a Bitcoin block and no header was given to check it.
    #[error("no block headers were given to check block {height} against")]
    NoHeaders {
        /// The block the proof claims.
        height: u64,
    },
    /// Occurs when the proof claims a Bitcoin block whose header the Bitcoin API could not
    /// give (no such block, a failed request), and no header given bears the proof out.
    #[error("the header of block {height} could not be had: {why}")]
    Unavailable {
        /// The block the proof claims.
        height: u64,
        /// Why the API did not give it.
        why: String,
    },
    /// Occurs when the proof holds neither a Bitcoin nor a pending attestation.
    #[error("the proof has no Bitcoin or pending attestation pith can check")]
    NoAttestation,
}

/// The verdict on a proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Verdict {
    /// A header given, carrying its proof of work, has the merkle root the proof arrives at.
    Anchored(Anchor),
    /// No Bitcoin attestation yet: calendars hold the proof's commitments.
    Pending {
        /// The calendars named.
        calendars: Vec<String>,
    },
    /// Refused.
    Refused(Refusal),
}

/// Checks `proof` against `expected` and `headers`.
///
/// The proof must start from the digest expected; every header given must carry its own
/// proof of work; then the first Bitcoin attestation (lowest height) whose message is a
/// given header's merkle root (at that height, when the header's height is known) anchors
/// the proof. A Bitcoin attestation no header bears out refuses it (saying why when its
/// block could not be had); with none, pending attestations make it pending. The work is
/// one replay of the proof and one lookup per attestation, whatever the number of headers.
///
/// # Errors
/// The proof's own errors while it is evaluated ([`Proof::reached`]).
pub fn check(proof: &Proof, expected: &Expected, headers: &Headers) -> Result<Verdict, Error> {
    let given = match expected {
        Expected::Digest(d) if *d == proof.digest => None,
        Expected::Digest(d) => Some(crate::number::hex(d)),
        Expected::Code(code) => {
            let ours = (proof.hash == HashOp::Sha256)
                .then(|| <[u8; 32]>::try_from(proof.digest.as_slice()).ok())
                .flatten()
                .map(|d| crate::number::code_of_digest(&d));
            (ours.as_deref() != Some(code.as_str())).then(|| code.clone())
        }
    };
    if let Some(given) = given {
        return Ok(Verdict::Refused(Refusal::OtherDigest {
            proof: crate::number::hex(&proof.digest),
            given,
        }));
    }
    if let Some(h) = headers.without_work() {
        return Ok(Verdict::Refused(Refusal::HeaderWork {
            block_hash: h.hash_hex(),
        }));
    }
    let reached = proof.reached()?;
    let mut bitcoin: Vec<(u64, &[u8])> = reached
        .iter()
        .filter_map(|r| match r.attestation {
            Attestation::Bitcoin { height } => Some((*height, r.message.as_slice())),
            _ => None,
        })
        .collect();
    // Stable: at one height, the order of the file.
    bitcoin.sort_by_key(|(h, _)| *h);
    for (height, msg) in &bitcoin {
        // Looked up by root and height: the work is one lookup per attestation (a proof holds
        // at most MAX_ATTESTATIONS), however many headers were given.
        if let Some(h) = headers.find(*height, msg) {
            return Ok(Verdict::Anchored(Anchor {
                height: *height,
                time: h.time(),
                time_utc: utc(h.time()),
                block_hash: h.hash_hex(),
                merkle_root: display(&h.merkle_root()),
            }));
        }
    }
    if let Some((height, msg)) = bitcoin.first() {
        if let Some(why) = headers.missing(*height) {
            return Ok(Verdict::Refused(Refusal::Unavailable {
                height: *height,
                why: why.to_owned(),
            }));
        }
        if headers.is_empty() {
            return Ok(Verdict::Refused(Refusal::NoHeaders { height: *height }));
        }
        let merkle_root = match <[u8; 32]>::try_from(*msg) {
            Ok(m) => display(&m),
            Err(_) => crate::number::hex(msg),
        };
        return Ok(Verdict::Refused(Refusal::EndsElsewhere {
            height: *height,
            merkle_root,
        }));
    }
    let calendars: Vec<String> = reached
        .iter()
        .filter_map(|r| match r.attestation {
            Attestation::Pending { uri } => Some(uri.clone()),
            _ => None,
        })
        .collect();
    if calendars.is_empty() {
        return Ok(Verdict::Refused(Refusal::NoAttestation));
    }
    Ok(Verdict::Pending { calendars })
}

/// Seconds since the Unix epoch as `2015-05-28T15:41:18Z`.
pub fn utc(secs: u32) -> String {
    chrono::DateTime::from_timestamp(i64::from(secs), 0)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

impl Anchor {
    /// The sentence a front end prints: `anchored in Bitcoin block 358391 at 2015-05-28
    /// 15:41:18 (UTC)`.
    pub fn sentence(&self) -> String {
        format!(
            "anchored in Bitcoin block {} at {} (UTC)",
            self.height,
            self.time_utc.replace('T', " ").trim_end_matches('Z')
        )
    }
}
