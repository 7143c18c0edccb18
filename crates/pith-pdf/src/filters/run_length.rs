//! `/RunLengthDecode` (ISO 32000-2 §7.4.5), decoded as it is read.

use std::io::{self, Read};

use super::{Bytes, Pending};

/// `/RunLengthDecode` (§7.4.5): a length byte n, then n+1 literal bytes (n < 128) or one byte
/// repeated 257−n times (n > 128); 128 ends the data.
pub(super) struct RunLength<R> {
    src: Bytes<R>,
    out: Pending,
    done: bool,
}

impl<R: Read> RunLength<R> {
    pub(super) fn new(src: R) -> Self {
        RunLength {
            src: Bytes::new(src),
            out: Pending::default(),
            done: false,
        }
    }
}

impl<R: Read> Read for RunLength<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.out.reset();
            match self.src.next()? {
                None | Some(128) => self.done = true,
                Some(n) if n < 128 => {
                    for _ in 0..=n {
                        match self.src.next()? {
                            Some(b) => self.out.data.push(b),
                            None => {
                                self.done = true;
                                break;
                            }
                        }
                    }
                }
                Some(n) => match self.src.next()? {
                    Some(b) => self
                        .out
                        .data
                        .extend(std::iter::repeat_n(b, 257 - usize::from(n))),
                    None => self.done = true,
                },
            }
        }
        Ok(self.out.drain(buf))
    }
}
