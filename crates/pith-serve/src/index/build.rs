//! Building an index: [`build`] reads the sources (arXiv bulk metadata, records, bundles),
//! numbers them through the library, and writes a new file that is renamed over the old one.

use std::fmt;
use std::path::{Path, PathBuf};

use pith::record::arxiv::bulk::{self, Meaning, Unit};
use pith::record::arxiv::date;
use pith::verify::{Bundle, Key, Verdict};
use pith::PithNumber;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::read::{check_schema, open_read};
use super::{keys, Error, ErrorKind, ABSTRACTS, ANCHORS, INDEXES, SCHEMA};

/// What to index.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// arXiv metadata snapshots (JSON Lines, any compression `pith number` reads).
    pub snapshots: Vec<PathBuf>,
    /// OAI-PMH `ListRecords` harvests in `arXivRaw` (pages, any compression).
    pub oai: Vec<PathBuf>,
    /// Folders of records: `*.json` files holding a record, bare or as the resolver wraps it
    /// (`canonical_record` with `pith_number`, optionally `title` and `authors`), or an array of
    /// them.
    pub records: Vec<PathBuf>,
    /// Folders of bundles (`*.json`).
    pub bundles: Vec<PathBuf>,
    /// Keys whose receipt signatures make a bundle's record "verified" (the registry key by
    /// default), trusted besides those the index already trusts.
    pub keys: Vec<Key>,
    /// Forget the keys the index already trusts: trust only the registry key and
    /// [`Sources::keys`] (`pith index --drop-keys`). Without it, a build that adds records keeps
    /// every key the index was built with before.
    pub drop_keys: bool,
    /// Folders of OpenTimestamps proofs, `<26>.ots`, each of the record of that code: a proof
    /// that verifies against [`Sources::headers`] makes its record "anchored".
    pub anchors: Vec<PathBuf>,
    /// The Bitcoin block headers the proofs are checked against.
    pub headers: pith::ots::Headers,
    /// Folders of Internet Archive captures (WARC files, CDX files, and batch or tar reports
    /// giving PDFs' SHA-1 digests): a capture pith checks makes its version "stored"
    /// ([`super::captures`]).
    pub captures: Vec<PathBuf>,
    /// Files of the lines `pith refs` writes (JSON Lines, any compression): what papers cite
    /// ([`super::cites`]).
    pub refs: Vec<PathBuf>,
}

/// How to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    /// Worker threads computing numbers.
    pub threads: usize,
    /// Stop at the first input that cannot be indexed, leaving the old index as it was.
    pub strict: bool,
    /// Start from an empty index even when the output exists.
    pub fresh: bool,
}

/// What a build did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Versions indexed for the first time.
    pub added: u64,
    /// Versions indexed again with another record (the old one is kept, superseded).
    pub changed: u64,
    /// Versions indexed again with the same record.
    pub unchanged: u64,
    /// Deleted arXiv records met (their numbers stay indexed when they were).
    pub deleted: u64,
    /// Bundles indexed (new or replaced).
    pub bundles: u64,
    /// OpenTimestamps proofs that verified (their records are anchored).
    pub anchors: u64,
    /// Internet Archive captures that checked (their versions are stored).
    pub stored: u64,
    /// References stored (edges from a paper to what it cites).
    #[serde(default)]
    pub refs: u64,
    /// Lines, records, files or bundles that could not be indexed.
    pub bad: u64,
    /// Records in the index after the build, superseded ones included.
    pub records: u64,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} added, {} changed, {} unchanged, {} deleted, {} bundles, {}{}{} bad; {} records",
            self.added,
            self.changed,
            self.unchanged,
            self.deleted,
            self.bundles,
            // Only a build given proofs says how many were anchored.
            if self.anchors > 0 {
                format!("{} anchored, ", self.anchors)
            } else {
                String::new()
            } + &if self.refs > 0 {
                format!("{} references, ", self.refs)
            } else {
                String::new()
            },
            if self.stored > 0 {
                format!("{} stored, ", self.stored)
            } else {
                String::new()
            },
            self.bad,
            self.records
        )
    }
}

/// A version ready to be stored.
struct Row {
    code: String,
    year: u16,
    sha256: String,
    record: String,
    arxiv_id: String,
    version: u32,
    title: String,
    authors: String,
    submitted_at: String,
    version_date: String,
    categories: String,
    license: String,
    /// The abstract, whitespace collapsed; empty when the source gave none.
    abstract_text: String,
}

fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

impl Row {
    /// The row of a record the library numbered (`digest` and `n`, as
    /// [`bulk::number_paper`] and [`pith::Record::number`] give them); `title` and `authors`
    /// are whitespace-collapsed already.
    fn of_record(
        record: &pith::Record,
        (digest, n): (&[u8; 32], &PithNumber),
        title: String,
        authors: String,
        version_date: String,
    ) -> Row {
        let bytes = record.canonical_bytes();
        let m = &record.metadata;
        let mut categories = m.primary_cat.clone();
        for c in &m.cross_cats_sorted {
            categories.push(' ');
            categories.push_str(c);
        }
        Row {
            code: n.code().to_owned(),
            year: record.year(),
            sha256: pith::number::hex(digest),
            // Canonical JSON is UTF-8 (serde_json writes nothing else).
            record: String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            arxiv_id: record.source.id.clone(),
            version: record.source.version,
            title,
            authors,
            submitted_at: m.submitted_at.clone(),
            version_date,
            categories,
            license: m.license.clone(),
            abstract_text: String::new(),
        }
    }
}

/// One unit of bulk input, numbered by a worker.
enum Work {
    Row(Box<Row>),
    Deleted,
    Bad(String),
    Nothing,
}

fn number_unit(u: Unit) -> Work {
    let place = u.place.clone();
    match u.meaning() {
        Meaning::Meta(mut m) => {
            let authors = std::mem::take(&mut m.authors);
            let latest = m.latest_version().ok();
            let version_date = m
                .versions
                .iter()
                .find(|(l, _)| pith::record::arxiv::version_number(l) == latest)
                .and_then(|(_, d)| date::rfc2822_to_utc(d).ok())
                .unwrap_or_default();
            let title = collapse(&m.title);
            let abstract_text = collapse(&m.abstract_text);
            match m.into_paper().and_then(|p| bulk::number_paper(&p)) {
                Ok((record, digest, n)) => {
                    let mut row = Row::of_record(
                        &record,
                        (&digest, &n),
                        title,
                        collapse(&authors),
                        version_date,
                    );
                    row.abstract_text = abstract_text;
                    Work::Row(Box::new(row))
                }
                Err(reason) => Work::Bad(format!("{place}: {reason}")),
            }
        }
        Meaning::Deleted(_) => Work::Deleted,
        Meaning::Bad(reason) => Work::Bad(format!("{place}: {reason}")),
        Meaning::Notice(_) | Meaning::Nothing => Work::Nothing,
    }
}

/// The writer side of a build: one connection to the temporary file, in one transaction.
struct Writer<'c> {
    conn: &'c Connection,
    counts: Counts,
    /// While a new file is filled without its [`INDEXES`]: hashes of the codes and of the
    /// (arXiv id, version) pairs inserted so far.
    deferred: Option<Deferred>,
}

/// What a new file's bulk rows are checked against while it has no [`INDEXES`]. Distinct
/// hashes mean distinct keys, so a row whose two hashes are new is new; any other row (a
/// version met again, or a hash collision) creates the indexes and takes the indexed path.
#[derive(Default)]
struct Deferred {
    hasher: std::collections::hash_map::RandomState,
    codes: std::collections::HashSet<u64>,
    versions: std::collections::HashSet<u64>,
}

impl Writer<'_> {
    /// Creates the secondary indexes if they were deferred.
    fn index(&mut self) -> Result<(), Error> {
        if self.deferred.take().is_some() {
            self.conn.execute_batch(INDEXES)?;
        }
        Ok(())
    }

    /// Inserts `row`; with `or_ignore`, a row whose code or current version is indexed
    /// already is left out. Returns the rows inserted (0 or 1).
    fn insert(&self, row: &Row, or_ignore: bool) -> Result<usize, Error> {
        // Constant statements: the cache finds them without a string built per row.
        const INSERT: &str = "INSERT INTO records (code, year, sha256, record, arxiv_id, \
            version, title, authors, submitted_at, version_date, categories, license) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
        const INSERT_OR_IGNORE: &str = "INSERT OR IGNORE INTO records (code, year, sha256, \
            record, arxiv_id, version, title, authors, submitted_at, version_date, categories, \
            license) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
        Ok(self
            .conn
            .prepare_cached(if or_ignore { INSERT_OR_IGNORE } else { INSERT })?
            .execute(params![
                row.code,
                row.year,
                row.sha256,
                row.record,
                row.arxiv_id,
                row.version,
                row.title,
                row.authors,
                row.submitted_at,
                row.version_date,
                row.categories,
                row.license
            ])?)
    }

    /// Stores `row` ([`Writer::put_row`]) and its abstract, when it has one.
    fn put(&mut self, row: &Row) -> Result<(), Error> {
        self.put_row(row)?;
        if !row.abstract_text.is_empty() {
            self.conn
                .prepare_cached(
                    "INSERT OR REPLACE INTO abstracts (code, abstract) VALUES (?1, ?2)",
                )?
                .execute(params![row.code, row.abstract_text])?;
        }
        Ok(())
    }

    fn put_row(&mut self, row: &Row) -> Result<(), Error> {
        if let Some(d) = &self.deferred {
            use std::hash::BuildHasher;
            let code = d.hasher.hash_one(&row.code);
            let version = d.hasher.hash_one((&row.arxiv_id, row.version));
            if !d.codes.contains(&code) && !d.versions.contains(&version) {
                self.insert(row, false)?;
                if let Some(d) = &mut self.deferred {
                    d.codes.insert(code);
                    d.versions.insert(version);
                }
                self.counts.added += 1;
                return Ok(());
            }
            self.index()?;
        }
        let c = self.conn;
        let inserted = self.insert(row, true)?;
        if inserted == 1 {
            self.counts.added += 1;
            return Ok(());
        }
        // Either this record is indexed already, or this version has another record.
        let current: Option<String> = c
            .prepare_cached(
                "SELECT code FROM records WHERE arxiv_id = ?1 AND version = ?2 AND superseded = 0",
            )?
            .query_row(params![row.arxiv_id, row.version], |r| r.get(0))
            .optional()?;
        if current.as_deref() == Some(row.code.as_str()) {
            self.counts.unchanged += 1;
            // Display fields may be filled in by a richer source (a snapshot after a record).
            c.prepare_cached(
                "UPDATE records SET title = CASE WHEN ?2 = '' THEN title ELSE ?2 END, \
                 authors = CASE WHEN ?3 = '' THEN authors ELSE ?3 END, \
                 version_date = CASE WHEN ?4 = '' THEN version_date ELSE ?4 END WHERE code = ?1 \
                 AND (?2 <> '' AND title <> ?2 OR ?3 <> '' AND authors <> ?3 \
                 OR ?4 <> '' AND version_date <> ?4)",
            )?
            .execute(params![row.code, row.title, row.authors, row.version_date])?;
            return Ok(());
        }
        self.counts.changed += 1;
        c.prepare_cached(
            "UPDATE records SET superseded = 1 WHERE arxiv_id = ?1 AND version = ?2 AND superseded = 0",
        )?
        .execute(params![row.arxiv_id, row.version])?;
        // The record may be an older one coming back: make it current again.
        let back = c
            .prepare_cached("UPDATE records SET superseded = 0 WHERE code = ?1")?
            .execute([&row.code])?;
        if back == 0 {
            self.insert(row, false)?;
        }
        Ok(())
    }

    /// Checks the proof `file` (`<26>.ots`) of the indexed record of that code against
    /// `headers`, and stores it when it is anchored; otherwise removes what an earlier build
    /// stored for the code and says why (the inner error).
    fn put_anchor(
        &mut self,
        file: &Path,
        headers: &pith::ots::Headers,
    ) -> Result<Result<(), String>, Error> {
        let code = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default();
        let Ok(number) = pith::PithNumber::parse(&code) else {
            return Ok(Err("not named <26 characters of a number>.ots".into()));
        };
        let code = number.code().to_owned();
        self.conn
            .execute("DELETE FROM anchors WHERE code = ?1", [&code])?;
        let stored: Option<String> = self
            .conn
            .query_row("SELECT record FROM records WHERE code = ?1", [&code], |r| {
                r.get(0)
            })
            .optional()?;
        let Some(record) = stored.and_then(|r| pith::Record::from_json(&r).ok()) else {
            return Ok(Err(format!("no record of {code} is indexed")));
        };
        // Read under the proof limits (a device or a huge file is refused, not read); a proof
        // that cannot be read is reported and skipped, as a bad record is.
        let (proof, bytes) = match pith::ots::file::read_proof(file) {
            Ok(read) => read,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let verdict = pith::ots::check(&proof, &pith::ots::Expected::record(&record), headers);
        let anchor = match verdict {
            Ok(pith::ots::Verdict::Anchored(a)) => a,
            Ok(pith::ots::Verdict::Pending { .. }) => return Ok(Err("pending".into())),
            Ok(pith::ots::Verdict::Refused(why)) => return Ok(Err(why.to_string())),
            Err(e) => return Ok(Err(e.to_string())),
        };
        self.conn.execute(
            "INSERT INTO anchors (code, height, time, block_hash, merkle_root, proof) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                code,
                anchor.height as i64,
                anchor.time,
                anchor.block_hash,
                anchor.merkle_root,
                bytes
            ],
        )?;
        self.counts.anchors += 1;
        Ok(Ok(()))
    }

    fn put_bundle(&mut self, bundle: &Bundle, keys: &[Key]) -> Result<(), Error> {
        let record = bundle.record();
        let row = Row::of_record(
            record,
            (&record.digest(), &record.number()),
            String::new(),
            String::new(),
            String::new(),
        );
        // A bundle may come before (or without) its paper's metadata: its record is indexed too.
        let has: bool = self
            .conn
            .prepare_cached("SELECT 1 FROM records WHERE code = ?1")?
            .exists([&row.code])?;
        if !has {
            self.put(&row)?;
        }
        let flags = serde_json::to_string(&bundle.flags(keys)).unwrap_or_default();
        self.conn
            .prepare_cached(
                "INSERT OR REPLACE INTO bundles (code, bundle, flags) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![row.code, bundle.to_json(), flags])?;
        self.counts.bundles += 1;
        Ok(())
    }
}

/// The `*.json` files under `dir`, recursively, in path order.
/// What the readable proofs of `dirs` claim: the Bitcoin blocks, lowest first, each once (the
/// headers to fetch for them), and the merkle roots they arrive at (the headers worth keeping
/// from a file). A proof that cannot be read or replayed is left out: the build reports it.
///
/// # Errors
/// A folder that cannot be read.
pub fn anchor_claims(
    dirs: &[PathBuf],
) -> Result<(Vec<u64>, std::collections::HashSet<[u8; 32]>), Error> {
    let mut heights = Vec::new();
    let mut roots = std::collections::HashSet::new();
    for dir in dirs {
        for file in ots_files(dir)? {
            let Ok((p, _)) = pith::ots::file::read_proof(&file) else {
                continue;
            };
            if let Ok(r) = p.bitcoin_roots() {
                heights.extend(p.bitcoin_heights());
                roots.extend(r);
            }
        }
    }
    heights.sort_unstable();
    heights.dedup();
    Ok((heights, roots))
}

/// The `*.ots` files of a folder, sorted.
fn ots_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::from(e).at(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ots"))
        .collect();
    v.sort();
    Ok(v)
}

fn json_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| Error::from(e).at(&d))?;
        for e in rd {
            let e = e.map_err(|e| Error::from(e).at(&d))?;
            let p = e.path();
            let t = e.file_type().map_err(|e| Error::from(e).at(&p))?;
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() && p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// What a file of a records or bundles folder holds.
enum Item {
    Row(Box<Row>),
    Bundle(Box<Bundle>),
}

/// The bundle a file of a bundles folder holds, or why it is not served: a bundle whose own
/// statements disagree with its record is left out.
fn bundle_in(text: &str, keys: &[Key]) -> Result<Box<Bundle>, String> {
    let b = Bundle::from_json(text).map_err(|e| e.to_string())?;
    match b.check(keys).verdict() {
        Verdict::Mismatch => {
            Err("the bundle does not verify (`pith verify --bundle` says why)".to_owned())
        }
        _ => Ok(Box::new(b)),
    }
}

/// The records a file of a records folder holds: `(record, title, authors, abstract)`, or why
/// not.
fn records_in(text: &str) -> Vec<Result<(pith::Record, String, String, String), String>> {
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![Err(format!("not JSON: {e}"))],
    };
    let items = match v {
        serde_json::Value::Array(a) => a,
        one => vec![one],
    };
    items
        .into_iter()
        .map(|item| {
            let bytes = serde_json::to_vec(&item).map_err(|e| e.to_string())?;
            let r = pith::net::resolver::read_record(&bytes).map_err(|e| e.to_string())?;
            let n = r.record.number();
            if let Some(stated) = &r.stated_number {
                let ok = PithNumber::parse(stated).is_ok_and(|s| {
                    s.code() == n.code() && s.year().is_none_or(|y| Some(y) == n.year())
                });
                if !ok {
                    return Err(format!("states {stated} but the record's number is {n}"));
                }
            }
            if let Some(sha) = &r.stated_sha256 {
                if !sha.eq_ignore_ascii_case(&r.record.canonical_sha256()) {
                    return Err(format!(
                        "states canonical_sha256 {sha}, the record hashes to {}",
                        r.record.canonical_sha256()
                    ));
                }
            }
            let text = |k: &str| {
                item.get(k)
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            Ok((r.record, text("title"), text("authors"), text("abstract")))
        })
        .collect()
}

/// Builds the index at `out` from `sources`: into a temporary file beside `out` (starting from
/// a copy of `out` unless `opts.fresh`), then renamed over `out`. Problems with single lines,
/// records, files or bundles go to `report` (one line each) and are counted as bad; under
/// `opts.strict` the first one ends the build and `out` is left as it was.
///
/// # Errors
/// [`ErrorKind::Input`] for an input that cannot be opened, [`ErrorKind::Bad`] under
/// `strict`, [`ErrorKind::Schema`] when `out` exists and is not an index, [`ErrorKind::Io`]
/// and [`ErrorKind::Sqlite`] for the file itself.
///
/// # Examples
/// ```no_run
/// use pith_serve::index::{build, BuildOptions, Sources};
/// let sources = Sources {
///     snapshots: vec!["arxiv-metadata-oai-snapshot.json".into()],
///     keys: vec![pith::verify::Key::registry()],
///     ..Sources::default()
/// };
/// let opts = BuildOptions { threads: 4, strict: false, fresh: false };
/// let counts = build("arxiv.pith-index".as_ref(), &sources, opts, &mut |line| eprintln!("{line}"))?;
/// println!("{counts}");
/// # Ok::<(), pith_serve::index::Error>(())
/// ```
pub fn build(
    out: &Path,
    sources: &Sources,
    opts: BuildOptions,
    report: &mut dyn FnMut(&str),
) -> Result<Counts, Error> {
    // A path the user named that is not there is a mistake in the command, said before any
    // work and with no index written; a file that is there but cannot be read whole is one
    // line of the run, and the rest is indexed.
    for p in sources
        .snapshots
        .iter()
        .chain(&sources.oai)
        .chain(&sources.records)
        .chain(&sources.bundles)
        .chain(&sources.anchors)
        .chain(&sources.captures)
        .chain(&sources.refs)
    {
        std::fs::metadata(p).map_err(|e| Error::from(e).at(p))?;
    }
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "index".into());
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.pith-index-"))
        .tempfile_in(&dir)
        .map_err(|e| Error::from(e).at(&dir))?;
    let existing = !opts.fresh && out.exists();
    if existing {
        // Check before copying: never replace something that is not an index.
        open_read(out).map_err(|e| e.at(out))?;
        std::fs::copy(out, tmp.path()).map_err(|e| Error::from(e).at(out))?;
    }
    let conn = Connection::open(tmp.path()).map_err(|e| Error::from(e).at(tmp.path()))?;
    // The temporary file is thrown away on any failure, so no journal is needed while building.
    conn.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; \
         PRAGMA cache_size = -65536; PRAGMA temp_store = FILE;",
    )?;
    if existing {
        check_schema(&conn).map_err(|e| e.at(out))?;
    } else {
        conn.execute_batch(&format!("PRAGMA page_size = 8192; {SCHEMA}"))?;
    }
    // The keys receipts are checked with: those the index trusts already (an operator pinned
    // them once; adding records must not forget them), and those given now.
    let before = if existing {
        keys::stored(&conn)?
    } else {
        Vec::new()
    };
    let trusted = keys::merged(&before, &sources.keys, sources.drop_keys);
    conn.execute_batch("BEGIN")?;
    conn.execute_batch(ABSTRACTS)?;
    let mut w = Writer {
        conn: &conn,
        counts: Counts::default(),
        deferred: (!existing).then(Deferred::default),
    };
    let mut failure: Option<Error> = None;
    let mut bad = |w: &mut Writer, line: String, failure: &mut Option<Error>| {
        w.counts.bad += 1;
        if opts.strict {
            failure.get_or_insert(ErrorKind::Bad(line).into());
        } else {
            report(&line);
        }
    };
    // arXiv bulk metadata: numbers computed on every core, stored in input order.
    let inputs: Vec<bulk::MetadataFile> = sources
        .snapshots
        .iter()
        .map(|p| (p, bulk::Format::Snapshot))
        .chain(sources.oai.iter().map(|p| (p, bulk::Format::Oai)))
        .map(|(p, f)| bulk::MetadataFile {
            path: p.clone(),
            format: Some(f),
        })
        .collect();
    if !inputs.is_empty() {
        bulk::scan(&inputs, opts.threads.max(1), number_unit, |work| {
            match work {
                Work::Row(row) => {
                    if let Err(e) = w.put(&row) {
                        failure = Some(e);
                    }
                }
                Work::Deleted => w.counts.deleted += 1,
                Work::Bad(line) => bad(&mut w, line, &mut failure),
                Work::Nothing => {}
            }
            failure.is_none()
        })
        .map_err(|e| Error::from(ErrorKind::Input(e.to_string())))?;
    }
    if let Some(e) = failure.take() {
        return Err(e);
    }
    // From here on a bad input is reported (or, strictly, ends the build) where it is found.
    let mut refuse = |w: &mut Writer, line: String| -> Result<(), Error> {
        bad(w, line, &mut failure);
        failure.take().map_or(Ok(()), Err)
    };
    w.index()?;
    // Folders of records, then folders of bundles: every item stored, or reported.
    let folders = (sources.records.iter().map(|d| (d, false)))
        .chain(sources.bundles.iter().map(|d| (d, true)));
    for (dir, bundles) in folders {
        for file in json_files(dir)? {
            let text = std::fs::read_to_string(&file).map_err(|e| Error::from(e).at(&file))?;
            let items: Vec<Result<Item, String>> = if bundles {
                vec![bundle_in(&text, &trusted).map(Item::Bundle)]
            } else {
                records_in(&text)
                    .into_iter()
                    .map(|r| {
                        r.map(|(rec, t, a, abs)| {
                            let mut row = Row::of_record(
                                &rec,
                                (&rec.digest(), &rec.number()),
                                collapse(&t),
                                collapse(&a),
                                String::new(),
                            );
                            row.abstract_text = collapse(&abs);
                            Item::Row(Box::new(row))
                        })
                    })
                    .collect()
            };
            for item in items {
                match item {
                    Ok(Item::Row(row)) => w.put(&row)?,
                    Ok(Item::Bundle(b)) => w.put_bundle(&b, &trusted)?,
                    Err(reason) => refuse(&mut w, format!("{}: {reason}", file.display()))?,
                }
            }
        }
    }
    conn.execute_batch(ANCHORS)?;
    for dir in &sources.anchors {
        for file in ots_files(dir)? {
            if let Err(reason) = w.put_anchor(&file, &sources.headers)? {
                refuse(&mut w, format!("{}: {reason}", file.display()))?;
            }
        }
    }
    if !sources.captures.is_empty() {
        let mut report_bad = |line: String| refuse(&mut w, line);
        let stored = super::captures::build(&conn, &sources.captures, &mut report_bad)?;
        w.counts.stored += stored;
    }
    if !sources.refs.is_empty() {
        let mut lines = Vec::new();
        w.counts.refs = super::cites::put_refs(&conn, &sources.refs, &mut |l| lines.push(l))?;
        for line in lines {
            refuse(&mut w, line)?;
        }
    }
    // Bundles indexed before were flagged with the keys trusted then: when the keys changed,
    // each is checked again, so that its badge and `/verify` agree.
    if existing && !keys::same(&before, &trusted) {
        keys::recheck(&conn, &trusted, report)?;
    }
    let mut counts = w.counts;
    counts.records =
        conn.query_row("SELECT count(*) FROM records", [], |r| r.get::<_, i64>(0))? as u64;
    let built_at = pith::job::now();
    let mut meta = conn.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")?;
    meta.execute(params!["built_at", built_at])?;
    meta.execute(params![
        "last_build",
        serde_json::to_string(&counts).unwrap_or_default()
    ])?;
    meta.execute(params![
        "builder",
        concat!("pith-serve ", env!("CARGO_PKG_VERSION"))
    ])?;
    drop(meta);
    // The keys the bundles' receipts were checked with: the server checks an uploaded PDF's
    // receipts with the same ones, so its check page and its badges agree.
    keys::store(&conn, &trusted)?;
    conn.execute_batch("COMMIT")?;
    conn.execute_batch("PRAGMA journal_mode = DELETE")?;
    drop(conn);
    // Temporary files are private (0600); an index is served, often by another user (a
    // container's), so it gets the old index's permissions, or rw-r--r--.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let perms = match std::fs::metadata(out) {
            Ok(m) if existing => m.permissions(),
            _ => std::fs::Permissions::from_mode(0o644),
        };
        std::fs::set_permissions(tmp.path(), perms).map_err(|e| Error::from(e).at(tmp.path()))?;
    }
    // On disk before it takes the old index's name, and the name change on disk after.
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::from(e).at(tmp.path()))?;
    tmp.persist(out).map_err(|e| Error::from(e.error).at(out))?;
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(counts)
}
