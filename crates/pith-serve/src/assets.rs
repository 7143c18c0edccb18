//! The stylesheet and the script, compiled into the binary and served from this origin under
//! a name that carries their hash, so that they can be cached for a year and a new build is
//! never shown an old copy.

use std::sync::LazyLock;

use axum::body::Body;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use crate::http::etag::Etag;
use crate::http::reply;

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
    match all().into_iter().find(|a| a.name == name) {
        Some(asset) => reply::finish(
            &headers,
            StatusCode::OK,
            asset.content_type,
            &asset.etag,
            reply::IMMUTABLE,
            Body::from(asset.bytes),
        ),
        None => reply::answer(
            &headers,
            StatusCode::NOT_FOUND,
            reply::types::TEXT,
            reply::MISSING,
            b"no such file\n".to_vec(),
        ),
    }
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
