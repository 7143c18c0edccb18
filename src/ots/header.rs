//! Bitcoin block headers: the 80 bytes, their double SHA-256, the compact target (`bits`)
//! and the proof of work a header carries against its own target; and files of headers, as
//! raw 80-byte records or as lines of hex.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Read};

use sha2::{Digest as _, Sha256};

use super::{Error, ErrorKind};
use crate::stream::read_full;

/// The size of a block header.
pub const HEADER_LEN: usize = 80;
/// The easiest target Bitcoin's main chain allows (`bits` 0x1d00ffff, difficulty 1): a header
/// claiming an easier one is no Bitcoin header, whatever its hash.
pub const POW_LIMIT_BITS: u32 = 0x1d00ffff;
/// The easiest target of Bitcoin's regression-test chain (`bits` 0x207fffff), where any
/// second hash meets it.
pub const REGTEST_LIMIT_BITS: u32 = 0x207fffff;

/// Which chain's rules a header's work is held to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Chain {
    /// Bitcoin's main chain ([`POW_LIMIT_BITS`]): what every front end checks against.
    #[default]
    Main,
    /// Bitcoin's regression-test chain ([`REGTEST_LIMIT_BITS`]): headers anyone can make in
    /// an instant, for tests of a whole setup on a local chain; never a front end's default.
    Regtest,
}

impl Chain {
    /// The easiest target the chain allows.
    pub fn limit_bits(self) -> u32 {
        match self {
            Chain::Main => POW_LIMIT_BITS,
            Chain::Regtest => REGTEST_LIMIT_BITS,
        }
    }
}
/// The most headers a file may hold: more than twice the whole chain's (about 930,000 in
/// 2026), so that a file of every header works for years.
pub const MAX_HEADERS: usize = 2_000_000;
/// The largest headers file read: room for [`MAX_HEADERS`] as lines of hex. A regular file
/// larger is refused before it is read; a device or a pipe once this much was read.
pub const MAX_HEADERS_BYTES: u64 = 400_000_000;
/// The longest line of a headers file as text (a header is 160 hex digits; the rest leaves
/// room for a comment).
pub const MAX_LINE: usize = 1024;

/// An 80-byte Bitcoin block header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader([u8; HEADER_LEN]);

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b.try_into().expect("4 bytes"))
}

/// A 256-bit number as 32 big-endian bytes, from `bits`; `None` when `bits` is negative,
/// zero or overflows 256 bits.
pub fn target(bits: u32) -> Option<[u8; 32]> {
    let exponent = (bits >> 24) as usize;
    let mantissa = bits & 0x007f_ffff;
    if bits & 0x0080_0000 != 0 || mantissa == 0 {
        return None;
    }
    let m = mantissa.to_be_bytes(); // m[0] is 0; m[1..4] the three mantissa bytes
    let mut out = [0u8; 32];
    // The mantissa's bytes sit so that its last byte is at 256^(exponent-3).
    for (i, &b) in m[1..].iter().enumerate() {
        // Byte i (0 = most significant) of the mantissa has weight 256^(exponent-1-i).
        let weight = exponent as isize - 1 - i as isize;
        if weight < 0 {
            continue;
        }
        if weight >= 32 {
            if b != 0 {
                return None;
            }
            continue;
        }
        out[31 - weight as usize] = b;
    }
    (out != [0; 32]).then_some(out)
}

impl BlockHeader {
    /// The header of 80 bytes, or `None`.
    pub fn from_bytes(bytes: &[u8]) -> Option<BlockHeader> {
        Some(BlockHeader(bytes.try_into().ok()?))
    }

    /// Its 80 bytes.
    pub fn bytes(&self) -> &[u8; HEADER_LEN] {
        &self.0
    }

    /// The merkle root in the header's own byte order (as an OpenTimestamps proof arrives at
    /// it; block explorers show it reversed).
    pub fn merkle_root(&self) -> [u8; 32] {
        self.0[36..68].try_into().expect("32 bytes")
    }

    /// The time the miner wrote, in seconds since the Unix epoch.
    pub fn time(&self) -> u32 {
        le32(&self.0[68..72])
    }

    /// The compact target.
    pub fn bits(&self) -> u32 {
        le32(&self.0[72..76])
    }

    /// The block hash in the header's own byte order: SHA-256 of SHA-256 of the 80 bytes.
    pub fn hash(&self) -> [u8; 32] {
        Sha256::digest(Sha256::digest(self.0)).into()
    }

    /// The block hash as block explorers write it (reversed, hex).
    pub fn hash_hex(&self) -> String {
        display(&self.hash())
    }

    /// Whether the header carries the work it claims on `chain`: its target is a valid one no
    /// easier than the chain allows, and its hash, read as a little-endian number, is at most
    /// that target.
    pub fn has_work(&self, chain: Chain) -> bool {
        let (Some(t), Some(limit)) = (target(self.bits()), target(chain.limit_bits())) else {
            return false;
        };
        let mut h = self.hash();
        h.reverse();
        t <= limit && h <= t
    }
}

/// 32 bytes in the header's order as explorers write them: reversed, lowercase hex.
pub fn display(internal: &[u8; 32]) -> String {
    let mut r = *internal;
    r.reverse();
    crate::number::hex(&r)
}

/// Block headers to check proofs against, each with its height when the source states it (a
/// node does; a file of headers does not), looked up by merkle root and height.
///
/// Every header given is held to its proof of work as it comes; only the headers a proof may
/// need are kept (those whose merkle root is among the roots given to [`Headers::keeping`],
/// or all), each (root, height) once. A file of the whole chain is read through, never held.
#[derive(Debug, Clone, Default)]
pub struct Headers {
    chain: Chain,
    /// Only headers with these merkle roots are kept (all when `None`).
    wanted: Option<HashSet<[u8; 32]>>,
    kept: Vec<(Option<u64>, BlockHeader)>,
    /// Where in `kept` the first header of a merkle root, at a height or at none, is.
    at: HashMap<([u8; 32], Option<u64>), usize>,
    /// How many headers were given, kept or not.
    given: usize,
    /// The first header given that does not carry its proof of work.
    without_work: Option<BlockHeader>,
    /// Blocks the source could not give, with why.
    missing: BTreeMap<u64, String>,
}

impl Headers {
    /// No headers yet, their work held to `chain`'s rules; every header given is kept.
    pub fn new(chain: Chain) -> Headers {
        Headers {
            chain,
            ..Headers::default()
        }
    }

    /// No headers yet, their work held to `chain`'s rules; of the headers given, only those
    /// whose merkle root is one of `roots` are kept ([`crate::ots::Proof::bitcoin_roots`]).
    pub fn keeping(chain: Chain, roots: HashSet<[u8; 32]>) -> Headers {
        Headers {
            chain,
            wanted: Some(roots),
            ..Headers::default()
        }
    }

    /// The chain whose rules the headers' work is held to.
    pub fn chain(&self) -> Chain {
        self.chain
    }

    /// How many headers were given (kept or not).
    pub fn given(&self) -> usize {
        self.given
    }

    /// Whether no header was given.
    pub fn is_empty(&self) -> bool {
        self.given == 0
    }

    /// The first header given that does not carry its proof of work, if one did not.
    pub fn without_work(&self) -> Option<&BlockHeader> {
        self.without_work.as_ref()
    }

    /// Why the source could not give the block at `height`, when it could not.
    pub fn missing(&self, height: u64) -> Option<&str> {
        self.missing.get(&height).map(String::as_str)
    }

    /// Records that the source could not give the block at `height`, and why.
    pub fn mark_missing(&mut self, height: u64, why: String) {
        self.missing.entry(height).or_insert(why);
    }

    /// The first header given whose merkle root is `root`, at `height` or at no height
    /// stated.
    pub fn find(&self, height: u64, root: &[u8]) -> Option<&BlockHeader> {
        let root: [u8; 32] = root.try_into().ok()?;
        let at = self.at.get(&(root, Some(height)));
        let anywhere = self.at.get(&(root, None));
        let i = match (at, anywhere) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return None,
        };
        Some(&self.kept[*i].1)
    }

    /// Headers from a file's bytes, every one kept, held to the main chain's rules: as
    /// [`Headers::read`].
    ///
    /// # Errors
    /// As [`Headers::read`].
    pub fn parse(bytes: &[u8]) -> Result<Headers, Error> {
        Headers::new(Chain::Main).read(bytes)
    }

    /// Adds the headers `r` holds: lines of 160 hex digits (blank lines and lines starting
    /// with `#` skipped) when its first byte is a hex digit, `#` or a space, else raw 80-byte
    /// headers one after another. Read as a stream, at most [`MAX_HEADERS_BYTES`] + 1 bytes
    /// and [`MAX_HEADERS`] headers; reading stops at the first header without its proof of
    /// work, which decides every check ([`Headers::without_work`]).
    ///
    /// # Errors
    /// [`ErrorKind::Headers`] when it is neither, or holds more than [`MAX_HEADERS`] or none;
    /// [`ErrorKind::TooLarge`] past [`MAX_HEADERS_BYTES`]; [`ErrorKind::Io`].
    pub fn read(mut self, r: impl Read) -> Result<Headers, Error> {
        let bad = |m: String| Error::from(ErrorKind::Headers(m));
        let too_large = || {
            Error::from(ErrorKind::TooLarge {
                what: "the headers file",
                limit: MAX_HEADERS_BYTES,
            })
        };
        let mut r = BufReader::new(r.take(MAX_HEADERS_BYTES + 1));
        let first = r.fill_buf().map_err(ErrorKind::Io)?.first().copied();
        let text =
            first.is_some_and(|b| b == b'#' || b.is_ascii_hexdigit() || b.is_ascii_whitespace());
        let start = self.given;
        let mut read: u64 = 0;
        if text {
            let mut line = Vec::with_capacity(MAX_LINE + 1);
            for n in 1.. {
                line.clear();
                let got = (&mut r)
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', &mut line)
                    .map_err(ErrorKind::Io)?;
                if got == 0 {
                    break;
                }
                read += got as u64;
                if read > MAX_HEADERS_BYTES {
                    return Err(too_large());
                }
                let not_header = || bad(format!("line {n} is not a block header (160 hex digits)"));
                if line.len() > MAX_LINE {
                    return Err(not_header());
                }
                let l = line.trim_ascii();
                if l.is_empty() || l.starts_with(b"#") {
                    continue;
                }
                let h = data_encoding::HEXLOWER_PERMISSIVE
                    .decode(l)
                    .ok()
                    .and_then(|b| BlockHeader::from_bytes(&b))
                    .ok_or_else(not_header)?;
                self.push(None, h)?;
                if self.without_work.is_some() {
                    return Ok(self);
                }
            }
        } else {
            let mut h = [0u8; HEADER_LEN];
            loop {
                let got = read_full(&mut r, &mut h).map_err(ErrorKind::Io)?;
                read += got as u64;
                if read > MAX_HEADERS_BYTES {
                    return Err(too_large());
                }
                if got < HEADER_LEN {
                    if got > 0 || read == 0 {
                        return Err(bad(format!(
                            "{read} bytes are not whole 80-byte block headers, nor lines of hex"
                        )));
                    }
                    break;
                }
                self.push(None, BlockHeader(h))?;
                if self.without_work.is_some() {
                    return Ok(self);
                }
            }
        }
        if self.given == start {
            return Err(bad("no block header in it".into()));
        }
        Ok(self)
    }

    /// Adds a header, at `height` when known: held to its proof of work, kept when its
    /// merkle root is wanted and its (root, height) is new.
    ///
    /// # Errors
    /// [`ErrorKind::Headers`] past [`MAX_HEADERS`].
    pub fn push(&mut self, height: Option<u64>, header: BlockHeader) -> Result<(), Error> {
        if self.given >= MAX_HEADERS {
            return Err(ErrorKind::Headers(format!(
                "more than {MAX_HEADERS} block headers, the most pith reads"
            ))
            .into());
        }
        self.given += 1;
        if self.without_work.is_none() && !header.has_work(self.chain) {
            self.without_work = Some(header);
        }
        let root = header.merkle_root();
        if self.wanted.as_ref().is_some_and(|w| !w.contains(&root)) {
            return Ok(());
        }
        if let Entry::Vacant(e) = self.at.entry((root, height)) {
            e.insert(self.kept.len());
            self.kept.push((height, header));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_targets() {
        let t = target(0x1d00ffff).unwrap();
        assert_eq!(&t[..6], &[0, 0, 0, 0, 0xff, 0xff]);
        assert!(t[6..].iter().all(|&b| b == 0));
        let t = target(0x03123456).unwrap();
        assert_eq!(&t[29..], &[0x12, 0x34, 0x56]);
        let t = target(0x02123456).unwrap();
        assert_eq!(&t[30..], &[0x12, 0x34]);
        assert_eq!(target(0x04923456), None); // the sign bit
        assert_eq!(target(0x22123456), None); // past 256 bits
        assert_eq!(target(0x01003456), None); // shifted out to zero
    }

    #[test]
    fn headers_files() {
        let h = [7u8; 80];
        assert_eq!(Headers::parse(&h).unwrap().given(), 1);
        let hex = format!("# a comment\n{}\n\n", crate::number::hex(&h));
        let read = Headers::parse(hex.as_bytes()).unwrap();
        assert_eq!(read.find(1, &h[36..68]).unwrap().bytes(), &h);
        assert!(Headers::parse(&h[..79]).is_err());
        let long = "0".repeat(MAX_LINE + 1);
        let e = Headers::parse(long.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        assert!(Headers::parse(b"abc\n").is_err());
        assert!(Headers::parse(b"not hex\n").is_err());
        assert!(Headers::parse(b"").is_err());
    }

    /// A regression-test header with merkle root `root` and its nonce searched until its
    /// hash meets the target.
    fn mined(root: u8) -> BlockHeader {
        let mut h = [0u8; 80];
        h[36..68].fill(root);
        h[72..76].copy_from_slice(&REGTEST_LIMIT_BITS.to_le_bytes());
        for nonce in 0u32.. {
            h[76..].copy_from_slice(&nonce.to_le_bytes());
            let b = BlockHeader(h);
            if b.has_work(Chain::Regtest) {
                return b;
            }
        }
        unreachable!()
    }

    #[test]
    fn looked_up_by_root_and_height_keeping_only_what_is_wanted() {
        let (a, b) = (mined(1), mined(2));
        let mut all = Headers::new(Chain::Regtest);
        all.push(Some(10), a).unwrap();
        all.push(None, b).unwrap();
        assert_eq!(all.find(10, &[1; 32]), Some(&a));
        assert_eq!(all.find(11, &[1; 32]), None);
        assert_eq!(all.find(99, &[2; 32]), Some(&b));
        assert!(all.without_work().is_none());
        let mut some = Headers::keeping(Chain::Regtest, HashSet::from([[2; 32]]));
        for _ in 0..1000 {
            some.push(None, a).unwrap();
            some.push(None, b).unwrap();
        }
        assert_eq!((some.given(), some.kept.len()), (2000, 1));
        assert_eq!(some.find(5, &[2; 32]), Some(&b));
        // Held to the main chain's rules, the same header carries no work, and reading stops.
        let raw = [*a.bytes(), *b.bytes()].concat();
        let main = Headers::parse(&raw).unwrap();
        assert_eq!((main.given(), main.without_work()), (1, Some(&a)));
    }
}
