//! Bitcoin block headers: the 80 bytes, their double SHA-256, the compact target (`bits`)
//! and the proof of work a header carries against its own target; and files of headers, as
//! raw 80-byte records or as lines of hex.

use sha2::{Digest as _, Sha256};

use super::{Error, ErrorKind};

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
/// The most headers a file may hold (more than the whole chain's).
pub const MAX_HEADERS: usize = 4_000_000;

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
/// node does; a file of headers does not).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    /// The headers, in the order given.
    pub headers: Vec<(Option<u64>, BlockHeader)>,
    /// The chain whose rules their work is held to (the main chain's unless set).
    pub chain: Chain,
}

impl Headers {
    /// Headers from a file's bytes: lines of 160 hex digits (blank lines and lines starting
    /// with `#` skipped), or else raw 80-byte headers one after another.
    ///
    /// # Errors
    /// [`ErrorKind::Headers`] when it is neither, or holds more than [`MAX_HEADERS`].
    pub fn parse(bytes: &[u8]) -> Result<Headers, Error> {
        let bad = |m: String| Error::from(ErrorKind::Headers(m));
        // Text when every line that is not blank or a comment is hex digits; a raw file of
        // headers holds bytes no text has.
        let text = std::str::from_utf8(bytes).ok().filter(|t| {
            let mut lines = t
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .peekable();
            lines.peek().is_some() && lines.all(|l| l.bytes().all(|b| b.is_ascii_hexdigit()))
        });
        let mut out = Headers::default();
        match text {
            Some(text) => {
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let h = data_encoding::HEXLOWER_PERMISSIVE
                        .decode(line.as_bytes())
                        .ok()
                        .and_then(|b| BlockHeader::from_bytes(&b))
                        .ok_or_else(|| {
                            bad(format!(
                                "line {} is not a block header (160 hex digits)",
                                i + 1
                            ))
                        })?;
                    out.push(None, h)?;
                }
            }
            None => {
                if bytes.is_empty() || !bytes.len().is_multiple_of(HEADER_LEN) {
                    return Err(bad(format!(
                        "{} bytes are not whole 80-byte block headers, nor lines of hex",
                        bytes.len()
                    )));
                }
                for c in bytes.chunks(HEADER_LEN) {
                    out.push(None, BlockHeader::from_bytes(c).expect("80 bytes"))?;
                }
            }
        }
        if out.headers.is_empty() {
            return Err(bad("no block header in it".into()));
        }
        Ok(out)
    }

    /// Adds a header, at `height` when known.
    ///
    /// # Errors
    /// [`ErrorKind::Headers`] past [`MAX_HEADERS`].
    pub fn push(&mut self, height: Option<u64>, header: BlockHeader) -> Result<(), Error> {
        if self.headers.len() >= MAX_HEADERS {
            return Err(ErrorKind::Headers(format!("more than {MAX_HEADERS} headers")).into());
        }
        self.headers.push((height, header));
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
        assert_eq!(Headers::parse(&h).unwrap().headers.len(), 1);
        let hex = format!("# a comment\n{}\n\n", crate::number::hex(&h));
        assert_eq!(
            Headers::parse(hex.as_bytes()).unwrap().headers[0].1.bytes(),
            &h
        );
        assert!(Headers::parse(&h[..79]).is_err());
        assert!(Headers::parse(b"abc\n").is_err());
        assert!(Headers::parse(b"not hex\n").is_err());
        assert!(Headers::parse(b"").is_err());
    }
}
