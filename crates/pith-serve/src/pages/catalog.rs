//! What the pages ask of the index, in one trait: the index answers it (`crate::index`), and
//! the pages' unit tests answer it from memory.

use pith::Record;

use super::record::Facts;

/// An index error as the pages see it: said in a 500 page.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The lookups the pages make.
pub trait Catalog: Send + Sync {
    /// How many paper versions the index holds.
    fn count(&self) -> Result<u64, Error>;
    /// Whether a record of `code` (26 characters) is indexed.
    fn has_code(&self, code: &str) -> Result<bool, Error>;
    /// The code starting with `prefix` (8, 12 or 16 characters) when exactly one does.
    fn code_of_prefix(&self, prefix: &str) -> Result<Option<String>, Error>;
    /// The code of arXiv paper `id` at `version` (the latest indexed when `None`).
    fn code_of_arxiv(&self, id: &str, version: Option<u32>) -> Result<Option<String>, Error>;
    /// What the record page of `code` shows.
    fn facts(&self, code: &str) -> Result<Option<Facts>, Error>;
    /// The canonical record of `code`.
    fn record(&self, code: &str) -> Result<Option<Record>, Error>;
    /// The bundle of `code` as JSON text, when one is indexed.
    fn bundle_json(&self, code: &str) -> Result<Option<String>, Error>;
}
