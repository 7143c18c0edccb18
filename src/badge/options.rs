//! What a badge shows and how ([`Look`], [`Style`], [`RecordStatus`]) and what can be wrong with
//! it ([`Error`]); the checks every caller-given text goes through.

use std::fmt;
use std::str::FromStr;

use super::{Role, MAX_LABEL_CHARS, QR_MODULE_PX};

kind_error! {
    /// Error returned when a badge or snippet cannot be built from the given options.
}

/// What was wrong with the options of a badge or snippet.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when caller-given text (a label, an image source) holds a control character,
    /// which XML 1.0 cannot carry and no badge should show.
    #[error("{field} holds a control character at position {position}")]
    ControlCharacter {
        /// Which option held it (`label`, `src`, `dark_src`).
        field: &'static str,
        /// The character's 1-based position.
        position: usize,
    },
    /// Occurs when the label is empty or only whitespace.
    #[error("the label is empty")]
    EmptyLabel,
    /// Occurs when the label has more than [`MAX_LABEL_CHARS`] characters.
    #[error("the label has {found} characters, at most {MAX_LABEL_CHARS} are accepted")]
    LabelTooLong {
        /// The number of characters found.
        found: usize,
    },
    /// Occurs when a QR module size is outside [`QR_MODULE_PX`].
    #[error("QR module size {found} px is outside {}..={} px", QR_MODULE_PX.start(), QR_MODULE_PX.end())]
    QrModuleSize {
        /// The size asked for.
        found: u32,
    },
    /// Occurs when a QR module size is given without asking for the QR code.
    #[error(
        "a QR module size is for a badge with its QR code: ask for the QR code too (--qr, qr=1)"
    )]
    QrModuleWithoutQr,
    /// Occurs when the QR encoder refuses the URL (it never should: the URL is 52 bytes).
    #[error("cannot encode the QR code")]
    Qr(#[source] qrcode::types::QrError),
    /// Occurs when a style name is not `flat` or `flat-square`.
    #[error("unknown style {0:?} (expected flat or flat-square)")]
    UnknownStyle(String),
    /// Occurs when a status name is not `computed`, `verified`, `stored` or `anchored`.
    #[error("unknown status {0:?} (expected computed, verified, stored or anchored)")]
    UnknownStatus(String),
    /// Occurs when a caller states a status pith finds by checking ([`stated_status`]):
    /// `verified` comes from a bundle's receipt signature that verifies, and `stored` and
    /// `anchored` from a capture or a proof a mirror checked ([`status`]).
    #[error("{}", unchecked_status(*.0))]
    UncheckedStatus(RecordStatus),
    /// Occurs when a bundle is given beside a stated status: the bundle's checked status is
    /// the one the badge shows.
    #[error("a bundle gives the badge its status: give either a bundle or a status, not both")]
    BundleAndStatus,
    /// Occurs when keys to trust are given without a bundle whose receipt they would check.
    #[error("keys check a bundle's receipt signature: give the bundle too")]
    KeyWithoutBundle,
    /// Occurs when a badge image's format is not `svg` or `pdf`, or contradicts the output's
    /// file name ([`ImageFormat::for_output`]).
    #[error("{0}")]
    ImageFormat(String),
    /// Occurs when a snippet format is not `md`, `html`, `rst`, `adoc` or `tex`.
    #[error("unknown snippet format {0:?} (expected md, html, rst, adoc or tex)")]
    UnknownFormat(String),
    /// Occurs when a value holds a character its target format cannot carry at all (a `%` in
    /// a LaTeX image path).
    #[error("{field} holds {character:?}, which this format cannot carry")]
    UnsupportedCharacter {
        /// Which option held it.
        field: &'static str,
        /// The character.
        character: char,
    },
    /// Occurs when a snippet option is given for a format that has no use for it (a dark
    /// image beside anything but HTML, a download address beside anything but LaTeX).
    #[error("{option} is only used with the {only} snippet")]
    NotForFormat {
        /// The option (`dark_src`, `download`).
        option: &'static str,
        /// The one format that uses it (`html`, `tex`).
        only: &'static str,
    },
    /// Occurs when an image source for a snippet is empty.
    #[error("the image source is empty")]
    EmptySource,
    /// Occurs when the PDF engine refuses the badge's drawing (a character its font lacks).
    #[error("cannot draw the PDF badge")]
    Pdf(#[source] crate::pdf::Error),
    /// Occurs when a LaTeX snippet is asked for an image pdfLaTeX cannot include (an SVG, or
    /// a URL: `\includegraphics` reads local files only).
    #[error("{0}")]
    LatexImage(String),
    /// Occurs when a snippet template fails to render (a bug in `templates/snippet.*`).
    #[error("snippet template failed")]
    Template(#[source] tera::Error),
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error { kind }
    }
}

/// Visual style of a badge, after shields.io's styles of the same names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// Rounded corners (3 px) and a light top-to-bottom gradient.
    #[default]
    Flat,
    /// Square corners, plain colours.
    FlatSquare,
}

impl Style {
    /// Every style, in documentation order.
    pub const ALL: [Style; 2] = [Style::Flat, Style::FlatSquare];

    /// The style's name (`flat`, `flat-square`).
    pub fn name(self) -> &'static str {
        match self {
            Style::Flat => "flat",
            Style::FlatSquare => "flat-square",
        }
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Style {
    type Err = Error;

    /// Parses `flat` or `flat-square`.
    fn from_str(s: &str) -> Result<Self, Error> {
        Style::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| Error::new(ErrorKind::UnknownStyle(s.to_owned())))
    }
}

/// The record status shown in a badge's third segment (SPEC, "Record status flags"); not a
/// job's status nor a check's [`crate::verify::CheckStatus`].
///
/// The badge prints what the caller says; it does not check anything itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordStatus {
    /// The number was computed from the record; nothing else is claimed.
    Computed,
    /// A registry receipt signature over the record's hash was checked.
    Verified,
    /// An Internet Archive capture of the version's PDF was checked (SPEC's
    /// `storage_verified`).
    Stored,
    /// The record is externally anchored (OpenTimestamps / Bitcoin).
    Anchored,
}

impl RecordStatus {
    /// Every status.
    pub const ALL: [RecordStatus; 4] = [
        RecordStatus::Computed,
        RecordStatus::Verified,
        RecordStatus::Stored,
        RecordStatus::Anchored,
    ];

    /// The status's name as printed in the badge.
    pub fn name(self) -> &'static str {
        match self {
            RecordStatus::Computed => "computed",
            RecordStatus::Verified => "verified",
            RecordStatus::Stored => "stored",
            RecordStatus::Anchored => "anchored",
        }
    }

    pub(super) fn role(self) -> Role {
        match self {
            RecordStatus::Computed => Role::Computed,
            RecordStatus::Verified => Role::Verified,
            RecordStatus::Stored => Role::Stored,
            RecordStatus::Anchored => Role::Anchored,
        }
    }
}

fn unchecked_status(s: RecordStatus) -> String {
    match s {
        RecordStatus::Anchored => "status \"anchored\" is found, not stated: a mirror's badge says it for a record whose OpenTimestamps proof `pith index --anchors` checked (a bundle's statement of one is reported when the bundle is verified)".into(),
        RecordStatus::Stored => "status \"stored\" is found, not stated: a mirror's badge says it for a record whose Internet Archive capture `pith index --captures` checked (`pith verify --capture` checks one by hand)".into(),
        s => format!("status {:?} is found, not stated: a badge says it when the record's bundle holds a receipt signature that verifies with a trusted key", s.name()),
    }
}

/// The status a caller may state for a badge by name: `computed` only, the same rule for
/// every front end. The others are found by checking ([`status`], [`status_from_bundle`]).
///
/// # Errors
/// [`ErrorKind::UnknownStatus`] for a name that is no status, [`ErrorKind::UncheckedStatus`]
/// for `verified`, `stored` and `anchored`.
///
/// # Examples
/// ```
/// use pith::badge::{stated_status, RecordStatus};
/// assert_eq!(stated_status("computed")?, RecordStatus::Computed);
/// assert!(stated_status("verified").is_err());
/// # Ok::<(), pith::badge::Error>(())
/// ```
pub fn stated_status(name: &str) -> Result<RecordStatus, Error> {
    match name.parse::<RecordStatus>()? {
        RecordStatus::Computed => Ok(RecordStatus::Computed),
        s => Err(Error::new(ErrorKind::UncheckedStatus(s))),
    }
}

/// The file format of a badge image: SVG, or PDF for pdfLaTeX's `\includegraphics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// An SVG document.
    Svg,
    /// A one-page PDF ([`super::pdf()`]).
    Pdf,
}

impl ImageFormat {
    /// Every format.
    pub const ALL: [ImageFormat; 2] = [ImageFormat::Svg, ImageFormat::Pdf];

    /// The format's name, which is also its file extension (`svg`, `pdf`).
    pub fn name(self) -> &'static str {
        match self {
            ImageFormat::Svg => "svg",
            ImageFormat::Pdf => "pdf",
        }
    }

    /// The format of a badge written to `out` (`None` or `-`: standard output): the one
    /// `asked`, else the one the file's extension names, else SVG for a name without an
    /// extension or standard output.
    ///
    /// # Errors
    /// [`ErrorKind::ImageFormat`] when the extension names another image format (`x.png`),
    /// or one that contradicts `asked` (`x.pdf` asked as SVG): the file would hold bytes
    /// its name does not describe.
    ///
    /// # Examples
    /// ```
    /// use pith::badge::ImageFormat;
    /// use std::path::Path;
    /// assert_eq!(ImageFormat::for_output(None, Some(Path::new("b.pdf")))?, ImageFormat::Pdf);
    /// assert_eq!(ImageFormat::for_output(None, None)?, ImageFormat::Svg);
    /// assert!(ImageFormat::for_output(None, Some(Path::new("b.png"))).is_err());
    /// # Ok::<(), pith::badge::Error>(())
    /// ```
    pub fn for_output(
        asked: Option<ImageFormat>,
        out: Option<&std::path::Path>,
    ) -> Result<ImageFormat, Error> {
        let ext = out
            .filter(|p| !crate::output::is_stdio(p))
            .and_then(|p| p.extension())
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let named = ext.as_deref().map(|e| {
            ImageFormat::ALL
                .into_iter()
                .find(|f| f.name() == e)
                .ok_or(e)
        });
        let file = || out.map(|p| p.display().to_string()).unwrap_or_default();
        match (asked, named) {
            (_, Some(Err(e))) if IMAGE_EXTENSIONS.contains(&e) => {
                Err(Error::new(ErrorKind::ImageFormat(format!(
                    "{}: a badge is written as SVG or PDF, not {}; name the file .svg or .pdf",
                    file(),
                    e.to_ascii_uppercase()
                ))))
            }
            (Some(a), Some(Ok(n))) if a != n => Err(Error::new(ErrorKind::ImageFormat(format!(
                "{}: the name says {} but {} was asked for",
                file(),
                n.name().to_ascii_uppercase(),
                a.name().to_ascii_uppercase()
            )))),
            (Some(a), _) => Ok(a),
            (None, Some(Ok(n))) => Ok(n),
            // A name with no image extension (`badge`, `badge.out`) gets the default.
            (None, _) => Ok(ImageFormat::Svg),
        }
    }
}

/// Extensions of image formats a badge is not written in: a file so named is refused rather
/// than given bytes of another format.
const IMAGE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "tif", "tiff", "ico", "eps", "ps", "svgz",
    "heic", "jxl",
];

impl FromStr for ImageFormat {
    type Err = Error;

    /// Parses `svg` or `pdf`.
    fn from_str(s: &str) -> Result<Self, Error> {
        ImageFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                Error::new(ErrorKind::ImageFormat(format!(
                    "unknown image format {s:?} (expected svg or pdf)"
                )))
            })
    }
}

/// The status a badge shows for a record, from what pith checked itself: the one place this is
/// decided, for `pith badge`, `pith serve`, its export, record page, `state.json` and shields
/// document.
///
/// [`RecordStatus::Anchored`] only when pith itself checked an OpenTimestamps proof of the
/// record's digest against Bitcoin block headers (`anchored`: [`crate::ots::check()`] gave
/// [`crate::ots::Verdict::Anchored`]); else [`RecordStatus::Stored`] only when pith itself
/// checked an Internet Archive capture of the version's PDF (`stored`: a WARC record whose
/// payload digest and paper it checked, or a CDX line whose digest is the SHA-1 of a PDF it
/// read for the version, as `pith index --captures` does); else [`RecordStatus::Verified`]
/// only when a receipt
/// signature in the record's bundle verifies with a trusted key (`flags.receipt_verified`, from
/// [`crate::verify::Bundle::flags`]); [`RecordStatus::Computed`] otherwise, and without a
/// bundle. A bundle stating `externally_anchored` is a statement
/// ([`crate::verify::Flags::claims`]), never a status.
///
/// # Examples
/// ```
/// use pith::badge::{status, RecordStatus};
/// let flags = pith::verify::Flags { receipt_verified: true, ..Default::default() };
/// assert_eq!(status(Some(&flags), false, false), RecordStatus::Verified);
/// assert_eq!(status(Some(&flags), false, true), RecordStatus::Stored);
/// assert_eq!(status(Some(&flags), true, true), RecordStatus::Anchored);
/// let stated = pith::verify::Flags {
///     externally_anchored: true,
///     storage_verified: true,
///     ..Default::default()
/// };
/// assert_eq!(status(Some(&stated), false, false), RecordStatus::Computed);
/// assert_eq!(status(None, false, false), RecordStatus::Computed);
/// ```
pub fn status(flags: Option<&crate::verify::Flags>, anchored: bool, stored: bool) -> RecordStatus {
    match flags {
        _ if anchored => RecordStatus::Anchored,
        _ if stored => RecordStatus::Stored,
        Some(f) if f.receipt_verified => RecordStatus::Verified,
        _ => RecordStatus::Computed,
    }
}

/// What a bundle gives the badge of a number ([`status_from_bundle`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleStatus {
    /// The status: [`status`] of the bundle's flags.
    pub status: RecordStatus,
    /// Why it is not [`RecordStatus::Verified`], when it is not.
    pub not_verified: Option<String>,
    /// What the bundle states that pith did not check.
    pub claims: Vec<crate::verify::StatedFlag>,
}

/// The status the bundle `bundle` gives the badge of `number`, receipts checked with `keys`.
///
/// # Errors
/// [`crate::verify::ErrorKind::NotVerified`] when the bundle is another number's: the wrong
/// file, not a lower status.
pub fn status_from_bundle(
    bundle: &crate::verify::Bundle,
    number: &crate::number::PithNumber,
    keys: &[crate::verify::Key],
) -> Result<BundleStatus, crate::verify::Error> {
    let own = bundle.record().number();
    if !own.matches(&crate::number::NumberRef::Full(number.clone())) {
        return Err(crate::verify::ErrorKind::NotVerified(format!(
            "the bundle is for {own}, not {}",
            number.full()
        ))
        .into());
    }
    let flags = bundle.flags(keys);
    let status = status(Some(&flags), false, false);
    let not_verified = match status {
        RecordStatus::Verified => None,
        _ => bundle
            .supports_verified(number, keys)
            .err()
            .map(|e| e.to_string()),
    };
    Ok(BundleStatus {
        status,
        not_verified,
        claims: flags.claims(),
    })
}

impl fmt::Display for RecordStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RecordStatus {
    type Err = Error;

    /// Parses `computed`, `verified`, `stored` or `anchored` (any of them: [`stated_status`] is what a
    /// caller may state).
    fn from_str(s: &str) -> Result<Self, Error> {
        RecordStatus::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| Error::new(ErrorKind::UnknownStatus(s.to_owned())))
    }
}

/// What a badge shows and how.
///
/// # Examples
/// ```
/// use pith::badge::{Look, RecordStatus, Style};
/// let o = Look::default().full(true).status(Some(RecordStatus::Verified)).style(Style::FlatSquare);
/// assert_eq!(o.get_style(), Style::FlatSquare);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    pub(crate) label: String,
    pub(crate) full: bool,
    pub(crate) status: Option<RecordStatus>,
    pub(crate) style: Style,
    pub(crate) qr: Option<u32>,
    pub(crate) dark: bool,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            label: super::DEFAULT_LABEL.into(),
            full: false,
            status: None,
            style: Style::default(),
            qr: None,
            dark: false,
        }
    }
}

impl Look {
    /// Sets the label of the first segment (default `pith`). Checked when the badge is built.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Shows the whole number (`2024:7BMK…R5`) instead of the short form (`7BMK4ZKT`).
    pub fn full(mut self, full: bool) -> Self {
        self.full = full;
        self
    }

    /// Adds (or, with `None`, removes) the status segment.
    pub fn status(mut self, status: Option<RecordStatus>) -> Self {
        self.status = status;
        self
    }

    /// Sets the style.
    pub fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    /// Adds a QR code of the record URL below the badge, `module_px` px per module (or none).
    pub fn qr(mut self, module_px: Option<u32>) -> Self {
        self.qr = module_px;
        self
    }

    /// Draws the dark colour scheme's colours only (for a page that picks its own image for
    /// dark pages, HTML's `<picture>`), instead of the light ones that switch to dark by
    /// themselves where the viewer applies the badge's CSS.
    pub fn dark(mut self, dark: bool) -> Self {
        self.dark = dark;
        self
    }

    /// Whether only the dark scheme's colours are drawn.
    pub fn get_dark(&self) -> bool {
        self.dark
    }

    /// The label.
    pub fn get_label(&self) -> &str {
        &self.label
    }

    /// Whether the whole number is shown.
    pub fn get_full(&self) -> bool {
        self.full
    }

    /// The status, if any.
    pub fn get_status(&self) -> Option<RecordStatus> {
        self.status
    }

    /// The style.
    pub fn get_style(&self) -> Style {
        self.style
    }

    /// The QR module size, if a QR code is drawn.
    pub fn get_qr(&self) -> Option<u32> {
        self.qr
    }

    pub(crate) fn check(&self) -> Result<(), Error> {
        check_text("label", &self.label)?;
        if self.label.trim().is_empty() {
            return Err(Error::new(ErrorKind::EmptyLabel));
        }
        let n = self.label.chars().count();
        if n > MAX_LABEL_CHARS {
            return Err(Error::new(ErrorKind::LabelTooLong { found: n }));
        }
        if let Some(px) = self.qr {
            if !QR_MODULE_PX.contains(&px) {
                return Err(Error::new(ErrorKind::QrModuleSize { found: px }));
            }
        }
        Ok(())
    }
}

/// Rejects control characters (C0, DEL, C1) in caller-given text.
pub(crate) fn check_text(field: &'static str, text: &str) -> Result<(), Error> {
    match text.chars().position(char::is_control) {
        Some(i) => Err(Error::new(ErrorKind::ControlCharacter {
            field,
            position: i + 1,
        })),
        None => Ok(()),
    }
}
