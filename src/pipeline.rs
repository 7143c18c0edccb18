//! An ordered parallel map with bounded memory: a producer thread reads work in chunks, worker
//! threads transform the chunks, and the caller's thread receives the results in the order the
//! chunks were produced.
//!
//! Memory is bounded by credits, not by the input: the producer takes a credit before it hands
//! out a chunk and the consumer returns it after it has used that chunk's result, so at most
//! `in_flight` chunks exist at once (being read, transformed, or waiting for an earlier chunk),
//! however large the input and however uneven the workers.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::Mutex;

/// Runs `produce` on its own thread, `work` on `threads` workers and `consume` on the calling
/// thread, in production order. `produce` hands each chunk to the function it is given, which
/// returns `false` once the run is stopping (the producer should then return). `consume`
/// returns `false` to stop the run: no further chunk is started and no further result is
/// consumed. At most `in_flight` chunks are alive at once.
///
/// # Examples
/// ```
/// use pith::pipeline::ordered;
/// let mut out = Vec::new();
/// ordered(
///     4, 8,
///     |emit: &mut dyn FnMut(u32) -> bool| { for i in 0..100 { if !emit(i) { break } } },
///     |i| i * 2,
///     |r| { out.push(r); true },
/// );
/// assert_eq!(out, (0..100).map(|i| i * 2).collect::<Vec<_>>());
/// ```
pub fn ordered<I, O, P, W, C>(threads: usize, in_flight: usize, produce: P, work: W, mut consume: C)
where
    I: Send,
    O: Send,
    P: FnOnce(&mut dyn FnMut(I) -> bool) + Send,
    W: Fn(I) -> O + Sync,
    C: FnMut(O) -> bool,
{
    let in_flight = in_flight.max(1);
    let stop = AtomicBool::new(false);
    let (credit_tx, credit_rx) = sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        credit_tx.send(()).expect("the receiver is alive");
    }
    let (job_tx, job_rx) = channel::<(u64, I)>();
    let job_rx = Mutex::new(job_rx);
    let (res_tx, res_rx) = channel::<(u64, O)>();
    std::thread::scope(|s| {
        let stop = &stop;
        s.spawn(move || {
            let mut seq = 0u64;
            let mut emit = |item: I| {
                if stop.load(Ordering::Relaxed) || credit_rx.recv().is_err() {
                    return false;
                }
                if stop.load(Ordering::Relaxed) || job_tx.send((seq, item)).is_err() {
                    return false;
                }
                seq += 1;
                true
            };
            produce(&mut emit);
            // Dropping job_tx here lets the workers finish.
        });
        for _ in 0..threads.max(1) {
            let res_tx = res_tx.clone();
            let (job_rx, work) = (&job_rx, &work);
            s.spawn(move || loop {
                let next = recv(job_rx);
                let Some((seq, item)) = next else { break };
                if res_tx.send((seq, work(item))).is_err() {
                    break;
                }
            });
        }
        drop(res_tx);
        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        let mut credit_tx = Some(credit_tx);
        for (seq, out) in res_rx {
            if credit_tx.is_none() {
                continue; // stopping: drain so that the workers can finish
            }
            pending.insert(seq, out);
            while let Some(out) = pending.remove(&next) {
                next += 1;
                if !consume(out) {
                    stop.store(true, Ordering::Relaxed);
                    credit_tx = None;
                    pending.clear();
                    break;
                }
                if let Some(c) = &credit_tx {
                    let _ = c.send(());
                }
            }
        }
    });
}

fn recv<T>(rx: &Mutex<Receiver<T>>) -> Option<T> {
    // A worker that panicked while holding the lock cannot leave the receiver inconsistent.
    let guard = rx.lock().unwrap_or_else(|p| p.into_inner());
    guard.recv().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn order_is_kept_with_uneven_work() {
        let mut out = Vec::new();
        ordered(
            4,
            3,
            |emit: &mut dyn FnMut(u64) -> bool| {
                for i in 0..200 {
                    assert!(emit(i));
                }
            },
            |i| {
                std::thread::sleep(std::time::Duration::from_micros((i * 7919) % 500));
                i
            },
            |r| {
                out.push(r);
                true
            },
        );
        assert_eq!(out, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn in_flight_is_bounded() {
        let alive = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        ordered(
            3,
            5,
            |emit: &mut dyn FnMut(u32) -> bool| {
                for i in 0..300 {
                    let n = alive.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(n, Ordering::SeqCst);
                    if !emit(i) {
                        break;
                    }
                }
            },
            |i| i,
            |_| {
                std::thread::sleep(std::time::Duration::from_micros(50));
                alive.fetch_sub(1, Ordering::SeqCst);
                true
            },
        );
        // The producer counts a chunk before it waits for its credit: one more than in_flight.
        assert!(peak.load(Ordering::SeqCst) <= 6, "{peak:?}");
    }

    #[test]
    fn consumer_can_stop_an_endless_producer() {
        let mut seen = 0;
        ordered(
            2,
            4,
            |emit: &mut dyn FnMut(u32) -> bool| {
                let mut i = 0;
                while emit(i) {
                    i += 1;
                }
            },
            |i| i,
            |i| {
                seen += 1;
                i < 10
            },
        );
        assert_eq!(seen, 11);
    }
}
