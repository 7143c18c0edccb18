//! The stylesheet and the script, compiled into the binary and served from this origin under
//! a name that carries their hash, so that they can be cached for a year and a new build is
//! never shown an old copy.

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::http::etag::{self, Etag};

/// One asset: its bytes, its content type, and its hashed name.
pub struct Asset {
    /// The name it is served under, `pith.<12 hex>.css`.
    pub name: String,
    /// Its bytes.
    pub bytes: &'static [u8],
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its strong `ETag`.
    pub etag: Etag,
}

impl Asset {
    fn new(stem: &str, ext: &str, bytes: &'static [u8], content_type: &'static str) -> Self {
        let hash = pith::number::hex(&pith::number::sha256(bytes));
        Asset {
            name: format!("{stem}.{}.{ext}", &hash[..12]),
            bytes,
            content_type,
            etag: Etag::of(content_type, bytes),
        }
    }

    /// Its path under the site root, `assets/<name>`.
    pub fn path(&self) -> String {
        format!("assets/{}", self.name)
    }
}

/// The stylesheet.
pub static CSS: LazyLock<Asset> = LazyLock::new(|| {
    Asset::new(
        "pith",
        "css",
        include_bytes!("../assets/pith.css"),
        "text/css; charset=utf-8",
    )
});

/// The script.
pub static JS: LazyLock<Asset> = LazyLock::new(|| {
    Asset::new(
        "pith",
        "js",
        include_bytes!("../assets/pith.js"),
        "text/javascript; charset=utf-8",
    )
});

/// Every asset.
pub fn all() -> [&'static Asset; 2] {
    [&CSS, &JS]
}

/// `GET /assets/<name>`: the asset of that hashed name, `304` when the client has it, `404`
/// for any other name (nothing here reaches the file system).
pub async fn serve(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = all().into_iter().find(|a| a.name == name) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "no such file\n",
        )
            .into_response();
    };
    let cache = [
        (header::ETAG, asset.etag.value()),
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ),
    ];
    if etag::matches(&headers, asset.etag.as_str().as_bytes()) {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        asset.bytes,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_hash_and_differ() {
        assert!(CSS.name.starts_with("pith.") && CSS.name.ends_with(".css"));
        assert_eq!(CSS.name.len(), "pith..css".len() + 12);
        assert_ne!(CSS.name, JS.name);
    }
}
