//! The polite HTTP client: one ureq agent (one kept-alive connection per host, rustls, the
//! proxy from `HTTPS_PROXY`/`ALL_PROXY`/`HTTP_PROXY` minus `NO_PROXY`), a User-Agent naming
//! pith ([`super::USER_AGENT`]), connect and read timeouts, and for each service a spacing
//! gate shared by every pith process on the machine:
//!
//! the gate is a file in the cache directory (`arxiv.lock`, `resolver.lock`) holding the time
//! the last request's answer was read, in milliseconds since the Unix epoch. A request takes
//! the file's exclusive lock (std file locking: `flock` on Unix, `LockFileEx` on Windows),
//! waits until the spacing has passed since that time, and keeps the lock until its answer is
//! read, then writes the new time: requests to one service never overlap, in one process or
//! many, and each starts a full spacing after the one before it ended.
//!
//! Answers 429 and 5xx are retried [`MAX_RETRIES`] times with exponential backoff starting at
//! the spacing (at least [`MIN_BACKOFF`] for the real services), or after the server's
//! `Retry-After` (seconds or an HTTP date) when it gives one no longer than
//! [`MAX_RETRY_AFTER`]. Connection failures and timeouts are not retried: the caller is told
//! at once.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::cache::Cache;
use super::{host_of, Error, ErrorKind, Settings, Wait, WaitReason, USER_AGENT};

/// Retries after a 429 or 5xx answer (so at most `MAX_RETRIES + 1` requests).
pub const MAX_RETRIES: u32 = 3;
/// The longest `Retry-After` waited for; a server asking for more is reported instead.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);
/// The largest answer read, in bytes (an arXiv record is a few kilobytes).
pub const MAX_BODY: u64 = 16 << 20;

/// Which service a request goes to: each has its own spacing and gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// arXiv's OAI-PMH interface.
    Arxiv,
    /// The Pith resolver.
    Resolver,
    /// An OpenTimestamps calendar.
    Calendar,
    /// A Bitcoin node's REST interface or an Esplora-style API.
    Bitcoin,
    /// The Wayback Machine's CDX API.
    Wayback,
}

impl Service {
    fn name(self) -> &'static str {
        match self {
            Service::Arxiv => "arxiv",
            Service::Resolver => "resolver",
            Service::Calendar => "calendar",
            Service::Bitcoin => "bitcoin",
            Service::Wayback => "wayback",
        }
    }

    /// The largest answer read from the service: a calendar answers a proof's tree (at most
    /// what pith reads as a proof), a Bitcoin API a block hash or a header in hex.
    fn max_body(self) -> u64 {
        match self {
            Service::Arxiv | Service::Resolver | Service::Wayback => MAX_BODY,
            Service::Calendar => crate::ots::proof::MAX_PROOF as u64,
            Service::Bitcoin => 16 << 10,
        }
    }

    /// The environment variable that points pith at another server for this service.
    fn variable(self) -> &'static str {
        match self {
            Service::Arxiv => super::ENV_ARXIV_URL,
            Service::Resolver => super::ENV_RESOLVER_URL,
            Service::Calendar => super::ENV_CALENDARS,
            Service::Bitcoin => super::ENV_BITCOIN_URL,
            Service::Wayback => super::ENV_WAYBACK_URL,
        }
    }
}

/// A `GET` answer with status 200.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The body.
    pub body: Vec<u8>,
    /// How many requests it took (1 without retries).
    pub attempts: u32,
}

/// The HTTP client of one run: settings, cache and agent.
#[derive(Debug)]
pub struct Client {
    settings: Settings,
    cache: Cache,
    agent: ureq::Agent,
}

impl Client {
    /// A client with `settings`.
    ///
    /// # Errors
    /// [`ErrorKind::NoCacheDir`] when there is no cache directory.
    pub fn new(settings: &Settings) -> Result<Self, Error> {
        let cache = Cache::new(settings.cache_path()?);
        let config = ureq::Agent::config_builder()
            .user_agent(USER_AGENT)
            // Statuses are read here, to retry 429/5xx and to tell a 404 from other errors.
            .http_status_as_error(false)
            .timeout_connect(Some(settings.connect_timeout))
            .timeout_recv_response(Some(settings.read_timeout))
            .timeout_recv_body(Some(settings.read_timeout))
            .max_idle_connections_per_host(1)
            .build();
        Ok(Client {
            settings: settings.clone(),
            cache,
            agent: config.into(),
        })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The cache.
    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    fn spacing(&self, service: Service) -> Duration {
        match service {
            Service::Arxiv => self.settings.effective_arxiv_spacing(),
            Service::Resolver => self.settings.resolver_spacing,
            // The Archive asks crawlers for about a request a second; the OpenTimestamps
            // spacing is that, and a test's stand-in lowers it the same way.
            Service::Calendar | Service::Bitcoin | Service::Wayback => self.settings.ots_spacing,
        }
    }

    /// `GET url` from `service`: through the gate, retried on 429 and 5xx.
    ///
    /// # Errors
    /// [`ErrorKind::NotCached`] offline; [`ErrorKind::NotFound`] for a 404;
    /// [`ErrorKind::Status`] for another error status (after the retries);
    /// [`ErrorKind::Timeout`], [`ErrorKind::Connect`], [`ErrorKind::Read`];
    /// [`ErrorKind::Cache`] when the gate's file cannot be used.
    pub fn get(&self, service: Service, url: &str) -> Result<Fetched, Error> {
        self.request(service, url, None)
    }

    /// `POST url` with `body` to `service`, as [`Client::get`] (a calendar takes a digest
    /// this way; a 429 or 5xx is retried as for a `GET`: the calendar records a digest once).
    ///
    /// # Errors
    /// As [`Client::get`].
    pub fn post(&self, service: Service, url: &str, body: &[u8]) -> Result<Fetched, Error> {
        self.request(service, url, Some(body))
    }

    fn request(&self, service: Service, url: &str, body: Option<&[u8]>) -> Result<Fetched, Error> {
        if self.settings.offline {
            return Err(ErrorKind::NotCached.into());
        }
        let spacing = self.spacing(service);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (status, retry_after, body) =
                self.gated(service, url, spacing, || self.once(service, url, body))?;
            match status {
                200 => {
                    return Ok(Fetched {
                        body,
                        attempts: attempt,
                    })
                }
                404 => return Err(ErrorKind::NotFound.into()),
                429 | 500..=599 if attempt <= MAX_RETRIES => {
                    let backoff = spacing.max(self.floor(service)) * 2u32.pow(attempt - 1);
                    let (wait, reason) = match retry_after {
                        Some(s) if s > MAX_RETRY_AFTER => {
                            return Err(ErrorKind::Status {
                                status,
                                retry_after: Some(s.as_secs()),
                            }
                            .into())
                        }
                        Some(s) => (s, WaitReason::RetryAfter { status }),
                        None => (backoff, WaitReason::Backoff { status }),
                    };
                    self.settings.on_wait.tell(&Wait {
                        service,
                        host: host_of(url).to_owned(),
                        duration: wait,
                        reason,
                    });
                    std::thread::sleep(wait);
                }
                _ => {
                    return Err(ErrorKind::Status {
                        status,
                        retry_after: retry_after.map(|d| d.as_secs()),
                    }
                    .into())
                }
            }
        }
    }

    /// The least backoff for a service: [`MIN_BACKOFF`] for the real services, none for a
    /// local server whose spacing was lowered (tests).
    fn floor(&self, service: Service) -> Duration {
        match service {
            Service::Arxiv if self.spacing(service) >= super::ARXIV_SPACING => MIN_BACKOFF,
            Service::Resolver if self.spacing(service) >= super::RESOLVER_SPACING => MIN_BACKOFF,
            Service::Calendar | Service::Bitcoin | Service::Wayback
                if self.spacing(service) >= super::OTS_SPACING =>
            {
                MIN_BACKOFF
            }
            _ => Duration::ZERO,
        }
    }

    /// One request: status, `Retry-After` and the body (empty unless 200).
    fn once(
        &self,
        service: Service,
        url: &str,
        body: Option<&[u8]>,
    ) -> Result<(u16, Option<Duration>, Vec<u8>), Error> {
        // A record URL answers its page to a client that does not ask for JSON, as DOI
        // resolvers do; pith reads JSON. A calendar answers its own binary format to a client
        // that asks for it, as OpenTimestamps' client does.
        let accept = match service {
            Service::Resolver => Some("application/json"),
            Service::Calendar => Some("application/vnd.opentimestamps.v1"),
            _ => None,
        };
        let sent = match body {
            Some(b) => {
                let mut req = self.agent.post(url);
                if let Some(a) = accept {
                    req = req.header("Accept", a);
                }
                req.header("Content-Type", "application/x-www-form-urlencoded")
                    .send(b)
            }
            None => {
                let mut req = self.agent.get(url);
                if let Some(a) = accept {
                    req = req.header("Accept", a);
                }
                req.call()
            }
        };
        let mut resp = sent.map_err(|e| transport(e, false, service, url))?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let body = if status == 200 {
            resp.body_mut()
                .with_config()
                .limit(service.max_body())
                .read_to_vec()
                .map_err(|e| transport(e, true, service, url))?
        } else {
            // Read (a bounded amount of) the error page so the connection can be reused.
            let _ = resp.body_mut().with_config().limit(1 << 20).read_to_vec();
            Vec::new()
        };
        Ok((status, retry_after, body))
    }

    /// Runs `f` holding `service`'s gate, once `spacing` has passed since the last request.
    fn gated<T>(
        &self,
        service: Service,
        url: &str,
        spacing: Duration,
        f: impl FnOnce() -> Result<T, Error>,
    ) -> Result<T, Error> {
        let path = self.cache.lock_file(service.name());
        let err = |e: std::io::Error| -> Error {
            ErrorKind::Cache {
                path: path.clone(),
                source: e,
            }
            .into()
        };
        std::fs::create_dir_all(self.cache.dir()).map_err(|e| {
            Error::from(ErrorKind::Cache {
                path: self.cache.dir().to_owned(),
                source: e,
            })
        })?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(err)?;
        file.lock().map_err(err)?;
        let mut text = String::new();
        // A damaged timestamp counts as none.
        let _ = (&mut file).take(64).read_to_string(&mut text);
        let last = text.trim().parse::<u64>().ok();
        if let Some(last) = last {
            let due = Duration::from_millis(last) + spacing;
            // A clock set back never makes a request wait longer than the spacing.
            let wait = due.saturating_sub(now()).min(spacing);
            if !wait.is_zero() {
                self.settings.on_wait.tell(&Wait {
                    service,
                    host: host_of(url).to_owned(),
                    duration: wait,
                    reason: WaitReason::Spacing,
                });
                std::thread::sleep(wait);
            }
        }
        let out = f();
        // The time is taken once the answer was read, not when the request left: the next
        // request then reaches the server a full spacing after this one did, however long this
        // one took to send or to answer.
        let stamp = now().as_millis().to_string();
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(stamp.as_bytes()))
            .and_then(|_| file.flush())
            .map_err(err)?;
        // Dropping the file releases the lock, after the answer was read.
        drop(file);
        out
    }
}

/// The least backoff before retrying one of the real services.
pub const MIN_BACKOFF: Duration = Duration::from_secs(3);

fn now() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

/// `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(s) = v.parse::<u64>() {
        return Some(Duration::from_secs(s));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let secs = when.timestamp() - chrono::Utc::now().timestamp();
    Some(Duration::from_secs(secs.max(0) as u64))
}

/// Maps a transport error: timeouts, connection failures (naming the host of `url` and the
/// variable that points pith at another server for `service`), and (`reading`) errors of the
/// body.
fn transport(e: ureq::Error, reading: bool, service: Service, url: &str) -> Error {
    let timed_out = match &e {
        ureq::Error::Timeout(_) => true,
        ureq::Error::Io(io) => matches!(
            io.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        ),
        _ => false,
    };
    if timed_out {
        return ErrorKind::Timeout.into();
    }
    match (&e, reading) {
        (ureq::Error::BodyExceedsLimit(n), _) => {
            ErrorKind::BadAnswer(format!("more than {n} bytes")).into()
        }
        (_, true) => ErrorKind::Read(Box::new(e)).into(),
        (
            ureq::Error::Io(_)
            | ureq::Error::HostNotFound
            | ureq::Error::ConnectionFailed
            | ureq::Error::ConnectProxyFailed(_)
            | ureq::Error::Tls(_)
            | ureq::Error::Rustls(_),
            false,
        ) => ErrorKind::Connect {
            host: host_of(url).to_owned(),
            variable: service.variable(),
            // The operating system's error itself, so that it is written in words.
            source: match e {
                ureq::Error::Io(io) => Box::new(io),
                e => Box::new(e),
            },
        }
        .into(),
        _ => ErrorKind::Read(Box::new(e)).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after(" 7 "), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        let later = (chrono::Utc::now() + chrono::Duration::seconds(100)).to_rfc2822();
        let d = parse_retry_after(&later).unwrap();
        assert!(d.as_secs() >= 98 && d.as_secs() <= 100, "{d:?}");
        assert_eq!(parse_retry_after("soon"), None);
    }
}
