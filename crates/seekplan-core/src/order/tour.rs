//! The tour that local search and iterated local search change in place.

use super::dense::Dense;
use super::edge_sums::EdgeSums;
use crate::stop::{Clock, Stop};
use std::cell::Cell;
use std::collections::VecDeque;

/// One logged change of a [`Tour`].
enum Change {
    /// Positions start..end rotated left by the third field.
    Rotate(usize, usize, usize),
    /// Positions start..end reversed.
    Reverse(usize, usize),
    /// Positions from the first field on overwritten; the second holds
    /// what they were.
    Replace(usize, Vec<usize>),
}

/// An order as a cycle through the depot (index 0), with each node's
/// position, changed only by rotating (and, for Lin–Kernighan, reversing) stretches
/// of it. Changes can be logged and undone, so a trial move costs what it
/// touches, not O(n): iterated local search kicks and repairs in place and
/// undoes what did not pay.
pub(crate) struct Tour {
    /// Nodes by position, the depot first.
    pub(super) t: Vec<usize>,
    /// Position of each node.
    pub(super) pos: Vec<usize>,
    /// Nodes waiting in `queue` (all false between calls).
    queued: Vec<bool>,
    queue: VecDeque<usize>,
    /// Changes since the last [`Tour::commit`].
    log: Vec<Change>,
    /// Reversal costs, kept only when Lin–Kernighan runs on this tour.
    pub(super) sums: Option<EdgeSums>,
    /// Per node, the last edge out of it that [`Tour::edge_cost`] timed
    /// (its head and cost).
    edges: Vec<Cell<(usize, f64)>>,
    /// When the local searches stop taking nodes (a caller's time limit or
    /// cancel).
    clock: Clock,
}

impl Tour {
    /// The tour depot → `order` → depot.
    pub(crate) fn new(depot: usize, order: &[usize]) -> Self {
        let t: Vec<usize> = std::iter::once(depot)
            .chain(order.iter().copied())
            .collect();
        let mut pos = vec![0; t.len()];
        for (i, &v) in t.iter().enumerate() {
            pos[v] = i;
        }
        Tour {
            queued: vec![false; t.len()],
            edges: vec![Cell::new((usize::MAX, 0.0)); t.len()],
            t,
            pos,
            queue: VecDeque::new(),
            log: Vec::new(),
            sums: None,
            clock: Clock::new(&Stop::never()),
        }
    }

    /// Stops the local searches on this tour once `stop` is reached (a
    /// caller's time limit or cancel): each move they make is whole, so the
    /// tour stays valid, only less improved.
    pub(crate) fn until(&mut self, stop: &Stop) {
        self.clock = Clock::new(stop);
    }

    /// The cost of u → v on `d`, remembered per u until another edge out
    /// of u is asked for: the local searches time the tour's own edges
    /// (u → its successor) on every look at a node, and on a drive model
    /// each is a locate computed from two positions. A tour is searched on
    /// one set of costs throughout; stored matrices are read directly.
    #[inline]
    pub(super) fn edge_cost(&self, d: &Dense, u: usize, v: usize) -> f64 {
        if d.is_stored() {
            return d.cost(u, v);
        }
        let (head, cost) = self.edges[u].get();
        if head == v {
            return cost;
        }
        let cost = d.cost(u, v);
        self.edges[u].set((v, cost));
        cost
    }

    /// Keeps what reversing any stretch costs from now on (Lin–Kernighan
    /// needs it).
    pub(crate) fn track_reversals(&mut self, d: &Dense) {
        self.sums = Some(EdgeSums::new(d, &self.t));
    }

    /// Exactly what reversing positions `i..=j` changes inside that
    /// stretch (reversals tracked, see [`Tour::track_reversals`]).
    pub(super) fn reversal_exact(&mut self, d: &Dense, i: usize, j: usize) -> f64 {
        let sums = self.sums.as_mut().expect("reversals tracked");
        sums.sync(d, &self.t);
        sums.exact(i, j)
    }

    /// Number of nodes, the depot included.
    pub(super) fn len(&self) -> usize {
        self.t.len()
    }

    /// The node at position k, cyclically (position len() is the depot).
    #[inline]
    pub(super) fn at(&self, k: usize) -> usize {
        self.t[k % self.t.len()]
    }

    /// The requests in order (the depot left out).
    pub(crate) fn order(&self) -> &[usize] {
        &self.t[1..]
    }

    fn renumber(&mut self, a: usize, b: usize) {
        let pos = &mut self.pos;
        for (i, &w) in (a..b).zip(&self.t[a..b]) {
            pos[w] = i;
        }
    }

    /// Rotates positions `range` left by `k`, keeping positions current.
    pub(crate) fn rotate(&mut self, range: std::ops::Range<usize>, k: usize) {
        self.t[range.clone()].rotate_left(k);
        self.renumber(range.start, range.end);
        if let Some(sums) = &mut self.sums {
            sums.rotated(range.start, range.end, k);
        }
        self.log.push(Change::Rotate(range.start, range.end, k));
    }

    /// Reverses positions `range`, keeping positions current.
    pub(super) fn reverse(&mut self, range: std::ops::Range<usize>) {
        self.t[range.clone()].reverse();
        self.renumber(range.start, range.end);
        if let Some(sums) = &mut self.sums {
            sums.reversed(range.start, range.end);
        }
        self.log.push(Change::Reverse(range.start, range.end));
    }

    /// Overwrites positions from `start` on with `nodes`, which must be the
    /// same nodes in another order, keeping positions current.
    pub(super) fn replace(&mut self, start: usize, nodes: &[usize]) {
        let end = start + nodes.len();
        let old = self.t[start..end].to_vec();
        self.t[start..end].copy_from_slice(nodes);
        self.renumber(start, end);
        if let Some(sums) = &mut self.sums {
            sums.replaced(start, end);
        }
        self.log.push(Change::Replace(start, old));
    }

    /// Forgets the logged changes: they stay.
    pub(crate) fn commit(&mut self) {
        self.log.clear();
    }

    /// Undoes every change since the last [`Tour::commit`].
    pub(crate) fn undo(&mut self) {
        while let Some(change) = self.log.pop() {
            self.revert(change);
        }
    }

    /// Undoes the last logged change, which must be the rotation or reversal
    /// of positions `range` (checked in debug builds), and forgets it: a
    /// chain that backs out of its own last moves this way leaves nothing
    /// for [`Tour::undo`] to replay. Backing out by the inverse move logged
    /// each flip twice, and an iterated local search undoing a kick then
    /// replayed both. The same tours: `best` on a random symmetric matrix of
    /// 300 nodes 33.7 -> 24.7 s, of 1,000 nodes 31.4 -> 21.4 s, DIMACS
    /// rtilt at 1,000 nodes 11.2 -> 9.6 s (`benchmarks/bench_symmetric.py`,
    /// `benchmarks/RESULTS.md`, thirtieth session).
    pub(super) fn undo_last(&mut self, range: std::ops::Range<usize>) {
        let change = self.log.pop().expect("a change to undo");
        debug_assert!(
            matches!(&change, &Change::Rotate(a, b, _) | &Change::Reverse(a, b) if (a..b) == range),
            "the last change is not the one to undo"
        );
        self.revert(change);
    }

    /// Puts back what `change` changed.
    fn revert(&mut self, change: Change) {
        let (a, b) = match change {
            Change::Rotate(a, b, k) => {
                self.t[a..b].rotate_right(k);
                if let Some(sums) = &mut self.sums {
                    sums.rotated(a, b, b - a - k);
                }
                (a, b)
            }
            Change::Reverse(a, b) => {
                self.t[a..b].reverse();
                if let Some(sums) = &mut self.sums {
                    sums.reversed(a, b);
                }
                (a, b)
            }
            Change::Replace(a, old) => {
                self.t[a..a + old.len()].copy_from_slice(&old);
                if let Some(sums) = &mut self.sums {
                    sums.replaced(a, a + old.len());
                }
                (a, a + old.len())
            }
        };
        self.renumber(a, b);
    }

    pub(super) fn enqueue(&mut self, w: usize) {
        if !self.queued[w] {
            self.queued[w] = true;
            self.queue.push_back(w);
        }
    }

    /// Runs `chain` from queued nodes until none gains: from each node of
    /// `focus` and then from the nodes next to each change, or, without
    /// `focus`, from every node in rounds until one moves nothing. `chain`
    /// applies its best chain from a node when that gains (else returns 0),
    /// returns the gain and pushes the nodes whose edges changed. Returns
    /// the total gain.
    pub(super) fn improve_by_chains(
        &mut self,
        focus: Option<&[usize]>,
        mut chain: impl FnMut(&mut Tour, usize, &mut Vec<usize>) -> f64,
    ) -> f64 {
        let mut gain = 0.0;
        let mut moved = focus.is_none();
        for &w in focus.unwrap_or(&[]) {
            self.enqueue(w);
        }
        let mut touched = Vec::new();
        while let Some(a) = self.next(&mut moved, 0) {
            touched.clear();
            let g = chain(self, a, &mut touched);
            if g > 0.0 {
                gain += g;
                moved = focus.is_none();
                for &w in &touched {
                    self.enqueue(w);
                }
            }
        }
        gain
    }

    /// The next queued node; when none is left and `moved` says the last
    /// round moved something, a new round queues every node from position
    /// `from` on (1: requests only, 0: the depot too) and clears `moved`.
    /// None from the moment the tour's stop is reached (see [`Tour::until`]).
    pub(super) fn next(&mut self, moved: &mut bool, from: usize) -> Option<usize> {
        if self.clock.expired() {
            for w in self.queue.drain(..) {
                self.queued[w] = false;
            }
            return None;
        }
        if self.queue.is_empty() && *moved {
            *moved = false;
            for k in from..self.t.len() {
                let w = self.t[k];
                self.enqueue(w);
            }
        }
        let w = self.queue.pop_front()?;
        self.queued[w] = false;
        Some(w)
    }
}
