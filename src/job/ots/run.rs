//! The runs of `pith ots`' requests: what a subject names (a number, a record, a file's
//! digest within its deadline, a digest), where a proof is written, and the headers a proof
//! is checked against.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{
    CalendarFailure, HeadersSource, OtsStampReport, OtsStampRequest, OtsUpgradeReport,
    OtsUpgradeRequest, OtsVerifyRequest, ProofSubject, UpgradeStatus,
};
use crate::job::{check_output, outputs, stop, Error, ErrorKind};
use crate::net::ots::Calendars;
use crate::ots::proof::HashOp;
use crate::ots::{Expected, Headers, Proof, Verdict};
use crate::pdf::Stop;
use crate::{PithNumber, Record};

/// What a subject names, read.
enum Named<'a> {
    /// A number: its record is the resolver's (stamp); its code is what a proof starts from
    /// (verify).
    Number(PithNumber),
    /// A record: its canonical bytes' SHA-256.
    Record(Record),
    /// A file (`-`: standard input), hashed when the digest is needed.
    File(&'a Path),
    /// A digest.
    Digest([u8; 32]),
}

impl ProofSubject {
    /// What the subject names: a number, else a record file (`-` reads standard input); a
    /// file; a digest. The subject is checked already ([`ProofSubject::validate`]).
    fn named(&self) -> Result<Named<'_>, Error> {
        if let Some(f) = &self.file {
            return Ok(Named::File(f));
        }
        if let Some(d) = &self.digest {
            return crate::verify::parse_sha256(d)
                .map(Named::Digest)
                .map_err(|e| Error::new(ErrorKind::Verify(e)));
        }
        let text = self.subject.as_deref().unwrap_or_default();
        if let Ok(n) = PithNumber::parse(text) {
            return Ok(Named::Number(n));
        }
        let path = Path::new(text);
        if !crate::output::is_stdio(path) && !path.exists() {
            return Err(Error::new(ErrorKind::Request(
                "neither a Pith Number (pith:YYYY:<26> or <26>) nor a record file".into(),
            ))
            .in_file(path));
        }
        let input = |e: crate::record::Error| Error::new(ErrorKind::Input(e.at(path)));
        let json = crate::job::input::read_text(path).map_err(input)?;
        Record::from_json(&json).map(Named::Record).map_err(input)
    }
}

/// An OpenTimestamps error about `path`.
fn ots(path: &Path) -> impl Fn(crate::ots::Error) -> Error + '_ {
    move |e| Error::new(ErrorKind::Ots(e)).in_file(path)
}

/// A network error.
fn net(e: crate::net::Error) -> Error {
    Error::new(ErrorKind::Net(Box::new(e)))
}

/// The digest of the file at `path` (`-`: standard input) by `hash`, read as a stream and
/// stopped past `secs` seconds ([`stop::file_bound`]: 0 is no bound).
fn hash_file(path: &Path, hash: HashOp, secs: Option<f64>) -> Result<Vec<u8>, Error> {
    let stop = stop::file_bound(secs).map_or_else(Stop::never, Stop::after);
    let io = |what: &str| {
        let what = what.to_owned();
        move |e: std::io::Error| Error::new(ErrorKind::Io(what.clone(), e)).in_file(path)
    };
    let reader: Box<dyn Read> = if crate::output::is_stdio(path) {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(io("cannot open"))?)
    };
    hash.apply_reader(Stopping {
        inner: reader,
        stop,
    })
    .map_err(|e| match stopped(&e) {
        Some(halt) => {
            Error::from(crate::pdf::Error::new(crate::pdf::ErrorKind::Stopped(halt))).in_file(path)
        }
        None => io("cannot read")(e),
    })
}

/// A reader that ends with an error once its stop token stops.
struct Stopping<R> {
    inner: R,
    stop: Stop,
}

/// The error a [`Stopping`] reader ends with: why it stopped.
#[derive(Debug, thiserror::Error)]
#[error("stopped")]
struct Halted(crate::pdf::Halt);

impl<R: Read> Read for Stopping<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(h) = self.stop.halted() {
            return Err(std::io::Error::other(Halted(h)));
        }
        self.inner.read(buf)
    }
}

/// Why a [`Stopping`] reader stopped, when `e` is its error.
fn stopped(e: &std::io::Error) -> Option<crate::pdf::Halt> {
    e.get_ref()
        .and_then(|i| i.downcast_ref::<Halted>())
        .map(|h| h.0)
}

impl OtsStampRequest {
    /// Checks the request, works out the digest (a number's record from the resolver, a
    /// record's, a file's, the one given), submits it to the calendars and writes the proof
    /// merging their answers: to the output (a folder takes the default name; `-` is standard
    /// output), else to the default name. Nothing is asked when the proof could not be
    /// written (the file itself, or an existing one with `no_clobber`), and nothing is
    /// written when no calendar answers.
    ///
    /// # Errors
    /// What [`OtsStampRequest::validate`] refuses; [`ErrorKind::SameFile`] for the file
    /// stamped as its own proof, [`ErrorKind::Exists`] with `no_clobber`; the subject's and
    /// the network's errors ([`crate::net::ots::submit`]); [`ErrorKind::Pdf`] of kind
    /// `over_time` for a file that takes longer than its deadline to hash;
    /// [`ErrorKind::Io`] when the proof cannot be written.
    pub fn run(&self) -> Result<OtsStampReport, Error> {
        self.validate()?;
        let named = self.subject.named()?;
        let default = match &named {
            Named::Number(n) => PathBuf::from(format!("{}.ots", n.code())),
            Named::Record(r) => PathBuf::from(format!("{}.ots", r.number().code())),
            Named::File(f) => {
                let mut out = f.as_os_str().to_owned();
                out.push(".ots");
                PathBuf::from(out)
            }
            Named::Digest(d) => PathBuf::from(format!("{}.ots", crate::number::hex(d))),
        };
        let stdin = matches!(named, Named::File(f) if crate::output::is_stdio(f));
        let out = match &self.output {
            Some(o) => crate::job::output_file(o, (!stdin).then(|| default.file_name()).flatten())?,
            None => default,
        };
        let stamped = match &named {
            Named::File(f) if !stdin => Some(*f),
            _ => None,
        };
        check_output(stamped, &out, self.no_clobber)?;
        let client = crate::net::Client::new(&self.net).map_err(net)?;
        let digest: [u8; 32] = match named {
            Named::Number(n) => crate::net::ots::digest_of_number(&client, &n).map_err(net)?,
            Named::Record(r) => r.digest(),
            Named::File(f) => hash_file(f, HashOp::Sha256, self.file_timeout)?
                .try_into()
                .expect("a SHA-256 is 32 bytes"),
            Named::Digest(d) => d,
        };
        let done = crate::net::ots::submit(&client, &Calendars::from_env(), digest).map_err(net)?;
        outputs::write_whole(&out, &done.proof.to_bytes(), self.no_clobber)?;
        Ok(OtsStampReport {
            proof: out.display().to_string(),
            digest: crate::number::hex(&digest),
            calendars: done.answered,
            failed: done
                .failed
                .iter()
                .map(|(c, e)| CalendarFailure {
                    calendar: c.clone(),
                    reason: crate::job::one_line(&crate::pdf::chain(e)),
                })
                .collect(),
        })
    }
}

impl OtsUpgradeRequest {
    /// Checks the request and asks the trusted calendars of the proof's pending attestations
    /// for their completion ([`crate::net::ots::upgrade`]); a proof they complete is written
    /// back in place, atomically. Complete already: it holds a Bitcoin attestation and
    /// nothing is left to ask.
    ///
    /// # Errors
    /// What [`OtsUpgradeRequest::validate`] refuses; the proof's errors, named by it; the
    /// network's; [`ErrorKind::Io`] when the proof cannot be written.
    pub fn run(&self) -> Result<OtsUpgradeReport, Error> {
        self.validate()?;
        let path = self.proof.as_deref().unwrap_or(Path::new(""));
        let (proof, _) = crate::ots::file::read_proof(path).map_err(ots(path))?;
        let client = crate::net::Client::new(&self.net).map_err(net)?;
        let done = crate::net::ots::upgrade(&client, &Calendars::from_env(), &proof)
            .map_err(|e| net(e).in_file(path))?;
        let status = if done.completed > 0 {
            // The bytes the library read back: the same digest, within every limit.
            outputs::write_whole(path, &done.bytes, false)?;
            UpgradeStatus::Completed
        } else if proof.timestamp.has_bitcoin()
            && done.not_yet.is_empty()
            && done.untrusted.is_empty()
        {
            UpgradeStatus::Complete
        } else {
            UpgradeStatus::Pending
        };
        Ok(OtsUpgradeReport {
            proof: path.display().to_string(),
            status,
            completed: done.completed,
            untrusted: done.untrusted,
        })
    }
}

impl OtsVerifyRequest {
    /// Checks the request, reads the proof (`-`: standard input) and what it is of (a file
    /// hashed as the proof hashes its file, within its deadline), and gives the verdict
    /// ([`crate::ots::check()`]) against the headers ([`OtsVerifyRequest::headers`]).
    ///
    /// # Errors
    /// What [`OtsVerifyRequest::validate`] refuses; the proof's and the headers' errors,
    /// each named by its file; the subject's; [`ErrorKind::Pdf`] of kind `over_time` for a
    /// file that takes longer than its deadline to hash.
    pub fn run(&self) -> Result<Verdict, Error> {
        self.validate()?;
        let path = self.proof.as_deref().unwrap_or(Path::new(""));
        let (proof, _) = if crate::output::is_stdio(path) {
            Proof::read(std::io::stdin().lock())
        } else {
            crate::ots::file::read_proof(path)
        }
        .map_err(ots(path))?;
        let expected = match self.subject.named()? {
            Named::Number(n) => Expected::number(&n),
            Named::Record(r) => Expected::record(&r),
            Named::File(f) => Expected::Digest(hash_file(f, proof.hash, self.file_timeout)?),
            Named::Digest(d) => Expected::Digest(d.to_vec()),
        };
        let headers = self.headers(&proof)?;
        crate::ots::check(&proof, &expected, &headers).map_err(ots(path))
    }

    /// The headers `proof` is checked against, from where [`HeadersSource::of`] says: of
    /// [`OtsVerifyRequest::headers`], only those it may need (the file read as a stream; `-`
    /// standard input); else those of the blocks it claims, asked of
    /// [`crate::net::ots::ENV_BITCOIN_URL`] when it is set; else none.
    ///
    /// # Errors
    /// The proof's errors, named by it; the headers file's, named by it.
    pub fn headers(&self, proof: &Proof) -> Result<Headers, Error> {
        let at = self.proof.as_deref().unwrap_or(Path::new(""));
        HeadersSource::of(self.headers.as_deref()).headers(
            || proof.bitcoin_roots().map_err(ots(at)),
            || Ok(proof.bitcoin_heights()),
            || Ok(self.net.clone()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_its_deadline_stops_and_no_bound_reads_it_all() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.txt");
        std::fs::write(&f, b"hello world\n").unwrap();
        let d = hash_file(&f, HashOp::Sha256, Some(0.0)).unwrap();
        assert_eq!(d, HashOp::Sha256.apply(b"hello world\n"));
        let r = Stopping {
            inner: &b"x"[..],
            stop: Stop::after(std::time::Duration::ZERO),
        };
        let e = HashOp::Sha256.apply_reader(r).unwrap_err();
        assert_eq!(stopped(&e), Some(crate::pdf::Halt::Deadline));
        let missing = hash_file(&dir.path().join("none"), HashOp::Sha256, None).unwrap_err();
        assert_eq!(missing.kind_name(), "io", "{missing}");
    }
}
