//! `/LZWDecode` (ISO 32000-2 §7.4.4) through weezl, decoded as it is read.

use std::io::{self, Read};

/// `/LZWDecode` (§7.4.4) through weezl: MSB-first codes from 9 bits, the code width growing
/// one code early unless `/EarlyChange 0`. A stream that breaks off ends there.
pub(super) struct Lzw<R> {
    src: R,
    dec: weezl::decode::Decoder,
    inbuf: Box<[u8; 8192]>,
    pos: usize,
    len: usize,
    eof: bool,
    done: bool,
    /// What was decoded and not read yet: `out[opos..olen]`.
    out: Vec<u8>,
    opos: usize,
    olen: usize,
}

impl<R: Read> Lzw<R> {
    pub(super) fn new(src: R, early_change: bool) -> Self {
        use weezl::{decode::Decoder, BitOrder};
        let dec = if early_change {
            Decoder::with_tiff_size_switch(BitOrder::Msb, 8)
        } else {
            Decoder::new(BitOrder::Msb, 8)
        };
        Lzw {
            src,
            dec,
            inbuf: Box::new([0; 8192]),
            pos: 0,
            len: 0,
            eof: false,
            done: false,
            out: vec![0; 8192],
            opos: 0,
            olen: 0,
        }
    }
}

impl<R: Read> Lzw<R> {
    /// Decodes into `buf`; 0 at the end.
    fn decode_into(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use weezl::LzwStatus;
        while !self.done && !buf.is_empty() {
            if self.pos == self.len && !self.eof {
                self.len = self.src.read(&mut self.inbuf[..])?;
                self.pos = 0;
                self.eof = self.len == 0;
            }
            let r = self.dec.decode_bytes(&self.inbuf[self.pos..self.len], buf);
            self.pos += r.consumed_in;
            match r.status {
                Ok(LzwStatus::Done) | Err(_) => self.done = true,
                Ok(LzwStatus::NoProgress) if self.eof => self.done = true,
                Ok(_) if self.eof && r.consumed_out == 0 && r.consumed_in == 0 => self.done = true,
                Ok(_) => {}
            }
            if r.consumed_out > 0 {
                return Ok(r.consumed_out);
            }
        }
        Ok(0)
    }
}

impl<R: Read> Read for Lzw<R> {
    /// Decodes a fixed 8 KiB at a time into a buffer of its own, so that where a broken
    /// stream ends does not depend on how much its reader asks for at once.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.opos == self.olen {
            let mut out = std::mem::take(&mut self.out);
            let n = self.decode_into(&mut out[..]);
            self.out = out;
            self.olen = n?;
            self.opos = 0;
        }
        let n = buf.len().min(self.olen - self.opos);
        buf[..n].copy_from_slice(&self.out[self.opos..self.opos + n]);
        self.opos += n;
        Ok(n)
    }
}
