//! One cross-reference entry as the reader keeps it, whichever kind of section it came from
//! (a classic table or an xref stream). A leaf of the reader: the table and the xref modules
//! both use it, and neither needs the other for it.

/// Where an object is, per one cross-reference entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A free entry: the object is deleted (or never existed).
    Free,
    /// Offset as written in the file (add `delta` for the position), generation.
    Offset(u64, u16),
    /// Object stream number, index.
    InStream(u32, u32),
}
