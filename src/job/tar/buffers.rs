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

    /// A buffer of `size` bytes to be filled whole by the caller: the smallest kept one that
    /// holds it, else the largest kept one, grown (the allocator moves a large buffer's pages
    /// rather than its bytes), else a fresh one. The bytes of a kept buffer are an earlier
    /// member's, left as they are (zeroing them again cost about a fortieth of a tar run's
    /// CPU); only what it grows by is zeroed.
    pub(super) fn take(&self, size: usize) -> Vec<u8> {
        let kept = {
            let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
            let fits = free
                .iter()
                .enumerate()
                .filter(|(_, v)| v.capacity() >= size)
                .min_by_key(|(_, v)| v.capacity())
                .or_else(|| free.iter().enumerate().max_by_key(|(_, v)| v.capacity()))
                .map(|(i, _)| i);
            fits.map(|i| free.swap_remove(i))
        };
        let mut v = kept.unwrap_or_default();
        v.truncate(size);
        v.resize(size, 0);
        v
    }

    /// Gives back the buffer of a member that was written; when `keep` are kept already, it
    /// takes the place of the smallest if it is larger.
    pub(crate) fn give(&self, v: Vec<u8>) {
        if v.capacity() > KEEP_BOUND {
            return;
        }
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        if free.len() < self.keep {
            free.push(v);
        } else if let Some(small) = free.iter_mut().min_by_key(|k| k.capacity()) {
            if small.capacity() < v.capacity() {
                *small = v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_gets_the_smallest_buffer_that_holds_it_and_none_is_copied_to_grow() {
        let b = Buffers::new(2);
        b.give(Vec::with_capacity(100));
        b.give(Vec::with_capacity(1000));
        let v = b.take(50);
        assert_eq!((v.len(), v.capacity()), (50, 100));
        // None of the kept ones holds it: the largest, grown.
        let big = b.take(5000);
        assert_eq!(big.len(), 5000);
        assert_eq!(b.take(900).capacity(), 900, "none kept: a fresh one");
        // A full pool keeps the larger of what it has and what it is given.
        b.give(Vec::with_capacity(10));
        b.give(Vec::with_capacity(20));
        b.give(big);
        assert_eq!(b.take(4000).capacity(), 5000);
        assert_eq!(b.take(1).capacity(), 20);
    }
}
