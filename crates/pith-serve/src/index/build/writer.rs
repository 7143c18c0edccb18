//! Writing an index's rows: a numbered version, a record of a records folder, a bundle and an
//! anchor, into the temporary file within one transaction, with the secondary indexes created
//! once a row needs them.

use std::path::Path;

use pith::verify::{Bundle, Key};
use pith::PithNumber;
use rusqlite::{params, Connection, OptionalExtension};

use super::super::{Error, INDEXES};
use super::Counts;

/// A version ready to be stored.
pub(super) struct Row {
    pub(super) code: String,
    pub(super) year: u16,
    sha256: String,
    pub(super) record: String,
    pub(super) arxiv_id: String,
    pub(super) version: u32,
    pub(super) title: String,
    pub(super) authors: String,
    pub(super) submitted_at: String,
    pub(super) version_date: String,
    pub(super) categories: String,
    pub(super) license: String,
    /// The abstract, whitespace collapsed; empty when the source gave none.
    pub(super) abstract_text: String,
}

pub(super) fn collapse(s: &str) -> String {
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
    /// [`bulk::number_paper`](pith::record::arxiv::bulk::number_paper) and [`pith::Record::number`] give them); `title` and `authors`
    /// are whitespace-collapsed already.
    pub(super) fn of_record(
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

/// The writer side of a build: one connection to the temporary file, in one transaction.
pub(super) struct Writer<'c> {
    pub(super) conn: &'c Connection,
    pub(super) counts: Counts,
    /// While a new file is filled without its [`INDEXES`]: hashes of the codes and of the
    /// (arXiv id, version) pairs inserted so far.
    pub(super) deferred: Option<Deferred>,
}

/// What a new file's bulk rows are checked against while it has no [`INDEXES`]. Distinct
/// hashes mean distinct keys, so a row whose two hashes are new is new; any other row (a
/// version met again, or a hash collision) creates the indexes and takes the indexed path.
#[derive(Default)]
pub(super) struct Deferred {
    pub(super) hasher: std::collections::hash_map::RandomState,
    pub(super) codes: std::collections::HashSet<u64>,
    pub(super) versions: std::collections::HashSet<u64>,
}

impl Writer<'_> {
    /// Creates the secondary indexes if they were deferred.
    pub(super) fn index(&mut self) -> Result<(), Error> {
        if self.deferred.take().is_some() {
            self.conn.execute_batch(INDEXES)?;
        }
        Ok(())
    }

    /// Inserts `row`; with `or_ignore`, a row whose code or current version is indexed
    /// already is left out. Returns the rows inserted (0 or 1).
    pub(super) fn insert(&self, row: &Row, or_ignore: bool) -> Result<usize, Error> {
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
    pub(super) fn put(&mut self, row: &Row) -> Result<(), Error> {
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

    pub(super) fn put_row(&mut self, row: &Row) -> Result<(), Error> {
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
    pub(super) fn put_anchor(
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

    pub(super) fn put_bundle(&mut self, bundle: &Bundle, keys: &[Key]) -> Result<(), Error> {
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
