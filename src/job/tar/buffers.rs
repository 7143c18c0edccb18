//! The buffers a tar stream reads its members into, used again once a member is written
//! ([`Buffers`]). Nothing else: no tar format, no PDF.

/// Buffers for members' data, used again once a member is written: a fresh buffer for each
/// member is fresh memory from the system, a page fault for every 4 KiB of every member
/// (about a tenth of a tar run's CPU), where a buffer used again is already mapped. At most
/// `keep` are kept, none larger than [`KEEP_BOUND`], so the memory held is bounded as the
/// members in flight are.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    free: std::sync::Mutex<Vec<Vec<u8>>>,
    keep: usize,
}

/// The largest buffer [`Buffers`] keeps (8 MiB: most PDFs are smaller).
const KEEP_BOUND: usize = 8 << 20;

impl Buffers {
    /// Keeps up to `keep` buffers for use again.
    pub(crate) fn new(keep: usize) -> Self {
        Buffers {
            free: std::sync::Mutex::default(),
            keep,
        }
    }

    /// A buffer of `size` bytes to be filled whole by the caller, a kept one when there is
    /// one: the bytes of a kept buffer are an earlier member's, left as they are (zeroing them
    /// again cost about a fortieth of a tar run's CPU); only what it grows by is zeroed.
    pub(super) fn take(&self, size: usize) -> Vec<u8> {
        let kept = self.free.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let mut v = kept.unwrap_or_default();
        v.truncate(size);
        v.resize(size, 0);
        v
    }

    /// Gives back the buffer of a member that was written.
    pub(crate) fn give(&self, v: Vec<u8>) {
        if v.capacity() > KEEP_BOUND {
            return;
        }
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        if free.len() < self.keep {
            free.push(v);
        }
    }
}
