//! The routes of the published protocol beside the records (what record pages list as the
//! "Agent API"): `/.well-known/pith/<26>/bundle.json` (the bundle's bytes),
//! `/api/pith-number/<26>/graph.json` and `/events.json`, `/pith-signing-key.json` and
//! `/pith-mirrors.json`. The documents are [`crate::protocol`]'s; handlers only look up and
//! answer, or say in a sentence why there is nothing.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use crate::error::Error;
use crate::extract::Named;
use crate::http::reply::{answer, types, CHANGING};
use crate::protocol;
use crate::state::AppState;

type Answer = Result<Response, Error>;
type Parts = Result<Path<(String, String)>, axum::extract::rejection::PathRejection>;

/// The code a `{segment}` names, exactly (26 upper-case characters, no suffix).
fn code_of(segment: &str) -> Result<String, Error> {
    let named = Named::parse(segment)?;
    if named.file.is_some() {
        return Err(Error::not_found(
            "not a Pith Number of 26 upper-case characters",
        ));
    }
    named.exact_code().map(str::to_owned)
}

/// The bundle of `code`, or a 404 saying the index holds none.
fn bundle_of(state: &AppState, code: &str) -> Result<crate::index::BundleEntry, Error> {
    let index = state.index();
    match (index.record(code)?, index.bundle(code)?) {
        (Some(_), Some(b)) => Ok(b),
        (None, _) => Err(Error::not_found(format!(
            "no record of {code} in this index"
        ))),
        (Some(_), None) => Err(Error::not_found(format!(
            "this index holds no bundle of {code}, so it has no events to serve"
        ))),
    }
}

fn json(req: &HeaderMap, body: Vec<u8>) -> Response {
    answer(req, StatusCode::OK, types::JSON, CHANGING, body)
}

/// `GET /.well-known/pith/{code}/bundle.json`: the same bytes as `/pith/<26>/bundle.json`.
pub async fn well_known(State(state): State<AppState>, parts: Parts, req: HeaderMap) -> Answer {
    let Ok(Path((segment, file))) = parts else {
        return Err(Error::bad_path());
    };
    if file != "bundle.json" {
        return Err(Error::not_found(
            "the well-known path of a record holds bundle.json",
        ));
    }
    let code = code_of(&segment)?;
    let b = bundle_of(&state, &code)?;
    let mut body = b.bundle.into_bytes();
    body.push(b'\n');
    Ok(json(&req, body))
}

/// `GET /api/pith-number/{code}/{file}`: `graph.json` (the newest graph snapshot the bundle
/// holds) and `events.json` (the bundle's events and what pith found of each).
pub async fn api(State(state): State<AppState>, parts: Parts, req: HeaderMap) -> Answer {
    let Ok(Path((segment, file))) = parts else {
        return Err(Error::bad_path());
    };
    if file != "graph.json" && file != "events.json" {
        return Err(Error::not_found(
            "a record's API has graph.json and events.json",
        ));
    }
    let code = code_of(&segment)?;
    let b = bundle_of(&state, &code)?;
    let keys = state.index().trusted_keys()?;
    let body = if file == "graph.json" {
        protocol::graph(&b, &keys).ok_or_else(|| {
            Error::not_found(format!(
                "the bundle of {code} holds no graph snapshot that pith did not find invalid"
            ))
        })?
    } else {
        protocol::events(&b, &keys)
            .ok_or_else(|| Error::internal(&"the stored bundle does not parse"))?
    };
    Ok(json(&req, body))
}

/// `GET /pith-signing-key.json`: every key this index checks receipts with.
pub async fn signing_key(State(state): State<AppState>, req: HeaderMap) -> Answer {
    let keys = state.index().trusted_keys()?;
    Ok(json(&req, protocol::signing_keys(&keys, state.base_url())))
}

/// `GET /pith-mirrors.json`: this mirror's manifest entry, under `--base-url`. A manifest's
/// patterns are absolute URLs that clients fetch, and the only host this server names is its
/// `--base-url` (never the request's `Host`, which any client sets): without one, a 404 says so.
pub async fn mirrors(State(state): State<AppState>, req: HeaderMap) -> Answer {
    let base = match state.base_url() {
        "" => {
            return Err(Error::not_found(
                "this mirror has no manifest: its patterns are absolute URLs, and the mirror was started without its public address (--base-url)",
            ))
        }
        base => base.to_owned(),
    };
    let keys = state.index().trusted_keys()?;
    Ok(json(&req, protocol::mirrors(&keys, &base)))
}
