//! `pith ots stamp | upgrade | verify`: OpenTimestamps proofs of a record's digest, made with
//! calendars and checked offline against Bitcoin block headers. Every rule is
//! `pith::ots`'s (the format, the check) and `pith::net::ots`'s (calendars, headers).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use pith::job::ErrorCode;
use pith::net::ots::{Calendars, ENV_BITCOIN_URL};
use pith::ots::{Chain, Expected, Headers, Proof, Verdict};
use pith::{PithNumber, Record};

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
        pith ots stamp --file paper.pdf            writes paper.pdf.ots")]
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

/// What a proof is of: a number or record, a file, or a digest
/// ([`pith::job::ots::ProofSubject`] refuses more than one).
#[derive(Debug, clap::Args)]
struct Subject {
    /// A Pith Number (its record's SHA-256, the digest the number is made from) or a record
    /// file (the SHA-256 of its canonical bytes).
    #[arg(value_name = "NUMBER|RECORD")]
    subject: Option<String>,
    /// A file: the SHA-256 of its bytes.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// A SHA-256 digest, 64 hex digits.
    #[arg(long, value_name = "HEX")]
    digest: Option<String>,
}

impl Subject {
    /// The library's refusal of more than one subject.
    fn check(&self) -> Result<()> {
        let s = pith::job::ots::ProofSubject {
            subject: self.subject.clone(),
            file: self.file.clone(),
            digest: self.digest.clone(),
        };
        super::input::hint(s.validate())
    }
}

#[derive(Debug, clap::Args)]
struct StampArgs {
    #[command(flatten)]
    subject: Subject,
    /// Where to write the proof [default: <26>.ots for a number or record, FILE.ots for
    /// --file, <HEX>.ots for --digest].
    #[arg(short, long, value_name = "PROOF")]
    output: Option<PathBuf>,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(Debug, clap::Args)]
struct UpgradeArgs {
    /// The proof to complete.
    #[arg(value_name = "PROOF.ots")]
    proof: PathBuf,
    #[command(flatten)]
    net: NetArgs,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The proof.
    #[arg(value_name = "PROOF.ots")]
    proof: PathBuf,
    #[command(flatten)]
    subject: Subject,
    /// Bitcoin block headers: 80-byte headers one after another, or lines of 160 hex digits
    /// [default: asked of $PITH_BITCOIN_URL, a node's REST interface (…/rest) or an
    /// Esplora-style API].
    #[arg(long, value_name = "FILE")]
    headers: Option<PathBuf>,
    /// Print the verdict as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    net: NetArgs,
}

impl Args {
    /// Whether the command prints JSON (`ots verify --json`).
    pub fn prints_json(&self) -> bool {
        matches!(&self.command, Command::Verify(a) if a.json)
    }
}

/// Runs `pith ots`.
pub fn run(args: Args, ui: Ui) -> Result<Outcome> {
    match args.command {
        Command::Stamp(a) => stamp(a, ui),
        Command::Upgrade(a) => upgrade(a, ui),
        Command::Verify(a) => verify(a, ui),
    }
}

/// The file at `path`, opened to be read as a stream.
fn open(path: &Path) -> Result<std::fs::File> {
    std::fs::File::open(path).with_context(|| path.display().to_string())
}

/// The proof at `path`, refused before it is read whole when it is over the limit.
fn read_proof(path: &Path) -> Result<Proof> {
    let (proof, _) =
        pith::ots::file::read_proof(path).with_context(|| path.display().to_string())?;
    Ok(proof)
}

fn hex_digest(text: &str) -> Result<[u8; 32]> {
    pith::number::digest_from_hex(text.trim())
        .with_context(|| format!("--digest {text}: not a SHA-256 digest (64 hex digits)"))
}

/// A number or a record file given as text.
enum Named {
    Number(PithNumber),
    Record(Record),
}

fn named(text: &str) -> Result<Named> {
    if let Ok(n) = PithNumber::parse(text) {
        return Ok(Named::Number(n));
    }
    let path = Path::new(text);
    if !path.exists() {
        bail!("{text}: neither a Pith Number (pith:YYYY:<26> or <26>) nor a record file");
    }
    let json = pith::job::input::read_text(path)?;
    let record = Record::from_json(&json).with_context(|| path.display().to_string())?;
    Ok(Named::Record(record))
}

fn stamp(a: StampArgs, ui: Ui) -> Result<Outcome> {
    a.subject.check()?;
    let settings = a.net.settings(ui)?;
    let client = pith::net::Client::new(&settings)?;
    let (digest, default_out) = match (&a.subject.subject, &a.subject.file, &a.subject.digest) {
        (Some(text), _, _) => {
            let (digest, code) = match named(text)? {
                Named::Record(r) => (r.digest(), r.number().code().to_owned()),
                Named::Number(n) => (
                    pith::net::ots::digest_of_number(&client, &n)?,
                    n.code().to_owned(),
                ),
            };
            (digest, PathBuf::from(format!("{code}.ots")))
        }
        (None, Some(f), _) => {
            let d = pith::ots::proof::HashOp::Sha256
                .apply_reader(open(f)?)
                .with_context(|| f.display().to_string())?;
            let d: [u8; 32] = d.try_into().expect("32 bytes");
            let mut out = f.clone().into_os_string();
            out.push(".ots");
            (d, PathBuf::from(out))
        }
        (None, None, Some(h)) => {
            let d = hex_digest(h)?;
            (d, PathBuf::from(format!("{}.ots", pith::number::hex(&d))))
        }
        (None, None, None) => {
            bail!("nothing to stamp: give a NUMBER, a RECORD, --file or --digest")
        }
    };
    let out = a.output.unwrap_or(default_out);
    ui.check_clobber(&out)?;
    let calendars = Calendars::from_env();
    let done = pith::net::ots::submit(&client, &calendars, digest)?;
    for (c, e) in &done.failed {
        note!(ui, "calendar {c} did not answer: {e}");
    }
    super::fsutil::write_atomic(&out, &done.proof.to_bytes())?;
    writeln!(
        std::io::stdout(),
        "{}: pending at {} calendar{} ({}); `pith ots upgrade {}` completes it once Bitcoin holds it, in a few hours",
        out.display(),
        done.answered.len(),
        if done.answered.len() == 1 { "" } else { "s" },
        done.answered.join(", "),
        out.display()
    )?;
    Ok(Outcome::Ok)
}

fn upgrade(a: UpgradeArgs, ui: Ui) -> Result<Outcome> {
    let proof = read_proof(&a.proof)?;
    let settings = a.net.settings(ui)?;
    let client = pith::net::Client::new(&settings)?;
    let calendars = Calendars::from_env();
    let report = pith::net::ots::upgrade(&client, &calendars, &proof)
        .with_context(|| a.proof.display().to_string())?;
    for c in &report.untrusted {
        note!(ui, "not asking {c}: not among the calendars pith asks (set PITH_OTS_CALENDARS to include it)");
    }
    if report.completed > 0 {
        // The bytes the library read back: the same digest, within every limit.
        super::fsutil::write_atomic(&a.proof, &report.bytes)?;
        writeln!(
            std::io::stdout(),
            "{}: completed {} pending attestation{}",
            a.proof.display(),
            report.completed,
            if report.completed == 1 { "" } else { "s" }
        )?;
        return Ok(Outcome::Ok);
    }
    if proof.timestamp.has_bitcoin() && report.not_yet.is_empty() && report.untrusted.is_empty() {
        writeln!(std::io::stdout(), "{}: complete already", a.proof.display())?;
        return Ok(Outcome::Ok);
    }
    writeln!(std::io::stdout(), "{}: pending", a.proof.display())?;
    Ok(Outcome::Mismatch)
}

/// The headers `verify` checks `proof` against: of `--headers`, only those the proof may need
/// (the file read as a stream); else the blocks it claims, from `PITH_BITCOIN_URL`; else none.
fn headers_for(a: &VerifyArgs, proof: &Proof, ui: Ui) -> Result<Headers> {
    Ok(
        match (
            &a.headers,
            std::env::var(ENV_BITCOIN_URL)
                .ok()
                .filter(|u| !u.is_empty()),
        ) {
            (Some(path), _) => {
                // Only the headers this proof may need are kept; the file is read as a stream.
                let roots = proof
                    .bitcoin_roots()
                    .with_context(|| a.proof.display().to_string())?;
                pith::ots::file::read_headers(path, Headers::keeping(Chain::Main, roots))
                    .with_context(|| path.display().to_string())?
            }
            (None, Some(url)) => {
                let client = pith::net::Client::new(&a.net.settings(ui)?)?;
                pith::net::ots::headers(&client, &url, &proof.bitcoin_heights())
            }
            (None, None) => Headers::default(),
        },
    )
}

fn verify(a: VerifyArgs, ui: Ui) -> Result<Outcome> {
    a.subject.check()?;
    let proof = read_proof(&a.proof)?;
    let expected = match (&a.subject.subject, &a.subject.file, &a.subject.digest) {
        (Some(text), _, _) => match named(text)? {
            Named::Number(n) => Expected::number(&n),
            Named::Record(r) => Expected::record(&r),
        },
        (None, Some(f), _) => {
            Expected::file_from(&proof, open(f)?).with_context(|| f.display().to_string())?
        }
        (None, None, Some(h)) => Expected::Digest(hex_digest(h)?.to_vec()),
        (None, None, None) => {
            bail!("what is the proof of? give a NUMBER, a RECORD, --file or --digest")
        }
    };
    let headers = headers_for(&a, &proof, ui)?;
    let verdict = pith::ots::check(&proof, &expected, &headers)
        .with_context(|| a.proof.display().to_string())?;
    if a.json {
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::to_string_pretty(&verdict)?
        )?;
    }
    match verdict {
        Verdict::Anchored(anchor) => {
            if !a.json {
                writeln!(
                    std::io::stdout(),
                    "{}: {}",
                    a.proof.display(),
                    anchor.sentence()
                )?;
            }
            Ok(Outcome::Ok)
        }
        Verdict::Pending { calendars } => {
            if !a.json {
                writeln!(
                    std::io::stdout(),
                    "{}: pending ({})",
                    a.proof.display(),
                    calendars.join(", ")
                )?;
            }
            Ok(Outcome::Mismatch)
        }
        Verdict::Refused(why) => {
            // The verdict was printed as JSON already; the error line goes to standard error.
            let mut line = format!("{}: {why}", a.proof.display());
            if matches!(why, pith::ots::Refusal::NoHeaders { .. }) {
                line.push_str(&format!(" (give --headers FILE, or set {ENV_BITCOIN_URL})"));
            }
            Err(Failure::after_report(ErrorCode::Invalid, line).into())
        }
    }
}
