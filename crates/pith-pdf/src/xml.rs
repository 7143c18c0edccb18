//! Guards run on untrusted XML before it reaches roxmltree.
//!
//! roxmltree's tokenizer recurses once per element level and checks attribute names pairwise,
//! so a hostile packet or feed (200,000 nested elements, 100,000 attributes) would abort the
//! process or take minutes. [`shape`] measures both in one linear pass, so callers can refuse
//! such input first. Used for arXiv Atom feeds (the `pith` crate's `record::atom`) and XMP packets
//! (the `xmp` module), and [`escape`], the XML escaping every writer of XML uses.

/// What [`shape`] measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Deepest element nesting.
    pub depth: usize,
    /// Most attributes on one element (an upper bound: `=` signs outside quoted values).
    pub attributes: usize,
    /// Elements in all (start and empty-element tags).
    pub elements: usize,
}

/// Measures element nesting and attributes per element in one linear pass. Comments, CDATA
/// sections, processing instructions and declarations are skipped whole, and quoted attribute
/// values inside start tags, so that neither `</` in a comment nor `/>` in a value can hide
/// nesting.
///
/// # Examples
/// ```
/// let s = pith_pdf::xml::shape("<a><b/><c x='/>' y='1'>t</c><!-- </a> --></a>");
/// assert_eq!((s.depth, s.attributes, s.elements), (2, 2, 3));
/// ```
pub fn shape(s: &str) -> Shape {
    let b = s.as_bytes();
    // The position just past the next `pat` at or after `from` (or the end of the text).
    let past = |from: usize, pat: &[u8]| {
        let from = from.min(b.len());
        memchr::memmem::find(&b[from..], pat).map_or(b.len(), |p| from + p + pat.len())
    };
    let (mut depth, mut max, mut attrs, mut elements) = (0usize, 0usize, 0usize, 0usize);
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &b[i..]) {
        i += k;
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = past(i + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = past(i + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = past(i + 2, b"?>");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = past(i + 2, b">");
        } else if rest.starts_with(b"<!") {
            i = past(i + 2, b">");
        } else {
            // A start tag, to its first `>` outside quotes; `=` outside quotes counts attributes.
            // Outside quotes only `"`, `'`, `=` and `>` matter, inside only the closing quote:
            // the tag runs to the first `>` from `j`, unless a quote opened before it closes
            // after it, and the search starts again past that quote.
            let (mut j, mut eq) = (i + 1, 0usize);
            'tag: loop {
                let end = memchr::memchr(b'>', &b[j..]).map_or(b.len(), |e| j + e);
                let mut k = j;
                while let Some(at) = memchr::memchr3(b'"', b'\'', b'=', &b[k..end]).map(|o| k + o) {
                    if b[at] == b'=' {
                        eq += 1;
                        k = at + 1;
                        continue;
                    }
                    let close = memchr::memchr(b[at], &b[at + 1..]).map_or(b.len(), |e| at + 2 + e);
                    if close > end {
                        j = close;
                        continue 'tag;
                    }
                    k = close;
                }
                j = end;
                break;
            }
            attrs = attrs.max(eq);
            elements += 1;
            // An empty-element tag `<a/>` does not nest.
            if !(j < b.len() && b[j - 1] == b'/') {
                depth += 1;
                max = max.max(depth);
            }
            i = (j + 1).min(b.len());
        }
    }
    Shape {
        depth: max,
        attributes: attrs,
        elements,
    }
}

/// Escapes text for XML character data and double-quoted attribute values: `& < > "` become
/// entities, everything else is kept.
///
/// # Examples
/// ```
/// assert_eq!(pith_pdf::xml::escape("<x a=\"1\">&</x>"), "&lt;x a=&quot;1&quot;&gt;&amp;&lt;/x&gt;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !push_escaped(&mut out, c) {
            out.push(c);
        }
    }
    out
}

/// Pushes the entity of `c` when XML needs one; false (and nothing pushed) otherwise.
pub fn push_escaped(out: &mut String, c: char) -> bool {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`shape`] one byte at a time, table-driven: the reading the searches above must agree
    /// with.
    fn shape_bytewise(s: &str) -> Shape {
        const SKIPPED: [(&[u8], &[u8]); 5] = [
            (b"<!--", b"-->"),
            (b"<![CDATA[", b"]]>"),
            (b"<?", b"?>"),
            (b"</", b">"),
            (b"<!", b">"),
        ];
        let b = s.as_bytes();
        let mut found = Shape {
            depth: 0,
            attributes: 0,
            elements: 0,
        };
        let mut depth = 0usize;
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'<' {
                i += 1;
                continue;
            }
            if let Some((open, close)) = SKIPPED.iter().find(|(o, _)| b[i..].starts_with(o)) {
                if *open == b"</" {
                    depth = depth.saturating_sub(1);
                }
                let mut j = i + open.len();
                while j < b.len() && !b[j..].starts_with(close) {
                    j += 1;
                }
                i = (j + close.len()).min(b.len());
                continue;
            }
            let (mut j, mut quote, mut eq) = (i + 1, 0u8, 0);
            while j < b.len() && (quote != 0 || b[j] != b'>') {
                match b[j] {
                    c if c == quote => quote = 0,
                    b'"' | b'\'' if quote == 0 => quote = b[j],
                    b'=' if quote == 0 => eq += 1,
                    _ => {}
                }
                j += 1;
            }
            found.attributes = found.attributes.max(eq);
            found.elements += 1;
            if j >= b.len() || b[j - 1] != b'/' {
                depth += 1;
                found.depth = found.depth.max(depth);
            }
            i = j + 1;
        }
        found
    }

    #[test]
    fn shape_agrees_with_a_bytewise_scan() {
        // Short texts over the bytes the scan looks at, from a fixed xorshift sequence.
        const ALPHABET: &[u8] = b"<>/=\"'!-?[]CDATa x";
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..50_000 {
            let len = (next() % 40) as usize;
            let s: String = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize] as char)
                .collect();
            assert_eq!(shape(&s), shape_bytewise(&s), "{s:?}");
        }
        let packet =
            "<x:xmpmeta a='>' b=\"x'\"><r c=\"1\"/><!-- <q> --><![CDATA[<z>]]></x:xmpmeta>";
        assert_eq!(shape(packet), shape_bytewise(packet));
    }
}
