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

use super::Error;

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

/// Whether the CDX line `c` is evidence for the version it names ([`check::cdx_stored`] with
/// the SHA-1s the reports give): `Ok(Ok(stored anew))`, or `Ok(Err(why not))`.
fn cdx_line(
    conn: &Connection,
    sha1s: &HashMap<String, Vec<String>>,
    c: &Capture,
) -> Result<Result<bool, String>, Error> {
    let Some((id, v)) = c.arxiv_version() else {
        return Ok(Err(format!(
            "{} is not the URL of a version's PDF at arxiv.org",
            c.url
        )));
    };
    let Some(n) = version_code(conn, &id, v)? else {
        return Ok(Err(format!("no record of arXiv:{id}v{v} is indexed")));
    };
    let known = sha1s.get(n.code()).map(Vec::as_slice).unwrap_or_default();
    if known.is_empty() {
        return Ok(Err(format!(
            "{}: no report gives the SHA-1 of a PDF of arXiv:{id}v{v} (a batch or tar report line with its number and sha1)",
            c.url
        )));
    }
    let mut checked = known.iter().map(|s| check::cdx_stored(c, &id, v, s));
    match checked.clone().find(Result::is_ok) {
        Some(_) => Ok(Ok(store(conn, n.code(), c, "cdx")?)),
        None => {
            let why = checked
                .next_back()
                .and_then(Result::err)
                .unwrap_or_default();
            Ok(Err(format!("{}: {why}", c.timestamp)))
        }
    }
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
/// `sha1`. Lines are read within [`Limits`] ([`pith::bounded`]); a report that cannot be read
/// (or goes past them) gets one line in `bad` and gives the digests read before it.
fn digests(
    dirs: &[PathBuf],
    limits: &Limits,
    bad: &mut dyn FnMut(String) -> Result<(), Error>,
) -> Result<HashMap<String, Vec<String>>, Error> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for dir in dirs {
        for f in files(dir)?.into_iter().filter(|p| is_report(p)) {
            let read = (|| -> Result<(), pith::bounded::Error> {
                let file = std::fs::File::open(&f)
                    .map_err(|e| pith::bounded::Error::from(pith::bounded::ErrorKind::Io(e)))?;
                let bounds = limits.bounds();
                let mut lines = pith::bounded::Lines::new(
                    std::io::BufReader::new(pith::bounded::Reader::new(file, &bounds)),
                    &bounds,
                );
                while let Some(line) = lines.next_line()? {
                    let pith::bounded::Line::Text(line) = line else {
                        continue;
                    };
                    let Ok(v) = pith::bounded::json::parse::<serde_json::Value>(
                        line,
                        limits.line_bytes as u64,
                    ) else {
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
                Ok(())
            })();
            if let Err(e) = read {
                bad(format!("{}: {e}", f.display()))?;
            }
        }
    }
    Ok(out)
}

/// The most lines one capture file gives `bad`: the rest are counted in one more line.
const MAX_BAD_LINES: usize = 100;

/// Checks every capture in `dirs` against the index in `conn` and stores those that check;
/// `bad` gets one line for each that does not. Returns how many were stored.
///
/// A file that cannot be read or is refused (past [`Limits`]: a non-UTF-8 or truncated file,
/// a gzip cut short, an answer too large) is one line in `bad`, and the rest is read.
///
/// # Errors
/// SQLite's, and `bad`'s.
pub fn build(
    conn: &Connection,
    dirs: &[PathBuf],
    bad: &mut dyn FnMut(String) -> Result<(), Error>,
) -> Result<u64, Error> {
    conn.execute_batch(CAPTURES)?;
    let limits = Limits::default();
    let sha1s = digests(dirs, &limits, bad)?;
    let mut stored = 0;
    for dir in dirs {
        for f in files(dir)?.into_iter().filter(|p| !is_report(p)) {
            let name = f.display().to_string();
            // Each file has the time one file of a run may take: past it, its reading stops
            // where it is and the file is one line.
            let limits = Limits {
                stop: pith::pdf::Stop::after(pith::job::stop::FILE_TIMEOUT),
                ..limits.clone()
            };
            let mut lines: Vec<String> = Vec::new();
            let mut more = 0usize;
            // One file's reasons are kept up to a bound: a file of a million bad lines
            // costs a hundred lines of report and a count.
            let mut note = |l: String| {
                if lines.len() < MAX_BAD_LINES {
                    lines.push(l);
                } else {
                    more += 1;
                }
            };
            let mut failure: Option<Error> = None;
            // A file that cannot be read or goes past its bounds is one line; the captures it
            // gave before that stay, and the other files are read.
            let read: Result<(), pith::capture::Error> = match check::is_warc(&f) {
                Err(e) => Err(pith::capture::ErrorKind::Io(e).into()),
                Ok(true) => warc::read_file(&f, &limits, &mut |r| {
                    let where_ = format!("{name}: record {}", r.index);
                    let Some((id, Some(v), true)) = pith::capture::arxiv_of_url(&r.target_uri)
                    else {
                        note(format!(
                            "{where_}: {} is not the URL of a version's PDF at arxiv.org",
                            r.target_uri
                        ));
                        return true;
                    };
                    let n = match version_code(conn, &id, v) {
                        Ok(Some(n)) => n,
                        Ok(None) => {
                            note(format!("{where_}: no record of arXiv:{id}v{v} is indexed"));
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
                        Err(why) => note(format!("{where_}: {why}")),
                    }
                    true
                })
                .map(|_| ()),
                Ok(false) => cdx::read_file(&f, &limits, &mut |r| {
                    let c = match r {
                        Ok(c) => c,
                        Err(b) => {
                            note(format!("{name}: line {}: {}", b.line, b.reason));
                            return true;
                        }
                    };
                    match cdx_line(conn, &sha1s, &c) {
                        Ok(Ok(new)) => stored += u64::from(new),
                        Ok(Err(why)) => note(format!("{name}: {why}")),
                        Err(e) => {
                            failure = Some(e);
                            return false;
                        }
                    }
                    true
                })
                .map(|_| ()),
            };
            if let Some(e) = failure {
                return Err(e);
            }
            for l in lines {
                bad(l)?;
            }
            if more > 0 {
                bad(format!("{name}: {more} more captures not stored"))?;
            }
            if let Err(e) = read {
                bad(e.in_file(&f).to_string())?;
            }
        }
    }
    Ok(stored)
}
