//! Reading the `.ots` format with OpenTimestamps' own limits: a proof file or a calendar's
//! answer, refused as a typed error (never a panic) when it is cut short, malformed or asks
//! for more operations, attestations, blocks, depth or bytes than a proof may.

use super::super::{Error, ErrorKind};
use super::{
    limit, Attestation, HashOp, Op, Proof, Timestamp, BITCOIN_TAG, MAGIC, MAX_ATTESTATIONS,
    MAX_DEPTH, MAX_HEIGHTS, MAX_MSG, MAX_OPS, MAX_PAYLOAD, MAX_PROOF, MAX_URI, PENDING_TAG,
    TAG_ATTESTATION, TAG_FORK, URI_CHARS, VERSION,
};

/// More of something than a proof may hold.
fn over(what: &str, max: usize, why: &str) -> Error {
    ErrorKind::Limit(format!(
        "the proof holds more than {max} {what}, the most pith reads{why}"
    ))
    .into()
}

/// What a proof holds so far, against [`MAX_OPS`], [`MAX_ATTESTATIONS`] and [`MAX_HEIGHTS`].
#[derive(Default)]
struct Held {
    ops: usize,
    attestations: usize,
    /// The different Bitcoin heights claimed (at most [`MAX_HEIGHTS`]).
    heights: Vec<u64>,
}

impl Held {
    fn op(&mut self) -> Result<(), Error> {
        self.ops += 1;
        if self.ops > MAX_OPS {
            return Err(over("operations", MAX_OPS, ""));
        }
        Ok(())
    }

    fn attestation(&mut self, a: &Attestation) -> Result<(), Error> {
        self.attestations += 1;
        if self.attestations > MAX_ATTESTATIONS {
            return Err(over("attestations", MAX_ATTESTATIONS, ""));
        }
        if let Attestation::Bitcoin { height } = a {
            if !self.heights.contains(height) {
                if self.heights.len() == MAX_HEIGHTS {
                    return Err(over(
                        "different Bitcoin blocks",
                        MAX_HEIGHTS,
                        " (a proof claims one block, or one per calendar)",
                    ));
                }
                self.heights.push(*height);
            }
        }
        Ok(())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    held: Held,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from `at`, once they are within a proof's size.
    fn new(bytes: &'a [u8], at: usize) -> Result<Self, Error> {
        if bytes.len() > MAX_PROOF {
            return Err(limit(format!(
                "{} bytes (at most {MAX_PROOF})",
                bytes.len()
            )));
        }
        Ok(Reader {
            bytes,
            at,
            held: Held::default(),
        })
    }

    /// `value`, when nothing is left after what was read.
    fn end<T>(&self, value: T) -> Result<T, Error> {
        match self.bytes.len() - self.at {
            0 => Ok(value),
            n => Err(ErrorKind::Trailing(n).into()),
        }
    }
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(ErrorKind::Truncated(self.bytes.len()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    fn varuint(&mut self) -> Result<u64, Error> {
        let start = self.at;
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ErrorKind::Limit(format!("a number at byte {start} longer than 64 bits")).into())
    }

    fn varbytes(&mut self, min: usize, max: usize, what: &str) -> Result<&[u8], Error> {
        let n = self.varuint()?;
        if n < min as u64 || n > max as u64 {
            return Err(ErrorKind::Limit(format!(
                "{what} of {n} bytes at byte {} (allowed {min} to {max})",
                self.at
            ))
            .into());
        }
        self.take(n as usize)
    }

    fn timestamp(&mut self, depth: usize) -> Result<Timestamp, Error> {
        if depth > MAX_DEPTH {
            return Err(limit(format!("more than {MAX_DEPTH} operations in a row")));
        }
        let mut t = Timestamp::default();
        loop {
            let tag = self.byte()?;
            let more = tag == TAG_FORK;
            let tag = if more { self.byte()? } else { tag };
            self.item(tag, depth, &mut t)?;
            if !more {
                return Ok(t);
            }
        }
    }

    fn item(&mut self, tag: u8, depth: usize, t: &mut Timestamp) -> Result<(), Error> {
        let at = self.at - 1;
        if tag == TAG_ATTESTATION {
            let a = self.attestation()?;
            self.held.attestation(&a)?;
            t.attestations.push(a);
            return Ok(());
        }
        self.held.op()?;
        let op = match tag {
            0xf0 => Op::Append(self.varbytes(1, MAX_MSG, "an argument")?.to_vec()),
            0xf1 => Op::Prepend(self.varbytes(1, MAX_MSG, "an argument")?.to_vec()),
            0xf2 => Op::Reverse,
            0xf3 => Op::Hexlify,
            _ => match HashOp::from_tag(tag) {
                Some(h) => Op::Hash(h),
                None => return Err(ErrorKind::UnknownOp { tag, at }.into()),
            },
        };
        let next = self.timestamp(depth + 1)?;
        t.ops.push((op, next));
        Ok(())
    }

    fn attestation(&mut self) -> Result<Attestation, Error> {
        let tag: [u8; 8] = self.take(8)?.try_into().expect("8 bytes");
        let payload = self.varbytes(0, MAX_PAYLOAD, "an attestation")?;
        let mut p = Reader {
            bytes: payload,
            at: 0,
            held: Held::default(),
        };
        let bad = |kind: &'static str, reason: String| -> Error {
            ErrorKind::BadAttestation { kind, reason }.into()
        };
        let out = match tag {
            BITCOIN_TAG => Attestation::Bitcoin {
                height: p
                    .varuint()
                    .map_err(|e| bad("Bitcoin", format!("height: {e}")))?,
            },
            PENDING_TAG => {
                let uri = p
                    .varbytes(0, MAX_URI, "a calendar URI")
                    .map_err(|e| bad("pending", e.to_string()))?;
                if let Some(c) = uri.iter().find(|c| !URI_CHARS.contains(c)) {
                    return Err(bad("pending", format!("the URI holds the byte 0x{c:02x}")));
                }
                Attestation::Pending {
                    uri: String::from_utf8(uri.to_vec()).expect("ASCII"),
                }
            }
            _ => {
                return Ok(Attestation::Unknown {
                    tag,
                    payload: payload.to_vec(),
                })
            }
        };
        if p.at != payload.len() {
            let kind = match out {
                Attestation::Bitcoin { .. } => "Bitcoin",
                _ => "pending",
            };
            return Err(bad(
                kind,
                format!("{} bytes follow its value", payload.len() - p.at),
            ));
        }
        Ok(out)
    }
}

impl Timestamp {
    /// A calendar's answer: a tree from the message it was asked about, alone (no header).
    ///
    /// # Errors
    /// As [`Proof::parse`].
    pub fn parse(bytes: &[u8]) -> Result<Timestamp, Error> {
        let mut r = Reader::new(bytes, 0)?;
        let t = r.timestamp(0)?;
        r.end(t)
    }
}

impl Proof {
    /// Reads a proof file.
    ///
    /// # Errors
    /// [`ErrorKind::NotAProof`] without the header; [`ErrorKind::Version`],
    /// [`ErrorKind::FileDigestOp`], [`ErrorKind::UnknownOp`], [`ErrorKind::Truncated`],
    /// [`ErrorKind::BadAttestation`], [`ErrorKind::Limit`], [`ErrorKind::Trailing`].
    pub fn parse(bytes: &[u8]) -> Result<Proof, Error> {
        if !bytes.starts_with(MAGIC) {
            return Err(ErrorKind::NotAProof.into());
        }
        let mut r = Reader::new(bytes, MAGIC.len())?;
        let version = r.varuint()?;
        if version != VERSION {
            return Err(ErrorKind::Version(version).into());
        }
        let tag = r.byte()?;
        let hash = HashOp::from_tag(tag).ok_or(ErrorKind::FileDigestOp(tag))?;
        let digest = r.take(hash.digest_len())?.to_vec();
        let timestamp = r.timestamp(0)?;
        r.end(Proof {
            hash,
            digest,
            timestamp,
        })
    }
}
