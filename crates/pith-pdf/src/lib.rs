//! # pith-pdf
//!
//! The PDF engine of pith: reads compiled PDFs and writes an identifier into them as an
//! append-only incremental update (ISO 32000-2 §7.5.6), without loading the file.
//!
//! [`inject()`] plans the update that writes an [`Identifier`] (its full form, short form and
//! record URL: the strings this crate writes; it neither computes nor validates identifiers)
//! into the Info dictionary (`/PithNumber`, `/PithURL`) and the XMP packet (`xmp:Identifier`,
//! `dc:relation`, `pith:*`); [`commit::inject_file`] plans and writes it to a new file, a
//! stream or the input itself (crash-safe), so the original bytes stay a byte-identical prefix.
//! [`inspect()`] reads the values back. Both read only the xref chain and the few objects they
//! need, through [`ReadAt`], so memory does not grow with the file.
//!
//! Layers, one concern each (qpdf keeps the same split); dependencies flow down the list.
//!
//! ## Layers
//!
//! A module uses (`crate::…`, `super::…`, grouped or re-exported) only modules of the layers
//! below its own, never one of its own layer, so no two modules import each other;
//! `tests/layering.rs` holds every use to this list, from the top (the unit tests' own modules,
//! `shapes`, `scenarios` and `testkit`, are no layer):
//!
//! 1. `commit`, `page`
//! 2. `strip`
//! 3. `inject`
//! 4. `inspect`
//! 5. `stamp`, `text`
//! 6. `document`
//! 7. `repair`, `signature`, `info`
//! 8. `writer`
//! 9. `reader`, `xmp`
//! 10. `crypt`, `filters`, `journal`, `mark`, `xml`
//! 11. `security`, `vocab`, `output`
//! 12. `syntax`, `budget`
//! 13. `error`, `matrix`
//!
//! - [`budget`]: the [`Limits`] one document may cost and the [`Stop`] token its loops check,
//!   spent from by every layer below the front ends. The error it raises, and every other way
//!   reading fails, is the leaf [`Error`] ([`ErrorKind`]: what went over, why work stopped, why
//!   an encryption dictionary did not open).
//! - [`vocab`]: the names the identifier is written under (Info keys, XMP namespace and
//!   properties, URL base); constants only. [`mark`]: the [`Identifier`] the engine writes.
//! - [`xml`]: guards for untrusted XML and XML escaping; [`output`]: whole-file writes (all or
//!   nothing) and the batch group commit. Leaves: they know nothing of PDF.
//! - `matrix`: the affine matrices of PDF graphics (product, a point mapped), which the
//!   stamp's and the page text's content walks share; a leaf.
//! - [`syntax`]: the object model ([`Obj`](syntax::Obj), [`Ref`]) and parser, on byte windows;
//! - [`filters`]: bounded streaming decoders, one reader per filter (a leaf: it knows the
//!   object model and nothing of the reader); nothing is decoded whole past a documented bound;
//! - [`reader`]: [`ReadAt`], header and `startxref`, the xref chain, object fetch through a
//!   bounded cache of parsed objects, and the page tree (page 1, the page count);
//! - [`security`]: the hook through which encrypted files are read and written, and
//!   [`crypt`], the Standard security handler behind it;
//! - [`writer`]: one primitive layer ([`writer::object`]) under typed writers (fonts,
//!   annotations, structure elements, metadata stream, xref sections) and the incremental
//!   update; every object the engine emits goes through it;
//! - [`commit`]: putting an update on disk (new file, stream, in place), with the
//!   [`journal`] marker that makes an interrupted in-place update recognisable;
//! - [`page`]: a new one-page PDF drawn from boxes and text (the PDF badge), on the writer;
//! - [`repair`]: xref reconstruction and the full `--rewrite` (the only lopdf writer);
//! - [`xmp`], [`info`]: the metadata the update carries; `signature`: DocMDP and signed fields;
//! - `document`, [`inject`](mod@inject), [`inspect`](mod@inspect): the decisions (what to
//!   refuse, what to write, what a file says);
//! - [`stamp`]: the visible, linked identifier on page 1, placed in a free margin from a walk
//!   of the page's content ([`stamp::content`]) and, in a tagged file, added to the structure
//!   tree ([`stamp::tagged`]); [`strip`](mod@strip) takes the identifier and the stamp out;
//! - [`text`]: the text of every page, line by line, through the fonts' `ToUnicode` CMaps and
//!   encodings (what a paper cites is read from it).
//!
//! Nothing here prints, and nothing here knows the command line, Python, LaTeX or badges (the
//! `pith-number` crate holds those); paths appear only in [`commit`] and [`output`].
//!
//! ```
//! use pith_pdf::{inject, inspect, Mark, Options};
//! let pdf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/minimal.pdf"))?;
//! let mark = Mark::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
//! let inj = inject(pdf.clone(), &mark, &Options::new("2024-01-01T00:00:00Z"))?;
//! let mut out = pdf;
//! out.extend_from_slice(&inj.appended);
//! assert_eq!(inspect(out)?.found(), Some(mark.full));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod budget;
pub mod commit;
pub mod crypt;
mod document;
mod error;
pub mod filters;
pub mod info;
pub mod inject;
pub mod inspect;
pub mod journal;
pub mod mark;
mod matrix;
pub mod output;
pub mod page;
pub mod reader;
pub mod repair;
pub mod security;
mod signature;
pub mod stamp;
pub mod strip;
pub mod syntax;
pub mod text;
pub mod vocab;
pub mod writer;
pub mod xml;
pub mod xmp;

#[cfg(test)]
mod scenarios;
#[cfg(test)]
mod shapes;

pub use budget::{Halt, Limits, Resource, Stop};
pub use error::{chain, Error, ErrorKind, PrintedNumber};
pub use inject::{inject, read_all, rewrite, Injection, Item, Options, Written, MAX_READ_WHOLE};
pub use inspect::{
    inspect, inspect_checked, inspect_opts, inspect_with, inspect_with_password, InspectOptions,
    Inspection, Place, PlaceKind,
};
pub use mark::{Identifier, Mark};
pub use reader::{Check, Pdf, ReadAt, XrefKind};
pub use strip::strip;
pub use syntax::Ref;

/// What the unit tests share.
#[cfg(test)]
mod testkit {
    /// A file of the workspace's `tests/fixtures/`.
    pub(crate) fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../../tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }
}
