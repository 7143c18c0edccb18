//! The documents the resolver's routes serve, as bytes, so that the static export writes the
//! same: a record's JSON-LD, a bundle's merged state, badges and their shields.io endpoint
//! document.

use pith::badge::{self, Look, RecordStatus};
use pith::job::cite;
use pith::number::ALIAS_LENS;
use pith::record::Details;
use pith::{PithNumber, Record};

use crate::http::negotiate::Media;
use crate::index::{Anchor, BundleEntry, Entry, Stored};

/// The versions of a paper the index holds, as (version, number), oldest first.
pub type Versions = [(u32, PithNumber)];

/// The newest of `versions`, when it is newer than `version`.
pub fn newer(version: u32, versions: &Versions) -> Option<&(u32, PithNumber)> {
    versions
        .iter()
        .max_by_key(|(v, _)| *v)
        .filter(|(v, _)| *v > version)
}

/// The citation format a media type names.
pub fn citation_format(m: Media) -> Option<cite::Format> {
    cite::Format::ALL
        .into_iter()
        .find(|f| f.media_type() == m.essence())
}

/// The display fields of `e` as the citation job takes them; `None` for a stored record that
/// does not parse.
pub fn details(e: &Entry) -> Option<Details> {
    let r = Record::from_json(&e.record).ok()?;
    let mut d = Details::of(&r, &e.title, &e.authors);
    d.version_date = (!e.version_date.is_empty()).then(|| e.version_date.clone());
    Some(d)
}

/// The citation of `e` in `format` ([`cite::render`]); `None` for a stored record that does
/// not parse.
pub fn citation(e: &Entry, format: cite::Format) -> Option<Vec<u8>> {
    details(e).map(|d| cite::render(&e.number, &d, format).into_bytes())
}

/// The record's JSON-LD: schema.org's `ScholarlyArticle` with the record under
/// `canonical_record`, `pith_number`, `short_pith_number`, `canonical_sha256`, the
/// record's aliases, its status, what pith checked (`status_flags`) and what the bundle
/// states that pith did not (`bundle_states`), the block its OpenTimestamps proof is anchored in
/// when pith checked one (`anchor`), the Internet Archive capture the index checked (`stored`:
/// `null` where none checked), the display fields (`title`, `authors`), and every
/// indexed version of the paper (`versions`, each with its number and whether it is the
/// latest; `newer_version`, the latest, when this is not it). `base` prefixes the URLs (`""`
/// leaves them relative to the document).
pub fn record(
    base: &str,
    e: &Entry,
    bundle: Option<&BundleEntry>,
    anchor: Option<&Anchor>,
    stored: Option<&Stored>,
    versions: &Versions,
) -> Vec<u8> {
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
        "status": status(bundle, anchor, stored).name(),
        "status_flags": {
            "receipt_verified": flags.receipt_verified,
            "anchored": anchor.is_some(),
            "stored": stored.is_some(),
        },
        "anchor": anchor,
        "stored": stored,
        "bundle_states": flags.claims(),
        "superseded": e.superseded,
    });
    let latest = versions.iter().map(|(v, _)| *v).max().unwrap_or(e.version);
    let version = |(v, n): &(u32, PithNumber)| {
        serde_json::json!({
            "version": v,
            "pith_number": n.full(),
            "url": format!("{base}/pith/{}", n.code()),
            "latest": *v == latest,
        })
    };
    doc["version"] = e.version.into();
    doc["versions"] = versions.iter().map(version).collect();
    doc["newer_version"] = newer(e.version, versions).map_or(serde_json::Value::Null, version);
    if !e.title.is_empty() {
        doc["name"] = e.title.clone().into();
        doc["title"] = e.title.clone().into();
    }
    if !e.authors.is_empty() {
        doc["author"] = e.authors.clone().into();
        doc["authors"] = e.authors.clone().into();
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

/// `doc` (a record's JSON-LD, as [`record`] makes it) with what the paper cites and who cites
/// it ([`crate::index::cites`]): schema.org's `citation` (each reference, an indexed paper by
/// its page, any other by its arXiv or doi.org URL, with where the paper's list gives it; the
/// first [`crate::index::cites::SHOWN`]), `references` (`count`, `resolved`: how many are
/// papers of this index, `shown`, and `all`: the paged JSON of every reference) and `cited_by`
/// (`count`, the first indexed papers whose lists cite it, and `all`). Unchanged when `doc`
/// does not parse.
pub fn with_cites(doc: Vec<u8>, cites: &crate::index::cites::Cites, base: &str) -> Vec<u8> {
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&doc) else {
        return doc;
    };
    crate::index::cites::describe(&mut v, cites, base);
    let mut out = serde_json::to_vec_pretty(&v).unwrap_or(doc);
    out.push(b'\n');
    out
}

/// The state of a record with a bundle, recomputed from the bundle's events with `keys`
/// ([`crate::protocol::state`]), with the record's status beside it ([`status`]) and the block it
/// is anchored in when pith checked its proof (`anchor`).
pub fn state(
    e: &Entry,
    b: &BundleEntry,
    keys: &[pith::verify::Key],
    anchor: Option<&Anchor>,
    stored: Option<&Stored>,
) -> Vec<u8> {
    crate::protocol::state(
        &e.number.short(),
        &e.canonical_sha256,
        status(Some(b), anchor, stored).name(),
        b,
        keys,
        anchor,
    )
}

/// The badge's status for a record: [`badge::status`] of its bundle's flags, of whether its
/// OpenTimestamps proof verified and of whether an Internet Archive capture of its version
/// checked when the index was built (the evidence the record page shows).
pub fn status(
    bundle: Option<&BundleEntry>,
    anchor: Option<&Anchor>,
    stored: Option<&Stored>,
) -> RecordStatus {
    badge::status(bundle.map(|b| &b.flags), anchor.is_some(), stored.is_some())
}

/// The files a badge is served and exported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadgeFile {
    /// `pith badge`'s SVG.
    Svg,
    /// `pith badge --format pdf`'s PDF.
    Pdf,
    /// The shields.io endpoint document.
    Shields,
}

/// The badge of a record of `status` as `file`: `pith badge`'s bytes for `opts` (the SVG with
/// the final newline the command writes), or the shields.io endpoint document (`schemaVersion`
/// 1: label `pith`, the badge's value and status as message, the status segment's colour),
/// which reads only whether `opts` asks for the full number.
///
/// # Errors
/// As [`badge::svg`] and [`badge::pdf`] (options out of range).
pub fn badge(
    n: &PithNumber,
    opts: &Look,
    status: RecordStatus,
    file: BadgeFile,
) -> Result<Vec<u8>, badge::Error> {
    let opts = opts.clone().status(Some(status));
    match file {
        BadgeFile::Svg => badge::svg(n, &opts).map(|svg| (svg + "\n").into_bytes()),
        BadgeFile::Pdf => badge::pdf(n, &opts),
        BadgeFile::Shields => Ok(shields(n, opts.get_full(), status)),
    }
}

fn shields(n: &PithNumber, full: bool, st: RecordStatus) -> Vec<u8> {
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

/// How many record pages one sitemap file lists: a file stays far under the protocol's 50,000
/// URLs and 50 MB, and under the size an answer is kept in memory at.
pub const SITEMAP_PAGE: u64 = 2_000;

/// The sitemap index (sitemaps.org 0.9) of an index of `records` current records: the home page's
/// file and one file of [`SITEMAP_PAGE`] record pages after another, at
/// `{origin}/sitemap/<n>.xml` (`n` from 1).
pub fn sitemap_index(origin: &str, records: u64) -> Vec<u8> {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for n in 0..=records.div_ceil(SITEMAP_PAGE) {
        let loc = pith::escape::xml(&format!("{origin}/sitemap/{n}.xml"));
        out.push_str(&format!("<sitemap><loc>{loc}</loc></sitemap>\n"));
    }
    out.push_str("</sitemapindex>\n");
    out.into_bytes()
}

/// One sitemap file: file 0 lists the home page, file `n` from 1 the record pages of `rows`
/// (code and date, as [`crate::index::Index::current_page`] gives them), each with its
/// `lastmod` day.
pub fn sitemap(origin: &str, rows: &[(String, String)], home: bool) -> Vec<u8> {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    if home {
        let loc = pith::escape::xml(&format!("{origin}/"));
        out.push_str(&format!("<url><loc>{loc}</loc></url>\n"));
    }
    for (code, date) in rows {
        let loc = pith::escape::xml(&format!("{origin}/pith/{code}"));
        let day = date
            .get(..10)
            .filter(|d| d.as_bytes().get(4) == Some(&b'-'));
        match day {
            Some(d) => out.push_str(&format!(
                "<url><loc>{loc}</loc><lastmod>{}</lastmod></url>\n",
                pith::escape::xml(d)
            )),
            None => out.push_str(&format!("<url><loc>{loc}</loc></url>\n")),
        }
    }
    out.push_str("</urlset>\n");
    out.into_bytes()
}
