//! The linear assignment problem, dense, by shortest augmenting paths
//! (Jonker & Volgenant 1987): columns are reduced first, which assigns
//! most rows at once and gives feasible dual potentials; each row left
//! free is then assigned along a shortest augmenting path in the reduced
//! costs (Dijkstra over columns, dense scans), which keeps the duals
//! feasible and the assigned edges tight. O(m³) in the worst case, far
//! less on the matrices ordering meets.
//!
//! For the asymmetric TSP the assignment relaxes "one tour" to "every node
//! has one successor and one predecessor": its optimum is a lower bound on
//! every tour (the diagonal is forbidden with `f64::INFINITY`).

/// An optimal assignment: row i is assigned column `succ[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    /// The column of each row.
    pub succ: Vec<usize>,
    /// Sum of the assigned costs: the least possible.
    pub total: f64,
    /// Row potentials; with `col` they certify optimality: u[i] + v[j] <=
    /// c(i, j) everywhere, with equality on assigned edges.
    pub row: Vec<f64>,
    /// Column potentials.
    pub col: Vec<f64>,
}

const FREE: usize = usize::MAX;

/// Solves the assignment problem on the `m`×`m` row-major `cost` (infinite
/// entries are forbidden). Panics unless every row has a finite entry and a
/// perfect assignment of finite entries exists.
pub fn assignment(m: usize, cost: &[f64]) -> Assignment {
    assert_eq!(cost.len(), m * m, "cost is not m x m");
    let c = |i: usize, j: usize| cost[i * m + j];
    let mut u = vec![0.0; m];
    let mut v = vec![f64::INFINITY; m];
    // Column reduction: v[j] is column j's least cost; its row takes j if
    // it has no column yet.
    let mut col_row = vec![FREE; m];
    let mut row_col = vec![FREE; m];
    let mut arg = vec![0; m];
    for i in 0..m {
        for j in 0..m {
            if c(i, j) < v[j] {
                v[j] = c(i, j);
                arg[j] = i;
            }
        }
    }
    for j in 0..m {
        assert!(v[j].is_finite(), "column {j} has no finite cost");
        if row_col[arg[j]] == FREE {
            row_col[arg[j]] = j;
            col_row[j] = arg[j];
        }
    }
    // Shortest augmenting path from each free row.
    let mut dist = vec![0.0; m];
    let mut way = vec![0usize; m];
    let mut done = vec![false; m];
    let mut touched: Vec<usize> = Vec::with_capacity(m);
    for start in 0..m {
        if row_col[start] != FREE {
            continue;
        }
        dist.fill(f64::INFINITY);
        done.fill(false);
        touched.clear();
        let mut i = start;
        let mut reached = 0.0;
        let end = loop {
            // Relax every column from row i (reached at distance `reached`).
            let base = reached - u[i];
            let mut best = f64::INFINITY;
            let mut best_j = FREE;
            for j in 0..m {
                if done[j] {
                    continue;
                }
                let d = base + c(i, j) - v[j];
                if d < dist[j] {
                    dist[j] = d;
                    way[j] = i;
                }
                if dist[j] < best {
                    best = dist[j];
                    best_j = j;
                }
            }
            assert!(best_j != FREE, "no finite assignment for row {start}");
            done[best_j] = true;
            touched.push(best_j);
            reached = best;
            if col_row[best_j] == FREE {
                break best_j;
            }
            i = col_row[best_j];
        };
        // Dual update: every column settled before the end moves by its
        // distance short of the path's length; rows follow their columns.
        u[start] += reached;
        for &j in &touched[..touched.len() - 1] {
            let shift = reached - dist[j];
            v[j] -= shift;
            u[col_row[j]] += shift;
        }
        // Augment along the path back to `start`.
        let mut j = end;
        loop {
            let i = way[j];
            let next = row_col[i];
            col_row[j] = i;
            row_col[i] = j;
            if i == start {
                break;
            }
            j = next;
        }
    }
    let total = (0..m).map(|i| c(i, row_col[i])).sum();
    Assignment {
        succ: row_col,
        total,
        row: u,
        col: v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(m: usize, cost: &[f64]) -> f64 {
        fn go(i: usize, m: usize, used: &mut [bool], cost: &[f64]) -> f64 {
            if i == m {
                return 0.0;
            }
            let mut best = f64::INFINITY;
            for j in 0..m {
                if !used[j] && cost[i * m + j].is_finite() {
                    used[j] = true;
                    best = best.min(cost[i * m + j] + go(i + 1, m, used, cost));
                    used[j] = false;
                }
            }
            best
        }
        go(0, m, &mut vec![false; m], cost)
    }

    proptest! {
        #[test]
        fn matches_brute_force_and_certifies_itself(
            m in 2usize..8,
            raw in proptest::collection::vec(0u32..1000, 64),
            integral in any::<bool>(),
            no_diagonal in any::<bool>(),
        ) {
            let mut cost: Vec<f64> = (0..m * m)
                .map(|k| if integral { f64::from(raw[k] % 7) } else { f64::from(raw[k]) / 7.0 })
                .collect();
            if no_diagonal {
                for i in 0..m {
                    cost[i * m + i] = f64::INFINITY;
                }
            }
            let a = assignment(m, &cost);
            let mut cols = a.succ.clone();
            cols.sort_unstable();
            prop_assert_eq!(cols, (0..m).collect::<Vec<_>>());
            prop_assert!((a.total - brute(m, &cost)).abs() < 1e-9);
            for i in 0..m {
                for j in 0..m {
                    prop_assert!(a.row[i] + a.col[j] <= cost[i * m + j] + 1e-9);
                }
                prop_assert!((a.row[i] + a.col[a.succ[i]] - cost[i * m + a.succ[i]]).abs() < 1e-9);
            }
        }
    }
}
