//! Escaping of caller text for the formats pith writes: XML, HTML attributes, TeX, Markdown,
//! AsciiDoc and URLs.
//!
//! This module owns every escaping rule (XML escaping was written three times, TeX
//! escaping twice). Each function is pure, total and returns the escaped text; refusing input
//! that cannot be escaped (a TeX file name with `%`) is the caller's decision.
//!
//! ```
//! use pith::escape;
//! assert_eq!(escape::xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
//! assert_eq!(escape::tex("50% of a_b"), r"50\% of a\_b");
//! assert_eq!(escape::markdown_text("a]b"), r"a\]b");
//! ```

pub use pith_pdf::xml::escape as xml;
use pith_pdf::xml::push_escaped as push_xml;

/// Escapes text for an HTML attribute value in either kind of quotes: [`xml`] plus `'` as
/// `&#39;`.
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::html_attr("a&b\"<'"), "a&amp;b&quot;&lt;&#39;");
/// ```
pub fn html_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\'' {
            out.push_str("&#39;");
        } else if !push_xml(&mut out, c) {
            out.push(c);
        }
    }
    out
}

/// Escapes text for TeX so that it typesets (and writes to a file or PDF string) as itself.
///
/// The ten special characters `\ { } $ & # ^ _ % ~` become control sequences that print
/// them; everything else is kept. The result is safe inside a macro argument and a `\def`.
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::tex("50% of a_b"), r"50\% of a\_b");
/// assert_eq!(pith::escape::tex(r"\input{x}"), r"\textbackslash{}input\{x\}");
/// ```
pub fn tex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str(r"\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str(r"\textasciicircum{}"),
            '~' => out.push_str(r"\textasciitilde{}"),
            _ => out.push(c),
        }
    }
    out
}

/// The characters TeX acts on in running text (besides the space).
pub const TEX_SPECIALS: &str = "\\{}$&#^_%~";

/// Escapes text that TeX writes verbatim into XML (XMP descriptions in `pith.sty`): [`xml`]'s
/// entities, and the characters TeX would act on ([`TEX_SPECIALS`] but `&`) dropped rather
/// than written as control sequences into XML.
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::xml_in_tex("a<b>_%"), "a&lt;b&gt;");
/// ```
pub fn xml_in_tex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !push_xml(&mut out, c) && !TEX_SPECIALS.contains(c) {
            out.push(c);
        }
    }
    out
}

/// Percent-encodes spaces, the characters RFC 3986 never allows (`"<>\^`{|}`) and `extra`
/// (ASCII bytes); every other character is kept.
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::url("a b(c)", b"()"), "a%20b%28c%29");
/// ```
pub fn url(s: &str, extra: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let bad = c == ' '
            || (c.is_ascii()
                && (b"\"<>\\^`{|}".contains(&(c as u8)) || extra.contains(&(c as u8))));
        if bad {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Markdown link text: a backslash before every ASCII punctuation character that CommonMark
/// could read as markup (`]` would end the alt text).
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::markdown_text("a]b[c"), r"a\]b\[c");
/// ```
pub fn markdown_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_{}[]()<>#+-!|~&".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Markdown link destination: [`url`] with parentheses percent-encoded too.
pub fn markdown_url(s: &str) -> String {
    url(s, b"()")
}

/// AsciiDoc double-quoted attribute value: `\`, `"` and `]` (which would end the macro)
/// escaped with a backslash.
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::asciidoc_quoted("a]\"b"), "a\\]\\\"b");
/// ```
pub fn asciidoc_quoted(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(']', "\\]")
}

/// URL argument of hyperref's `\href`: [`url`]-encoded, then `#` and `%` escaped as hyperref
/// documents.
///
/// # Examples
/// ```
/// assert_eq!(pith::escape::tex_url("https://x/a#b%20"), r"https://x/a\#b\%20");
/// ```
pub fn tex_url(s: &str) -> String {
    url(s, b"").replace('#', "\\#").replace('%', "\\%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_round_trips_through_a_parser() {
        let nasty = "a<b>&c\"d'e]]>";
        let doc = format!("<r a=\"{}\">{}</r>", xml(nasty), xml(nasty));
        let d = roxmltree::Document::parse(&doc).unwrap();
        assert_eq!(d.root_element().attribute("a"), Some(nasty));
        assert_eq!(d.root_element().text(), Some(nasty));
    }

    #[test]
    fn tex_escapes_every_special() {
        for c in TEX_SPECIALS.chars() {
            let e = tex(&c.to_string());
            assert!(e.starts_with('\\') && e.len() > 1, "{c} -> {e}");
        }
        assert_eq!(tex("é plain"), "é plain");
        assert_eq!(xml_in_tex("x&y"), "x&amp;y");
    }

    #[test]
    fn urls() {
        assert_eq!(url("a\"b", b""), "a%22b");
        assert_eq!(markdown_url("a b(c)"), "a%20b%28c%29");
        assert_eq!(html_attr("'"), "&#39;");
    }
}
