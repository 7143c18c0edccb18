//! The document information dictionary (ISO 32000-2 §14.3.3): the Pith entries `/PithNumber`
//! and `/PithURL` (the same keys `pith.sty` writes), as typed entries and as a splice into the
//! original dictionary text. It writes no files and knows nothing of xref sections.

use super::syntax::{decode_text, text_string, Dict, Obj};

/// Info key of the full number (`pith:2024:…`), a text string.
pub use crate::vocab::INFO_NUMBER as KEY_NUMBER;
/// Info key of the verification URL, a text string.
pub use crate::vocab::INFO_URL as KEY_URL;

/// One Info entry: key (without slash) and text value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key, e.g. `PithNumber`.
    pub key: &'static str,
    /// The text string value.
    pub value: String,
}

/// The Info entries for a number: `/PithNumber` (full form) and `/PithURL`.
pub fn entries(full: &str, url: &str) -> Vec<Entry> {
    vec![
        Entry {
            key: KEY_NUMBER,
            value: full.to_string(),
        },
        Entry {
            key: KEY_URL,
            value: url.to_string(),
        },
    ]
}

/// Reads `/PithNumber` and `/PithURL` from an Info dictionary.
pub fn read(d: &Dict) -> (Option<String>, Option<String>) {
    let get = |k: &str| match d.get(k.as_bytes()) {
        Some(Obj::Str(s)) => Some(decode_text(s)),
        _ => None,
    };
    (get(KEY_NUMBER), get(KEY_URL))
}

/// Whether `d` already holds exactly `entries`.
pub fn carries(d: &Dict, entries: &[Entry]) -> bool {
    entries
        .iter()
        .all(|e| matches!(d.get(e.key.as_bytes()), Some(Obj::Str(s)) if decode_text(s) == e.value))
}

/// The dictionary text `text` (the bytes of `d`, `<<` … `>>`, whose spans start at
/// `d.span.start`) with the Pith entries replaced by `entries`; every other entry is kept
/// byte for byte.
pub fn splice(d: &Dict, text: &[u8], entries: &[Entry]) -> Vec<u8> {
    let base = d.span.start;
    let mut out = b"<<".to_vec();
    for e in entries {
        out.extend_from_slice(format!(" /{} ", e.key).as_bytes());
        out.extend_from_slice(&text_string(&e.value));
    }
    let mut at = 2;
    for (k, _, span) in &d.entries {
        if entries.iter().any(|e| e.key.as_bytes() == k.as_slice()) {
            let (s, end) = (span.start - base, span.end - base);
            if s >= at && end <= text.len() {
                out.extend_from_slice(&text[at..s]);
                at = end;
            }
        }
    }
    out.extend_from_slice(&text[at.min(text.len())..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::syntax::Parser;

    #[test]
    fn splice_keeps_other_entries() {
        let text = b"<</Title (A \\(b\\)) /PithNumber (old) /Author<FEFF0041>>>";
        let d = Parser::new(text, 0, true).dict().unwrap();
        let out = splice(
            &d,
            text,
            &entries("pith:2024:X", "https://pith.science/pith/X"),
        );
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "<< /PithNumber (pith:2024:X) /PithURL (https://pith.science/pith/X)/Title (A \\(b\\))  /Author<FEFF0041>>>"
        );
        let d2 = Parser::new(&out, 0, true).dict().unwrap();
        assert_eq!(
            read(&d2),
            (
                Some("pith:2024:X".into()),
                Some("https://pith.science/pith/X".into())
            )
        );
        assert!(carries(
            &d2,
            &entries("pith:2024:X", "https://pith.science/pith/X")
        ));
    }
}
