//! What `pith sty` and Python's `sty` / `sty_ltxml` are asked to render: the version and
//! date of the package's `\ProvidesPackage` line, each the package's own default when left
//! out ([`StyRequest`]), checked once ([`StyRequest::options`]).

use serde::{Deserialize, Serialize};

use crate::sty::{self, Release};

/// The package as a front end asks for it; what is left out is [`Release::default`]'s.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StyRequest {
    /// The version written into the package (default: this crate's version).
    pub version: Option<String>,
    /// The date written into `\ProvidesPackage`, `YYYY/MM/DD` (default:
    /// [`sty::PACKAGE_DATE`]).
    pub date: Option<String>,
}

impl StyRequest {
    /// The rendering options this request asks for, checked: a date that is not
    /// `YYYY/MM/DD` or a version that cannot be written unescaped is refused here.
    ///
    /// # Errors
    /// [`sty::ErrorKind::InvalidDate`] or [`sty::ErrorKind::InvalidVersion`].
    pub fn options(&self) -> Result<Release, sty::Error> {
        let d = Release::default();
        let o = Release {
            version: self.version.clone().unwrap_or(d.version),
            date: self.date.clone().unwrap_or(d.date),
        };
        sty::check_options(&o)?;
        Ok(o)
    }

    /// Refuses what [`StyRequest::options`] refuses.
    ///
    /// # Errors
    /// As [`StyRequest::options`].
    pub fn validate(&self) -> Result<(), sty::Error> {
        self.options().map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_out_is_the_package_default_and_a_bad_date_or_version_is_refused_once() {
        assert_eq!(StyRequest::default().options().unwrap(), Release::default());
        let date = StyRequest {
            date: Some("2024-01-01".into()),
            ..Default::default()
        };
        let version = StyRequest {
            version: Some("1 0".into()),
            ..Default::default()
        };
        assert!(matches!(
            date.validate().unwrap_err().kind(),
            sty::ErrorKind::InvalidDate(_)
        ));
        assert!(matches!(
            version.validate().unwrap_err().kind(),
            sty::ErrorKind::InvalidVersion(_)
        ));
    }
}
