//! One line of the arXiv metadata snapshot (`arxiv-metadata-oai-snapshot.json`, JSON Lines) →
//! [`RawMeta`].
//!
//! A line is an object with `id`, `title`, `abstract`, `categories` (space-separated, primary
//! first), `license` (a URL or `null`) and `versions` (`[{"version":"v1","created":"Mon, 2 Apr
//! 2007 19:18:42 GMT"}, …]`) and `authors` (one string, kept for display); other fields
//! (`authors_parsed`, `doi`…) are skipped without being built. Strings without escapes are borrowed from the line, not copied.

use std::borrow::Cow;

use serde::Deserialize;

use super::RawMeta;

#[derive(Deserialize)]
struct Version<'a> {
    #[serde(borrow)]
    version: Cow<'a, str>,
    #[serde(borrow)]
    created: Cow<'a, str>,
}

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    title: Cow<'a, str>,
    #[serde(borrow, rename = "abstract")]
    abstract_text: Cow<'a, str>,
    #[serde(borrow)]
    categories: Cow<'a, str>,
    #[serde(borrow, default)]
    license: Option<Cow<'a, str>>,
    #[serde(borrow)]
    versions: Vec<Version<'a>>,
    #[serde(borrow, default)]
    authors: Cow<'a, str>,
}

#[derive(Deserialize)]
struct IdOnly<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
}

/// Parses one snapshot line.
///
/// # Errors
/// A one-line reason: not JSON, not an object, or a required field missing or of the wrong type.
///
/// # Examples
/// ```
/// let line = br#"{"id":"0704.0001","title":"A title","abstract":"  Text.\n","categories":"hep-ph",
///   "license":null,"versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}]}"#;
/// let raw = pith::record::arxiv::snapshot::parse_line(line)?;
/// assert_eq!(raw.id, "0704.0001");
/// assert_eq!(raw.license, None);
/// # Ok::<(), String>(())
/// ```
pub fn parse_line(line: &[u8]) -> Result<RawMeta, String> {
    let l: Line = serde_json::from_slice(line).map_err(|e| reason(&e))?;
    Ok(RawMeta {
        id: l.id.into_owned(),
        title: l.title.into_owned(),
        abstract_text: l.abstract_text.into_owned(),
        categories: l.categories.into_owned(),
        license: l.license.map(Cow::into_owned),
        versions: l
            .versions
            .into_iter()
            .map(|v| (v.version.into_owned(), v.created.into_owned()))
            .collect(),
        authors: l.authors.into_owned(),
    })
}

/// Reads only the `id` of a snapshot line: what a matcher needs to decide whether the line is
/// wanted at all. The snapshot writes `"id"` as the first key and ids need no escapes, so the
/// id is taken from the line's start without parsing the rest (a matcher reads gigabytes of
/// lines it does not want: the benchmark's "< 10 %" target); any other shape is parsed in full.
/// The rest of the line is not checked here: [`parse_line`] checks the lines that are wanted.
///
/// # Errors
/// As [`parse_line`], for the `id` field.
///
/// # Examples
/// ```
/// use pith::record::arxiv::snapshot::parse_id;
/// assert_eq!(parse_id(br#"{"id":"hep-th/9901001","title":"#).unwrap(), "hep-th/9901001");
/// assert_eq!(parse_id(br#"{"title":"T","id":"0704.0001"}"#).unwrap(), "0704.0001");
/// ```
pub fn parse_id(line: &[u8]) -> Result<String, String> {
    if let Some(id) = leading_id(line) {
        return Ok(id.to_owned());
    }
    let l: IdOnly = serde_json::from_slice(line).map_err(|e| reason(&e))?;
    Ok(l.id.into_owned())
}

/// `{ "id" : "ID"` at the start of the line, ID of plain printable ASCII (no escapes).
fn leading_id(line: &[u8]) -> Option<&str> {
    let ws = |b: &[u8]| -> usize { b.iter().take_while(|c| c.is_ascii_whitespace()).count() };
    let mut at = ws(line);
    let expect = |b: &[u8], lit: &[u8], at: &mut usize| -> Option<()> {
        *at += ws(&b[*at..]);
        b[*at..].starts_with(lit).then(|| *at += lit.len())
    };
    expect(line, b"{", &mut at)?;
    expect(line, b"\"id\"", &mut at)?;
    expect(line, b":", &mut at)?;
    expect(line, b"\"", &mut at)?;
    let rest = &line[at..];
    let end = memchr::memchr(b'"', rest)?;
    let id = &rest[..end];
    if id.is_empty() || !id.iter().all(|b| (0x21..0x7f).contains(b) && *b != b'\\') {
        return None;
    }
    std::str::from_utf8(id).ok()
}

/// serde_json's message without its "at line 1 column N" tail replaced by the column alone
/// (the caller names the file line).
fn reason(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(m, _)| m)
        .to_owned();
    format!("{msg} (column {})", e.column())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"id":"hep-th/9901001","submitter":"X","authors":"A. B","title":"A title\n  with  breaks","comments":null,"journal-ref":null,"doi":null,"report-no":null,"categories":"hep-th gr-qc","license":null,"abstract":"  An \"abstract\".\n","versions":[{"version":"v1","created":"Fri, 1 Jan 1999 09:00:00 GMT"},{"version":"v2","created":"Tue, 5 Jan 1999 10:00:00 GMT"}],"update_date":"2008-02-03","authors_parsed":[["B","A.",""]]}"#;

    #[test]
    fn reads_a_real_shaped_line() {
        let raw = parse_line(LINE.as_bytes()).unwrap();
        assert_eq!(raw.id, "hep-th/9901001");
        assert_eq!(raw.title, "A title\n  with  breaks");
        assert_eq!(raw.abstract_text, "  An \"abstract\".\n");
        assert_eq!(raw.versions.len(), 2);
        assert_eq!(raw.authors, "A. B");
        let p = raw.to_paper().unwrap();
        assert_eq!(
            (p.version, p.submitted.as_str()),
            (2, "1999-01-01T09:00:00Z")
        );
        assert_eq!(parse_id(LINE.as_bytes()).unwrap(), "hep-th/9901001");
        // Python's default separators, and shapes the fast path leaves to serde.
        assert_eq!(
            parse_id(b" { \"id\" : \"0704.0001\", \"x\": 1}").unwrap(),
            "0704.0001"
        );
        assert_eq!(parse_id(br#"{"id":"a\/b"}"#).unwrap(), "a/b");
        assert_eq!(parse_id(br#"{"idx":"1","id":"2"}"#).unwrap(), "2");
        assert!(parse_id(br#"{"id":""}"#).unwrap().is_empty());
        assert!(parse_id(br#"{"id":3}"#).is_err());
        assert!(parse_id(b"not json").is_err());
    }

    #[test]
    fn bad_lines_give_reasons() {
        for (line, want) in [
            ("{\"id\":\"1\"", "EOF"),
            ("[]", "invalid length"),
            (
                &LINE.replace("\"title\"", "\"titel\""),
                "missing field `title`",
            ),
            (
                &LINE.replace("\"license\":null", "\"license\":3"),
                "invalid type",
            ),
        ] {
            let e = parse_line(line.as_bytes()).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
            assert!(e.contains("(column "), "{e}");
        }
    }
}
