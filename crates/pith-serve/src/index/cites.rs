//! What indexed papers cite and which indexed papers cite them: the lines `pith refs` writes
//! ([`pith::job::refs::Reference`]), stored as edges (`cites`), resolved against the index when
//! read ([`Index::cites`]), and written out in OpenCitations' shape ([`Index::open_citations`]).
//!
//! An edge is stored as the paper's reference list said it (the citing arXiv id, the cited
//! arXiv id or DOI, where it was read); whether the cited work is a paper of the index is
//! decided when a page is made, so a paper indexed later is found by the papers that cite it.
//! A paper's references given again replace the ones it had.

use std::collections::HashSet;

use pith::job::refs::Reference;
use rusqlite::{params, Connection};
use serde::Serialize;

use super::{Entry, Error, Index};

/// The side table of edges, created by a build given references (an index without it reads
/// as citing nothing).
pub const CITES: &str = "
CREATE TABLE IF NOT EXISTS cites (
  citing TEXT NOT NULL,          -- arXiv id of the citing paper, without version
  citing_version INTEGER,        -- the version whose reference list was read, when known
  kind TEXT NOT NULL,            -- 'arxiv' or 'doi'
  cited TEXT NOT NULL,           -- arXiv id without version, or the DOI in lower case
  cited_version INTEGER,         -- the version the reference names, when it names one
  evidence TEXT NOT NULL,        -- where it was read: 'page 12, line 30' or 'main.bbl, line 4'
  PRIMARY KEY (citing, kind, cited)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS cites_cited ON cites(kind, cited);
";

/// Longest line of a references file read (a line is one identifier and where it was read).
const MAX_LINE: usize = 64 << 10;
/// The most lines one references file gives `bad`: the rest are counted in one more line.
const MAX_BAD_LINES: u64 = 100;

/// Stores the lines of the references files `files`, read through [`pith::bounded`]; a line
/// that is no reference, or whose file's name gave no citing paper, goes to `bad` and is
/// skipped, and so does a file that cannot be read (one line). Returns how many edges were
/// stored.
///
/// # Errors
/// [`super::ErrorKind::Sqlite`].
pub(crate) fn put_refs(
    conn: &Connection,
    files: &[std::path::PathBuf],
    bad: &mut dyn FnMut(String),
) -> Result<u64, Error> {
    conn.execute_batch(CITES)?;
    let mut replaced: HashSet<String> = HashSet::new();
    let mut stored = 0;
    for file in files {
        // A file that cannot be read, or goes past its bounds (a damaged gzip, more lines
        // than a references file holds), is one line in `bad`: the lines read before stay,
        // and the other files are read.
        let mut failed: Option<Error> = None;
        let read = (|| -> Result<(), pith::bounded::Error> {
            // A write to the index that fails ends the build (kept aside, as the reading's
            // error type cannot carry it).
            let mut sql = |r: rusqlite::Result<usize>| {
                r.map_err(|e| {
                    failed = Some(e.into());
                    pith::bounded::Error::from(pith::bounded::ErrorKind::Io(std::io::Error::other(
                        "the index cannot be written",
                    )))
                })
            };
            let (_, stream) = pith::decompress::open(file)
                .map_err(|e| pith::bounded::Error::from(pith::bounded::ErrorKind::Io(e)))?;
            let bounds = pith::bounded::Bounds {
                line_bytes: MAX_LINE,
                ..pith::bounded::Bounds::default()
            };
            let mut lines = pith::bounded::Lines::new(
                std::io::BufReader::new(pith::bounded::Reader::new(stream, &bounds)),
                &bounds,
            );
            let mut skipped = 0u64;
            let mut i = 0u64;
            while let Some(line) = lines.next_line()? {
                i += 1;
                let at = || format!("{}:{i}", file.display());
                // One file's reasons are kept up to a bound; the rest are counted.
                let mut note = |why: String| {
                    skipped += 1;
                    if skipped <= MAX_BAD_LINES {
                        bad(why);
                    }
                };
                let line = match line {
                    pith::bounded::Line::Text(t) => t,
                    pith::bounded::Line::TooLong(_) => {
                        note(format!(
                            "{}: the line is longer than {MAX_LINE} bytes",
                            at()
                        ));
                        continue;
                    }
                };
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let r: Reference = match pith::bounded::json::parse(line, MAX_LINE as u64) {
                    Ok(r) => r,
                    Err(e) => {
                        note(format!("{}: not a line of pith refs: {e}", at()));
                        continue;
                    }
                };
                match edge(&r) {
                    Ok(e) => {
                        if replaced.insert(e.citing.clone()) {
                            sql(conn.execute("DELETE FROM cites WHERE citing = ?1", [&e.citing]))?;
                        }
                        stored += sql(conn.execute(
                            "INSERT OR IGNORE INTO cites (citing, citing_version, kind, cited, \
                             cited_version, evidence) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                            params![
                                e.citing,
                                e.citing_version,
                                e.kind,
                                e.cited,
                                e.cited_version,
                                e.evidence
                            ],
                        ))? as u64;
                    }
                    Err(why) => note(format!("{}: {why}", at())),
                }
            }
            if skipped > MAX_BAD_LINES {
                bad(format!(
                    "{}: {} more lines not read",
                    file.display(),
                    skipped - MAX_BAD_LINES
                ));
            }
            Ok(())
        })();
        match read {
            Ok(()) => {}
            Err(e) => match failed.take() {
                Some(sqlite) => return Err(sqlite),
                None => bad(format!("{}: {e}", file.display())),
            },
        }
    }
    Ok(stored)
}

/// One stored edge.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edge {
    citing: String,
    citing_version: Option<u32>,
    kind: &'static str,
    cited: String,
    cited_version: Option<u32>,
    evidence: String,
}

fn edge(r: &Reference) -> Result<Edge, String> {
    let citing = r
        .citing
        .as_deref()
        .ok_or("no citing paper (name the PDF or tar as arXiv does: 2402.03791v3.pdf)")?;
    let (citing, citing_version) = pith::record::split_versioned_id(citing);
    if !pith::record::is_arxiv_id(&citing) {
        return Err(format!("{citing:?} is not an arXiv id"));
    }
    let (kind, cited) = match (&r.arxiv, &r.doi) {
        (Some(a), None) if pith::record::is_arxiv_id(a) => ("arxiv", a.clone()),
        (None, Some(d)) if d.starts_with("10.") && d.contains('/') => {
            ("doi", d.to_ascii_lowercase())
        }
        _ => return Err("neither an arXiv id nor a DOI".into()),
    };
    let evidence = match (&r.member, r.page) {
        (_, Some(p)) => format!("page {p}, line {}", r.line),
        (Some(m), None) => format!("{m}, line {}", r.line),
        (None, None) => format!("line {}", r.line),
    };
    Ok(Edge {
        citing,
        citing_version,
        kind,
        cited,
        cited_version: r.version,
        evidence,
    })
}

/// A paper of the index, as a link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paper {
    /// Its number's 26 characters.
    pub code: String,
    /// Its number, full form.
    pub pith_number: String,
    /// arXiv id and version.
    pub arxiv_id: String,
    /// The version.
    pub version: u32,
    /// Title (empty when the source gave none).
    pub title: String,
}

impl Paper {
    fn of(e: &Entry) -> Paper {
        Paper {
            code: e.number.code().to_owned(),
            pith_number: e.number.full(),
            arxiv_id: e.arxiv_id.clone(),
            version: e.version,
            title: e.title.clone(),
        }
    }
}

/// One reference a paper's list gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cited {
    /// `arxiv` or `doi`.
    pub kind: String,
    /// The arXiv id (without version) or the DOI (lower case).
    pub id: String,
    /// The version the reference names.
    pub version: Option<u32>,
    /// Where it was read in the citing paper.
    pub evidence: String,
    /// The paper of the index it is, when it is one.
    pub paper: Option<Paper>,
}

impl Cited {
    /// Where the cited work is: its page here, else arXiv or doi.org.
    pub fn url(&self) -> String {
        match (&self.paper, self.kind.as_str()) {
            (Some(p), _) => format!("pith/{}", p.code),
            (None, "arxiv") => format!("https://arxiv.org/abs/{}", self.id),
            (None, _) => format!("https://doi.org/{}", self.id),
        }
    }
}

/// A paper's references and the papers of the index that cite it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Cites {
    /// What its reference list gives (empty when none was read).
    pub references: Vec<Cited>,
    /// How many of them are papers of this index.
    pub resolved: usize,
    /// The papers of this index whose reference lists cite it, by arXiv id.
    pub cited_by: Vec<Paper>,
}

impl Index {
    /// What `e`'s paper cites and which indexed papers cite it.
    ///
    /// # Errors
    /// [`super::ErrorKind::Sqlite`].
    pub fn cites(&self, e: &Entry) -> Result<Cites, Error> {
        let (refs, citing) = self
            .read(|c| {
                let mut st = c.prepare_cached(
                    "SELECT kind, cited, cited_version, evidence FROM cites WHERE citing = ?1",
                )?;
                let refs = st
                    .query_map([&e.arxiv_id], |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, Option<u32>>(2)?,
                            r.get::<_, String>(3)?,
                        ))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                let mut st = c.prepare_cached(
                    "SELECT citing, citing_version FROM cites WHERE kind = 'arxiv' AND cited = ?1 \
                 ORDER BY citing",
                )?;
                let citing = st
                    .query_map([&e.arxiv_id], |r| {
                        Ok((r.get::<_, String>(0)?, r.get::<_, Option<u32>>(1)?))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((refs, citing))
            })
            .or_else(|err| match err.kind() {
                super::ErrorKind::Sqlite(s) if s.to_string().contains("no such table") => {
                    Ok((Vec::new(), Vec::new()))
                }
                _ => Err(err),
            })?;
        let mut out = Cites::default();
        for (kind, id, version, evidence) in refs {
            let paper = match kind.as_str() {
                "arxiv" => self.arxiv(&id, version)?.or(self.arxiv(&id, None)?),
                _ => None,
            }
            .map(|e| Paper::of(&e));
            out.resolved += usize::from(paper.is_some());
            out.references.push(Cited {
                kind,
                id,
                version,
                evidence,
                paper,
            });
        }
        // References in the order the paper gives them: page, then line.
        out.references.sort_by_key(|c| evidence_order(&c.evidence));
        for (id, version) in citing {
            let found = match self.arxiv(&id, version)? {
                Some(e) => Some(e),
                None => self.arxiv(&id, None)?,
            };
            if let Some(found) = found {
                out.cited_by.push(Paper::of(&found));
            }
        }
        Ok(out)
    }

    /// Every edge whose citing paper is in the index, in OpenCitations' shape (COCI's
    /// `oci`, `citing`, `cited`, `creation`, `timespan`): papers are named by DOI (an arXiv
    /// paper by its arXiv DOI, `10.48550/arxiv.ID`), `creation` is the citing version's date,
    /// `timespan` the time from the cited paper's first version to it (ISO 8601, as
    /// `P1Y2M3D`), empty when the cited paper is not in the index.
    ///
    /// # Errors
    /// [`super::ErrorKind::Sqlite`].
    pub fn open_citations(&self) -> Result<Vec<OpenCitation>, Error> {
        let rows = self
            .read(|c| {
                let mut st = c.prepare(
                    "SELECT citing, citing_version, kind, cited FROM cites ORDER BY citing, kind, cited",
                )?;
                let rows = st
                    .query_map([], |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, Option<u32>>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, String>(3)?,
                        ))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(rows)
            })
            .or_else(|err| match err.kind() {
                super::ErrorKind::Sqlite(s) if s.to_string().contains("no such table") => {
                    Ok(Vec::new())
                }
                _ => Err(err),
            })?;
        let mut out = Vec::new();
        for (citing, version, kind, cited) in rows {
            let Some(ce) = (match self.arxiv(&citing, version)? {
                Some(e) => Some(e),
                None => self.arxiv(&citing, None)?,
            }) else {
                continue;
            };
            let creation = date_of(if ce.version_date.is_empty() {
                &ce.submitted_at
            } else {
                &ce.version_date
            });
            let (cited_doi, cited_date) = match kind.as_str() {
                "arxiv" => (
                    arxiv_doi(&cited),
                    self.arxiv(&cited, None)?.map(|e| date_of(&e.submitted_at)),
                ),
                _ => (cited, None),
            };
            let citing_doi = arxiv_doi(&citing);
            out.push(OpenCitation {
                oci: oci(&citing_doi, &cited_doi),
                timespan: cited_date
                    .map(|d| timespan(&d, &creation))
                    .unwrap_or_default(),
                citing: citing_doi,
                cited: cited_doi,
                creation,
            });
        }
        Ok(out)
    }
}

/// The page's sentence on the paper's references, when its list was read: how many it gives
/// and how many are papers of this index.
pub fn sentence(c: &Cites) -> Option<String> {
    let n = c.references.len();
    (n > 0).then(|| {
        format!(
            "Its reference list was read from the paper: {n} arXiv {} and DOI{}, {} of them {} of this index.",
            if n == 1 { "id" } else { "ids" },
            if n == 1 { "" } else { "s" },
            c.resolved,
            if c.resolved == 1 { "a paper" } else { "papers" },
        )
    })
}

/// Adds `citation`, `references` and `cited_by` to a record's JSON-LD `doc` (see
/// `documents::with_cites`); `base` prefixes the links to indexed papers.
pub fn describe(doc: &mut serde_json::Value, c: &Cites, base: &str) {
    let paper = |p: &Paper| {
        serde_json::json!({
            "@type": "ScholarlyArticle",
            "@id": format!("{base}/pith/{}", p.code),
            "identifier": p.pith_number,
            "name": p.title,
            "url": format!("https://arxiv.org/abs/{}v{}", p.arxiv_id, p.version),
        })
    };
    let citation: Vec<serde_json::Value> = c
        .references
        .iter()
        .map(|r| {
            let mut v = match &r.paper {
                Some(p) => paper(p),
                None => serde_json::json!({"@type": "CreativeWork", "url": r.url()}),
            };
            v["sameAs"] = match r.kind.as_str() {
                "arxiv" => format!("https://arxiv.org/abs/{}", r.id),
                _ => format!("https://doi.org/{}", r.id),
            }
            .into();
            v[r.kind.as_str()] = r.id.clone().into();
            if let Some(ver) = r.version {
                v["version"] = ver.into();
            }
            v["evidence"] = r.evidence.clone().into();
            v
        })
        .collect();
    doc["citation"] = citation.into();
    doc["references"] = serde_json::json!({
        "count": c.references.len(),
        "resolved": c.resolved,
    });
    doc["cited_by"] = serde_json::json!({
        "count": c.cited_by.len(),
        "papers": c.cited_by.iter().map(paper).collect::<Vec<_>>(),
    });
}

/// `page 12, line 3` → (12, 3); a `.bbl`'s `main.bbl, line 4` → (0, 4).
fn evidence_order(e: &str) -> (u32, u32) {
    let nums: Vec<u32> = e
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    match (e.starts_with("page "), &nums[..]) {
        (true, [p, l, ..]) => (*p, *l),
        (_, [.., l]) => (0, *l),
        _ => (0, 0),
    }
}

/// One citation as OpenCitations' COCI publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenCitation {
    /// The Open Citation Identifier: `oci:020…-020…`, each DOI (without `10.`) in
    /// OpenCitations' two-digit code.
    pub oci: String,
    /// The citing paper's DOI.
    pub citing: String,
    /// The cited work's DOI.
    pub cited: String,
    /// The citing paper's date, `YYYY-MM-DD`.
    pub creation: String,
    /// From the cited paper's date to the citing one's, ISO 8601 (`P2Y1M3D`); empty when
    /// unknown.
    pub timespan: String,
}

fn arxiv_doi(id: &str) -> String {
    format!("10.48550/arxiv.{}", id.to_ascii_lowercase())
}

fn date_of(ts: &str) -> String {
    ts.get(..10).unwrap_or(ts).to_owned()
}

/// OpenCitations' lookup table (`lookup.csv` of the OCI specification) for the characters
/// of DOIs: digits `00`–`09`, letters `10`–`35`, then punctuation.
fn oci_code(c: char) -> Option<&'static str> {
    const PUNCT: [(char, &str); 33] = [
        ('/', "36"),
        ('.', "37"),
        (':', "38"),
        (';', "39"),
        ('<', "40"),
        ('=', "41"),
        ('>', "42"),
        ('?', "43"),
        ('@', "44"),
        ('[', "45"),
        ('\\', "46"),
        (']', "47"),
        ('^', "48"),
        ('_', "49"),
        ('`', "50"),
        ('!', "51"),
        ('"', "52"),
        ('#', "53"),
        ('$', "54"),
        ('%', "55"),
        ('&', "56"),
        ('\'', "57"),
        ('(', "58"),
        (')', "59"),
        ('*', "60"),
        ('+', "61"),
        (',', "62"),
        ('-', "63"),
        ('{', "64"),
        ('|', "65"),
        ('}', "66"),
        ('~', "67"),
        (' ', "68"),
    ];
    const DIGITS: [&str; 36] = [
        "00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14",
        "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
        "30", "31", "32", "33", "34", "35",
    ];
    match c.to_ascii_lowercase() {
        d @ '0'..='9' => Some(DIGITS[d as usize - '0' as usize]),
        l @ 'a'..='z' => Some(DIGITS[10 + l as usize - 'a' as usize]),
        p => PUNCT.iter().find(|(k, _)| *k == p).map(|(_, v)| *v),
    }
}

/// The OCI of a citation between two DOIs, as COCI (supplier prefix `020`) writes it.
pub fn oci(citing: &str, cited: &str) -> String {
    let enc = |doi: &str| -> String {
        let body = doi.strip_prefix("10.").unwrap_or(doi);
        let mut s = String::from("020");
        for c in body.chars() {
            // A character outside the table: its code point, so the identifier stays one.
            match oci_code(c) {
                Some(code) => s.push_str(code),
                None => s.push_str(&format!("9{}", c as u32)),
            }
        }
        s
    };
    format!("oci:{}-{}", enc(citing), enc(cited))
}

/// The ISO 8601 duration from `from` to `to` (dates `YYYY-MM-DD`), `-P…` when `to` is earlier.
fn timespan(from: &str, to: &str) -> String {
    let parse = |d: &str| -> Option<(i32, i32, i32)> {
        let mut it = d.split('-').map(|p| p.parse::<i32>().ok());
        Some((it.next()??, it.next()??, it.next()??))
    };
    let (Some(a), Some(b)) = (parse(from), parse(to)) else {
        return String::new();
    };
    let (sign, (y0, m0, d0), (y1, m1, d1)) = if b >= a { ("", a, b) } else { ("-", b, a) };
    // Whole months first (the start moved on by them, its day kept or clamped to the month's
    // last), then the days left, as date libraries count them.
    let mut months = (y1 - y0) * 12 + (m1 - m0);
    if d1 < d0 {
        months -= 1;
    }
    let (ay, am) = (y0 + (m0 - 1 + months) / 12, (m0 - 1 + months) % 12 + 1);
    let ad = d0.min(month_days(ay, am));
    let d = days(y1, m1, d1) - days(ay, am, ad);
    let (y, m) = (months / 12, months % 12);
    let mut s = format!("{sign}P");
    if y > 0 {
        s.push_str(&format!("{y}Y"));
    }
    if m > 0 {
        s.push_str(&format!("{m}M"));
    }
    if d > 0 || (y == 0 && m == 0) {
        s.push_str(&format!("{d}D"));
    }
    s
}

fn month_days(y: i32, m: i32) -> i32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
fn days(y: i32, m: i32, d: i32) -> i32 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oci_as_coci_writes_it() {
        // COCI's own example pair: 10.1002/j… starts 0200100000236 19…
        let o = oci("10.1002/j", "10.48550/arxiv.1706.03762");
        assert!(o.starts_with("oci:020010000023619-020"), "{o}");
        assert!(!o.contains(char::is_alphabetic) || o.starts_with("oci:"));
    }

    #[test]
    fn timespans() {
        assert_eq!(timespan("2017-06-12", "2024-02-06"), "P6Y7M25D");
        assert_eq!(timespan("2020-01-31", "2020-03-01"), "P1M1D");
        assert_eq!(timespan("2019-12-31", "2020-02-29"), "P1M29D");
        assert_eq!(timespan("2020-01-01", "2020-01-01"), "P0D");
        assert_eq!(timespan("2021-01-01", "2020-01-01"), "-P1Y");
    }

    #[test]
    fn evidence_orders() {
        assert_eq!(evidence_order("page 12, line 3"), (12, 3));
        assert_eq!(evidence_order("main.bbl, line 4"), (0, 4));
    }
}
