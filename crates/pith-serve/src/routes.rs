//! The resolver's routes, answered from the index: records (JSON, JSON-LD and the record
//! page, by `Accept`), bundles and their merged state, arXiv ids and short aliases redirected
//! to numbers, badges (SVG and the shields.io endpoint document).
//!
//! Handlers translate: what the path names ([`crate::extract`]) and what the client accepts
//! ([`Negotiated`]) in, a lookup and a library call, a document out ([`crate::documents`]
//! builds the documents, so the static export writes the same bytes), or an [`Error`]. No
//! route reaches the file system from the URL: every answer comes from the index.
//!
//! Every answer carries an `ETag` of its representation and a `Cache-Control`
//! ([`crate::http::reply`]); JSON and SVG answers carry `Access-Control-Allow-Origin: *`; answers
//! whose body depends on `Accept` say so in `Vary`.

use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use pith::number::NumberRef;

use crate::documents::{self, BadgeFile};
use crate::error::Error;
use crate::extract::{self, ArxivPath, Named};
use crate::http::badge::BadgeRequest;
use crate::http::negotiate::{Media, Negotiated};
use crate::http::reply::{self, answer, types, CHANGING, MISSING};
use crate::index::{cites, Prefix};
use crate::pages;
use crate::state::AppState;

/// What a handler gives: an answer, or an error the client gets in the form it accepts.
type Answer = Result<Response, Error>;

/// A redirect to `location` (relative to the server, or under the configured base URL).
fn redirect(req: &HeaderMap, status: StatusCode, state: &AppState, location: &str) -> Response {
    let mut r = answer(req, status, types::TEXT, CHANGING, Vec::new());
    let to = format!("{}{location}", state.base_url());
    if let Ok(v) = HeaderValue::from_str(&to) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

/// `GET /healthz`: `ok` and the number of records, once the index answers.
pub async fn healthz(State(state): State<AppState>, req: HeaderMap) -> Answer {
    let n = state.index().len()?;
    let body = format!("ok {n} records\n").into_bytes();
    Ok(answer(&req, StatusCode::OK, types::TEXT, "no-store", body))
}

/// The representations of a record at `/pith/<26>`, the page first: a client that does not
/// prefer another (`Accept: */*`, none at all) gets the page, as DOI resolvers answer. They are
/// the media types [`Media::ALL`] lists before the badge's: the page, JSON-LD, JSON, then the
/// citations.
pub const RECORD_OFFERS: &[Media] = Media::ALL.split_at(6).0;

/// `GET /pith/{segment}`: `<26>` → the record page or, by `Accept`, its JSON-LD, JSON or a
/// citation (BibTeX, CSL-JSON, RIS); `<26>.json`, `.bib`, `.csl.json`, `.ris` → that
/// representation whatever `Accept` says; `<8|12|16>` → 303 to the full number; another
/// spelling of a number → 301 to its own.
pub async fn pith(
    State(state): State<AppState>,
    named: Named,
    accept: Negotiated,
    req: HeaderMap,
) -> Answer {
    let suffix = extract::suffix(named.file);
    let code = match &named.number {
        NumberRef::Alias(a) => {
            return match state.index().prefix(a.prefix())? {
                Prefix::Unique(code) => Ok(redirect(
                    &req,
                    StatusCode::SEE_OTHER,
                    &state,
                    &format!("/pith/{code}{suffix}"),
                )),
                Prefix::None => Err(Error::not_found(format!(
                    "no number starts with {}",
                    a.prefix()
                ))),
                Prefix::Ambiguous => Err(Error::not_found(format!(
                    "several numbers start with {}; give more characters",
                    a.prefix()
                ))),
            };
        }
        NumberRef::Full(n) if !named.canonical => {
            let to = format!("/pith/{}{suffix}", n.code());
            return Ok(redirect(&req, StatusCode::MOVED_PERMANENTLY, &state, &to));
        }
        NumberRef::Full(n) => n.code().to_owned(),
    };
    let (media, negotiated) = match named.file {
        None => (accept.choose(RECORD_OFFERS), true),
        Some(m) if RECORD_OFFERS[2..].contains(&m) => (m, false),
        Some(_) => {
            return Err(Error::not_found(
                "a record is /pith/<26 characters>, or that and .json, .bib, .csl.json or .ris",
            ))
        }
    };
    let index = state.index();
    let Some(entry) = index.record(&code)? else {
        return Err(Error::not_found(format!(
            "no record of {code} in this index"
        )));
    };
    // Every representation of a record is made once per index, on the pool that makes pages
    // (a record may hold tens of thousands of authors), and kept: in memory, or in a file.
    let key = format!("{}/{code}", media.content_type());
    let made = match (media, documents::citation_format(media)) {
        (Media::Html, _) => {
            return pages::record::page(&state, &req, &entry)
                .await
                .map(reply::vary_accept)
        }
        (m, Some(format)) => {
            state
                .rendered()
                .get(state.generation(), &key, m.content_type(), move || {
                    documents::citation(&entry, format)
                        .ok_or_else(|| Error::internal(&"the stored record does not parse"))
                })
                .await?
        }
        (m, None) => {
            let base = state.base_url().to_owned();
            state
                .rendered()
                .get(state.generation(), &key, m.content_type(), move || {
                    let bundle = index.bundle(&code)?;
                    let anchor = index.anchor(&code)?;
                    let stored = index.stored(&code)?;
                    let versions = index.versions(&entry.arxiv_id)?;
                    let doc = documents::record(
                        &base,
                        &entry,
                        bundle.as_ref(),
                        anchor.as_ref(),
                        stored.as_ref(),
                        &versions,
                    );
                    let cites = index.cites(&entry)?;
                    Ok::<_, Error>(documents::with_cites(doc, &cites, &base))
                })
                .await?
        }
    };
    let r = made.answer(&req, CHANGING);
    Ok(if negotiated { reply::vary_accept(r) } else { r })
}

/// `GET /pith/{code}/{file}`: `bundle.json` and `state.json`, where a bundle is indexed;
/// `references.json` and `cited-by.json`, by page.
pub async fn pith_file(
    State(state): State<AppState>,
    parts: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
    RawQuery(query): RawQuery,
    req: HeaderMap,
) -> Answer {
    let Ok(Path((segment, file))) = parts else {
        return Err(Error::bad_path());
    };
    let named = Named::parse(&segment)?;
    let code = named.exact_code()?;
    if named.file.is_none() && (file == "references.json" || file == "cited-by.json") {
        return cites_page(&state, code, &file, query.as_deref(), &req);
    }
    if named.file.is_some() || (file != "bundle.json" && file != "state.json") {
        return Err(Error::not_found(
            "a record has bundle.json, state.json, references.json and cited-by.json",
        ));
    }
    let index = state.index();
    let (Some(entry), Some(bundle)) = (index.record(code)?, index.bundle(code)?) else {
        return Err(Error::not_found(format!(
            "no bundle of {code} in this index"
        )));
    };
    let body = if file == "bundle.json" {
        let mut b = bundle.bundle.clone().into_bytes();
        b.push(b'\n');
        b
    } else {
        documents::state(
            &entry,
            &bundle,
            &index.trusted_keys()?,
            index.anchor(code)?.as_ref(),
            index.stored(code)?.as_ref(),
        )
    };
    Ok(answer(&req, StatusCode::OK, types::JSON, CHANGING, body))
}

/// `GET /pith/{code}/references.json?page=N` (what the paper's reference list gives, in its
/// order) and `cited-by.json?page=N` (the papers of this index citing it, by arXiv id):
/// [`cites::PER_PAGE`] items a page, from page 1, each page read with `LIMIT` and `OFFSET`.
/// The answer gives `count` (all of them), `page`, `per_page`, `items`, and `next`, the next
/// page's path (`null` on the last).
fn cites_page(
    state: &AppState,
    code: &str,
    file: &str,
    query: Option<&str>,
    req: &HeaderMap,
) -> Answer {
    let page =
        cites::page_of(query).ok_or_else(|| Error::bad_request("page is a whole number from 1"))?;
    let index = state.index();
    let Some(entry) = index.record(code)? else {
        return Err(Error::not_found(format!(
            "no record of {code} in this index"
        )));
    };
    let per = cites::PER_PAGE;
    let offset = (page - 1) * per as u64;
    let base = state.base_url();
    let (count, items) = if file == "references.json" {
        let (n, refs) = index.references(&entry, per, offset)?;
        (n, serde_json::to_value(refs).unwrap_or_default())
    } else {
        let (n, papers) = index.cited_by(&entry, per, offset)?;
        (n, serde_json::to_value(papers).unwrap_or_default())
    };
    let next = (offset + (per as u64) < count)
        .then(|| format!("{base}/pith/{code}/{file}?page={}", page + 1));
    let doc = serde_json::json!({
        "record": format!("{base}/pith/{code}"),
        "count": count,
        "page": page,
        "per_page": per,
        "items": items,
        "next": next,
    });
    let mut body = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    body.push(b'\n');
    Ok(answer(req, StatusCode::OK, types::JSON, CHANGING, body))
}

/// `GET /arxiv/{id}`: 303 to the number of the latest indexed version, or of the version the
/// id names (`2402.03791v3`, `math/0406128v1`).
pub async fn arxiv(State(state): State<AppState>, paper: ArxivPath, req: HeaderMap) -> Answer {
    let id = &paper.id;
    if paper.file.is_some() {
        return Err(Error::not_found(
            "an arXiv id is /arxiv/<id>, without a suffix",
        ));
    }
    match state.index().arxiv(id.id(), id.version())? {
        Some(e) => Ok(redirect(
            &req,
            StatusCode::SEE_OTHER,
            &state,
            &format!("/pith/{}", e.number.code()),
        )),
        None => Err(Error::not_found(format!("arXiv:{id} is not in this index"))),
    }
}

/// What a badge file is: which file and whether it takes the dark colours, from `<stem>.svg`,
/// `.pdf` or `.json` and `-dark` before `.svg` or `.pdf`; and the stem.
fn badge_file(file: &str) -> Result<(&str, BadgeFile, bool), Error> {
    let (stem, kind) = match file.rsplit_once('.') {
        Some((s, "svg")) => (s, BadgeFile::Svg),
        Some((s, "pdf")) => (s, BadgeFile::Pdf),
        Some((s, "json")) => (s, BadgeFile::Shields),
        _ => {
            return Err(Error::not_found(
                "a badge is /badge/<26 characters>.svg, .pdf or .json (-dark.svg, -dark.pdf: the dark colours)",
            ))
        }
    };
    Ok(match stem.strip_suffix("-dark") {
        Some(s) if kind != BadgeFile::Shields => (s, kind, true),
        _ => (stem, kind, false),
    })
}

/// What a badge route's file name stands for: the record whose badge it serves.
pub trait BadgeOf {
    /// The record the stem of the file name (the name less `-dark` and its extension) names
    /// in `index`.
    ///
    /// # Errors
    /// [`Error::not_found`] when the stem names none.
    fn find(stem: &str, index: &crate::index::Index) -> Result<crate::index::Entry, Error>;
}

/// `GET /badge/{file}`: `<26>.svg` → the badge (`pith badge`'s bytes for the query's options
/// and the record's status), `<26>.pdf` → the same as `pith badge --format pdf`, `-dark`
/// before either → `--dark`; `<26>.json` → the shields.io endpoint document.
pub struct NumberBadge;

impl BadgeOf for NumberBadge {
    fn find(stem: &str, index: &crate::index::Index) -> Result<crate::index::Entry, Error> {
        let named = Named::parse(stem)?;
        let code = named.exact_code()?;
        if named.file.is_some() {
            return Err(Error::not_found(
                "a badge is /badge/<26 characters>.svg, .pdf or .json",
            ));
        }
        index
            .record(code)?
            .ok_or_else(|| Error::not_found(format!("no record of {code} in this index")))
    }
}

/// `GET /badge/arxiv/{id}.svg` (`.pdf`, `-dark.svg`, `.json`): the concept badge of an arXiv
/// paper, that of its latest indexed version (or of the version the id names), so that a
/// README's badge never goes stale; the same options as [`NumberBadge`].
pub struct ConceptBadge;

impl BadgeOf for ConceptBadge {
    fn find(stem: &str, index: &crate::index::Index) -> Result<crate::index::Entry, Error> {
        let paper = ArxivPath::parse(stem)?;
        if paper.file.is_some() {
            return Err(Error::not_found(
                "a concept badge is /badge/arxiv/<arXiv id>.svg, .pdf or .json",
            ));
        }
        let id = &paper.id;
        index
            .arxiv(id.id(), id.version())?
            .ok_or_else(|| Error::not_found(format!("arXiv:{id} is not in this index")))
    }
}

/// A badge route ([`NumberBadge`], [`ConceptBadge`]): the file name and the options read or
/// refused alike, the dark colours taken from the name, and the badge of the record that `B`
/// finds for the name's stem, with the status of what the index checked for it: its bundle,
/// OpenTimestamps proof and Internet Archive capture.
pub async fn badge<B: BadgeOf>(
    State(state): State<AppState>,
    file: Result<Path<String>, axum::extract::rejection::PathRejection>,
    request: BadgeRequest,
    req: HeaderMap,
) -> Answer {
    let Ok(Path(file)) = file else {
        return Err(Error::bad_path());
    };
    let options = request.options.map_err(Error::bad_request)?;
    let (stem, kind, dark) = badge_file(&file)?;
    let index = state.index();
    let entry = B::find(stem, &index)?;
    let code = entry.number.code();
    let status = documents::status(
        index.bundle(code)?.as_ref(),
        index.anchor(code)?.as_ref(),
        index.stored(code)?.as_ref(),
    );
    let body = documents::badge(&entry.number, &options.dark(dark), status, kind)
        .map_err(|e| Error::bad_request(e.to_string()))?;
    let content_type = match kind {
        BadgeFile::Svg => types::SVG,
        BadgeFile::Pdf => types::PDF,
        BadgeFile::Shields => types::JSON,
    };
    Ok(answer(&req, StatusCode::OK, content_type, CHANGING, body))
}

/// The origin a sitemap names: a sitemap's URLs are absolute, and the only host this server
/// names is its `--base-url` (never the request's `Host`, which any client sets).
fn sitemap_origin(state: &AppState) -> Result<&str, Error> {
    match state.base_url() {
        "" => Err(Error::not_found(
            "this mirror has no sitemap: a sitemap's URLs are absolute, and the mirror was started without its public address (--base-url)",
        )),
        base => Ok(base),
    }
}

/// `GET /sitemap.xml`: the sitemap index, naming the home page's file and the record pages'
/// files ([`documents::sitemap_index`]).
pub async fn sitemap_index(State(state): State<AppState>, req: HeaderMap) -> Answer {
    let origin = sitemap_origin(&state)?;
    let body = documents::sitemap_index(origin, state.index().current_len()?);
    Ok(answer(&req, StatusCode::OK, types::XML, CHANGING, body))
}

/// `GET /sitemap/{n}.xml`: file 0 lists the home page, file `n` the `n`-th
/// [`documents::SITEMAP_PAGE`] record pages in code order.
pub async fn sitemap(
    State(state): State<AppState>,
    file: Result<Path<String>, axum::extract::rejection::PathRejection>,
    req: HeaderMap,
) -> Answer {
    let Ok(Path(file)) = file else {
        return Err(Error::bad_path());
    };
    let index = state.index();
    let pages = index.current_len()?.div_ceil(documents::SITEMAP_PAGE);
    let n = file
        .strip_suffix(".xml")
        .filter(|n| n.len() <= 10 && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|n| *n <= pages)
        .ok_or_else(|| Error::not_found("no such sitemap file; /sitemap.xml names them"))?;
    let rows = match n {
        0 => Vec::new(),
        n => index.current_page((n - 1) * documents::SITEMAP_PAGE, documents::SITEMAP_PAGE)?,
    };
    let origin = sitemap_origin(&state)?;
    let body = documents::sitemap(origin, &rows, n == 0);
    Ok(answer(&req, StatusCode::OK, types::XML, CHANGING, body))
}

/// The largest answer [`finish`] reads to give it an `ETag` (the framework's own answers, a
/// 405 or a rejected request, are a few bytes).
const MAX_FINISHED: usize = 1 << 20;

/// Middleware: answers that no handler marked (the framework's 405 and rejections, and any
/// route that sets none) get `Cache-Control` and an `ETag` of their bytes.
pub async fn finish(mut req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let headers = reply::asked(&mut req);
    let res = next.run(req).await;
    if res.headers().contains_key(header::ETAG) || res.status() == StatusCode::NOT_MODIFIED {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_FINISHED).await else {
        return Error::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the answer was too large",
        )
        .into_response();
    };
    let ty = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or(types::TEXT)
        .to_owned();
    let cache = if parts.status.is_success() {
        CHANGING
    } else {
        MISSING
    };
    let mut r = answer(&headers, parts.status, &ty, cache, bytes.to_vec());
    // Keep what the inner answer said (Allow on a 405, Location), under ours; but its own
    // Cache-Control (`no-cache` or `no-store` on what depends on the index state) stands.
    if let Some(v) = parts.headers.remove(header::CACHE_CONTROL) {
        r.headers_mut().insert(header::CACHE_CONTROL, v);
    }
    for (k, v) in parts.headers.drain().filter_map(|(k, v)| k.map(|k| (k, v))) {
        r.headers_mut().entry(k).or_insert(v);
    }
    r
}

/// Anything else: 404, rendered for the client here (no route's layers run for it).
pub async fn fallback(State(state): State<AppState>, req: HeaderMap) -> Response {
    Error::not_found("nothing here").answer(&req, &state)
}
