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
//! Modules:
//! - [`index`]: the SQLite schema, [`index::build`](mod@index::build) (a new file renamed into place) and
//!   [`index::read`] (lookups);
//! - [`app`]: the shared state and the axum [`axum::Router`], with the place HTML pages join;
//! - [`routes`]: the JSON, JSON-LD, SVG and redirect handlers, and [`cache`], their answers
//!   kept in memory;
//! - [`export`]: the same routes written as static files;
//! - [`limits`]: request limits, timeouts for slow clients and graceful shutdown;
//! - [`upload`]: receiving and checking PDFs sent to `/verify` within the server's budget;
//! - [`headers`]: the headers every answer carries (nosniff, and the pages' policy on HTML);
//! - [`pages`]: the HTML pages a person uses (search, record page, checking a PDF).
//!
//! Every decision about numbers, records, bundles and badges is the `pith` library's; this crate
//! stores what the library computes and translates requests into library calls.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod cache;
pub mod export;
pub mod headers;
pub mod index;
pub mod limits;
pub mod pages;
pub mod routes;
pub mod upload;
