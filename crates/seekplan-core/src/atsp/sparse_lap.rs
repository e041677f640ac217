//! The assignment problem on large matrices without storing them: solved on
//! a sparse candidate graph (each row's cheapest columns) by shortest
//! augmenting paths with a heap, then checked against every entry of the
//! full matrix. An entry whose reduced cost is negative joins its row's
//! candidates and the row is solved again, until none is: the result is
//! the optimum of the full problem, certified by its dual potentials, in
//! O(m²) cost reads and O(m·k) memory; fewer reads where the costs lie on
//! a line with a bound by distance ([`OnLine`], see [`super::sparse_reads`]).

use super::lap::{HeapScratch, Matching};
use super::line::OnLine;
use super::sparse_reads::{first_pass, Checker, TopK};
use super::Assignment;
use crate::stop::Stop;

const FREE: usize = usize::MAX;

/// Candidate columns each row starts with, its cheapest: with 12, the
/// first check on LTO-9 batches and seek matrices of 10,000 requests found
/// candidates missing in so many rows that the solve restarted, and four
/// more checks followed; with 32 the sparse assignment of a 10,000-request
/// LTO-9 batch took 4.0 s instead of 6.5 s, PATCH on a gaussian seek
/// matrix 2.2 s instead of 3.4 s (24: 4.4 s and 2.5 s; 48: 4.1 s and
/// 2.3 s, more memory), and seek matrices of 5,000 were no slower.
const INITIAL_CANDIDATES: usize = 32;

/// Candidates a check adds to a row at most, its most negative reduced
/// costs: adding every negative one, the first check on a gaussian seek
/// matrix of 10,001 nodes added 32 million (a third of the matrix) and the
/// solve took 11.4 s; twelve at a time, 3.0 s. A row short again at the
/// next check gets twice as many as the last time, a restart between them
/// or not (back to this many after a check it passes): on 5,000 LTO-9
/// files in sequence (seed 2), where a few rows lack hundreds each, 131
/// rounds became 10 (0.29-0.31 -> 0.25-0.26 s); on 10,000 IBM 3590
/// gaussian files, whose checks find 40 % of the matrix negative, 14
/// restarts became 7 (4.80 -> 4.28 s). The other seek matrices measured
/// and the tours that changed: `benchmarks/RESULTS.md`, twenty-third and
/// twenty-fourth sessions (2026-11-29).
const ADDED_PER_CHECK: usize = 12;

/// A full-matrix check that finds more negative reduced costs than one
/// entry in this many of the matrix starts the solve over from the column
/// minima on the larger candidate sets, rather than re-solving the rows
/// that have them: so many mean potentials far from the optimum's, and
/// rows re-solved one by one then scan for long (a gaussian seek matrix of
/// 10,001 nodes: 156 s -> 12.4 s with restarts). Fewer re-solve just
/// those rows: after the first checks on serpentine drives' seek matrices
/// a fifth to a tenth of the rows are short by a few dozen entries each,
/// and a restart costs a whole solve. The rule this replaced restarted
/// whenever a tenth of the rows were short; the sparse assignment then
/// (2026-11-29): 5,000 DLT4000 gaussian files 2.23 -> 1.26-1.39 s, MLR1
/// ones 1.22 -> 0.92 s. One in 16 took 1.22-1.24 s and 0.88 s, but on
/// 10,000 LTO-9 files in sequence its first check found 2.7 % of the
/// matrix negative in 30 % of the rows, and re-solving them took 2.1 s
/// against 0.7-0.8 s restarting (`benchmarks/RESULTS.md`).
const RESTART_DENSITY: usize = 64;

/// What each negative reduced cost a check finds counts against a work
/// budget, in edges scanned (a check keeps at most [`ADDED_PER_CHECK`] of
/// a row's): many of them mean potentials far from the optimum's, and
/// rounds of checks ahead. Counting only the ones kept, the solve ran on
/// where it had given up before: 12,000 Ampex DST310 requests 1.7 -> 24 s
/// (for a 1.4 % cheaper tour), 6,000 DLT4000 ones 0.8 -> 2.8 s.
const STORE_WEIGHT: usize = 64;

/// Free columns a row whose augmenting path found none gets as candidates,
/// those of least reduced cost, before it gets its whole row: on the seek
/// matrix of 5,000 MLR1 files 995 rows' paths failed, and with their
/// whole rows as candidates every later path that reached one of them
/// scanned all 5,000 of its columns (the sparse assignment 2.79 s, with
/// 16 free columns instead 1.73 s; LTO-9 seek matrices of 5,000, where
/// few paths fail, 0.34-0.39 s either way; 2026-11-28).
const FREE_COLUMNS_ADDED: usize = 16;

/// Reduced costs down to this (relative to the largest cost) count as zero.
const REL_EPS: f64 = 1e-12;

/// The costs [`sparse_assignment`] reads: single entries, and whole rows
/// for its passes over every entry. Any `Fn(row, column) -> f64` is one,
/// reading a row entry by entry; a stored matrix reads it as one slice.
pub trait Costs {
    /// The cost of row `i`, column `j`.
    fn cost(&self, i: usize, j: usize) -> f64;

    /// Row `i`'s costs into `out`, one per column (the diagonal entry is
    /// left as it was): the same values as [`Costs::cost`].
    fn row(&self, i: usize, out: &mut [f64]) {
        for (j, o) in out.iter_mut().enumerate() {
            if j != i {
                *o = self.cost(i, j);
            }
        }
    }

    /// Where the rows and columns lie on a line with a lower bound by
    /// distance: the solver then reads only the entries that bound cannot
    /// rule out (`None`: it reads every entry in each pass).
    fn on_line(&self) -> Option<&OnLine<'_>> {
        None
    }
}

impl<F: Fn(usize, usize) -> f64> Costs for F {
    fn cost(&self, i: usize, j: usize) -> f64 {
        self(i, j)
    }
}

struct Solver {
    /// Each row's candidate columns and their costs.
    adj: Vec<Vec<(usize, f64)>>,
    m: Matching,
    scratch: HeapScratch,
    /// Candidate edges the augmenting paths have scanned so far, and how
    /// many they may scan before the solver gives up.
    work: usize,
    budget: usize,
    /// When the caller stops waiting, if ever.
    stop: Stop,
}

impl Solver {
    /// Whether the augmenting paths and the candidates added have used up
    /// the work budget, or the caller's stop is reached.
    fn exhausted(&self) -> bool {
        self.work > self.budget || self.stop.reached()
    }

    /// Counts `entries` negative reduced costs found (or candidate edges
    /// given to a row) against the work budget.
    fn store(&mut self, entries: usize) {
        self.work = self
            .work
            .saturating_add(entries.saturating_mul(STORE_WEIGHT));
    }

    /// Assigns the free row `start` along a shortest augmenting path over
    /// the candidate edges; false when none exists or the work budget ran
    /// out on the way.
    fn augment(&mut self, start: usize) -> bool {
        let (adj, work, budget) = (&self.adj, &mut self.work, self.budget);
        let edges = |i: usize| {
            *work += adj[i].len();
            (*work <= budget).then(|| adj[i].iter().copied())
        };
        self.m
            .augment_sparse(start, edges, &mut self.scratch, f64::INFINITY)
            .is_ok()
    }
}

/// Row `i`'s [`FREE_COLUMNS_ADDED`] finite entries in free columns that
/// are not its candidates yet, those of least reduced cost, as (column,
/// cost) pairs.
fn cheapest_free_columns(s: &Solver, i: usize, cost: &impl Costs) -> Vec<(usize, f64)> {
    let m = s.m.v.len();
    let mut top = TopK::new(FREE_COLUMNS_ADDED, i);
    for f in (0..m).filter(|&f| f != i && s.m.col_row[f] == FREE) {
        let c = cost.cost(i, f);
        if c.is_finite() && !s.adj[i].iter().any(|e| e.0 == f) {
            top.offer(f, c - s.m.v[f]);
        }
    }
    top.into_vec()
        .into_iter()
        .map(|(f, _)| (f, cost.cost(i, f)))
        .collect()
}

/// Every finite (column, cost) pair of row `i` (diagonal excluded).
fn whole_row(m: usize, i: usize, cost: &impl Costs) -> Vec<(usize, f64)> {
    (0..m)
        .filter(|&j| j != i)
        .map(|j| (j, cost.cost(i, j)))
        .filter(|e| e.1.is_finite())
        .collect()
}

/// Solves the assignment problem over `m` rows and columns with costs
/// `cost.cost(i, j)` (the diagonal is excluded; infinite entries are forbidden)
/// reading each entry a few times and storing O(m) of them. Returns `None`
/// when a row finds no augmenting path even with all its finite entries
/// as candidates (no assignment of finite entries exists, or one needs
/// other rows' far-from-cheapest entries: callers then do without it).
pub fn sparse_assignment(m: usize, cost: impl Costs) -> Option<Assignment> {
    sparse_assignment_within(m, cost, usize::MAX, &Stop::never())
}

/// [`sparse_assignment`], giving up (`None`) once `stop` is reached
/// (checked row by row: a caller's time limit or cancel), or once its augmenting paths have
/// scanned more than `budget` candidate edges (each candidate it adds to a
/// row counting as [`STORE_WEIGHT`] scans). On most costs they scan a
/// few hundred a row; on one-dimensional seek models (helical drives, and
/// serpentine ones at 10,000 requests and more), where many rows want the
/// same few cheap columns along the tape, paths run long and the work grows
/// with the square of the rows (23 billion edges at 5,000 requests on the
/// Ampex DST310): a caller that only wants a seed does better without it.
pub fn sparse_assignment_within(
    m: usize,
    cost: impl Costs,
    budget: usize,
    stop: &Stop,
) -> Option<Assignment> {
    if m < 2 {
        return None;
    }
    // One pass over the matrix: each row's cheapest columns, and each
    // column's least cost, the column potential JV's column reduction
    // starts from (dual feasible for every entry).
    let (adj, v) = first_pass(m, &cost, INITIAL_CANDIDATES, stop)?;
    if v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let scale = adj
        .iter()
        .flatten()
        .map(|e| e.1.abs())
        .fold(1.0_f64, f64::max);
    let mut s = Solver {
        adj,
        m: Matching {
            u: vec![0.0; m],
            v,
            row_col: vec![FREE; m],
            col_row: vec![FREE; m],
        },
        scratch: HeapScratch::new(m),
        work: 0,
        budget,
        stop: stop.clone(),
    };
    let column_minima = s.m.v.clone();
    let mut free = initial_matching(&mut s, &column_minima)?;
    let mut slack = Slack::new(m);
    let mut checker = Checker::new(m, &cost);
    // What the next check may add to each row (see `ADDED_PER_CHECK`).
    let mut to_add_by_row = vec![ADDED_PER_CHECK; m];
    loop {
        for &i in &free {
            if stop.reached() {
                return None;
            }
            if !s.augment(i) {
                if s.exhausted() {
                    return None;
                }
                // The candidates reach no free column: give this row the
                // free columns of least reduced cost, then, if that fails
                // too, all of its finite columns, and start it again.
                s.store(m);
                if s.exhausted() {
                    return None;
                }
                let free_columns = cheapest_free_columns(&s, i, &cost);
                s.adj[i].extend(free_columns);
                s.m.u[i] = lowest_reduced(&s, i);
                if s.augment(i) {
                    continue;
                }
                if s.exhausted() {
                    return None;
                }
                s.adj[i] = whole_row(m, i, &cost);
                s.m.u[i] = lowest_reduced(&s, i);
                if !s.augment(i) {
                    let reached = open_free_columns(&mut s, &cost) && s.augment(i);
                    if !reached || s.exhausted() {
                        return None;
                    }
                }
            }
        }
        // Every entry of the full matrix must have a non-negative reduced
        // cost; rows with one that has not get their most negative ones as
        // candidates, their potential lowered to keep the others feasible,
        // and are solved again (or, where the check found very many, every
        // row is: see `RESTART_DENSITY`). A row whose least reduced cost
        // off its candidates, less the rise of its potential since, is
        // still non-negative is not read again (see `Slack`).
        free.clear();
        let mut negatives = 0usize;
        checker.begin(&s.m.v);
        for (i, to_add) in to_add_by_row.iter_mut().enumerate() {
            if slack.holds(i, s.m.u[i], -REL_EPS * scale) {
                debug_assert!(
                    (0..m).filter(|&j| j != i).all(|j| {
                        let c = cost.cost(i, j);
                        !c.is_finite() || c - s.m.u[i] - s.m.v[j] >= -REL_EPS * scale
                    }),
                    "row {i} was skipped with a negative reduced cost"
                );
                continue;
            }
            let check = checker.check(i, s.m.u[i], &s.m.v, &s.adj[i], *to_add, REL_EPS * scale);
            slack.record(i, s.m.u[i], check.least_other);
            negatives += check.negative;
            s.store(check.negative);
            let added = !check.violated.is_empty();
            *to_add = if added {
                (2 * *to_add).min(m)
            } else {
                ADDED_PER_CHECK
            };
            s.adj[i].extend(check.violated);
            if added {
                s.m.u[i] = lowest_reduced(&s, i);
                let j = s.m.row_col[i];
                s.m.col_row[j] = FREE;
                s.m.row_col[i] = FREE;
                free.push(i);
            }
            // A pass may find a large share of the matrix below the
            // potentials (half of it on LTO-9 at 16,000 requests, 1.6 GB):
            // stop adding once the budget is used up.
            if s.exhausted() {
                return None;
            }
        }
        if negatives.saturating_mul(RESTART_DENSITY) > m * m {
            free = initial_matching(&mut s, &column_minima)?;
            slack.forget();
            continue;
        }
        if free.is_empty() {
            break;
        }
    }
    debug_assert!(
        (0..m).all(|i| {
            let j = s.m.row_col[i];
            (cost.cost(i, j) - s.m.u[i] - s.m.v[j]).abs() <= 1e-9 * scale
        }),
        "an assigned edge is not tight"
    );
    let total = (0..m).map(|i| cost.cost(i, s.m.row_col[i])).sum();
    Some(Assignment {
        succ: s.m.row_col,
        total,
        row: s.m.u,
        col: s.m.v,
    })
}

/// What the last full-matrix check saw of each row: the least reduced cost
/// off the row's candidates and the row's potential then. Between checks
/// the solver only lowers column potentials (an augmenting path lowers
/// those of the columns it settles) and moves row potentials, so a reduced
/// cost off the candidates has fallen by at most the rise of its row's
/// potential; only a restart, which resets the columns' potentials, makes
/// every row be read again ([`Slack::forget`]). On a 10,000-request LTO-9
/// batch, whose costs are timed on demand, each full check took 1.9 s and
/// the solve needed five.
struct Slack {
    least: Vec<f64>,
    potential: Vec<f64>,
}

impl Slack {
    fn new(m: usize) -> Self {
        Slack {
            least: vec![f64::NEG_INFINITY; m],
            potential: vec![0.0; m],
        }
    }

    /// Whether row `i`, now at potential `u`, can have no reduced cost off
    /// its candidates below `floor`.
    fn holds(&self, i: usize, u: f64, floor: f64) -> bool {
        self.least[i] - (u - self.potential[i]) >= floor
    }

    fn record(&mut self, i: usize, u: f64, least: f64) {
        self.least[i] = least;
        self.potential[i] = u;
    }

    fn forget(&mut self) {
        self.least.fill(f64::NEG_INFINITY);
    }
}

/// Sets the potentials from the columns' least costs and the rows'
/// candidates, and gives each row whose tight candidate column is still
/// free that column; returns the rows left to assign by augmenting paths
/// (`None` when a row has no finite candidate).
fn initial_matching(s: &mut Solver, column_minima: &[f64]) -> Option<Vec<usize>> {
    let m = column_minima.len();
    s.m.v.copy_from_slice(column_minima);
    s.m.row_col.fill(FREE);
    s.m.col_row.fill(FREE);
    // Row potentials: the least reduced cost over the row's candidates.
    for i in 0..m {
        s.m.u[i] = lowest_reduced(s, i);
        if !s.m.u[i].is_finite() {
            return None;
        }
    }
    let mut free = Vec::new();
    for i in 0..m {
        let &(j, _) = s.adj[i]
            .iter()
            .min_by(|a, b| (a.1 - s.m.v[a.0]).total_cmp(&(b.1 - s.m.v[b.0])))
            .expect("a finite candidate");
        if s.m.col_row[j] == FREE {
            s.m.col_row[j] = i;
            s.m.row_col[i] = j;
        } else {
            free.push(i);
        }
    }
    Some(free)
}

/// Gives every row its entries in each free column, which no candidate may
/// reach (on ties every row can keep the same cheapest columns), lowering
/// the column's potential so that they stay dual feasible: a free column has
/// no matched edge to keep tight. False when no column is free or no entry
/// was added; stops adding once the work budget is used up.
fn open_free_columns(s: &mut Solver, cost: &impl Costs) -> bool {
    let m = s.m.v.len();
    let mut added = false;
    let free: Vec<usize> = (0..m).filter(|&f| s.m.col_row[f] == FREE).collect();
    for f in free {
        if s.exhausted() {
            break;
        }
        for r in (0..m).filter(|&r| r != f) {
            let c = cost.cost(r, f);
            if c.is_finite() && !s.adj[r].iter().any(|&(j, _)| j == f) {
                s.adj[r].push((f, c));
                s.store(1);
                s.m.v[f] = s.m.v[f].min(c - s.m.u[r]);
                added = true;
            }
        }
    }
    added
}

/// The largest potential row `i` can take with its candidates' reduced
/// costs non-negative.
fn lowest_reduced(s: &Solver, i: usize) -> f64 {
    s.adj[i]
        .iter()
        .map(|&(j, c)| c - s.m.v[j])
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsp::assignment;
    use crate::atsp::test_costs::seek_like;
    use proptest::prelude::*;
    use std::time::Instant;

    proptest! {
        #[test]
        fn equals_the_dense_solver(
            m in 2usize..120,
            raw in proptest::collection::vec(0u32..1000, 120 * 120),
            modulus in 1u32..1000,
        ) {
            let cost = |i: usize, j: usize| {
                if i == j { f64::INFINITY } else { f64::from(raw[i * 120 + j] % modulus) }
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Seek-like costs (forward along a line is cheap, backward dear):
        /// rows compete for the same cheap columns, the first checks find
        /// missing candidates and later ones may skip rows (`Slack`).
        #[test]
        fn equals_the_dense_solver_on_seek_like_costs(
            m in 100usize..400,
            seed in any::<u64>(),
        ) {
            let dense = seek_like(m, seed);
            let cost = |i: usize, j: usize| dense[i * m + j];
            let want = assignment(m, &dense).total;
            let got = sparse_assignment(m, cost).expect("feasible");
            prop_assert!((got.total - want).abs() < 1e-6 * want.max(1.0), "{} vs {}", got.total, want);
        }
    }

    #[test]
    fn a_work_budget_gives_up_on_long_paths_and_changes_nothing_else() {
        // One-dimensional costs (distance along a line, dearer backwards):
        // rows compete for their neighbours' columns, so augmenting paths
        // run along the line.
        let m = 300;
        let cost = |i: usize, j: usize| {
            let d = j as f64 - i as f64;
            if i == j {
                f64::INFINITY
            } else if d > 0.0 {
                d
            } else {
                3.0 * -d
            }
        };
        let full = sparse_assignment(m, cost).expect("feasible");
        let dense: Vec<f64> = (0..m * m).map(|k| cost(k / m, k % m)).collect();
        assert!((full.total - assignment(m, &dense).total).abs() < 1e-9);
        let roomy =
            sparse_assignment_within(m, cost, usize::MAX / 2, &Stop::never()).expect("within");
        assert_eq!(roomy.succ, full.succ);
        assert_eq!(roomy.total, full.total);
        assert!(sparse_assignment_within(m, cost, m, &Stop::never()).is_none());
        let passed = &Stop::at(Some(Instant::now()));
        assert!(sparse_assignment_within(m, cost, usize::MAX, passed).is_none());
    }

    #[test]
    fn a_free_column_no_row_keeps_as_a_candidate_is_still_reached() {
        // All costs tie: every row keeps the same first columns, so the
        // last is in nobody's candidates, even the last row's whole row
        // (its own column is the diagonal).
        let m = INITIAL_CANDIDATES + 2;
        let got = sparse_assignment(m, |i, j| if i == j { f64::INFINITY } else { 0.0 });
        let got = got.expect("an assignment exists");
        let mut cols = got.succ.clone();
        cols.sort_unstable();
        assert_eq!(cols, (0..m).collect::<Vec<_>>());
        assert_eq!(got.total, 0.0);
    }

    #[test]
    fn a_matrix_whose_cheap_columns_collide_is_still_solved() {
        // Every row's cheapest columns are the same few: the candidate
        // graph has no perfect assignment, the fallback and check repair it.
        let m = INITIAL_CANDIDATES + 28;
        let cost = |i: usize, j: usize| {
            if i == j {
                f64::INFINITY
            } else if j <= INITIAL_CANDIDATES {
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
