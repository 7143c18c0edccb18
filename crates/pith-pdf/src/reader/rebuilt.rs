//! What a scan of a damaged file found (the `repair` module scans; the writer appends a
//! complete section of it): a value of the reader's vocabulary, below both.

use std::collections::BTreeMap;

use super::Entry;
use crate::syntax::Ref;

/// What a scan of a damaged file found: every object's last definition, the catalog and the
/// trailer entries readers would use. Offsets count from `%PDF-` (the reader's base).
#[derive(Debug, Clone)]
pub struct Rebuilt {
    /// Position of `%PDF-` in the file (the base offsets count from).
    pub header: usize,
    /// Every object found: its offset and generation, or its place in an object stream.
    pub(crate) entries: BTreeMap<u32, Entry>,
    /// The catalog.
    pub root: Ref,
    /// The Info dictionary, when the last trailer names one that exists.
    pub info: Option<Ref>,
    /// The `/ID` array of the last trailer, as hexadecimal text.
    pub id: Option<String>,
    /// Whether the file used cross-reference streams (then an xref stream is written).
    pub xref_streams: bool,
    /// The last `startxref` value written in the file (0 when there is none).
    pub startxref: u64,
    /// How many objects are pages (`/Type /Page`, by their last definition, in object streams
    /// too): the pages a reader that reconstructs finds, whatever the page tree says.
    pub pages: usize,
    /// The streams a full load decodes whole (object streams, xref streams, metadata
    /// streams): their numbers and offsets (from `%PDF-`), for the check of what a full load decodes (`repair::check_decoded`).
    pub(crate) decoded: Vec<(u32, usize)>,
}

impl Rebuilt {
    /// Whether some object lives in an object stream (only an xref stream can say so).
    pub fn has_compressed(&self) -> bool {
        self.entries
            .values()
            .any(|e| matches!(e, Entry::InStream(..)))
    }

    /// The number of objects found.
    pub fn objects(&self) -> usize {
        self.entries.len()
    }
}
