//! The `.ots` format's model: the header's constants and OpenTimestamps' limits, the file's
//! digest, the tree of operations and its attestations, and evaluating the tree from the
//! digest to each attestation's message. Reading the bytes is `decode`'s, writing them
//! `encode`'s, and merging a calendar's answer into a proof the `merge` module's.

mod decode;
mod encode;

use sha2::Digest as _;

use super::{Error, ErrorKind};

/// The first bytes of every proof file.
pub const MAGIC: &[u8] = b"\x00OpenTimestamps\x00\x00Proof\x00\xbf\x89\xe2\xe8\x84\xe8\x92\x94";
/// The one major version defined.
pub const VERSION: u64 = 1;
/// The longest message an operation may take or give, and the longest argument (the
/// reference implementation's limit).
pub const MAX_MSG: usize = 4096;
/// The longest attestation payload.
pub const MAX_PAYLOAD: usize = 8192;
/// The longest calendar URI in a pending attestation.
pub const MAX_URI: usize = 1000;
/// How many operations deep a proof may nest (the reference's recursion limit).
pub const MAX_DEPTH: usize = 256;
/// The most bytes the operations of one proof may hash or copy when it is evaluated: a
/// proof of a few kilobytes needs a few hundred kilobytes; a crafted one may not ask for
/// gigabytes.
pub const MAX_WORK: usize = 64 << 20;
/// The largest proof read (real ones are a few kilobytes; a proof of many files stays far
/// below). A proof, or a calendar's answer, is read through a reader that stops one byte past
/// it, so a larger file, a device or a pipe is refused without being read.
pub const MAX_PROOF: usize = 1 << 20;
/// The most operations a proof may hold. A proof completed by four calendars holds a few
/// hundred (each calendar's tree and the Bitcoin transaction's merkle path); the limit bounds
/// the memory a proof's tree takes and the work of replaying it.
pub const MAX_OPS: usize = 4096;
/// The most attestations a proof may hold (a real one holds one per calendar: a pending and,
/// once complete, a Bitcoin attestation each). Each is checked with the message it is on, so
/// the limit bounds the messages held while a proof is checked.
pub const MAX_ATTESTATIONS: usize = 256;
/// The most different Bitcoin blocks a proof may claim. A real proof claims one, or one per
/// calendar whose transaction went into another block; each block claimed may cost a request
/// for its header when the headers come from a node.
pub const MAX_HEIGHTS: usize = 16;

const TAG_ATTESTATION: u8 = 0x00;
const TAG_FORK: u8 = 0xff;
const BITCOIN_TAG: [u8; 8] = [0x05, 0x88, 0x96, 0x0d, 0x73, 0xd7, 0x19, 0x01];
const PENDING_TAG: [u8; 8] = [0x83, 0xdf, 0xe3, 0x0d, 0x2e, 0xf9, 0x0c, 0x8e];
/// The characters OpenTimestamps allows in a calendar URI.
const URI_CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._/:";

/// A hash operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashOp {
    /// SHA-1 (tag 0x02).
    Sha1,
    /// RIPEMD-160 (tag 0x03).
    Ripemd160,
    /// SHA-256 (tag 0x08).
    Sha256,
    /// Keccak-256, as Ethereum's (tag 0x67).
    Keccak256,
}

impl HashOp {
    fn from_tag(tag: u8) -> Option<HashOp> {
        Some(match tag {
            0x02 => HashOp::Sha1,
            0x03 => HashOp::Ripemd160,
            0x08 => HashOp::Sha256,
            0x67 => HashOp::Keccak256,
            _ => return None,
        })
    }

    fn tag(self) -> u8 {
        match self {
            HashOp::Sha1 => 0x02,
            HashOp::Ripemd160 => 0x03,
            HashOp::Sha256 => 0x08,
            HashOp::Keccak256 => 0x67,
        }
    }

    /// The digest's length in bytes.
    pub fn digest_len(self) -> usize {
        match self {
            HashOp::Sha1 | HashOp::Ripemd160 => 20,
            HashOp::Sha256 | HashOp::Keccak256 => 32,
        }
    }

    /// The name OpenTimestamps gives it (`sha256`).
    pub fn name(self) -> &'static str {
        match self {
            HashOp::Sha1 => "sha1",
            HashOp::Ripemd160 => "ripemd160",
            HashOp::Sha256 => "sha256",
            HashOp::Keccak256 => "keccak256",
        }
    }

    /// The digest of what `r` holds, read as a stream (a file of any size costs a buffer).
    ///
    /// # Errors
    /// `r`'s own.
    pub fn apply_reader(self, mut r: impl std::io::Read) -> std::io::Result<Vec<u8>> {
        fn run<D: sha2::Digest>(mut d: D, r: &mut impl std::io::Read) -> std::io::Result<Vec<u8>> {
            let mut buf = vec![0u8; 64 << 10];
            loop {
                match r.read(&mut buf) {
                    Ok(0) => return Ok(d.finalize().to_vec()),
                    Ok(n) => d.update(&buf[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        match self {
            HashOp::Sha1 => run(sha1::Sha1::new(), &mut r),
            HashOp::Ripemd160 => run(ripemd::Ripemd160::new(), &mut r),
            HashOp::Sha256 => run(sha2::Sha256::new(), &mut r),
            HashOp::Keccak256 => run(sha3::Keccak256::new(), &mut r),
        }
    }

    /// The digest of `data`.
    pub fn apply(self, data: &[u8]) -> Vec<u8> {
        match self {
            HashOp::Sha1 => sha1::Sha1::digest(data).to_vec(),
            HashOp::Ripemd160 => ripemd::Ripemd160::digest(data).to_vec(),
            HashOp::Sha256 => sha2::Sha256::digest(data).to_vec(),
            HashOp::Keccak256 => sha3::Keccak256::digest(data).to_vec(),
        }
    }
}

/// An operation on the message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Op {
    /// Appends the bytes (tag 0xf0).
    Append(Vec<u8>),
    /// Prepends the bytes (tag 0xf1).
    Prepend(Vec<u8>),
    /// Reverses the bytes (tag 0xf2; deprecated by OpenTimestamps, still read).
    Reverse,
    /// Writes the message as lowercase hex (tag 0xf3).
    Hexlify,
    /// Hashes the message.
    Hash(HashOp),
}

impl Op {
    /// The message after the operation.
    ///
    /// # Errors
    /// [`ErrorKind::Limit`] when the message or the result is longer than [`MAX_MSG`], or the
    /// message is empty for an operation that needs one.
    pub fn apply(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        if msg.len() > MAX_MSG {
            return Err(limit(format!(
                "a message of {} bytes (at most {MAX_MSG})",
                msg.len()
            )));
        }
        let out = match self {
            Op::Append(a) => [msg, a].concat(),
            Op::Prepend(a) => [a, msg].concat(),
            Op::Reverse | Op::Hexlify if msg.is_empty() => {
                return Err(limit("an empty message to reverse or hexlify".into()))
            }
            Op::Reverse => msg.iter().rev().copied().collect(),
            Op::Hexlify => crate::number::hex(msg).into_bytes(),
            Op::Hash(h) => h.apply(msg),
        };
        if out.len() > MAX_MSG {
            return Err(limit(format!(
                "a result of {} bytes (at most {MAX_MSG})",
                out.len()
            )));
        }
        Ok(out)
    }
}

/// What an attestation says of the message it sits on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Attestation {
    /// The message is the merkle root of Bitcoin block `height`, in the header's own byte
    /// order.
    Bitcoin {
        /// The block height the proof claims.
        height: u64,
    },
    /// A calendar holds the message and will complete the proof once its transaction is
    /// mined.
    Pending {
        /// The calendar's URL.
        uri: String,
    },
    /// An attestation pith does not know (another chain, a future kind); never checked.
    Unknown {
        /// Its 8-byte tag.
        tag: [u8; 8],
        /// Its payload.
        payload: Vec<u8>,
    },
}

/// A node of the tree: the attestations on its message and the operations leading on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timestamp {
    /// Attestations on this node's message.
    pub attestations: Vec<Attestation>,
    /// Operations from this node's message, each to its own node.
    pub ops: Vec<(Op, Timestamp)>,
}

/// A proof file: the digest it starts from and the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    /// How the file's digest was made.
    pub hash: HashOp,
    /// The digest the proof starts from.
    pub digest: Vec<u8>,
    /// The tree from the digest.
    pub timestamp: Timestamp,
}

/// An attestation reached from the digest, with the message it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached<'a> {
    /// The message the operations arrive at.
    pub message: Vec<u8>,
    /// The attestation on it.
    pub attestation: &'a Attestation,
}

pub(super) fn limit(what: String) -> Error {
    ErrorKind::Limit(format!("the proof asks for {what}")).into()
}

impl Timestamp {
    /// Whether a Bitcoin attestation is anywhere in the tree.
    pub fn has_bitcoin(&self) -> bool {
        self.attestations
            .iter()
            .any(|a| matches!(a, Attestation::Bitcoin { .. }))
            || self.ops.iter().any(|(_, t)| t.has_bitcoin())
    }

    /// Every attestation with the message the operations arrive at, from `msg`, in the
    /// order of the file.
    ///
    /// # Errors
    /// [`ErrorKind::Limit`] when an operation's message or result is too long, or the whole
    /// takes more than [`MAX_WORK`] bytes of work.
    pub fn reached(&self, msg: &[u8]) -> Result<Vec<Reached<'_>>, Error> {
        let mut out = Vec::new();
        let mut work = 0;
        self.walk(msg, &mut work, &mut out)?;
        Ok(out)
    }

    fn walk<'a>(
        &'a self,
        msg: &[u8],
        work: &mut usize,
        out: &mut Vec<Reached<'a>>,
    ) -> Result<(), Error> {
        for a in &self.attestations {
            out.push(Reached {
                message: msg.to_vec(),
                attestation: a,
            });
        }
        for (op, next) in &self.ops {
            *work += msg.len() + 64;
            if *work > MAX_WORK {
                return Err(limit(format!("more than {MAX_WORK} bytes of hashing")));
            }
            next.walk(&op.apply(msg)?, work, out)?;
        }
        Ok(())
    }
}

impl Proof {
    /// A proof of `digest` (a SHA-256) with `timestamp` as its tree.
    pub fn new(digest: [u8; 32], timestamp: Timestamp) -> Proof {
        Proof {
            hash: HashOp::Sha256,
            digest: digest.to_vec(),
            timestamp,
        }
    }

    /// Reads a proof from `r`, at most [`MAX_PROOF`] bytes of it: a longer file, a device or a
    /// pipe that goes on is refused after [`MAX_PROOF`] + 1 bytes, never read whole. Returns
    /// the proof and its bytes.
    ///
    /// # Errors
    /// [`ErrorKind::TooLarge`] past [`MAX_PROOF`]; [`ErrorKind::Io`]; as [`Proof::parse`].
    pub fn read(r: impl std::io::Read) -> Result<(Proof, Vec<u8>), Error> {
        let bytes = super::read_bounded(r, MAX_PROOF as u64, "the proof")?;
        Ok((Proof::parse(&bytes)?, bytes))
    }

    /// The merkle roots the proof's Bitcoin attestations arrive at: the block headers worth
    /// keeping when headers are read to check it.
    ///
    /// # Errors
    /// As [`Timestamp::reached`].
    pub fn bitcoin_roots(&self) -> Result<std::collections::HashSet<[u8; 32]>, Error> {
        Ok(self
            .reached()?
            .into_iter()
            .filter(|r| matches!(r.attestation, Attestation::Bitcoin { .. }))
            .filter_map(|r| <[u8; 32]>::try_from(r.message.as_slice()).ok())
            .collect())
    }

    /// The heights of the Bitcoin blocks the proof claims, lowest first, each once.
    pub fn bitcoin_heights(&self) -> Vec<u64> {
        fn walk(t: &Timestamp, out: &mut Vec<u64>) {
            for a in &t.attestations {
                if let Attestation::Bitcoin { height } = a {
                    out.push(*height);
                }
            }
            for (_, next) in &t.ops {
                walk(next, out);
            }
        }
        let mut out = Vec::new();
        walk(&self.timestamp, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every attestation with the message it is on ([`Timestamp::reached`] from the digest).
    ///
    /// # Errors
    /// As [`Timestamp::reached`].
    pub fn reached(&self) -> Result<Vec<Reached<'_>>, Error> {
        self.timestamp.reached(&self.digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Proof {
        let mut t = Timestamp::default();
        let mut inner = Timestamp::default();
        inner
            .attestations
            .push(Attestation::Bitcoin { height: 358391 });
        inner.attestations.push(Attestation::Pending {
            uri: "https://a.example".into(),
        });
        t.ops.push((Op::Append(vec![1, 2]), Timestamp::default()));
        t.ops[0].1.ops.push((Op::Hash(HashOp::Sha256), inner));
        t.ops.push((Op::Prepend(vec![9]), Timestamp::default()));
        t.ops[1].1.attestations.push(Attestation::Unknown {
            tag: [1; 8],
            payload: vec![7; 3],
        });
        Proof::new([0xab; 32], t)
    }

    #[test]
    fn a_reader_past_the_bound_is_refused_by_its_size() {
        let p = sample();
        let bytes = p.to_bytes();
        assert_eq!(Proof::read(&bytes[..]).unwrap(), (p, bytes));
        let e = Proof::read(std::io::Read::take(
            std::io::repeat(0),
            MAX_PROOF as u64 + 1,
        ))
        .unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::TooLarge { what: "the proof", limit } if *limit == MAX_PROOF as u64),
            "{e}"
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let p = sample();
        let bytes = p.to_bytes();
        assert_eq!(Proof::parse(&bytes).unwrap(), p);
        let reached = p.reached().unwrap();
        assert_eq!(reached.len(), 3);
        let mut m = vec![0xab; 32];
        m.extend([1, 2]);
        assert_eq!(reached[0].message, HashOp::Sha256.apply(&m));
    }

    #[test]
    fn every_cut_is_an_error_not_a_panic() {
        let bytes = sample().to_bytes();
        for n in 0..bytes.len() {
            assert!(Proof::parse(&bytes[..n]).is_err(), "cut at {n}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Proof::parse(&longer).unwrap_err().kind(),
            ErrorKind::Trailing(1)
        ));
    }

    #[test]
    fn depth_and_length_are_bounded() {
        let mut deep = MAGIC.to_vec();
        deep.push(1);
        deep.push(0x08);
        deep.extend([0; 32]);
        deep.extend(std::iter::repeat_n(0x08, 100_000));
        assert!(matches!(
            Proof::parse(&deep).unwrap_err().kind(),
            ErrorKind::Limit(_)
        ));
        let long = Op::Append(vec![0; MAX_MSG]);
        assert!(long.apply(&[1]).is_err());
    }

    /// A proof of `n` items on the digest, each `item(i)`.
    fn wide(n: usize, item: impl Fn(usize) -> (Option<Op>, Attestation)) -> Vec<u8> {
        let mut t = Timestamp::default();
        for i in 0..n {
            match item(i) {
                (None, a) => t.attestations.push(a),
                (Some(op), a) => t.ops.push((
                    op,
                    Timestamp {
                        attestations: vec![a],
                        ops: Vec::new(),
                    },
                )),
            }
        }
        Proof::new([1; 32], t).to_bytes()
    }

    #[test]
    fn counts_are_bounded() {
        let kind = |b: &[u8]| Proof::parse(b).map(|_| ()).map_err(|e| e.to_string());
        let btc = |h: u64| Attestation::Bitcoin { height: h };
        let at = |n, h: fn(usize) -> u64| wide(n, move |i| (None, btc(h(i))));
        assert!(kind(&at(MAX_ATTESTATIONS, |_| 7)).is_ok());
        let e = kind(&at(MAX_ATTESTATIONS + 1, |_| 7)).unwrap_err();
        assert!(e.contains("more than 256 attestations"), "{e}");
        assert!(kind(&at(MAX_HEIGHTS, |i| i as u64)).is_ok());
        let e = kind(&at(MAX_HEIGHTS + 1, |i| i as u64)).unwrap_err();
        assert!(e.contains("more than 16 different Bitcoin blocks"), "{e}");
        // Operations: 20 chains of 250 hashes hold 5,000, with 20 attestations.
        let mut t = Timestamp::default();
        for i in 0..20u8 {
            let mut node = Timestamp {
                attestations: vec![btc(1)],
                ops: Vec::new(),
            };
            for _ in 0..250 {
                node = Timestamp {
                    attestations: Vec::new(),
                    ops: vec![(Op::Hash(HashOp::Sha256), node)],
                };
            }
            t.ops.push((Op::Append(vec![i]), node));
        }
        let e = kind(&Proof::new([1; 32], t).to_bytes()).unwrap_err();
        assert!(e.contains("more than 4096 operations"), "{e}");
    }

    #[test]
    fn merge_is_the_union_in_order() {
        let tree = |from: u16, to: u16| {
            let bytes = wide((to - from) as usize, |i| {
                let i = from + i as u16;
                (
                    Some(Op::Append(i.to_be_bytes().to_vec())),
                    Attestation::Bitcoin { height: 5 },
                )
            });
            Proof::parse(&bytes).unwrap().timestamp
        };
        let mut a = tree(0, 200);
        a.merge(tree(100, 250));
        assert_eq!(a, tree(0, 250));
        // Attestations met twice are kept once.
        let mut b = Timestamp::default();
        b.merge(Timestamp {
            attestations: vec![Attestation::Bitcoin { height: 1 }; 3],
            ops: Vec::new(),
        });
        assert_eq!(b.attestations.len(), 1);
    }

    #[test]
    fn merge_joins_same_operations() {
        let mut a = sample().timestamp;
        let b = sample().timestamp;
        a.merge(b);
        assert_eq!(a, sample().timestamp);
    }
}
