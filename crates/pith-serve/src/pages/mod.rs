//! The pages a person uses: the home page with its search field ([`search`]), the record page
//! of `/pith/<26>` for browsers ([`record`]), checking a PDF ([`verify`]), and the static
//! export of them ([`export`]).
//!
//! Pages are Tera templates rendered on the server in the frame of [`crate::view`] and readable
//! without JavaScript. Numbers, records, badges, snippets and checks are the `pith` library's;
//! this module only lays out what it computes.

use axum::routing::get;
use axum::Router;

pub use crate::view::{html, internal_error, render, Message, Site, CSP};
use crate::{assets, state::AppState};

pub mod export;
pub mod record;
pub mod search;
pub mod verify;

/// The pages' routes but the upload: `/` (home and search) and `/assets/<name>`. The record
/// page answers `/pith/<26>` through [`record::page`].
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(search::home))
        .route("/assets/{name}", get(assets::serve))
}

/// `/verify`: the form (GET) and the upload (POST), outside the general body limit: the upload
/// has its own bound (`--max-upload`) and answers a body over it with a page.
pub fn upload_router() -> Router<AppState> {
    Router::new().route("/verify", get(verify::form).post(verify::check))
}
