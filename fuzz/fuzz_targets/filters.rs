//! Fuzz target: a stream's filter dictionary and data. The input's first line is the stream
//! dictionary (`<< /Filter [...] /DecodeParms [...] >>`), the rest its encoded data; the data
//! goes through `pith::pdf::filters` within the default limits of one stream. Decoding whole
//! and decoding in small reads must agree, and neither may hold more than the bound and the
//! chain's allowance (the run's 256 MB RSS limit makes an amplification a crash).
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use pith::pdf::filters::{decode, Decoder, FilterError};
use pith::pdf::syntax::Parser;
use pith::pdf::Limits;

/// What one input may decode to.
const BOUND: u64 = 4 << 20;

fuzz_target!(|input: &[u8]| {
    let cut = input.iter().position(|&b| b == b'\n').unwrap_or(input.len());
    let (dict, data) = (&input[..cut], input.get(cut + 1..).unwrap_or(&[]));
    let Ok(d) = Parser::new(dict, 0, true).dict() else {
        return;
    };
    let limits = Limits::default();
    let whole = decode(&d, data, BOUND, &limits);
    if let Err(FilterError::OverLimit(r, limit)) = &whole {
        assert_eq!(*limit, limits.get(*r), "a refusal names its limit");
    }
    let Ok(mut dec) = Decoder::new(&d, data, &limits) else {
        return;
    };
    // The same bytes, asked for a few at a time.
    let mut pieces = Vec::new();
    let mut buf = [0u8; 7];
    loop {
        match dec.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                pieces.extend_from_slice(&buf[..n]);
                if pieces.len() as u64 > BOUND {
                    assert!(
                        matches!(whole, Err(FilterError::TooLarge(_))),
                        "read in pieces, the stream goes past the bound the whole read kept"
                    );
                    return;
                }
            }
            Err(_) => {
                assert!(whole.is_err(), "read in pieces fails where the whole read did not");
                return;
            }
        }
    }
    if let Ok(w) = whole {
        assert_eq!(w, pieces, "read whole and in pieces, the stream decodes alike");
    }
});
