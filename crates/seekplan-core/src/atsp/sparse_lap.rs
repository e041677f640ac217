//! The assignment problem on large matrices without storing them: solved on
//! a sparse candidate graph (each row's cheapest columns) by shortest
//! augmenting paths with a heap, then checked against every entry of the
//! full matrix. An entry whose reduced cost is negative joins its row's
//! candidates and the row is solved again, until none is: the result is
//! the optimum of the full problem, certified by its dual potentials, in
//! O(m²) cost reads and O(m·k) memory.

use super::Assignment;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const FREE: usize = usize::MAX;

/// Candidate columns per row: on random and tape costs the optimal
/// assignment uses a row's 12 cheapest columns almost always, and the
/// full-matrix check adds whatever it misses.
const CANDIDATES: usize = 12;

/// Reduced costs down to this (relative to the largest cost) count as zero.
const REL_EPS: f64 = 1e-12;

/// A float that orders totally, for the heap.
#[derive(Clone, Copy, PartialEq)]
struct Key(f64);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

struct Solver {
    /// Each row's candidate columns and their costs.
    adj: Vec<Vec<(usize, f64)>>,
    u: Vec<f64>,
    v: Vec<f64>,
    row_col: Vec<usize>,
    col_row: Vec<usize>,
    dist: Vec<f64>,
    way: Vec<usize>,
    done: Vec<bool>,
    touched: Vec<usize>,
}

impl Solver {
    /// Assigns the free row `start` along a shortest augmenting path over
    /// the candidate edges; false when none exists.
    fn augment(&mut self, start: usize) -> bool {
        let mut heap: BinaryHeap<Reverse<(Key, usize)>> = BinaryHeap::new();
        for &j in &self.touched {
            self.dist[j] = f64::INFINITY;
            self.done[j] = false;
        }
        self.touched.clear();
        let mut settled: Vec<usize> = Vec::new();
        let mut i = start;
        let mut reached = 0.0;
        let end = loop {
            let base = reached - self.u[i];
            for &(j, c) in &self.adj[i] {
                if self.done[j] {
                    continue;
                }
                let d = base + c - self.v[j];
                if d < self.dist[j] {
                    if self.dist[j].is_infinite() {
                        self.touched.push(j);
                    }
                    self.dist[j] = d;
                    self.way[j] = i;
                    heap.push(Reverse((Key(d), j)));
                }
            }
            let next = loop {
                let Some(Reverse((Key(d), j))) = heap.pop() else {
                    break None;
                };
                if !self.done[j] && d == self.dist[j] {
                    break Some(j);
                }
            };
            let Some(j) = next else {
                for &j in &settled {
                    self.done[j] = false;
                }
                return false;
            };
            self.done[j] = true;
            settled.push(j);
            reached = self.dist[j];
            if self.col_row[j] == FREE {
                break j;
            }
            i = self.col_row[j];
        };
        self.u[start] += reached;
        for &j in &settled[..settled.len() - 1] {
            let shift = reached - self.dist[j];
            self.v[j] -= shift;
            self.u[self.col_row[j]] += shift;
        }
        let mut j = end;
        loop {
            let i = self.way[j];
            let next = self.row_col[i];
            self.col_row[j] = i;
            self.row_col[i] = j;
            if i == start {
                break;
            }
            j = next;
        }
        for &j in &settled {
            self.done[j] = false;
        }
        true
    }
}

/// The `k` cheapest (column, cost) pairs of row `i` (diagonal excluded).
fn cheapest(
    m: usize,
    i: usize,
    k: usize,
    cost: &impl Fn(usize, usize) -> f64,
) -> Vec<(usize, f64)> {
    let mut row: Vec<(usize, f64)> = (0..m)
        .filter(|&j| j != i)
        .map(|j| (j, cost(i, j)))
        .filter(|e| e.1.is_finite())
        .collect();
    if row.len() > k {
        row.select_nth_unstable_by(k - 1, |a, b| a.1.total_cmp(&b.1));
        row.truncate(k);
    }
    row
}

/// Solves the assignment problem over `m` rows and columns with costs
/// `cost(i, j)` (the diagonal is excluded; infinite entries are forbidden)
/// reading each entry a few times and storing O(m) of them. Returns `None`
/// when a row finds no augmenting path even with all its finite entries
/// as candidates (no assignment of finite entries exists, or one needs
/// other rows' far-from-cheapest entries: callers then do without it).
pub fn sparse_assignment(m: usize, cost: impl Fn(usize, usize) -> f64) -> Option<Assignment> {
    if m < 2 {
        return None;
    }
    let adj: Vec<Vec<(usize, f64)>> = (0..m).map(|i| cheapest(m, i, CANDIDATES, &cost)).collect();
    let scale = adj
        .iter()
        .flatten()
        .map(|e| e.1.abs())
        .fold(1.0_f64, f64::max);
    let mut s = Solver {
        adj,
        u: vec![0.0; m],
        v: vec![0.0; m],
        row_col: vec![FREE; m],
        col_row: vec![FREE; m],
        dist: vec![f64::INFINITY; m],
        way: vec![0; m],
        done: vec![false; m],
        touched: Vec::new(),
    };
    // Row potentials start at each row's cheapest candidate (v = 0), which
    // keeps every reduced cost non-negative.
    for i in 0..m {
        s.u[i] = s.adj[i].iter().map(|e| e.1).fold(f64::INFINITY, f64::min);
        if !s.u[i].is_finite() {
            return None;
        }
    }
    let mut free: Vec<usize> = (0..m).collect();
    loop {
        for &i in &free {
            if !s.augment(i) {
                // The candidates admit no assignment: give this row all of
                // its finite columns and start it again.
                s.adj[i] = cheapest(m, i, m, &cost);
                s.u[i] = lowest_reduced(&s, i);
                if !s.augment(i) {
                    return None;
                }
            }
        }
        // Every entry of the full matrix must have a non-negative reduced
        // cost; rows with one that has not get it as a candidate, their
        // potential lowered to keep the others feasible, and are solved again.
        free.clear();
        for i in 0..m {
            let mut added = false;
            for j in (0..m).filter(|&j| j != i) {
                let c = cost(i, j);
                if c.is_finite() && c - s.u[i] - s.v[j] < -REL_EPS * scale {
                    s.adj[i].push((j, c));
                    added = true;
                }
            }
            if added {
                s.u[i] = lowest_reduced(&s, i);
                let j = s.row_col[i];
                s.col_row[j] = FREE;
                s.row_col[i] = FREE;
                free.push(i);
            }
        }
        if free.is_empty() {
            break;
        }
    }
    let total = (0..m).map(|i| cost(i, s.row_col[i])).sum();
    Some(Assignment {
        succ: s.row_col,
        total,
        row: s.u,
        col: s.v,
    })
}

/// The largest potential row `i` can take with its candidates' reduced
/// costs non-negative.
fn lowest_reduced(s: &Solver, i: usize) -> f64 {
    s.adj[i]
        .iter()
        .map(|&(j, c)| c - s.v[j])
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsp::assignment;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn equals_the_dense_solver(
            m in 2usize..40,
            raw in proptest::collection::vec(0u32..1000, 1600),
            modulus in 1u32..1000,
        ) {
            let cost = |i: usize, j: usize| {
                if i == j { f64::INFINITY } else { f64::from(raw[i * 40 + j] % modulus) }
            };
            let dense: Vec<f64> = (0..m * m).map(|k| cost(k / m, k % m)).collect();
            let want = assignment(m, &dense).total;
            let got = sparse_assignment(m, cost).expect("feasible");
            prop_assert!((got.total - want).abs() < 1e-9, "{} vs {}", got.total, want);
            let mut cols = got.succ.clone();
            cols.sort_unstable();
            prop_assert_eq!(cols, (0..m).collect::<Vec<_>>());
            for i in 0..m {
                for j in (0..m).filter(|&j| j != i) {
                    prop_assert!(got.row[i] + got.col[j] <= cost(i, j) + 1e-9);
                }
            }
        }
    }

    #[test]
    fn a_matrix_whose_cheap_columns_collide_is_still_solved() {
        // Every row's 12 cheapest columns are the same 13: the candidate
        // graph has no perfect assignment, the fallback and check repair it.
        let m = 40;
        let cost = |i: usize, j: usize| {
            if i == j {
                f64::INFINITY
            } else if j < 13 {
                1.0
            } else {
                100.0 + (i * j % 7) as f64
            }
        };
        let dense: Vec<f64> = (0..m * m).map(|k| cost(k / m, k % m)).collect();
        let got = sparse_assignment(m, cost).expect("feasible");
        assert!((got.total - assignment(m, &dense).total).abs() < 1e-9);
    }
}
