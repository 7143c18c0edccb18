//! The query of a badge (`?style=flat-square&full=1&qr=1&qr_module=3`): `pith badge`'s
//! options, read once, for the badge routes and for the cache's key (the same options spelt
//! another way are one answer).

use pith::badge::{Options, Style};
use serde::Deserialize;

/// The query of a badge: `pith badge`'s options.
#[derive(Debug, Default, Deserialize)]
pub struct BadgeQuery {
    style: Option<String>,
    full: Option<String>,
    qr: Option<String>,
    qr_module: Option<String>,
}

fn flag(v: Option<&str>) -> Result<bool, String> {
    match v.map(str::to_ascii_lowercase).as_deref() {
        None | Some("0" | "false" | "no") => Ok(false),
        Some("" | "1" | "true" | "yes") => Ok(true),
        Some(other) => Err(format!(
            "{other:?} is not a yes/no value (1, true, 0, false)"
        )),
    }
}

impl BadgeQuery {
    /// The badge options the query asks for (`pith badge`'s defaults otherwise).
    ///
    /// # Errors
    /// A sentence saying which value is wrong.
    pub fn options(&self) -> Result<Options, String> {
        let style = match &self.style {
            Some(s) => s.parse::<Style>().map_err(|e| e.to_string())?,
            None => Style::Flat,
        };
        let module = match &self.qr_module {
            Some(m) => Some(
                m.parse::<u32>()
                    .map_err(|_| format!("qr_module {m:?} is not a number of px"))?,
            ),
            None => None,
        };
        let qr = flag(self.qr.as_deref())? || module.is_some();
        Ok(Options::default()
            .full(flag(self.full.as_deref())?)
            .style(style)
            .qr(qr.then_some(module.unwrap_or(2))))
    }
}
