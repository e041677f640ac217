//! What reversing a stretch of a tour costs on asymmetric costs: per tour
//! position k, the edge t[k] → t[k+1] read backwards minus forwards. The
//! tour's moves carry these values along rather than timing them again: a
//! rotation moves them with their edges and a reversal moves and negates
//! them, so only the two or three edges a move creates are timed (a lookup
//! each way). A stretch's change when reversed is then a prefix-sum
//! difference, the prefix sums recomputed from the first position a move
//! changed when next asked.
//!
//! It was a Fenwick tree whose changed positions were all timed again: on
//! symmetric 1,000-node matrices a Lin–Kernighan flip of a few hundred
//! positions cost two lookups and a tree update per position, most of
//! `best`'s 26 s (see `benchmarks/RESULTS.md`, twenty-second session).

use super::dense::Dense;

/// Backward-minus-forward edge costs of a tour by position.
pub(crate) struct EdgeSums {
    /// C(t[k+1], t[k]) - C(t[k], t[k+1]) for each position k (cyclic);
    /// exact except at the positions in `stale`.
    diff: Vec<f64>,
    /// `prefix[k]` is the sum of `diff[0..k]`, for k below `valid`.
    prefix: Vec<f64>,
    valid: usize,
    /// Positions whose edges moves created since the last sync (their
    /// values still to be timed), moved along with later moves.
    stale: Vec<usize>,
    /// Every position is to be timed again: more moves came between two
    /// syncs than carrying `stale` along is worth.
    all_stale: bool,
    /// The costs are symmetric between requests ([`Dense::symmetric`]):
    /// every stretch reverses for nothing, so nothing is carried along.
    /// A stretch never holds the depot's edges (positions 0 and the last),
    /// the only ones that may differ each way. `best` took 53.0 s carrying
    /// zeros along and 33.7 s without on a random symmetric matrix of 300
    /// nodes, 61.6 and 31.4 s on one of 1,000, and 8.5 and 6.0 s on
    /// Euclidean distances of 1,000 points, the same tours
    /// (`benchmarks/bench_symmetric.py`, 2026-11-29).
    flat: bool,
}

impl EdgeSums {
    /// The sums of tour `t` (the depot at position 0).
    pub(crate) fn new(d: &Dense, t: &[usize]) -> Self {
        let flat = d.symmetric();
        let diff = if flat {
            Vec::new()
        } else {
            (0..t.len()).map(|k| Self::edge(d, t, k)).collect()
        };
        EdgeSums {
            prefix: vec![0.0; diff.len() + 1],
            diff,
            valid: 1,
            stale: Vec::new(),
            all_stale: false,
            flat,
        }
    }

    fn edge(d: &Dense, t: &[usize], k: usize) -> f64 {
        let (a, b) = (t[k], t[(k + 1) % t.len()]);
        d.cost(b, a) - d.cost(a, b)
    }

    /// Marks the edges at positions `ks` (cyclic: each taken modulo the
    /// tour's length) as created by a move. Carrying k stale positions
    /// along costs k per move, timing every edge again 2n lookups: past
    /// k² > 2n the sync times them all.
    fn created(&mut self, ks: impl IntoIterator<Item = usize>) {
        if self.flat {
            return;
        }
        let len = self.diff.len();
        for k in ks {
            let k = k % len;
            self.valid = self.valid.min(k + 1);
            if !self.all_stale {
                self.stale.push(k);
            }
        }
        if self.stale.len() * self.stale.len() > 2 * len {
            self.all_stale = true;
            self.stale.clear();
        }
    }

    /// Positions `a..b` of the tour were rotated left by `k`: the edges
    /// inside each of the two blocks move with them, the three joints are
    /// new (rotating a..b carries the old joints, at a + k - 1 and b - 1,
    /// to b - 1 and b - k - 1: joints again).
    pub(crate) fn rotated(&mut self, a: usize, b: usize, k: usize) {
        if self.flat {
            return;
        }
        let len = self.diff.len();
        self.diff[a..b].rotate_left(k);
        for s in &mut self.stale {
            if (a..b).contains(s) {
                *s = if *s >= a + k {
                    *s - k
                } else {
                    *s + (b - a) - k
                };
            }
        }
        self.valid = self.valid.min(a + 1);
        self.created([a + len - 1, b + len - k - 1, b + len - 1]);
    }

    /// Positions `a..b` of the tour were reversed: the edges inside run the
    /// other way at mirrored positions (negated), the two ends are new.
    pub(crate) fn reversed(&mut self, a: usize, b: usize) {
        if self.flat {
            return;
        }
        let len = self.diff.len();
        if b > a + 1 {
            let inside = &mut self.diff[a..b - 1];
            inside.reverse();
            inside.iter_mut().for_each(|v| *v = -*v);
            for s in &mut self.stale {
                if (a..b - 1).contains(s) {
                    *s = a + b - 2 - *s;
                }
            }
        }
        self.valid = self.valid.min(a + 1);
        self.created([a + len - 1, b + len - 1]);
    }

    /// Positions `a..b` of the tour were overwritten with the same nodes in
    /// another order: every edge into and out of them is new.
    pub(crate) fn replaced(&mut self, a: usize, b: usize) {
        let len = self.diff.len();
        self.created((a..=b).map(|k| k + len - 1));
    }

    /// Times the edges moves created on tour `t`.
    pub(crate) fn sync(&mut self, d: &Dense, t: &[usize]) {
        if self.flat {
            return;
        }
        if std::mem::take(&mut self.all_stale) {
            for k in 0..t.len() {
                self.diff[k] = Self::edge(d, t, k);
            }
        }
        for k in self.stale.drain(..) {
            self.diff[k] = Self::edge(d, t, k);
        }
    }

    /// How much reversing positions `i..=j` changes the cost of the edges
    /// inside that stretch, from the prefix sums (up to rounding; see
    /// [`EdgeSums::exact`]). After [`EdgeSums::sync`].
    ///
    /// The sums a move left stale are rebuilt with the running sum held in
    /// a local: updating `valid` and reading back the last sum at every
    /// position made each step wait on the one before through memory, and
    /// the rebuild was a third of a kick's time on helical seek matrices of
    /// 1,000 files. The same additions in the same order, so the same
    /// tours; `best` took 2.21 -> 1.58 s on 4mm DAT gaussian and 1.62 ->
    /// 1.25 s on Sony DTF half (1,000 files, seed 1), 13.4 -> 10.3 s on
    /// DIMACS rtilt at 1,000 nodes (2026-11-29, `benchmarks/RESULTS.md`).
    pub(crate) fn reversal(&mut self, i: usize, j: usize) -> f64 {
        self.assert_synced();
        debug_assert!(i >= 1, "a stretch holds no edge of the depot");
        if self.flat {
            return 0.0;
        }
        if self.valid <= j {
            let mut sum = self.prefix[self.valid - 1];
            for (p, d) in self.prefix[self.valid..=j]
                .iter_mut()
                .zip(&self.diff[self.valid - 1..j])
            {
                sum += d;
                *p = sum;
            }
            self.valid = j + 1;
        }
        self.prefix[j] - self.prefix[i]
    }

    /// Exactly what reversing positions `i..=j` changes inside the
    /// stretch: the same terms, in the same order, as walking it
    /// ([`reversal_change`]). After [`EdgeSums::sync`].
    pub(crate) fn exact(&self, i: usize, j: usize) -> f64 {
        self.assert_synced();
        debug_assert!(i >= 1, "a stretch holds no edge of the depot");
        if self.flat {
            return 0.0;
        }
        self.diff[i..j].iter().sum()
    }

    fn assert_synced(&self) {
        debug_assert!(
            self.stale.is_empty() && !self.all_stale,
            "edge sums asked before a sync"
        );
    }
}

/// Exactly what reversing positions `i..=j` of tour `t` changes inside the
/// stretch, by walking it.
#[cfg(test)]
pub(crate) fn reversal_change(d: &Dense, t: &[usize], i: usize, j: usize) -> f64 {
    t[i..=j]
        .windows(2)
        .map(|w| d.cost(w[1], w[0]) - d.cost(w[0], w[1]))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CostMatrix;
    use crate::order::tour::Tour;
    use crate::order::Problem;

    /// Calls `f` with the costs of `rows` from node 0 (back to it when
    /// `closed`, else ending anywhere) and the tour through the requests in
    /// number order, tracking reversals.
    fn on_tracked_tour<R>(
        rows: Vec<Vec<f64>>,
        closed: bool,
        f: impl FnOnce(&Dense, Tour) -> R,
    ) -> R {
        let matrix = CostMatrix::from_rows(rows).unwrap();
        let problem = Problem::matrix(&matrix, 0, closed.then_some(0)).unwrap();
        let d = Dense::new(&problem);
        let order: Vec<usize> = (0..d.len()).collect();
        let mut tour = Tour::new(d.depot(), &order);
        tour.track_reversals(&d);
        f(&d, tour)
    }

    #[test]
    fn the_sums_follow_rotations_reversals_and_undo() {
        let n = 25;
        let rows = (0..n)
            .map(|i| (0..n).map(|j| ((i * 7 + j * 13) % 17) as f64).collect())
            .collect();
        on_tracked_tour(rows, true, |d, mut tour| {
            let order = tour.order().to_vec();
            let check = |tour: &mut Tour| {
                let sums = tour.sums.as_mut().unwrap();
                sums.sync(d, &tour.t);
                for (i, j) in [(1, 2), (3, 17), (1, 24), (10, 11)] {
                    let exact = reversal_change(d, &tour.t, i, j);
                    assert_eq!(sums.exact(i, j), exact);
                    assert!((sums.reversal(i, j) - exact).abs() < 1e-9);
                }
            };
            check(&mut tour);
            tour.rotate(2..20, 5);
            tour.reverse(4..15);
            check(&mut tour);
            tour.undo();
            check(&mut tour);
            assert_eq!(tour.order(), &order[..]);
        });
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Whatever the moves (rotations, reversals, overwrites and their
        /// undoing) and however many come between two syncs, the sums
        /// carried along agree with the tour walked afresh: exactly, term
        /// for term, and through the prefix sums up to rounding. Also on
        /// costs symmetric between requests, where nothing is carried
        /// along, whether the depot's edges are (a closed tour) or not (a
        /// path that ends anywhere).
        #[test]
        fn sums_carried_along_agree_with_the_tour_walked(
            n in 4usize..60,
            raw in proptest::collection::vec(0u32..1000, 3600),
            moves in proptest::collection::vec((0u8..4, 0usize..1000, 0usize..1000, 0usize..1000), 1..120),
            every in 1usize..40,
            symmetric in proptest::bool::ANY,
            closed in proptest::bool::ANY,
        ) {
            let at = |i: usize, j: usize| if symmetric { i.min(j) * 60 + i.max(j) } else { i * 60 + j };
            let rows = (0..n)
                .map(|i| (0..n).map(|j| f64::from(raw[at(i, j)]) / 7.0).collect())
                .collect();
            on_tracked_tour(rows, closed, |d, mut tour| {
            proptest::prop_assert_eq!(tour.sums.as_ref().unwrap().flat, symmetric);
            let len = tour.len();
            for (m, &(kind, x, y, k)) in moves.iter().enumerate() {
                // A range of requests' positions (the depot stays at 0).
                let (a, b) = (1 + x % (len - 1), 1 + y % (len - 1));
                let (a, b) = (a.min(b), a.max(b) + 1);
                match kind {
                    0 => tour.rotate(a..b, k % (b - a)),
                    1 => tour.reverse(a..b),
                    2 => {
                        let mut nodes = tour.t[a..b].to_vec();
                        let shift = k % nodes.len();
                        nodes.rotate_left(shift);
                        nodes.reverse();
                        tour.replace(a, &nodes);
                    }
                    _ => tour.undo(),
                }
                if m % every == 0 {
                    let sums = tour.sums.as_mut().unwrap();
                    sums.sync(d, &tour.t);
                    for (i, j) in [(a, b - 1), (1, len - 1), (a.min(len - 2), len - 1)] {
                        let walked = reversal_change(d, &tour.t, i, j);
                        proptest::prop_assert_eq!(sums.exact(i, j), walked);
                        proptest::prop_assert!((sums.reversal(i, j) - walked).abs() < 1e-6);
                    }
                }
            }
            Ok(())
            })?;
        }
    }
}
