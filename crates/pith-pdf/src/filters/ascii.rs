//! `/ASCIIHexDecode` and `/ASCII85Decode` (ISO 32000-2 §7.4.2, §7.4.3): binary data written
//! as text, decoded as it is read.

use std::io::{self, Read};

use super::{Bytes, FilterError, Pending};

/// `/ASCIIHexDecode` (§7.4.2): pairs of hexadecimal digits, white space ignored, `>` ends
/// the data, an odd last digit is followed by 0.
pub(super) struct AsciiHex<R> {
    src: Bytes<R>,
    done: bool,
}

impl<R: Read> AsciiHex<R> {
    pub(super) fn new(src: R) -> Self {
        AsciiHex {
            src: Bytes::new(src),
            done: false,
        }
    }
}

impl<R: Read> Read for AsciiHex<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        let mut hi: Option<u8> = None;
        while n < buf.len() && !self.done {
            let Some(b) = self.src.next()? else {
                self.done = true;
                break;
            };
            let v = match b {
                b'>' => {
                    self.done = true;
                    break;
                }
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => continue,
            };
            match hi.take() {
                Some(h) => {
                    buf[n] = h << 4 | v;
                    n += 1;
                }
                None => hi = Some(v),
            }
        }
        // A digit read when the buffer filled up cannot happen: a pair completes before the
        // check; an odd last digit at the end of the data stands for its high half.
        if let Some(h) = hi {
            buf[n] = h << 4;
            n += 1;
        }
        Ok(n)
    }
}

/// `/ASCII85Decode` (§7.4.3): groups of five characters `!`..`u` for four bytes, `z` for four
/// zero bytes, white space ignored, `~>` ends the data; a final partial group of k characters
/// gives k−1 bytes.
pub(super) struct Ascii85<R> {
    src: Bytes<R>,
    out: Pending,
    done: bool,
}

impl<R: Read> Ascii85<R> {
    pub(super) fn new(src: R) -> Self {
        Ascii85 {
            src: Bytes::new(src),
            out: Pending::default(),
            done: false,
        }
    }

    /// Decodes the next group into `out`; false at the end of the data.
    fn group(&mut self) -> io::Result<bool> {
        let bad = |m: &str| FilterError::Corrupt("ASCII85Decode".into(), m.into()).into_io();
        let mut acc: u32 = 0;
        let mut count = 0;
        while count < 5 {
            let Some(c) = self.src.next()? else { break };
            match c {
                b'z' if count == 0 => {
                    self.out.data.extend_from_slice(&[0; 4]);
                    return Ok(true);
                }
                b'z' => return Err(bad("z inside a group")),
                b'~' => break,
                b'!'..=b'u' => {
                    acc = acc
                        .checked_mul(85)
                        .and_then(|a| a.checked_add(u32::from(c - b'!')))
                        .ok_or_else(|| bad("a group exceeds four bytes"))?;
                    count += 1;
                }
                c if c.is_ascii_whitespace() || c == 0 => {}
                _ => return Err(bad("a character outside the alphabet")),
            }
        }
        if count == 5 {
            self.out.data.extend_from_slice(&acc.to_be_bytes());
            return Ok(true);
        }
        // The end: a partial group is padded with `u` (84).
        if count > 1 {
            for _ in count..5 {
                acc = acc
                    .checked_mul(85)
                    .and_then(|a| a.checked_add(84))
                    .ok_or_else(|| bad("a group exceeds four bytes"))?;
            }
            self.out
                .data
                .extend_from_slice(&acc.to_be_bytes()[..count - 1]);
        }
        Ok(false)
    }
}

impl<R: Read> Read for Ascii85<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.out.reset();
            if !self.group()? {
                self.done = true;
            }
        }
        Ok(self.out.drain(buf))
    }
}
