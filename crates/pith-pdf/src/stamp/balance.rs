//! How a page's content stream nests `q`/`Q` (ISO 32000-2 §8.4.2), so the stamp can restore the
//! initial graphics state whatever the page leaves behind.
//!
//! Producers do write unbalanced content: a `q … cm` never closed, or a `Q` too many that pops
//! a state the page never saved. The walk of [`super::content`] reads the operators (skipping
//! strings, names, comments, dictionaries and inline image data, where a `q` byte is not an
//! operator) and reports the lowest depth reached and the depth at the end. The stamp then
//! opens enough `q`s before the page's content and closes enough `Q`s after it to be back at
//! the page's initial state. It only reads bytes; it knows nothing about objects or files.

pub use super::content::Nesting;

/// Scans content stream bytes for `q` and `Q` operators.
pub fn scan(data: &[u8]) -> Nesting {
    super::content::nesting(data)
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
