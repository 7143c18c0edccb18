//! What one document may cost: the [`Limits`] every reading function counts against, in one
//! place with their defaults, and the [`Stop`] token (a cancellation with an optional deadline)
//! that the engine's loops look at. A hostile file can multiply work without growing (4,096
//! references to one large annotation, a page tree that shares one node at every level, an
//! xref stream of millions of free entries); each such resource is counted per document, and
//! going over a limit is a clean refusal ([`ErrorKind::OverLimit`]) naming the limit and the
//! setting that raises it. A stopped token is [`ErrorKind::Stopped`].
//!
//! A leaf: it knows nothing of PDF syntax or the reader. The reader ([`crate::Pdf`]) holds
//! one [`Budget`] per opened document and every walk of the engine spends from it.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

// What went over and why work stopped are the error's words (a leaf every layer reads);
// the limits and the token that count them are here.
pub use crate::error::{Halt, Resource};
use crate::{Error, ErrorKind};

/// The most one document may cost, resource by resource. Every limit counts per document
/// (one open file, however many updates it has), and every field is a setting a front end may
/// raise. The defaults pass every real PDF we have tried (tens of thousands of pages, a
/// million objects) and keep a single file to about 64 MB of memory and about a second of
/// CPU, as qpdf does with the same files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes decoded from every stream read (xref and object streams, the XMP packet, page
    /// contents and forms), in total. Default 512 MiB.
    pub decoded_bytes: u64,
    /// Objects parsed from the file (a shared object read again from the reader's cache is
    /// not parsed again). Default 2,000,000.
    pub objects: u64,
    /// Cross-reference entries held, across classic tables and xref streams of every `/Prev`
    /// section (free entries of an xref stream are held as ranges and cost nothing).
    /// Default 4,000,000.
    pub xref_entries: u64,
    /// Nodes visited by the engine's walks: page tree, annotations, form fields, outlines,
    /// name trees, resources, incremental sections. Default 1,000,000.
    pub walk_nodes: u64,
    /// Bytes of the objects parsed, in total (each object's text, as read). Default 1 GiB:
    /// what bounds memory is the cache, which holds at most [`Limits::cache_bytes`].
    pub parsed_bytes: u64,
    /// Bytes of parsed objects the reader keeps for reuse, so that a shared object is parsed
    /// once. Default 32 MiB.
    pub cache_bytes: u64,
    /// Content-stream operators scanned (page 1 and the forms it draws). Default 20,000,000.
    pub operators: u64,
    /// Filters one stream may name in its `/Filter` (a limit per stream, not a total). Real
    /// files name one or two (`/FlateDecode`, sometimes after `/ASCII85Decode`); each filter
    /// is a decoder with buffers of its own, read through the ones before it. Default 16.
    pub filters: u64,
    /// Bytes one stream's decoders may hold at once: each filter's buffers (112 KiB for
    /// Flate) and a predictor's two rows (`/Columns` × `/Colors` × `/BitsPerComponent`),
    /// allowed before they are allocated (a limit per stream). Default 8 MiB: sixteen Flate
    /// stages, or a predictor of rows up to 1 MiB, fit.
    pub decoder_bytes: u64,
    /// Levels of arrays and dictionaries nested inside one object (a limit per object).
    /// Real files nest a handful of levels. Default 64.
    pub nesting: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            decoded_bytes: 512 << 20,
            objects: 2_000_000,
            xref_entries: 4_000_000,
            walk_nodes: 1_000_000,
            parsed_bytes: 1 << 30,
            cache_bytes: 32 << 20,
            operators: 20_000_000,
            filters: 16,
            decoder_bytes: 8 << 20,
            nesting: 64,
        }
    }
}

impl Limits {
    /// No limit on anything (for tests and tools that read trusted files).
    pub fn unlimited() -> Self {
        Limits {
            decoded_bytes: u64::MAX,
            objects: u64::MAX,
            xref_entries: u64::MAX,
            walk_nodes: u64::MAX,
            parsed_bytes: u64::MAX,
            cache_bytes: 32 << 20,
            operators: u64::MAX,
            // What bounds the stack and the memory of one stream stays: a trusted file
            // nests and chains as little as any other.
            filters: 1024,
            decoder_bytes: 1 << 30,
            nesting: 64,
        }
    }

    /// The limit set for `r`.
    pub fn get(&self, r: Resource) -> u64 {
        match r {
            Resource::DecodedBytes => self.decoded_bytes,
            Resource::Objects => self.objects,
            Resource::XrefEntries => self.xref_entries,
            Resource::WalkNodes => self.walk_nodes,
            Resource::ParsedBytes => self.parsed_bytes,
            Resource::Operators => self.operators,
            Resource::Filters => self.filters,
            Resource::DecoderBytes => self.decoder_bytes,
            Resource::Nesting => self.nesting,
        }
    }

    /// Sets the limit for `r`.
    pub fn set(&mut self, r: Resource, value: u64) {
        match r {
            Resource::DecodedBytes => self.decoded_bytes = value,
            Resource::Objects => self.objects = value,
            Resource::XrefEntries => self.xref_entries = value,
            Resource::WalkNodes => self.walk_nodes = value,
            Resource::ParsedBytes => self.parsed_bytes = value,
            Resource::Operators => self.operators = value,
            Resource::Filters => self.filters = value,
            Resource::DecoderBytes => self.decoder_bytes = value,
            Resource::Nesting => self.nesting = value,
        }
    }
}

/// A cancellation token with an optional deadline: cheap to clone and to check, shared across
/// threads (a server's timeout or a signal handler cancels the work of another thread). The
/// engine checks it inside its loops (each object parsed, each node walked, each chunk
/// decoded, every few hundred content operators), so a stopped job frees its memory at once.
#[derive(Debug, Clone)]
pub struct Stop {
    inner: Option<Arc<Inner>>,
}

#[derive(Debug)]
struct Inner {
    cancelled: AtomicBool,
    deadline: Option<Instant>,
}

impl Default for Stop {
    fn default() -> Self {
        Stop::never()
    }
}

impl Stop {
    /// A token that never stops (and cannot be cancelled): no allocation, nothing to check.
    pub fn never() -> Self {
        Stop { inner: None }
    }

    /// A token without a deadline, stopped by [`Stop::cancel`] (on it or on any clone).
    pub fn new() -> Self {
        Stop {
            inner: Some(Arc::new(Inner {
                cancelled: AtomicBool::new(false),
                deadline: None,
            })),
        }
    }

    /// A token that stops `after` from now, or earlier when cancelled.
    pub fn after(after: Duration) -> Self {
        Stop::until(Instant::now().checked_add(after))
    }

    /// A token that stops at `deadline` (`None`: no deadline), or earlier when cancelled.
    pub fn until(deadline: Option<Instant>) -> Self {
        Stop {
            inner: Some(Arc::new(Inner {
                cancelled: AtomicBool::new(false),
                deadline,
            })),
        }
    }

    /// Stops the work of this token and of every clone of it. Does nothing on
    /// [`Stop::never`].
    pub fn cancel(&self) {
        if let Some(i) = &self.inner {
            i.cancelled.store(true, Ordering::Relaxed);
        }
    }

    /// Whether this is [`Stop::never`]: nothing bounds or cancels the work, so a caller may
    /// give it a deadline of its own.
    pub fn is_never(&self) -> bool {
        self.inner.is_none()
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.inner.as_ref().and_then(|i| i.deadline)
    }

    /// Whether the work should stop (cancelled, or past the deadline).
    pub fn is_stopped(&self) -> bool {
        self.halted().is_some()
    }

    /// Why the work should stop, if it should.
    pub fn halted(&self) -> Option<Halt> {
        let i = self.inner.as_ref()?;
        if i.cancelled.load(Ordering::Relaxed) {
            return Some(Halt::Cancelled);
        }
        match i.deadline {
            Some(d) if Instant::now() >= d => Some(Halt::Deadline),
            _ => None,
        }
    }

    /// `Err(`[`ErrorKind::Stopped`]`)` when the work should stop.
    ///
    /// # Errors
    /// [`ErrorKind::Stopped`].
    pub fn check(&self) -> Result<(), Error> {
        match self.halted() {
            Some(h) => Err(Error::new(ErrorKind::Stopped(h))),
            None => Ok(()),
        }
    }
}

/// Steps of work (an xref entry, an object, a node walked, a KiB decoded) between two reads of
/// the clock for the stop token's deadline. A step costs tens of nanoseconds to a few
/// microseconds, a clock read about as much as the cheapest: read at every step, the clock
/// was a few per cent of a batch. 4,096 steps are well under a millisecond for most kinds and
/// a few milliseconds for the dearest, against deadlines of seconds.
const CLOCK_EVERY: u64 = 4096;

/// One document's spending against its [`Limits`], and its [`Stop`]: held by the reader, spent
/// from by every reading function.
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    stop: Stop,
    used: [Cell<u64>; 9],
    /// Steps left before the deadline is read again; 0 at first, so the first step reads it.
    clock_in: Cell<u64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(Limits::default(), Stop::never())
    }
}

impl Budget {
    /// A fresh budget.
    pub fn new(limits: Limits, stop: Stop) -> Self {
        Budget {
            limits,
            stop,
            used: Default::default(),
            clock_in: Cell::new(0),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The stop token.
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// How much of `r` has been spent.
    pub fn used(&self, r: Resource) -> u64 {
        self.used[r.index()].get()
    }

    /// Spends `n` of `r`, refusing past its limit, and checks the stop token (its deadline every
    /// few thousand steps, a KiB of bytes counting as a step).
    ///
    /// # Errors
    /// [`ErrorKind::OverLimit`], [`ErrorKind::Stopped`].
    pub fn spend(&self, r: Resource, n: u64) -> Result<(), Error> {
        let c = &self.used[r.index()];
        let now = c.get().saturating_add(n);
        c.set(now);
        let limit = self.limits.get(r);
        if now > limit {
            return Err(over(r, limit));
        }
        let steps = match r {
            Resource::DecodedBytes | Resource::ParsedBytes => 1 + n / 1024,
            _ => 1,
        };
        self.poll(steps)
    }

    /// The stop token after `steps` steps of work: cancellation at every call (one atomic
    /// load), the deadline when [`CLOCK_EVERY`] steps have gone since the clock was last read.
    fn poll(&self, steps: u64) -> Result<(), Error> {
        let Some(i) = self.stop.inner.as_deref() else {
            return Ok(());
        };
        if i.cancelled.load(Ordering::Relaxed) {
            return Err(Error::new(ErrorKind::Stopped(Halt::Cancelled)));
        }
        let Some(deadline) = i.deadline else {
            return Ok(());
        };
        let left = self.clock_in.get();
        if left > steps {
            self.clock_in.set(left - steps);
            return Ok(());
        }
        if Instant::now() >= deadline {
            // Read again at the next step: once past, every later check stops.
            self.clock_in.set(0);
            return Err(Error::new(ErrorKind::Stopped(Halt::Deadline)));
        }
        self.clock_in.set(CLOCK_EVERY);
        Ok(())
    }

    /// The refusal for the first limit gone over so far, else the stop token's: called where
    /// a function that tolerates unreadable parts (and so drops their errors) ends, so that
    /// a limit reached inside one of them still refuses the whole file.
    ///
    /// # Errors
    /// [`ErrorKind::OverLimit`], [`ErrorKind::Stopped`].
    pub fn verdict(&self) -> Result<(), Error> {
        for r in Resource::ALL {
            let limit = self.limits.get(r);
            if self.used(r) > limit {
                return Err(over(r, limit));
            }
        }
        self.stop.check()
    }

    /// Refuses `n` of a resource limited per item (per stream, per object: [`Limits::filters`],
    /// [`Limits::decoder_bytes`], [`Limits::nesting`]) when it is over the limit; nothing is
    /// spent.
    ///
    /// # Errors
    /// [`ErrorKind::OverLimit`].
    pub fn allow(&self, r: Resource, n: u64) -> Result<(), Error> {
        let limit = self.limits.get(r);
        if n > limit {
            return Err(over(r, limit));
        }
        Ok(())
    }

    /// Checks the stop token only, as one step of work (its deadline every few thousand).
    ///
    /// # Errors
    /// [`ErrorKind::Stopped`].
    pub fn check(&self) -> Result<(), Error> {
        self.poll(1)
    }

    /// Starts counting afresh (the limits and token stay): for a reader that opens the same
    /// file a second way.
    pub(crate) fn reset(&self) {
        for c in &self.used {
            c.set(0);
        }
    }
}

/// The refusal for going over the limit of `r`.
pub(crate) fn over(r: Resource, limit: u64) -> Error {
    Error::new(ErrorKind::OverLimit { resource: r, limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_past_a_limit_is_a_refusal_naming_it() {
        let limits = Limits {
            objects: 3,
            ..Limits::default()
        };
        let b = Budget::new(limits, Stop::never());
        b.spend(Resource::Objects, 3).unwrap();
        let e = b.spend(Resource::Objects, 1).unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::OverLimit {
                resource: Resource::Objects,
                limit: 3
            }
        );
        assert!(e.is_refusal());
        let line = e.to_string();
        assert!(line.contains("3 objects parsed"), "{line}");
        assert!(line.contains("`objects`"), "{line}");
        assert_eq!(
            Resource::from_setting("walk_nodes"),
            Some(Resource::WalkNodes)
        );
        for r in Resource::ALL {
            let mut l = Limits::default();
            l.set(r, 7);
            assert_eq!(l.get(r), 7);
        }
    }

    /// docs/pdf.md lists every setting with its default and what it counts.
    #[test]
    fn the_docs_list_every_limit_and_its_default() {
        let docs =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/pdf.md"))
                .unwrap();
        let d = Limits::default();
        for r in Resource::ALL {
            let row = docs
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", r.setting())))
                .unwrap_or_else(|| panic!("no row for {r} in docs/pdf.md"));
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let default = cells[3].split(' ').next().unwrap();
            assert_eq!(default, d.get(r).to_string(), "{row}");
        }
        let line = Error::new(ErrorKind::OverLimit {
            resource: Resource::WalkNodes,
            limit: d.walk_nodes,
        })
        .to_string();
        assert!(
            docs.contains(&line),
            "docs/pdf.md shows the refusal: {line}"
        );
        let stopped = Error::new(ErrorKind::Stopped(Halt::Deadline)).to_string();
        assert!(docs.contains(&stopped), "{stopped}");
    }

    #[test]
    fn stops_are_shared_by_clones_and_deadlines_pass() {
        let s = Stop::new();
        let c = s.clone();
        assert!(!c.is_stopped());
        s.cancel();
        assert_eq!(c.halted(), Some(Halt::Cancelled));
        assert!(matches!(
            c.check().unwrap_err().kind(),
            ErrorKind::Stopped(Halt::Cancelled)
        ));
        let d = Stop::after(Duration::ZERO);
        assert_eq!(d.halted(), Some(Halt::Deadline));
        assert!(!Stop::after(Duration::from_secs(3600)).is_stopped());
        let never = Stop::never();
        never.cancel();
        assert!(!never.is_stopped());
        let b = Budget::new(Limits::default(), d);
        assert!(b.spend(Resource::Objects, 1).is_err());
        assert!(b.check().is_err());
    }

    /// The deadline is read every CLOCK_EVERY steps (a KiB of bytes counting as one), not at
    /// every step; a cancel is seen at the next step.
    #[test]
    fn the_deadline_is_read_every_few_thousand_steps() {
        let stop = Stop::after(Duration::from_millis(200));
        let entries = Budget::new(Limits::unlimited(), stop.clone());
        let bytes = Budget::new(Limits::unlimited(), stop.clone());
        // The first step reads the clock, before the deadline.
        entries.spend(Resource::XrefEntries, 1).unwrap();
        bytes.spend(Resource::DecodedBytes, 1).unwrap();
        while !stop.is_stopped() {
            std::thread::sleep(Duration::from_millis(20));
        }
        let first_refused = (1..=CLOCK_EVERY)
            .find(|_| {
                entries
                    .spend(Resource::XrefEntries, 1)
                    .is_err_and(|e| matches!(e.kind(), ErrorKind::Stopped(Halt::Deadline)))
            })
            .expect("the deadline is seen within CLOCK_EVERY steps");
        assert_eq!(first_refused, CLOCK_EVERY);
        assert!(
            entries.check().is_err(),
            "once past, every later check stops"
        );
        // Four MiB decoded are more than CLOCK_EVERY steps: the clock is read at once.
        assert!(bytes.spend(Resource::DecodedBytes, 4 << 20).is_err());

        let s = Stop::new();
        let b = Budget::new(Limits::unlimited(), s.clone());
        b.spend(Resource::Objects, 1).unwrap();
        s.cancel();
        assert!(matches!(
            b.spend(Resource::Objects, 1).unwrap_err().kind(),
            ErrorKind::Stopped(Halt::Cancelled)
        ));
    }
}
