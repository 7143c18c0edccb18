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
use crate::ots::{BlockHeader, Headers, Proof, Timestamp};

/// Environment variable listing the calendars, comma-separated.
pub const ENV_CALENDARS: &str = "PITH_OTS_CALENDARS";
/// Environment variable naming a Bitcoin node's REST interface (a URL ending in `/rest`) or
/// an Esplora-style API (`…/api`).
pub const ENV_BITCOIN_URL: &str = "PITH_BITCOIN_URL";

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
    Ok(Submitted {
        proof: Proof::new(digest, tree),
        answered,
        failed,
    })
}

/// What an upgrade did.
#[derive(Debug, Default)]
pub struct Upgraded {
    /// Pending attestations completed (now reaching Bitcoin).
    pub completed: usize,
    /// Calendars asked that do not have the completion yet (404).
    pub not_yet: Vec<String>,
    /// Calendars the proof names that pith does not ask (not among the trusted).
    pub untrusted: Vec<String>,
}

/// Asks the trusted calendars of `proof`'s pending attestations for their completion, and
/// merges what they answer into `proof`.
///
/// # Errors
/// A calendar that cannot be reached or answers something other than a timestamp; the
/// proof's own errors while it is evaluated.
pub fn upgrade(
    client: &Client,
    calendars: &Calendars,
    proof: &mut Proof,
) -> Result<Upgraded, Error> {
    let mut report = Upgraded::default();
    let digest = proof.digest.clone();
    let mut ask = |uri: &str, msg: &[u8]| -> Result<Option<Timestamp>, Error> {
        if !calendars.trusts(uri) {
            report.untrusted.push(uri.to_owned());
            return Ok(None);
        }
        let url = format!(
            "{}/timestamp/{}",
            uri.trim_end_matches('/'),
            crate::number::hex(msg)
        );
        match client.get(Service::Calendar, &url) {
            Ok(f) => Timestamp::parse(&f.body)
                .map(Some)
                .map_err(|e| bad_tree(e).about(url)),
            Err(e) if matches!(e.kind(), ErrorKind::NotFound) => {
                report.not_yet.push(uri.to_owned());
                Ok(None)
            }
            Err(e) => Err(e.about(url)),
        }
    };
    report.completed = proof.timestamp.upgrade(&digest, &mut ask)?;
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
/// height.
///
/// # Errors
/// The network's; [`ErrorKind::BadAnswer`] when an answer is not a block hash or a header,
/// or the header is of another block.
pub fn headers(client: &Client, base: &str, heights: &[u64]) -> Result<Headers, Error> {
    let base = base.trim_end_matches('/');
    let rest = base.ends_with("/rest");
    let mut out = Headers::default();
    for &height in heights {
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
        let header = header_of(client, base, rest, &hash)?;
        out.push(Some(height), header).map_err(bad_tree)?;
    }
    Ok(out)
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
