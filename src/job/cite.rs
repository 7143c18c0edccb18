//! The citation job: a paper's number and display fields ([`Details`]) as BibTeX (arXiv's
//! conventions: `eprint`, `archivePrefix`, `primaryClass`, `doi`, and the number in `pith`
//! and `note`), CSL-JSON (what citeproc processors and DOI resolvers' content negotiation
//! give) and RIS (what reference managers import). `pith cite`, the mirror's citation routes
//! and its export all call [`render`]; [`run`] first resolves an input through the one input
//! resolver ([`super::input`]).
//!
//! Texts are taken as arXiv publishes them: the title's LaTeX stays in BibTeX (as arXiv's own
//! export does); characters that would break a BibTeX entry (unbalanced braces) are escaped.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::input::RecordSource;
use super::{Error, ErrorKind};
use crate::net;
use crate::record::Details;
use crate::PithNumber;

/// A citation format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// BibTeX, one `@misc` entry.
    Bibtex,
    /// CSL-JSON, an array of one item.
    CslJson,
    /// RIS, one `TY` … `ER` record.
    Ris,
}

impl Format {
    /// Every format, in the order they are offered.
    pub const ALL: [Format; 3] = [Format::Bibtex, Format::CslJson, Format::Ris];

    /// The name `--format` takes: `bibtex`, `csl-json`, `ris`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Bibtex => "bibtex",
            Format::CslJson => "csl-json",
            Format::Ris => "ris",
        }
    }

    /// The media type DOI resolvers answer it under: `application/x-bibtex`,
    /// `application/vnd.citationstyles.csl+json`, `application/x-research-info-systems`.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::Bibtex => "application/x-bibtex",
            Format::CslJson => "application/vnd.citationstyles.csl+json",
            Format::Ris => "application/x-research-info-systems",
        }
    }

    /// The file name suffix, with its dot: `.bib`, `.csl.json`, `.ris`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Bibtex => ".bib",
            Format::CslJson => ".csl.json",
            Format::Ris => ".ris",
        }
    }

    /// The format of a media type (parameters such as `; charset=utf-8` ignored; `text/x-bibtex`
    /// and `application/x-bibtex` both name BibTeX).
    pub fn from_media_type(media: &str) -> Option<Format> {
        let m = media.split(';').next()?.trim().to_ascii_lowercase();
        match m.as_str() {
            "application/x-bibtex" | "text/x-bibtex" => Some(Format::Bibtex),
            "application/vnd.citationstyles.csl+json" => Some(Format::CslJson),
            "application/x-research-info-systems" => Some(Format::Ris),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("{s:?} is not a citation format (bibtex, csl-json, ris)"))
    }
}

/// The citation of the paper `details` whose number is `number`, in `format`; ends with a
/// newline.
///
/// # Examples
/// ```
/// use pith::job::cite::{render, Format};
/// use pith::record::Details;
/// let r = pith::Record::from_json(&std::fs::read_to_string(
///     concat!(env!("CARGO_MANIFEST_DIR"), "/examples/2402.03791v3.record.json"))?)?;
/// let d = Details::of(&r, "ZeroPP", "A. One and B. Two");
/// let bib = render(&r.number(), &d, Format::Bibtex);
/// assert!(bib.contains("eprint = {2402.03791v3}"));
/// assert!(bib.contains("doi = {10.48550/arXiv.2402.03791}"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(number: &PithNumber, details: &Details, format: Format) -> String {
    match format {
        Format::Bibtex => bibtex(number, details),
        Format::CslJson => {
            let mut s = serde_json::to_string_pretty(&Value::Array(vec![csl(number, details)]))
                .expect("a JSON value always serialises");
            s.push('\n');
            s
        }
        Format::Ris => ris(number, details),
    }
}

/// The entry key: `pith:` and the short code (`pith:7BMK4ZKT`), which bibtex, biber and
/// citeproc all take.
pub fn key(number: &PithNumber) -> String {
    number.short()
}

/// A BibTeX field value: braces balanced (else every brace escaped), newlines collapsed.
fn bib_value(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut depth = 0i64;
    let mut balanced = true;
    let mut escaped = false;
    for c in s.chars() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '{' if !escaped => depth += 1,
            '}' if !escaped => {
                depth -= 1;
                if depth < 0 {
                    balanced = false;
                }
            }
            _ => {}
        }
        escaped = false;
    }
    if balanced && depth == 0 && !s.ends_with('\\') {
        return s;
    }
    s.replace('\\', "\\textbackslash ")
        .replace('{', "\\{")
        .replace('}', "\\}")
}

fn bibtex(number: &PithNumber, d: &Details) -> String {
    let mut fields: Vec<(&str, String)> = Vec::new();
    if !d.title.is_empty() {
        fields.push(("title", bib_value(&d.title)));
    }
    if !d.authors.is_empty() {
        let names: Vec<String> = d.authors.iter().map(|a| bib_value(a)).collect();
        fields.push(("author", names.join(" and ")));
    }
    if let Some((y, m, day)) = d.submitted_date() {
        fields.push(("year", y.to_string()));
        fields.push(("month", MONTHS[usize::from(m) - 1].to_owned()));
        // Not a field of BibTeX's styles, which leave it out; reference managers (Zotero's
        // BibTeX importer) read the whole date from it.
        fields.push(("day", day.to_string()));
    }
    fields.push(("eprint", d.versioned_id()));
    fields.push(("archivePrefix", "arXiv".to_owned()));
    if !d.primary_cat.is_empty() {
        fields.push(("primaryClass", bib_value(&d.primary_cat)));
    }
    // Who published it, as arXiv's own listing says: reference managers (Zotero's BibTeX
    // importer) keep it as the publisher; the bibliography styles' @misc leaves it out.
    fields.push(("publisher", "arXiv".to_owned()));
    fields.push(("doi", d.doi()));
    fields.push(("url", d.arxiv_url()));
    fields.push(("pith", number.full()));
    fields.push(("note", format!("Pith Number {}", number.full())));
    let mut out = format!("@misc{{{},\n", key(number));
    for (k, v) in fields {
        if k == "month" {
            out.push_str(&format!("  {k} = {v},\n"));
        } else {
            out.push_str(&format!("  {k} = {{{v}}},\n"));
        }
    }
    out.push_str("}\n");
    out
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// A name as CSL's `family` and `given`: `Last, First` as written; else the last word is the
/// family name (a name in braces, or of one word, is a `literal`).
fn csl_name(name: &str) -> Value {
    let name = name.trim();
    if let Some((family, given)) = name.split_once(',') {
        return json!({"family": family.trim(), "given": given.trim()});
    }
    if name.starts_with('{') && name.ends_with('}') {
        return json!({"literal": name.trim_matches(['{', '}'])});
    }
    match name.rsplit_once(' ') {
        Some((given, family)) => json!({"family": family, "given": given}),
        None => json!({"literal": name}),
    }
}

fn csl(number: &PithNumber, d: &Details) -> Value {
    let mut item = serde_json::Map::new();
    item.insert("id".into(), json!(key(number)));
    item.insert("type".into(), json!("article"));
    if !d.title.is_empty() {
        item.insert("title".into(), json!(d.title));
    }
    if !d.authors.is_empty() {
        item.insert(
            "author".into(),
            Value::Array(d.authors.iter().map(|a| csl_name(a)).collect()),
        );
    }
    if let Some((y, m, day)) = d.submitted_date() {
        item.insert("issued".into(), json!({"date-parts": [[y, m, day]]}));
    }
    item.insert("publisher".into(), json!("arXiv"));
    item.insert("genre".into(), json!("Preprint"));
    // The paper's id, as arXiv numbers it, and the version in `note` (what Zotero reads into
    // a preprint's Archive ID and Extra, as its arXiv translator fills them).
    item.insert("number".into(), json!(format!("arXiv:{}", d.arxiv_id)));
    item.insert("DOI".into(), json!(d.doi()));
    item.insert("URL".into(), json!(d.arxiv_url()));
    if !d.primary_cat.is_empty() {
        item.insert("keyword".into(), json!(d.primary_cat));
    }
    item.insert(
        "note".into(),
        json!(format!(
            "{}\nPith Number {} ({})",
            d.extra(),
            number.full(),
            number.url()
        )),
    );
    Value::Object(item)
}

/// A RIS value: one line (RIS has no continuation lines).
fn ris_value(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A name as RIS writes it, `Last, First`.
fn ris_name(name: &str) -> String {
    let name = ris_value(name);
    if name.contains(',') {
        return name;
    }
    match name.rsplit_once(' ') {
        Some((given, family)) => format!("{family}, {given}"),
        None => name,
    }
}

/// RIS has no type for a preprint. A report is the one whose fields are a preprint's: the
/// institution that issued it (`PB`, arXiv) and its number there (`SN`, `arXiv:2402.03791`),
/// which Zotero keeps in the fields a preprint's repository and archive ID share; `UNPB` and
/// `GEN` import as journal articles, with the id in the issue.
fn ris(number: &PithNumber, d: &Details) -> String {
    let mut lines: Vec<(&str, String)> = vec![("TY", "RPRT".to_owned())];
    if !d.title.is_empty() {
        lines.push(("TI", ris_value(&d.title)));
    }
    for a in &d.authors {
        lines.push(("AU", ris_name(a)));
    }
    if let Some((y, m, day)) = d.submitted_date() {
        lines.push(("PY", y.to_string()));
        lines.push(("DA", format!("{y:04}/{m:02}/{day:02}/")));
    }
    lines.push(("PB", "arXiv".to_owned()));
    lines.push(("SN", format!("arXiv:{}", d.arxiv_id)));
    // A report's M1 is read into Extra, one line per M1.
    for line in d.extra().lines() {
        lines.push(("M1", ris_value(line)));
    }
    lines.push(("DO", d.doi()));
    lines.push(("UR", d.arxiv_url()));
    for s in d.subjects() {
        lines.push(("KW", ris_value(&s)));
    }
    lines.push((
        "N1",
        format!("Pith Number {} ({})", number.full(), number.url()),
    ));
    lines.push(("ER", String::new()));
    let mut out = String::new();
    for (tag, v) in lines {
        out.push_str(tag);
        out.push_str("  - ");
        out.push_str(&v);
        out.push('\n');
    }
    out
}

/// One citation to make: `pith cite` as data. The door fills it from its arguments; what is
/// left out is the library's default ([`super::defaults::CITE_FORMAT`], standard output).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CiteRequest {
    /// The paper: an arXiv id, a number (its record from the resolver or the cache), a
    /// record file (with its display fields, `title` and `authors`, beside it), an Atom entry.
    pub input: RecordSource,
    /// The format's name ([`Format::name`]; [`super::defaults::CITE_FORMAT`] when left out).
    #[serde(default)]
    pub format: Option<String>,
    /// Where the citation goes ([`CiteRequest::write`]): a file (whole, or not at all; its
    /// missing folders made) or `-`, standard output, when left out.
    #[serde(default)]
    pub output: Option<PathBuf>,
    /// Refuse to replace an output file that exists.
    #[serde(default)]
    pub no_clobber: bool,
    /// How to reach arXiv and the resolver (offline: the cache only): the door's environment
    /// (cache, callbacks), not written out with the request.
    #[serde(skip)]
    pub net: net::Settings,
}

impl CiteRequest {
    /// Refuses a format that is none of [`Format::ALL`] (the network settings are checked
    /// where they are made, [`net::Settings::validate`]).
    ///
    /// # Errors
    /// [`ErrorKind::Request`] for the format.
    pub fn validate(&self) -> Result<(), Error> {
        self.format().map(|_| ())
    }

    /// The format asked for, or the library's default.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] for a name that is no format.
    pub fn format(&self) -> Result<Format, Error> {
        self.format
            .as_deref()
            .unwrap_or(super::defaults::CITE_FORMAT)
            .parse()
            .map_err(|m| Error::new(ErrorKind::Request(m)))
    }

    /// Writes the citation of `report` where the request says (standard output when left
    /// out).
    ///
    /// # Errors
    /// As [`super::outputs::write_whole`].
    pub fn write(&self, report: &CiteReport) -> Result<(), Error> {
        let out = self.output.as_deref().unwrap_or(Path::new("-"));
        super::outputs::write_whole(out, report.text.as_bytes(), self.no_clobber)
    }
}

/// What [`run`] made: the number, the fields it was made from and the text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CiteReport {
    /// The number, `pith:YYYY:<26>`.
    pub number: String,
    /// The format.
    pub format: Format,
    /// The display fields the citation was made from.
    pub details: Details,
    /// The citation.
    pub text: String,
}

/// Resolves the input and renders its citation.
///
/// # Errors
/// As [`RecordSource::described`]: an input that names no record (a short alias), a record that
/// cannot be had (offline without the cache), a file's own errors; [`ErrorKind::Request`]
/// when the input gives no title (a bare canonical record holds only hashes of its texts),
/// since a citation without one names no paper a reader could find.
pub fn run(req: &CiteRequest) -> Result<CiteReport, Error> {
    req.validate()?;
    let format = req.format()?;
    let described = req.input.described(&req.net)?;
    let number = described.record.number();
    if number.year().is_none() {
        return Err(Error::new(ErrorKind::Input(
            crate::record::ErrorKind::NotARecord.into(),
        )));
    }
    if described.details.title.trim().is_empty() {
        let e = Error::new(ErrorKind::Request(format!(
            "no title to cite: the record of {number} holds only hashes of its texts; a citation \
             needs the paper's title, from the resolver's JSON (title and authors beside \
             canonical_record), its Atom entry or its arXiv id"
        )));
        return Err(match req.input.path() {
            Some(p) => e.in_file(p),
            None => e,
        });
    }
    Ok(CiteReport {
        number: number.full(),
        format,
        text: render(&number, &described.details, format),
        details: described.details,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper() -> (PithNumber, Details) {
        let r = crate::Record::from_json(include_str!("../../examples/2402.03791v3.record.json"))
            .unwrap();
        let d = Details::of(
            &r,
            "ZeroPP: {T}ensor & $\\Phi$",
            "A. One (MIT), B. {van} Two and Jean-Paul Three",
        );
        (r.number(), d)
    }

    #[test]
    fn bibtex_follows_arxiv() {
        let (n, d) = paper();
        let b = render(&n, &d, Format::Bibtex);
        for want in [
            "@misc{pith:7BMK4ZKT,\n",
            "  title = {ZeroPP: {T}ensor & $\\Phi$},\n",
            "  author = {A. One and B. {van} Two and Jean-Paul Three},\n",
            "  year = {2024},\n  month = feb,\n  day = {6},\n",
            "  eprint = {2402.03791v3},\n  archivePrefix = {arXiv},\n  primaryClass = {cs.DC},\n",
            "  publisher = {arXiv},\n  doi = {10.48550/arXiv.2402.03791},\n",
            "  pith = {pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5},\n",
        ] {
            assert!(b.contains(want), "{want:?} not in\n{b}");
        }
        assert!(b.ends_with("}\n"));
        let odd = Details {
            title: "a } b {".into(),
            ..d
        };
        assert!(render(&n, &odd, Format::Bibtex).contains("title = {a \\} b \\{}"));
    }

    #[test]
    fn csl_and_ris() {
        let (n, d) = paper();
        let v: Value = serde_json::from_str(&render(&n, &d, Format::CslJson)).unwrap();
        let item = &v[0];
        assert_eq!(item["DOI"], "10.48550/arXiv.2402.03791");
        assert_eq!(item["author"][2]["family"], "Three");
        assert_eq!(item["author"][2]["given"], "Jean-Paul");
        assert_eq!(item["issued"]["date-parts"][0][0], 2024);
        assert_eq!(item["number"], "arXiv:2402.03791");
        assert!(item["note"]
            .as_str()
            .unwrap()
            .starts_with("arXiv:2402.03791 [cs.DC]\nversion: 3\nPith Number pith:2024:"));
        let r = render(&n, &d, Format::Ris);
        assert!(
            r.starts_with("TY  - RPRT\n") && r.ends_with("ER  - \n"),
            "{r}"
        );
        assert!(r.contains("AU  - Three, Jean-Paul\n"), "{r}");
        assert!(r.contains("DO  - 10.48550/arXiv.2402.03791\n"), "{r}");
        for want in [
            "PB  - arXiv\nSN  - arXiv:2402.03791\n",
            "M1  - arXiv:2402.03791 [cs.DC]\nM1  - version: 3\n",
            "KW  - Computer Science - Distributed, Parallel, and Cluster Computing\n",
        ] {
            assert!(r.contains(want), "{want:?} not in\n{r}");
        }
    }

    #[test]
    fn formats_by_name_and_media_type() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
            assert_eq!(Format::from_media_type(f.media_type()), Some(f));
        }
        assert_eq!(
            Format::from_media_type("text/x-bibtex; charset=utf-8"),
            Some(Format::Bibtex)
        );
        assert!("bib".parse::<Format>().is_err());
    }
}
