//! Entity tags: one strong `ETag` per representation (of its content type and its bytes, so
//! that the JSON-LD and the JSON of a record, the same bytes, have two), and the one reading
//! of `If-None-Match` every answer uses.

use axum::http::{header, HeaderMap, HeaderValue};

/// A strong entity tag, quoted: `"` + 20 hex digits of a SHA-256 + `"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Etag(String);

impl Etag {
    /// The tag of a representation: its `Content-Type` and its bytes.
    pub fn of(content_type: &str, body: &[u8]) -> Etag {
        let mut bytes = Vec::with_capacity(content_type.len() + 1 + body.len());
        bytes.extend_from_slice(content_type.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(body);
        let digest = pith::number::sha256(&bytes);
        Etag(format!("\"{}\"", &pith::number::hex(&digest)[..20]))
    }

    /// The tag as the header writes it, quotes included.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The header value.
    pub fn value(&self) -> HeaderValue {
        HeaderValue::from_str(&self.0).unwrap_or(HeaderValue::from_static("\"\""))
    }

    /// Whether the request's `If-None-Match` names this tag (or `*`).
    pub fn matches(&self, req: &HeaderMap) -> bool {
        matches(req, self.0.as_bytes())
    }
}

/// Whether the request's `If-None-Match` names `etag` (quoted, as sent) or `*`: the weak
/// comparison RFC 9110 asks of `If-None-Match`, so a `W/` prefix is ignored.
pub fn matches(req: &HeaderMap, etag: &[u8]) -> bool {
    req.get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t.as_bytes() == etag || t == "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_tag_per_representation_and_one_reading() {
        let a = Etag::of("application/json", b"{}");
        let b = Etag::of("application/ld+json", b"{}");
        assert_ne!(a, b);
        assert_eq!(a, Etag::of("application/json", b"{}"));
        assert_eq!(a.as_str().len(), 22);
        let mut h = HeaderMap::new();
        assert!(!a.matches(&h));
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"x\", W/{}", a.as_str())).unwrap(),
        );
        assert!(a.matches(&h) && !b.matches(&h));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(b.matches(&h));
    }
}
