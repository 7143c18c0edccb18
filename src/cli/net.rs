//! The network options shared by every command that may fetch (`--arxiv-url`,
//! `--resolver-url`, `--mirrors`, `--offline`, `--refresh`, `--timeout`) and the hints added to network
//! errors. Every rule (spacing, retries, cache) is `pith::net`'s.

use anyhow::Result;
use pith::net::client::Service;
use pith::net::{ErrorKind, OnWait, Settings, Wait, WaitReason};

/// How the network is used.
#[derive(Debug, Clone, clap::Args, Default)]
pub struct NetArgs {
    /// arXiv's base URL [default: $PITH_ARXIV_URL, else https://export.arxiv.org].
    #[arg(long, value_name = "URL", help_heading = "Network")]
    pub arxiv_url: Option<String>,
    /// The resolver's base URL [default: $PITH_RESOLVER_URL, else https://pith.science].
    #[arg(long, value_name = "URL", help_heading = "Network")]
    pub resolver_url: Option<String>,
    /// The mirror manifest whose mirrors are asked in turn: a URL or a file [default:
    /// $PITH_MIRRORS, else https://pith.science/pith-mirrors.json with the default resolver].
    #[arg(long, value_name = "URL|FILE", help_heading = "Network")]
    pub mirrors: Option<String>,
    /// Use only answers cached earlier (in $PITH_CACHE_DIR, else ~/.cache/pith); never the
    /// network.
    #[arg(long, help_heading = "Network")]
    pub offline: bool,
    /// Fetch again even when an answer is cached (and cache the new one).
    #[arg(long, help_heading = "Network")]
    pub refresh: bool,
    /// Seconds to wait for an answer [default: 30].
    #[arg(long, value_name = "SECS", help_heading = "Network")]
    pub timeout: Option<f64>,
}

impl NetArgs {
    /// The library's settings: the environment's, then these flags.
    pub fn settings(&self, ui: super::Ui) -> Result<Settings> {
        let mut s = Settings::from_env()?;
        if let Some(u) = &self.arxiv_url {
            s.arxiv_url = u.clone();
        }
        if let Some(u) = &self.resolver_url {
            s.resolver_url = u.clone();
        }
        if let Some(m) = &self.mirrors {
            s.mirrors = Some(m.clone());
        }
        s.offline = self.offline;
        s.refresh = self.refresh;
        if ui.verbose(1) {
            s.on_wait = OnWait::new(|w| super::errln!("pith: {}", waiting(w)));
        }
        if let Some(t) = self.timeout {
            s.set_timeout_secs(t).map_err(error)?;
        }
        s.validate().map_err(error)?;
        Ok(s)
    }
}

/// The `-v` line for a request that waits, so that a pause is explained.
fn waiting(w: &Wait) -> String {
    let secs = w.duration.as_secs_f64();
    match w.reason {
        WaitReason::RetryAfter { status } => format!(
            "{} answered HTTP {status}; waiting {secs:.1} s, as its Retry-After asks",
            w.host
        ),
        WaitReason::Backoff { status } => format!(
            "{} answered HTTP {status}; waiting {secs:.1} s before trying again",
            w.host
        ),
        _ if w.service == Service::Arxiv => format!(
            "waiting {secs:.1} s before asking {}: arXiv asks for at most one request every 3 s (counted across the pith runs on this machine)",
            w.host
        ),
        _ => format!(
            "waiting {secs:.1} s before asking {}: requests to it are spaced out",
            w.host
        ),
    }
}

/// What the user can do about a network error.
pub fn hint(e: &pith::net::Error) -> Option<&'static str> {
    Some(match e.kind() {
        ErrorKind::IdDoesNotExist => "check the id at arxiv.org",
        ErrorKind::Deleted => "check the id at arxiv.org; a deleted record has no number",
        // Each way out leads somewhere new: fetching needs the network, and a saved Atom
        // entry needs neither the network nor the cache.
        ErrorKind::NotCached => {
            "run once without --offline to fetch and cache it, or give the paper's Atom entry (arXiv's export API) with --arxiv-atom FILE"
        }
        ErrorKind::OlderVersion { .. } => {
            "give that version's --title-file and --abstract-file, or drop the version for the latest"
        }
        ErrorKind::NoSuchVersion { .. } => "drop the version for the latest",
        ErrorKind::NotLatest { .. } => "drop the version from the id",
        ErrorKind::Cache { .. } => "set PITH_CACHE_DIR to a writable directory",
        ErrorKind::BadAnswer(_) => "try again later, or with --refresh",
        _ if e.is_network() => {
            "check the network and try again later; --offline uses answers cached earlier, --arxiv-atom FILE a saved Atom entry"
        }
        _ => return None,
    })
}

/// A network error as the one line `pith:` prints: the error, its causes, and the hint.
pub fn describe(e: &pith::net::Error) -> String {
    let mut line = pith::pdf::chain(e);
    if let Some(h) = hint(e) {
        // A line that already ends in a parenthesis takes the hint after a semicolon: one
        // pair of parentheses, not two in a row.
        if line.ends_with(')') {
            line.push_str(&format!("; {h}"));
        } else {
            line.push_str(&format!(" ({h})"));
        }
    }
    line
}

/// [`describe`] as an error.
pub fn error(e: pith::net::Error) -> anyhow::Error {
    with_kind(&e, describe(&e))
}

/// `line` as an error of `e`'s kind.
pub fn with_kind(e: &pith::net::Error, line: String) -> anyhow::Error {
    super::Failure::new(pith::job::kind::of_net(e), line).into()
}
