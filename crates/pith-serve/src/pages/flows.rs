//! The pages answered through the router from an in-memory catalog of the published records.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use pith::badge::RecordStatus;
use pith::Record;
use tower::ServiceExt;

use super::catalog::{Catalog, Error};
use super::record::Facts;
use crate::app::{self, AppState};
use crate::limits::Limits;

struct Memory(Vec<(Record, String)>);

impl Memory {
    fn published() -> Self {
        let recs: serde_json::Value =
            serde_json::from_str(include_str!("../../../../tests/data/records.json")).unwrap();
        let mut out: Vec<(Record, String)> = Vec::new();
        for r in recs.as_array().unwrap() {
            if r.get("variant_of").is_some() {
                continue;
            }
            let rec = Record::from_value(&r["canonical_record"]).unwrap();
            if out.iter().all(|(o, _)| *o != rec) {
                let title = r["title"].as_str().unwrap_or("Untitled").to_owned();
                out.push((rec, title));
            }
        }
        Memory(out)
    }

    fn find(&self, code: &str) -> Option<&(Record, String)> {
        self.0.iter().find(|(r, _)| r.number().code() == code)
    }
}

impl Catalog for Memory {
    fn count(&self) -> Result<u64, Error> {
        Ok(self.0.len() as u64)
    }
    fn has_code(&self, code: &str) -> Result<bool, Error> {
        Ok(self.find(code).is_some())
    }
    fn code_of_prefix(&self, prefix: &str) -> Result<Option<String>, Error> {
        let hits: Vec<String> = self
            .0
            .iter()
            .map(|(r, _)| r.number().code().to_owned())
            .filter(|c| c.starts_with(prefix))
            .collect();
        Ok((hits.len() == 1).then(|| hits[0].clone()))
    }
    fn code_of_arxiv(&self, id: &str, version: Option<u32>) -> Result<Option<String>, Error> {
        Ok(self
            .0
            .iter()
            .filter(|(r, _)| r.source.id == id && version.is_none_or(|v| v == r.source.version))
            .max_by_key(|(r, _)| r.source.version)
            .map(|(r, _)| r.number().code().to_owned()))
    }
    fn facts(&self, code: &str) -> Result<Option<Facts>, Error> {
        Ok(self.find(code).map(|(r, title)| Facts {
            record: r.clone(),
            title: title.clone(),
            authors: "A. Author and B. Autor".into(),
            versions: vec![(r.source.version, r.number())],
            flags: [false; 4],
            has_bundle: false,
            status: Some(RecordStatus::Computed),
            json_ld: serde_json::json!({"canonical_record": r, "pith_number": r.number().full()}),
        }))
    }
    fn record(&self, code: &str) -> Result<Option<Record>, Error> {
        Ok(self.find(code).map(|(r, _)| r.clone()))
    }
    fn bundle_json(&self, _code: &str) -> Result<Option<String>, Error> {
        Ok(None)
    }
}

fn app(max_upload: u64) -> axum::Router {
    app::router(
        AppState::new(Limits::default(), Arc::new(Memory::published())).with_max_upload(max_upload),
    )
}

async fn get(uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    let req = Request::get(uri)
        .header(header::ACCEPT, "text/html")
        .header(header::HOST, "127.0.0.1:8080")
        .body(Body::empty())
        .unwrap();
    let resp = app(1_000_000).oneshot(req).await.unwrap();
    let (parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    (parts.status, parts.headers, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn search_redirects_or_says_not_found() {
    for q in ["2402.03791", "arXiv%3A2402.03791v3", "pith%3A7BMK4ZKT", "7BMK4ZKTPUTUY3JKWBANNPOFR5"] {
        let (status, headers, _) = get(&format!("/?q={q}")).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{q}");
        assert_eq!(headers[header::LOCATION], "/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5");
    }
    let (status, headers, body) = get("/?q=2501.99999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("Not in this index") && body.contains("arXiv:2501.99999"), "{body}");
    assert!(headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().starts_with("default-src 'self'"));
    let (status, _, body) = get("/?q=hello").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("“hello”"), "{body}");
}

#[tokio::test]
async fn home_page_is_small_and_links_its_assets() {
    let (status, headers, body) = get("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers.get(header::SET_COOKIE).is_none());
    assert!(headers.get(header::ETAG).is_some());
    assert!(body.len() < 60_000);
    let css = format!("/{}", super::assets::CSS.path());
    assert!(body.contains(&css), "{body}");
    let (status, headers, text) = get(&css).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("prefers-color-scheme: dark"));
    assert!(headers[header::CACHE_CONTROL].to_str().unwrap().contains("immutable"));
    assert_eq!(get("/assets/pith.css").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn record_page_shows_the_record() {
    let state = AppState::new(Limits::default(), Arc::new(Memory::published()));
    let mut headers = axum::http::HeaderMap::new();
    headers.insert(header::ACCEPT, "text/html".parse().unwrap());
    headers.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
    let resp = super::record::page(&state, &headers, "7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let body = axum::body::to_bytes(resp.into_body(), usize::MAX).await.unwrap();
    let body = String::from_utf8(body.to_vec()).unwrap();
    assert!(body.len() < 60_000, "{}", body.len());
    for want in [
        "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5",
        "pith:7BMK4ZKT",
        "ZeroPP",
        "https://arxiv.org/abs/2402.03791v3",
        "f858ae65537d274c6d2ab040d6bdc58f56e405d9a90f6fe1018ac133bbda80a2",
        "http://127.0.0.1:8080/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5 \\",
        "\\pithnumber{pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5}",
        "application/ld+json",
        "og:title",
    ] {
        assert!(body.contains(want), "{want} missing");
    }
    // JSON headers get nothing here: the JSON-LD route answers them.
    headers.insert(header::ACCEPT, "application/ld+json".parse().unwrap());
    assert!(super::record::page(&state, &headers, "7BMK4ZKTPUTUY3JKWBANNPOFR5").is_none());
}

async fn post(body: Vec<u8>, accept: &str, limit: u64) -> (StatusCode, String) {
    let req = Request::post("/verify?file=a.pdf")
        .header(header::ACCEPT, accept)
        .header(header::HOST, "127.0.0.1:8080")
        .body(Body::from(body))
        .unwrap();
    let resp = app(limit).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX).await.unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn uploads_get_their_own_sentences() {
    let minimal = include_bytes!("../../../../tests/fixtures/minimal.pdf").to_vec();
    let (s, body) = post(b"hello".to_vec(), "text/html", 1000).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body.contains("This file is not a PDF"), "{body}");
    let (s, body) = post(minimal.clone(), "text/html", 1_000_000).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body.contains("This PDF carries no Pith Number"), "{body}");
    let (s, body) = post(vec![b'%'; 5000], "text/html", 1000).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body.contains("at most 1 KB"), "{body}");
    let (s, body) = post(b"%PDF-1.4\ngarbage".to_vec(), "application/json", 1_000_000).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&body).unwrap()["error"], "damaged");
    let (s, _) = post(Vec::new(), "text/html", 1000).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_injected_pdf_matches_its_record() {
    let minimal = include_bytes!("../../../../tests/fixtures/minimal.pdf").to_vec();
    let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
    let inj = pith::pdf::inject(minimal.clone(), &n, &pith::pdf::Options::new("2024-01-01T00:00:00Z")).unwrap();
    let mut pdf = minimal;
    pdf.extend_from_slice(&inj.appended);
    let (s, body) = post(pdf.clone(), "text/html", 1_000_000).await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains("The number matches its record") && body.contains("ZeroPP"), "{body}");
    let (s, body) = post(pdf, "application/json", 1_000_000).await;
    assert_eq!(s, StatusCode::OK);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["file"], "a.pdf");
    assert_eq!(v["holds"], true);
    assert_eq!(v["arxiv_id"], "2402.03791");
}
