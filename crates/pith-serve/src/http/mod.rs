//! The one HTTP layer: how a request is read and an answer written, whichever route makes it.
//!
//! - [`reply`]: an answer's headers (`Content-Type`, `ETag`, `Cache-Control`, CORS, the
//!   badge's own policy), the content types, and the one `304` decision;
//! - [`secure`]: the headers every answer carries whoever made it (nosniff, and the pages'
//!   policy on HTML);
//! - [`negotiate`]: `Accept`, read once; [`etag`]: entity tags and `If-None-Match`;
//! - [`badge`]: a badge request (its file and its query's options), read once and used as the
//!   key of its answer.
//!
//! Nothing here knows the index or a route: routes say what to answer, this module how.

pub mod badge;
pub mod etag;
pub mod negotiate;
pub mod reply;
pub mod secure;
