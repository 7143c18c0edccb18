//! One cross-reference entry as the reader keeps it, whichever kind of section it came from
//! (a classic table or an xref stream). A leaf of the reader: the table and the xref modules
//! both use it, and neither needs the other for it.

use std::collections::{BTreeMap, HashMap};

/// Where an object is, per one cross-reference entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A free entry: the object is deleted (or never existed).
    Free,
    /// Offset as written in the file (add `delta` for the position), generation.
    Offset(u64, u16),
    /// Object stream number, index.
    InStream(u32, u32),
}

/// The entries of one decoded section (an xref stream, a classic table read whole, a hybrid
/// file's `/XRefStm`), held compactly: in-use entries by number, free ones as ranges of
/// numbers. A section of millions of free entries (a few KB of compressed zeros) costs a few
/// ranges, not millions of map slots.
#[derive(Debug, Default)]
pub(crate) struct Section {
    used: HashMap<u32, Entry>,
    free: RangeSet,
    /// The run of consecutive free numbers being added, not yet in `free`.
    run: Option<(u32, u32)>,
}

impl Section {
    /// Adds the entry `e` for `num` unless the section already has one (the first entry of a
    /// number decides it, as in readers).
    ///
    /// Returns whether an in-use entry was added (what [`crate::budget::Resource::XrefEntries`]
    /// counts).
    pub(crate) fn add(&mut self, num: u32, e: Entry) -> bool {
        match e {
            Entry::Free => {
                match &mut self.run {
                    Some((_, end)) if *end == num => *end = num.saturating_add(1),
                    Some((start, end)) if num >= *start && num < *end => {}
                    _ => {
                        self.flush();
                        if !self.used.contains_key(&num) {
                            self.run = Some((num, num.saturating_add(1)));
                        }
                    }
                }
                false
            }
            _ => {
                if self.free_has(num) || self.used.contains_key(&num) {
                    return false;
                }
                self.used.insert(num, e);
                true
            }
        }
    }

    fn free_has(&self, num: u32) -> bool {
        self.run.is_some_and(|(s, e)| num >= s && num < e) || self.free.contains(num)
    }

    fn flush(&mut self) {
        if let Some((s, e)) = self.run.take() {
            self.free.insert(s, e);
        }
    }

    /// Ends adding: the section is ready for lookups.
    pub(crate) fn done(mut self) -> Self {
        self.flush();
        self
    }

    /// The entry for `num`, in use or free.
    pub(crate) fn get(&self, num: u32) -> Option<Entry> {
        if let Some(e) = self.used.get(&num) {
            return Some(*e);
        }
        self.free_has(num).then_some(Entry::Free)
    }

    /// Whether the section has an entry (in use or free) for `num`.
    pub(crate) fn covers(&self, num: u32) -> bool {
        self.used.contains_key(&num) || self.free_has(num)
    }

    /// The in-use entries, in no order.
    pub(crate) fn used(&self) -> impl Iterator<Item = (u32, Entry)> + '_ {
        self.used.iter().map(|(&n, &e)| (n, e))
    }

    /// The free ranges, `start..end`.
    pub(crate) fn free_ranges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.free.ranges().chain(self.run)
    }

    /// Number of in-use entries and free ranges held.
    pub(crate) fn held(&self) -> u64 {
        (self.used.len() + self.free.len()) as u64
    }

    /// Largest object number with an entry.
    pub(crate) fn max_num(&self) -> Option<u32> {
        let free = self.free_ranges().map(|(_, e)| e - 1).max();
        self.used.keys().copied().max().max(free)
    }
}

/// A set of object numbers as sorted, disjoint, non-adjacent ranges `start..end`.
#[derive(Debug, Default, Clone)]
pub(crate) struct RangeSet {
    /// start → end
    map: BTreeMap<u32, u32>,
}

impl RangeSet {
    /// Whether `num` is in the set.
    pub(crate) fn contains(&self, num: u32) -> bool {
        self.map
            .range(..=num)
            .next_back()
            .is_some_and(|(_, &e)| num < e)
    }

    /// Adds `start..end`, merging with the ranges it touches.
    pub(crate) fn insert(&mut self, mut start: u32, mut end: u32) {
        if start >= end {
            return;
        }
        if let Some((&s, &e)) = self.map.range(..=start).next_back() {
            if e >= start {
                start = s;
                end = end.max(e);
                self.map.remove(&s);
            }
        }
        while let Some((&s, &e)) = self.map.range(start..=end).next() {
            end = end.max(e);
            self.map.remove(&s);
        }
        self.map.insert(start, end);
    }

    /// The ranges, in order.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.map.iter().map(|(&s, &e)| (s, e))
    }

    /// Number of ranges.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millions_of_free_entries_are_one_range() {
        let mut s = Section::default();
        for n in 0..8_000_000 {
            s.add(n, Entry::Free);
        }
        assert!(s.add(8_000_000, Entry::Offset(15, 0)));
        assert!(
            !s.add(5, Entry::Offset(15, 0)),
            "the first entry of a number wins"
        );
        let s = s.done();
        assert_eq!(s.held(), 2);
        assert_eq!(s.get(7), Some(Entry::Free));
        assert_eq!(s.get(8_000_000), Some(Entry::Offset(15, 0)));
        assert_eq!(s.get(8_000_001), None);
        assert_eq!(s.max_num(), Some(8_000_000));
    }

    #[test]
    fn ranges_merge() {
        let mut r = RangeSet::default();
        r.insert(10, 20);
        r.insert(30, 40);
        r.insert(20, 30);
        assert_eq!(r.ranges().collect::<Vec<_>>(), vec![(10, 40)]);
        r.insert(5, 12);
        r.insert(50, 51);
        assert_eq!(r.ranges().collect::<Vec<_>>(), vec![(5, 40), (50, 51)]);
        assert!(r.contains(5) && r.contains(39) && !r.contains(40) && r.contains(50));
    }
}
