//! # pith
//!
//! Pith Numbers for scientific papers. A Pith Number (`pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5`) is
//! the first 26 base32 characters of the SHA-256 of a paper's canonical metadata record,
//! resolvable at `https://pith.science/pith/<26 characters>`.
//!
//! ## Layers
//!
//! Dependencies flow one way. The front ends (`cli`, `python`) use the library; the PDF engine
//! is a crate of its own (`pith-pdf`, re-exported as [`pdf`], [`output`], [`vocab`], [`xml`]),
//! which the compiler keeps free of everything above it. Inside the library a module uses
//! (`crate::…`) only modules of the layers below its own, never one of its own layer, so no two
//! modules import each other; `tests/layering.rs` holds every `crate::` path to this list,
//! from the top:
//!
//! 1. `job`
//! 2. `batch`, `net`, `sty`, `badge`
//! 3. `verify`, `ots`, `capture`, `refs`
//! 4. `record`
//! 5. `number`, `arxiv_id`
//! 6. `decompress`, `pipeline`, `escape`, `bounded`
//! 7. `pdf`, `output`, `vocab`, `xml`
//! 8. `stream`
//!
//!
//! - [`job`]: the job layer: typed requests (number, verify, inject, inspect, strip, batch item
//!   and its check, the tar run) and serialisable reports, owning every policy the front ends
//!   share (same-file refusal, output folders, `SOURCE_DATE_EPOCH`, rewrite-then-stamp,
//!   replaced numbers, the restart check), the one resolver of inputs ([`job::input`]: every
//!   number form, records, Atom, arXiv ids) and the one table of error kinds ([`job::kind`]);
//!   its reports are what `pith … --json` prints and Python returns (docs/reports.md).
//! - [`number`]: bytes → SHA-256 → base32, parsing of `pith:YYYY:CODE`, bare codes, aliases and
//!   resolver URLs.
//! - [`arxiv_id`]: the arXiv identifier, the one grammar every reader holds ids to (versions,
//!   old-style archives, the forms inside file names, URLs and pasted text).
//! - [`record`]: the canonical record, its canonical JSON bytes, text canonicalisation, arXiv
//!   Atom input ([`record::atom`]), arXiv bulk metadata ([`record::arxiv`]: snapshot and
//!   OAI-PMH), arXiv's category taxonomy ([`record::taxonomy`]) and [`record::LocalSource`], the
//!   local inputs as data (reading them is [`job::input`]'s). It does no I/O.
//! - [`verify`]: checks of records, texts, signatures and bundles ([`verify::Bundle`]), and the
//!   verdict ([`verify::Verdict`]: verified, unverified, mismatch) every caller prints.
//! - [`net`]: the network client: a paper's record from arXiv (OAI-PMH `GetRecord`), records
//!   and bundles from the resolver, PDFs verified against them; polite (spacing across runs,
//!   retries, timeouts) and cached.
//! - [`capture`]: Internet Archive captures read offline: WARC records (their HTTP answers
//!   decoded, their payload digests checked) and CDX lines, bounded against hostile files.
//! - [`refs`]: what a paper cites (arXiv ids, DOIs), read from its reference list: the text of
//!   its PDF or its `.bbl`, each identifier with the page and line it was read on.
//! - [`ots`]: OpenTimestamps proofs (`.ots`) read, written and checked offline against
//!   Bitcoin block headers (proof of work, merkle root, the digest the proof starts from).
//! - [`batch`]: archive-scale runs: manifests, sidecars, shards, the worker pool with its group
//!   commit, arXiv matching ([`batch::arxiv`]) and the arXiv PDF manifest
//!   ([`batch::manifest`]); the bulk tars are the job layer's ([`job::tar`], its runs [`job::tar::run`]).
//! - [`sty`]: renders the LaTeX package `pith.sty`. [`badge`]: SVG badges and snippets.
//! - Shared utilities: [`bounded`] (every outside input read within bounds: bytes, lines,
//!   JSON, output; the stop token seen in its loops), [`decompress`] (compressed inputs recognised by content, bounded
//!   lines), [`stream`] (a buffer read full however a stream splits its reads), [`pipeline`]
//!   (an ordered parallel map with bounded memory), [`escape`] (escaping for XML, HTML, TeX,
//!   Markdown, AsciiDoc and URLs), and from the engine [`vocab`] (the names a number is
//!   written under), [`xml`] (guards for untrusted XML) and [`output`] (whole-file writes, all
//!   or nothing).
//! - [`pdf`]: the PDF engine: reads and injects the number into compiled PDFs (XMP, Info, a
//!   stamp), strips it, repairs, all as append-only updates.
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

/// A module's `Error`: its `ErrorKind` (declared beside it) and nothing else, shown as the
/// kind says it, with `kind()` and `From<ErrorKind>`. The doc comment given becomes the
/// struct's. Modules whose error carries more (a path, an object) write their own. Defined
/// before the modules, so that every one of them names it without a path.
macro_rules! kind_error {
    ($(#[$doc:meta])*) => {
        $(#[$doc])*
        #[derive(Debug, thiserror::Error)]
        #[error(transparent)]
        pub struct Error {
            kind: ErrorKind,
        }

        impl Error {
            /// The kind of error.
            pub fn kind(&self) -> &ErrorKind {
                &self.kind
            }
        }

        impl From<ErrorKind> for Error {
            fn from(kind: ErrorKind) -> Self {
                Error { kind }
            }
        }
    };
}

pub mod arxiv_id;
pub mod badge;
pub mod batch;
pub mod bounded;
pub mod capture;
pub mod decompress;
pub mod escape;
pub mod job;
pub mod net;
pub mod number;
pub mod ots;
pub mod pipeline;
pub mod record;
pub mod refs;
pub mod stream;
pub mod sty;
pub mod verify;

/// The PDF engine ([`pith_pdf`]): reads compiled PDFs and writes a number into them.
pub use pith_pdf as pdf;
pub use pith_pdf::{output, vocab, xml};

pub use number::{NumberRef, PithNumber};
pub use record::Record;
