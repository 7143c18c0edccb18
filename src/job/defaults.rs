//! The defaults of the settings a request may leave out: the one table the command line's
//! `default_value`s, Python's signatures and the server's badge query read, so that each
//! default is written once. A default that its owner already has (the engine's stamp size,
//! the file deadline, the badge's label) is named from there; the names of enum defaults are
//! checked against the owner's `Default` below. It decides nothing else: what a value may be
//! is the owner's to check.

use crate::badge;
use crate::pdf::stamp;

/// The stamp's form by name (`--stamp-form`, `stamp_form=`): the engine's default form.
pub const STAMP_FORM: &str = "short";

/// The stamp's margin by name (`--stamp-position`, `stamp_position=`): the engine's default.
pub const STAMP_POSITION: &str = "left";

/// The stamp's font size in points (`--stamp-size`, `stamp_size=`).
pub const STAMP_SIZE: f64 = stamp::DEFAULT_SIZE;

/// The deadline of one file in seconds (`--file-timeout`, `file_timeout=`).
pub const FILE_TIMEOUT_SECS: u64 = super::stop::FILE_TIMEOUT_SECS;

/// The badge's style by name (`--style`, `style=`, `?style=`): the badge's default style.
pub const BADGE_STYLE: &str = "flat";

/// The text of the badge's first segment (`--label`, `label=`).
pub const BADGE_LABEL: &str = badge::DEFAULT_LABEL;

/// The size of a QR module in px when a QR code is asked for without one (`--qr-module`,
/// `?qr=1`).
pub const QR_MODULE_PX: u32 = 2;

/// The format of a snippet (`pith snippet --format`, the server's snippets): Markdown.
pub const SNIPPET_FORMAT: &str = "md";

/// The citation format (`pith cite --format`, `format=`): BibTeX.
pub const CITE_FORMAT: &str = "bibtex";

/// The folder `pith sty` writes its files into (`-o`): the current one.
pub const STY_DIR: &str = ".";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cite_format_is_one() {
        assert!(super::super::cite::Format::ALL
            .iter()
            .any(|f| f.name() == CITE_FORMAT));
    }

    #[test]
    fn the_names_are_the_owners_defaults() {
        let s = stamp::Stamp::default();
        assert_eq!(STAMP_FORM.parse::<stamp::Form>(), Ok(s.form));
        assert_eq!(STAMP_POSITION.parse::<stamp::Position>(), Ok(s.position));
        assert_eq!(STAMP_SIZE, s.size);
        assert!(crate::job::STAMP_SIZES.contains(&STAMP_SIZE));
        assert_eq!(
            BADGE_STYLE.parse::<badge::Style>().ok(),
            Some(badge::Style::default())
        );
        assert!(badge::QR_MODULE_PX.contains(&QR_MODULE_PX));
        assert_eq!(
            crate::job::stop::FILE_TIMEOUT,
            std::time::Duration::from_secs(FILE_TIMEOUT_SECS)
        );
    }
}
