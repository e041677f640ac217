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

use crate::stop::Stop;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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

/// Marks a row or column without a partner.
pub(crate) const FREE: usize = usize::MAX;

/// A partial assignment with feasible dual potentials (u[i] + v[j] <= c(i, j)
/// everywhere, equality on assigned edges): what the shortest-augmenting-path
/// method keeps between steps, and what branch and bound re-optimises after
/// forbidding an edge.
#[derive(Clone, Debug)]
pub(crate) struct Matching {
    /// Row potentials.
    pub(crate) u: Vec<f64>,
    /// Column potentials.
    pub(crate) v: Vec<f64>,
    /// The column of each row, or [`FREE`].
    pub(crate) row_col: Vec<usize>,
    /// The row of each column, or [`FREE`].
    pub(crate) col_row: Vec<usize>,
}

/// Work buffers of [`Matching::augment`], reused between calls.
pub(crate) struct Scratch {
    dist: Vec<f64>,
    way: Vec<usize>,
    done: Vec<bool>,
    touched: Vec<usize>,
}

impl Scratch {
    /// Buffers for an `m`×`m` problem.
    pub(crate) fn new(m: usize) -> Self {
        Scratch {
            dist: vec![0.0; m],
            way: vec![0; m],
            done: vec![false; m],
            touched: Vec::with_capacity(m),
        }
    }
}

/// A float that orders totally, for the heap of [`Matching::augment_sparse`].
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

/// Work buffers of [`Matching::augment_sparse`], reused between calls: a
/// search resets only the columns it touched, so on a sparse graph it
/// costs what it reads, not O(m).
pub(crate) struct HeapScratch {
    dist: Vec<f64>,
    way: Vec<usize>,
    done: Vec<bool>,
    touched: Vec<usize>,
    settled: Vec<usize>,
    heap: BinaryHeap<Reverse<(Key, usize)>>,
}

impl HeapScratch {
    /// Buffers for an `m`×`m` problem.
    pub(crate) fn new(m: usize) -> Self {
        HeapScratch {
            dist: vec![f64::INFINITY; m],
            way: vec![0; m],
            done: vec![false; m],
            touched: Vec::new(),
            settled: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// Forgets the last search.
    fn reset(&mut self) {
        for &j in &self.touched {
            self.dist[j] = f64::INFINITY;
            self.done[j] = false;
        }
        self.touched.clear();
        self.settled.clear();
        self.heap.clear();
    }
}

impl Matching {
    /// Column reduction: v[j] is column j's least cost and its row takes j
    /// if it has no column yet. Panics if a column has no finite cost.
    fn reduced(m: usize, c: impl Fn(usize, usize) -> f64) -> Self {
        let mut v = vec![f64::INFINITY; m];
        let mut arg = vec![0; m];
        for i in 0..m {
            for (j, vj) in v.iter_mut().enumerate() {
                let cij = c(i, j);
                if cij < *vj {
                    *vj = cij;
                    arg[j] = i;
                }
            }
        }
        let mut col_row = vec![FREE; m];
        let mut row_col = vec![FREE; m];
        for j in 0..m {
            assert!(v[j].is_finite(), "column {j} has no finite cost");
            if row_col[arg[j]] == FREE {
                row_col[arg[j]] = j;
                col_row[j] = arg[j];
            }
        }
        Matching {
            u: vec![0.0; m],
            v,
            row_col,
            col_row,
        }
    }

    /// Where column reduction left most rows free (costs that tie: every
    /// column's least cost in the same few rows), gives each free row, in
    /// order, a free column at its least reduced cost where one is, raising
    /// the row's potential to that cost (the duals stay feasible, the
    /// assigned edges tight). Without it each of those rows took a shortest
    /// path through the assigned columns, O(n³) on a matrix of equal costs
    /// (1.2 s at 1,000 nodes, now 0.03 s); O(n²), as the reduction. Where
    /// column reduction matched most rows the pass does nothing: it picks
    /// another optimal assignment among ties, and run on every matrix it
    /// left DIMACS rtilt at 1,000 nodes on a tour 0.19 % longer (taking a
    /// free column among equal distances inside the shortest paths did the
    /// same to rtilt at 316).
    fn match_ties(&mut self, c: impl Fn(usize, usize) -> f64) {
        let m = self.v.len();
        let free = self.row_col.iter().filter(|&&j| j == FREE).count();
        if 2 * free <= m {
            return;
        }
        for i in 0..m {
            if self.row_col[i] != FREE {
                continue;
            }
            let least = (0..m)
                .map(|j| c(i, j) - self.v[j])
                .fold(f64::INFINITY, f64::min);
            let open = (0..m).find(|&j| self.col_row[j] == FREE && c(i, j) - self.v[j] == least);
            if let Some(j) = open.filter(|_| least.is_finite()) {
                self.u[i] = least;
                self.row_col[i] = j;
                self.col_row[j] = i;
            }
        }
    }

    /// The complete matching of an optimal assignment, with its potentials.
    pub(crate) fn of(a: &Assignment) -> Self {
        let mut col_row = vec![FREE; a.succ.len()];
        for (i, &j) in a.succ.iter().enumerate() {
            col_row[j] = i;
        }
        Matching {
            u: a.row.clone(),
            v: a.col.clone(),
            row_col: a.succ.clone(),
            col_row,
        }
    }

    /// Unassigns row `i` (and its column); the duals stay feasible.
    pub(crate) fn free_row(&mut self, i: usize) {
        let j = self.row_col[i];
        if j != FREE {
            self.col_row[j] = FREE;
            self.row_col[i] = FREE;
        }
    }

    /// Assigns the free row `start` along a shortest augmenting path in the
    /// reduced costs of `cost` (row-major m×m; Dijkstra over columns, dense
    /// scans; infinite entries are forbidden), keeping the duals feasible
    /// and the assigned edges tight. Returns the number of rows scanned
    /// (each scan reads m costs), `Ok` once the row is assigned; `Err`,
    /// changing nothing, when no path of finite cost exists or every path
    /// is longer than `within` (the assignment's value would rise by more).
    pub(crate) fn augment(
        &mut self,
        start: usize,
        cost: &[f64],
        s: &mut Scratch,
        within: f64,
    ) -> Result<usize, usize> {
        let m = self.v.len();
        let (u, v) = (&self.u, &self.v[..m]);
        s.dist.fill(f64::INFINITY);
        s.done.fill(false);
        s.touched.clear();
        let mut i = start;
        let mut reached = 0.0;
        loop {
            // Relax every column from row i (reached at distance `reached`).
            let base = reached - u[i];
            let mut best = f64::INFINITY;
            let mut best_j = FREE;
            // Slices of one length, zipped: no bounds check in the scan.
            let row = &cost[i * m..(i + 1) * m];
            let columns = row
                .iter()
                .zip(v)
                .zip(s.dist[..m].iter_mut().zip(&mut s.way[..m]))
                .zip(&s.done[..m]);
            for (j, (((&cij, &vj), (dist, way)), &done)) in columns.enumerate() {
                if done {
                    continue;
                }
                let d = base + cij - vj;
                if d < *dist {
                    *dist = d;
                    *way = i;
                }
                if *dist < best {
                    best = *dist;
                    best_j = j;
                }
            }
            if best_j == FREE || best > within {
                return Err(s.touched.len() + 1);
            }
            s.done[best_j] = true;
            s.touched.push(best_j);
            reached = best;
            if self.col_row[best_j] == FREE {
                break;
            }
            i = self.col_row[best_j];
        }
        self.complete(start, &s.touched, &s.dist, &s.way);
        Ok(s.touched.len())
    }
}

impl Matching {
    /// [`Matching::augment`] over a sparse graph: the edges out of row i
    /// are what `edges(i)` yields, (column, cost) pairs (None: give up,
    /// e.g. on a spent budget), and the next column is taken from a heap.
    /// Returns the edges scanned, `Ok` once the row is assigned; `Err`,
    /// changing nothing, when no path exists, every path is longer than
    /// `within` (the assignment's value would rise by more: the search
    /// stops at the first column beyond it), or `edges` gave up.
    pub(crate) fn augment_sparse<I>(
        &mut self,
        start: usize,
        mut edges: impl FnMut(usize) -> Option<I>,
        s: &mut HeapScratch,
        within: f64,
    ) -> Result<usize, usize>
    where
        I: Iterator<Item = (usize, f64)>,
    {
        s.reset();
        let mut scanned = 0;
        let mut i = start;
        let mut reached = 0.0;
        loop {
            let base = reached - self.u[i];
            let Some(out) = edges(i) else {
                return Err(scanned);
            };
            for (j, c) in out {
                scanned += 1;
                // A settled column is skipped, asked only where the path
                // would improve, which is rare: one random read fewer per
                // edge. The sparse assignment on the DLT4000 seek matrix
                // of 5,000 gaussian files took 0.89-0.95 s asking first,
                // 0.77-0.79 s so; on seek matrices of 5,000 and 10,000
                // files 3-19 % less (24 matrices), within 1 % where the
                // files lie in sequence (8), the same assignments
                // (2026-11-29).
                let d = base + c - self.v[j];
                if d < s.dist[j] && !s.done[j] {
                    if s.dist[j].is_infinite() {
                        s.touched.push(j);
                    }
                    s.dist[j] = d;
                    s.way[j] = i;
                    s.heap.push(Reverse((Key(d), j)));
                }
            }
            let j = loop {
                let Some(Reverse((Key(d), j))) = s.heap.pop() else {
                    return Err(scanned);
                };
                if !s.done[j] && d == s.dist[j] {
                    break j;
                }
            };
            if s.dist[j] > within {
                return Err(scanned);
            }
            s.done[j] = true;
            s.settled.push(j);
            reached = s.dist[j];
            if self.col_row[j] == FREE {
                break;
            }
            i = self.col_row[j];
        }
        self.complete(start, &s.settled, &s.dist, &s.way);
        Ok(scanned)
    }

    /// Ends a shortest augmenting path from the free row `start` whose
    /// columns were settled in order `settled` (the free column reached
    /// last) at distances `dist`, each reached from row `way[j]`: every
    /// column settled before the end moves by its distance short of the
    /// path's length (rows follow their columns), then the path's edges
    /// are assigned. Shared by the dense and the sparse solver.
    pub(crate) fn complete(
        &mut self,
        start: usize,
        settled: &[usize],
        dist: &[f64],
        way: &[usize],
    ) {
        let (&end, before) = settled.split_last().expect("a path reaches a column");
        let reached = dist[end];
        self.u[start] += reached;
        for &j in before {
            let shift = reached - dist[j];
            self.v[j] -= shift;
            self.u[self.col_row[j]] += shift;
        }
        let mut j = end;
        loop {
            let i = way[j];
            let next = self.row_col[i];
            self.col_row[j] = i;
            self.row_col[i] = j;
            if i == start {
                break;
            }
            j = next;
        }
    }
}

/// Solves the assignment problem on the `m`×`m` row-major `cost` (infinite
/// entries are forbidden). Panics unless every row has a finite entry and a
/// perfect assignment of finite entries exists.
pub fn assignment(m: usize, cost: &[f64]) -> Assignment {
    assignment_until(m, cost, &Stop::never()).expect("nothing stops it")
}

/// [`assignment`], giving up (`None`) once `stop` is reached (checked
/// before each row's augmenting path: a caller's time limit or cancel; on 4,000
/// LTO-9 requests `best`'s patching phase, which solves it, took 0.77 s).
pub fn assignment_until(m: usize, cost: &[f64], stop: &Stop) -> Option<Assignment> {
    assert_eq!(cost.len(), m * m, "cost is not m x m");
    let c = |i: usize, j: usize| cost[i * m + j];
    let mut matching = Matching::reduced(m, c);
    matching.match_ties(c);
    let mut scratch = Scratch::new(m);
    for start in 0..m {
        if stop.reached() {
            return None;
        }
        if matching.row_col[start] == FREE {
            assert!(
                matching
                    .augment(start, cost, &mut scratch, f64::INFINITY)
                    .is_ok(),
                "no finite assignment for row {start}"
            );
        }
    }
    let total = (0..m).map(|i| c(i, matching.row_col[i])).sum();
    Some(Assignment {
        succ: matching.row_col,
        total,
        row: matching.u,
        col: matching.v,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::time::Instant;

    /// On equal costs column reduction matches two rows; the tie pass
    /// matches the rest at once, with feasible duals and tight edges, so no
    /// row needs a shortest path (each walked the assigned columns: O(n³)).
    #[test]
    fn ties_left_by_column_reduction_are_matched_at_once() {
        for (m, cost) in [
            (60, vec![7.0; 60 * 60]),
            (50, (0..50 * 50).map(|k| f64::from(k % 3 == 0)).collect()),
        ] {
            let c = |i: usize, j: usize| {
                if i == j {
                    f64::INFINITY
                } else {
                    cost[i * m + j]
                }
            };
            let mut matching = Matching::reduced(m, c);
            let free = |mm: &Matching| mm.row_col.iter().filter(|&&j| j == FREE).count();
            assert!(free(&matching) > m / 2, "column reduction matches few rows");
            matching.match_ties(c);
            assert!(free(&matching) <= 1, "{} rows left", free(&matching));
            for i in 0..m {
                for j in (0..m).filter(|&j| j != i) {
                    assert!(matching.u[i] + matching.v[j] <= c(i, j) + 1e-12);
                }
                let j = matching.row_col[i];
                if j != FREE {
                    assert_eq!(matching.u[i] + matching.v[j], c(i, j));
                }
            }
        }
    }

    #[test]
    fn a_passed_deadline_gives_up_and_none_is_the_assignment() {
        let m = 40;
        let cost: Vec<f64> = (0..m * m).map(|k| ((k * 7919) % 97) as f64).collect();
        assert!(assignment_until(m, &cost, &Stop::at(Some(Instant::now()))).is_none());
        let a = assignment_until(m, &cost, &Stop::never()).expect("nothing stops it");
        assert_eq!(a.succ, assignment(m, &cost).succ);
    }

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
