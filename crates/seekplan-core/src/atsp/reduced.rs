//! Reduced-cost fixing for branch and bound on the asymmetric TSP: under
//! an optimal assignment's potentials u, v every reduced cost c(i, j) − u[i]
//! − v[j] is non-negative and a tour costs the assignment's value plus the
//! reduced costs of its edges. So no edge whose reduced cost exceeds an
//! incumbent's excess over that value is in a cheaper tour, and the search
//! for one can drop it (Carpaneto, Dell'Amico & Toth 1995). On the
//! benchmark's LTO seek matrices of 1,000 nodes (four patterns, four
//! seeds) the root assignment ends 0-0.1 % below the optimum, and with the
//! optimum as the incumbent 1-106 edges a row survive of 1,001 (measured
//! 2026-11-28).

use super::Assignment;
use std::ops::Range;

/// Each row's edges whose reduced cost under a root assignment's
/// potentials is at most a limit, cheapest first, with their costs
/// (compressed rows): a search under a lower limit reads only a row's
/// head, and reads the costs in order (read from the matrix, a third of
/// the search's time went to cache misses on 1,000-node matrices).
pub(crate) struct Reduced {
    /// Row i's edges are entries `offsets[i]..offsets[i + 1]`.
    offsets: Vec<usize>,
    cols: Vec<u32>,
    reduced: Vec<f64>,
    costs: Vec<f64>,
    /// The same entries by column, where asked for
    /// ([`Reduced::with_columns`]).
    columns: Option<Columns>,
}

/// A [`Reduced`] graph's entries by column.
struct Columns {
    /// Column j's entries are `entries[offsets[j]..offsets[j + 1]]`,
    /// cheapest reduced cost first.
    offsets: Vec<usize>,
    entries: Vec<u32>,
    /// Each entry's row.
    rows: Vec<u32>,
}

impl Reduced {
    /// The finite edges of the `m`×`m` row-major `cost` whose reduced cost
    /// under `root`'s potentials is at most `limit`, if there are at most
    /// `max` of them.
    pub(crate) fn within(
        m: usize,
        cost: &[f64],
        root: &Assignment,
        limit: f64,
        max: usize,
    ) -> Option<Self> {
        let kept = |i: usize| {
            let row = &cost[i * m..(i + 1) * m];
            row.iter()
                .zip(&root.col)
                .filter(|&(&c, &vj)| c.is_finite() && c - root.row[i] - vj <= limit)
                .count()
        };
        let mut total = 0;
        for i in 0..m {
            total += kept(i);
            if total > max {
                return None;
            }
        }
        Some(Self::new(m, cost, root, limit))
    }

    /// The finite edges of the `m`×`m` row-major `cost` whose reduced cost
    /// under `root`'s potentials is at most `limit` (every finite edge when
    /// `limit` is infinite).
    pub(crate) fn new(m: usize, cost: &[f64], root: &Assignment, limit: f64) -> Self {
        assert!(m <= u32::MAX as usize, "more nodes than a u32 numbers");
        let mut offsets = Vec::with_capacity(m + 1);
        let mut cols = Vec::new();
        let mut reduced = Vec::new();
        let mut costs = Vec::new();
        let mut row: Vec<(f64, u32)> = Vec::new();
        offsets.push(0);
        for i in 0..m {
            row.clear();
            let ui = root.row[i];
            let costs_i = &cost[i * m..(i + 1) * m];
            for (j, (&c, &vj)) in costs_i.iter().zip(&root.col).enumerate() {
                let r = c - ui - vj;
                if c.is_finite() && r <= limit {
                    row.push((r, j as u32));
                }
            }
            row.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            reduced.extend(row.iter().map(|e| e.0));
            cols.extend(row.iter().map(|e| e.1));
            costs.extend(row.iter().map(|e| costs_i[e.1 as usize]));
            offsets.push(cols.len());
        }
        Reduced {
            offsets,
            cols,
            reduced,
            costs,
            columns: None,
        }
    }

    /// The same edges, readable by column too ([`Reduced::column`]).
    pub(crate) fn with_columns(mut self) -> Self {
        let (m, cols, reduced) = (self.offsets.len() - 1, &self.cols, &self.reduced);
        let mut rows = vec![0; cols.len()];
        for (i, ends) in self.offsets.windows(2).enumerate() {
            rows[ends[0]..ends[1]].fill(i as u32);
        }
        let mut col_offsets = vec![0; m + 1];
        for &j in cols {
            col_offsets[j as usize + 1] += 1;
        }
        for j in 0..m {
            col_offsets[j + 1] += col_offsets[j];
        }
        // Entries by column (a counting sort), then each column's by
        // reduced cost.
        let mut next = col_offsets.clone();
        let mut by_col = vec![0; cols.len()];
        for (e, &j) in cols.iter().enumerate() {
            by_col[next[j as usize]] = e as u32;
            next[j as usize] += 1;
        }
        for j in 0..m {
            by_col[col_offsets[j]..col_offsets[j + 1]].sort_by(|&a, &b| {
                reduced[a as usize]
                    .total_cmp(&reduced[b as usize])
                    .then(a.cmp(&b))
            });
        }
        self.columns = Some(Columns {
            offsets: col_offsets,
            entries: by_col,
            rows,
        });
        self
    }

    /// The entries of row `i`'s edges, cheapest reduced cost first.
    pub(crate) fn row(&self, i: usize) -> Range<usize> {
        self.offsets[i]..self.offsets[i + 1]
    }

    /// The entries of column `j`'s edges, cheapest reduced cost first.
    /// Panics unless built [`Reduced::with_columns`].
    pub(crate) fn column(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        let c = self.columns.as_ref().expect("built with columns");
        c.entries[c.offsets[j]..c.offsets[j + 1]]
            .iter()
            .map(|&e| e as usize)
    }

    /// The row of entry `e`. Panics unless built [`Reduced::with_columns`].
    pub(crate) fn row_of(&self, e: usize) -> usize {
        self.columns.as_ref().expect("built with columns").rows[e] as usize
    }

    /// The column of entry `e`.
    pub(crate) fn col(&self, e: usize) -> usize {
        self.cols[e] as usize
    }

    /// The reduced cost of entry `e` under the root's potentials.
    pub(crate) fn reduced(&self, e: usize) -> f64 {
        self.reduced[e]
    }

    /// The cost of entry `e`.
    pub(crate) fn cost(&self, e: usize) -> f64 {
        self.costs[e]
    }

    /// Entries kept in all.
    pub(crate) fn len(&self) -> usize {
        self.cols.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsp::assignment;
    use crate::atsp::test_costs::modular;

    #[test]
    fn keeps_exactly_the_finite_edges_within_the_limit_cheapest_first() {
        let m = 12;
        let mut cost = modular(m, 101, 0);
        cost[3 * m + 5] = f64::INFINITY;
        let root = assignment(m, &cost);
        let limit = 20.0;
        let g = Reduced::new(m, &cost, &root, limit);
        let mut kept = 0;
        for i in 0..m {
            let row: Vec<usize> = g.row(i).collect();
            assert!(row.windows(2).all(|w| g.reduced(w[0]) <= g.reduced(w[1])));
            assert!(row.iter().all(|&e| g.cost(e) == cost[i * m + g.col(e)]));
            for j in 0..m {
                let r = cost[i * m + j] - root.row[i] - root.col[j];
                let wanted = cost[i * m + j].is_finite() && r <= limit;
                assert_eq!(
                    row.iter().any(|&e| g.col(e) == j),
                    wanted,
                    "edge ({i}, {j})"
                );
                kept += usize::from(wanted);
            }
            // The assignment's own edges are tight: always kept.
            assert!(row.iter().any(|&e| g.col(e) == root.succ[i]));
        }
        assert_eq!(g.len(), kept);
        assert!(kept < m * (m - 1), "the limit dropped nothing");
        let all = Reduced::new(m, &cost, &root, f64::INFINITY);
        assert_eq!(all.len(), m * (m - 1) - 1);
    }
}
