//! Content negotiation: which representation a client asked for, read once from its `Accept`
//! header with q-values honoured (RFC 9110, section 12.5.1), as the [`Negotiated`] extractor.
//!
//! Each media range a client lists applies to the media types it matches, the most specific
//! range winning (`text/html;q=0, */*` accepts everything but HTML); a type no range matches
//! is not acceptable, and a request without `Accept` accepts everything. Among the
//! representations a route offers, the one of highest q wins, ties going to the route's own
//! order; when the client accepts none of them the route's first is sent (the header is
//! disregarded rather than answered 406, as the RFC allows), so a client that names only
//! types this server never makes still gets the page.
//!
//! This module knows nothing of routes: it only ranks the [`Media`] this server can write.

use std::convert::Infallible;

use crate::http::reply::types;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};

/// A representation this server writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Media {
    /// `text/html`: a page.
    Html,
    /// `application/ld+json`: a record's JSON-LD.
    JsonLd,
    /// `application/json`.
    Json,
    /// `application/x-bibtex`: a BibTeX entry.
    Bibtex,
    /// `application/vnd.citationstyles.csl+json`: CSL-JSON.
    CslJson,
    /// `application/x-research-info-systems`: RIS.
    Ris,
    /// `image/svg+xml`: a badge.
    Svg,
    /// `text/plain`.
    Text,
}

impl Media {
    /// Every media type, in the order of [`Negotiated::key`].
    pub const ALL: [Media; 8] = [
        Media::Html,
        Media::JsonLd,
        Media::Json,
        Media::Bibtex,
        Media::CslJson,
        Media::Ris,
        Media::Svg,
        Media::Text,
    ];

    /// The media type, `type/subtype`, as `Accept` names it.
    pub fn essence(self) -> &'static str {
        match self {
            Media::Html => "text/html",
            Media::JsonLd => "application/ld+json",
            Media::Json => "application/json",
            Media::Bibtex => "application/x-bibtex",
            Media::CslJson => "application/vnd.citationstyles.csl+json",
            Media::Ris => "application/x-research-info-systems",
            Media::Svg => "image/svg+xml",
            Media::Text => "text/plain",
        }
    }

    /// The `Content-Type` an answer of this type carries (text types with their charset):
    /// [`types`]' names, the one list of the content types answers carry.
    pub fn content_type(self) -> &'static str {
        match self {
            Media::Html => types::HTML,
            Media::JsonLd => types::JSON_LD,
            Media::Json => types::JSON,
            Media::Bibtex => types::BIBTEX,
            Media::CslJson => types::CSL_JSON,
            Media::Ris => types::RIS,
            Media::Svg => types::SVG,
            Media::Text => types::TEXT,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The most ranges of one `Accept` header read: browsers send under ten; a header of
/// thousands is read no further than this.
const MAX_RANGES: usize = 64;

/// What a request accepts: a q-value (in thousandths) for each [`Media`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Negotiated {
    q: [u16; Media::ALL.len()],
}

impl Default for Negotiated {
    /// A request without `Accept`: everything, equally.
    fn default() -> Self {
        Negotiated {
            q: [1000; Media::ALL.len()],
        }
    }
}

/// How specific a media range is: `*/*`, `type/*`, `type/subtype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Specificity {
    Any,
    Type,
    Exact,
}

impl Negotiated {
    /// Reads the values of `Accept` (several headers are one list); `None` when there is none.
    pub fn parse<'a>(values: impl IntoIterator<Item = &'a str>) -> Self {
        let mut best: [Option<(Specificity, u16)>; Media::ALL.len()] = [None; Media::ALL.len()];
        let mut seen = false;
        for range in values
            .into_iter()
            .flat_map(|v| v.split(','))
            .filter(|r| !r.trim().is_empty())
            .take(MAX_RANGES)
        {
            seen = true;
            let mut params = range.split(';');
            let essence = params.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = params
                .filter_map(|p| p.split_once('='))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case("q"))
                .map_or(1000, |(_, v)| qvalue(v.trim()));
            let Some((ty, sub)) = essence.split_once('/') else {
                continue;
            };
            for m in Media::ALL {
                let (mty, msub) = m.essence().split_once('/').unwrap_or(("", ""));
                let spec = match (ty, sub) {
                    ("*", "*") => Specificity::Any,
                    (t, "*") if t == mty => Specificity::Type,
                    (t, s) if t == mty && s == msub => Specificity::Exact,
                    _ => continue,
                };
                let slot = &mut best[m.index()];
                // The most specific range decides; of equally specific ones, the first.
                if slot.is_none_or(|(s, _)| spec > s) {
                    *slot = Some((spec, q));
                }
            }
        }
        if !seen {
            return Negotiated::default();
        }
        Negotiated {
            q: best.map(|b| b.map_or(0, |(_, q)| q)),
        }
    }

    /// What the request's headers accept.
    pub fn of(headers: &HeaderMap) -> Self {
        Negotiated::parse(
            headers
                .get_all(header::ACCEPT)
                .iter()
                .filter_map(|v| v.to_str().ok()),
        )
    }

    /// The q-value of `m`, in thousandths (0: not acceptable).
    pub fn q(&self, m: Media) -> u16 {
        self.q[m.index()]
    }

    /// Whether `m` is acceptable at all.
    pub fn accepts(&self, m: Media) -> bool {
        self.q(m) > 0
    }

    /// The representation to send of those a route `offers` (its default first): the one of
    /// highest q, the earlier one of a tie; the first when none is acceptable.
    ///
    /// # Panics
    /// Never for a non-empty `offers`; `offers` empty is a bug of the route.
    pub fn choose(&self, offers: &[Media]) -> Media {
        let mut pick = offers[0];
        let mut best = 0;
        for &m in offers {
            if self.q(m) > best {
                best = self.q(m);
                pick = m;
            }
        }
        pick
    }

    /// A short key that tells two requests apart exactly when some set of offers would be
    /// answered differently for them: each media type's rank among the q-values (`0` for not
    /// acceptable). A cache keys its answers by it, and it takes few values whatever clients
    /// send.
    pub fn key(&self) -> String {
        let mut levels: Vec<u16> = self.q.iter().copied().filter(|&q| q > 0).collect();
        levels.sort_unstable_by(|a, b| b.cmp(a));
        levels.dedup();
        self.q
            .iter()
            .map(|&q| match levels.iter().position(|&l| l == q) {
                Some(i) if q > 0 => char::from(b'1' + i as u8),
                _ => '0',
            })
            .collect()
    }
}

/// A q-value (`0`, `0.5`, `1.000`) in thousandths; what does not read as one counts as 1, as
/// a client that writes a bad q means the range all the same.
fn qvalue(v: &str) -> u16 {
    let (int, frac) = v.split_once('.').unwrap_or((v, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return 1000;
    }
    match int {
        "0" => format!("{frac:0<3}").parse().unwrap_or(0),
        _ => 1000,
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Negotiated {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(Negotiated::of(&parts.headers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::routes::RECORD_OFFERS;

    fn pick(accept: &[&str]) -> Media {
        Negotiated::parse(accept.iter().copied()).choose(RECORD_OFFERS)
    }

    #[test]
    fn q_values_and_specificity_decide() {
        // `Accept` headers and what a record's route answers for them.
        let cases: &[(&[&str], Media)] = &[
            (&[], Media::Html),
            (&["*/*"], Media::Html),
            (&["text/html, application/ld+json;q=0"], Media::Html),
            (&["application/ld+json"], Media::JsonLd),
            (&["application/json"], Media::Json),
            (&["text/html;q=0.5, application/ld+json"], Media::JsonLd),
            (&["text/html;q=0, */*"], Media::JsonLd),
            (&["application/*"], Media::JsonLd),
            (&["application/x-bibtex"], Media::Bibtex),
            (&["application/vnd.citationstyles.csl+json"], Media::CslJson),
            (&["application/x-research-info-systems"], Media::Ris),
            // Nothing offered is acceptable: the route's default.
            (&["image/png"], Media::Html),
            // A browser's header.
            (
                &["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"],
                Media::Html,
            ),
            // Two headers are one list; case and spaces do not matter.
            (
                &["text/html;q=0.1", "APPLICATION/LD+JSON ; Q=0.9"],
                Media::JsonLd,
            ),
        ];
        for (accept, media) in cases {
            assert_eq!(pick(accept), *media, "{accept:?}");
        }
        // Errors prefer JSON on a tie.
        let n = Negotiated::parse(["*/*"]);
        assert_eq!(n.choose(&[Media::Json, Media::Html]), Media::Json);
    }

    #[test]
    fn q_values_read() {
        assert_eq!(qvalue("0"), 0);
        assert_eq!(qvalue("0.5"), 500);
        assert_eq!(qvalue("0.001"), 1);
        assert_eq!(qvalue("1.000"), 1000);
        assert_eq!(qvalue("junk"), 1000);
        assert_eq!(Negotiated::parse(["text/html;q=0"]).q(Media::Html), 0);
    }

    #[test]
    fn keys_part_exactly_what_can_be_answered_differently() {
        let k = |a: &str| Negotiated::parse([a]).key();
        assert_eq!(k("*/*"), Negotiated::default().key());
        assert_eq!(k("*/*"), k("*/*;q=0.3"));
        assert_ne!(k("text/html"), k("application/ld+json"));
        assert_ne!(
            k("text/html, application/ld+json;q=0"),
            k("application/ld+json")
        );
        assert_eq!(
            k("text/html;q=0.9, application/json;q=0.1"),
            k("text/html, application/json;q=0.5")
        );
        // However long the header, the key is one character per media type.
        let long = vec!["text/html;q=0.5"; 10_000].join(",");
        assert_eq!(
            Negotiated::parse([long.as_str()]).key().len(),
            Media::ALL.len()
        );
    }
}
