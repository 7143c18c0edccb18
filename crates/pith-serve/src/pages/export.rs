//! The pages as static files, for the export (`pith serve INDEX --export DIR`): the home page,
//! the verify page (which then says that checking a PDF needs the server), each record page,
//! and the assets. A static host cannot answer a search or take an upload, so those pages say
//! what to do instead.

use super::record::{render_page, Facts};
use super::{render, Site};
use crate::assets;

/// A page or asset of the export: its path under the export folder, and its bytes.
pub type File = (String, Vec<u8>);

/// The frame of an exported page: `base` is the URL the export will be served at (`""`:
/// links and snippets relative to the host's root).
pub fn site(base: &str, papers: Option<u64>) -> Site {
    Site::new(base.trim_end_matches('/').to_owned(), true, papers)
}

/// The pages every export holds: `index.html`, `verify/index.html` and the assets.
///
/// # Errors
/// A template that fails to render (a bug).
pub fn fixed(site: &Site) -> Result<Vec<File>, tera::Error> {
    let mut ctx = tera::Context::new();
    ctx.insert("site", site);
    ctx.insert("query", "");
    let home = render("home.html", &ctx)?;
    ctx.insert("r", &None::<()>);
    ctx.insert("max_upload", "");
    let verify = render("verify.html", &ctx)?;
    let mut files = vec![
        ("index.html".to_owned(), home.into_bytes()),
        ("verify/index.html".to_owned(), verify.into_bytes()),
    ];
    for a in assets::all() {
        files.push((a.path(), a.bytes.to_vec()));
    }
    Ok(files)
}

/// The record page of `facts`, at `pith/<26>/index.html` (where a static host answers
/// `/pith/<26>`).
///
/// # Errors
/// As [`render_page`].
pub fn record(facts: &Facts, site: &Site) -> Result<File, Box<dyn std::error::Error>> {
    let code = facts.record.number().code().to_owned();
    Ok((
        format!("pith/{code}/index.html"),
        render_page(facts, site)?.into_bytes(),
    ))
}
