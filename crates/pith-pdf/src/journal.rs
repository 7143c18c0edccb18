//! The marker of an in-place update: one PDF comment line written just
//! before the final `startxref`, naming the original length, the original `startxref` and
//! the update's own. It is written first (with a copy of the original `startxref` tail) and
//! committed last, so at every moment a file that ends with the marker says exactly whether
//! the update after the original bytes was committed:
//!
//! ```text
//! %pith-update base 48213 prev 47990 xref 52011
//! startxref
//! 0000047990        <- still the old value: not committed, bytes 48213.. are pith's own
//! %%EOF
//! ```
//!
//! [`recognise`] reads it back; the reader then treats the file as its first `base` bytes and
//! an in-place run cuts the uncommitted bytes off before doing anything else. After the
//! commit the marker stays, a comment that readers skip.

/// The marker line's keyword.
const KEYWORD: &[u8] = b"%pith-update base ";

/// The marker line for an update appended at `base`, whose `/Prev` is `prev` and whose
/// xref section is at `xref`.
pub fn marker(base: u64, prev: u64, xref: u64) -> Vec<u8> {
    format!("%pith-update base {base} prev {prev} xref {xref}\n").into_bytes()
}

/// The `startxref` tail with the offset zero-padded to `width` digits (at least 10, like xref
/// table offsets; wider only past 10 GB), so the old and new tails have the same length.
pub fn tail(offset: u64, width: usize) -> Vec<u8> {
    format!("startxref\n{offset:0width$}\n%%EOF\n").into_bytes()
}

/// An update recognised at the end of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marked {
    /// Length of the file before the update.
    pub base: u64,
    /// Whether the final `startxref` is the update's own (else it is the original's).
    pub committed: bool,
}

/// Recognises a pith marker and tail at the very end of `end`, the last bytes of a file of
/// length `file_len`. `None` when the file does not end that way (any other writer, or a
/// file pith never updated in place).
pub fn recognise(end: &[u8], file_len: u64) -> Option<Marked> {
    let at = memchr::memmem::rfind(end, KEYWORD)?;
    let text = std::str::from_utf8(&end[at + 1..]).ok()?;
    let mut lines = text.split('\n');
    let words: Vec<&str> = lines.next()?.split(' ').collect();
    let [_, "base", base, "prev", prev, "xref", xref] = words[..] else {
        return None;
    };
    let num = |s: &str| -> Option<u64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let (base, prev, xref) = (num(base)?, num(prev)?, num(xref)?);
    if lines.next()? != "startxref" {
        return None;
    }
    let sx = num(lines.next()?)?;
    if lines.next()? != "%%EOF" || !lines.next()?.is_empty() || lines.next().is_some() {
        return None;
    }
    let marker_pos = file_len - (end.len() - at) as u64;
    if base > marker_pos || prev == xref || (sx != prev && sx != xref) {
        return None;
    }
    Some(Marked {
        base,
        committed: sx == xref,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(base: u64, sx: u64) -> Vec<u8> {
        let mut v = vec![b' '; base as usize + 40];
        v.extend_from_slice(&marker(base, 7, 90));
        v.extend_from_slice(&tail(sx, 10));
        v
    }

    #[test]
    fn recognises_pending_and_committed() {
        let f = file(100, 7);
        assert_eq!(
            recognise(&f[f.len() - 200..], f.len() as u64),
            Some(Marked {
                base: 100,
                committed: false
            })
        );
        let f = file(100, 90);
        assert_eq!(
            recognise(&f, f.len() as u64),
            Some(Marked {
                base: 100,
                committed: true
            })
        );
    }

    #[test]
    fn anything_else_is_not_ours() {
        let f = file(100, 8);
        assert_eq!(recognise(&f, f.len() as u64), None, "a third startxref");
        let mut f = file(100, 7);
        f.extend_from_slice(b"\n");
        assert_eq!(recognise(&f, f.len() as u64), None, "bytes after the tail");
        let f = file(100, 7);
        let cut = &f[f.len() - 60..];
        assert_eq!(recognise(cut, 50), None, "base after the marker");
        assert_eq!(recognise(b"%%EOF\n", 6), None);
    }
}
