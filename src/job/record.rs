//! The record job (`pith record`): the canonical record of every paper a record input
//! describes, written as JSON or as the exact bytes that are hashed.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::given::Given;
use super::Error;
use crate::net;
use crate::record::Record;

/// What `pith record` is asked, as a door was given it: the record input and the form the
/// records are written in. [`RecordRequest::validate`] refuses what does not go together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecordRequest {
    /// The record input.
    pub given: Given,
    /// Write the exact canonical bytes that are hashed (no trailing newline), not JSON.
    pub canonical: bool,
}

impl RecordRequest {
    /// Refuses record inputs that contradict each other or are incomplete, as
    /// [`Given::input`] does (a title or abstract given as a file is read).
    ///
    /// # Errors
    /// As [`Given::input`] (kind `request` for a contradiction).
    ///
    /// # Examples
    /// ```
    /// use pith::job::{given::Given, record::RecordRequest};
    /// assert!(RecordRequest::default().validate().is_err());
    /// let atom = Given { arxiv_atom: Some("a.xml".into()), ..Given::default() };
    /// let both = Given { record: Some("r.json".into()), ..atom.clone() };
    /// assert!(RecordRequest { given: atom, canonical: true }.validate().is_ok());
    /// assert!(RecordRequest { given: both, canonical: true }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        self.given.input().map(drop)
    }

    /// Writes `records` in the form asked: pretty JSON for one, JSON Lines for several (the
    /// entries of a feed); with `canonical`, the canonical bytes, one record a line.
    ///
    /// # Errors
    /// `out`'s own.
    pub fn write(&self, records: &[Record], out: &mut dyn Write) -> std::io::Result<()> {
        for (i, record) in records.iter().enumerate() {
            if self.canonical {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(&record.canonical_bytes())?;
            } else if records.len() > 1 {
                writeln!(out, "{}", serde_json::to_string(&record.to_value())?)?;
            } else {
                writeln!(out, "{}", serde_json::to_string_pretty(&record.to_value())?)?;
            }
        }
        out.flush()
    }
}

/// Builds every record the request's input describes (one per Atom entry for a feed with
/// several).
///
/// # Errors
/// As [`RecordRequest::validate`] and [`super::input::RecordSource::records`].
pub fn run(req: &RecordRequest, net: &net::Settings) -> Result<Vec<Record>, Error> {
    req.given.input()?.records(net)
}
