//! Snippets that embed a badge in Markdown, HTML, reStructuredText, AsciiDoc and LaTeX.
//!
//! Each snippet links the badge image to the verification URL `https://pith.science/pith/<26>`
//! and carries the badge's accessible name (full number and status) as alt text. The templates
//! are `templates/snippet.<format>.tera`, rendered with Tera with auto-escaping off: every value
//! is escaped here for its target format and its place (text, URL, attribute) before it reaches
//! a template.

use std::fmt;
use std::str::FromStr;

use crate::escape::{
    asciidoc_quoted as adoc_quoted, html_attr, markdown_text as md_text, markdown_url as md_url,
    tex as tex_text, tex_url, url as encode_url,
};
use crate::number::PithNumber;

use super::{accessible_name, check_text, dimensions, Error, ErrorKind, ImageFormat, Look};

/// Target format of a snippet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown (CommonMark): `[![alt](src)](url)`.
    Markdown,
    /// HTML: `<a href><img alt></a>`, with a `<picture>` when a dark-scheme image is given.
    Html,
    /// reStructuredText: an `image` directive with `:alt:` and `:target:`.
    Rst,
    /// AsciiDoc: an inline `image:` macro with `alt` and `link`.
    AsciiDoc,
    /// LaTeX: `\href` around `\includegraphics` (graphicx and hyperref).
    Latex,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [
        Format::Markdown,
        Format::Html,
        Format::Rst,
        Format::AsciiDoc,
        Format::Latex,
    ];

    /// The format's short name (`md`, `html`, `rst`, `adoc`, `tex`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Rst => "rst",
            Format::AsciiDoc => "adoc",
            Format::Latex => "tex",
        }
    }

    fn template(self) -> &'static str {
        match self {
            Format::Markdown => include_str!("../../templates/snippet.md.tera"),
            Format::Html => include_str!("../../templates/snippet.html.tera"),
            Format::Rst => include_str!("../../templates/snippet.rst.tera"),
            Format::AsciiDoc => include_str!("../../templates/snippet.adoc.tera"),
            Format::Latex => include_str!("../../templates/snippet.tex.tera"),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    /// Parses `md`, `html`, `rst`, `adoc` or `tex`.
    fn from_str(s: &str) -> Result<Self, Error> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| Error::new(ErrorKind::UnknownFormat(s.to_owned())))
    }
}

/// What a snippet embeds: the badge's options (for its alt text and size) and where the image is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SnippetOptions {
    /// The badge the snippet shows; its label, status and size go into the snippet.
    pub badge: Look,
    /// URL or path of the badge image; `None` means `pith-<8 characters>.svg` (`.pdf` for
    /// LaTeX, which cannot include SVG), the name `pith badge -o` is suggested to write.
    pub src: Option<String>,
    /// HTML only: a badge image for the dark colour scheme, wrapped in `<picture>`.
    pub dark_src: Option<String>,
    /// LaTeX only: where the PDF badge can be downloaded (a mirror's `/badge/<26>.pdf`), named
    /// in the snippet's comment beside the `pith badge` command that writes it.
    pub download: Option<String>,
}

impl SnippetOptions {
    /// Refuses an image option the format cannot carry: `dark_src` beside any format but
    /// HTML, `download` beside any but LaTeX.
    ///
    /// # Errors
    /// [`ErrorKind::NotForFormat`], naming the option and the format that takes it.
    pub fn check(&self, format: Format) -> Result<(), Error> {
        if self.dark_src.is_some() && format != Format::Html {
            return Err(Error::new(ErrorKind::NotForFormat {
                option: "dark_src",
                only: "html",
            }));
        }
        if self.download.is_some() && format != Format::Latex {
            return Err(Error::new(ErrorKind::NotForFormat {
                option: "download",
                only: "tex",
            }));
        }
        Ok(())
    }
}

/// The default image name for `number` in `format`: the PDF badge for LaTeX, else the SVG.
pub fn default_src(number: &PithNumber, format: Format) -> String {
    let image = if format == Format::Latex {
        ImageFormat::Pdf
    } else {
        ImageFormat::Svg
    };
    file_name(number, image)
}

/// The file name of `number`'s badge image in `format` (`pith-7BMK4ZKT.svg`): what snippets
/// point to, and what `pith badge -o FOLDER/` writes.
pub fn file_name(number: &PithNumber, format: ImageFormat) -> String {
    format!("pith-{}.{}", &number.code()[..8], format.name())
}

/// Renders the snippet that embeds the badge of `number` in `format`.
///
/// # Errors
/// The badge's errors (see [`super::svg`]); [`ErrorKind::ControlCharacter`] or
/// [`ErrorKind::EmptySource`] for a bad `src`/`dark_src`/`download`; [`ErrorKind::LatexImage`]
/// for a LaTeX snippet of an SVG or a URL; [`ErrorKind::UnsupportedCharacter`]
/// for a LaTeX image path holding `%`, `#`, `&`, `$`, `^`, `~`, `{`, `}` or `\`;
/// [`ErrorKind::NotForFormat`] for `dark_src` beside any format but HTML or `download` beside
/// any but LaTeX; [`ErrorKind::Template`] if a template fails (a bug).
///
/// # Examples
/// ```
/// use pith::badge::{snippet, Format, SnippetOptions};
/// let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
/// let md = snippet(&n, Format::Markdown, &SnippetOptions::default())?;
/// assert_eq!(md, "[![Pith Number pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5](pith-7BMK4ZKT.svg)]\
///                 (https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5)\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn snippet(
    number: &PithNumber,
    format: Format,
    opts: &SnippetOptions,
) -> Result<String, Error> {
    opts.check(format)?;
    let (width, height) = dimensions(number, &opts.badge)?;
    let src = match &opts.src {
        Some(s) => checked_src("src", s)?.to_owned(),
        None => default_src(number, format),
    };
    let dark_src = match &opts.dark_src {
        Some(s) => Some(checked_src("dark_src", s)?.to_owned()),
        None => None,
    };
    let alt = accessible_name(number, &opts.badge);
    let url = number.url();
    let mut ctx = tera::Context::new();
    ctx.insert("width", &width);
    ctx.insert("height", &height);
    ctx.insert("number", &number.full());
    match format {
        Format::Markdown => {
            ctx.insert("alt", &md_text(&alt));
            ctx.insert("src", &md_url(&src));
            ctx.insert("url", &md_url(&url));
        }
        Format::Html => {
            ctx.insert("alt", &html_attr(&alt));
            ctx.insert("src", &html_attr(&encode_url(&src, b"")));
            ctx.insert("url", &html_attr(&url));
            // In srcset a comma or space would start another candidate.
            ctx.insert(
                "dark_src",
                &dark_src.map(|d| html_attr(&encode_url(&d, b","))),
            );
        }
        Format::Rst => {
            // Option values are plain text to the end of the line; control characters (line
            // breaks) were rejected. Whitespace in a URI would be dropped by docutils.
            ctx.insert("alt", &alt);
            ctx.insert("src", &encode_url(&src, b""));
            ctx.insert("url", &url);
        }
        Format::AsciiDoc => {
            ctx.insert("alt", &adoc_quoted(&alt));
            ctx.insert("src", &encode_url(&src, b"[]"));
            ctx.insert("url", &adoc_quoted(&url));
        }
        Format::Latex => {
            latex_image(&src)?;
            ctx.insert("alt", &tex_text(&alt));
            ctx.insert("src", &tex_path(&src)?);
            ctx.insert("url", &tex_url(&url));
            // The comment names the command that writes the very file the snippet includes,
            // with the options that make this badge; another kind of image (a PNG) is the
            // caller's own.
            let is_pdf = src.to_ascii_lowercase().ends_with(".pdf");
            ctx.insert(
                "command",
                &is_pdf
                    .then(|| badge_command(number, &opts.badge, &src))
                    .flatten(),
            );
            let download = match &opts.download {
                Some(d) => Some(checked_src("download", d)?.to_owned()),
                None => None,
            };
            ctx.insert("download", &download);
        }
    }
    tera::Tera::one_off(format.template(), &ctx, false)
        .map_err(|e| Error::new(ErrorKind::Template(e)))
}

/// Refuses an image pdfLaTeX cannot include: an SVG (its graphics drivers read PDF, PNG and
/// JPEG) or a URL (`\includegraphics` reads local files only).
fn latex_image(src: &str) -> Result<(), Error> {
    let lower = src.to_ascii_lowercase();
    let path = lower.split(['?', '#']).next().unwrap_or("");
    if path.ends_with(".svg") || path.ends_with(".svgz") {
        return Err(Error::new(ErrorKind::LatexImage(format!(
            "pdfLaTeX cannot include the SVG {src}: give --src the PDF badge \
             (pith badge --format pdf -o FILE.pdf writes it), or leave --src out for pith-<8 characters>.pdf"
        ))));
    }
    if lower.contains("://") {
        return Err(Error::new(ErrorKind::LatexImage(format!(
            "LaTeX includes local files, not URLs like {src}: save the PDF badge beside the paper \
             and give --src its file name"
        ))));
    }
    Ok(())
}

/// The `pith badge` command that writes the PDF badge `out` with `opts`' look; `None` for a
/// label TeX would read as markup even in a comment's copy (the caller's own badge, then).
fn badge_command(number: &PithNumber, opts: &Look, out: &str) -> Option<String> {
    if opts
        .label
        .contains(['\\', '{', '}', '%', '$', '&', '#', '^', '~', '_', '\''])
    {
        return None;
    }
    let mut c = String::from("pith badge --format pdf");
    if opts.full {
        c.push_str(" --full");
    }
    if opts.style != super::Style::default() {
        c.push_str(&format!(" --style {}", opts.style.name()));
    }
    if opts.label != Look::default().label {
        c.push_str(&format!(" --label '{}'", opts.label));
    }
    match opts.status {
        Some(super::RecordStatus::Computed) => c.push_str(" --status computed"),
        // Only a bundle whose receipt verifies makes a badge say more than computed.
        Some(_) => c.push_str(" --bundle bundle.json"),
        None => {}
    }
    if let Some(px) = opts.qr {
        c.push_str(" --qr");
        if px != 2 {
            c.push_str(&format!(" --qr-module {px}"));
        }
    }
    if opts.dark {
        c.push_str(" --dark");
    }
    // A comment line ends only at a line break, which every caller text was checked for.
    c.push_str(&format!(" -o {out} {}", number.full()));
    Some(c)
}

fn checked_src<'a>(field: &'static str, s: &'a str) -> Result<&'a str, Error> {
    check_text(field, s)?;
    if s.trim().is_empty() {
        return Err(Error::new(ErrorKind::EmptySource));
    }
    Ok(s.trim())
}

/// File argument of `\includegraphics`: TeX reads it as tokens, so `%` would start a comment,
/// `#`, `&`, `$`, `^`, `~` and braces would break the argument or the file lookup and `\` would
/// start a command; such names are refused (rename the file) rather than escaped into something
/// TeX would not find.
fn tex_path(s: &str) -> Result<String, Error> {
    match s.chars().find(|c| "%#{}\\&$^~".contains(*c)) {
        Some(c) => Err(Error::new(ErrorKind::UnsupportedCharacter {
            field: "src",
            character: c,
        })),
        None => Ok(s.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(md_text("a]b[c"), "a\\]b\\[c");
        assert_eq!(html_attr("a&b\"<"), "a&amp;b&quot;&lt;");
        assert_eq!(tex_text("a_b#c%d"), "a\\_b\\#c\\%d");
        assert_eq!(tex_url("https://x/a#b%20"), "https://x/a\\#b\\%20");
        assert_eq!(adoc_quoted("a]\"b"), "a\\]\\\"b");
        assert_eq!(md_url("a b(c)"), "a%20b%28c%29");
    }

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
        }
        assert!(matches!(
            "docx".parse::<Format>().unwrap_err().kind(),
            ErrorKind::UnknownFormat(_)
        ));
    }
}
