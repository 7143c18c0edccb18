//! The record page: what a person sees at `/pith/<26>` in a browser. The number large, its short
//! form, the paper (title, authors, arXiv id, version, date, categories, linked to arXiv), the
//! status flags, the canonical record and the recipe to check it by hand against this server,
//! the LaTeX lines, the badge in every style with the snippets of `pith snippet`, and every other
//! version of the paper. JSON-LD and Open Graph tags go in the head.

use axum::http::HeaderMap;
use axum::response::Response;
use pith::badge::{self, Format, Look, RecordStatus, SnippetOptions, Style};
use pith::job::cite;
use pith::{PithNumber, Record};
use serde::Serialize;

use super::{render, Site};
use crate::documents;
use crate::error::Error;
use crate::http::reply::types;
use crate::index::{self, BundleEntry, Entry, ErrorKind, Index};
use crate::state::AppState;

/// What the index knows of one paper version, as the page needs it.
#[derive(Debug, Clone)]
pub struct Facts {
    /// The indexed version (title, authors, dates, categories).
    pub entry: Entry,
    /// Its canonical record.
    pub record: Record,
    /// Every version of this paper in the index, by version number, with its number.
    pub versions: Vec<(u32, PithNumber)>,
    /// Its bundle, when one is indexed.
    pub bundle: Option<BundleEntry>,
    /// The block its OpenTimestamps proof is anchored in, when the index checked one.
    pub anchor: Option<crate::index::Anchor>,
    /// What the paper cites and the indexed papers that cite it.
    pub cites: crate::index::cites::Cites,
    /// The JSON-LD document the record's URL answers to `Accept: application/ld+json`, with the
    /// abstract as its `description` when the index holds one.
    pub json_ld: serde_json::Value,
    /// The paper version's abstract, when the index holds one.
    pub abstract_text: Option<String>,
    /// The Internet Archive capture of the version's PDF, when the index checked one.
    pub stored: Option<crate::index::Stored>,
}

impl Facts {
    /// Looks up what the page of `entry` shows: its record, the paper's other versions, its
    /// bundle; `base` prefixes the URLs of the JSON-LD document.
    ///
    /// # Errors
    /// The index's errors; [`ErrorKind::Input`] for a stored record that does not parse.
    pub fn of(index: &Index, entry: &Entry, base: &str) -> Result<Facts, index::Error> {
        let record = Record::from_json(&entry.record)
            .map_err(|e| index::Error::from(ErrorKind::Input(e.to_string())))?;
        let bundle = index.bundle(entry.number.code())?;
        let anchor = index.anchor(entry.number.code())?;
        let versions = index.versions(&entry.arxiv_id)?;
        let stored = index.stored(entry.number.code())?;
        let cites = index.cites(entry)?;
        let (b, a, s) = (bundle.as_ref(), anchor.as_ref(), stored.as_ref());
        let doc = documents::record(base, entry, b, a, s, &versions);
        let doc = documents::with_cites(doc, &cites, base);
        let mut json_ld = serde_json::from_slice(&doc).unwrap_or(serde_json::Value::Null);
        let abstract_text = index.abstract_of(entry.number.code())?;
        if let (Some(a), Some(o)) = (&abstract_text, json_ld.as_object_mut()) {
            o.insert("description".into(), a.clone().into());
        }
        Ok(Facts {
            entry: entry.clone(),
            record,
            versions,
            bundle,
            anchor,
            cites,
            json_ld,
            abstract_text,
            stored,
        })
    }
}

/// What the status does not hold yet, as the page says it: no mirror checks these today (a
/// bundle may state them; the page lists that apart, as the bundle's statement).
const NOT_YET: [(&str, &str); 4] = [
    ("author_attested", "attested by an author"),
    (
        "externally_anchored",
        "anchored in a public timestamp (OpenTimestamps, Bitcoin)",
    ),
    (
        "storage_verified",
        "stored and checked at the Internet Archive",
    ),
    ("references_resolved", "references resolved"),
];

/// A date as a person reads it, with its ISO value for `<time datetime>`.
#[derive(Debug, Serialize)]
struct Date {
    iso: String,
    text: String,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl Date {
    /// `2024-12-18T22:15:11Z` as "18 December 2024, 22:15 UTC" (the day alone for a date
    /// without time); a value that does not read as a date is shown as it is.
    fn of(iso: &str) -> Date {
        let num = |r: std::ops::Range<usize>| iso.get(r).and_then(|t| t.parse::<u32>().ok());
        let text = match (num(0..4), num(5..7), num(8..10)) {
            (Some(y), Some(m @ 1..=12), Some(d)) if iso.get(4..5) == Some("-") => {
                let day = format!("{d} {} {y}", MONTHS[m as usize - 1]);
                match iso.get(11..16) {
                    Some(hm) if iso.get(10..11) == Some("T") => format!("{day}, {hm} UTC"),
                    _ => day,
                }
            }
            _ => iso.to_owned(),
        };
        Date {
            iso: iso.to_owned(),
            text,
        }
    }

    /// The day as Highwire's tags write it, `2024/12/18`.
    fn slashed(&self) -> Option<String> {
        let d = self.iso.get(0..10)?;
        (d.len() == 10 && d.as_bytes()[4] == b'-').then(|| d.replace('-', "/"))
    }
}

/// One citation format as the page offers it.
#[derive(Debug, Serialize)]
struct Citation {
    format: &'static str,
    name: &'static str,
    media_type: &'static str,
    extension: &'static str,
    /// The citation to copy; `None` past [`INLINE_CITATION`] (a collaboration of thousands of
    /// authors), whose file is linked instead, so that the page stays small enough to keep.
    text: Option<String>,
}

/// The largest citation the page holds inline, in bytes: a paper's is under 2 KB.
const INLINE_CITATION: usize = 16 << 10;
/// The authors a page names (in the text and in its citation tags); a collaboration's
/// thousands are in the record's JSON and the citations, which the page links.
pub const SHOWN_AUTHORS: usize = 100;
/// The longest description (`<meta name="description">`), in characters: search engines show
/// about this much; `citation_abstract` carries the whole abstract.
const DESCRIPTION: usize = 300;

/// The longest title a page shows, in characters; longer ones end with "…".
const SHOWN_TITLE: usize = 1000;
/// The largest canonical record, and JSON-LD in the page's head, the page holds, in bytes;
/// larger ones are linked (`/pith/<26>.json`).
const INLINE_RECORD: usize = 32 << 10;

/// `text` cut to `max` characters, with "…" when it was longer.
fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn citation_name(f: cite::Format) -> &'static str {
    match f {
        cite::Format::Bibtex => "BibTeX",
        cite::Format::CslJson => "CSL-JSON",
        cite::Format::Ris => "RIS",
    }
}

/// One snippet: its format's short name and display name, and the text `pith snippet` prints.
#[derive(Debug, Serialize)]
pub struct Snippet {
    /// `md`, `html`, `rst`, `adoc` or `tex`.
    pub format: &'static str,
    /// `Markdown`, `HTML`, …
    pub name: &'static str,
    /// The snippet.
    pub text: String,
}

/// One badge variant: where its image is, its size and alt text, its snippets.
#[derive(Debug, Serialize)]
pub struct BadgeView {
    /// A fragment id (`flat`, `flat-square`, `full`, `qr`).
    pub id: &'static str,
    /// Its heading.
    pub label: &'static str,
    /// The image's path on this site.
    pub img: String,
    /// The image's alt text (the badge's accessible name).
    pub alt: String,
    /// Width in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
    /// Its snippets, in every format.
    pub snippets: Vec<Snippet>,
    /// The badge options, for the `pith snippet` line that gives the same text.
    #[serde(skip)]
    pub options: Look,
    /// The image's absolute URL, as the snippets give it.
    #[serde(skip)]
    pub src: String,
}

#[derive(Debug, Serialize)]
struct Version {
    version: u32,
    code: String,
    full: String,
    current: bool,
}

/// Everything the record template shows.
#[derive(Debug, Serialize)]
struct View {
    full: String,
    code: String,
    short: String,
    title: String,
    /// Whether the source gave a title: without one the page names the paper by its arXiv id
    /// and gives no title to the citation metadata.
    known_title: bool,
    /// The abstract, when the index holds one (`citation_abstract`).
    abstract_text: Option<String>,
    /// The Internet Archive capture this mirror checked, when it did.
    stored: Option<crate::index::Stored>,
    /// What reference managers keep in Extra, as Zotero's arXiv translator writes it for the
    /// version's abstract page ([`pith::record::Details::extra`]).
    arxiv_extra: String,
    /// The subjects reference managers make tags of (`citation_keywords`), one per category.
    subjects: Vec<String>,
    authors: String,
    /// How many authors the page does not name (past [`SHOWN_AUTHORS`]).
    more_authors: usize,
    /// The abstract, shortened: the page's description only when there is one, since readers
    /// (and reference managers) take a page's description for the paper's abstract.
    description: Option<String>,
    page_url: String,
    arxiv_id: String,
    version: u32,
    latest: bool,
    arxiv_url: String,
    pdf_url: String,
    doi: String,
    author_list: Vec<String>,
    citation_date: Option<String>,
    citation_publication_date: Option<String>,
    submitted: Date,
    version_date: Option<Date>,
    categories: Vec<String>,
    status: &'static str,
    holds: String,
    not_yet: Vec<&'static str>,
    claims: Vec<String>,
    has_bundle: bool,
    /// Whether the bundle holds a graph snapshot (the Agent API's Graph JSON).
    has_graph: bool,
    versions: Vec<Version>,
    newer: Option<Version>,
    citations: Vec<Citation>,
    latex: String,
    badges: Vec<BadgeView>,
    dark_snippet: String,
    /// The canonical record, pretty; `None` past [`INLINE_RECORD`] (linked instead).
    canonical: Option<String>,
    sha256: String,
    recipe: String,
    /// The JSON-LD for the head; `None` past [`INLINE_RECORD`] (the alternate link names it).
    json_ld: Option<String>,
    /// The paper's references and the papers that cite it.
    cites: crate::index::cites::Cites,
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Markdown => "Markdown",
        Format::Html => "HTML",
        Format::Rst => "reStructuredText",
        Format::AsciiDoc => "AsciiDoc",
        Format::Latex => "LaTeX",
    }
}

/// The badge variants a record page offers: each style, the whole number, and the QR code.
/// The query of each image is the one the badge route reads (`style`, `full`, `qr`). A static
/// export holds only the default badge (a static host ignores the query), so `all` false
/// offers that one alone.
pub fn badge_variants(
    number: &PithNumber,
    status: Option<RecordStatus>,
    origin: &str,
    all: bool,
) -> Result<Vec<BadgeView>, badge::Error> {
    let base = Look::default().status(status);
    let variants: [(&str, &str, Look, &str); 4] = [
        ("flat", "Flat", base.clone(), ""),
        (
            "flat-square",
            "Flat square",
            base.clone().style(Style::FlatSquare),
            "?style=flat-square",
        ),
        (
            "full",
            "With the whole number",
            base.clone().full(true),
            "?full=true",
        ),
        (
            "qr",
            "With a QR code of the record page",
            base.qr(Some(2)),
            "?qr=true",
        ),
    ];
    variants
        .into_iter()
        .take(if all { 4 } else { 1 })
        .map(|(id, label, options, query)| {
            let path = format!("/badge/{}.svg{query}", number.code());
            let src = format!("{origin}{path}");
            let (width, height) = badge::dimensions(number, &options)?;
            let snippets = Format::ALL
                .into_iter()
                .map(|f| {
                    // LaTeX includes a local PDF: its snippet names the file and where to
                    // download it.
                    let opts = if f == Format::Latex {
                        SnippetOptions {
                            badge: options.clone(),
                            src: None,
                            dark_src: None,
                            download: Some(format!("{origin}/badge/{}.pdf{query}", number.code())),
                        }
                    } else {
                        SnippetOptions {
                            badge: options.clone(),
                            src: Some(src.clone()),
                            dark_src: None,
                            download: None,
                        }
                    };
                    Ok(Snippet {
                        format: f.name(),
                        name: format_name(f),
                        text: badge::snippet(number, f, &opts)?,
                    })
                })
                .collect::<Result<Vec<_>, badge::Error>>()?;
            Ok(BadgeView {
                id,
                label,
                img: path,
                alt: badge::accessible_name(number, &options),
                width,
                height,
                snippets,
                options,
                src,
            })
        })
        .collect()
}

/// The lines that add the number to a LaTeX paper.
pub fn latex_lines(number: &PithNumber) -> String {
    format!("\\usepackage{{pith}}\n\\pithnumber{{{}}}\n", number.full())
}

/// The recipe that checks the number by hand against the server at `origin` (a static copy
/// answers the JSON-LD at `<26>.json` only: it cannot read `Accept`).
pub fn recipe(origin: &str, code: &str, sha256: &str, is_static: bool) -> String {
    // Without an address of its own the server names none (never the request's Host): the
    // reader puts the one in their address bar in front.
    let (set, origin) = match origin {
        "" => (
            "MIRROR=https://...   # the address of this server, as in your address bar\n",
            "$MIRROR",
        ),
        o => ("", o),
    };
    let url = if is_static {
        format!("{origin}/pith/{code}.json")
    } else {
        format!("{origin}/pith/{code}")
    };
    format!(
        "{set}curl -sH 'Accept: application/ld+json' {url} \\\n  \
         | jq -c '.canonical_record' \\\n  \
         | python3 -c \"import sys,json,hashlib; b=json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(',',':'), ensure_ascii=False).encode(); print(hashlib.sha256(b).hexdigest())\"\n\
         # expect: {sha256}\n"
    )
}

/// JSON text safe inside `<script type="application/ld+json">`: no `<` can close the element.
fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// Renders the record page of `facts` for `site`.
///
/// # Errors
/// A badge or snippet the library refuses, or a template that fails (bugs, not input).
pub fn render_page(facts: &Facts, site: &Site) -> Result<String, Box<dyn std::error::Error>> {
    let r = &facts.record;
    let number = r.number();
    let code = number.code().to_owned();
    let origin = site.origin.as_str();
    let status = documents::status(
        facts.bundle.as_ref(),
        facts.anchor.as_ref(),
        facts.stored.as_ref(),
    );
    let badges = badge_variants(&number, Some(status), origin, !site.is_static)?;
    let dark = badges
        .iter()
        .find(|b| b.id == "flat")
        .map(|b| {
            badge::snippet(
                &number,
                Format::Html,
                &SnippetOptions {
                    badge: b.options.clone(),
                    src: Some(b.src.clone()),
                    dark_src: Some(format!("{}/badge/{code}-dark.svg", origin)),
                    download: None,
                },
            )
        })
        .transpose()?
        .unwrap_or_default();
    let e = &facts.entry;
    let categories = if e.categories.is_empty() {
        let mut c = vec![r.metadata.primary_cat.clone()];
        c.extend(r.metadata.cross_cats_sorted.iter().cloned());
        c
    } else {
        e.categories.clone()
    };
    // The one status row is what this mirror checked; what the bundle states beside it is
    // listed as the bundle's statement (`Flags::claims`), never as a status.
    let f = facts.bundle.as_ref().map(|b| b.flags).unwrap_or_default();
    // What the mirror checked itself leaves the list of what it does not check yet.
    let not_yet = NOT_YET
        .iter()
        .filter(|(flag, _)| facts.anchor.is_none() || *flag != "externally_anchored")
        .filter(|(flag, _)| facts.stored.is_none() || *flag != "storage_verified")
        .filter(|(flag, _)| facts.cites.references.is_empty() || *flag != "references_resolved")
        .map(|(_, label)| *label)
        .collect();
    let claims: Vec<String> = f.claims().into_iter().map(|c| c.sentence).collect();
    let mut holds = "The number is computed from arXiv's metadata of this version; anyone can compute it again (below).".to_owned();
    if f.receipt_verified {
        holds
            .push_str(" A receipt signature in its bundle verifies with a key this mirror trusts.");
    }
    if let Some(a) = &facts.anchor {
        holds.push_str(&format!(
            " Its OpenTimestamps proof is {}: this mirror checked the block header's proof of work and that the proof leads from the record's SHA-256 to the header's merkle root.",
            a.sentence()
        ));
    }
    if let Some(sentence) = crate::index::cites::sentence(&facts.cites) {
        holds.push(' ');
        holds.push_str(&sentence);
    }
    let version_of = |(v, n): &(u32, PithNumber)| Version {
        version: *v,
        code: n.code().to_owned(),
        full: n.full(),
        current: n.code() == code,
    };
    let details = documents::details(e);
    let citations = cite::Format::ALL
        .into_iter()
        .filter_map(|f| {
            Some(Citation {
                format: f.name(),
                name: citation_name(f),
                media_type: f.media_type(),
                extension: f.extension(),
                text: Some(cite::render(&number, details.as_ref()?, f))
                    .filter(|t| t.len() <= INLINE_CITATION),
            })
        })
        .collect();
    let submitted = Date::of(&r.metadata.submitted_at);
    let version_date = (!e.version_date.is_empty() && e.version_date != r.metadata.submitted_at)
        .then(|| Date::of(&e.version_date));
    let latest = facts
        .versions
        .iter()
        .map(|(v, _)| *v)
        .max()
        .is_none_or(|m| m <= r.source.version);
    let sha256 = r.canonical_sha256();
    let mut author_list = pith::record::split_authors(&e.authors);
    let more_authors = author_list.len().saturating_sub(SHOWN_AUTHORS);
    author_list.truncate(SHOWN_AUTHORS);
    let authors = if more_authors > 0 {
        author_list.join(", ")
    } else {
        e.authors.clone()
    };
    let title = shortened(&e.title, SHOWN_TITLE);
    let paper = pith::record::Details::with_authors(r, &e.title, Vec::new());
    let canonical = serde_json::to_string_pretty(r)?;
    let json_ld = script_json(&facts.json_ld);
    let view = View {
        full: number.full(),
        short: number.short(),
        title: if title.is_empty() {
            format!("arXiv:{}v{}", r.source.id, r.source.version)
        } else {
            title.clone()
        },
        known_title: !title.is_empty(),
        abstract_text: facts.abstract_text.clone(),
        stored: facts.stored.clone(),
        arxiv_extra: paper.extra(),
        subjects: paper.subjects(),
        authors,
        more_authors,
        description: facts
            .abstract_text
            .as_ref()
            .map(|a| shortened(a, DESCRIPTION)),
        page_url: format!("{origin}/pith/{code}"),
        arxiv_id: r.source.id.clone(),
        version: r.source.version,
        latest,
        arxiv_url: format!("https://arxiv.org/abs/{}v{}", r.source.id, r.source.version),
        pdf_url: format!("https://arxiv.org/pdf/{}v{}", r.source.id, r.source.version),
        doi: pith::record::arxiv_doi(&r.source.id),
        author_list,
        citation_date: version_date.as_ref().unwrap_or(&submitted).slashed(),
        citation_publication_date: submitted.slashed(),
        submitted,
        version_date,
        categories,
        status: status.name(),
        holds,
        not_yet,
        claims,
        has_bundle: facts.bundle.is_some(),
        has_graph: facts
            .bundle
            .as_ref()
            .is_some_and(|b| crate::protocol::graph(b, &[]).is_some()),
        versions: facts.versions.iter().map(version_of).collect(),
        newer: documents::newer(r.source.version, &facts.versions).map(version_of),
        citations,
        latex: latex_lines(&number),
        badges,
        dark_snippet: dark,
        canonical: (canonical.len() <= INLINE_RECORD).then_some(canonical),
        recipe: recipe(origin, &code, &sha256, site.is_static),
        sha256,
        json_ld: (json_ld.len() <= INLINE_RECORD).then_some(json_ld),
        cites: facts.cites.clone(),
        code,
    };
    let mut ctx = tera::Context::new();
    ctx.insert("site", site);
    ctx.insert("p", &view);
    Ok(render("record.html", &ctx)?)
}

/// The record page of `entry`, for a client that prefers HTML: made once per index on the
/// pool that makes pages ([`crate::rendered`]), then kept.
///
/// # Errors
/// The index's errors, and a page that fails to render (a bug).
pub async fn page(state: &AppState, headers: &HeaderMap, entry: &Entry) -> Result<Response, Error> {
    let site = Site::of(state);
    let index = state.index();
    let base = state.base_url().to_owned();
    let e = entry.clone();
    let key = format!("{}/{}", types::HTML, entry.number.code());
    let made = state
        .rendered()
        .get(state.generation(), &key, types::HTML, move || {
            let facts = Facts::of(&index, &e, &base)?;
            render_page(&facts, &site)
                .map(String::into_bytes)
                .map_err(|e| Error::internal(&e))
        })
        .await?;
    // The page can change with the index; the ETag makes asking again cheap.
    Ok(made.answer(headers, "no-cache"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_people_write_them() {
        let d = Date::of("2024-12-18T22:15:11Z");
        assert_eq!(d.text, "18 December 2024, 22:15 UTC");
        assert_eq!(d.iso, "2024-12-18T22:15:11Z");
        assert_eq!(d.slashed().as_deref(), Some("2024/12/18"));
        assert_eq!(Date::of("2024-02-06").text, "6 February 2024");
        assert_eq!(Date::of("2024-13-06").text, "2024-13-06");
        assert_eq!(Date::of("soon").text, "soon");
        assert_eq!(Date::of("soon").slashed(), None);
    }
}
