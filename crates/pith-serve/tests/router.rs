//! Arbitrary paths through the router itself (tower's `oneshot`, no sockets): never a panic,
//! never a 5xx.

use axum::body::Body;
use axum::http::Request;
use pith_serve::app::{self, AppState};
use pith_serve::index::Index;
use pith_serve::limits::Limits;
use proptest::prelude::*;
use tower::ServiceExt;

use crate::common;

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("7BMK4ZKTPUTUY3JKWBANNPOFR5".to_owned()),
        Just("7BMK4ZKT".to_owned()),
        Just("2402.03791v3".to_owned()),
        Just("..".to_owned()),
        Just("%2e%2e".to_owned()),
        Just("%FF".to_owned()),
        "[A-Z2-7]{0,30}",
        "[a-zA-Z0-9._~%/?&=+-]{0,40}",
        "\\PC{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_path_is_answered_without_a_5xx(
        prefix in prop_oneof![Just("/pith/"), Just("/arxiv/"), Just("/badge/"), Just("/"), Just("/healthz")],
        a in segment(),
        b in segment(),
        suffix in prop_oneof![Just(""), Just(".json"), Just(".svg"), Just("/bundle.json"), Just("/state.json"), Just("?full=1&qr=1&style=flat-square")],
        accept in prop_oneof![Just("*/*"), Just("application/ld+json"), Just("text/html"), Just("")],
    ) {
        let uri = format!("{prefix}{a}/{b}{suffix}");
        // What the http crate will not take as a request target, hyper answers 400 before any
        // route runs.
        let Ok(req) = Request::builder().uri(&uri).header("accept", accept).body(Body::empty()) else {
            return Ok(());
        };
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let index = Index::open(common::snapshot_index()).unwrap();
        let router = app::router(AppState::new(index, "", Limits::default()));
        let res = rt.block_on(router.oneshot(req)).unwrap();
        let status = res.status().as_u16();
        prop_assert!(status < 500, "{uri}: {status}");
        prop_assert!(res.headers().contains_key("cache-control"), "{uri}: no Cache-Control");
    }
}
