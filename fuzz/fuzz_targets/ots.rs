//! Fuzz target: OpenTimestamps proofs (`pith::ots`). Any bytes as a proof, as a calendar's
//! answer and as a headers file: each may be refused but never panics, and stays within the
//! limits (run with a low RSS limit, so that an amplification is a crash). A proof that reads
//! writes back to the same proof; one checked against the headers gives a verdict; an answer
//! merged into it gives a tree that, written, either reads back or is refused, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pith::ots::{check, Expected, Headers, Proof, Timestamp};

fuzz_target!(|data: &[u8]| {
    let headers = Headers::parse(data).unwrap_or_default();
    let _ = headers.find(0, &[0; 32]);
    if let Ok((proof, _)) = Proof::read(data) {
        let bytes = proof.to_bytes();
        assert_eq!(Proof::parse(&bytes).expect("a proof read writes back"), proof);
        let _ = check(&proof, &Expected::Digest(proof.digest.clone()), &headers);
        let _ = proof.bitcoin_roots();
        // The same bytes as a calendar's answer to every pending attestation.
        if let Ok(answer) = Timestamp::parse(&bytes[bytes.len().min(66)..]) {
            let mut upgraded = proof.clone();
            let digest = proof.digest.clone();
            let mut once = Some(answer);
            let _ = upgraded
                .timestamp
                .upgrade(&digest, &mut |_, _| Ok::<_, pith::ots::Error>(once.take()));
            let _ = Proof::parse(&upgraded.to_bytes());
        }
    }
    if let Ok(t) = Timestamp::parse(data) {
        let mut merged = t.clone();
        merged.merge(t);
        let _ = merged.reached(&[0; 32]);
    }
});
