//! What a badge (and the snippet that embeds it) is asked to show, as every door asks it:
//! `pith badge` and `pith snippet`, Python's `badge_svg` and `badge_snippet`, the server's
//! `?style=…&full=1&qr=1&qr_module=3`. One [`BadgeRequest`], its defaults, and the one check
//! ([`BadgeRequest::options`]) that turns it into the badge's [`Look`] or refuses it with
//! the badge's typed error and one sentence.

use serde::{Deserialize, Serialize};

use crate::badge::{self, Format, Look, SnippetOptions, Style};
use crate::PithNumber;

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
    /// let asked = pith::badge::Look::default().qr(Some(pith::job::defaults::QR_MODULE_PX));
    /// assert_eq!(format!("{ok:?}"), format!("{asked:?}"));
    /// // A module size without the QR code is refused, never taken as asking for it.
    /// assert!(BadgeRequest { qr_module: Some(4), ..Default::default() }.options().is_err());
    /// # Ok::<(), pith::badge::Error>(())
    /// ```
    pub fn options(&self) -> Result<Look, badge::Error> {
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
        Ok(Look::default()
            .label(label)
            .full(self.full)
            .status(status)
            .style(style)
            .qr(super::qr_of(self.qr, self.qr_module)?)
            .dark(self.dark))
    }
}

/// Where a badge's status is found instead of stated: a bundle of the number, its receipt
/// signature checked with the registry key and the keys given (`--bundle`, `--key`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BundleRequest {
    /// The bundle JSON of the number.
    pub bundle: Option<std::path::PathBuf>,
    /// Ed25519 public keys to trust besides the registry key (base64, hex or a file).
    pub key: Vec<String>,
}

impl BundleRequest {
    /// Refuses a bundle beside a status the badge is told, and keys without a bundle.
    ///
    /// # Errors
    /// [`badge::ErrorKind::BundleAndStatus`], [`badge::ErrorKind::KeyWithoutBundle`].
    ///
    /// # Examples
    /// ```
    /// use pith::job::badge::{BadgeRequest, BundleRequest};
    /// let keys = BundleRequest { key: vec!["k".into()], ..Default::default() };
    /// assert!(keys.validate(&BadgeRequest::default()).is_err());
    /// ```
    pub fn validate(&self, look: &BadgeRequest) -> Result<(), badge::Error> {
        match (&self.bundle, &look.status) {
            (Some(_), Some(_)) => Err(badge::Error::new(badge::ErrorKind::BundleAndStatus)),
            (None, _) if !self.key.is_empty() => {
                Err(badge::Error::new(badge::ErrorKind::KeyWithoutBundle))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_left_empty_is_the_badge_default_and_contradictions_are_refused() {
        let d = BadgeRequest::default().options().unwrap();
        assert_eq!(format!("{d:?}"), format!("{:?}", Look::default()));
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
        let told = BadgeRequest {
            status: Some("computed".into()),
            ..Default::default()
        };
        let both = BundleRequest {
            bundle: Some("b.json".into()),
            ..Default::default()
        };
        assert!(both.validate(&told).is_err());
        assert!(both.validate(&BadgeRequest::default()).is_ok());
    }
}

/// A snippet as a front end was asked for it (`pith snippet`, Python's `badge_snippet`): its
/// format and the images it names; the badge it shows is a [`BadgeRequest`]'s. What is left
/// out takes the default ([`super::defaults::SNIPPET_FORMAT`], `pith-<8 characters>.svg`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SnippetRequest {
    /// `md`, `html`, `rst`, `adoc` or `tex`.
    pub format: Option<String>,
    /// URL or path of the badge image.
    pub src: Option<String>,
    /// HTML only: the badge image for the dark colour scheme.
    pub dark_src: Option<String>,
    /// LaTeX only: where the PDF badge can be downloaded.
    pub download: Option<String>,
}

impl SnippetRequest {
    /// The format asked for, or the default.
    ///
    /// # Errors
    /// [`badge::ErrorKind::UnknownFormat`].
    pub fn format(&self) -> Result<Format, badge::Error> {
        self.format
            .as_deref()
            .unwrap_or(super::defaults::SNIPPET_FORMAT)
            .parse()
    }

    fn options(&self, badge: Look) -> SnippetOptions {
        SnippetOptions {
            badge,
            src: self.src.clone(),
            dark_src: self.dark_src.clone(),
            download: self.download.clone(),
        }
    }

    /// Refuses a request that does not hold together, once for every door: an unknown
    /// format, an image option the format cannot carry.
    ///
    /// # Errors
    /// [`badge::ErrorKind::UnknownFormat`], [`badge::ErrorKind::NotForFormat`].
    ///
    /// # Examples
    /// ```
    /// use pith::job::badge::SnippetRequest;
    /// let r = SnippetRequest { dark_src: Some("dark.svg".into()), ..Default::default() };
    /// assert!(r.validate().is_err(), "a dark image is for HTML only");
    /// let r = SnippetRequest { format: Some("html".into()), ..r };
    /// assert!(r.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), badge::Error> {
        self.options(Look::default()).check(self.format()?)
    }

    /// The snippet that embeds `number`'s badge of `badge` ([`BadgeRequest::options`]).
    ///
    /// # Errors
    /// What [`SnippetRequest::validate`] refuses; as [`badge::snippet()`].
    pub fn render(&self, number: &PithNumber, badge: Look) -> Result<String, badge::Error> {
        badge::snippet(number, self.format()?, &self.options(badge))
    }
}
