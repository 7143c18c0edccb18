//! The PNG and TIFF predictors of `/FlateDecode` and `/LZWDecode` (ISO 32000-2 §7.4.4.4):
//! their parameters checked, what they hold counted, rows undone as they are read.

use std::io::{self, Read};

use super::{Bytes, FilterError, Pending, BYTES_HELD, MAX_ROW};
use crate::syntax::{Dict, Obj};

/// A predictor's parameters (§7.4.4.4): whether it is PNG's, bytes per pixel, bytes per row.
pub(super) struct Predicting {
    png: bool,
    bpp: usize,
    row: usize,
}

/// The predictor `parm` asks for (`None`: none), checked: rows of at most [`MAX_ROW`] bytes,
/// a TIFF predictor of 8-bit components only.
fn predicting(parm: Option<&Dict>) -> Result<Option<Predicting>, FilterError> {
    let Some(p) = parm else { return Ok(None) };
    let get = |k: &[u8], d: i64| p.get(k).and_then(Obj::as_int).unwrap_or(d);
    let predictor = get(b"Predictor", 1);
    if predictor < 2 {
        return Ok(None);
    }
    let colors = get(b"Colors", 1).clamp(1, 64) as usize;
    let bpc = get(b"BitsPerComponent", 8).clamp(1, 16) as usize;
    let columns = get(b"Columns", 1).clamp(1, 1 << 24) as usize;
    let bpp = (colors * bpc).div_ceil(8).max(1);
    let row = (colors * bpc * columns).div_ceil(8);
    if row > MAX_ROW {
        return Err(FilterError::Unsupported(format!(
            "predictor rows of {row} bytes"
        )));
    }
    let png = predictor >= 10;
    if !png && (predictor != 2 || bpc != 8) {
        return Err(FilterError::Unsupported(format!(
            "TIFF predictor {predictor} with {bpc} bits per component"
        )));
    }
    Ok(Some(Predicting { png, bpp, row }))
}

/// What the predictor of `parm` holds: its two rows and its input buffer.
pub(super) fn predictor_held(parm: Option<&Dict>) -> Result<u64, FilterError> {
    Ok(predicting(parm)?.map_or(0, |p| 2 * p.row as u64 + BYTES_HELD))
}

/// The reader undoing the predictor of `parm` (§7.4.4.4) over `src`, or `src` itself.
pub(super) fn predicted<'a>(
    src: Box<dyn Read + 'a>,
    parm: Option<&Dict>,
) -> Result<Box<dyn Read + 'a>, FilterError> {
    let Some(Predicting { png, bpp, row }) = predicting(parm)? else {
        return Ok(src);
    };
    Ok(Box::new(Predictor {
        src: Bytes::new(src),
        png,
        bpp,
        prev: vec![0; row],
        cur: vec![0; row],
        out: Pending::default(),
        done: false,
    }))
}

/// Undoes a PNG (10–15, a filter-type byte per row) or TIFF 2 predictor row by row.
pub(super) struct Predictor<R> {
    src: Bytes<R>,
    png: bool,
    bpp: usize,
    prev: Vec<u8>,
    cur: Vec<u8>,
    out: Pending,
    done: bool,
}

impl<R: Read> Predictor<R> {
    /// Decodes the next row into `out`; a last partial row is decoded as if padded with zeros
    /// and yields its own length.
    fn row(&mut self) -> io::Result<()> {
        let ft = if self.png {
            match self.src.next()? {
                Some(t) => t,
                None => {
                    self.done = true;
                    return Ok(());
                }
            }
        } else {
            0
        };
        let mut got = 0;
        while got < self.cur.len() {
            match self.src.next()? {
                Some(b) => {
                    self.cur[got] = b;
                    got += 1;
                }
                None => break,
            }
        }
        if got < self.cur.len() {
            self.done = true;
            if got == 0 {
                return Ok(());
            }
            self.cur[got..].fill(0);
        }
        let bpp = self.bpp;
        if !self.png {
            for i in bpp..self.cur.len() {
                self.cur[i] = self.cur[i].wrapping_add(self.cur[i - bpp]);
            }
        } else {
            let (cur, prev) = (&mut self.cur, &self.prev);
            for i in 0..cur.len() {
                let a = if i >= bpp { cur[i - bpp] } else { 0 };
                let b = prev[i];
                let c = if i >= bpp { prev[i - bpp] } else { 0 };
                cur[i] = match ft {
                    0 => cur[i],
                    1 => cur[i].wrapping_add(a),
                    2 => cur[i].wrapping_add(b),
                    3 => cur[i].wrapping_add(((u16::from(a) + u16::from(b)) / 2) as u8),
                    4 => {
                        let pa = (i16::from(b) - i16::from(c)).abs();
                        let pb = (i16::from(a) - i16::from(c)).abs();
                        let pc = (i16::from(a) + i16::from(b) - 2 * i16::from(c)).abs();
                        let pr = if pa <= pb && pa <= pc {
                            a
                        } else if pb <= pc {
                            b
                        } else {
                            c
                        };
                        cur[i].wrapping_add(pr)
                    }
                    _ => {
                        return Err(FilterError::Corrupt(
                            "predicted".into(),
                            "bad PNG predictor row type".into(),
                        )
                        .into_io())
                    }
                };
            }
        }
        self.out.data.extend_from_slice(&self.cur[..got]);
        std::mem::swap(&mut self.prev, &mut self.cur);
        Ok(())
    }
}

impl<R: Read> Read for Predictor<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.out.reset();
            self.row()?;
        }
        Ok(self.out.drain(buf))
    }
}
