//! Flate bombs made cheaply, for the tests that check memory stays bounded whatever a stream
//! inflates to.

use flate2::{Compress, Compression, FlushCompress};

const MIB: usize = 1 << 20;

/// A zlib stream of `prefix` followed by zeros, `total` bytes in all (rounded down to whole
/// MiB of zeros): [`pattern_after`] with a zero byte.
pub fn zeros_after(prefix: &[u8], total: u64) -> Vec<u8> {
    pattern_after(prefix, &[0], total)
}

/// A zlib stream of `prefix` followed by `unit` repeated, `total` bytes in all (rounded down
/// to whole MiB of repeats; `unit`'s length must divide a MiB). The repeats are not
/// compressed one by one: after a full flush the compressor starts afresh, so every MiB
/// compresses to the same block, which is repeated; the Adler-32 checksum (RFC 1950) is
/// combined per MiB.
pub fn pattern_after(prefix: &[u8], unit: &[u8], total: u64) -> Vec<u8> {
    assert!(!unit.is_empty() && MIB.is_multiple_of(unit.len()));
    let chunk = unit.repeat(MIB / unit.len());
    let mut c = Compress::new(Compression::best(), true);
    // compress_vec writes into spare capacity only.
    let mut out = Vec::with_capacity(prefix.len() + 4096);
    c.compress_vec(prefix, &mut out, FlushCompress::Full)
        .unwrap();
    let block = |c: &mut Compress| {
        let mut b = Vec::with_capacity(MIB / 50);
        c.compress_vec(&chunk, &mut b, FlushCompress::Full).unwrap();
        assert_eq!(c.total_in() % MIB as u64, prefix.len() as u64 % MIB as u64);
        b
    };
    let first = block(&mut c);
    let again = block(&mut c);
    assert_eq!(first, again, "a full flush resets the compressor");
    let chunks = total.saturating_sub(prefix.len() as u64) / MIB as u64;
    out.reserve(first.len() * chunks as usize + 64);
    for _ in 0..chunks {
        out.extend_from_slice(&first);
    }
    let mut tail = Vec::with_capacity(64);
    c.compress_vec(&[], &mut tail, FlushCompress::Finish)
        .unwrap();
    tail.truncate(tail.len() - 4);
    out.extend_from_slice(&tail);
    const BASE: u64 = 65521;
    let adler = |bytes: &[u8]| {
        let (mut a, mut b) = (1u64, 0u64);
        for &x in bytes {
            a = (a + u64::from(x)) % BASE;
            b = (b + a) % BASE;
        }
        (a, b)
    };
    let (mut a, mut b) = adler(prefix);
    let (a2, b2) = adler(&chunk);
    let len = MIB as u64 % BASE;
    for _ in 0..chunks {
        // adler32_combine: the second part's sums, shifted by what came before.
        b = (b + b2 + len * ((a + BASE - 1) % BASE)) % BASE;
        a = (a + a2 + BASE - 1) % BASE;
    }
    out.extend_from_slice(&((b << 16 | a) as u32).to_be_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_bomb_inflates_to_its_pattern() {
        let z = pattern_after(b"head ", b"q Q\n", 3 << 20);
        let mut d = flate2::read::ZlibDecoder::new(&z[..]);
        let mut all = Vec::new();
        std::io::Read::read_to_end(&mut d, &mut all).expect("valid zlib, checksum included");
        assert_eq!(all.len(), 5 + (2 << 20));
        assert!(all.starts_with(b"head q Q\nq Q\n"));
    }
}
