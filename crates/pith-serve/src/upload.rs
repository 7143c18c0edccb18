//! Receiving a PDF sent to `/verify` and checking it, within the server's budget, so that
//! uploads cannot take what other clients need.
//!
//! - Slots: at most [`Limits::upload_slots`] uploads are received at once; one more is
//!   refused at once ([`Failure::Busy`], 503 with `Retry-After`), so slow uploads never hold the
//!   connections and workers the other routes answer from.
//! - Rate: after [`Limits::upload_grace`] an upload must have kept up
//!   [`Limits::upload_rate`] bytes a second on average, else it is cut off
//!   ([`Failure::TooSlow`]): a client sending a byte every few seconds holds a slot for the
//!   grace period, not for minutes.
//! - Memory: what uploads hold (being received, then checked) is counted against
//!   [`Limits::upload_memory`]; an upload that would pass it is refused ([`Failure::Busy`]).
//!   The file is read as it arrives, from the raw body or a multipart form, and kept once.
//! - Checks: at most [`Limits::checks`] run at once, at most [`Limits::check_queue`] wait
//!   for a turn and for at most [`Limits::check_wait`] ([`Failure::Busy`] beyond), and an
//!   answer is given after [`Limits::check_timeout`] at the latest ([`Failure::TimedOut`]).
//!   The check is then stopped (the engine's [`Stop`], checked inside its loops), so its turn
//!   and the memory it held are given back within moments; [`Budget::stop_all`] stops every
//!   check in flight when the server stops.
//! - Where: each check runs on a thread of its own with a stack of [`CHECK_STACK`], far deeper
//!   than any file can make the engine go, and a check that panics is answered as a failure:
//!   no upload ends the process the other clients are answered from.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use pith::pdf::Stop;

use crate::limits::Limits;

/// Room for the multipart framing around the file (boundaries, part headers, other fields).
pub const MULTIPART_SLACK: u64 = 64 * 1024;
/// How much of an over-limit body is read and dropped (so that a browser shows the answer
/// rather than a reset connection) before the connection is closed anyway, as a multiple of
/// the limit.
const DRAIN_FACTOR: u64 = 4;
/// Memory is counted in units of this many bytes.
const UNIT: u64 = 1024;

/// Why an upload was not received or not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// The request holds no file, or an empty one.
    NoFile,
    /// The file is larger than the server's `--max-upload`.
    TooLarge,
    /// The form (`multipart/form-data`) cannot be read.
    Malformed,
    /// The connection ended before the end of the body.
    CutOff,
    /// The body arrived more slowly than [`Limits::upload_rate`].
    TooSlow,
    /// Every upload slot, the memory for uploads, or every check's turn is taken.
    Busy,
    /// The check took longer than [`Limits::check_timeout`].
    TimedOut,
    /// The check ended without an answer (it panicked: a bug, said as one); the server lives
    /// on, and the check's turn and memory were given back.
    Panicked,
}

/// The stack of each check's thread: 64 MiB, far more than the engine's bounded depth needs
/// (a tokio worker has 2 MiB), so that no file can overflow it. Only the pages a check
/// touches are resident, so it costs what a check uses of it.
pub const CHECK_STACK: usize = 64 << 20;

/// The server's shared budget for uploads and checks ([`Limits`]).
#[derive(Debug, Clone)]
pub struct Budget {
    slots: Arc<Semaphore>,
    memory: Arc<Semaphore>,
    checks: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    /// The checks running, to stop them all when the server stops; `None` once it stops.
    running: Arc<Mutex<Option<Vec<Stop>>>>,
    limits: Limits,
}

/// Memory counted for an upload; given back when dropped.
#[derive(Debug)]
pub struct Held {
    memory: Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
    units: u64,
}

impl Held {
    /// Counts `bytes` in all (more than before, or nothing happens).
    fn grow_to(&mut self, bytes: u64) -> Result<(), Failure> {
        let want = bytes.div_ceil(UNIT);
        if want <= self.units {
            return Ok(());
        }
        let more = u32::try_from(want - self.units).map_err(|_| Failure::Busy)?;
        let p = Arc::clone(&self.memory)
            .try_acquire_many_owned(more)
            .map_err(|_| Failure::Busy)?;
        match &mut self.permit {
            Some(held) => held.merge(p),
            None => self.permit = Some(p),
        }
        self.units = want;
        Ok(())
    }
}

/// A file received: its name when the form gave one, its bytes, and the memory they hold.
#[derive(Debug)]
pub struct Upload {
    /// The file name the form gave.
    pub name: Option<String>,
    /// The file.
    pub file: Bytes,
    /// The memory counted for the file, to be held until its check ends.
    pub held: Held,
}

/// A slot taken for receiving an upload ([`Budget::slot`]).
#[derive(Debug)]
pub struct Slot(#[allow(dead_code)] OwnedSemaphorePermit);

impl Budget {
    /// The budget of `limits`.
    pub fn new(limits: &Limits) -> Self {
        let units = usize::try_from(limits.upload_memory.div_ceil(UNIT))
            .unwrap_or(Semaphore::MAX_PERMITS)
            .min(Semaphore::MAX_PERMITS);
        Budget {
            slots: Arc::new(Semaphore::new(limits.upload_slots.max(1))),
            memory: Arc::new(Semaphore::new(units)),
            checks: Arc::new(Semaphore::new(limits.checks.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            running: Arc::new(Mutex::new(Some(Vec::new()))),
            limits: *limits,
        }
    }

    /// Takes an upload slot, or says every one is taken.
    ///
    /// # Errors
    /// [`Failure::Busy`].
    pub fn slot(&self) -> Result<Slot, Failure> {
        Arc::clone(&self.slots)
            .try_acquire_owned()
            .map(Slot)
            .map_err(|_| Failure::Busy)
    }

    fn held(&self) -> Held {
        Held {
            memory: Arc::clone(&self.memory),
            permit: None,
            units: 0,
        }
    }

    /// Receives the file of `body`: the body itself, or with `boundary` the form's field `pdf`
    /// (else its first field with a file name). `limit` bounds the file; `declared` is the
    /// request's `Content-Length`.
    ///
    /// # Errors
    /// Every [`Failure`] but [`Failure::TimedOut`].
    pub async fn receive(
        &self,
        _slot: &Slot,
        body: Body,
        boundary: Option<String>,
        limit: u64,
        declared: Option<u64>,
    ) -> Result<Upload, Failure> {
        let cap = match boundary {
            Some(_) => limit.saturating_add(MULTIPART_SLACK),
            None => limit,
        };
        let incoming = Incoming {
            body,
            start: Instant::now(),
            seen: 0,
            most: cap.saturating_mul(DRAIN_FACTOR),
            grace: self.limits.upload_grace,
            rate: self.limits.upload_rate.max(1),
        };
        if declared.is_some_and(|n| n > incoming.most) {
            // Not worth reading to show a page: the connection is closed after the answer.
            return Err(Failure::TooLarge);
        }
        let mut file = Kept::new(self.held(), limit, declared);
        match boundary {
            None => {
                let mut incoming = incoming;
                while let Some(data) = incoming.next().await? {
                    file.push(&data)?;
                }
                file.finish(None)
            }
            Some(b) => multipart(incoming, b, file).await,
        }
    }

    /// Stops every check running and refuses new ones ([`Failure::Busy`]): the server stops.
    pub fn stop_all(&self) {
        let running = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        for stop in running.into_iter().flatten() {
            stop.cancel();
        }
    }

    /// Runs `check` on a thread of its own, with a stack of [`CHECK_STACK`], in its turn,
    /// holding `held` (the memory of the file it reads) until it ends; `check` gets the
    /// [`Stop`] the engine must heed, which fires at [`Limits::check_timeout`] and when the
    /// server stops. Off the workers that answer requests, and on a stack no file reaches the
    /// end of; a check that panics is an answer ([`Failure::Panicked`]), not a dead worker.
    ///
    /// # Errors
    /// [`Failure::Busy`] when too many wait or the turn does not come in time, the server is
    /// stopping, or no thread can be started; [`Failure::TimedOut`] when the check outlives its
    /// deadline; [`Failure::Panicked`] when it panicked.
    pub async fn check<T: Send + 'static>(
        &self,
        held: Held,
        check: impl FnOnce(Stop) -> T + Send + 'static,
    ) -> Result<T, Failure> {
        let turn = {
            let waiting = Waiting::join(&self.waiting, self.limits.check_queue)?;
            let turn = tokio::time::timeout(
                self.limits.check_wait,
                Arc::clone(&self.checks).acquire_owned(),
            )
            .await;
            drop(waiting);
            match turn {
                Ok(Ok(t)) => t,
                _ => return Err(Failure::Busy),
            }
        };
        // Cancelled when the deadline below passes, so that the client hears of it first.
        let stop = Stop::new();
        {
            let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
            let Some(running) = running.as_mut() else {
                return Err(Failure::Busy);
            };
            // Forget the checks that ended, then count this one.
            running.retain(|s| !s.is_stopped());
            running.push(stop.clone());
        }
        let engine = stop.clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name("pith-check".into())
            .stack_size(CHECK_STACK)
            .spawn(move || {
                // The turn and the memory are given back when the check ends, whatever the
                // client was told meanwhile, and before its answer: a check waiting for the
                // turn may start as soon as this one is answered.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(engine)));
                drop((turn, held));
                let _ = tx.send(r.map_err(|_| Failure::Panicked));
            });
        if spawned.is_err() {
            stop.cancel();
            return Err(Failure::Busy);
        }
        let answer = match self.limits.check_timeout {
            Some(bound) => tokio::time::timeout(bound, rx).await,
            None => Ok(rx.await),
        };
        let r = match answer {
            Err(_) => Err(Failure::TimedOut),
            Ok(Ok(r)) => r,
            // The thread ended without sending: it cannot, but it is no answer.
            Ok(Err(_)) => Err(Failure::Panicked),
        };
        // Ended or timed out: the engine stops at its next step, and gives back its turn and
        // memory as its thread ends.
        stop.cancel();
        r
    }
}

/// One place in the queue of checks waiting for a turn.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn join(count: &'a AtomicUsize, most: usize) -> Result<Self, Failure> {
        let before = count.fetch_add(1, Ordering::AcqRel);
        let w = Waiting(count);
        if before >= most {
            return Err(Failure::Busy);
        }
        Ok(w)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The body as it arrives, within the rate and the most it may be.
struct Incoming {
    body: Body,
    start: Instant,
    seen: u64,
    most: u64,
    grace: Duration,
    rate: u64,
}

impl Incoming {
    /// The next piece of the body, `None` at its end.
    async fn next(&mut self) -> Result<Option<Bytes>, Failure> {
        loop {
            // By then the next bytes must have come: `seen` bytes buy `seen / rate` seconds
            // beyond the grace period.
            let due = self.start
                + self.grace
                + Duration::from_secs_f64(self.seen as f64 / self.rate as f64);
            let frame = match tokio::time::timeout_at(due, self.body.frame()).await {
                Err(_) => return Err(Failure::TooSlow),
                Ok(None) => return Ok(None),
                Ok(Some(Err(_))) => return Err(Failure::CutOff),
                Ok(Some(Ok(f))) => f,
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            self.seen += data.len() as u64;
            if self.seen > self.most {
                return Err(Failure::TooLarge);
            }
            return Ok(Some(data));
        }
    }
}

/// The file's bytes as they are kept, counted against the budget.
struct Kept {
    bytes: Vec<u8>,
    held: Held,
    limit: u64,
    declared: Option<u64>,
    over: bool,
}

impl Kept {
    fn new(held: Held, limit: u64, declared: Option<u64>) -> Self {
        Kept {
            bytes: Vec::new(),
            held,
            limit,
            declared,
            over: false,
        }
    }

    fn push(&mut self, data: &[u8]) -> Result<(), Failure> {
        if self.over {
            return Ok(());
        }
        let len = self.bytes.len() as u64 + data.len() as u64;
        if len > self.limit {
            // Read on without keeping: the answer comes at the body's end.
            self.over = true;
            self.bytes = Vec::new();
            return Ok(());
        }
        if self.bytes.len() + data.len() > self.bytes.capacity() {
            // Grow by doubling, to the declared length at most: what is counted is what is
            // allocated.
            let ceiling = self.declared.unwrap_or(self.limit).clamp(len, self.limit);
            let cap = (self.bytes.capacity() as u64 * 2).clamp(len, ceiling.max(len));
            self.held.grow_to(cap)?;
            self.bytes
                .reserve_exact(usize::try_from(cap).unwrap_or(usize::MAX) - self.bytes.len());
        }
        self.bytes.extend_from_slice(data);
        Ok(())
    }

    fn finish(self, name: Option<String>) -> Result<Upload, Failure> {
        if self.over {
            return Err(Failure::TooLarge);
        }
        if self.bytes.is_empty() {
            return Err(Failure::NoFile);
        }
        Ok(Upload {
            name,
            file: Bytes::from(self.bytes),
            held: self.held,
        })
    }
}

/// The file of a multipart form, read as it arrives.
async fn multipart(
    incoming: Incoming,
    boundary: String,
    mut file: Kept,
) -> Result<Upload, Failure> {
    // What stopped the body, for telling a form that cannot be read from a body that stopped.
    let stopped: Arc<Mutex<Option<Failure>>> = Arc::default();
    let cell = Arc::clone(&stopped);
    let stream = futures_util::stream::unfold(Some(incoming), move |state| {
        let cell = Arc::clone(&cell);
        async move {
            let mut inc = state?;
            match inc.next().await {
                Ok(Some(b)) => Some((Ok::<Bytes, std::io::Error>(b), Some(inc))),
                Ok(None) => None,
                Err(f) => {
                    *cell.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
                    Some((Err(std::io::Error::other("the body stopped")), None))
                }
            }
        }
    });
    let why = |_: multer::Error| {
        stopped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or(Failure::Malformed)
    };
    let mut form = multer::Multipart::new(stream, boundary);
    while let Some(mut field) = form.next_field().await.map_err(why)? {
        let is_file = field.name() == Some("pdf") || field.file_name().is_some();
        if !is_file {
            continue;
        }
        let name = field.file_name().map(str::to_owned);
        while let Some(chunk) = field.chunk().await.map_err(why)? {
            file.push(&chunk)?;
        }
        // The rest of the form is read, so that a form cut off after the file is said so.
        drop(field);
        while form.next_field().await.map_err(why)?.is_some() {}
        return file.finish(name);
    }
    Err(Failure::NoFile)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            upload_memory: 10 * UNIT,
            upload_grace: Duration::from_millis(200),
            upload_rate: 1000,
            ..Limits::default()
        }
    }

    #[test]
    fn memory_is_counted_and_given_back() {
        let b = Budget::new(&limits());
        let mut h = b.held();
        h.grow_to(4 * UNIT).unwrap();
        h.grow_to(9 * UNIT).unwrap();
        let mut other = b.held();
        assert_eq!(other.grow_to(2 * UNIT), Err(Failure::Busy));
        drop(h);
        other.grow_to(10 * UNIT).unwrap();
    }

    #[tokio::test]
    async fn forms_and_bodies_fail_each_their_own_way() {
        let b = Budget::new(&limits());
        let slot = b.slot().unwrap();
        let form = |body: &'static str| Body::from(body.replace('\n', "\r\n"));
        let ok = "--X\nContent-Disposition: form-data; name=\"pdf\"; filename=\"a.pdf\"\n\n%PDF-1.4 x\n--X--\n";
        let up = b
            .receive(&slot, form(ok), Some("X".into()), 1000, None)
            .await
            .unwrap();
        assert_eq!(&up.file[..], b"%PDF-1.4 x");
        assert_eq!(up.name.as_deref(), Some("a.pdf"));
        let junk = "this is not a form at all";
        let r = b
            .receive(&slot, form(junk), Some("X".into()), 1000, None)
            .await;
        assert_eq!(r.err(), Some(Failure::Malformed));
        let r = b.receive(&slot, Body::from("%PDF-"), None, 4, None).await;
        assert_eq!(r.err(), Some(Failure::TooLarge));
        let r = b.receive(&slot, Body::empty(), None, 4, None).await;
        assert_eq!(r.err(), Some(Failure::NoFile));
        // Over the memory budget.
        let r = b
            .receive(&slot, Body::from(vec![b'x'; 20_000]), None, 100_000, None)
            .await;
        assert_eq!(r.err(), Some(Failure::Busy));
    }

    // tokio's clock, paused: it moves only when every task waits, so the client's pauses and
    // the upload's deadline come in their order however loaded the machine is.
    #[tokio::test(start_paused = true)]
    async fn a_body_slower_than_the_rate_is_cut_off() {
        let b = Budget::new(&limits());
        let slot = b.slot().unwrap();
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(1);
        let body = Body::from_stream(tokio_stream_of(rx));
        let sent = Arc::new(AtomicUsize::new(0));
        let sender = {
            let sent = Arc::clone(&sent);
            tokio::spawn(async move {
                for _ in 0..20 {
                    if tx.send(Ok(Bytes::from_static(b"x"))).await.is_err() {
                        break;
                    }
                    sent.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        };
        let r = b.receive(&slot, body, None, 1000, None).await;
        assert_eq!(r.err(), Some(Failure::TooSlow));
        // Cut off while the client was still sending: the upload did not wait for its end.
        let cut_at = sent.load(Ordering::SeqCst);
        assert!(cut_at < 20, "cut off only after all {cut_at} bytes");
        sender.await.unwrap();
        assert!(
            sent.load(Ordering::SeqCst) <= cut_at + 1,
            "the body was read on"
        );
    }

    fn tokio_stream_of(
        rx: tokio::sync::mpsc::Receiver<Result<Bytes, std::io::Error>>,
    ) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
        futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|x| (x, rx)) })
    }

    // On tokio's paused clock, with no deadline on the check that holds the turn: the wait of
    // the one queued runs out while the first still holds it, whatever the machine's load.
    #[tokio::test(start_paused = true)]
    async fn checks_wait_their_turn_within_bounds() {
        let l = Limits {
            checks: 1,
            check_queue: 1,
            check_wait: Duration::from_millis(200),
            check_timeout: None,
            ..Limits::default()
        };
        let b = Budget::new(&l);
        // The first check holds the one turn until the test lets it go.
        let (started, has_started) = tokio::sync::oneshot::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let first = {
            let b = b.clone();
            let held = b.held();
            tokio::spawn(async move {
                b.check(held, move |_| {
                    let _ = started.send(());
                    let _ = released.recv();
                    7
                })
                .await
            })
        };
        has_started.await.unwrap();
        // One waits (and its turn does not come in time), a second finds the queue full.
        let waiter = {
            let b = b.clone();
            let held = b.held();
            tokio::spawn(async move { b.check(held, |_| ()).await })
        };
        while b.waiting.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(b.check(b.held(), |_| ()).await.err(), Some(Failure::Busy));
        assert_eq!(waiter.await.unwrap().err(), Some(Failure::Busy));
        assert_eq!(
            b.waiting.load(Ordering::SeqCst),
            0,
            "a place in the queue kept"
        );
        // The first is answered, and its turn is free for the next.
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(7));
        assert_eq!(b.check(b.held(), |_| 8).await, Ok(8));
    }

    /// Recurses `depth` times with a frame of a kilobyte: 10,000 levels need about 10 MB of
    /// stack, five times a tokio worker's.
    fn deep(depth: usize) -> usize {
        let frame = std::hint::black_box([depth as u8; 1024]);
        if depth == 0 {
            return frame[0] as usize;
        }
        deep(depth - 1) + std::hint::black_box(frame)[1] as usize
    }

    #[tokio::test]
    async fn a_check_runs_on_a_deep_stack_and_a_panic_is_an_answer() {
        let l = Limits {
            checks: 1,
            ..Limits::default()
        };
        let b = Budget::new(&l);
        assert!(b.check(b.held(), |_| deep(10_000)).await.is_ok());
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = b.check(b.held(), |_| -> () { panic!("a bug") }).await;
        std::panic::set_hook(hook);
        assert_eq!(r.err(), Some(Failure::Panicked));
        // Its one turn was given back.
        assert_eq!(b.check(b.held(), |_| 7).await, Ok(7));
    }

    #[tokio::test]
    async fn a_check_past_its_deadline_is_stopped_and_gives_its_turn_back() {
        let l = Limits {
            checks: 1,
            // Far longer than a stopped check takes to end, however loaded the machine: the
            // turn given back is what is waited for.
            check_wait: Duration::from_secs(60),
            check_timeout: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let b = Budget::new(&l);
        // An engine loop: it heeds its stop, else it would run for a minute. Counts the loops
        // that ended because they were stopped.
        let (started, stopped) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let work = {
            let (started, stopped) = (Arc::clone(&started), Arc::clone(&stopped));
            move |stop: Stop| {
                started.fetch_add(1, Ordering::SeqCst);
                let t = std::time::Instant::now();
                while !stop.is_stopped() && t.elapsed() < Duration::from_secs(60) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                if stop.is_stopped() {
                    stopped.fetch_add(1, Ordering::SeqCst);
                }
            }
        };
        assert_eq!(
            b.check(b.held(), work.clone()).await.err(),
            Some(Failure::TimedOut)
        );
        // The next check gets the one turn: the first one was stopped and ended.
        let ran = b.check(b.held(), |_| ()).await;
        assert_eq!(ran, Ok(()));
        assert_eq!(stopped.load(Ordering::SeqCst), 1, "the late check ran on");
        // Stopping the server stops the checks in flight and refuses new ones.
        let running = {
            let b = b.clone();
            let held = b.held();
            tokio::spawn(async move { b.check(held, work).await })
        };
        while started.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        b.stop_all();
        assert_eq!(b.check(b.held(), |_| ()).await.err(), Some(Failure::Busy));
        let _ = running.await.unwrap();
        assert_eq!(
            stopped.load(Ordering::SeqCst),
            2,
            "a check ran on after the stop"
        );
    }
}
