//! OpenTimestamps calendars and Bitcoin block headers over the network: submitting a digest
//! to calendars (`POST {calendar}/digest`, as OpenTimestamps' own client does), asking a
//! calendar for a pending commitment's completion (`GET {calendar}/timestamp/{hex}`), and
//! fetching block headers by height from a Bitcoin node's REST interface or an Esplora-style
//! API. What the answers mean is [`crate::ots`]'s; this module only fetches them, through the
//! polite client (spacing [`super::OTS_SPACING`], retries, timeouts).
//!
//! Caching: a block header is cached under its own hash (`bitcoin/<hash>.hdr`), read back only
//! when it still hashes to that name; which block is at a height is asked each time, since
//! the newest blocks may yet be replaced. Calendar answers are not cached: `upgrade` writes
//! them into the proof.

use super::client::{Client, Service};
use super::{Error, ErrorKind};
use std::collections::HashMap;

use crate::ots::{Attestation, BlockHeader, Chain, Headers, Proof, Timestamp};

// Every service's variable is named beside the others, where the client reads them.
pub use super::{ENV_BITCOIN_URL, ENV_CALENDARS};

/// The calendars a digest is submitted to by default: OpenTimestamps' public aggregators, as
/// its own client uses them.
pub const CALENDARS: [&str; 4] = [
    "https://a.pool.opentimestamps.org",
    "https://b.pool.opentimestamps.org",
    "https://a.pool.eternitywall.com",
    "https://ots.btc.catallaxy.com",
];

/// The calendars the aggregators name in the pending attestations they answer, which an
/// upgrade asks by default besides [`CALENDARS`].
pub const KNOWN_CALENDARS: [&str; 4] = [
    "https://alice.btc.calendar.opentimestamps.org",
    "https://bob.btc.calendar.opentimestamps.org",
    "https://finney.calendar.eternitywall.com",
    "https://btc.calendar.catallaxy.com",
];

/// The calendars to submit to and the only ones an upgrade asks: [`ENV_CALENDARS`] when set
/// (then only those), else [`CALENDARS`] to submit and those with [`KNOWN_CALENDARS`] to
/// upgrade. A proof names its calendars itself, but pith asks only calendars on this list:
/// a proof from anywhere must not make pith request any URL it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calendars {
    /// Where a digest is submitted.
    pub submit: Vec<String>,
    /// The calendars an upgrade may ask.
    pub trusted: Vec<String>,
}

impl Calendars {
    /// From [`ENV_CALENDARS`], else the defaults.
    pub fn from_env() -> Calendars {
        let given: Vec<String> = std::env::var(ENV_CALENDARS)
            .unwrap_or_default()
            .split(',')
            .map(|c| c.trim().trim_end_matches('/').to_owned())
            .filter(|c| !c.is_empty())
            .collect();
        if given.is_empty() {
            Calendars {
                submit: CALENDARS.iter().map(|&c| c.to_owned()).collect(),
                trusted: CALENDARS
                    .iter()
                    .chain(&KNOWN_CALENDARS)
                    .map(|&c| c.to_owned())
                    .collect(),
            }
        } else {
            Calendars {
                submit: given.clone(),
                trusted: given,
            }
        }
    }

    /// Whether an upgrade may ask `uri`.
    pub fn trusts(&self, uri: &str) -> bool {
        let uri = uri.trim_end_matches('/');
        self.trusted.iter().any(|c| c == uri)
    }
}

/// The digest a number's proof is of: the SHA-256 of its record's canonical bytes (the digest
/// the number is made from), the record from the resolver or the cache, which must be the
/// number's own.
///
/// # Errors
/// As [`super::resolver::record`]; [`ErrorKind::BadAnswer`] when the record is another
/// number's.
pub fn digest_of_number(client: &Client, number: &crate::PithNumber) -> Result<[u8; 32], Error> {
    let got = super::resolver::record(client, number.code()).map_err(|e| e.about(number.full()))?;
    let own = got.record.number();
    if own.code() != number.code() {
        return Err(Error::from(ErrorKind::BadAnswer(format!(
            "the record served is of {}, not {}",
            own.full(),
            number.full()
        )))
        .about(number.full()));
    }
    Ok(got.record.digest())
}

/// What submitting a digest gave.
#[derive(Debug)]
pub struct Submitted {
    /// The proof: every answering calendar's tree, merged.
    pub proof: Proof,
    /// The calendars that answered.
    pub answered: Vec<String>,
    /// The calendars that did not, with why.
    pub failed: Vec<(String, Error)>,
}

fn bad_tree(e: crate::ots::Error) -> Error {
    ErrorKind::Ots(Box::new(e)).into()
}

/// Submits `digest` (a SHA-256) to each calendar of `calendars.submit` and merges their
/// answers into one proof.
///
/// # Errors
/// The first calendar's error when none answers.
pub fn submit(
    client: &Client,
    calendars: &Calendars,
    digest: [u8; 32],
) -> Result<Submitted, Error> {
    let mut tree = Timestamp::default();
    let (mut answered, mut failed) = (Vec::new(), Vec::new());
    for c in &calendars.submit {
        let url = format!("{c}/digest");
        let got = client
            .post(Service::Calendar, &url, &digest)
            .and_then(|f| Timestamp::parse(&f.body).map_err(bad_tree));
        match got {
            Ok(t) => {
                tree.merge(t);
                answered.push(c.clone());
            }
            Err(e) => failed.push((c.clone(), e.about(url))),
        }
    }
    if answered.is_empty() {
        return Err(match failed.into_iter().next() {
            Some((_, e)) => e,
            None => ErrorKind::Setting {
                name: ENV_CALENDARS,
                reason: "names no calendar".into(),
            }
            .into(),
        });
    }
    // What is written is what pith reads back: the answers merged stay within the limits.
    let proof = Proof::new(digest, tree);
    let back = Proof::parse(&proof.to_bytes()).map_err(|e| {
        Error::from(ErrorKind::Upgrade {
            reason: "the calendars' answers make a proof pith refuses",
            source: Box::new(e),
        })
    })?;
    Ok(Submitted {
        proof: back,
        answered,
        failed,
    })
}

/// The most requests an upgrade makes to calendars: one per pending attestation on a calendar
/// pith asks, each (calendar, commitment) once. A proof stamped at the four default calendars
/// needs four; a proof that would need more is refused before any request.
pub const MAX_CALENDAR_REQUESTS: usize = 16;

/// What an upgrade did.
#[derive(Debug, Default)]
pub struct Upgraded {
    /// Pending attestations completed (now reaching Bitcoin).
    pub completed: usize,
    /// Calendars asked that do not have the completion yet (404).
    pub not_yet: Vec<String>,
    /// Calendars the proof names that pith does not ask (not among the trusted).
    pub untrusted: Vec<String>,
    /// The upgraded proof, as read back from its own bytes: it proves the same digest and is
    /// within every limit pith reads proofs under.
    pub proof: Option<Proof>,
    /// The upgraded proof's bytes, the ones to write.
    pub bytes: Vec<u8>,
}

/// Asks the trusted calendars of `proof`'s pending attestations for their completion, and
/// merges what they answer into a copy of `proof`, which is written to bytes and read back:
/// [`Upgraded::proof`] and [`Upgraded::bytes`] are that copy, so a caller writes only a proof
/// pith reads and that proves the same digest. Each answer is read under the proof limits
/// (at most [`crate::ots::proof::MAX_PROOF`] bytes); at most [`MAX_CALENDAR_REQUESTS`]
/// requests are made.
///
/// # Errors
/// [`ErrorKind::Upgrade`] when the proof would need more than [`MAX_CALENDAR_REQUESTS`]
/// requests (none is made), or the answers would make a proof pith refuses or of another
/// digest; a calendar that cannot be reached or answers something other than a timestamp;
/// the proof's own errors while it is evaluated.
pub fn upgrade(client: &Client, calendars: &Calendars, proof: &Proof) -> Result<Upgraded, Error> {
    let mut report = Upgraded::default();
    // Every request the upgrade would make, counted before any is made.
    let mut asks: Vec<(String, Vec<u8>)> = Vec::new();
    for r in proof.reached()? {
        let Attestation::Pending { uri } = r.attestation else {
            continue;
        };
        let uri = uri.trim_end_matches('/');
        if !calendars.trusts(uri) {
            if !report.untrusted.iter().any(|u| u == uri) {
                report.untrusted.push(uri.to_owned());
            }
            continue;
        }
        if !asks.iter().any(|(u, m)| u == uri && *m == r.message) {
            asks.push((uri.to_owned(), r.message));
        }
    }
    if asks.len() > MAX_CALENDAR_REQUESTS {
        return Err(ErrorKind::Upgrade {
            reason: "the proof cannot be upgraded",
            source: Box::new(
                crate::ots::ErrorKind::Limit(format!(
                    "it would take {} requests to calendars, more than the {MAX_CALENDAR_REQUESTS} an upgrade makes",
                    asks.len()
                ))
                .into(),
            ),
        }
        .into());
    }
    let mut answers: HashMap<(String, Vec<u8>), Timestamp> = HashMap::new();
    for (uri, msg) in asks {
        let url = format!("{uri}/timestamp/{}", crate::number::hex(&msg));
        match client.get(Service::Calendar, &url) {
            Ok(f) => {
                let t = Timestamp::parse(&f.body).map_err(|e| bad_tree(e).about(url))?;
                answers.insert((uri, msg), t);
            }
            Err(e) if matches!(e.kind(), ErrorKind::NotFound) => {
                if !report.not_yet.contains(&uri) {
                    report.not_yet.push(uri);
                }
            }
            Err(e) => return Err(e.about(url)),
        }
    }
    let mut upgraded = proof.clone();
    let digest = proof.digest.clone();
    let mut ask = |uri: &str, msg: &[u8]| -> Result<Option<Timestamp>, Error> {
        // Each answer is merged once, where it was asked for; nothing is cloned.
        Ok(answers.remove(&(uri.trim_end_matches('/').to_owned(), msg.to_vec())))
    };
    report.completed = upgraded.timestamp.upgrade(&digest, &mut ask)?;
    // What is written is what pith reads back: within every limit, of the same digest.
    let refused = |e: crate::ots::Error| -> Error {
        ErrorKind::Upgrade {
            reason:
                "the calendars' answers would make a proof pith refuses, so it is left as it was",
            source: Box::new(e),
        }
        .into()
    };
    let bytes = upgraded.to_bytes();
    if bytes.len() > crate::ots::proof::MAX_PROOF {
        return Err(refused(
            crate::ots::ErrorKind::TooLarge {
                what: "the upgraded proof",
                limit: crate::ots::proof::MAX_PROOF as u64,
            }
            .into(),
        ));
    }
    let back = Proof::parse(&bytes).map_err(refused)?;
    if back.hash != proof.hash || back.digest != proof.digest {
        return Err(refused(
            crate::ots::ErrorKind::Limit("it is of another digest".into()).into(),
        ));
    }
    report.proof = Some(back);
    report.bytes = bytes;
    Ok(report)
}

impl From<crate::ots::Error> for Error {
    fn from(e: crate::ots::Error) -> Self {
        bad_tree(e)
    }
}

/// The headers of the blocks at `heights`, from the Bitcoin API at `base`: a node's REST
/// interface when `base` ends in `/rest` (`/blockhashbyheight/{h}.hex`,
/// `/headers/{hash}.hex?count=1`), else an Esplora-style API (`/block-height/{h}`,
/// `/block/{hash}/header`). Each header must hash to the block hash the API gave for its
/// height. At most two requests per height (the header by its hash may come from the cache);
/// a proof claims at most [`crate::ots::proof::MAX_HEIGHTS`].
///
/// A block the API cannot give (no such block, an answer that is not its hash or header) is
/// left out, marked missing with why ([`Headers::missing`]), and the others are asked; once the
/// API cannot be reached at all (no connection, a timeout, offline) the rest are marked
/// missing without asking. The proofs claiming a missing block are refused with the reason,
/// and the others checked.
pub fn headers(client: &Client, base: &str, heights: &[u64]) -> Headers {
    let base = base.trim_end_matches('/');
    let rest = base.ends_with("/rest");
    let mut out = Headers::new(Chain::Main);
    let mut down: Option<String> = None;
    for &height in heights {
        if let Some(why) = &down {
            out.mark_missing(height, why.clone());
            continue;
        }
        match header_at(client, base, rest, height) {
            Ok(header) => {
                if let Err(e) = out.push(Some(height), header) {
                    out.mark_missing(height, e.to_string());
                }
            }
            Err(e) => {
                let why = e.to_string();
                let why = match std::error::Error::source(&e) {
                    Some(s) => format!("{why}: {s}"),
                    None => why,
                };
                if matches!(
                    e.kind(),
                    ErrorKind::Connect { .. } | ErrorKind::Timeout | ErrorKind::NotCached
                ) {
                    down = Some(why.clone());
                }
                out.mark_missing(height, why);
            }
        }
    }
    out
}

/// The header of the block at `height`.
fn header_at(client: &Client, base: &str, rest: bool, height: u64) -> Result<BlockHeader, Error> {
    let url = if rest {
        format!("{base}/blockhashbyheight/{height}.hex")
    } else {
        format!("{base}/block-height/{height}")
    };
    let body = client
        .get(Service::Bitcoin, &url)
        .map_err(|e| e.about(url.clone()))?;
    let hash = String::from_utf8_lossy(&body.body)
        .trim()
        .to_ascii_lowercase();
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::from(ErrorKind::BadAnswer("not a block hash".into())).about(url));
    }
    header_of(client, base, rest, &hash)
}

fn header_of(client: &Client, base: &str, rest: bool, hash: &str) -> Result<BlockHeader, Error> {
    let path = client
        .cache()
        .dir()
        .join("bitcoin")
        .join(format!("{hash}.hdr"));
    let settings = client.settings();
    if !settings.refresh {
        if let Some(bytes) = client.cache().read(&path)? {
            if let Some(h) = BlockHeader::from_bytes(&bytes).filter(|h| h.hash_hex() == hash) {
                return Ok(h);
            }
        }
    }
    let url = if rest {
        format!("{base}/headers/{hash}.hex?count=1")
    } else {
        format!("{base}/block/{hash}/header")
    };
    let body = client
        .get(Service::Bitcoin, &url)
        .map_err(|e| e.about(url.clone()))?;
    let text = String::from_utf8_lossy(&body.body);
    let header = data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.trim().as_bytes())
        .ok()
        .and_then(|b| BlockHeader::from_bytes(&b))
        .filter(|h| h.hash_hex() == hash)
        .ok_or_else(|| {
            Error::from(ErrorKind::BadAnswer(format!(
                "not the header of block {hash}"
            )))
            .about(url)
        })?;
    client.cache().write(&path, header.bytes())?;
    Ok(header)
}
