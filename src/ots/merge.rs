//! Merging a calendar's answer into a proof's tree, and completing a proof's pending
//! attestations with the answers a caller fetched: linear in the trees' sizes, and working on
//! the tree only (the caller writes a proof only once it reads back: `net::ots::upgrade`).

use super::proof::{limit, Attestation, Op, Timestamp, MAX_WORK};
use super::Error;

impl Timestamp {
    /// Adds `other`'s attestations and operations to this node's, merging the nodes reached
    /// by the same operation: two answers about one message become one tree. Linear in the
    /// two trees' sizes: each node's operations are found by hashing, not by comparing every
    /// pair. It recurses only where both trees have the same operation, so no deeper than
    /// `other` is (a parsed tree: at most [`super::proof::MAX_DEPTH`]).
    pub fn merge(&mut self, other: Timestamp) {
        if !other.attestations.is_empty() {
            let mut known: std::collections::HashSet<Attestation> =
                self.attestations.iter().cloned().collect();
            for a in other.attestations {
                if !known.contains(&a) {
                    known.insert(a.clone());
                    self.attestations.push(a);
                }
            }
        }
        if other.ops.is_empty() {
            return;
        }
        let mut at: std::collections::HashMap<Op, usize> =
            std::collections::HashMap::with_capacity(self.ops.len());
        for (i, (op, _)) in self.ops.iter().enumerate() {
            at.entry(op.clone()).or_insert(i);
        }
        for (op, next) in other.ops {
            match at.get(&op) {
                Some(&i) => self.ops[i].1.merge(next),
                None => {
                    at.insert(op.clone(), self.ops.len());
                    self.ops.push((op, next));
                }
            }
        }
    }

    /// How many operations the tree holds.
    pub fn ops_count(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            n += t.ops.len();
            stack.extend(t.ops.iter().map(|(_, next)| next));
        }
        n
    }

    /// Completes pending attestations: for each one whose calendar `ask` answers (with the
    /// calendar's URI and the message it holds), merges the answer in; an answer that reaches
    /// Bitcoin replaces the pending attestation. Returns how many were completed.
    ///
    /// # Errors
    /// As [`Timestamp::reached`], or `ask`'s own error.
    pub fn upgrade<E: From<Error>>(
        &mut self,
        msg: &[u8],
        ask: &mut impl FnMut(&str, &[u8]) -> Result<Option<Timestamp>, E>,
    ) -> Result<usize, E> {
        let mut done = 0;
        let mut work = 0;
        self.upgrade_at(msg, &mut work, ask, &mut done)?;
        Ok(done)
    }

    fn upgrade_at<E: From<Error>>(
        &mut self,
        msg: &[u8],
        work: &mut usize,
        ask: &mut impl FnMut(&str, &[u8]) -> Result<Option<Timestamp>, E>,
        done: &mut usize,
    ) -> Result<(), E> {
        for (op, next) in &mut self.ops {
            *work += msg.len() + 64;
            if *work > MAX_WORK {
                return Err(limit(format!("more than {MAX_WORK} bytes of hashing")).into());
            }
            next.upgrade_at(&op.apply(msg)?, work, ask, done)?;
        }
        let pending: Vec<String> = self
            .attestations
            .iter()
            .filter_map(|a| match a {
                Attestation::Pending { uri } => Some(uri.clone()),
                _ => None,
            })
            .collect();
        for uri in pending {
            let Some(answer) = ask(&uri, msg)? else {
                continue;
            };
            let complete = answer.has_bitcoin();
            self.merge(answer);
            if complete {
                self.attestations
                    .retain(|a| !matches!(a, Attestation::Pending { uri: u } if *u == uri));
                *done += 1;
            }
        }
        Ok(())
    }
}
