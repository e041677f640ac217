//! What reversing a stretch of a tour costs on asymmetric costs: per tour
//! position k, the edge t[k] → t[k+1] read backwards minus forwards, in a
//! Fenwick tree, so the change of any stretch's internal cost when it is
//! reversed is a prefix-sum query (O(log n)) and a move that rearranges m
//! positions updates O(m log n). Positions a tour move touched are only
//! marked; [`EdgeSums::sync`] recomputes them before the next query.

use super::dense::Dense;

/// Point updates after which the tree is rebuilt, in multiples of its size:
/// rebuilding bounds the rounding that repeated updates accumulate.
const REBUILD_AFTER: usize = 4;

/// Backward-minus-forward edge costs of a tour by position.
pub(crate) struct EdgeSums {
    /// C(t[k+1], t[k]) - C(t[k], t[k+1]) for each position k (cyclic).
    diff: Vec<f64>,
    /// Fenwick tree over `diff` (1-based).
    tree: Vec<f64>,
    /// Position ranges whose nodes changed since the last sync.
    dirty: Vec<(usize, usize)>,
    /// Point updates since the tree was last built.
    updates: usize,
}

impl EdgeSums {
    /// The sums of tour `t` (the depot at position 0).
    pub(crate) fn new(d: &Dense, t: &[usize]) -> Self {
        let mut sums = EdgeSums {
            diff: vec![0.0; t.len()],
            tree: vec![0.0; t.len() + 1],
            dirty: Vec::new(),
            updates: 0,
        };
        sums.rebuild(d, t);
        sums
    }

    fn edge(d: &Dense, t: &[usize], k: usize) -> f64 {
        let (a, b) = (t[k], t[(k + 1) % t.len()]);
        d.cost(b, a) - d.cost(a, b)
    }

    fn rebuild(&mut self, d: &Dense, t: &[usize]) {
        for k in 0..t.len() {
            self.diff[k] = Self::edge(d, t, k);
        }
        self.tree[0] = 0.0;
        self.tree[1..].copy_from_slice(&self.diff);
        for i in 1..self.tree.len() {
            let up = i + (i & i.wrapping_neg());
            if up < self.tree.len() {
                self.tree[up] += self.tree[i];
            }
        }
        self.dirty.clear();
        self.updates = 0;
    }

    /// Marks positions `start..end` of the tour as changed.
    pub(crate) fn touch(&mut self, start: usize, end: usize) {
        self.dirty.push((start, end));
    }

    /// Brings the sums up to date with tour `t` after [`EdgeSums::touch`]es.
    pub(crate) fn sync(&mut self, d: &Dense, t: &[usize]) {
        let len = t.len();
        let pending: usize = self.dirty.iter().map(|&(a, b)| b - a + 1).sum();
        if self.updates + pending > REBUILD_AFTER * len {
            self.rebuild(d, t);
            return;
        }
        while let Some((a, b)) = self.dirty.pop() {
            // Nodes a..b changed: the edges into a and out of a..b.
            for k in (a + len - 1)..(b + len) {
                let k = k % len;
                let new = Self::edge(d, t, k);
                let delta = new - self.diff[k];
                if delta != 0.0 {
                    self.diff[k] = new;
                    self.add(k, delta);
                }
            }
        }
    }

    fn add(&mut self, k: usize, delta: f64) {
        self.updates += 1;
        let mut i = k + 1;
        while i < self.tree.len() {
            self.tree[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    /// Sum of `diff[0..k]`.
    fn prefix(&self, k: usize) -> f64 {
        let (mut i, mut s) = (k, 0.0);
        while i > 0 {
            s += self.tree[i];
            i -= i & i.wrapping_neg();
        }
        s
    }

    /// How much reversing positions `i..=j` changes the cost of the edges
    /// inside that stretch (an estimate up to rounding; [`reversal_change`]
    /// is exact).
    pub(crate) fn reversal(&self, i: usize, j: usize) -> f64 {
        self.prefix(j) - self.prefix(i)
    }
}

/// Exactly what reversing positions `i..=j` of tour `t` changes inside the
/// stretch, by walking it.
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

    #[test]
    fn the_sums_follow_rotations_reversals_and_undo() {
        let n = 25;
        let rows = (0..n)
            .map(|i| (0..n).map(|j| ((i * 7 + j * 13) % 17) as f64).collect())
            .collect();
        let matrix = CostMatrix::from_rows(rows).unwrap();
        let problem = Problem::matrix(&matrix, 0, Some(0)).unwrap();
        let d = Dense::new(&problem);
        let order: Vec<usize> = (0..problem.len()).collect();
        let mut tour = Tour::new(d.depot(), &order);
        tour.track_reversals(&d);
        let check = |tour: &mut Tour| {
            let sums = tour.sums.as_mut().unwrap();
            sums.sync(&d, &tour.t);
            for (i, j) in [(1, 2), (3, 17), (1, 24), (10, 11)] {
                let exact = reversal_change(&d, &tour.t, i, j);
                assert!((tour.sums.as_ref().unwrap().reversal(i, j) - exact).abs() < 1e-9);
            }
        };
        check(&mut tour);
        tour.rotate(2..20, 5);
        tour.reverse(4..15);
        check(&mut tour);
        tour.undo();
        check(&mut tour);
        assert_eq!(tour.order(), &order[..]);
    }
}
