//! What an OpenTimestamps proof is of, as a door names it ([`ProofSubject`]): a number or a
//! record, a file, or a digest, and never more than one.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::error::Conflict;
use super::{Error, ErrorKind};

/// The thing a proof is made of or checked against, as given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProofSubject {
    /// A Pith Number or a record file.
    pub subject: Option<String>,
    /// A file: the SHA-256 of its bytes.
    pub file: Option<PathBuf>,
    /// A SHA-256 digest, 64 hex digits.
    pub digest: Option<String>,
}

impl ProofSubject {
    /// Refuses more than one subject.
    ///
    /// # Errors
    /// [`Conflict::SeveralSubjects`] (kind `request`).
    ///
    /// # Examples
    /// ```
    /// use pith::job::ots::ProofSubject;
    /// let two = ProofSubject { file: Some("a".into()), digest: Some("00".into()), ..Default::default() };
    /// assert!(two.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let given = [
            self.subject.is_some(),
            self.file.is_some(),
            self.digest.is_some(),
        ];
        match given.iter().filter(|g| **g).count() {
            0 | 1 => Ok(()),
            _ => Err(Error::new(ErrorKind::Given(Conflict::SeveralSubjects))),
        }
    }
}
