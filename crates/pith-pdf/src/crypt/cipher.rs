//! The ciphers of the Standard security handler (ISO 32000-2 §7.6.3): RC4 (crypt filter
//! method `/V2` and revisions 2–4 without crypt filters), AES-128 CBC (`/AESV2`) and AES-256
//! CBC (`/AESV3`), with the 16-byte initialisation vector written before the data and PKCS#5
//! padding (§7.6.3.2). New initialisation vectors come from the operating system's CSPRNG.
//!
//! It owns the byte transforms only; which key and which method apply to an object is
//! decided in [`super`].

use aes::cipher::block_padding::{NoPadding, Pkcs7};
use aes::cipher::{BlockDecryptMut, BlockEncryptMut, KeyIvInit};

/// RC4 (the "ARCFOUR" of the PDF specification) with a key of 1–256 bytes.
///
/// Written here because the `rc4` crate fixes the key length in the type, while PDF keys are
/// 5–16 bytes chosen at run time and revisions 3–4 derive twenty keys per password check.
pub fn rc4(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut s: [u8; 256] = std::array::from_fn(|i| i as u8);
    if key.is_empty() {
        return data.to_vec();
    }
    let mut j = 0u8;
    for i in 0..256 {
        j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
        s.swap(i, j as usize);
    }
    let (mut i, mut j) = (0u8, 0u8);
    data.iter()
        .map(|&b| {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s[i as usize]);
            s.swap(i as usize, j as usize);
            b ^ s[s[i as usize].wrapping_add(s[j as usize]) as usize]
        })
        .collect()
}

/// A fresh initialisation vector for AES-CBC: from the operating system's CSPRNG, or, should
/// it fail, SHA-256 of the key, the data, the time and a process-wide counter. CBC needs IVs
/// that an attacker cannot predict; without the key, the fallback cannot be predicted either,
/// and it never repeats within a process.
pub fn fresh_iv(key: &[u8], data: &[u8]) -> [u8; 16] {
    let mut iv = [0u8; 16];
    if getrandom::fill(&mut iv).is_ok() {
        return iv;
    }
    use sha2::Digest;
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let h = sha2::Sha256::new()
        .chain_update(key)
        .chain_update(data)
        .chain_update(t.to_le_bytes())
        .chain_update(n.to_le_bytes())
        .chain_update(std::process::id().to_le_bytes())
        .finalize();
    iv.copy_from_slice(&h[..16]);
    iv
}

/// AES-CBC decryption of `data` = 16-byte IV followed by the ciphertext, with the key
/// length (16 or 32 bytes) choosing AES-128 or AES-256. Lenient like qpdf and pdf.js:
/// data shorter than one IV decrypts to nothing, a trailing partial block is dropped, and
/// the padding is removed only when it is valid PKCS#5 padding.
pub fn aes_cbc_decrypt(key: &[u8], data: &[u8]) -> Vec<u8> {
    if data.len() < 16 {
        return Vec::new();
    }
    let (iv, body) = data.split_at(16);
    let body = &body[..body.len() / 16 * 16];
    let mut out = match key.len() {
        16 => cbc::Decryptor::<aes::Aes128>::new(key.into(), iv.into())
            .decrypt_padded_vec_mut::<NoPadding>(body),
        32 => cbc::Decryptor::<aes::Aes256>::new(key.into(), iv.into())
            .decrypt_padded_vec_mut::<NoPadding>(body),
        _ => return Vec::new(),
    }
    .unwrap_or_default();
    if let Some(&pad) = out.last() {
        let n = pad as usize;
        if (1..=16).contains(&n) && n <= out.len() && out[out.len() - n..].iter().all(|&b| b == pad)
        {
            out.truncate(out.len() - n);
        }
    }
    out
}

/// AES-CBC encryption with the given IV, PKCS#5 padded, IV written first (§7.6.3.2).
/// The key length (16 or 32 bytes) chooses AES-128 or AES-256; any other length (which
/// callers never pass) yields nothing rather than data in clear.
pub fn aes_cbc_encrypt_iv(key: &[u8], iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
    let body = match key.len() {
        16 => cbc::Encryptor::<aes::Aes128>::new(key.into(), iv.into())
            .encrypt_padded_vec_mut::<Pkcs7>(data),
        32 => cbc::Encryptor::<aes::Aes256>::new(key.into(), iv.into())
            .encrypt_padded_vec_mut::<Pkcs7>(data),
        _ => return Vec::new(),
    };
    let mut out = iv.to_vec();
    out.extend_from_slice(&body);
    out
}

/// AES-CBC encryption with a fresh IV ([`fresh_iv`]).
pub fn aes_cbc_encrypt(key: &[u8], data: &[u8]) -> Vec<u8> {
    aes_cbc_encrypt_iv(key, &fresh_iv(key, data), data)
}

/// AES-128-CBC encryption without padding of whole blocks (the R6 hash, Algorithm 2.B).
pub fn aes128_cbc_nopad(key: &[u8; 16], iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
    cbc::Encryptor::<aes::Aes128>::new(key.into(), iv.into())
        .encrypt_padded_vec_mut::<NoPadding>(data)
}

/// AES-256-CBC decryption with a zero IV and no padding (`/UE`, `/OE`, Algorithm 2.A).
pub fn aes256_cbc_nopad_decrypt(key: &[u8; 32], data: &[u8]) -> Vec<u8> {
    let body = &data[..data.len() / 16 * 16];
    cbc::Decryptor::<aes::Aes256>::new(key.into(), &[0u8; 16].into())
        .decrypt_padded_vec_mut::<NoPadding>(body)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        data_encoding::HEXLOWER_PERMISSIVE
            .decode(s.replace(' ', "").as_bytes())
            .unwrap()
    }

    #[test]
    fn rc4_known_answers() {
        // Classic test vectors (Wikipedia / RFC 6229 first bytes).
        assert_eq!(rc4(b"Key", b"Plaintext"), hex("BBF316E8D940AF0AD3"));
        assert_eq!(rc4(b"Wiki", b"pedia"), hex("1021BF0420"));
        assert_eq!(
            rc4(b"Secret", b"Attack at dawn"),
            hex("45A01F645FC35B383552544B9BF5")
        );
        // RFC 6229, 40-bit key 0102030405, keystream offset 0.
        assert_eq!(
            rc4(&hex("0102030405"), &[0u8; 16]),
            hex("b2396305f03dc027ccc3524a0a1118a8")
        );
        // RC4 is its own inverse.
        assert_eq!(rc4(b"Key", &rc4(b"Key", b"round trip")), b"round trip");
    }

    #[test]
    fn aes_round_trip_and_padding() {
        let key16 = [7u8; 16];
        let key32 = [9u8; 32];
        for key in [&key16[..], &key32[..]] {
            for len in [0usize, 1, 15, 16, 17, 100] {
                let data: Vec<u8> = (0..len as u8).collect();
                let enc = aes_cbc_encrypt(key, &data);
                assert_eq!(enc.len(), 16 + (len / 16 + 1) * 16, "IV + padded body");
                assert_eq!(aes_cbc_decrypt(key, &enc), data);
            }
        }
        // Two encryptions of the same data differ (random IV).
        assert_ne!(aes_cbc_encrypt(&key16, b"x"), aes_cbc_encrypt(&key16, b"x"));
        // A key of another length never yields data in clear.
        assert!(aes_cbc_encrypt(&[1; 5], b"secret").is_empty());
        // Short or ragged input never panics.
        assert!(aes_cbc_decrypt(&key16, b"short").is_empty());
        let enc = aes_cbc_encrypt(&key16, b"abc");
        assert_eq!(aes_cbc_decrypt(&key16, &enc[..enc.len() - 3]), b"");
    }

    #[test]
    fn aes128_fips197_vector() {
        // FIPS-197 C.1: one block with IV 0 is plain AES-128.
        let key: [u8; 16] = hex("000102030405060708090a0b0c0d0e0f").try_into().unwrap();
        let out = aes128_cbc_nopad(&key, &[0; 16], &hex("00112233445566778899aabbccddeeff"));
        assert_eq!(out, hex("69c4e0d86a7b0430d8cdb78070b4c55a"));
    }

    #[test]
    fn aes256_fips197_vector() {
        // FIPS-197 C.3, decrypting the known ciphertext with IV 0.
        let key: [u8; 32] = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
            .try_into()
            .unwrap();
        let out = aes256_cbc_nopad_decrypt(&key, &hex("8ea2b7ca516745bfeafc49904b496089"));
        assert_eq!(out, hex("00112233445566778899aabbccddeeff"));
    }
}
