//! What a badge (and the snippet that embeds it) is asked to show, as every door asks it:
//! `pith badge` and `pith snippet`, Python's `badge_svg` and `badge_snippet`, the server's
//! `?style=…&full=1&qr=1&qr_module=3`. One [`BadgeRequest`], its defaults, and the one check
//! ([`BadgeRequest::options`]) that turns it into the badge's [`Options`] or refuses it with
//! the badge's typed error and one sentence.

use serde::{Deserialize, Serialize};

use crate::badge::{self, Options, Style};

/// A badge's look as a front end was asked for it; what is left out takes the badge's
/// default ([`super::defaults`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BadgeRequest {
    /// Show the whole number instead of the short form.
    pub full: bool,
    /// The status the caller states (only `computed` may be stated: `verified` is found by
    /// checking a bundle, never told).
    pub status: Option<String>,
    /// `flat` or `flat-square` ([`super::defaults::BADGE_STYLE`] when left out).
    pub style: Option<String>,
    /// The text of the first segment ([`super::defaults::BADGE_LABEL`] when left out).
    pub label: Option<String>,
    /// Draw a QR code of the record URL below the badge.
    pub qr: bool,
    /// With `qr`: the size of a QR module in px ([`super::defaults::QR_MODULE_PX`] when left
    /// out); refused without `qr`.
    pub qr_module: Option<u32>,
    /// Draw the dark colour scheme's colours only.
    pub dark: bool,
}

impl BadgeRequest {
    /// Refuses a request whose options the badge cannot draw, before anything is read: a
    /// style that is not one, a status that may not be stated, a module size without the QR
    /// code ([`super::qr_of`]).
    ///
    /// # Errors
    /// The badge's [`badge::Error`], whose sentence names the option.
    pub fn validate(&self) -> Result<(), badge::Error> {
        self.options().map(|_| ())
    }

    /// The badge's options this request asks for, checked ([`BadgeRequest::validate`]).
    ///
    /// # Errors
    /// As [`BadgeRequest::validate`].
    ///
    /// # Examples
    /// ```
    /// use pith::job::badge::BadgeRequest;
    /// let ok = BadgeRequest { qr: true, ..Default::default() }.options()?;
    /// let asked = pith::badge::Options::default().qr(Some(pith::job::defaults::QR_MODULE_PX));
    /// assert_eq!(format!("{ok:?}"), format!("{asked:?}"));
    /// // A module size without the QR code is refused, never taken as asking for it.
    /// assert!(BadgeRequest { qr_module: Some(4), ..Default::default() }.options().is_err());
    /// # Ok::<(), pith::badge::Error>(())
    /// ```
    pub fn options(&self) -> Result<Options, badge::Error> {
        let status = self
            .status
            .as_deref()
            .map(badge::stated_status)
            .transpose()?;
        let style = match &self.style {
            Some(s) => s.parse::<Style>()?,
            None => super::defaults::BADGE_STYLE.parse::<Style>()?,
        };
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| super::defaults::BADGE_LABEL.to_owned());
        Ok(Options::default()
            .label(label)
            .full(self.full)
            .status(status)
            .style(style)
            .qr(super::qr_of(self.qr, self.qr_module)?)
            .dark(self.dark))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_left_empty_is_the_badge_default_and_contradictions_are_refused() {
        let d = BadgeRequest::default().options().unwrap();
        assert_eq!(format!("{d:?}"), format!("{:?}", Options::default()));
        let bad = [
            BadgeRequest {
                qr_module: Some(4),
                ..Default::default()
            },
            BadgeRequest {
                style: Some("round".into()),
                ..Default::default()
            },
            BadgeRequest {
                status: Some("verified".into()),
                ..Default::default()
            },
        ];
        let mut sentences = std::collections::BTreeSet::new();
        for r in &bad {
            sentences.insert(r.validate().unwrap_err().to_string());
        }
        assert_eq!(sentences.len(), bad.len(), "{sentences:#?}");
        // What a door sends as JSON or a query is the same request.
        let r: BadgeRequest = serde_json::from_str(r#"{"qr": true, "qr_module": 3}"#).unwrap();
        assert_eq!(r.options().unwrap().qr, Some(3));
    }
}
