//! The limits as an operator gives them, in counts, bytes and seconds (`pith serve`'s
//! options), and the rules that make them [`Limits`]: the command line fills
//! [`LimitSettings`] and decides nothing.

use std::time::Duration;

use super::Limits;

/// The limits as an operator gives them (`pith serve`'s options): counts, bytes and seconds.
/// [`LimitSettings::limits`] holds the rules: a count of at least one, 0 seconds of a check
/// as no bound (as a file deadline of 0 is at every door), the upload memory at least one
/// upload's worth.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LimitSettings {
    /// [`Limits::max_connections`].
    pub max_connections: usize,
    /// [`Limits::max_connections_per_client`].
    pub max_connections_per_client: usize,
    /// [`Limits::header_timeout`], in seconds.
    pub header_timeout: u64,
    /// [`Limits::idle_timeout`], in seconds.
    pub idle_timeout: u64,
    /// [`Limits::request_timeout`], in seconds.
    pub request_timeout: u64,
    /// [`Limits::cache_bytes`]; left out, the server's (64 MiB).
    pub cache_bytes: Option<u64>,
    /// The cache's size as a count of answers (the older spelling), 4 KiB each; refused
    /// beside [`LimitSettings::cache_bytes`] ([`SettingsError::CacheTwice`]).
    pub cache_entries: Option<u64>,
    /// [`Limits::checks`].
    pub checks: usize,
    /// [`Limits::check_queue`].
    pub check_queue: usize,
    /// [`Limits::check_wait`], in seconds.
    pub check_wait: u64,
    /// [`Limits::check_timeout`], in seconds; 0 for no bound.
    pub check_timeout: f64,
    /// [`Limits::upload_slots`].
    pub upload_slots: usize,
    /// [`Limits::upload_memory`].
    pub upload_memory: u64,
    /// [`Limits::upload_rate`].
    pub upload_rate: u64,
    /// [`Limits::upload_grace`], in seconds.
    pub upload_grace: u64,
    /// The largest upload taken, in bytes.
    pub max_upload: u64,
}

impl Default for LimitSettings {
    fn default() -> Self {
        let l = Limits::default();
        LimitSettings {
            max_connections: l.max_connections,
            max_connections_per_client: l.max_connections_per_client,
            header_timeout: l.header_timeout.as_secs(),
            idle_timeout: l.idle_timeout.as_secs(),
            request_timeout: l.request_timeout.as_secs(),
            cache_bytes: None,
            cache_entries: None,
            checks: l.checks,
            check_queue: l.check_queue,
            check_wait: l.check_wait.as_secs(),
            check_timeout: l.check_timeout.map_or(0.0, |d| d.as_secs_f64()),
            upload_slots: l.upload_slots,
            upload_memory: l.upload_memory,
            upload_rate: l.upload_rate,
            upload_grace: l.upload_grace.as_secs(),
            max_upload: super::MAX_UPLOAD,
        }
    }
}

/// Why limit settings are refused before the server starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// The cache's size given twice: in bytes and as a count of answers (the older
    /// spelling), which would say two sizes.
    #[error("the cache's size is given both in bytes and as a count of answers: give it in bytes")]
    CacheTwice,
}

impl LimitSettings {
    /// Refuses settings that contradict each other, before anything is served.
    ///
    /// # Errors
    /// [`SettingsError::CacheTwice`] for the cache's size in bytes and as a count of answers.
    ///
    /// # Examples
    /// ```
    /// use pith_serve::limits::{LimitSettings, SettingsError};
    /// let twice = LimitSettings { cache_bytes: Some(1 << 20), cache_entries: Some(8), ..Default::default() };
    /// assert_eq!(twice.validate(), Err(SettingsError::CacheTwice));
    /// assert!(LimitSettings { cache_entries: Some(8), ..Default::default() }.validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), SettingsError> {
        match (self.cache_bytes, self.cache_entries) {
            (Some(_), Some(_)) => Err(SettingsError::CacheTwice),
            _ => Ok(()),
        }
    }

    /// The limits these settings give ([`LimitSettings::validate`] first: the cache's size
    /// as a count of answers is taken over its size in bytes here).
    ///
    /// # Examples
    /// ```
    /// use pith_serve::limits::LimitSettings;
    /// let l = LimitSettings { check_timeout: 0.0, checks: 0, ..Default::default() }.limits();
    /// assert_eq!(l.check_timeout, None);
    /// assert_eq!(l.checks, 1);
    /// ```
    pub fn limits(&self) -> Limits {
        let secs = |s: u64| Duration::from_secs(s.max(1));
        Limits {
            max_connections: self.max_connections.max(1),
            max_connections_per_client: self.max_connections_per_client.max(1),
            header_timeout: secs(self.header_timeout),
            idle_timeout: secs(self.idle_timeout),
            request_timeout: secs(self.request_timeout),
            cache_bytes: match (self.cache_entries, self.cache_bytes) {
                (Some(n), _) => n.saturating_mul(4096),
                (None, Some(b)) => b,
                (None, None) => Limits::default().cache_bytes,
            },
            checks: self.checks.max(1),
            check_queue: self.check_queue,
            check_wait: Duration::from_secs(self.check_wait),
            check_timeout: pith::job::stop::bound_of_secs(self.check_timeout),
            upload_slots: self.upload_slots.max(1),
            upload_memory: self.upload_memory.max(self.max_upload),
            upload_rate: self.upload_rate.max(1),
            upload_grace: Duration::from_secs(self.upload_grace),
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LimitSettings, SettingsError};

    #[test]
    fn a_check_of_0_seconds_has_no_bound_and_counts_are_at_least_one() {
        let given = LimitSettings {
            check_timeout: 0.0,
            max_connections: 0,
            checks: 0,
            upload_slots: 0,
            header_timeout: 0,
            ..LimitSettings::default()
        };
        let l = given.limits();
        assert_eq!(l.check_timeout, None, "0 s of a check is no bound");
        assert_eq!((l.max_connections, l.checks, l.upload_slots), (1, 1, 1));
        assert_eq!(l.header_timeout, std::time::Duration::from_secs(1));
        let bounded = LimitSettings {
            check_timeout: 2.5,
            ..LimitSettings::default()
        };
        assert_eq!(
            bounded.limits().check_timeout,
            Some(std::time::Duration::from_millis(2500))
        );
        // The defaults are the server's.
        assert_eq!(
            LimitSettings::default().limits().check_timeout,
            super::Limits::default().check_timeout
        );
        assert_eq!(
            LimitSettings::default().limits().cache_bytes,
            super::Limits::default().cache_bytes
        );
    }

    #[test]
    fn the_cache_is_sized_one_way() {
        let bytes = LimitSettings {
            cache_bytes: Some(1 << 20),
            ..LimitSettings::default()
        };
        let entries = LimitSettings {
            cache_entries: Some(8),
            ..LimitSettings::default()
        };
        assert_eq!(bytes.validate(), Ok(()));
        assert_eq!(entries.validate(), Ok(()));
        assert_eq!(bytes.limits().cache_bytes, 1 << 20);
        assert_eq!(entries.limits().cache_bytes, 8 * 4096);
        // Both, even the default size given by hand, say two sizes.
        for b in [1 << 20, super::Limits::default().cache_bytes] {
            let twice = LimitSettings {
                cache_bytes: Some(b),
                ..entries.clone()
            };
            assert_eq!(twice.validate(), Err(SettingsError::CacheTwice));
        }
    }
}
