//! The record page: what a person sees at `/pith/<26>` in a browser. The number large, its short
//! form, the paper (title, authors, arXiv id, version, date, categories, linked to arXiv), the
//! status flags, the canonical record and the recipe to check it by hand against this server,
//! the LaTeX lines, the badge in every style with the snippets of `pith snippet`, and every other
//! version of the paper. JSON-LD and Open Graph tags go in the head.

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use pith::badge::{self, Format, Options, RecordStatus, SnippetOptions, Style};
use pith::{PithNumber, Record};
use serde::Serialize;

use super::{html, internal_error, render, Site};
use crate::app::AppState;

/// What the index knows of one paper version, as the page needs it.
#[derive(Debug, Clone)]
pub struct Facts {
    /// The canonical record.
    pub record: Record,
    /// The title as arXiv gives it.
    pub title: String,
    /// The authors as arXiv gives them.
    pub authors: String,
    /// Every version of this paper in the index, by version number, with its number.
    pub versions: Vec<(u32, PithNumber)>,
    /// The four status flags, in the order of [`FLAGS`].
    pub flags: [bool; 4],
    /// Whether a bundle is indexed (its JSON and merged state are then served).
    pub has_bundle: bool,
    /// The status the badge routes show for this record.
    pub status: Option<RecordStatus>,
    /// The JSON-LD document the record's URL answers to `Accept: application/ld+json`.
    pub json_ld: serde_json::Value,
}

/// The status flags' names and how the page says them.
pub const FLAGS: [(&str, &str); 4] = [
    ("author_attested", "attested by an author"),
    ("externally_anchored", "anchored in a public timestamp (OpenTimestamps, Bitcoin)"),
    ("storage_verified", "stored and checked at the Internet Archive"),
    ("references_resolved", "references resolved"),
];

/// One flag as the page shows it.
#[derive(Debug, Serialize)]
struct Flag {
    name: &'static str,
    label: &'static str,
    on: bool,
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
    pub options: Options,
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
    authors: String,
    description: String,
    page_url: String,
    arxiv_id: String,
    version: u32,
    latest: bool,
    arxiv_url: String,
    submitted: String,
    version_date: Option<String>,
    categories: Vec<String>,
    flags: Vec<Flag>,
    flags_summary: String,
    has_bundle: bool,
    versions: Vec<Version>,
    latex: String,
    badges: Vec<BadgeView>,
    dark_snippet: String,
    canonical: String,
    sha256: String,
    recipe: String,
    json_ld: String,
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
    let base = Options::default().status(status);
    let variants: [(&str, &str, Options, &str); 4] = [
        ("flat", "Flat", base.clone(), ""),
        (
            "flat-square",
            "Flat square",
            base.clone().style(Style::FlatSquare),
            "?style=flat-square",
        ),
        ("full", "With the whole number", base.clone().full(true), "?full=true"),
        ("qr", "With a QR code of the record page", base.qr(Some(2)), "?qr=true"),
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
                    let opts = SnippetOptions {
                        badge: options.clone(),
                        src: Some(src.clone()),
                        dark_src: None,
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
    let url = if is_static {
        format!("{origin}/pith/{code}.json")
    } else {
        format!("{origin}/pith/{code}")
    };
    format!(
        "curl -sH 'Accept: application/ld+json' {url} \\\n  \
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
    let badges = badge_variants(&number, facts.status, origin, !site.is_static)?;
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
                    dark_src: Some(format!("{}/badge/{code}.svg", origin)),
                },
            )
        })
        .transpose()?
        .unwrap_or_default();
    let mut categories = vec![r.metadata.primary_cat.clone()];
    categories.extend(
        r.metadata
            .cross_cats_sorted
            .iter()
            .filter(|c| **c != r.metadata.primary_cat)
            .cloned(),
    );
    let flags: Vec<Flag> = FLAGS
        .iter()
        .zip(facts.flags)
        .map(|(&(name, label), on)| Flag { name, label, on })
        .collect();
    let on: Vec<&str> = flags.iter().filter(|f| f.on).map(|f| f.label).collect();
    let flags_summary = if on.is_empty() {
        "computed from arXiv's metadata".to_owned()
    } else {
        on.join(", ")
    };
    let latest = facts
        .versions
        .iter()
        .map(|(v, _)| *v)
        .max()
        .is_none_or(|m| m <= r.source.version);
    let sha256 = r.canonical_sha256();
    let view = View {
        full: number.full(),
        short: number.short(),
        title: facts.title.clone(),
        authors: facts.authors.clone(),
        description: format!(
            "{} for arXiv:{}v{}: {}",
            number.full(),
            r.source.id,
            r.source.version,
            facts.title
        ),
        page_url: format!("{origin}/pith/{code}"),
        arxiv_id: r.source.id.clone(),
        version: r.source.version,
        latest,
        arxiv_url: format!("https://arxiv.org/abs/{}v{}", r.source.id, r.source.version),
        submitted: r.metadata.submitted_at.clone(),
        version_date: None,
        categories,
        flags,
        flags_summary,
        has_bundle: facts.has_bundle,
        versions: facts
            .versions
            .iter()
            .map(|(v, n)| Version {
                version: *v,
                code: n.code().to_owned(),
                full: n.full(),
                current: n.code() == code,
            })
            .collect(),
        latex: latex_lines(&number),
        badges,
        dark_snippet: dark,
        canonical: serde_json::to_string_pretty(r)?,
        recipe: recipe(origin, &code, &sha256, site.is_static),
        sha256,
        json_ld: script_json(&facts.json_ld),
        code,
    };
    let mut ctx = tera::Context::new();
    ctx.insert("site", site);
    ctx.insert("p", &view);
    Ok(render("record.html", &ctx)?)
}

/// The record page of `code` for a client that accepts HTML (a page saying the index has no
/// such record, 404, for an unknown code), or `None` to answer JSON-LD.
pub fn page(state: &AppState, headers: &HeaderMap, code: &str) -> Option<Response> {
    if !super::wants_html(headers) {
        return None;
    }
    let site = Site::of_request(state, headers);
    let facts = match state.catalog().facts(code) {
        Ok(Some(f)) => f,
        Ok(None) => {
            return Some(
                super::Message {
                    heading: "Not in this index".into(),
                    paragraphs: vec![format!(
                        "This server's index has no record with the Pith Number {code}. It holds only the papers it was built from; pith.science and other mirrors may know it."
                    )],
                    search: Some(String::new()),
                    back_to_verify: false,
                }
                .page(StatusCode::NOT_FOUND, &site, headers),
            )
        }
        Err(e) => return Some(internal_error(&e)),
    };
    Some(match render_page(&facts, &site) {
        Ok(body) => html(StatusCode::OK, body, headers),
        Err(e) => internal_error(&e),
    })
}
