//! How a PDF is to be updated, as a front end asks for it ([`UpdateRequest`]): the options
//! `inject`, `strip`, `batch` and the tar runs share (force, repair, the stamp, replace, the
//! file deadline), each left out taking the library's default ([`super::defaults`]), turned
//! into the [`Settings`] of the run by one function ([`UpdateRequest::settings`]) that refuses
//! what does not hold together.

use serde::{Deserialize, Serialize};

use super::{Error, ErrorKind, Settings};

/// The update options as a door was given them; what is left out is the library's default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UpdateRequest {
    /// Update certified files that forbid changes, replace an unparsable XMP packet, stamp
    /// signed files.
    pub force: bool,
    /// Rebuild the cross-reference table of a file refused as damaged (append-only).
    pub repair: bool,
    /// The update time (ISO 8601); the current time when left out.
    pub now: Option<String>,
    /// Also put the visible stamp on page 1.
    pub stamp: bool,
    /// With `stamp`: `short` or `full` ([`super::defaults::STAMP_FORM`] when left out).
    pub stamp_form: Option<String>,
    /// With `stamp`: the margin ([`super::defaults::STAMP_POSITION`] when left out).
    pub stamp_position: Option<String>,
    /// With `stamp`: the font size in points ([`super::defaults::STAMP_SIZE`] when left
    /// out; [`super::STAMP_SIZES`] allowed).
    pub stamp_size: Option<f64>,
    /// Redraw a badge, stamp or record links on page 1 that show another number.
    pub replace: bool,
    /// The deadline of one file in seconds, 0 for no bound
    /// ([`super::defaults::FILE_TIMEOUT_SECS`] when left out).
    pub file_timeout: Option<f64>,
    /// The password of an encrypted file (never written out with the request).
    #[serde(skip)]
    pub password: Option<Vec<u8>>,
}

impl UpdateRequest {
    /// Refuses what [`UpdateRequest::settings`] refuses.
    ///
    /// # Errors
    /// As [`UpdateRequest::settings`].
    pub fn validate(&self) -> Result<(), Error> {
        self.settings().map(|_| ())
    }

    /// The settings of the update this request asks for: the stamp's form, margin and size
    /// only with the stamp, each checked ([`super::stamp`]); the deadline's 0 is no bound.
    ///
    /// # Errors
    /// [`ErrorKind::Stamp`] for a stamp setting given without the stamp or not allowed.
    ///
    /// # Examples
    /// ```
    /// use pith::job::update::UpdateRequest;
    /// let s = UpdateRequest { stamp: true, ..Default::default() }.settings()?;
    /// assert_eq!(s.stamp.map(|s| s.size), Some(pith::job::defaults::STAMP_SIZE));
    /// let no_bound = UpdateRequest { file_timeout: Some(0.0), ..Default::default() };
    /// assert_eq!(no_bound.settings()?.file_timeout, None);
    /// // The stamp's size without the stamp is a contradiction, refused.
    /// assert!(UpdateRequest { stamp_size: Some(8.0), ..Default::default() }.settings().is_err());
    /// # Ok::<(), pith::job::Error>(())
    /// ```
    pub fn settings(&self) -> Result<Settings, Error> {
        use super::defaults as d;
        let stamp_given =
            self.stamp_form.is_some() || self.stamp_position.is_some() || self.stamp_size.is_some();
        if stamp_given && !self.stamp {
            return Err(Error::new(ErrorKind::Stamp(
                "form, position and size are the stamp's: ask for the stamp too (--stamp, stamp=True)"
                    .into(),
            )));
        }
        let form = self.stamp_form.as_deref().unwrap_or(d::STAMP_FORM);
        let stamp = self
            .stamp
            .then(|| {
                super::stamp(
                    form,
                    self.stamp_position.as_deref().unwrap_or(d::STAMP_POSITION),
                    self.stamp_size.unwrap_or(d::STAMP_SIZE),
                )
            })
            .transpose()?;
        let file_timeout = super::stop::file_bound(self.file_timeout);
        Ok(Settings {
            force: self.force,
            repair: self.repair,
            password: self.password.clone(),
            stamp,
            replace: self.replace,
            now: self.now.clone(),
            file_timeout,
            ..Settings::default()
        })
    }
}

/// The stamp's form given as a name, or by the full-form switch (the command line's hidden
/// `--stamp-full`, the old spelling of `--stamp-form full`).
///
/// # Errors
/// [`ErrorKind::Stamp`] for the switch beside another form.
///
/// # Examples
/// ```
/// use pith::job::update::stamp_form;
/// assert_eq!(stamp_form(true, None)?.as_deref(), Some("full"));
/// assert!(stamp_form(true, Some("short".into())).is_err());
/// # Ok::<(), pith::job::Error>(())
/// ```
pub fn stamp_form(full: bool, form: Option<String>) -> Result<Option<String>, Error> {
    match (full, form) {
        (true, Some(f)) if f != "full" => Err(Error::new(ErrorKind::Stamp(format!(
            "the full-form switch asks for the full form: it does not go with the form {f}"
        )))),
        (true, _) => Ok(Some("full".into())),
        (false, f) => Ok(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_out_is_the_default_and_stamp_settings_need_the_stamp() {
        let d = UpdateRequest::default().settings().unwrap();
        assert_eq!(d.file_timeout, Settings::default().file_timeout);
        assert!(d.stamp.is_none());
        let bad = [
            UpdateRequest {
                stamp_form: Some("full".into()),
                ..Default::default()
            },
            UpdateRequest {
                stamp: true,
                stamp_size: Some(1000.0),
                ..Default::default()
            },
            UpdateRequest {
                stamp: true,
                stamp_position: Some("middle".into()),
                ..Default::default()
            },
        ];
        let mut sentences = std::collections::BTreeSet::new();
        for r in &bad {
            let e = r.validate().unwrap_err();
            assert_eq!(e.kind_of(), super::super::ErrorCode::Stamp, "{e}");
            sentences.insert(e.to_string());
        }
        assert_eq!(sentences.len(), bad.len(), "{sentences:#?}");
        assert!(stamp_form(true, Some("short".into())).is_err());
        assert_eq!(stamp_form(false, None).unwrap(), None);
        let r: UpdateRequest =
            serde_json::from_str(r#"{"stamp": true, "stamp_form": "full", "file_timeout": 0}"#)
                .unwrap();
        let s = r.settings().unwrap();
        assert_eq!(s.file_timeout, None);
        assert!(s.stamp.is_some());
    }
}
