//! The resolver's routes, answered from the index: records (JSON and JSON-LD), bundles and
//! their merged state, arXiv ids and short aliases redirected to numbers, badges (SVG and the
//! shields.io endpoint document).
//!
//! Handlers translate: a path and query in, a library call, a document out ([`documents`]
//! builds the documents, so the static export writes the same bytes). No route reaches the file
//! system from the URL: every answer comes from the index.
//!
//! Every answer carries an `ETag` (of its bytes) and a `Cache-Control`; JSON and SVG answers
//! carry `Access-Control-Allow-Origin: *`. Unknown numbers and ids are 404 with a JSON or an
//! HTML body, by `Accept`.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use pith::badge::{self, Options, RecordStatus, Style};
use pith::number::{NumberRef, ALIAS_LENS, CODE_LEN};
use pith::PithNumber;
use serde::Deserialize;

use crate::app::AppState;
use crate::index::{BundleEntry, Entry, Prefix};

/// Cache lifetime of what is named by its own hash (a record under its number).
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Cache lifetime of what a rebuild may change (status, bundles, redirects, badges).
pub const CHANGING: &str = "public, max-age=300";
/// Cache lifetime of answers that something is missing or wrong.
pub const MISSING: &str = "public, max-age=60";

/// Content types.
pub mod types {
    /// JSON.
    pub const JSON: &str = "application/json";
    /// JSON-LD.
    pub const JSON_LD: &str = "application/ld+json";
    /// SVG.
    pub const SVG: &str = "image/svg+xml";
    /// PDF.
    pub const PDF: &str = "application/pdf";
    /// HTML.
    pub const HTML: &str = "text/html; charset=utf-8";
    /// Plain text.
    pub const TEXT: &str = "text/plain; charset=utf-8";
}

/// The documents the routes serve, as bytes; the static export writes the same.
pub mod documents {
    use super::*;

    /// The record's JSON-LD: schema.org's `ScholarlyArticle` with the record under
    /// `canonical_record`, `pith_number`, `short_pith_number`, `canonical_sha256`, the
    /// record's aliases, its status, what pith checked (`status_flags`) and what the bundle
    /// states that pith did not (`bundle_states`). `base` prefixes the record URL (`""` leaves it
    /// relative to the document).
    pub fn record(base: &str, e: &Entry, bundle: Option<&BundleEntry>) -> Vec<u8> {
        let n = &e.number;
        let record: serde_json::Value =
            serde_json::from_str(&e.record).unwrap_or(serde_json::Value::Null);
        let versioned = format!("{}v{}", e.arxiv_id, e.version);
        let mut aliases = vec![
            alias("arxiv", &e.arxiv_id),
            alias("arxiv_version", &versioned),
            alias(
                "doi",
                &format!("10.48550/arxiv.{}", e.arxiv_id.to_ascii_lowercase()),
            ),
        ];
        for len in ALIAS_LENS {
            aliases.push(alias(&format!("pith_short_{len}"), &n.alias(len)));
        }
        let flags = bundle.map(|b| b.flags).unwrap_or_default();
        let mut doc = serde_json::json!({
            "@context": "https://schema.org",
            "@type": "ScholarlyArticle",
            "@id": format!("{base}/pith/{}", n.code()),
            "identifier": n.full(),
            "url": format!("https://arxiv.org/abs/{versioned}"),
            "sameAs": format!("https://doi.org/10.48550/arXiv.{}", e.arxiv_id),
            "dateCreated": e.submitted_at,
            "pith_number": n.full(),
            "short_pith_number": n.short(),
            "canonical_sha256": e.canonical_sha256,
            "canonical_record": record,
            "source_aliases": aliases,
            "status": status_name(bundle),
            "status_flags": {"receipt_verified": flags.receipt_verified},
            "bundle_states": flags.claims(),
            "superseded": e.superseded,
        });
        if !e.title.is_empty() {
            doc["name"] = e.title.clone().into();
        }
        if !e.authors.is_empty() {
            doc["author"] = e.authors.clone().into();
        }
        if !e.version_date.is_empty() {
            doc["dateModified"] = e.version_date.clone().into();
        }
        let mut out = serde_json::to_vec_pretty(&doc).unwrap_or_default();
        out.push(b'\n');
        out
    }

    fn alias(kind: &str, value: &str) -> serde_json::Value {
        serde_json::json!({"alias_kind": kind, "alias_value": value})
    }

    /// The merged state of a record with a bundle: its number, hash, status, whether its
    /// receipt verified, what the bundle states that pith did not check (`bundle_states`),
    /// and how many events the bundle holds.
    pub fn state(e: &Entry, b: &BundleEntry) -> Vec<u8> {
        let events = serde_json::from_str::<serde_json::Value>(&b.bundle)
            .ok()
            .and_then(|v| v.get("events").and_then(|x| x.as_array()).map(Vec::len))
            .unwrap_or(0);
        let doc = serde_json::json!({
            "pith_number": e.number.full(),
            "short_pith_number": e.number.short(),
            "canonical_sha256": e.canonical_sha256,
            "status": status_name(Some(b)),
            "receipt_verified": b.flags.receipt_verified,
            "bundle_states": b.flags.claims(),
            "event_count": events,
        });
        let mut out = serde_json::to_vec_pretty(&doc).unwrap_or_default();
        out.push(b'\n');
        out
    }

    /// The badge's status for a record: [`badge::status`] of its bundle's flags.
    pub fn status(bundle: Option<&BundleEntry>) -> RecordStatus {
        badge::status(bundle.map(|b| &b.flags))
    }

    fn status_name(bundle: Option<&BundleEntry>) -> &'static str {
        status(bundle).name()
    }

    /// The PDF badge: `pith badge --format pdf`'s bytes for the options and the record's
    /// status.
    ///
    /// # Errors
    /// As [`badge::pdf`] (options out of range).
    pub fn badge_pdf(
        n: &PithNumber,
        opts: &Options,
        bundle: Option<&BundleEntry>,
    ) -> Result<Vec<u8>, badge::Error> {
        badge::pdf(n, &opts.clone().status(Some(status(bundle))))
    }

    /// The SVG badge: `pith badge`'s bytes (the library's document and a final newline) for
    /// the options and the record's status.
    ///
    /// # Errors
    /// As [`badge::svg`] (options out of range).
    pub fn badge_svg(
        n: &PithNumber,
        opts: &Options,
        bundle: Option<&BundleEntry>,
    ) -> Result<Vec<u8>, badge::Error> {
        let mut svg = badge::svg(n, &opts.clone().status(Some(status(bundle))))?;
        svg.push('\n');
        Ok(svg.into_bytes())
    }

    /// The shields.io endpoint document (`schemaVersion` 1): label `pith`, the badge's value
    /// and status as message, the status segment's colour.
    pub fn shields(n: &PithNumber, full: bool, bundle: Option<&BundleEntry>) -> Vec<u8> {
        let st = status(bundle);
        let colour = |segment: &str| {
            badge::palette()
                .into_iter()
                .find(|(light, _)| light.segment == segment)
                .map(|(light, _)| light.background.trim_start_matches('#').to_owned())
                .unwrap_or_default()
        };
        let doc = serde_json::json!({
            "schemaVersion": 1,
            "label": "pith",
            "message": format!("{} {}", badge::value_text(n, full), st.name()),
            "color": colour(st.name()),
            "labelColor": colour("label"),
            "cacheSeconds": 300,
        });
        let mut out = serde_json::to_vec(&doc).unwrap_or_default();
        out.push(b'\n');
        out
    }
}

/// An answer with an `ETag` of its bytes, `Cache-Control`, and CORS for JSON and SVG; `304
/// Not Modified` when the request's `If-None-Match` names the same bytes.
pub fn answer(
    req: &HeaderMap,
    status: StatusCode,
    content_type: &str,
    cache: &'static str,
    body: Vec<u8>,
) -> Response {
    let digest = pith::number::sha256(&body);
    let etag = format!("\"{}\"", &pith::number::hex(&digest)[..20]);
    let cors = content_type.starts_with("application/") || content_type == types::SVG;
    let not_modified = status == StatusCode::OK
        && req
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == etag || t == "*");
    let mut r = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = (status, body).into_response();
        if let Ok(v) = HeaderValue::from_str(content_type) {
            r.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        r
    };
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if cors {
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
    if content_type == types::SVG {
        // The badge's own <style> only: an SVG opened directly runs nothing.
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
        );
    }
    r
}

/// Whether the client asked for JSON (JSON-LD included) before HTML.
pub fn wants_json(req: &HeaderMap) -> bool {
    let accept = req
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    accept.contains("json")
}

/// Whether the client accepts HTML (a browser).
pub fn wants_html(req: &HeaderMap) -> bool {
    req.get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.to_ascii_lowercase().contains("text/html"))
}

/// A 404 (or another error status) with a JSON body, or an HTML one for a browser, or text.
pub fn error(req: &HeaderMap, status: StatusCode, message: &str) -> Response {
    if wants_html(req) && !wants_json(req) {
        let text = pith::escape::html_attr(message);
        let code = status.as_u16();
        let reason = status.canonical_reason().unwrap_or("");
        let body = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{code} {reason}</title></head>\n<body><h1>{code} {reason}</h1><p>{text}</p></body></html>\n"
        );
        return answer(req, status, types::HTML, MISSING, body.into_bytes());
    }
    let mut body = serde_json::to_vec(&serde_json::json!({
        "error": status.canonical_reason().unwrap_or("error").to_ascii_lowercase().replace(' ', "_"),
        "status": status.as_u16(),
        "message": message,
    }))
    .unwrap_or_default();
    body.push(b'\n');
    answer(req, status, types::JSON, MISSING, body)
}

/// A path whose percent-decoding is not UTF-8 text.
fn bad_path(req: &HeaderMap) -> Response {
    error(
        req,
        StatusCode::BAD_REQUEST,
        "the path is not valid text once percent-decoded",
    )
}

fn not_found(req: &HeaderMap, what: &str) -> Response {
    error(req, StatusCode::NOT_FOUND, what)
}

fn internal(req: &HeaderMap, e: &crate::index::Error) -> Response {
    error(
        req,
        StatusCode::INTERNAL_SERVER_ERROR,
        &format!("the index cannot be read: {e}"),
    )
}

/// A redirect to `location` (relative to the server, or under the configured base URL).
fn redirect(req: &HeaderMap, status: StatusCode, state: &AppState, location: &str) -> Response {
    let mut r = answer(req, status, types::TEXT, CHANGING, Vec::new());
    let to = format!("{}{location}", state.base_url());
    if let Ok(v) = HeaderValue::from_str(&to) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

/// What a `/pith/…` segment names.
enum Named {
    /// A full code, upper case, and whether the segment was written so.
    Code(String, bool),
    /// A short alias prefix, upper case.
    Alias(String),
}

fn parse_segment(s: &str) -> Option<Named> {
    if s.len() == CODE_LEN {
        let n = PithNumber::parse(s).ok()?;
        return Some(Named::Code(n.code().to_owned(), n.code() == s));
    }
    if ALIAS_LENS.contains(&s.len()) {
        if let Ok(NumberRef::Alias(a)) = NumberRef::parse(&format!("pith:{s}")) {
            return Some(Named::Alias(a.prefix().to_ascii_uppercase()));
        }
    }
    None
}

/// `GET /healthz`: `ok` and the number of records, once the index answers.
pub async fn healthz(State(state): State<AppState>, req: HeaderMap) -> Response {
    match state.index().len() {
        Ok(n) => {
            let r = answer(
                &req,
                StatusCode::OK,
                types::TEXT,
                "no-store",
                format!("ok {n} records\n").into_bytes(),
            );
            r
        }
        Err(e) => internal(&req, &e),
    }
}

/// `GET /pith/{segment}`: `<26>.json` → the JSON-LD record; `<26>` → the JSON-LD record (or
/// the HTML page for a browser, when pages are served); `<8|12|16>` → 303 to the full number.
pub async fn pith(
    State(state): State<AppState>,
    segment: Result<Path<String>, PathRejection>,
    req: HeaderMap,
) -> Response {
    let Ok(Path(segment)) = segment else {
        return bad_path(&req);
    };
    let (stem, json_file) = match segment.strip_suffix(".json") {
        Some(s) => (s, true),
        None => (segment.as_str(), false),
    };
    match parse_segment(stem) {
        Some(Named::Code(code, exact)) => {
            if !exact {
                let suffix = if json_file { ".json" } else { "" };
                return redirect(
                    &req,
                    StatusCode::MOVED_PERMANENTLY,
                    &state,
                    &format!("/pith/{code}{suffix}"),
                );
            }
            let entry = match state.index().record(&code) {
                Ok(Some(e)) => e,
                Ok(None) => return not_found(&req, &format!("no record of {code} in this index")),
                Err(e) => return internal(&req, &e),
            };
            if !json_file && !wants_json(&req) && wants_html(&req) {
                if let Some(page) = crate::app::record_page(&state, &req, &entry) {
                    return page;
                }
            }
            let bundle = match state.index().bundle(&code) {
                Ok(b) => b,
                Err(e) => return internal(&req, &e),
            };
            let body = documents::record(state.base_url(), &entry, bundle.as_ref());
            let ty = if json_file { types::JSON } else { types::JSON_LD };
            let mut r = answer(&req, StatusCode::OK, ty, CHANGING, body);
            r.headers_mut()
                .insert(header::VARY, HeaderValue::from_static("Accept"));
            r
        }
        Some(Named::Alias(prefix)) if !json_file => match state.index().prefix(&prefix) {
            Ok(Prefix::Unique(code)) => {
                redirect(&req, StatusCode::SEE_OTHER, &state, &format!("/pith/{code}"))
            }
            Ok(Prefix::None) => not_found(&req, &format!("no number starts with {prefix}")),
            Ok(Prefix::Ambiguous) => not_found(
                &req,
                &format!("several numbers start with {prefix}; give more characters"),
            ),
            Err(e) => internal(&req, &e),
        },
        _ => not_found(
            &req,
            "not a Pith Number: /pith/ takes 26 characters (A-Z, 2-7), or a short alias of 8, 12 or 16",
        ),
    }
}

/// `GET /pith/{code}/{file}`: `bundle.json` and `state.json`, where a bundle is indexed.
pub async fn pith_file(
    State(state): State<AppState>,
    parts: Result<Path<(String, String)>, PathRejection>,
    req: HeaderMap,
) -> Response {
    let Ok(Path((code, file))) = parts else {
        return bad_path(&req);
    };
    let Some(Named::Code(code, true)) = parse_segment(&code) else {
        return not_found(&req, "not a Pith Number of 26 upper-case characters");
    };
    if file != "bundle.json" && file != "state.json" {
        return not_found(&req, "a record has bundle.json and state.json");
    }
    let (entry, bundle) = match (state.index().record(&code), state.index().bundle(&code)) {
        (Ok(Some(e)), Ok(Some(b))) => (e, b),
        (Ok(_), Ok(_)) => return not_found(&req, &format!("no bundle of {code} in this index")),
        (Err(e), _) | (_, Err(e)) => return internal(&req, &e),
    };
    let body = if file == "bundle.json" {
        let mut b = bundle.bundle.clone().into_bytes();
        b.push(b'\n');
        b
    } else {
        documents::state(&entry, &bundle)
    };
    answer(&req, StatusCode::OK, types::JSON, CHANGING, body)
}

/// `GET /arxiv/{id}`: 303 to the number of the latest indexed version, or of the version the
/// id names (`2402.03791v3`, `math/0406128v1`).
pub async fn arxiv(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
    req: HeaderMap,
) -> Response {
    let Ok(Path(id)) = id else {
        return bad_path(&req);
    };
    let Ok(parsed) = pith::net::ArxivId::parse(&id) else {
        return not_found(
            &req,
            "not an arXiv id (YYMM.NNNNN or archive/YYMMNNN, with vN for a version)",
        );
    };
    match state.index().arxiv(parsed.id(), parsed.version()) {
        Ok(Some(e)) => redirect(
            &req,
            StatusCode::SEE_OTHER,
            &state,
            &format!("/pith/{}", e.number.code()),
        ),
        Ok(None) => not_found(&req, &format!("arXiv:{parsed} is not in this index")),
        Err(e) => internal(&req, &e),
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
    pub fn options(&self) -> Result<Options, String> {
        let style = match &self.style {
            Some(s) => s.parse::<Style>().map_err(|e| e.to_string())?,
            None => Style::Flat,
        };
        let module = match &self.qr_module {
            Some(m) => Some(
                m.parse::<u32>()
                    .map_err(|_| format!("qr_module {m:?} is not a number of px"))?,
            ),
            None => None,
        };
        let qr = flag(self.qr.as_deref())? || module.is_some();
        Ok(Options::default()
            .full(flag(self.full.as_deref())?)
            .style(style)
            .qr(qr.then_some(module.unwrap_or(2))))
    }
}

/// `GET /badge/{file}`: `<26>.svg` → the badge (`pith badge`'s bytes for the query's options
/// and the record's status), `<26>.pdf` → the same as `pith badge --format pdf`, `-dark`
/// before either → `--dark`; `<26>.json` → the shields.io endpoint document.
pub async fn badge(
    State(state): State<AppState>,
    file: Result<Path<String>, PathRejection>,
    query: Result<Query<BadgeQuery>, QueryRejection>,
    req: HeaderMap,
) -> Response {
    let Ok(Path(file)) = file else {
        return bad_path(&req);
    };
    let Ok(Query(query)) = query else {
        return error(&req, StatusCode::BAD_REQUEST, "the query cannot be read");
    };
    let (stem, kind) = match file.rsplit_once('.') {
        Some((s, "svg")) => (s, types::SVG),
        Some((s, "pdf")) => (s, types::PDF),
        Some((s, "json")) => (s, types::JSON),
        _ => {
            return not_found(
                &req,
                "a badge is /badge/<26 characters>.svg, .pdf or .json (-dark.svg, -dark.pdf: the dark colours)",
            )
        }
    };
    let (stem, dark) = match stem.strip_suffix("-dark") {
        Some(s) if kind != types::JSON => (s, true),
        _ => (stem, false),
    };
    let Some(Named::Code(code, true)) = parse_segment(stem) else {
        return not_found(&req, "not a Pith Number of 26 upper-case characters");
    };
    let opts = match query.options() {
        Ok(o) => o.dark(dark),
        Err(m) => return error(&req, StatusCode::BAD_REQUEST, &m),
    };
    let (entry, bundle) = match (state.index().record(&code), state.index().bundle(&code)) {
        (Ok(Some(e)), Ok(b)) => (e, b),
        (Ok(None), _) => return not_found(&req, &format!("no record of {code} in this index")),
        (Err(e), _) | (_, Err(e)) => return internal(&req, &e),
    };
    if kind != types::JSON {
        let drawn = if kind == types::PDF {
            documents::badge_pdf(&entry.number, &opts, bundle.as_ref())
        } else {
            documents::badge_svg(&entry.number, &opts, bundle.as_ref())
        };
        match drawn {
            Ok(body) => answer(&req, StatusCode::OK, kind, CHANGING, body),
            Err(e) => error(&req, StatusCode::BAD_REQUEST, &e.to_string()),
        }
    } else {
        let body = documents::shields(&entry.number, opts.get_full(), bundle.as_ref());
        answer(&req, StatusCode::OK, types::JSON, CHANGING, body)
    }
}

/// The request headers an answer depends on (`Accept`, `If-None-Match`), copied.
pub fn negotiation(req: &HeaderMap) -> HeaderMap {
    let mut h = HeaderMap::new();
    for name in [header::ACCEPT, header::IF_NONE_MATCH] {
        for v in req.get_all(&name) {
            h.append(name.clone(), v.clone());
        }
    }
    h
}

/// The largest answer [`finish`] reads to give it an `ETag` (the framework's own answers, a
/// 405 or a rejected request, are a few bytes).
const MAX_FINISHED: usize = 1 << 20;

/// Middleware: answers that no handler marked (the framework's 405 and rejections, and any
/// route that sets none) get `Cache-Control` and an `ETag` of their bytes.
pub async fn finish(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let headers = negotiation(req.headers());
    let res = next.run(req).await;
    if res.headers().contains_key(header::ETAG) || res.status() == StatusCode::NOT_MODIFIED {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_FINISHED).await else {
        return error(
            &headers,
            StatusCode::INTERNAL_SERVER_ERROR,
            "the answer was too large",
        );
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
    // Keep what the inner answer said (Allow on a 405, Location), under ours.
    for (k, v) in parts.headers.drain().filter_map(|(k, v)| k.map(|k| (k, v))) {
        r.headers_mut().entry(k).or_insert(v);
    }
    r
}

/// Anything else: 404.
pub async fn fallback(req: HeaderMap) -> Response {
    not_found(&req, "nothing here")
}
