//! Reading and injecting Pith Numbers in compiled PDFs (issue #4).
//!
//! [`inject()`] plans an append-only incremental update (ISO 32000-2 §7.5.6) that writes the
//! number into the Info dictionary (`/PithNumber`, `/PithURL`) and the XMP packet
//! (`xmp:Identifier`, `dc:relation`, `pith:*`); [`commit::inject_file`] plans and writes it to
//! a new file, a stream or the input itself (crash-safe), so the original bytes stay a
//! byte-identical prefix. [`inspect()`] reads the values back. Both read only the xref chain
//! and the few objects they need, through [`ReadAt`], so memory does not grow with the file.
//!
//! Layers, one concern each (qpdf keeps the same split):
//! - [`syntax`]: the object model ([`Obj`](syntax::Obj), [`Ref`]) and parser, on byte windows;
//! - [`reader`]: [`ReadAt`], header and `startxref`, the xref chain, object fetch;
//! - [`filters`]: bounded streaming decoders, one reader per filter (a leaf: it knows the
//!   object model and nothing of the reader, issue 25.5); nothing is decoded whole past a
//!   documented bound (issue 24.1);
//! - [`security`]: the hook through which encrypted files are read and written, and
//!   [`crypt`], the Standard security handler behind it (issue 18.3);
//! - [`writer`]: one primitive layer ([`writer::object`]) under typed writers (fonts,
//!   annotations, structure elements, metadata stream, xref sections) and the incremental
//!   update; every object pith emits goes through it (issue 25.4);
//! - [`commit`]: putting an update on disk (new file, stream, in place), with the
//!   [`journal`] marker that makes an interrupted in-place update recognisable;
//! - [`repair`]: xref reconstruction and the full `--rewrite` (the only lopdf writer);
//! - [`xmp`], [`info`]: the metadata the update carries; `signature`: DocMDP and signed fields;
//! - `document`, [`inject`](mod@inject), [`inspect`](mod@inspect): the decisions (what to
//!   refuse, what to write, what a file says);
//! - [`stamp`]: the visible, linked number on page 1 (`--stamp`, issue 13), placed in a free
//!   margin from a walk of the page's content ([`stamp::content`]) and, in a tagged file,
//!   added to the structure tree ([`stamp::tagged`]).
//!
//! Nothing here prints; paths appear only in [`commit`].
//!
//! ```
//! use pith::pdf::{inject, inspect, Options};
//! let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/minimal.pdf"))?;
//! let number = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
//! let inj = inject(pdf.clone(), &number, &Options::new("2024-01-01T00:00:00Z"))?;
//! let mut out = pdf;
//! out.extend_from_slice(&inj.appended);
//! assert_eq!(inspect(out)?.found(), Some(number.full()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod commit;
pub mod crypt;
mod document;
mod error;
pub mod filters;
pub mod info;
pub mod inject;
pub mod inspect;
pub mod journal;
pub mod reader;
pub mod repair;
pub mod security;
mod signature;
pub mod stamp;
pub mod syntax;
pub mod writer;
pub mod xmp;

pub use error::{Error, ErrorKind};
pub use inject::{inject, rewrite, Injection, Options};
pub use inspect::{inspect, inspect_checked, inspect_with, inspect_with_password, Inspection};
pub use reader::{Check, Pdf, ReadAt, XrefKind};
pub use syntax::Ref;
