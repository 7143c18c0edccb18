//! # pith
//!
//! Pith Numbers for scientific papers. A Pith Number (`pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`) is
//! the first 26 base32 characters of the SHA-256 of a paper's canonical metadata record,
//! resolvable at `https://pith.science/pith/<26 characters>`.
//!
//! The crate is layered; dependencies flow one way:
//! `cli` → [`pdf`], [`sty`], [`badge`] → [`record`] → [`number`].
//!
//! - [`number`]: bytes → SHA-256 → base32, parsing of `pith:YYYY:CODE` and its aliases.
//! - [`record`]: the canonical record, its canonical JSON bytes, text canonicalisation, arXiv
//!   Atom input.
//! - [`verify`]: checks of records, texts and bundles (Ed25519 receipts).
//! - [`sty`]: renders the LaTeX package `pith.sty`.
//! - [`pdf`]: reads and injects the number into compiled PDFs (XMP and Info).
//! - [`badge`]: SVG badges and embedding snippets.
//! - [`xml`]: guards run on untrusted XML before it is parsed.
//! - [`vocab`]: the names a number is written under (URL base, XMP namespace and properties,
//!   Info keys); [`escape`]: escaping of text for XML, TeX, Markdown and HTML.
//! - [`batch`]: manifests, shards and the worker pool for archive-scale runs.
//!
//! ```
//! let record = pith::Record::from_json(&std::fs::read_to_string(
//!     concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.record.json"))?)?;
//! assert_eq!(record.number().to_string(), "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod badge;
pub mod batch;
pub mod escape;
pub mod number;
pub mod pdf;
pub mod record;
pub mod sty;
pub mod verify;
pub mod vocab;
pub mod xml;

pub use number::{NumberRef, PithNumber};
pub use record::Record;
