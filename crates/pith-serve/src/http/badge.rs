//! The query of a badge (`?style=flat-square&full=1&qr=1&qr_module=3`): `pith badge`'s
//! options, read once per request ([`BadgeRequest`]) for the cache's key and the badge
//! routes alike (the same options spelt another way are one answer).

use std::convert::Infallible;

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::Uri;
use pith::badge::Look;
use serde::Deserialize;

/// A badge request's options, read once from its query: the cache reads it for its key and
/// leaves it in the request's extensions, where the badge routes' extractor finds it.
#[derive(Debug, Clone)]
pub struct BadgeRequest {
    /// The options, or the sentence saying why the query cannot be read (answered 400).
    pub options: Result<Look, String>,
}

impl BadgeRequest {
    /// Reads the query of `uri`.
    pub fn read(uri: &Uri) -> BadgeRequest {
        let options = match Query::<BadgeQuery>::try_from_uri(uri) {
            Ok(Query(q)) => q.options(),
            Err(_) => Err("the query cannot be read".to_owned()),
        };
        BadgeRequest { options }
    }

    /// What the answer's key holds of the request: its options, however spelt; `None` when
    /// the query cannot be read (the route answers 400, which is not kept).
    pub fn key(&self) -> Option<String> {
        self.options.as_ref().ok().map(|o| format!("{o:?}"))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for BadgeRequest {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(match parts.extensions.remove::<BadgeRequest>() {
            Some(b) => b,
            None => BadgeRequest::read(&parts.uri),
        })
    }
}

/// The query of a badge: `pith badge`'s options.
#[derive(Debug, Default, Deserialize)]
pub struct BadgeQuery {
    style: Option<String>,
    full: Option<String>,
    qr: Option<String>,
    qr_module: Option<String>,
}

fn flag(v: Option<&str>) -> Result<bool, String> {
    match v.map(str::to_ascii_lowercase).as_deref() {
        None | Some("0" | "false" | "no") => Ok(false),
        Some("" | "1" | "true" | "yes") => Ok(true),
        Some(other) => Err(format!(
            "{other:?} is not a yes/no value (1, true, 0, false)"
        )),
    }
}

impl BadgeQuery {
    /// The badge options the query asks for (`pith badge`'s defaults otherwise).
    ///
    /// # Errors
    /// A sentence saying which value is wrong.
    pub fn options(&self) -> Result<Look, String> {
        let qr_module = match &self.qr_module {
            Some(m) => Some(
                m.parse::<u32>()
                    .map_err(|_| format!("qr_module {m:?} is not a number of px"))?,
            ),
            None => None,
        };
        pith::job::badge::BadgeRequest {
            full: flag(self.full.as_deref())?,
            style: self.style.clone(),
            qr: flag(self.qr.as_deref())?,
            qr_module,
            ..Default::default()
        }
        .options()
        .map_err(|e| e.to_string())
    }
}
