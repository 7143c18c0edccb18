//! The home page and its search field: an arXiv id in any form `pith number` takes, a full or
//! bare number, a short form, or a record link, resolved against the index to a record page.

use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use pith::net::ArxivId;
use pith::number::NumberRef;
use serde::Deserialize;

use super::{html, render, Message, Site};
use crate::error::Error;
use crate::http::reply;
use crate::index::Prefix;
use crate::state::AppState;

/// What a search text names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A number: a full one, the bare 26 characters, or a short form (8, 12 or 16 characters).
    Number(NumberRef),
    /// An arXiv paper, with its version when one was given.
    Arxiv(ArxivId),
}

/// Reads a search text: a number in any form, a record link (`…/pith/<code>`, any host), or an
/// arXiv id in any form `pith number` takes. `None` for anything else.
pub fn parse(text: &str) -> Option<Target> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    if let Ok(n) = NumberRef::parse(t) {
        return Some(Target::Number(n));
    }
    // A record link: the path segment after `/pith/`, without `.json` or what follows it.
    if let Some((_, rest)) = t.split_once("/pith/") {
        let seg = rest.split(['/', '?', '#', '.']).next().unwrap_or("");
        return NumberRef::parse_segment(seg).ok().map(Target::Number);
    }
    ArxivId::parse(t).ok().map(Target::Arxiv)
}

/// The search form's field.
#[derive(Debug, Deserialize)]
pub struct Search {
    q: Option<String>,
}

/// `GET /` (the home page) and `GET /?q=…` (a search: `303` to the record page, or a page that
/// says the index has no such paper, `404`, or that the text is not an id or number, `400`).
pub async fn home(
    State(state): State<AppState>,
    Query(search): Query<Search>,
    headers: HeaderMap,
) -> Result<Response, Error> {
    let site = Site::of(&state);
    let q = search.q.unwrap_or_default();
    if q.trim().is_empty() {
        let mut ctx = tera::Context::new();
        ctx.insert("site", &site);
        ctx.insert("query", "");
        let body = render("home.html", &ctx).map_err(|e| Error::internal(&e))?;
        return Ok(html(StatusCode::OK, body, &headers));
    }
    let shown = q.trim().chars().take(200).collect::<String>();
    let Some(query) = parse(&q) else {
        return Ok(Message {
            heading: "Not an arXiv id or a Pith Number".into(),
            paragraphs: vec![format!(
                "“{shown}” is neither an arXiv id (such as 2402.03791 or arXiv:2402.03791v3) nor a Pith Number (such as pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 or pith:7BMK4ZKT)."
            )],
            search: Some(shown),
            back_to_verify: false,
        }
        .page(StatusCode::BAD_REQUEST, &site, &headers));
    };
    let index = state.index();
    let found = match &query {
        Target::Number(NumberRef::Full(n)) => index
            .record(n.code())
            .map(|e| e.map(|_| n.code().to_owned())),
        Target::Number(NumberRef::Alias(a)) => index.prefix(a.prefix()).map(|p| match p {
            Prefix::Unique(code) => Some(code),
            _ => None,
        }),
        Target::Arxiv(id) => index
            .arxiv(id.id(), id.version())
            .map(|e| e.map(|e| e.number.code().to_owned())),
    }?;
    Ok(match found {
        Some(code) => {
            // With its ETag, so that the answer is kept and the same search answered from memory.
            let mut r = reply::answer(
                &headers,
                StatusCode::SEE_OTHER,
                reply::types::TEXT,
                "no-cache",
                Vec::new(),
            );
            if let Ok(v) = HeaderValue::from_str(&format!("/pith/{code}")) {
                r.headers_mut().insert(header::LOCATION, v);
            }
            r
        }
        None => {
            let what = match &query {
                Target::Number(n) => format!("the Pith Number {n}"),
                Target::Arxiv(id) => format!("arXiv:{id}"),
            };
            Message {
                heading: "Not in this index".into(),
                paragraphs: vec![
                    format!("This server's index has no paper with {what}."),
                    "It holds only the papers it was built from; pith.science and other mirrors may know it. A short form that several papers share also finds nothing: give more of the number.".into(),
                ],
                search: Some(shown),
                back_to_verify: false,
            }
            .page(StatusCode::NOT_FOUND, &site, &headers)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_read() {
        let code = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
        for t in [
            "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5",
            code,
            " 7bmk4zktputuy3jkwbannpofr5 ",
            "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5",
            "http://127.0.0.1:8080/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5.json",
        ] {
            match parse(t) {
                Some(Target::Number(NumberRef::Full(n))) => assert_eq!(n.code(), code, "{t}"),
                other => panic!("{t}: {other:?}"),
            }
        }
        for t in ["pith:7BMK4ZKT", "https://pith.science/pith/7BMK4ZKT"] {
            assert!(
                matches!(parse(t), Some(Target::Number(NumberRef::Alias(_)))),
                "{t}"
            );
        }
        for t in [
            "2402.03791",
            "arXiv:2402.03791v3",
            "https://arxiv.org/abs/2402.03791v3",
            "hep-th/9901001",
        ] {
            assert!(matches!(parse(t), Some(Target::Arxiv(_))), "{t}");
        }
        for t in ["", "hello", "pith:7BMK", "https://example.org/pith/"] {
            assert_eq!(parse(t), None, "{t}");
        }
    }
}
