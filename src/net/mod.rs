//! The network client: a paper's metadata from arXiv's OAI-PMH interface
//! ([`arxiv`]) and records and bundles from the Pith resolver ([`resolver`]), through one
//! polite HTTP client ([`client`]) and a cache of raw responses ([`cache`]); the resolver's
//! mirrors, asked in turn, from a mirror manifest ([`mirrors`]).
//!
//! This module owns every rule about talking to those services: the request URLs, the
//! spacing between requests (arXiv's API terms ask for at most one request every 3 seconds,
//! also across separate runs: a lock and a timestamp in the cache directory), the User-Agent,
//! retries with backoff on 429/5xx honouring `Retry-After`, timeouts, the proxy taken from
//! `HTTPS_PROXY`/`NO_PROXY`, what is cached and when a cached answer is used. It never prints
//! and composes no command-line text; errors are typed ([`ErrorKind`]).
//!
//! Settings come from [`Settings`]; [`Settings::from_env`] reads the environment variables
//! documented on it, so that the CLI and the Python module agree.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub mod arxiv;
pub mod cache;
pub mod client;
pub mod mirrors;
pub mod ots;
pub mod pdfcheck;
pub mod resolver;
pub mod wayback;

pub use arxiv::{ArxivId, Overrides};
pub use client::Client;

/// The arXiv base URL used unless [`Settings::arxiv_url`] says otherwise.
pub const ARXIV_URL: &str = "https://export.arxiv.org";
/// The resolver base URL used unless [`Settings::resolver_url`] says otherwise.
pub const RESOLVER_URL: &str = "https://pith.science";
/// The least time between two requests to arXiv: arXiv's API terms ask for no more than one
/// request every 3 seconds.
pub const ARXIV_SPACING: Duration = Duration::from_secs(3);
/// The least time between two requests to the resolver. pith.science is ours and serves
/// static JSON; one request a second keeps a batch of checks from hammering it.
pub const RESOLVER_SPACING: Duration = Duration::from_secs(1);
/// The least time between two requests to an OpenTimestamps calendar or a Bitcoin API.
pub const OTS_SPACING: Duration = Duration::from_secs(1);
/// How long a connection may take to open.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a response (headers, then the body) may take to arrive.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The User-Agent: pith, its version and its homepage, as arXiv asks of API clients.
pub const USER_AGENT: &str = concat!(
    env!("CARGO_PKG_NAME"),
    "/",
    env!("CARGO_PKG_VERSION"),
    " (+",
    env!("CARGO_PKG_HOMEPAGE"),
    ")"
);

/// Environment variable naming the arXiv base URL.
pub const ENV_ARXIV_URL: &str = "PITH_ARXIV_URL";
/// Environment variable naming the resolver base URL.
pub const ENV_RESOLVER_URL: &str = "PITH_RESOLVER_URL";
/// Environment variable listing the OpenTimestamps calendars, comma-separated.
pub const ENV_CALENDARS: &str = "PITH_OTS_CALENDARS";
/// Environment variable naming a Bitcoin node's REST interface (a URL ending in `/rest`) or
/// an Esplora-style API (`…/api`).
pub const ENV_BITCOIN_URL: &str = "PITH_BITCOIN_URL";
/// Environment variable naming another CDX server than the Wayback Machine's (a mirror, or a
/// test's stand-in).
pub const ENV_WAYBACK_URL: &str = "PITH_WAYBACK_URL";
/// Environment variable naming the cache directory.
pub const ENV_CACHE_DIR: &str = "PITH_CACHE_DIR";
/// Environment variable setting the spacing between arXiv requests, in milliseconds. Meant
/// for tests against a local server: a spacing below [`ARXIV_SPACING`] is never used for a
/// host under `arxiv.org`.
pub const ENV_ARXIV_SPACING: &str = "PITH_ARXIV_SPACING_MS";
/// Environment variable setting the spacing between resolver requests, in milliseconds.
pub const ENV_RESOLVER_SPACING: &str = "PITH_RESOLVER_SPACING_MS";
/// Environment variable setting the spacing between requests to a calendar or a Bitcoin
/// API, in milliseconds.
pub const ENV_OTS_SPACING: &str = "PITH_OTS_SPACING_MS";
/// Environment variable setting the read timeout, in milliseconds.
pub const ENV_TIMEOUT: &str = "PITH_NET_TIMEOUT_MS";

/// How the network is used: where, how politely, and with which cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// arXiv's base URL ([`ARXIV_URL`]); the OAI-PMH endpoint is `{base}/oai2`.
    pub arxiv_url: String,
    /// The resolver's base URL ([`RESOLVER_URL`]); records are at `{base}/pith/{26}.json`.
    pub resolver_url: String,
    /// The cache directory; `None` for the platform's (`~/.cache/pith` on Linux).
    pub cache_dir: Option<PathBuf>,
    /// Use the cache only, never the network.
    pub offline: bool,
    /// Ignore cached answers and fetch again (the new answer replaces the cached one).
    pub refresh: bool,
    /// The mirror manifest to read ([`mirrors::ENV_MIRRORS`]): a URL or a file. `None`:
    /// pith.science's when the resolver is the default one, else the resolver alone
    /// ([`Settings::manifest`]).
    pub mirrors: Option<String>,
    /// Least time between two arXiv requests ([`ARXIV_SPACING`]).
    pub arxiv_spacing: Duration,
    /// Least time between two resolver requests ([`RESOLVER_SPACING`]).
    pub resolver_spacing: Duration,
    /// Least time between two requests to a calendar or a Bitcoin API ([`OTS_SPACING`]).
    pub ots_spacing: Duration,
    /// Connect timeout ([`CONNECT_TIMEOUT`]).
    pub connect_timeout: Duration,
    /// Read timeout for headers and for the body ([`READ_TIMEOUT`]).
    pub read_timeout: Duration,
    /// Told each time a request waits (arXiv's spacing, a `Retry-After`, a backoff), before
    /// the wait, so that a front end can say why nothing seems to happen. None by default.
    pub on_wait: OnWait,
}

/// Why a request waits before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitReason {
    /// The service's spacing since the last request (arXiv's one request every 3 seconds,
    /// shared by every pith process on the machine).
    Spacing,
    /// The server answered `status` with a `Retry-After` of this length.
    RetryAfter {
        /// The HTTP status answered (429 or 5xx).
        status: u16,
    },
    /// The server answered `status` without `Retry-After`: the exponential backoff.
    Backoff {
        /// The HTTP status answered (429 or 5xx).
        status: u16,
    },
}

/// A wait before a request, as [`Settings::on_wait`] is told of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    /// The service asked.
    pub service: client::Service,
    /// The host the request goes to (`export.arxiv.org`).
    pub host: String,
    /// How long the request waits.
    pub duration: Duration,
    /// Why.
    pub reason: WaitReason,
}

/// The callback of [`Settings::on_wait`]: a function told of each [`Wait`], or none. Two
/// settings compare equal whatever their callbacks (a callback is not a setting of the
/// network's use).
#[derive(Clone, Default)]
pub struct OnWait(Option<std::sync::Arc<WaitFn>>);

/// The function an [`OnWait`] calls.
type WaitFn = dyn Fn(&Wait) + Send + Sync;

impl OnWait {
    /// A callback calling `f` for each wait.
    pub fn new(f: impl Fn(&Wait) + Send + Sync + 'static) -> Self {
        OnWait(Some(std::sync::Arc::new(f)))
    }

    /// Tells the callback, if any, of `wait`.
    pub fn tell(&self, wait: &Wait) {
        if let Some(f) = &self.0 {
            f(wait);
        }
    }
}

impl fmt::Debug for OnWait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "OnWait(Some(..))"
        } else {
            "OnWait(None)"
        })
    }
}

impl PartialEq for OnWait {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for OnWait {}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            arxiv_url: ARXIV_URL.into(),
            resolver_url: RESOLVER_URL.into(),
            cache_dir: None,
            offline: false,
            refresh: false,
            mirrors: None,
            arxiv_spacing: ARXIV_SPACING,
            resolver_spacing: RESOLVER_SPACING,
            ots_spacing: OTS_SPACING,
            connect_timeout: CONNECT_TIMEOUT,
            read_timeout: READ_TIMEOUT,
            on_wait: OnWait::default(),
        }
    }
}

impl Settings {
    /// The defaults, changed by the environment: [`ENV_ARXIV_URL`], [`ENV_RESOLVER_URL`],
    /// [`mirrors::ENV_MIRRORS`], [`ENV_CACHE_DIR`], [`ENV_ARXIV_SPACING`],
    /// [`ENV_RESOLVER_SPACING`], [`ENV_OTS_SPACING`], [`ENV_TIMEOUT`].
    /// Empty variables are ignored.
    ///
    /// # Errors
    /// [`ErrorKind::Setting`] when a millisecond variable is not a whole number.
    pub fn from_env() -> Result<Self, Error> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let ms = |name: &'static str| -> Result<Option<Duration>, Error> {
            match var(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .map(|n| Some(Duration::from_millis(n)))
                    .map_err(|_| {
                        Error::from(ErrorKind::Setting {
                            name,
                            reason: format!("{v:?} is not a whole number of milliseconds"),
                        })
                    }),
            }
        };
        let mut s = Settings::default();
        if let Some(v) = var(ENV_ARXIV_URL) {
            s.arxiv_url = v;
        }
        if let Some(v) = var(ENV_RESOLVER_URL) {
            s.resolver_url = v;
        }
        s.cache_dir = var(ENV_CACHE_DIR).map(PathBuf::from);
        s.mirrors = var(mirrors::ENV_MIRRORS);
        if let Some(d) = ms(ENV_ARXIV_SPACING)? {
            s.arxiv_spacing = d;
        }
        if let Some(d) = ms(ENV_RESOLVER_SPACING)? {
            s.resolver_spacing = d;
        }
        if let Some(d) = ms(ENV_OTS_SPACING)? {
            s.ots_spacing = d;
        }
        if let Some(d) = ms(ENV_TIMEOUT)? {
            s.set_timeout(d);
        }
        Ok(s)
    }

    /// The mirror manifest read: [`Settings::mirrors`], else pith.science's
    /// ([`mirrors::MIRRORS_URL`]) when the resolver is the default one; `None`: the resolver
    /// alone.
    pub fn manifest(&self) -> Option<&str> {
        match &self.mirrors {
            Some(m) => Some(m),
            None if self.resolver_url.trim_end_matches('/') == RESOLVER_URL => {
                Some(mirrors::MIRRORS_URL)
            }
            None => None,
        }
    }

    /// Waits at most `read` for an answer: the read timeout, and the connect timeout when it
    /// is longer (a connection is never given more time than the whole answer). At least a
    /// millisecond.
    pub fn set_timeout(&mut self, read: Duration) {
        self.read_timeout = read.max(Duration::from_millis(1));
        self.connect_timeout = self.connect_timeout.min(self.read_timeout);
    }

    /// Refuses settings that contradict each other: `refresh` asks the network again, which
    /// `offline` never does.
    ///
    /// # Errors
    /// [`ErrorKind::Setting`] (`refresh`) for both.
    pub fn validate(&self) -> Result<(), Error> {
        if self.offline && self.refresh {
            return Err(ErrorKind::Setting {
                name: "refresh",
                reason: "it asks the network again, which offline never does: give one of them"
                    .into(),
            }
            .into());
        }
        Ok(())
    }

    /// [`Settings::set_timeout`] from a number of seconds, as the front ends take it.
    ///
    /// # Errors
    /// [`ErrorKind::Setting`] (`timeout`) when `secs` is not a finite number above 0.
    pub fn set_timeout_secs(&mut self, secs: f64) -> Result<(), Error> {
        if !(secs > 0.0 && secs.is_finite()) {
            return Err(ErrorKind::Setting {
                name: "timeout",
                reason: format!("{secs} is not a number of seconds above 0"),
            }
            .into());
        }
        self.set_timeout(Duration::from_secs_f64(secs));
        Ok(())
    }

    /// The cache directory: [`Settings::cache_dir`], else the platform's cache directory
    /// followed by `pith`.
    ///
    /// # Errors
    /// [`ErrorKind::NoCacheDir`] when neither is known (no home directory).
    pub fn cache_path(&self) -> Result<PathBuf, Error> {
        match &self.cache_dir {
            Some(d) => Ok(d.clone()),
            None => dirs::cache_dir()
                .map(|d| d.join("pith"))
                .ok_or_else(|| ErrorKind::NoCacheDir.into()),
        }
    }

    /// The spacing used for arXiv at `base`: [`Settings::arxiv_spacing`], but never less than
    /// [`ARXIV_SPACING`] for a host under `arxiv.org`.
    pub fn effective_arxiv_spacing(&self) -> Duration {
        let host = host_of(&self.arxiv_url).to_ascii_lowercase();
        if host == "arxiv.org" || host.ends_with(".arxiv.org") {
            self.arxiv_spacing.max(ARXIV_SPACING)
        } else {
            self.arxiv_spacing
        }
    }
}

/// The host of a URL (`export.arxiv.org` of `https://export.arxiv.org/oai2`), without port.
pub(crate) fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let auth = rest.split(['/', '?', '#']).next().unwrap_or("");
    let auth = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    if let Some(v6) = auth.strip_prefix('[') {
        return v6.split(']').next().unwrap_or("");
    }
    auth.split(':').next().unwrap_or("")
}

/// An error of the network client, with the request it is about (an arXiv id, a number or a
/// URL) when known.
#[derive(Debug)]
pub struct Error {
    subject: Option<String>,
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a setting (an environment variable) has a value that cannot be used.
    #[error("{name}: {reason}")]
    Setting {
        /// The variable.
        name: &'static str,
        /// Why.
        reason: String,
    },
    /// Occurs when no cache directory is set and the platform has none (no home directory).
    #[error("no cache directory (set PITH_CACHE_DIR)")]
    NoCacheDir,
    /// Occurs when the cache directory or a file in it cannot be read or written.
    #[error("cache {path}")]
    Cache {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Occurs offline when the answer is not in the cache.
    #[error("not in the cache, and the network is not used (offline)")]
    NotCached,
    /// Occurs when the text is not an arXiv identifier in any accepted form.
    #[error("not an arXiv id (expected e.g. 2402.03791, 2402.03791v3, hep-th/9901001, arXiv:…, or an arxiv.org/abs/ URL)")]
    BadId,
    /// Occurs when arXiv answers `idDoesNotExist`: there is no paper with this id.
    #[error("arXiv has no paper with this id")]
    IdDoesNotExist,
    /// Occurs when arXiv's record of the paper is deleted.
    #[error("arXiv's record of this paper is deleted")]
    Deleted,
    /// Occurs when the requested version is newer than the latest arXiv lists.
    #[error("version {asked} does not exist (the latest is v{latest})")]
    NoSuchVersion {
        /// The version asked for.
        asked: u32,
        /// The latest version.
        latest: u32,
    },
    /// Occurs when an older version is asked for without its title and abstract: arXiv
    /// serves only the latest version's metadata, so the older one's cannot be known.
    #[error("v{asked} is not the latest version (v{latest}); arXiv serves only the latest version's title and abstract, so v{asked}'s number needs its own title and abstract")]
    OlderVersion {
        /// The version asked for.
        asked: u32,
        /// The latest version.
        latest: u32,
    },
    /// Occurs when the next version is asked for with an id naming a version other than the
    /// latest.
    #[error("v{asked} is not the latest version (v{latest}); the next version is v{}", latest + 1)]
    NotLatest {
        /// The version in the id.
        asked: u32,
        /// The latest version.
        latest: u32,
    },
    /// Occurs when the resolver has no record (or no bundle) for a number (HTTP 404).
    #[error("not found (HTTP 404)")]
    NotFound,
    /// Occurs when the server answers with an HTTP error, after the retries for 429 and 5xx.
    #[error("HTTP {status}{}", retry_after.map(|s| format!(" (retry after {s} s)")).unwrap_or_default())]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The server's `Retry-After`, in seconds, when it gave one.
        retry_after: Option<u64>,
    },
    /// Occurs when the connection or an answer takes longer than the timeout.
    #[error("timed out")]
    Timeout,
    /// Occurs when the server cannot be reached or the connection fails (no network, DNS,
    /// refused, reset, TLS).
    #[error("cannot connect to {host} (set {variable} to use another server)")]
    Connect {
        /// The host asked (`export.arxiv.org`).
        host: String,
        /// The environment variable naming the service's base URL ([`ENV_ARXIV_URL`],
        /// [`ENV_RESOLVER_URL`]).
        variable: &'static str,
        /// What failed: the operating system's error (DNS, refused) or the TLS error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Occurs when an answer is cut short or cannot be read.
    #[error("the answer could not be read")]
    Read(#[source] Box<ureq::Error>),
    /// Occurs when an answer is not what the service sends (malformed XML or JSON, an
    /// unexpected shape, a record of another paper).
    #[error("unexpected answer: {0}")]
    BadAnswer(String),
    /// Occurs when the paper's metadata cannot make a record.
    #[error("cannot build the record")]
    Record(#[source] Box<crate::record::Error>),
    /// Occurs when a PDF cannot be read.
    #[error("cannot read the PDF")]
    Pdf(#[source] Box<crate::pdf::Error>),
    /// Occurs when a calendar's answer is not an OpenTimestamps timestamp, or a Bitcoin API's
    /// is not the block header asked for.
    #[error("unusable answer")]
    Ots(#[source] Box<crate::ots::Error>),
    /// Occurs when an OpenTimestamps proof cannot be upgraded: it would take more requests
    /// than an upgrade makes, or the calendars' answers would make a proof pith refuses.
    #[error("{reason}")]
    Upgrade {
        /// What cannot be done.
        reason: &'static str,
        /// Why.
        #[source]
        source: Box<crate::ots::Error>,
    },
    /// Occurs when a PDF carries no Pith Number (no XMP or Info entry, no record link).
    #[error("the PDF carries no Pith Number")]
    NoNumber,
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// What the request was about (an arXiv id, a number, a URL), when known.
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// The same error, about `subject` (kept when one is already set).
    pub fn about(mut self, subject: impl Into<String>) -> Self {
        if self.subject.is_none() {
            self.subject = Some(subject.into());
        }
        self
    }

    /// Whether the error is about reaching the service (connection, timeout, HTTP status):
    /// trying again later, or offline from the cache, may help.
    pub fn is_network(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Connect { .. }
                | ErrorKind::Timeout
                | ErrorKind::Read(_)
                | ErrorKind::Status { .. }
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.subject {
            Some(s) => write!(f, "{s}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error {
            subject: None,
            kind,
        }
    }
}

/// The record URL of a code at the resolver `base`.
pub fn record_url(base: &str, code: &str) -> String {
    format!("{}/pith/{code}.json", base.trim_end_matches('/'))
}

/// The bundle URL of a code at the resolver `base`.
pub fn bundle_url(base: &str, code: &str) -> String {
    format!("{}/pith/{code}/bundle.json", base.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_polite_ones() {
        let s = Settings::default();
        assert_eq!(s.arxiv_spacing, Duration::from_secs(3));
        assert_eq!(s.effective_arxiv_spacing(), Duration::from_secs(3));
        assert_eq!(s.arxiv_url, "https://export.arxiv.org");
        assert_eq!(s.resolver_url, "https://pith.science");
        assert_eq!(USER_AGENT, "pith-number/0.1.0 (+https://pith.science)");
        let lowered = Settings {
            arxiv_spacing: Duration::from_millis(10),
            ..Settings::default()
        };
        assert_eq!(lowered.effective_arxiv_spacing(), ARXIV_SPACING);
        let local = Settings {
            arxiv_url: "http://127.0.0.1:8080".into(),
            ..lowered
        };
        assert_eq!(local.effective_arxiv_spacing(), Duration::from_millis(10));
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("https://export.arxiv.org/oai2?x"),
            "export.arxiv.org"
        );
        assert_eq!(host_of("http://u:p@127.0.0.1:99/"), "127.0.0.1");
        assert_eq!(host_of("http://[::1]:99/"), "::1");
        assert_eq!(host_of("https://evilarxiv.org"), "evilarxiv.org");
    }
}
