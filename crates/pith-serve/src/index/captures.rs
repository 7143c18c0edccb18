//! The captures a build checks (`pith index --captures DIR`): Internet Archive captures of the
//! indexed versions' PDFs, kept only where pith checked them.
//!
//! A folder holds WARC files (told by their first bytes), CDX files (lines or the CDX API's
//! JSON) and batch or tar reports (`*.jsonl`, whose lines give a PDF's `number` and `sha1`). A
//! WARC record is stored when [`pith::job::capture::stored_version`] says it is the indexed
//! version's PDF; a CDX line when its digest is the SHA-1 a report gives for a PDF of that
//! version ([`pith::job::capture::cdx_stored`]). Everything else is reported and skipped. A
//! version keeps its earliest checked capture.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pith::capture::{cdx, warc, Capture, Limits};
use pith::job::capture as check;
use pith::PithNumber;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::{Error, ErrorKind};

/// The captures pith checked: one row per record whose version's PDF the Internet Archive
/// holds, as a WARC record or a CDX line the build checked showed. A side table, created in
/// any index a build touches (an index built before it has none, and reads as storing nothing).
pub const CAPTURES: &str = "
CREATE TABLE IF NOT EXISTS captures (
  code TEXT PRIMARY KEY,
  url TEXT NOT NULL,           -- the URL captured
  timestamp TEXT NOT NULL,     -- YYYYMMDDhhmmss, UTC
  digest TEXT NOT NULL,        -- the payload's SHA-1, base32
  evidence TEXT NOT NULL       -- warc or cdx
) WITHOUT ROWID;
";

/// A capture the index checked: what the record page, its JSON and badge show as "stored".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stored {
    /// The URL captured.
    pub url: String,
    /// The Wayback timestamp.
    pub timestamp: String,
    /// The capture time, ISO 8601 UTC.
    pub time_utc: String,
    /// The raw capture at the Wayback Machine.
    pub raw_url: String,
    /// The payload's SHA-1, base32.
    pub digest: String,
    /// What showed it: `warc` (a record whose digest and PDF pith checked) or `cdx` (a line
    /// whose digest is the SHA-1 of a PDF pith read for the version).
    pub evidence: String,
}

impl Stored {
    fn of(c: &Capture, evidence: &str) -> Stored {
        Stored {
            url: c.url.clone(),
            timestamp: c.timestamp.clone(),
            time_utc: c.time_utc(),
            raw_url: c.raw_url(),
            digest: c.digest.clone(),
            evidence: evidence.to_owned(),
        }
    }
}

/// The stored capture of `code`, if the index holds one.
///
/// # Errors
/// SQLite's.
pub fn read(c: &Connection, code: &str) -> Result<Option<Stored>, rusqlite::Error> {
    let mut st = match c
        .prepare_cached("SELECT url, timestamp, digest, evidence FROM captures WHERE code = ?1")
    {
        Ok(st) => st,
        Err(e) if e.to_string().contains("no such table") => return Ok(None),
        Err(e) => return Err(e),
    };
    st.query_row([code], |r| {
        let c = Capture {
            url: r.get(0)?,
            timestamp: r.get(1)?,
            digest: r.get(2)?,
            status: None,
            mime: None,
        };
        Ok(Stored::of(&c, &r.get::<_, String>(3)?))
    })
    .optional()
}

/// The current record's code and number of a version, if indexed.
fn version_code(conn: &Connection, id: &str, v: u32) -> Result<Option<PithNumber>, Error> {
    let code: Option<String> = conn
        .prepare_cached(
            "SELECT code FROM records WHERE arxiv_id = ?1 AND version = ?2 AND superseded = 0",
        )?
        .query_row(params![id, v], |r| r.get(0))
        .optional()?;
    Ok(code.and_then(|c| PithNumber::parse(&c).ok()))
}

fn store(conn: &Connection, code: &str, c: &Capture, evidence: &str) -> Result<bool, Error> {
    let n = conn.execute(
        "INSERT INTO captures (code, url, timestamp, digest, evidence) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT(code) DO UPDATE SET url = ?2, timestamp = ?3, digest = ?4, evidence = ?5 \
         WHERE ?3 < captures.timestamp",
        params![code, c.url, c.timestamp, c.digest, evidence],
    )?;
    Ok(n > 0)
}

/// The files of a captures folder, sorted.
fn files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::from(e).at(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    Ok(v)
}

fn is_report(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "jsonl")
}

/// The SHA-1 digests the reports in `dirs` give, by code: every line with a `number` and a
/// `sha1`.
fn digests(dirs: &[PathBuf], limits: &Limits) -> Result<HashMap<String, Vec<String>>, Error> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for dir in dirs {
        for f in files(dir)?.into_iter().filter(|p| is_report(p)) {
            let text = check::read_text(&f, limits)
                .map_err(|e| Error::from(ErrorKind::Input(e.to_string())))?;
            for line in text.lines() {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                    continue;
                };
                let (Some(n), Some(s)) = (v["number"].as_str(), v["sha1"].as_str()) else {
                    continue;
                };
                if let Ok(n) = PithNumber::parse(n) {
                    out.entry(n.code().to_owned())
                        .or_default()
                        .push(s.to_ascii_uppercase());
                }
            }
        }
    }
    Ok(out)
}

/// Checks every capture in `dirs` against the index in `conn` and stores those that check;
/// `bad` gets one line for each that does not. Returns how many were stored.
///
/// # Errors
/// [`ErrorKind::Input`] for a file that cannot be read or is refused (past [`Limits`]); SQLite's.
pub fn build(
    conn: &Connection,
    dirs: &[PathBuf],
    bad: &mut dyn FnMut(String) -> Result<(), Error>,
) -> Result<u64, Error> {
    conn.execute_batch(CAPTURES)?;
    let limits = Limits::default();
    let sha1s = digests(dirs, &limits)?;
    let mut stored = 0;
    let input = |e: pith::capture::Error| Error::from(ErrorKind::Input(e.to_string()));
    for dir in dirs {
        for f in files(dir)?.into_iter().filter(|p| !is_report(p)) {
            let name = f.display().to_string();
            let mut lines: Vec<String> = Vec::new();
            let mut failure: Option<Error> = None;
            if check::is_warc(&f).map_err(|e| Error::from(e).at(&f))? {
                warc::read_file(&f, &limits, &mut |r| {
                    let where_ = format!("{name}: record {}", r.index);
                    let Some((id, Some(v), true)) = pith::capture::arxiv_of_url(&r.target_uri)
                    else {
                        lines.push(format!(
                            "{where_}: {} is not the URL of a version's PDF at arxiv.org",
                            r.target_uri
                        ));
                        return true;
                    };
                    let n = match version_code(conn, &id, v) {
                        Ok(Some(n)) => n,
                        Ok(None) => {
                            lines.push(format!("{where_}: no record of arXiv:{id}v{v} is indexed"));
                            return true;
                        }
                        Err(e) => {
                            failure = Some(e);
                            return false;
                        }
                    };
                    match check::stored_version(&r, Some((&id, v, &n))) {
                        Ok(c) => match store(conn, n.code(), &c, "warc") {
                            Ok(new) => stored += u64::from(new),
                            Err(e) => {
                                failure = Some(e);
                                return false;
                            }
                        },
                        Err(why) => lines.push(format!("{where_}: {why}")),
                    }
                    true
                })
                .map_err(input)?;
            } else {
                let text = check::read_text(&f, &limits).map_err(input)?;
                let (captures, unread) =
                    cdx::read(&text, &limits).map_err(|e| input(e.in_file(&f)))?;
                for b in unread {
                    lines.push(format!("{name}: line {}: {}", b.line, b.reason));
                }
                for c in captures {
                    let Some((id, v)) = c.arxiv_version() else {
                        lines.push(format!(
                            "{name}: {} is not the URL of a version's PDF at arxiv.org",
                            c.url
                        ));
                        continue;
                    };
                    let Some(n) = version_code(conn, &id, v)? else {
                        lines.push(format!("{name}: no record of arXiv:{id}v{v} is indexed"));
                        continue;
                    };
                    let known = sha1s.get(n.code()).map(Vec::as_slice).unwrap_or_default();
                    if known.is_empty() {
                        lines.push(format!(
                            "{name}: {}: no report gives the SHA-1 of a PDF of arXiv:{id}v{v} (a batch or tar report line with its number and sha1)",
                            c.url
                        ));
                        continue;
                    }
                    let mut checked = known.iter().map(|s| check::cdx_stored(&c, &id, v, s));
                    match checked.clone().find(Result::is_ok) {
                        Some(_) => stored += u64::from(store(conn, n.code(), &c, "cdx")?),
                        None => {
                            let why = checked
                                .next_back()
                                .and_then(Result::err)
                                .unwrap_or_default();
                            lines.push(format!("{name}: {}: {why}", c.timestamp));
                        }
                    }
                }
            }
            if let Some(e) = failure {
                return Err(e);
            }
            for l in lines {
                bad(l)?;
            }
        }
    }
    Ok(stored)
}
