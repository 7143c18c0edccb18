//! Flate bombs made cheaply, for the tests that check memory stays bounded whatever a stream
//! inflates to.

use flate2::{Compress, Compression, FlushCompress};

const MIB: usize = 1 << 20;

/// A zlib stream of `prefix` followed by zeros, `total` bytes in all (rounded down to whole
/// MiB of zeros). The zeros are not compressed one by one: after a full flush the compressor
/// starts afresh, so every MiB of zeros compresses to the same block, which is repeated; the
/// Adler-32 checksum (RFC 1950) is worked out (a zero byte leaves `a` as it is and adds `a`
/// to `b`).
pub fn zeros_after(prefix: &[u8], total: u64) -> Vec<u8> {
    let mut c = Compress::new(Compression::best(), true);
    let mut out = Vec::with_capacity(prefix.len() + 4096);
    c.compress_vec(prefix, &mut out, FlushCompress::Full)
        .unwrap();
    let zeros = vec![0u8; MIB];
    let block = |c: &mut Compress| {
        let mut b = Vec::with_capacity(MIB / 100);
        c.compress_vec(&zeros, &mut b, FlushCompress::Full).unwrap();
        assert_eq!(c.total_in() % MIB as u64, prefix.len() as u64 % MIB as u64);
        b
    };
    let first = block(&mut c);
    let again = block(&mut c);
    assert_eq!(first, again, "a full flush resets the compressor");
    let chunks = (total - prefix.len() as u64) / MIB as u64;
    out.reserve(first.len() * chunks as usize + 64);
    for _ in 0..chunks {
        out.extend_from_slice(&first);
    }
    let mut tail = Vec::with_capacity(64);
    c.compress_vec(&[], &mut tail, FlushCompress::Finish)
        .unwrap();
    tail.truncate(tail.len() - 4);
    out.extend_from_slice(&tail);
    let (mut a, mut b) = (1u64, 0u64);
    for &x in prefix {
        a = (a + u64::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    b = (b + (chunks * MIB as u64) % 65521 * a) % 65521;
    out.extend_from_slice(&((b << 16 | a) as u32).to_be_bytes());
    out
}
