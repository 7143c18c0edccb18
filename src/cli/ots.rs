//! `pith ots stamp | upgrade | verify`: arguments into a [`pith::job::ots::OtsRequest`], its
//! report into text or JSON. Every rule is the library's: the request's
//! ([`pith::job::ots`]: what a proof is of, standard input, outputs, the deadline, headers),
//! the format's and the check's (`pith::ots`), the calendars' (`pith::net::ots`).

use std::path::PathBuf;

use anyhow::Result;
use pith::job::given::Conflict;
use pith::job::ots::{
    OtsReport, OtsRequest, OtsStampReport, OtsStampRequest, OtsUpgradeReport, OtsUpgradeRequest,
    OtsVerifyRequest, ProofSubject, UpgradeStatus,
};
use pith::job::{self, ErrorCode, ErrorKind};
use pith::net::ots::ENV_BITCOIN_URL;
use pith::ots::Verdict;

use super::net::NetArgs;
use super::{note, Failure, Outcome, Ui};

/// Arguments of `pith ots`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    pith ots stamp record.json\n  \
    pith ots upgrade 7BMK4ZKTPUTUY3JKWBANNPOFR5.ots\n  \
    pith ots verify 7BMK4ZKTPUTUY3JKWBANNPOFR5.ots pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --headers headers.hex")]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Submit a record's digest (or a file's) to OpenTimestamps calendars and write its proof.
    #[command(after_help = "Examples:\n  \
        pith ots stamp record.json                 writes <26>.ots, pending at the calendars\n  \
        pith ots stamp pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5   the record from the resolver\n  \
        pith ots stamp --file paper.pdf            writes paper.pdf.ots\n  \
        cat paper.pdf | pith ots stamp --file - -o proofs/paper.pdf.ots")]
    Stamp(StampArgs),
    /// Complete a pending proof from its calendars, once Bitcoin holds it (rewrites the file).
    Upgrade(UpgradeArgs),
    /// Check a proof offline against Bitcoin block headers: exit 0 anchored, 1 pending, 2 refused.
    #[command(after_help = "Examples:\n  \
        pith ots verify hello-world.txt.ots --file hello-world.txt --headers headers.hex\n  \
        pith ots verify 7BMK4ZKTPUTUY3JKWBANNPOFR5.ots pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5 --headers h.bin\n  \
        PITH_BITCOIN_URL=http://127.0.0.1:8332/rest pith ots verify proof.ots --digest HEX")]
    Verify(VerifyArgs),
}

/// What a proof is of: a number or record, a file, or a digest (one of them:
/// [`pith::job::ots::ProofSubject`]).
#[derive(Debug, clap::Args)]
struct Subject {
    /// A Pith Number (its record's SHA-256, the digest the number is made from) or a record
    /// file (the SHA-256 of its canonical bytes; "-" reads standard input).
    #[arg(value_name = "NUMBER|RECORD")]
    subject: Option<String>,
    /// A file: the SHA-256 of its bytes ("-" reads standard input).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// A SHA-256 digest, 64 hex digits.
    #[arg(long, value_name = "HEX")]
    digest: Option<String>,
}

impl Subject {
    /// The subject as given.
    fn given(&self) -> ProofSubject {
        ProofSubject {
            subject: self.subject.clone(),
            file: self.file.clone(),
            digest: self.digest.clone(),
        }
    }
}

#[derive(Debug, clap::Args)]
struct StampArgs {
    #[command(flatten)]
    subject: Subject,
    /// Where to write the proof: a file, a folder (the default name inside it) or "-" for
    /// standard output [default: <26>.ots for a number or record, FILE.ots for --file,
    /// <HEX>.ots for --digest].
    #[arg(short, long, value_name = "PROOF")]
    output: Option<PathBuf>,
    #[arg(long, value_name = "SECS", help = file_timeout_help())]
    file_timeout: Option<f64>,
    /// Print the report as JSON: proof, digest, calendars, failed.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(Debug, clap::Args)]
struct UpgradeArgs {
    /// The proof to complete.
    #[arg(value_name = "PROOF.ots")]
    proof: PathBuf,
    /// Print the report as JSON: proof, status (completed, complete, pending), completed,
    /// untrusted.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The proof ("-" reads standard input).
    #[arg(value_name = "PROOF.ots")]
    proof: PathBuf,
    #[command(flatten)]
    subject: Subject,
    /// Bitcoin block headers: 80-byte headers one after another, or lines of 160 hex digits
    /// ("-" reads standard input) [default: asked of $PITH_BITCOIN_URL, a node's REST
    /// interface (…/rest) or an Esplora-style API].
    #[arg(long, value_name = "FILE")]
    headers: Option<PathBuf>,
    #[arg(long, value_name = "SECS", help = file_timeout_help())]
    file_timeout: Option<f64>,
    /// Print the verdict as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    net: NetArgs,
}

/// `--file-timeout`'s help, with the library's default.
fn file_timeout_help() -> String {
    format!(
        "Stop hashing --file after SECS seconds (refused with kind over_time, nothing \
         written); 0 for no bound [default: {}]",
        job::defaults::FILE_TIMEOUT_SECS
    )
}

impl Args {
    /// Whether the command prints JSON (`--json`).
    pub fn prints_json(&self) -> bool {
        match &self.command {
            Command::Stamp(a) => a.json,
            Command::Upgrade(a) => a.json,
            Command::Verify(a) => a.json,
        }
    }

    /// The request these arguments make, nothing decided: the library fills what is left out.
    fn request(&self, ui: Ui) -> Result<OtsRequest> {
        Ok(match &self.command {
            Command::Stamp(a) => OtsRequest::Stamp(OtsStampRequest {
                subject: a.subject.given(),
                output: a.output.clone(),
                file_timeout: a.file_timeout,
                no_clobber: ui.no_clobber(),
                net: a.net.settings(ui)?,
            }),
            Command::Upgrade(a) => OtsRequest::Upgrade(OtsUpgradeRequest {
                proof: Some(a.proof.clone()),
                net: a.net.settings(ui)?,
            }),
            Command::Verify(a) => OtsRequest::Verify(OtsVerifyRequest {
                proof: Some(a.proof.clone()),
                subject: a.subject.given(),
                headers: a.headers.clone(),
                file_timeout: a.file_timeout,
                net: a.net.settings(ui)?,
            }),
        })
    }
}

/// Runs `pith ots`: the library's request, its report printed.
pub fn run(args: Args, ui: Ui) -> Result<Outcome> {
    let json = args.prints_json();
    let req = args.request(ui)?;
    match req.run().map_err(hinted)? {
        OtsReport::Stamp(r) => stamped(&r, json, ui),
        OtsReport::Upgrade(r) => upgraded(&r, json, ui),
        OtsReport::Verify(v) => verdict(req.proof().unwrap_or(std::path::Path::new("")), v, json),
    }
}

/// The library's error with the flags that get past it.
fn hinted(e: job::Error) -> anyhow::Error {
    let hint = match e.kind() {
        ErrorKind::Given(Conflict::SeveralSubjects | Conflict::NoSubject) => {
            " (NUMBER|RECORD, --file or --digest)"
        }
        ErrorKind::NotInPlace => "; upgrade rewrites the proof's file: give its path",
        ErrorKind::Exists => " (--no-clobber)",
        _ if e.kind_of() == ErrorCode::OverTime => "; --file-timeout 0 hashes it without a bound",
        _ => "",
    };
    super::hint::with(e, hint)
}

/// A stamp's report: the proof's line (on standard error when the proof went to standard
/// output), or the JSON.
fn stamped(r: &OtsStampReport, json: bool, ui: Ui) -> Result<Outcome> {
    let to_stdout = pith::output::is_stdio(std::path::Path::new(&r.proof));
    let line = if json {
        serde_json::to_string_pretty(r)?
    } else {
        for f in &r.failed {
            note!(ui, "calendar {} did not answer: {}", f.calendar, f.reason);
        }
        let n = r.calendars.len();
        // A proof written to standard output is upgraded where it was saved.
        let saved = if to_stdout { "PROOF" } else { &r.proof };
        format!(
            "{}: pending at {n} calendar{} ({}); `pith ots upgrade {saved}` completes it once Bitcoin holds it, in a few hours",
            r.proof,
            if n == 1 { "" } else { "s" },
            r.calendars.join(", "),
        )
    };
    super::say(&[line], to_stdout)?;
    Ok(Outcome::Ok)
}

/// An upgrade's report: exit 1 while pending.
fn upgraded(r: &OtsUpgradeReport, json: bool, ui: Ui) -> Result<Outcome> {
    let line = if json {
        serde_json::to_string_pretty(r)?
    } else {
        for c in &r.untrusted {
            note!(ui, "not asking {c}: not among the calendars pith asks (set PITH_OTS_CALENDARS to include it)");
        }
        match r.status {
            UpgradeStatus::Completed => format!(
                "{}: completed {} pending attestation{}",
                r.proof,
                r.completed,
                if r.completed == 1 { "" } else { "s" }
            ),
            UpgradeStatus::Complete => format!("{}: complete already", r.proof),
            UpgradeStatus::Pending => format!("{}: pending", r.proof),
        }
    };
    super::say(&[line], false)?;
    Ok(match r.status {
        UpgradeStatus::Pending => Outcome::Mismatch,
        _ => Outcome::Ok,
    })
}

/// A verdict on the proof at `proof`: exit 0 anchored, 1 pending; refused is an error, after
/// the JSON verdict.
fn verdict(proof: &std::path::Path, v: Verdict, json: bool) -> Result<Outcome> {
    let proof = proof.display();
    if json {
        super::say(&[serde_json::to_string_pretty(&v)?], false)?;
    }
    let (line, outcome) = match v {
        Verdict::Anchored(anchor) => (format!("{proof}: {}", anchor.sentence()), Outcome::Ok),
        Verdict::Pending { calendars } => (
            format!("{proof}: pending ({})", calendars.join(", ")),
            Outcome::Mismatch,
        ),
        Verdict::Refused(why) => {
            // The verdict was printed as JSON already; the error line goes to standard error.
            let mut line = format!("{proof}: {why}");
            if matches!(why, pith::ots::Refusal::NoHeaders { .. }) {
                line.push_str(&format!(" (give --headers FILE, or set {ENV_BITCOIN_URL})"));
            }
            return Err(Failure::after_report(ErrorCode::Invalid, line).into());
        }
    };
    if !json {
        super::say(&[line], false)?;
    }
    Ok(outcome)
}
