//! The routes as static files, for any static host, object store or CDN (`pith serve INDEX
//! --export DIR`).
//!
//! Each file holds the bytes the server answers on the same path ([`crate::documents`]):
//! - `pith/<26>.json`: the record's JSON-LD (what `pith verify` and the resolver client read);
//! - `pith/<26>/bundle.json`, `pith/<26>/state.json`: where a bundle is indexed, with the
//!   protocol's files of it ([`crate::protocol`]): `.well-known/pith/<26>/bundle.json`,
//!   `api/pith-number/<26>/events.json` and, where the bundle holds a graph snapshot,
//!   `api/pith-number/<26>/graph.json`;
//! - `pith-signing-key.json` and `pith-mirrors.json` (the manifest, under the base URL);
//! - `badge/<26>.svg` and `badge/<26>.pdf` (default options and the record's status), their
//!   dark variants `badge/<26>-dark.svg` and `-dark.pdf`, and `badge/<26>.json` (the
//!   shields.io endpoint document);
//! - the pages ([`crate::pages::export`]): `index.html`, `verify/index.html` (saying that
//!   checking a PDF needs the server), `assets/…`, and the record page at
//!   `pith/<26>/index.html`, which a browser gets at `/pith/<26>`;
//! - redirect stubs, since a static host cannot answer 303:
//!   `pith/<8|12|16>/index.html` (unique prefixes) and `arxiv/<id>/index.html`,
//!   `arxiv/<id>v<N>/index.html`, each an HTML page that moves the browser on (`<meta
//!   http-equiv="refresh">` and a link) to the record;
//! - `pith/<26>.bib`, `.csl.json`, `.ris`: the record's citations; `badge/arxiv/<id>.svg`
//!   and `.json`: the concept badge, of the paper's latest version;
//! - `sitemap.xml` and `sitemap/<n>.xml` (absolute URLs under the base URL);
//! - `healthz`.
//!
//! What a static host cannot do: content negotiation (`/pith/<26>` with `Accept:
//! application/ld+json` gets the record page there; ask `/pith/<26>.json`), badge query options
//! (only the default badge is written), and status codes for redirects.

use std::io::Write;
use std::path::{Path, PathBuf};

use pith::badge::Look;

use crate::documents::{self, BadgeFile};
use crate::index::{Entry, Error, ErrorKind, Index};
use crate::pages::{self, record::Facts};
use crate::protocol;

/// What an export wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Exported {
    /// Records written.
    pub records: u64,
    /// Bundles written.
    pub bundles: u64,
    /// Files written in all.
    pub files: u64,
    /// Records not written: a row that cannot be read, an arXiv id or code the library does
    /// not read as one, or a record whose files cannot be made.
    pub skipped: u64,
}

impl std::fmt::Display for Exported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} records, {} bundles, {} files",
            self.records, self.bundles, self.files
        )?;
        if self.skipped > 0 {
            write!(f, ", {} records skipped", self.skipped)?;
        }
        Ok(())
    }
}

struct Out {
    dir: PathBuf,
    files: u64,
}

impl Out {
    /// Creates `rel` to be written piece by piece (checked as [`Out::write`] checks it).
    fn create(&mut self, rel: &str) -> Result<(PathBuf, std::io::BufWriter<std::fs::File>), Error> {
        let (path, f) = self.open(rel)?;
        self.files += 1;
        Ok((path, std::io::BufWriter::new(f)))
    }

    /// Writes `rel` (a path the export composes from codes and arXiv ids, never from a URL).
    fn write(&mut self, rel: &str, bytes: &[u8]) -> Result<(), Error> {
        let (path, mut f) = self.open(rel)?;
        f.write_all(bytes).map_err(|e| io(e, &path))?;
        self.files += 1;
        Ok(())
    }

    /// Creates the file `rel` names and its folders, once `rel` is found [`inside`] the export.
    fn open(&self, rel: &str) -> Result<(PathBuf, std::fs::File), Error> {
        if !inside(rel) {
            return Err(
                ErrorKind::Input(format!("{rel:?} is not a path inside the export")).into(),
            );
        }
        let path = self.dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(e, parent))?;
        }
        let f = std::fs::File::create(&path).map_err(|e| io(e, &path))?;
        Ok((path, f))
    }
}

/// Whether `rel` names a path inside the export. Ids come from the index, which came from
/// files: one that would leave DIR (`../`, `/…`, `\`) or hold a control character cannot be
/// a file name there (the ids are checked before; this is the last word on every path).
fn inside(rel: &str) -> bool {
    !rel.split('/')
        .any(|c| c.is_empty() || c == "." || c == ".." || c.contains('\\'))
        && !rel.chars().any(char::is_control)
}

fn io(e: std::io::Error, path: &Path) -> Error {
    Error::from(ErrorKind::Input(format!("{}: {e}", path.display())))
}

/// The HTML page that sends a browser on to `to` (a path under `base`).
pub fn stub(base: &str, to: &str) -> Vec<u8> {
    let url = pith::escape::html_attr(&format!("{base}{to}"));
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Redirecting to {url}</title>\
         <meta http-equiv=\"refresh\" content=\"0; url={url}\"><link rel=\"canonical\" href=\"{url}\">\
         <meta name=\"robots\" content=\"noindex\"></head>\n<body><p>This moved to <a href=\"{url}\">{url}</a>.</p></body></html>\n"
    )
    .into_bytes()
}

/// The protocol's files of a record with a bundle: the well-known copy of the bundle
/// (`bundle`, its bytes), its events and, where it holds one, its graph snapshot.
fn protocol_files(
    code: &str,
    bundle: &[u8],
    b: &crate::index::BundleEntry,
    keys: &[pith::verify::Key],
) -> Vec<(String, Vec<u8>)> {
    let rel = |p: &str| protocol::path(p, code)[1..].to_owned();
    let mut files = vec![(rel(protocol::WELL_KNOWN), bundle.to_vec())];
    if let Some(events) = protocol::events(b, keys) {
        files.push((rel(protocol::EVENTS), events));
    }
    if let Some(graph) = protocol::graph(b, keys) {
        files.push((rel(protocol::GRAPH), graph));
    }
    files
}

/// The files of one record, with their paths in the export: its JSON, citations, page,
/// bundle and state, badges and its version's redirect stub.
fn record_files(
    index: &Index,
    e: &Entry,
    b: Option<&crate::index::BundleEntry>,
    base: &str,
    site: &pages::Site,
    badge: &Look,
    keys: &[pith::verify::Key],
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let code = e.number.code();
    let mut files = Vec::new();
    // What a browser gets at /pith/<26>: the record page (a static host cannot tell a
    // browser from a script; scripts ask for the .json).
    let facts = Facts::of(index, e, base).map_err(|x| x.to_string())?;
    let (a, s) = (facts.anchor.as_ref(), facts.stored.as_ref());
    files.push((
        format!("pith/{code}.json"),
        documents::with_cites(
            documents::record(base, e, b, a, s, &facts.versions),
            &facts.cites,
            base,
        ),
    ));
    for format in pith::job::cite::Format::ALL {
        if let Some(bytes) = documents::citation(e, format) {
            files.push((format!("pith/{code}{}", format.extension()), bytes));
        }
    }
    files.push(pages::export::record(&facts, site).map_err(|x| x.to_string())?);
    if let Some(b) = b {
        let mut bytes = b.bundle.clone().into_bytes();
        bytes.push(b'\n');
        files.push((
            format!("pith/{code}/state.json"),
            documents::state(e, b, keys, a, s),
        ));
        files.extend(protocol_files(code, &bytes, b, keys));
        files.push((format!("pith/{code}/bundle.json"), bytes));
    }
    let (status, dark) = (documents::status(b, a, s), badge.clone().dark(true));
    for (name, look, file) in [
        (".svg", badge, BadgeFile::Svg),
        (".pdf", badge, BadgeFile::Pdf),
        ("-dark.svg", &dark, BadgeFile::Svg),
        ("-dark.pdf", &dark, BadgeFile::Pdf),
        (".json", badge, BadgeFile::Shields),
    ] {
        let bytes = documents::badge(&e.number, look, status, file).map_err(|x| x.to_string())?;
        files.push((format!("badge/{code}{name}"), bytes));
    }
    if !e.superseded {
        files.push((
            format!("arxiv/{}v{}/index.html", e.arxiv_id, e.version),
            stub(base, &format!("/pith/{code}")),
        ));
    }
    Ok(files)
}

/// The number of leading characters `a` and `b` share.
fn shared(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// Writes the export of `index` into `dir` (created when missing; files already there are
/// replaced, others left). `base` prefixes the URLs written into documents and stubs (`""`:
/// relative to the host's root). A record whose arXiv id cannot name a path inside `dir` is
/// not written: `report` gets a line naming it, [`Exported::skipped`] counts it, and the rest
/// is written.
///
/// # Errors
/// [`ErrorKind::Input`] naming a file that cannot be written; [`ErrorKind::Sqlite`].
pub fn export(
    index: &Index,
    dir: &Path,
    base: &str,
    report: &mut dyn FnMut(&str),
) -> Result<Exported, Error> {
    let mut out = Out {
        dir: dir.to_owned(),
        files: 0,
    };
    let mut done = Exported::default();
    let badge = Look::default();
    // The pages: home, the verify page (which says it needs the server), the assets.
    let site = pages::export::site(base, index.len().ok());
    for (path, bytes) in
        pages::export::fixed(&site).map_err(|x| Error::from(ErrorKind::Input(x.to_string())))?
    {
        out.write(&path, &bytes)?;
    }
    let keys = index.trusted_keys()?;
    out.write(
        "pith-signing-key.json",
        &protocol::signing_keys(&keys, base),
    )?;
    // A manifest's patterns are absolute URLs: an export without its public address has none.
    if !base.is_empty() {
        out.write("pith-mirrors.json", &protocol::mirrors(&keys, base))?;
    }
    // What the indexed papers cite, as OpenCitations publishes citations (one JSON a line),
    // written as the edges are read: the file is made at the first edge, and holds no more
    // than a buffer's worth in memory whatever the number of edges.
    let mut lines: Option<(PathBuf, std::io::BufWriter<std::fs::File>)> = None;
    index.open_citations(&mut |c| {
        if lines.is_none() {
            lines = Some(out.create("citations.jsonl")?);
        }
        let (path, w) = lines.as_mut().expect("made above");
        serde_json::to_writer(&mut *w, c)
            .map_err(std::io::Error::from)
            .and_then(|()| w.write_all(b"\n"))
            .map_err(|e| io(e, path))
    })?;
    if let Some((path, mut w)) = lines {
        w.flush().map_err(|e| io(e, &path))?;
    }
    // Codes come in order: a prefix is unique when neither neighbour shares it.
    let mut prev: Option<Entry> = None;
    let mut prev_shared = 0usize;
    let aliases = |out: &mut Out, e: &Entry, before: usize, after: usize| {
        let code = e.number.code();
        for len in pith::number::ALIAS_LENS {
            if before < len && after < len {
                out.write(
                    &format!("pith/{}/index.html", &code[..len]),
                    &stub(base, &format!("/pith/{code}")),
                )?;
            }
        }
        Ok::<(), Error>(())
    };
    index.each_row(|row| {
        let (e, b) = match row {
            Ok(r) => r,
            Err(bad) => {
                report(&format!(
                    "{:?}: not exported: the row cannot be read: {}",
                    bad.code, bad.error
                ));
                done.skipped += 1;
                return Ok(());
            }
        };
        let code = e.number.code();
        // The library's grammar of arXiv ids decides what may name a folder: no separator
        // but arXiv's own, no `..`, no control character.
        if !pith::record::is_arxiv_id(&e.arxiv_id) || e.version == 0 {
            report(&format!(
                "{code}: not exported: its arXiv id {:?} (version {}) is not one, so it cannot name a file",
                e.arxiv_id, e.version
            ));
            done.skipped += 1;
            return Ok(());
        }
        // The record's files are made before any is written: a record that cannot be made
        // whole is reported and leaves no file.
        let files = match record_files(index, e, b, base, &site, &badge, &keys) {
            Ok(f) => f,
            Err(why) => {
                report(&format!("{code}: not exported: {why}"));
                done.skipped += 1;
                return Ok(());
            }
        };
        for (path, bytes) in &files {
            out.write(path, bytes)?;
        }
        if b.is_some() {
            done.bundles += 1;
        }
        let s = prev.as_ref().map_or(0, |p| shared(p.number.code(), code));
        if let Some(p) = prev.take() {
            aliases(&mut out, &p, prev_shared, s)?;
        }
        prev_shared = s;
        prev = Some(e.clone());
        done.records += 1;
        Ok(())
    })?;
    if let Some(p) = prev.take() {
        aliases(&mut out, &p, prev_shared, 0)?;
    }
    index.each_latest(|id, code| {
        // Reported with its record above.
        if !pith::record::is_arxiv_id(id) || pith::PithNumber::parse(code).is_err() {
            return Ok(());
        }
        out.write(
            &format!("arxiv/{id}/index.html"),
            &stub(base, &format!("/pith/{code}")),
        )?;
        // The concept badge: the latest version's.
        if let Some(e) = index.record(code)? {
            let b = index.bundle(code)?;
            let a = index.anchor(code)?;
            let s = index.stored(code)?;
            let status = documents::status(b.as_ref(), a.as_ref(), s.as_ref());
            for (name, file) in [(".svg", BadgeFile::Svg), (".json", BadgeFile::Shields)] {
                let bytes = documents::badge(&e.number, &badge, status, file)
                    .map_err(|x| Error::from(ErrorKind::Input(x.to_string())))?;
                out.write(&format!("badge/arxiv/{id}{name}"), &bytes)?;
            }
        }
        Ok(())
    })?;
    // The sitemaps, with absolute URLs under `base` (a sitemap's must be).
    let current = index.current_len()?;
    out.write("sitemap.xml", &documents::sitemap_index(base, current))?;
    for n in 0..=current.div_ceil(documents::SITEMAP_PAGE) {
        let rows = match n {
            0 => Vec::new(),
            n => index.current_page((n - 1) * documents::SITEMAP_PAGE, documents::SITEMAP_PAGE)?,
        };
        out.write(
            &format!("sitemap/{n}.xml"),
            &documents::sitemap(base, &rows, n == 0),
        )?;
    }
    out.write(
        "healthz",
        format!("ok {} records\n", done.records).as_bytes(),
    )?;
    done.files = out.files;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_escape_and_prefixes_share() {
        let s = String::from_utf8(stub("", "/pith/A\"<")).unwrap();
        assert!(s.contains("url=/pith/A&quot;&lt;\""), "{s}");
        assert_eq!(shared("ABCD", "ABXD"), 2);
        let dir = tempfile::tempdir().unwrap();
        let mut out = Out {
            dir: dir.path().to_owned(),
            files: 0,
        };
        for bad in ["arxiv/../x", "/etc/x", "a//b", "arxiv/a\\..\\b"] {
            assert!(out.write(bad, b"").is_err(), "{bad}");
        }
        out.write("arxiv/math/0406128v1/index.html", b"x").unwrap();
        assert_eq!(out.files, 1);
    }
}
