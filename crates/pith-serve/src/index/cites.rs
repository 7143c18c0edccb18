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
CREATE INDEX IF NOT EXISTS cites_order ON cites(citing,
  (CASE WHEN substr(evidence, 1, 5) = 'page ' THEN CAST(substr(evidence, 6) AS INTEGER) ELSE 0 END),
  (CAST(substr(evidence, instr(evidence, 'line ') + 5) AS INTEGER)), kind, cited);
";

/// Longest line of a references file read (a line is one identifier and where it was read).
const MAX_LINE: usize = 64 << 10;
/// The most lines one references file gives `bad`: the rest are counted in one more line.
const MAX_BAD_LINES: u64 = 100;

/// Stores the lines of the references files `files`, read through [`pith::bounded`]; a line
/// that is no citation edge ([`pith::job::refs::edge`], the rule `pith refs` writes by) goes
/// to `bad` and is skipped, and so does a file that cannot be read (one line). Returns how
/// many edges were stored.
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
                match pith::job::refs::edge(&r) {
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

/// A paper of the index, as a link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaperLink {
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

impl PaperLink {
    fn of(e: &Entry) -> PaperLink {
        PaperLink {
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
    pub paper: Option<PaperLink>,
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

/// How many references and citing papers a record page shows; the rest are in the paged JSON
/// ([`Index::references`], [`Index::cited_by`]).
pub const SHOWN: usize = 20;

/// How many references or citing papers one page of the paged JSON holds.
pub const PER_PAGE: usize = 100;

/// The page a paged list's query names (`page=N`, from 1; page 1 when none is named), `None`
/// when it names one that is not a whole number from 1.
pub fn page_of(query: Option<&str>) -> Option<u64> {
    match query.and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("page="))) {
        None => Some(1),
        Some(p) => p
            .parse::<u64>()
            .ok()
            .filter(|p| (1..=u64::from(u32::MAX)).contains(p)),
    }
}

/// A paper's references and the papers of the index that cite it, the first [`SHOWN`] of
/// each with how many there are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Cites {
    /// The paper's code (26 characters): the paged JSON is under `pith/<code>/`.
    pub code: String,
    /// The first references its list gives, in the paper's order (empty when none was read).
    pub references: Vec<Cited>,
    /// How many references its list gives.
    pub references_count: u64,
    /// How many of them are papers of this index.
    pub resolved: u64,
    /// The first papers of this index whose reference lists cite it, by arXiv id.
    pub cited_by: Vec<PaperLink>,
    /// How many papers of this index cite it.
    pub cited_by_count: u64,
}

impl Cites {
    /// Whether the page shows fewer references than there are.
    pub fn more_references(&self) -> bool {
        self.references_count > self.references.len() as u64
    }

    /// Whether the page shows fewer citing papers than there are.
    pub fn more_cited_by(&self) -> bool {
        self.cited_by_count > self.cited_by.len() as u64
    }
}

/// The references of a paper in the paper's order (page, then line): the order key is
/// computed from `evidence` (`page 12, line 30`; `main.bbl, line 4`), and an index on it
/// ([`CITES`]) lets a page read only the rows it shows. A paper never cites itself.
const REFS_FROM: &str = "FROM cites WHERE citing = ?1 AND NOT (kind = 'arxiv' AND cited = ?1)";
const REFS_ORDER: &str = "ORDER BY citing, \
     (CASE WHEN substr(evidence, 1, 5) = 'page ' THEN CAST(substr(evidence, 6) AS INTEGER) ELSE 0 END), \
     (CAST(substr(evidence, instr(evidence, 'line ') + 5) AS INTEGER)), kind, cited";
/// The papers of the index citing a paper (themselves excluded), by arXiv id.
const CITING_FROM: &str = "FROM cites WHERE kind = 'arxiv' AND cited = ?1 AND citing != ?1 \
     AND EXISTS (SELECT 1 FROM records WHERE arxiv_id = cites.citing AND superseded = 0)";

/// A reference row: kind, id, version, evidence.
type RefRow = (String, String, Option<u32>, String);

impl Index {
    /// What `e`'s paper cites and which indexed papers cite it: the first [`SHOWN`] of each,
    /// read with `LIMIT`, and how many there are, counted.
    ///
    /// # Errors
    /// [`super::ErrorKind::Sqlite`].
    pub fn cites(&self, e: &Entry) -> Result<Cites, Error> {
        let (references_count, references) = self.references(e, SHOWN, 0)?;
        let (cited_by_count, cited_by) = self.cited_by(e, SHOWN, 0)?;
        let resolved = if references_count == 0 {
            0
        } else {
            self.tolerant(|c| {
                Ok(c.prepare_cached(&format!(
                    "SELECT count(*) {REFS_FROM} AND kind = 'arxiv' AND EXISTS \
                     (SELECT 1 FROM records WHERE arxiv_id = cites.cited AND superseded = 0)"
                ))?
                .query_row([&e.arxiv_id], |r| r.get::<_, i64>(0))? as u64)
            })?
            .unwrap_or(0)
        };
        Ok(Cites {
            code: e.number.code().to_owned(),
            references,
            references_count,
            resolved,
            cited_by,
            cited_by_count,
        })
    }

    /// `limit` of `e`'s references from the `offset`th, in the paper's order, and how many it
    /// has.
    ///
    /// # Errors
    /// [`super::ErrorKind::Sqlite`].
    pub fn references(
        &self,
        e: &Entry,
        limit: usize,
        offset: u64,
    ) -> Result<(u64, Vec<Cited>), Error> {
        let rows = self.tolerant(|c| {
            let count = c
                .prepare_cached(&format!("SELECT count(*) {REFS_FROM}"))?
                .query_row([&e.arxiv_id], |r| r.get::<_, i64>(0))? as u64;
            let rows = c
                .prepare_cached(&format!(
                    "SELECT kind, cited, cited_version, evidence {REFS_FROM} {REFS_ORDER} \
                     LIMIT ?2 OFFSET ?3"
                ))?
                .query_map(params![&e.arxiv_id, limit as i64, offset as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect::<Result<Vec<RefRow>, _>>()?;
            Ok((count, rows))
        })?;
        let Some((count, rows)) = rows else {
            return Ok((0, Vec::new()));
        };
        let mut out = Vec::with_capacity(rows.len());
        for (kind, id, version, evidence) in rows {
            let paper = match kind.as_str() {
                "arxiv" => self.arxiv(&id, version)?.or(self.arxiv(&id, None)?),
                _ => None,
            }
            .map(|e| PaperLink::of(&e));
            out.push(Cited {
                kind,
                id,
                version,
                evidence,
                paper,
            });
        }
        Ok((count, out))
    }

    /// `limit` of the indexed papers citing `e`'s paper from the `offset`th, by arXiv id, and
    /// how many there are.
    ///
    /// # Errors
    /// [`super::ErrorKind::Sqlite`].
    pub fn cited_by(
        &self,
        e: &Entry,
        limit: usize,
        offset: u64,
    ) -> Result<(u64, Vec<PaperLink>), Error> {
        let rows = self.tolerant(|c| {
            let count = c
                .prepare_cached(&format!("SELECT count(*) {CITING_FROM}"))?
                .query_row([&e.arxiv_id], |r| r.get::<_, i64>(0))? as u64;
            let rows = c
                .prepare_cached(&format!(
                    "SELECT citing, citing_version {CITING_FROM} ORDER BY citing LIMIT ?2 OFFSET ?3"
                ))?
                .query_map(params![&e.arxiv_id, limit as i64, offset as i64], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, Option<u32>>(1)?))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok((count, rows))
        })?;
        let Some((count, rows)) = rows else {
            return Ok((0, Vec::new()));
        };
        let mut out = Vec::with_capacity(rows.len());
        for (id, version) in rows {
            let found = match self.arxiv(&id, version)? {
                Some(e) => Some(e),
                None => self.arxiv(&id, None)?,
            };
            if let Some(found) = found {
                out.push(PaperLink::of(&found));
            }
        }
        Ok((count, out))
    }

    /// `f` on the index; `None` when the index has no `cites` table (built before it).
    fn tolerant<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, Error>,
    ) -> Result<Option<T>, Error> {
        match self.read(f) {
            Ok(v) => Ok(Some(v)),
            Err(err) => match err.kind() {
                super::ErrorKind::Sqlite(s) if s.to_string().contains("no such table") => Ok(None),
                _ => Err(err),
            },
        }
    }
}

/// The page's sentence on the paper's references, when its list was read: how many it gives
/// and how many are papers of this index.
pub fn sentence(c: &Cites) -> Option<String> {
    let n = c.references_count;
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
    let paper = |p: &PaperLink| {
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
        "count": c.references_count,
        "resolved": c.resolved,
        "shown": c.references.len(),
        "all": format!("{base}/pith/{}/references.json", c.code),
    });
    doc["cited_by"] = serde_json::json!({
        "count": c.cited_by_count,
        "papers": c.cited_by.iter().map(paper).collect::<Vec<_>>(),
        "all": format!("{base}/pith/{}/cited-by.json", c.code),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_come_in_the_papers_order_and_pages_read_only_their_rows() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(CITES).unwrap();
        for (cited, evidence) in [
            ("10.1/b", "page 12, line 3"),
            ("10.1/a", "page 2, line 30"),
            ("10.1/c", "page 2, line 4"),
            ("10.1/d", "main.bbl, line 1"),
        ] {
            c.execute(
                "INSERT INTO cites VALUES ('2402.03791', 3, 'doi', ?1, NULL, ?2)",
                [cited, evidence],
            )
            .unwrap();
        }
        let sql = format!("SELECT cited {REFS_FROM} {REFS_ORDER} LIMIT ?2 OFFSET ?3");
        let ids: Vec<String> = c
            .prepare(&sql)
            .unwrap()
            .query_map(params!["2402.03791", 10, 0], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(ids, ["10.1/d", "10.1/c", "10.1/a", "10.1/b"]);
        // The plan walks the order index: no sort of the paper's whole list.
        let plan: Vec<String> = c
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(params!["2402.03791", 10, 0], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(plan.iter().any(|p| p.contains("cites_order")), "{plan:?}");
        assert!(!plan.iter().any(|p| p.contains("TEMP B-TREE")), "{plan:?}");
    }
}
