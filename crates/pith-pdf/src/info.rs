//! The document information dictionary (ISO 32000-2 §14.3.3): the Pith entries `/PithNumber`
//! and `/PithURL` (the same keys `pith.sty` writes), as typed entries; the writer
//! ([`super::writer::object::DictPatch`]) serialises them into the original dictionary. It
//! writes no bytes and knows nothing of xref sections.

use crate::syntax::{decode_text, Dict, Obj};

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

/// Info key of the document's title (ISO 32000-2 §14.3.3, a text string).
pub const KEY_TITLE: &str = "Title";
/// Info key of the author or authors (a text string).
pub const KEY_AUTHOR: &str = "Author";

/// The text of entry `key`, if it is a string.
pub fn text(d: &Dict, key: &str) -> Option<String> {
    match d.get(key.as_bytes()) {
        Some(Obj::Str(s)) => Some(decode_text(s)),
        _ => None,
    }
}

/// The [`crate::vocab::added`] name of an entry pith writes for the paper (`Info/Title`).
pub fn added_name(e: &Entry) -> &'static str {
    match e.key {
        KEY_TITLE => crate::vocab::added::INFO_TITLE,
        _ => crate::vocab::added::INFO_AUTHOR,
    }
}

/// The Info entries pith wrote for a paper (those `added` says the packet's `pith:added` lists)
/// that `d` still holds: what an update that no longer writes them, or a strip, removes.
pub fn paper_keys_held(d: Option<&Dict>, added: impl Fn(&str) -> bool) -> Vec<&'static str> {
    [
        (crate::vocab::added::INFO_TITLE, KEY_TITLE),
        (crate::vocab::added::INFO_AUTHOR, KEY_AUTHOR),
    ]
    .into_iter()
    .filter(|(name, key)| added(name) && d.is_some_and(|d| text(d, key).is_some()))
    .map(|(_, key)| key)
    .collect()
}

/// Reads `/PithNumber` and `/PithURL` from an Info dictionary.
pub fn read(d: &Dict) -> (Option<String>, Option<String>) {
    let get = |k: &str| match d.get(k.as_bytes()) {
        Some(Obj::Str(s)) => Some(decode_text(s)),
        _ => None,
    };
    (get(KEY_NUMBER), get(KEY_URL))
}

/// Info `/Subject` and `/Keywords` of `d`, when they are strings.
pub fn described(d: &Dict) -> (Option<String>, Option<String>) {
    let get = |k: &[u8]| match d.get(k) {
        Some(Obj::Str(s)) => Some(decode_text(s)),
        _ => None,
    };
    (get(b"Subject"), get(b"Keywords"))
}

/// Whether `d` already holds exactly `entries`.
pub fn carries(d: &Dict, entries: &[Entry]) -> bool {
    entries
        .iter()
        .all(|e| matches!(d.get(e.key.as_bytes()), Some(Obj::Str(s)) if decode_text(s) == e.value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Parser;

    #[test]
    fn read_and_carries() {
        let text = b"<</Title (A) /PithNumber (pith:2024:X) /PithURL <FEFF0068>>>";
        let d = Parser::new(text, 0, true).dict().unwrap();
        assert_eq!(read(&d), (Some("pith:2024:X".into()), Some("h".into())));
        assert!(carries(&d, &entries("pith:2024:X", "h")));
        assert!(!carries(&d, &entries("pith:2024:Y", "h")));
        assert!(carries(&d, &[]));
    }
}
