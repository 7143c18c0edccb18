//! # pith-serve
//!
//! A mirror of the Pith resolver: an index of Pith Numbers (one SQLite file) built from arXiv's
//! bulk metadata, folders of records and folders of bundles, and a web server that answers the
//! resolver's routes from it, with badges that show each record's current status.
//!
//! `pith index …` and `pith serve …` run this crate's binary (`pith-serve index …`,
//! `pith-serve serve …`) the way git and cargo run their external subcommands, so that the core
//! `pith` build carries no async runtime, HTTP stack or SQLite.
//!
//! Every decision about numbers, records, bundles and badges is the `pith` library's; this crate
//! stores what the library computes and translates requests into library calls.
//!
//! ## Layers
//!
//! A module uses (`crate::…`) only modules of the layers below its own, never one of its own
//! layer, so no two modules import each other; the root crate's `tests/layering.rs` holds every
//! `crate::` path of this crate to this list, from the top:
//!
//! 1. `app`, `export`
//! 2. `routes`, `agent`
//! 3. `pages`
//! 4. `extract`
//! 5. `error`
//! 6. `view`
//! 7. `state`
//! 8. `upload`
//! 9. `limits`
//! 10. `rendered`, `documents`, `assets`, `stall`
//! 11. `cache`, `protocol`
//! 12. `http`, `index`
//!
//! - [`app`]: the [`axum::Router`] joining routes, pages and limits;
//! - [`export`]: the same routes written as static files;
//! - [`routes`]: the resolver's handlers (records by `Accept`, bundles, redirects, badges);
//!   [`agent`]: the protocol's routes beside them (well-known bundles, graph, events, signing
//!   keys, the mirror manifest);
//! - [`pages`]: the HTML pages a person uses (search, record page, checking a PDF);
//! - [`extract`]: what a path names (a number, an arXiv id), read by the library;
//! - [`error`]: the handlers' one error type and the answer it becomes;
//! - [`view`]: the templates and the frame every HTML answer shares;
//! - [`state`]: the shared state, the served index and its reloading;
//! - [`upload`]: receiving and checking PDFs sent to `/verify` within the server's budget;
//! - [`rendered`]: a record's page, JSON and citations made once per index on a bounded pool,
//!   large ones kept in files; [`cache`]: answers kept in memory; [`documents`]: the bytes of records, states and badges;
//!   [`assets`]: the stylesheet and the script;
//! - [`http`]: the one HTTP layer: answers' headers, content types, entity tags and `304`,
//!   negotiation, the headers every answer carries, and a badge request read once;
//!   [`protocol`]: the protocol's documents (states, graph, events, keys, manifest);
//! - [`index`]: the SQLite schema, building (a new file renamed into place) and lookups;
//!   [`limits`]: request limits, timeouts for slow clients and graceful shutdown.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod agent;
pub mod app;
pub mod assets;
pub mod cache;
pub mod documents;
pub mod error;
pub mod export;
pub mod extract;
pub mod http;
pub mod index;
pub mod limits;
pub mod pages;
pub mod protocol;
pub mod rendered;
pub mod routes;
pub mod stall;
pub mod state;
pub mod upload;
pub mod view;
