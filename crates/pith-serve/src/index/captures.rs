//! The captures a build checks (`pith index --captures DIR`): Internet Archive captures of the
//! indexed versions' PDFs, kept only where pith checked them.
//!
//! A folder holds WARC files (told by their first bytes), CDX files (lines or the CDX API's
//! JSON) and batch or tar reports (`*.jsonl`, whose `injected` and `unchanged` lines give a
//! PDF's `number` and `sha1`). A capture is stored when the evidence rule
//! ([`pith::capture::evidence::judge`], the one `pith verify --capture` applies) says it counts
//! for the indexed version: its URL, an HTTP 200 answer, a date after the version was
//! announced, and a digest that is the SHA-1 of a PDF pith read carrying the version's number
//! (the WARC record's own payload, or a report's PDF). Everything else is reported and skipped,
//! one line each, a file that cannot be read included. A version keeps its earliest checked
//! capture.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pith::capture::evidence::{self, Payload, Read, Verdict, Version};
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

/// The current record of a version, as the evidence rule judges captures for it: its number
/// and when it was announced (this version's date, else v1's submission: no capture of any
/// version is older).
fn indexed_version(
    conn: &Connection,
    id: &str,
    v: u32,
) -> Result<Option<(String, Version)>, Error> {
    let row: Option<(String, String, String)> = conn
        .prepare_cached(
            "SELECT code, version_date, submitted_at FROM records \
             WHERE arxiv_id = ?1 AND version = ?2 AND superseded = 0",
        )?
        .query_row(params![id, v], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    Ok(row.and_then(|(code, date, first)| {
        let n = PithNumber::parse(&code).ok()?;
        let when = if date.is_empty() { first } else { date };
        Some((code, Version::new(id, v).announced(&when).numbered(n)))
    }))
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

/// The PDFs the reports in `dirs` show pith read ([`check::report_reads`]), by SHA-1; a report
/// that cannot be read (or goes past [`Limits`]) is one line to `bad`.
fn reads(
    dirs: &[PathBuf],
    limits: &Limits,
    bad: &mut dyn FnMut(String) -> Result<(), Error>,
) -> Result<HashMap<String, Vec<Read>>, Error> {
    let mut out: HashMap<String, Vec<Read>> = HashMap::new();
    for dir in dirs {
        for f in files(dir)?.into_iter().filter(|p| is_report(p)) {
            let text = match check::read_text(&f, limits) {
                Ok(t) => t,
                Err(e) => {
                    bad(e.to_string())?;
                    continue;
                }
            };
            for r in check::report_reads(&text, &f.display().to_string()) {
                out.entry(r.sha1.clone()).or_default().push(r);
            }
        }
    }
    Ok(out)
}

/// The most lines one capture file gives `bad`: the rest are counted in one more line.
const MAX_BAD_LINES: usize = 100;

/// What one capture file gave: captures stored, and lines for those that were not (the first
/// [`MAX_BAD_LINES`], and a count of the rest, so that a file of a million bad lines costs a
/// hundred lines of report).
struct FileRun<'a> {
    conn: &'a Connection,
    reads: &'a HashMap<String, Vec<Read>>,
    stored: u64,
    lines: Vec<String>,
    more: usize,
}

impl FileRun<'_> {
    fn note(&mut self, line: String) {
        if self.lines.len() < MAX_BAD_LINES {
            self.lines.push(line);
        } else {
            self.more += 1;
        }
    }

    fn reads_of(&self, digest: &str) -> &[Read] {
        self.reads
            .get(digest)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The indexed version a capture's URL names, or a line saying why there is none.
    fn version(&mut self, at: &str, url: &str) -> Result<Option<(String, Version)>, Error> {
        let Some(v) = check::version_of_url(url) else {
            self.note(format!(
                "{at}: {url} is not the URL of a version's PDF at arxiv.org"
            ));
            return Ok(None);
        };
        let found = indexed_version(self.conn, &v.id, v.version)?;
        if found.is_none() {
            self.note(format!(
                "{at}: no record of arXiv:{}v{} is indexed",
                v.id, v.version
            ));
        }
        Ok(found)
    }

    fn keep(
        &mut self,
        at: &str,
        code: &str,
        c: &Capture,
        v: &Verdict,
        how: &str,
    ) -> Result<(), Error> {
        if v.stored {
            self.stored += u64::from(store(self.conn, code, c, how)?);
        } else {
            self.note(format!(
                "{at}: {}",
                v.reason().unwrap_or("it does not count")
            ));
        }
        Ok(())
    }

    fn warc(&mut self, name: &str, r: &warc::Response) -> Result<(), Error> {
        let at = format!("{name}: record {}", r.index);
        let Some((code, version)) = self.version(&at, &r.target_uri)? else {
            return Ok(());
        };
        let digest = r.capture().map(|c| c.digest).unwrap_or_default();
        let (c, verdict) = check::judge_warc(r, &version, self.reads_of(&digest));
        match c {
            Some(c) => self.keep(&at, &code, &c, &verdict, "warc"),
            None => {
                self.note(format!(
                    "{at}: {}",
                    verdict.reason().unwrap_or("it does not count")
                ));
                Ok(())
            }
        }
    }

    fn cdx(&mut self, name: &str, c: &Capture) -> Result<(), Error> {
        let at = format!("{name}: {} {}", c.timestamp, c.url);
        let Some((code, version)) = self.version(&at, &c.url)? else {
            return Ok(());
        };
        let verdict = evidence::judge(c, &Payload::Stated, &version, self.reads_of(&c.digest));
        self.keep(&at, &code, c, &verdict, "cdx")
    }
}

/// Checks every capture in `dirs` against the index in `conn` by the evidence rule
/// ([`pith::capture::evidence`]) and stores those that count; `bad` gets one line for each
/// that does not. Returns how many were stored.
///
/// A file that cannot be read or is refused (past [`Limits`]: a non-UTF-8 or truncated file,
/// a gzip cut short, an answer too large, the time one file may take) is one line in `bad`:
/// the captures it gave before that stay, and the other files are read.
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
    let reads = reads(dirs, &limits, bad)?;
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
            let mut run = FileRun {
                conn,
                reads: &reads,
                stored: 0,
                lines: Vec::new(),
                more: 0,
            };
            let mut failure: Option<Error> = None;
            let read: Result<(), pith::capture::Error> = match check::is_warc(&f) {
                Err(e) => Err(pith::capture::ErrorKind::Io(e).into()),
                Ok(true) => warc::read_file(&f, &limits, &mut |r| match run.warc(&name, &r) {
                    Ok(()) => true,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                })
                .map(drop),
                Ok(false) => cdx::read_file(&f, &limits, &mut |r| {
                    let c = match r {
                        Ok(c) => c,
                        Err(b) => {
                            run.note(format!("{name}: line {}: {}", b.line, b.reason));
                            return true;
                        }
                    };
                    match run.cdx(&name, &c) {
                        Ok(()) => true,
                        Err(e) => {
                            failure = Some(e);
                            false
                        }
                    }
                })
                .map(drop),
            };
            if let Some(e) = failure {
                return Err(e);
            }
            stored += run.stored;
            for l in run.lines {
                bad(l)?;
            }
            if run.more > 0 {
                bad(format!("{name}: {} more captures not stored", run.more))?;
            }
            if let Err(e) = read {
                bad(e.in_file(&f).to_string())?;
            }
        }
    }
    Ok(stored)
}
