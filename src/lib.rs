//! # pith
//!
//! Pith Numbers for scientific papers. A Pith Number (`pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`) is
//! the first 26 base32 characters of the SHA-256 of a paper's canonical metadata record,
//! resolvable at `https://pith.science/pith/<26 characters>`.
//!
//! The crate is layered; dependencies flow one way:
//! `cli`, `python` → [`job`] → [`batch`], [`pdf`], [`sty`], [`badge`] → [`record`] → [`number`].
//!
//! - [`vocab`]: the names a number is written under (URL base, XMP namespace, prefix and
//!   properties, Info keys); constants only, used by every module below.
//! - [`escape`]: escaping of caller text for XML, HTML, TeX, Markdown, AsciiDoc and URLs.
//! - [`number`]: bytes → SHA-256 → base32, parsing of `pith:YYYY:CODE`, bare codes, aliases and
//!   resolver URLs.
//! - [`record`]: the canonical record, its canonical JSON bytes, text canonicalisation, arXiv
//!   Atom input ([`record::atom`]), arXiv's category taxonomy ([`record::taxonomy`]) and
//!   [`record::Input`], the one place a number or record is resolved from a number, a record
//!   file or value, an Atom file or typed fields (for the CLI and [`batch`] alike).
//! - [`verify`]: checks of records, texts, signatures and bundles ([`verify::Bundle`]), and the
//!   verdict ([`verify::Verdict`]: verified, unverified, mismatch) every caller prints.
//! - [`sty`]: renders the LaTeX package `pith.sty`.
//! - [`pdf`]: reads and injects the number into compiled PDFs (XMP and Info).
//! - [`badge`]: SVG badges and embedding snippets.
//! - [`xml`]: guards run on untrusted XML before it is parsed.
//! - [`output`]: whole-file outputs written all or nothing (temporary file, sync, rename).
//! - [`batch`]: manifests, sidecars, shards and the worker pool for archive-scale runs.
//! - [`net`]: the network client: a paper's record from arXiv (OAI-PMH `GetRecord`), records
//!   and bundles from the resolver, PDFs verified against them; polite (spacing across runs,
//!   retries, timeouts) and cached.
//! - [`arxiv_match`]: PDFs matched to arXiv bulk metadata ([`record::arxiv`]) by id and version.
//! - [`job`]: the job layer: typed requests (inject, inspect, strip, batch item and its check)
//!   and serialisable reports, owning every policy the front ends share (same-file refusal,
//!   output folders, `SOURCE_DATE_EPOCH`, rewrite-then-stamp, replaced numbers, the restart
//!   check); its reports are what `pith … --json` prints and Python returns (docs/reports.md).
//!
//! The `pith` binary (`src/cli/`) parses arguments into job requests and prints their reports;
//! the Python module (`python/`) turns keyword arguments into the same requests and the
//! reports into dicts. Every decision is made here. Errors are one `Error` per module with a `#[non_exhaustive]`
//! `ErrorKind` (thiserror), causes chained through `source()`, and no command-line flag names
//! in their messages: the CLI adds its hints.
//!
//! ```
//! let record = pith::Record::from_json(&std::fs::read_to_string(
//!     concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.record.json"))?)?;
//! assert_eq!(record.number().to_string(), "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod arxiv_match;
pub mod badge;
pub mod batch;
pub mod escape;
pub mod job;
pub mod net;
pub mod number;
pub mod record;
pub mod sty;
pub mod verify;

/// The PDF engine ([`pith_pdf`]): reads compiled PDFs and writes a number into them.
pub use pith_pdf as pdf;
pub use pith_pdf::{output, vocab, xml};

pub use number::{NumberRef, PithNumber};
pub use record::Record;
