//! `pith ots` as data ([`OtsRequest`]): stamp a digest at OpenTimestamps' calendars, complete
//! a pending proof, or check a proof offline against Bitcoin block headers. A door fills one
//! of the three requests and prints the report ([`OtsReport`]); it decides nothing.
//!
//! What is left out is the library's default, and [`OtsRequest::validate`] refuses what does
//! not hold together, once, with a kind and one sentence: what a proof is of
//! ([`ProofSubject`]: one of a number or record, a file, a digest), standard input read once
//! and never rewritten in place, a proof's output (its default name, a folder, `-` for standard
//! output). The run ([`OtsRequest::run`]) resolves the rest: the digest of a file within its
//! deadline ([`super::stop::file_bound`]: 0 is no bound), the calendars
//! ([`crate::net::ots::Calendars::from_env`]) and the headers (a file, else [`crate::net::ots::ENV_BITCOIN_URL`],
//! else none). The formats and the check are [`crate::ots`]'s, the network
//! [`crate::net::ots`]'s.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::Conflict;
use super::{Error, ErrorKind};
use crate::net;
use crate::ots::Verdict;

mod headers;
mod run;

pub use headers::HeadersSource;

/// The thing a proof is made of or checked against, as given: flattened into
/// [`OtsStampRequest`] and [`OtsVerifyRequest`], its keys beside theirs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProofSubject {
    /// A Pith Number, or a record file (`-`: standard input).
    pub subject: Option<String>,
    /// A file: the SHA-256 of its bytes (`-`: standard input's).
    pub file: Option<PathBuf>,
    /// A SHA-256 digest, 64 hex digits.
    pub digest: Option<String>,
}

impl ProofSubject {
    /// Refuses more than one subject, and none, and a digest that is not one.
    ///
    /// # Errors
    /// [`Conflict::SeveralSubjects`] and [`Conflict::NoSubject`] (kind `request`);
    /// [`ErrorKind::Verify`] (kind `bad_hash`) for the digest.
    ///
    /// # Examples
    /// ```
    /// use pith::job::ots::ProofSubject;
    /// let two = ProofSubject { file: Some("a".into()), digest: Some("00".into()), ..Default::default() };
    /// assert!(two.validate().is_err());
    /// assert_eq!(ProofSubject::default().validate().unwrap_err().kind_name(), "request");
    /// let short = ProofSubject { digest: Some("00".into()), ..Default::default() };
    /// assert_eq!(short.validate().unwrap_err().kind_name(), "bad_hash");
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let given = [
            self.subject.is_some(),
            self.file.is_some(),
            self.digest.is_some(),
        ];
        match given.iter().filter(|g| **g).count() {
            0 => return Err(Error::new(ErrorKind::Given(Conflict::NoSubject))),
            1 => {}
            _ => return Err(Error::new(ErrorKind::Given(Conflict::SeveralSubjects))),
        }
        if let Some(d) = &self.digest {
            crate::verify::parse_sha256(d).map_err(|e| Error::new(ErrorKind::Verify(e)))?;
        }
        Ok(())
    }

    /// The paths of standard input this names (`-` as the record or the file).
    fn stdin(&self) -> impl Iterator<Item = &Path> {
        let record = self.subject.as_deref().map(Path::new);
        record
            .into_iter()
            .chain(self.file.as_deref())
            .filter(|p| crate::output::is_stdio(p))
    }
}

/// `pith ots` as data: one of its three questions, externally tagged in JSON
/// (`{"verify": {"proof": "p.ots", "digest": "…"}}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OtsRequest {
    /// Submit a digest to the calendars and write its pending proof.
    Stamp(OtsStampRequest),
    /// Complete a pending proof from its calendars (rewrites the proof file).
    Upgrade(OtsUpgradeRequest),
    /// Check a proof offline against Bitcoin block headers.
    Verify(OtsVerifyRequest),
}

/// `pith ots stamp`: what the proof is of, where it is written and how long hashing a file
/// may take.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OtsStampRequest {
    /// What the proof is of.
    #[serde(flatten)]
    pub subject: ProofSubject,
    /// Where the proof is written: a file, a folder (the default name inside it; missing
    /// folders are made) or `-` for standard output. Left out, the default name: `<26>.ots`
    /// for a number or record, `FILE.ots` beside a file, `<HEX>.ots` for a digest (standard
    /// input has no name: its proof needs an output).
    pub output: Option<PathBuf>,
    /// How long hashing the file may take, in seconds: 0 is no bound, left out
    /// [`super::defaults::FILE_TIMEOUT_SECS`].
    pub file_timeout: Option<f64>,
    /// Refuse to replace a proof file that exists.
    pub no_clobber: bool,
    /// How the resolver (for a number's record) and the calendars are asked.
    #[serde(skip)]
    pub net: net::Settings,
}

/// `pith ots upgrade`: the proof to complete, rewritten in place.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OtsUpgradeRequest {
    /// The proof file (never standard input: the completed proof is written back to it).
    pub proof: Option<PathBuf>,
    /// How the calendars are asked.
    #[serde(skip)]
    pub net: net::Settings,
}

/// `pith ots verify`: the proof, what it is of, the headers it is checked against and how
/// long hashing a file may take.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OtsVerifyRequest {
    /// The proof file (`-`: standard input).
    pub proof: Option<PathBuf>,
    /// What the proof is of.
    #[serde(flatten)]
    pub subject: ProofSubject,
    /// Bitcoin block headers: 80-byte headers one after another, or lines of 160 hex digits
    /// (`-`: standard input). Left out, those of the blocks the proof claims, asked of
    /// [`crate::net::ots::ENV_BITCOIN_URL`] when it is set; else none.
    pub headers: Option<PathBuf>,
    /// How long hashing the file may take, in seconds: 0 is no bound, left out
    /// [`super::defaults::FILE_TIMEOUT_SECS`].
    pub file_timeout: Option<f64>,
    /// How a Bitcoin API is asked for headers.
    #[serde(skip)]
    pub net: net::Settings,
}

/// What `pith ots` did: the report of each question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum OtsReport {
    /// A proof stamped.
    Stamp(OtsStampReport),
    /// A proof upgraded, or not yet.
    Upgrade(OtsUpgradeReport),
    /// The verdict on a proof (`status`: `anchored`, `pending` or `refused`).
    Verify(Verdict),
}

/// The report of a stamp: `pith ots stamp --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OtsStampReport {
    /// Where the proof was written (`-`: standard output).
    pub proof: String,
    /// The SHA-256 stamped, 64 hex digits.
    pub digest: String,
    /// The calendars that answered: the proof is pending at each.
    pub calendars: Vec<String>,
    /// The calendars that did not answer, each with why.
    pub failed: Vec<CalendarFailure>,
}

/// A calendar that did not answer a stamp.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CalendarFailure {
    /// The calendar's URL.
    pub calendar: String,
    /// Why, one line.
    pub reason: String,
}

/// Where an upgrade left a proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UpgradeStatus {
    /// Pending attestations were completed and the proof rewritten.
    Completed,
    /// It held a Bitcoin attestation already and nothing was left to ask.
    Complete,
    /// The calendars have nothing yet (or none may be asked); the proof is unchanged.
    Pending,
}

/// The report of an upgrade: `pith ots upgrade --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OtsUpgradeReport {
    /// The proof file.
    pub proof: String,
    /// Completed, complete already, or pending.
    pub status: UpgradeStatus,
    /// The pending attestations completed.
    pub completed: usize,
    /// Calendars the proof names that pith does not ask (not among
    /// [`crate::net::ots::ENV_CALENDARS`]'s).
    pub untrusted: Vec<String>,
}

impl OtsRequest {
    /// Refuses a request that does not hold together, before anything is read, asked or
    /// written: [`OtsStampRequest::validate`], [`OtsUpgradeRequest::validate`],
    /// [`OtsVerifyRequest::validate`].
    ///
    /// # Errors
    /// As theirs.
    pub fn validate(&self) -> Result<(), Error> {
        match self {
            OtsRequest::Stamp(r) => r.validate(),
            OtsRequest::Upgrade(r) => r.validate(),
            OtsRequest::Verify(r) => r.validate(),
        }
    }

    /// The proof an upgrade or a check reads (none for a stamp, which writes one).
    pub fn proof(&self) -> Option<&Path> {
        match self {
            OtsRequest::Stamp(_) => None,
            OtsRequest::Upgrade(r) => r.proof.as_deref(),
            OtsRequest::Verify(r) => r.proof.as_deref(),
        }
    }

    /// Checks the request and runs it.
    ///
    /// # Errors
    /// What [`OtsRequest::validate`] refuses; as each run.
    pub fn run(&self) -> Result<OtsReport, Error> {
        match self {
            OtsRequest::Stamp(r) => r.run().map(OtsReport::Stamp),
            OtsRequest::Upgrade(r) => r.run().map(OtsReport::Upgrade),
            OtsRequest::Verify(r) => r.run().map(OtsReport::Verify),
        }
    }
}

impl OtsStampRequest {
    /// Refuses what a stamp cannot do: the subject's contradictions
    /// ([`ProofSubject::validate`]); a file from standard input without an output (it has no
    /// name to name the proof after), or into a folder; the network's settings.
    ///
    /// # Errors
    /// As [`ProofSubject::validate`]; [`ErrorKind::Request`] for standard input's proof;
    /// [`ErrorKind::Net`] for the settings.
    ///
    /// # Examples
    /// ```
    /// use pith::job::ots::{OtsStampRequest, ProofSubject};
    /// let file = |f: &str| ProofSubject { file: Some(f.into()), ..Default::default() };
    /// assert!(OtsStampRequest { subject: file("paper.pdf"), ..Default::default() }.validate().is_ok());
    /// let piped = OtsStampRequest { subject: file("-"), ..Default::default() };
    /// assert!(piped.validate().is_err(), "standard input has no name to name its proof after");
    /// assert!(OtsStampRequest { output: Some("-".into()), ..piped }.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        self.subject.validate()?;
        validate_net(&self.net)?;
        if self
            .subject
            .file
            .as_deref()
            .is_some_and(crate::output::is_stdio)
        {
            match &self.output {
                None => {
                    return Err(Error::new(ErrorKind::Request(
                        "standard input has no name to name its proof after: give the proof's file, or - for standard output".into(),
                    ))
                    .in_file(Path::new("-")))
                }
                Some(o) => {
                    super::output_file(o, None)?;
                }
            }
        }
        Ok(())
    }
}

impl OtsUpgradeRequest {
    /// Refuses an upgrade without a proof, or of standard input, which cannot be rewritten
    /// in place; the network's settings.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] without a proof; [`ErrorKind::NotInPlace`] for `-`;
    /// [`ErrorKind::Net`] for the settings.
    pub fn validate(&self) -> Result<(), Error> {
        let proof = required_proof(self.proof.as_deref(), "upgrade")?;
        if crate::output::is_stdio(proof) {
            return Err(Error::new(ErrorKind::NotInPlace).in_file(proof));
        }
        validate_net(&self.net)
    }
}

impl OtsVerifyRequest {
    /// Refuses a check without a proof, the subject's contradictions
    /// ([`ProofSubject::validate`]), standard input named more than once (the proof, the
    /// headers, the record or the file), and the network's settings.
    ///
    /// # Errors
    /// [`ErrorKind::Request`] without a proof and for standard input named twice; as
    /// [`ProofSubject::validate`]; [`ErrorKind::Net`] for the settings.
    ///
    /// # Examples
    /// ```
    /// use pith::job::ots::{OtsVerifyRequest, ProofSubject};
    /// let r = OtsVerifyRequest {
    ///     proof: Some("-".into()),
    ///     subject: ProofSubject { file: Some("-".into()), ..Default::default() },
    ///     ..Default::default()
    /// };
    /// assert!(r.validate().is_err(), "standard input is read once");
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let proof = required_proof(self.proof.as_deref(), "verify")?;
        self.subject.validate()?;
        let read = [Some(proof), self.headers.as_deref()]
            .into_iter()
            .flatten()
            .chain(self.subject.stdin());
        super::stdin_once(read)?;
        validate_net(&self.net)
    }
}

/// The proof a request names, or the refusal of none.
fn required_proof<'a>(proof: Option<&'a Path>, verb: &str) -> Result<&'a Path, Error> {
    proof.ok_or_else(|| {
        Error::new(ErrorKind::Request(format!(
            "give the proof (.ots) to {verb}"
        )))
    })
}

/// The network settings' own refusal (offline with refresh).
fn validate_net(net: &net::Settings) -> Result<(), Error> {
    net.validate()
        .map_err(|e| Error::new(ErrorKind::Net(Box::new(e))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_contradiction_has_its_kind_and_sentence() {
        let digest = "ab".repeat(32);
        let stamp = |s: ProofSubject, output: Option<&str>| OtsStampRequest {
            subject: s,
            output: output.map(PathBuf::from),
            ..Default::default()
        };
        let verify = |proof: &str, s: ProofSubject, headers: Option<&str>| OtsVerifyRequest {
            proof: Some(proof.into()),
            subject: s,
            headers: headers.map(PathBuf::from),
            ..Default::default()
        };
        let file = |f: &str| ProofSubject {
            file: Some(f.into()),
            ..Default::default()
        };
        let bad: Vec<(OtsRequest, &str)> = vec![
            (
                OtsRequest::Stamp(stamp(
                    ProofSubject {
                        file: Some("a".into()),
                        digest: Some(digest.clone()),
                        ..Default::default()
                    },
                    None,
                )),
                "request",
            ),
            (
                OtsRequest::Stamp(stamp(ProofSubject::default(), None)),
                "request",
            ),
            (
                OtsRequest::Stamp(stamp(
                    ProofSubject {
                        digest: Some("00".into()),
                        ..Default::default()
                    },
                    None,
                )),
                "bad_hash",
            ),
            (OtsRequest::Stamp(stamp(file("-"), None)), "request"),
            (OtsRequest::Upgrade(OtsUpgradeRequest::default()), "request"),
            (
                OtsRequest::Upgrade(OtsUpgradeRequest {
                    proof: Some("-".into()),
                    ..Default::default()
                }),
                "not_in_place",
            ),
            (
                OtsRequest::Verify(verify("-", file("a"), Some("-"))),
                "request",
            ),
            (
                OtsRequest::Verify(OtsVerifyRequest {
                    net: net::Settings {
                        offline: true,
                        refresh: true,
                        ..Default::default()
                    },
                    ..verify("p.ots", file("a"), None)
                }),
                "setting",
            ),
        ];
        let mut sentences = std::collections::BTreeSet::new();
        for (r, kind) in &bad {
            let e = r.validate().unwrap_err();
            assert_eq!(e.kind_name(), *kind, "{r:?}: {e}");
            sentences.insert(e.to_string());
        }
        assert_eq!(sentences.len(), bad.len(), "{sentences:#?}");
        assert!(OtsRequest::Stamp(stamp(file("-"), Some("-")))
            .validate()
            .is_ok());
        assert!(OtsRequest::Verify(verify("-", file("a"), None))
            .validate()
            .is_ok());
    }
}
