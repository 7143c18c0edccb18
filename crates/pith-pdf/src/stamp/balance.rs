//! How a page's content stream nests `q`/`Q` (ISO 32000-2 §8.4.2), so the stamp can restore the
//! initial graphics state whatever the page leaves behind (issue 13).
//!
//! Producers do write unbalanced content: a `q … cm` never closed, or a `Q` too many that pops
//! a state the page never saved. [`scan`] walks the operators (skipping strings, names,
//! comments, dictionaries and inline image data, where a `q` byte is not an operator) and
//! reports the lowest depth reached and the depth at the end. The stamp then opens enough
//! `q`s before the page's content and closes enough `Q`s after it to be back at the page's
//! initial state. It only reads bytes; it knows nothing about objects or files.

/// Nesting of `q`/`Q` in a content stream, counted from 0 at its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nesting {
    /// The lowest depth reached (0 or negative: `-k` means `k` more `Q` than `q` at a point).
    pub min: i64,
    /// The depth at the end.
    pub end: i64,
}

impl Nesting {
    /// How many `q` to put before the content so that it never pops a state it did not save.
    pub fn opens(&self) -> usize {
        1 + usize::try_from(-self.min).unwrap_or(0)
    }
    /// How many `Q` after the content bring the stack back to where it was before the opens.
    pub fn closes(&self) -> usize {
        usize::try_from(self.opens() as i64 + self.end).unwrap_or(0)
    }
}

fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

fn is_delim(b: u8) -> bool {
    b"()<>[]{}/%".contains(&b)
}

/// Scans content stream bytes for `q` and `Q` operators.
pub fn scan(data: &[u8]) -> Nesting {
    let mut n = Nesting::default();
    let mut depth: i64 = 0;
    let mut i = 0;
    let len = data.len();
    while i < len {
        let b = data[i];
        if is_white(b) {
            i += 1;
        } else if b == b'%' {
            while i < len && data[i] != b'\n' && data[i] != b'\r' {
                i += 1;
            }
        } else if b == b'(' {
            // Literal string: balanced parentheses, backslash escapes.
            let mut level = 0usize;
            while i < len {
                match data[i] {
                    b'\\' => i += 1,
                    b'(' => level += 1,
                    b')' => {
                        level -= 1;
                        if level == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if b == b'<' {
            if data.get(i + 1) == Some(&b'<') {
                i += 2;
            } else {
                while i < len && data[i] != b'>' {
                    i += 1;
                }
                i += 1;
            }
        } else if b == b'/' {
            i += 1;
            while i < len && !is_white(data[i]) && !is_delim(data[i]) {
                i += 1;
            }
        } else if is_delim(b) {
            i += 1;
        } else {
            let start = i;
            while i < len && !is_white(data[i]) && !is_delim(data[i]) {
                i += 1;
            }
            match &data[start..i] {
                b"q" => depth += 1,
                b"Q" => {
                    depth -= 1;
                    n.min = n.min.min(depth);
                }
                b"BI" => i = skip_inline_image(data, i),
                _ => {}
            }
        }
    }
    n.end = depth;
    n
}

/// From just after `BI`, the position after the matching `EI`: past the `ID` operator, the
/// image data ends at the first `EI` standing alone between white space (or at the end).
fn skip_inline_image(data: &[u8], mut i: usize) -> usize {
    let len = data.len();
    // Find the ID operator (keys and values before it are ordinary tokens).
    while i + 1 < len {
        if data[i] == b'I'
            && data[i + 1] == b'D'
            && i > 0
            && is_white(data[i - 1])
            && data.get(i + 2).is_none_or(|&c| is_white(c))
        {
            i += 3;
            break;
        }
        i += 1;
    }
    while i + 1 < len {
        if data[i] == b'E'
            && data[i + 1] == b'I'
            && i > 0
            && is_white(data[i - 1])
            && data.get(i + 2).is_none_or(|&c| is_white(c))
        {
            return i + 2;
        }
        i += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_content_needs_one_pair() {
        let n = scan(b"q 1 0 0 1 5 5 cm BT /F1 12 Tf (q) Tj ET Q q Q");
        assert_eq!(n, Nesting { min: 0, end: 0 });
        assert_eq!((n.opens(), n.closes()), (1, 1));
    }

    #[test]
    fn an_unclosed_q_is_closed_after_the_page() {
        let n = scan(b"q 0.5 0 0 0.5 0 0 cm q 1 g");
        assert_eq!(n.end, 2);
        assert_eq!((n.opens(), n.closes()), (1, 3));
    }

    #[test]
    fn a_q_too_many_gets_its_own_open() {
        let n = scan(b"Q Q 2 0 0 2 0 0 cm q");
        assert_eq!(n, Nesting { min: -2, end: -1 });
        assert_eq!((n.opens(), n.closes()), (3, 2));
    }

    #[test]
    fn q_bytes_that_are_not_operators_are_ignored() {
        let n = scan(
            b"% q q q\n(a (q) \\) Q) Tj <71> Tj /q gs [(Q)] TJ << /Q 1 >> BDC \
              BI /W 2 /H 1 /BPC 8 /CS /G ID qQ\nEI Q qq",
        );
        // Only the final `Q` counts; `qq` is an unknown operator, not two `q`s.
        assert_eq!(n, Nesting { min: -1, end: -1 });
    }
}
