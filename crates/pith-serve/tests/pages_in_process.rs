//! The pages asked for through the router in process (tower's `oneshot`: no browser, no
//! sockets): search answers, the home page, the record page's contents, each upload's
//! sentence, an injected PDF checked against its record.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use pith_serve::app::{self, AppState};
use pith_serve::index::Index;
use pith_serve::limits::Limits;
use tower::ServiceExt;

use crate::common;

/// The router in process over the vectors' snapshot index, taking uploads up to `max_upload`.
fn app(max_upload: u64) -> axum::Router {
    let index = Index::open(common::snapshot_index()).unwrap();
    app::router(AppState::new(index, "", Limits::default()).with_max_upload(max_upload))
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
    (
        parts.status,
        parts.headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

#[tokio::test]
async fn search_redirects_or_says_not_found() {
    for q in [
        "2402.03791",
        "arXiv%3A2402.03791v3",
        "pith%3A7BMK4ZKT",
        "7BMK4ZKTPUTUY3JKWBANNPOFR5",
    ] {
        let (status, headers, _) = get(&format!("/?q={q}")).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{q}");
        assert_eq!(
            headers[header::LOCATION],
            "/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5"
        );
    }
    let (status, headers, body) = get("/?q=2501.99999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        body.contains("Not in this index") && body.contains("arXiv:2501.99999"),
        "{body}"
    );
    assert!(headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .starts_with("default-src 'self'"));
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
    let css = format!("/{}", pith_serve::assets::CSS.path());
    assert!(body.contains(&css), "{body}");
    let (status, headers, text) = get(&css).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("prefers-color-scheme: dark"));
    assert!(headers[header::CACHE_CONTROL]
        .to_str()
        .unwrap()
        .contains("immutable"));
    assert_eq!(get("/assets/pith.css").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn record_page_shows_the_record() {
    let (status, headers, body) = get("/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert!(body.len() < 60_000, "{}", body.len());
    for want in [
        "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5",
        "pith:7BMK4ZKT",
        "ZeroPP",
        "https://arxiv.org/abs/2402.03791v3",
        "f858ae65537d274c6d2ab040d6bdc58f56e405d9a90f6fe1018ac133bbda80a2",
        "$MIRROR/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5 \\",
        "\\pithnumber{pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5}",
        "application/ld+json",
        "og:title",
    ] {
        assert!(body.contains(want), "{want} missing");
    }
    // The page never names the host it was asked from: without --base-url its URLs are
    // relative to the server, whatever Host says.
    let req = |host: &str| {
        Request::get("/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5")
            .header(header::ACCEPT, "text/html")
            .header(header::HOST, host)
            .body(Body::empty())
            .unwrap()
    };
    let router = app(1000);
    for host in ["a.example:8080", "b.example:8080", "a.example:8080"] {
        let resp = router.clone().oneshot(req(host)).await.unwrap();
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .unwrap();
        let body = String::from_utf8_lossy(&body);
        assert!(!body.contains(host.trim_end_matches(":8080")), "{host}");
        assert!(
            body.contains("src=\"/badge/7BMK4ZKTPUTUY3JKWBANNPOFR5.svg\""),
            "{host}"
        );
    }
    // Scripts get the JSON-LD document, as before.
    let req = Request::get("/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5")
        .header(header::ACCEPT, "application/ld+json")
        .body(Body::empty())
        .unwrap();
    let resp = app(1000).oneshot(req).await.unwrap();
    assert_eq!(resp.headers()[header::CONTENT_TYPE], "application/ld+json");
}

async fn post(body: Vec<u8>, accept: &str, limit: u64) -> (StatusCode, String) {
    let req = Request::post("/verify?file=a.pdf")
        .header(header::ACCEPT, accept)
        .header(header::HOST, "127.0.0.1:8080")
        .body(Body::from(body))
        .unwrap();
    let resp = app(limit).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn uploads_get_their_own_sentences() {
    let minimal = std::fs::read(common::root().join("tests/fixtures/minimal.pdf")).unwrap();
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
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["kind"],
        "damaged"
    );
    let (s, _) = post(Vec::new(), "text/html", 1000).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let locked =
        std::fs::read(common::root().join("tests/fixtures/encrypted/r4-aes128-user-password.pdf"))
            .unwrap();
    let (s, body) = post(locked, "text/html", 1_000_000).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body.contains("This PDF is encrypted"), "{body}");
}

#[tokio::test]
async fn an_injected_pdf_matches_its_record() {
    let minimal = std::fs::read(common::root().join("tests/fixtures/minimal.pdf")).unwrap();
    let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
    let inj = pith::pdf::inject(
        minimal.clone(),
        &n,
        &pith::pdf::Options::new("2024-01-01T00:00:00Z"),
    )
    .unwrap();
    let mut pdf = minimal;
    pdf.extend_from_slice(&inj.appended);
    let (s, page) = post(pdf.clone(), "text/html", 1_000_000).await;
    assert_eq!(s, StatusCode::OK);
    let (s, body) = post(pdf, "application/json", 1_000_000).await;
    assert_eq!(s, StatusCode::OK);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    // The page's headline is the report's: the record matches, but no receipt was checked,
    // so it is not shown as a match.
    let headline = v["headline"].as_str().unwrap();
    assert_eq!(v["verdict"], "unverified");
    assert!(headline.starts_with("UNVERIFIED: "), "{headline}");
    assert!(
        page.contains(&pith::escape::html_attr(headline)) && page.contains("ZeroPP"),
        "{page}"
    );
    assert!(!page.contains("The number matches its record"), "{page}");
    assert_eq!(v["file"], "a.pdf");
    assert_eq!(v["holds"], true);
    assert_eq!(v["arxiv_id"], "2402.03791");
}
