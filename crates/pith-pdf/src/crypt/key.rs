//! Password authentication and file-key derivation of the Standard security handler
//! (ISO 32000-2 §7.6.4.3–7.6.4.4): Algorithm 2 (file key, revisions 2–4), Algorithms 3–7
//! (the `/O` and `/U` checks, revisions 2–4), Algorithm 2.A (file key, revisions 5–6) and
//! Algorithm 2.B (the revision 6 hash), plus Algorithm 1 (the per-object key).
//!
//! It knows nothing of PDF syntax: callers pass the `/O`, `/U`, `/OE`, `/UE`, `/P` values and
//! the first `/ID` string.

use md5::{Digest, Md5};
use sha2::{Sha256, Sha384, Sha512};

use super::cipher::{aes128_cbc_nopad, aes256_cbc_nopad_decrypt, rc4};

/// The 32-byte padding string of Algorithm 2, step a.
pub const PAD: [u8; 32] = [
    0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
    0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
];

/// Which password opened the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// The user password (the empty one, for files every viewer opens without asking).
    User,
    /// The owner password.
    Owner,
}

/// The values of an encryption dictionary that the password algorithms use.
#[derive(Debug, Clone)]
pub struct Params<'a> {
    /// `/R`, the revision (2–6).
    pub revision: u8,
    /// File key length in bytes (5–16 for revisions 2–4; 32 for 5–6).
    pub key_len: usize,
    /// `/O`.
    pub o: &'a [u8],
    /// `/U`.
    pub u: &'a [u8],
    /// `/OE` (revisions 5–6).
    pub oe: &'a [u8],
    /// `/UE` (revisions 5–6).
    pub ue: &'a [u8],
    /// `/P`, the permission flags.
    pub p: i32,
    /// The first string of the trailer's `/ID` (empty when the file has none).
    pub id0: &'a [u8],
    /// `/EncryptMetadata` (revision 4 folds `false` into the key).
    pub encrypt_metadata: bool,
}

fn padded(password: &[u8]) -> [u8; 32] {
    let mut out = PAD;
    let n = password.len().min(32);
    out[..n].copy_from_slice(&password[..n]);
    out[n..].copy_from_slice(&PAD[..32 - n]);
    out
}

/// Algorithm 2: the file key a user password gives (revisions 2–4).
fn file_key_r4(prm: &Params<'_>, password: &[u8]) -> Vec<u8> {
    let mut h = Md5::new();
    h.update(padded(password));
    h.update(&prm.o[..prm.o.len().min(32)]);
    h.update((prm.p as u32).to_le_bytes());
    h.update(prm.id0);
    if prm.revision >= 4 && !prm.encrypt_metadata {
        h.update([0xFF; 4]);
    }
    let mut hash = h.finalize().to_vec();
    let n = if prm.revision == 2 { 5 } else { prm.key_len };
    if prm.revision >= 3 {
        for _ in 0..50 {
            hash = Md5::digest(&hash[..n]).to_vec();
        }
    }
    hash.truncate(n);
    hash
}

/// Algorithms 4 and 5: the `/U` value a file key gives (all 32 bytes for revision 2, the
/// first 16 bytes for revisions 3–4).
fn u_value(prm: &Params<'_>, key: &[u8]) -> Vec<u8> {
    if prm.revision == 2 {
        return rc4(key, &PAD);
    }
    let mut h = Md5::new();
    h.update(PAD);
    h.update(prm.id0);
    let mut x = rc4(key, &h.finalize());
    for i in 1..=19u8 {
        let k: Vec<u8> = key.iter().map(|b| b ^ i).collect();
        x = rc4(&k, &x);
    }
    x
}

/// Algorithm 6: the file key when `password` is the user password (revisions 2–4).
fn user_r4(prm: &Params<'_>, password: &[u8]) -> Option<Vec<u8>> {
    let key = file_key_r4(prm, password);
    let u = u_value(prm, &key);
    let n = if prm.revision == 2 { 32 } else { 16 };
    (prm.u.len() >= n && u[..n] == prm.u[..n]).then_some(key)
}

/// Algorithm 7: the file key when `password` is the owner password (revisions 2–4): the
/// owner key of Algorithm 3 decrypts `/O` into the user password, which Algorithm 6 checks.
fn owner_r4(prm: &Params<'_>, password: &[u8]) -> Option<Vec<u8>> {
    let mut hash = Md5::digest(padded(password)).to_vec();
    let n = if prm.revision == 2 { 5 } else { prm.key_len };
    if prm.revision >= 3 {
        for _ in 0..50 {
            hash = Md5::digest(&hash).to_vec();
        }
    }
    let key = &hash[..n];
    let o = &prm.o[..prm.o.len().min(32)];
    let user = if prm.revision == 2 {
        rc4(key, o)
    } else {
        let mut x = o.to_vec();
        for i in (0..=19u8).rev() {
            let k: Vec<u8> = key.iter().map(|b| b ^ i).collect();
            x = rc4(&k, &x);
        }
        x
    };
    user_r4(prm, &user)
}

/// Algorithm 2.B: the revision 6 hash of `password` with an 8-byte salt and, for the owner
/// password, the 48 bytes of `/U`. Revision 5 uses one plain SHA-256 instead.
fn hash_r6(revision: u8, password: &[u8], salt: &[u8], udata: &[u8]) -> [u8; 32] {
    let mut k: Vec<u8> = Sha256::new()
        .chain_update(password)
        .chain_update(salt)
        .chain_update(udata)
        .finalize()
        .to_vec();
    if revision == 6 {
        let mut round = 0usize;
        let mut last = 0u8;
        while round < 64 || usize::from(last) > round - 32 {
            let mut k1 = Vec::with_capacity(64 * (password.len() + k.len() + udata.len()));
            for _ in 0..64 {
                k1.extend_from_slice(password);
                k1.extend_from_slice(&k);
                k1.extend_from_slice(udata);
            }
            let key: [u8; 16] = k[..16].try_into().expect("hash is at least 32 bytes");
            let iv: [u8; 16] = k[16..32].try_into().expect("hash is at least 32 bytes");
            let e = aes128_cbc_nopad(&key, &iv, &k1);
            // The first 16 bytes of E as a big-endian number, modulo 3: since 256 ≡ 1
            // (mod 3), the sum of the bytes has the same remainder.
            let m = e[..16].iter().map(|&b| u32::from(b)).sum::<u32>() % 3;
            k = match m {
                0 => Sha256::digest(&e).to_vec(),
                1 => Sha384::digest(&e).to_vec(),
                _ => Sha512::digest(&e).to_vec(),
            };
            last = *e.last().expect("E is 64 blocks");
            round += 1;
        }
    }
    k[..32].try_into().expect("hash is at least 32 bytes")
}

/// Algorithm 2.A: the file key when `password` (UTF-8, at most 127 bytes used) is the user
/// or the owner password (revisions 5–6).
fn key_r6(prm: &Params<'_>, password: &[u8]) -> Option<(Vec<u8>, Auth)> {
    let pw = &password[..password.len().min(127)];
    if prm.o.len() < 48 || prm.u.len() < 48 || prm.oe.len() < 32 || prm.ue.len() < 32 {
        return None;
    }
    // The user password first, though Algorithm 2.A checks the owner's first: a file opened
    // without a password is opened with the empty user password, and the user check hashes
    // 64 copies of 32 bytes a round where the owner's hashes 80. A password that is both
    // gives the same file key either way; only the `Auth` reported differs.
    if hash_r6(prm.revision, pw, &prm.u[32..40], &[]) == prm.u[..32] {
        let ik = hash_r6(prm.revision, pw, &prm.u[40..48], &[]);
        return Some((aes256_cbc_nopad_decrypt(&ik, &prm.ue[..32]), Auth::User));
    }
    let u48 = &prm.u[..48];
    if hash_r6(prm.revision, pw, &prm.o[32..40], u48) == prm.o[..32] {
        let ik = hash_r6(prm.revision, pw, &prm.o[40..48], u48);
        return Some((aes256_cbc_nopad_decrypt(&ik, &prm.oe[..32]), Auth::Owner));
    }
    None
}

/// Authenticates `password` as the user password, then as the owner password, and returns
/// the file key with the password that matched; `None` when it is neither.
///
/// For revisions 2–4 the password is taken as PDFDocEncoding bytes (ASCII passwords are the
/// same in every encoding); for revisions 5–6 as UTF-8 (SASLprep is not applied, so a
/// non-ASCII password must already be in its prepared form).
pub fn authenticate(prm: &Params<'_>, password: &[u8]) -> Option<(Vec<u8>, Auth)> {
    match prm.revision {
        2..=4 => {
            if prm.o.len() < 32 || prm.u.len() < 16 {
                return None;
            }
            user_r4(prm, password)
                .map(|k| (k, Auth::User))
                .or_else(|| owner_r4(prm, password).map(|k| (k, Auth::Owner)))
        }
        // Algorithm 2.A, the user password checked first (see `key_r6`).
        5 | 6 => key_r6(prm, password),
        _ => None,
    }
}

/// Algorithm 1: the key for object (`num`, `gen`) from the file key (RC4 and AES-128; AES-256
/// uses the file key itself). `aes` appends the `sAlT` bytes.
pub fn object_key(file_key: &[u8], num: u32, gen: u16, aes: bool) -> Vec<u8> {
    let mut h = Md5::new();
    h.update(file_key);
    h.update(&num.to_le_bytes()[..3]);
    h.update(gen.to_le_bytes());
    if aes {
        h.update(b"sAlT");
    }
    let d = h.finalize();
    d[..(file_key.len() + 5).min(16)].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds `/O` and `/U` the way a writer does (Algorithms 3, 4, 5) for a given revision,
    /// so the checks can be tested for each revision without a file.
    fn make_r4(
        revision: u8,
        key_len: usize,
        user: &[u8],
        owner: &[u8],
        id0: &[u8],
    ) -> (Vec<u8>, Vec<u8>) {
        let mut hash = Md5::digest(padded(owner)).to_vec();
        let n = if revision == 2 { 5 } else { key_len };
        if revision >= 3 {
            for _ in 0..50 {
                hash = Md5::digest(&hash).to_vec();
            }
        }
        let mut o = rc4(&hash[..n], &padded(user));
        if revision >= 3 {
            for i in 1..=19u8 {
                let k: Vec<u8> = hash[..n].iter().map(|b| b ^ i).collect();
                o = rc4(&k, &o);
            }
        }
        let prm = Params {
            revision,
            key_len,
            o: &o,
            u: &[],
            oe: &[],
            ue: &[],
            p: -4,
            id0,
            encrypt_metadata: true,
        };
        let key = file_key_r4(&prm, user);
        let mut u = u_value(&prm, &key);
        u.resize(32, 0);
        (o, u)
    }

    #[test]
    fn revisions_2_to_4_user_and_owner() {
        for (r, len) in [(2u8, 5usize), (3, 16), (3, 7), (4, 16)] {
            let id0 = b"0123456789abcdef";
            let (o, u) = make_r4(r, len, b"", b"owner secret", id0);
            let prm = Params {
                revision: r,
                key_len: len,
                o: &o,
                u: &u,
                oe: &[],
                ue: &[],
                p: -4,
                id0,
                encrypt_metadata: true,
            };
            let (k_user, a) = authenticate(&prm, b"").expect("empty user password");
            assert_eq!(a, Auth::User);
            assert_eq!(k_user.len(), len);
            let (k_owner, a) = authenticate(&prm, b"owner secret").expect("owner password");
            assert_eq!(a, Auth::Owner);
            assert_eq!(
                k_user, k_owner,
                "R{r}: both passwords give the same file key"
            );
            assert!(authenticate(&prm, b"wrong").is_none());
        }
    }

    #[test]
    fn object_key_lengths() {
        assert_eq!(object_key(&[1; 5], 7, 0, false).len(), 10);
        assert_eq!(object_key(&[1; 16], 7, 0, true).len(), 16);
        assert_ne!(
            object_key(&[1; 16], 7, 0, true),
            object_key(&[1; 16], 7, 0, false)
        );
        assert_ne!(
            object_key(&[1; 16], 7, 0, false),
            object_key(&[1; 16], 8, 0, false)
        );
    }

    #[test]
    fn malformed_values_are_refused_not_panics() {
        for r in [2u8, 3, 4, 5, 6, 7] {
            let prm = Params {
                revision: r,
                key_len: 16,
                o: b"short",
                u: b"",
                oe: b"",
                ue: b"",
                p: 0,
                id0: b"",
                encrypt_metadata: true,
            };
            assert!(authenticate(&prm, b"").is_none());
        }
    }
}
