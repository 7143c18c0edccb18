//! Building an index: [`build`] reads the sources (arXiv bulk metadata, records, bundles),
//! numbers them through the library, and writes a new file that is renamed over the old one.
//! Writing the rows is `writer`'s, reading the folders of records, bundles and proofs `sources`'.

use std::fmt;
use std::path::{Path, PathBuf};

use pith::record::arxiv::bulk::{self, Meaning, Unit};
use pith::record::arxiv::date;
use pith::verify::Key;
use rusqlite::{params, Connection};
use serde::Serialize;

use super::read::{check_schema, open_read};
use super::{keys, Error, ErrorKind, ABSTRACTS, ANCHORS, SCHEMA};

mod sources;
mod writer;

pub use sources::anchor_claims;
use sources::{bundle_in, json_files, ots_files, records_in, Item};
use writer::{collapse, Deferred, Row, Writer};

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
        // Anchors, references and stored files are said only when a build has them.
        let some = |n: u64, what: &str| match n {
            0 => String::new(),
            n => format!("{n} {what}, "),
        };
        write!(
            f,
            "{} added, {} changed, {} unchanged, {} deleted, {} bundles, {}{}{}{} bad; {} records",
            self.added,
            self.changed,
            self.unchanged,
            self.deleted,
            self.bundles,
            some(self.anchors, "anchored"),
            some(self.refs, "references"),
            some(self.stored, "stored"),
            self.bad,
            self.records
        )
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
            let text = pith::bounded::read_text_file(&file, pith::bounded::FILE_BYTES)
                .map_err(|e| Error::from(e).at(&file))?;
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
