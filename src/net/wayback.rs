//! The Wayback Machine's CDX API: the captures the Internet Archive holds of a URL, asked
//! politely (the client's spacing gate, retries and timeouts, as for arXiv) and cached.
//!
//! The API answers `output=json` (an array of rows under a legend row, read by
//! [`crate::capture::cdx`], row by row). An answer that parsed is kept in the cache
//! (`wayback/<sha1 of the query>.json`; a cut or malformed one never is) and used again instead of asking, unless the settings ask to refresh; offline, only the
//! cache answers. What the captures prove is decided in the job layer (its `capture` module):
//! this module only fetches them.

use super::client::{Client, Service};
use super::{Error, ErrorKind};
use crate::capture::{self, Capture};

pub use super::ENV_WAYBACK_URL;
/// The Wayback Machine.
pub const WAYBACK_URL: &str = "https://web.archive.org";
/// The most captures asked for in one query.
pub const MAX_CAPTURES: usize = 1000;

/// The CDX server: [`ENV_WAYBACK_URL`] when set, else [`WAYBACK_URL`], without a trailing `/`.
pub fn base_url() -> String {
    std::env::var(ENV_WAYBACK_URL)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| WAYBACK_URL.to_owned())
        .trim()
        .trim_end_matches('/')
        .to_owned()
}

/// The query for the captures of `url` with status 200.
pub fn cdx_url(base: &str, url: &str) -> String {
    format!(
        "{base}/cdx/search/cdx?url={}&output=json&filter=statuscode:200&limit={MAX_CAPTURES}",
        crate::escape::url(url, b"&?#=%+")
    )
}

/// The captures of `url` the CDX API at `base` lists (status 200), from the cache when it
/// holds the answer.
///
/// # Errors
/// The client's errors ([`ErrorKind::NotCached`] offline without a cached answer,
/// [`ErrorKind::Status`], [`ErrorKind::Timeout`], [`ErrorKind::Connect`], …);
/// [`ErrorKind::BadAnswer`] when the answer is not the CDX API's JSON.
pub fn captures(client: &Client, base: &str, url: &str) -> Result<Vec<Capture>, Error> {
    let query = cdx_url(base, url);
    let file = client
        .cache()
        .dir()
        .join("wayback")
        .join(format!("{}.json", capture::sha1_base32(query.as_bytes())));
    let cached = if client.settings().refresh {
        None
    } else {
        client.cache().read(&file)?
    };
    // A cached answer that does not parse (kept by an older pith) is asked for again.
    if let Some(found) = cached.and_then(|b| parse(&b).ok()) {
        return Ok(found);
    }
    let body = client.get(Service::Wayback, &query)?.body;
    let found = parse(&body)
        .map_err(|e| Error::from(ErrorKind::BadAnswer(e.to_string())).about(query.clone()))?;
    // Only an answer that parsed is kept: a cut or malformed one is asked again next time.
    client.cache().write(&file, &body)?;
    Ok(found)
}

/// The captures an answer of the CDX API lists, read row by row within
/// [`capture::Limits`] and at most [`MAX_CAPTURES`] rows (and the legend): an answer of more
/// rows than were asked for is refused, not read.
fn parse(body: &[u8]) -> Result<Vec<Capture>, capture::Error> {
    // An empty answer is an empty list (the API answers nothing for a URL it never captured).
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let limits = capture::Limits {
        lines: MAX_CAPTURES as u64 + 1,
        ..capture::Limits::default()
    };
    let mut found = Vec::new();
    capture::cdx::read_stream(body, &limits, &mut |r| {
        if let Ok(c) = r {
            found.push(c);
        }
        true
    })?;
    Ok(found)
}
