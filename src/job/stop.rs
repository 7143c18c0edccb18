//! How long one file of a run may take, and how a run stops the files it has in flight: every
//! file of a batch, every PDF member of a tar and every file Python hands over gets its own
//! [`Stop`] token, whose deadline is the per-file time bound ([`FILE_TIMEOUT`] unless the
//! caller gives another) and which the run cancels when its caller asks it to stop (Ctrl-C,
//! SIGTERM, Python's `KeyboardInterrupt`). The engine looks at the token inside its loops, so
//! a slow file ends as its own report line and an interrupted run ends within moments, with
//! nothing written for the files it stopped.
//!
//! It decides nothing about what a stopped file's line says: that is [`super::item`]'s (a
//! file past its bound failed, kind `over_time`; a file cancelled by the run is `skipped`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::pdf::Stop;

/// The time one file may take by default, in seconds: far more than any real PDF needs (the
/// engine reads the largest papers in well under a second, and its limits keep any one file
/// to about a second of work), yet short enough that a file built to be slow costs a run
/// minutes, not hours. 0 means no bound.
pub const FILE_TIMEOUT_SECS: u64 = 120;

/// [`FILE_TIMEOUT_SECS`] as a duration.
pub const FILE_TIMEOUT: Duration = Duration::from_secs(FILE_TIMEOUT_SECS);

/// The bound of a number of seconds as the front ends take it: 0 is no bound.
pub fn bound_of_secs(secs: f64) -> Option<Duration> {
    (secs > 0.0)
        .then(|| Duration::try_from_secs_f64(secs).ok())
        .flatten()
}

/// The deadline of one file as a door was given it: seconds (0 is no bound), or
/// [`FILE_TIMEOUT_SECS`] when left out.
pub fn file_bound(secs: Option<f64>) -> Option<Duration> {
    match secs {
        Some(secs) => bound_of_secs(secs),
        None => Some(FILE_TIMEOUT),
    }
}

/// The stop tokens of one run: a fresh one per file ([`Stops::file`]), all cancelled at once
/// by [`Stops::cancel`].
#[derive(Debug, Default)]
pub struct Stops {
    bound: Option<Duration>,
    /// The run's own token (a signal handler's): when it stops, [`Stops::relay`] cancels.
    parent: Stop,
    cancelled: AtomicBool,
    next: AtomicU64,
    /// The tokens of the files in flight (a handful: one per worker), with their ids.
    live: Mutex<Vec<(u64, Stop)>>,
}

impl Stops {
    /// The tokens of a run whose files may each take `bound` (`None`: no bound), cancelled
    /// when `parent` is (see [`Stops::relay`]).
    pub fn new(bound: Option<Duration>, parent: &Stop) -> Self {
        Stops {
            bound,
            parent: parent.clone(),
            ..Stops::default()
        }
    }

    /// Cancels the files if the run's own token was cancelled; whether they are cancelled.
    /// A run calls it while it waits (a tenth of a second at most between two calls).
    pub fn relay(&self) -> bool {
        if self.parent.halted() == Some(crate::pdf::Halt::Cancelled) && !self.is_cancelled() {
            self.cancel();
        }
        self.is_cancelled()
    }

    /// Runs `f` while a thread relays the run's token every 50 ms ([`Stops::relay`]), for a
    /// run whose own loop may wait long on one file; `on_cancel` is called once when the
    /// relay cancels.
    pub fn relaying<T>(&self, on_cancel: &(dyn Fn() + Sync), f: impl FnOnce() -> T) -> T {
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            let relay = s.spawn(|| {
                while !done.load(Ordering::SeqCst) {
                    if self.relay() {
                        on_cancel();
                        return;
                    }
                    // Parked, not asleep: the end of the run wakes it at once, so that the
                    // run does not wait out the rest of a pause for it.
                    std::thread::park_timeout(Duration::from_millis(50));
                }
            });
            let out = f();
            done.store(true, Ordering::SeqCst);
            relay.thread().unpark();
            out
        })
    }

    /// The token of a file starting now: its deadline is the bound from now, and it is
    /// cancelled with the run (at once if the run was cancelled already). It stays cancellable
    /// while the returned guard lives.
    pub fn file(&self) -> FileStop<'_> {
        let stop = Stop::until(self.bound.and_then(|b| Instant::now().checked_add(b)));
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        // Checked under the lock, so that a cancel either sees this token or precedes it.
        if self.cancelled.load(Ordering::SeqCst) {
            stop.cancel();
        }
        live.push((id, stop.clone()));
        FileStop {
            stops: self,
            id,
            stop,
        }
    }

    /// Cancels the files in flight and every file started from now on.
    pub fn cancel(&self) {
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        self.cancelled.store(true, Ordering::SeqCst);
        for (_, s) in live.iter() {
            s.cancel();
        }
    }

    /// Whether [`Stops::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// One file's token, taken off its run's list when dropped.
#[derive(Debug)]
pub struct FileStop<'a> {
    stops: &'a Stops,
    id: u64,
    stop: Stop,
}

impl FileStop<'_> {
    /// The token to hand to the engine.
    pub fn token(&self) -> &Stop {
        &self.stop
    }
}

impl Drop for FileStop<'_> {
    fn drop(&mut self) {
        let mut live = self.stops.live.lock().unwrap_or_else(|p| p.into_inner());
        live.retain(|(id, _)| *id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_reaches_files_in_flight_and_later_ones_and_only_a_run_s_own() {
        let never = Stop::never();
        let run = Stops::new(Some(Duration::from_secs(3600)), &never);
        let other = Stops::new(None, &never);
        let (a, b) = (run.file(), other.file());
        assert!(!a.token().is_stopped());
        run.cancel();
        assert!(a.token().is_stopped() && !b.token().is_stopped());
        assert!(run.file().token().is_stopped());
        drop(a);
        assert!(run.live.lock().unwrap().is_empty());
    }

    #[test]
    fn the_run_s_own_token_is_relayed_to_its_files() {
        let parent = Stop::new();
        let run = Stops::new(None, &parent);
        let f = run.file();
        let seen = AtomicBool::new(false);
        let relayed = run.relaying(&|| seen.store(true, Ordering::SeqCst), || {
            parent.cancel();
            let t = Instant::now();
            // The relay looks every 50 ms; the ceiling only ends a test that would hang.
            while !f.token().is_stopped() && t.elapsed() < Duration::from_secs(120) {
                std::thread::sleep(Duration::from_millis(5));
            }
            f.token().is_stopped()
        });
        assert!(relayed && seen.load(Ordering::SeqCst));
        assert!(
            Stops::new(None, &Stop::after(Duration::ZERO))
                .file()
                .token()
                .halted()
                != Some(crate::pdf::Halt::Cancelled),
            "a parent's deadline is not a cancel"
        );
    }

    #[test]
    fn a_file_past_its_bound_stops_and_no_bound_never_does() {
        let run = Stops::new(Some(Duration::ZERO), &Stop::never());
        assert_eq!(
            run.file().token().halted(),
            Some(crate::pdf::Halt::Deadline)
        );
        assert!(!Stops::new(None, &Stop::never()).file().token().is_stopped());
        assert_eq!(bound_of_secs(0.0), None);
        assert_eq!(bound_of_secs(1.5), Some(Duration::from_millis(1500)));
        assert_eq!(bound_of_secs(f64::NAN), None);
    }
}
