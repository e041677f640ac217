//! Branch and bound over assignment relaxations for the asymmetric TSP, the
//! method that finds the best tours on random and near-random asymmetric
//! costs in Johnson et al.'s comparison ("Experimental analysis of
//! heuristics for the ATSP", 2002, Zhang's algorithm).
//!
//! A node's relaxation is the assignment problem with some edges forced in
//! and some forbidden; its optimum is a lower bound on every tour the node
//! holds. When it is one cycle, it is the node's best tour. Otherwise the
//! node branches on the subtour with the fewest free edges e₁ … e_k
//! (Carpaneto & Toth 1980): child r forbids e_r and forces e₁ … e_{r−1}, so
//! the children split the node's tours without overlap. Each child is
//! re-optimised from its parent's assignment by one shortest augmenting
//! path (O(m²), usually far less), children are searched depth first in
//! order of their bound (Zhang 1993), and every node's assignment is
//! patched into a tour (Karp) for the incumbent. Nodes whose bound reaches
//! the incumbent are pruned, or whose bound plus what joining their cycles
//! costs at least does (additive bounding, see [`Searcher::joins`]), and so
//! is every edge whose reduced cost at the root exceeds the incumbent's
//! excess over the root bound (reduced-cost fixing, see [`super::reduced`]):
//! where the bound is tight the children read a sparse graph
//! ([`super::relaxation`]).
//!
//! The search is truncated by a work budget (matrix entries read); when it
//! ends before the budget, the incumbent is proven optimal.

use super::arborescence::{cycle_of, Joins};
use super::lap::Matching;
use super::relaxation::{relaxation, Relaxation};
use super::{assignment, patch, Assignment};
use crate::stop::Stop;

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The best tour found, as each node's successor.
    pub succ: Vec<usize>,
    /// Its cost.
    pub cost: f64,
    /// A lower bound on every tour: the optimum when `optimal`, the root
    /// assignment's value otherwise.
    pub bound: f64,
    /// Whether the search finished, which proves `succ` optimal.
    pub optimal: bool,
    /// Relaxations solved (the root counts as one).
    pub nodes: usize,
}

/// Limits of a search.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Cost scans allowed, in matrix entries read: a child's
    /// re-optimisation reads one row of m entries per step of its
    /// shortest path (over a sparse graph, what its edges cost, see
    /// [`super::relaxation`]).
    pub scans: f64,
    /// The search also stops once it has read more entries since its last
    /// better tour than before it, and at least this many: where the
    /// bound is weak (costs with structure, like a tape's) nothing is
    /// pruned and a long search finds nothing. Infinite: a search for a
    /// proof, which on up to 501 nodes also prunes a node by what joining
    /// its assignment's cycles costs at least (additive bounding).
    pub patience: f64,
    /// A wall-clock limit or a caller's cancel, if any (a limit makes the
    /// result machine-dependent).
    pub stop: Stop,
}

struct Searcher<'c> {
    m: usize,
    /// The original costs (diagonal infinite): what tours are worth.
    cost: &'c [f64],
    /// The branch's constraints and the children's re-assignment.
    relaxation: Box<dyn Relaxation>,
    /// The root assignment's value, which the graph's reduced costs add to.
    root_value: f64,
    /// Slack added to the fixing limit for rounding.
    tolerance: f64,
    best: Vec<usize>,
    best_cost: f64,
    scan_limit: f64,
    patience: f64,
    /// Work done in all, and when the incumbent last improved.
    scanned: f64,
    scanned_at_best: f64,
    stop: Stop,
    truncated: bool,
    nodes: usize,
    depth: usize,
    /// Whether nodes are pruned by [`Searcher::joins`] too.
    additive: bool,
}

/// Largest problem (nodes) whose search without its own budget (a proof a
/// caller's time limit pays for) also bounds each node by what joining its
/// cycles costs ([`Searcher::joins`]). A budgeted search does not: its
/// patience counts the matrix entries read, and the bound's reads leave it
/// fewer nodes. In `best`'s default search the bound took the seek matrices
/// of `bench_seek_sweep.py` (six drives, three patterns, seeds 1-3) from
/// 1.52 to 1.31 s of CPU at 100 files and from 5.16 to 4.28 s at 316, with
/// the same totals and proofs, but DIMACS crane at 100 nodes (instance 2)
/// from 0.43 to 0.55-0.60 s and shop at 316 from 0.25 to 0.29 s, the same
/// tours; at 1,000 files it pruned 2-17 % of the nodes it was tried on and
/// cost 10-13 % more CPU (3.85 -> 4.3 s). A time limit's proofs were
/// measured at 100 files (faster, see [`Searcher::joins`]) and 316 (the
/// same); above 500 nodes they were not (2026-11-29).
const JOINS_LIMIT: usize = 501;

/// Deepest branch searched: each level is a stack frame, and a branch this
/// deep means the bound is not closing in; the search stops as truncated.
const MAX_DEPTH: usize = 2_000;

/// Two costs closer than this (relative) are equal: float sums of the same
/// edges in another order differ in the last bits.
const REL_EPS: f64 = 1e-12;

/// Rounding room (relative) of [`Searcher::headroom`]: far above what
/// summing the same edges in another order changes, far below any gap
/// between tours.
const HEADROOM_EPS: f64 = 1e-9;

impl Searcher<'_> {
    fn tour_cost(&self, succ: &[usize]) -> f64 {
        (0..self.m).map(|i| self.cost[i * self.m + succ[i]]).sum()
    }

    fn improves(&self, value: f64) -> bool {
        !self.best_cost.is_finite()
            || value < self.best_cost - REL_EPS * self.best_cost.abs().max(1.0)
    }

    /// Makes `succ` (worth `value`) the incumbent.
    fn adopt(&mut self, succ: Vec<usize>, value: f64) {
        self.best = succ;
        self.best_cost = value;
        self.scanned_at_best = self.scanned;
    }

    fn out_of_budget(&mut self) -> bool {
        let stalled = self.scanned - self.scanned_at_best > self.scanned_at_best.max(self.patience);
        if self.scanned >= self.scan_limit || stalled || self.stop.reached() {
            self.truncated = true;
        }
        self.truncated
    }

    /// How much a child of a node worth `value` may add to it and still
    /// be worth searching: up to the incumbent's value, with room for the
    /// rounding of sums taken in another order (a child just under the
    /// incumbent is then re-assigned and rejected by [`Self::improves`]).
    /// Its shortest path stops there rather than at the free column, and
    /// the work counted is what it read: on seek matrices of 1,000 files
    /// the IBM 3590 and LTO-10 gaussian batches (seed 1) that gave up
    /// after 0.15-0.2 s are now proved optimal in 0.04-0.05 s.
    fn headroom(&self, value: f64) -> f64 {
        self.best_cost - value + HEADROOM_EPS * self.best_cost.abs().max(1.0)
    }

    /// The reduced cost an edge may have and still be in a tour cheaper
    /// than the incumbent.
    fn limit(&self) -> f64 {
        self.best_cost - self.root_value + self.tolerance
    }

    /// What any tour the branch allows that is cheaper than the incumbent
    /// adds at least to the value of its assignment `node`, whose `cycles`
    /// are more than one (Fischetti & Toth's additive bounding, 1992): the
    /// tour costs the assignment's value plus its edges' reduced costs, all
    /// non-negative, and it leaves and enters every cycle. So it pays at
    /// least, for each cycle, the least reduced cost of an edge out of it
    /// (or into it), and, with each cycle taken as one node, the cheapest
    /// arborescence out of (or into) the largest: the most of the four
    /// (infinite where a cycle cannot be reached). A node is pruned where
    /// this meets the incumbent to within the rounding
    /// [`Searcher::improves`] allows, as a child's value is. Every edge
    /// between cycles has an end outside the largest, so the sparse form
    /// reads only those nodes' rows and columns. On the 27 LTO-9, LTO-10
    /// and IBM 3590 seek matrices of 100 files (`seek_matrices.py`, seeds
    /// 1-3), searched without a budget from the root's patched tour for at
    /// most 3 s, the cycles' edges alone proved 23 instead of 21 in 19.0 s
    /// instead of 24.5 s (LTO-9 half seed 1 in 0.17 s instead of 1.0 s, IBM
    /// 3590 uniform seed 1 in 0.005 s instead of none, LTO-10 gaussian seed
    /// 2 in 0.89 s instead of 0.47 s); the arborescences then took LTO-9
    /// uniform seed 1 from 0.65 to 0.073 s, LTO-10 uniform seed 1 from 2.9
    /// to 1.1 s and LTO-10 gaussian seed 2 from 0.85 to 0.43 s, the same 23
    /// proven (2026-11-29, scratch tests beside the builds before them).
    fn joins(&mut self, node: &Matching, cycles: &[Vec<usize>]) -> f64 {
        if !self.best_cost.is_finite() {
            return 0.0;
        }
        let of = cycle_of(self.m, cycles);
        let largest = (0..cycles.len())
            .max_by_key(|&k| cycles[k].len())
            .expect("more than one cycle");
        let nodes: Vec<usize> = (0..cycles.len())
            .filter(|&k| k != largest)
            .flat_map(|k| cycles[k].iter().copied())
            .collect();
        let mut joins = Joins::new(cycles.len());
        self.scanned += self
            .relaxation
            .crossing(node, &nodes, &of, self.limit(), &mut joins);
        joins.least(largest)
    }

    /// Searches the node whose optimal assignment is `node` (value `value`)
    /// under the constraints in force.
    fn explore(&mut self, node: &Matching, value: f64) {
        let cycles = super::cycles(&node.row_col);
        if cycles.len() == 1 {
            if self.improves(value) {
                self.adopt(node.row_col.clone(), value);
            }
            return;
        }
        let mut tour = node.row_col.clone();
        let (work, patched) = self
            .relaxation
            .patch(&mut tour, &cycles, self.cost, self.limit());
        self.scanned += work;
        if patched {
            let value = self.tour_cost(&tour);
            if self.improves(value) {
                self.adopt(tour, value);
            }
        }
        if self.additive {
            let joins = self.joins(node, &cycles);
            if !self.improves(value + joins) {
                return;
            }
        }
        // The subtour with the fewest free edges (ties: the first found).
        let limit = self.limit();
        let edges = cycles
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&i| (i, node.row_col[i]))
                    .filter(|&(i, j)| !self.relaxation.forced(i, j, limit))
                    .collect::<Vec<_>>()
            })
            .min_by_key(Vec::len)
            .expect("more than one cycle");
        // Child r = the node's constraints, e₁ … e_{r−1} forced, e_r
        // forbidden: built up one edge at a time.
        let mark = self.relaxation.mark();
        let mut children: Vec<(f64, usize, Matching)> = Vec::with_capacity(edges.len());
        for (r, &edge) in edges.iter().enumerate() {
            if self.out_of_budget() {
                break;
            }
            let before = self.relaxation.mark();
            self.relaxation.forbid(edge);
            let mut child = node.clone();
            child.free_row(edge.0);
            let (work, found) =
                self.relaxation
                    .reassign(&mut child, edge.0, self.limit(), self.headroom(value));
            self.scanned += work;
            self.nodes += 1;
            self.relaxation.undo(before);
            self.relaxation.force(edge);
            if found {
                let v = self.tour_cost(&child.row_col);
                if self.improves(v) {
                    children.push((v, r, child));
                }
            }
        }
        self.relaxation.undo(mark);
        children.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (v, r, child) in children {
            if !self.improves(v) {
                continue;
            }
            if self.out_of_budget() {
                return;
            }
            if self.depth >= MAX_DEPTH {
                self.truncated = true;
                return;
            }
            self.relaxation.child(&edges, r);
            self.depth += 1;
            self.explore(&child, v);
            self.depth -= 1;
            self.relaxation.undo(mark);
        }
    }
}

/// Searches for the cheapest tour through all `m` nodes of the row-major
/// `cost` (the diagonal is ignored; infinite entries are forbidden edges),
/// starting from the incumbent tour `start` (successor array) when given.
/// Panics if the costs admit no assignment without the diagonal.
pub fn branch_and_bound(m: usize, cost: &[f64], start: Option<&[usize]>, budget: Budget) -> Search {
    branch_and_bound_from(m, cost, start, None, budget)
}

/// [`branch_and_bound`] with the root's optimal assignment `root` already
/// solved on the same costs (a caller's lower bound): used when its
/// potentials prove it optimal on `cost` (every reduced cost non-negative,
/// the assigned ones zero, to a billionth of the largest cost), solved
/// again otherwise. On 1,000-node seek matrices reusing it took 40-50 ms
/// off proofs of 0.08-0.19 s.
pub fn branch_and_bound_from(
    m: usize,
    cost: &[f64],
    start: Option<&[usize]>,
    root: Option<&Assignment>,
    budget: Budget,
) -> Search {
    assert_eq!(cost.len(), m * m, "cost is not m x m");
    if m < 2 {
        return Search {
            succ: (0..m).collect(),
            cost: 0.0,
            bound: 0.0,
            optimal: true,
            nodes: 0,
        };
    }
    let mut c = cost.to_vec();
    for i in 0..m {
        c[i * m + i] = f64::INFINITY;
    }
    let root = match root.filter(|r| proves_optimal(r, m, &c)) {
        Some(r) => r.clone(),
        None => assignment(m, &c),
    };
    let tour_cost = |succ: &[usize]| (0..m).map(|i| c[i * m + succ[i]]).sum::<f64>();
    // Each step at the root reads the whole matrix (0.1-0.2 s together at
    // 3,000 nodes): once the caller's stop is reached the search ends on
    // the tour it has.
    let expired = || budget.stop.reached();
    let truncated = |succ: Vec<usize>| Search {
        cost: tour_cost(&succ),
        succ,
        bound: root.total,
        optimal: false,
        nodes: 1,
    };
    if let Some(tour) = start.filter(|_| expired()) {
        return truncated(tour.to_vec());
    }
    // The incumbent: the caller's tour or the root's patched one, whichever
    // is cheaper; it sets which edges the search keeps.
    let mut best = root.succ.clone();
    patch(&mut best, |i, j| c[i * m + j]);
    if let Some(tour) = start.filter(|t| tour_cost(t) <= tour_cost(&best)) {
        best = tour.to_vec();
    }
    if expired() {
        return truncated(best);
    }
    let best_cost = tour_cost(&best);
    // Reduced costs and tour sums carry rounding: fixing keeps edges a
    // billionth of the larger cost beyond the limit.
    let tolerance = 1e-9 * largest_finite(&c).max(best_cost.abs());
    let additive = m <= JOINS_LIMIT && budget.patience.is_infinite();
    let limit = best_cost - root.total + tolerance;
    let relaxation = relaxation(m, &c, &root, limit, additive);
    let matching = Matching::of(&root);
    let mut s = Searcher {
        m,
        cost: &c,
        relaxation,
        root_value: root.total,
        tolerance,
        best,
        best_cost,
        scan_limit: budget.scans,
        patience: budget.patience,
        scanned: 0.0,
        scanned_at_best: 0.0,
        stop: budget.stop.clone(),
        truncated: false,
        nodes: 1,
        depth: 0,
        additive,
    };
    s.explore(&matching, root.total);
    let optimal = !s.truncated;
    Search {
        bound: if optimal { s.best_cost } else { root.total },
        cost: s.best_cost,
        succ: s.best,
        optimal,
        nodes: s.nodes,
    }
}

/// The largest finite |cost| in `c`, at least 1.
fn largest_finite(c: &[f64]) -> f64 {
    c.iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold(1.0, |s: f64, x| s.max(x.abs()))
}

/// Whether `a`'s potentials prove it an optimal assignment of the m x m
/// row-major `c` (infinite entries forbidden).
fn proves_optimal(a: &Assignment, m: usize, c: &[f64]) -> bool {
    let tol = 1e-9 * largest_finite(c);
    let mut taken = vec![false; m];
    a.succ.len() == m
        && a.row.len() == m
        && a.col.len() == m
        && a.succ
            .iter()
            .all(|&j| j < m && !std::mem::replace(&mut taken[j], true))
        && (0..m).all(|i| {
            let row = &c[i * m..(i + 1) * m];
            let j = a.succ[i];
            (row[j] - a.row[i] - a.col[j]).abs() <= tol
                && row
                    .iter()
                    .zip(&a.col)
                    .all(|(&x, &v)| !x.is_finite() || x - a.row[i] - v >= -tol)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsp::cycles;
    use crate::atsp::test_costs::{exact, modular, rings, seek_on_a_loop};
    use proptest::prelude::*;

    fn unlimited() -> Budget {
        Budget {
            scans: f64::INFINITY,
            patience: f64::INFINITY,
            stop: Stop::never(),
        }
    }

    #[test]
    fn a_root_solved_elsewhere_is_used_only_where_its_potentials_prove_it() {
        let m = 30;
        let c = modular(m, 997, 0);
        let root = assignment(m, &c);
        assert!(proves_optimal(&root, m, &c));
        let mut swapped = root.clone();
        swapped.succ.swap(0, 1);
        assert!(!proves_optimal(&swapped, m, &c));
        let mut raised = root.clone();
        raised.col[3] += 50.0;
        assert!(!proves_optimal(&raised, m, &c));
        let mut repeated = root.clone();
        repeated.succ[1] = repeated.succ[0];
        assert!(!proves_optimal(&repeated, m, &c));
        let alone = branch_and_bound(m, &c, None, unlimited());
        for given in [&root, &swapped, &raised] {
            let from = branch_and_bound_from(m, &c, None, Some(given), unlimited());
            assert!(from.optimal && alone.optimal);
            assert_eq!(from.cost, alone.cost);
        }
    }

    proptest! {
        #[test]
        fn finds_the_optimum_of_seek_costs_on_a_loop(m in 3usize..14, seed in any::<u64>()) {
            // A tight bound: reduced-cost fixing drops most edges and the
            // children are re-assigned over the sparse graph.
            let cost = seek_on_a_loop(m, seed);
            let s = branch_and_bound(m, &cost, None, unlimited());
            prop_assert!(s.optimal);
            let want = exact(m, &cost);
            prop_assert!((s.cost - want).abs() < 1e-6 * want.max(1.0), "{} vs {}", s.cost, want);
            prop_assert_eq!(cycles(&s.succ).len(), 1);
        }

        #[test]
        fn finds_the_optimum_held_karp_finds(
            m in 2usize..9,
            raw in proptest::collection::vec(0u32..1000, 81),
            small in any::<bool>(),
        ) {
            // Small integer costs make ties, the hard case for pruning.
            let cost: Vec<f64> = (0..m * m)
                .map(|k| f64::from(if small { raw[k] % 5 } else { raw[k] }))
                .collect();
            let c = |i: usize, j: usize| cost[i * m + j];
            let exact = exact(m, &cost);
            let s = branch_and_bound(m, &cost, None, unlimited());
            prop_assert!(s.optimal);
            prop_assert!((s.cost - exact).abs() < 1e-9, "{} vs {}", s.cost, exact);
            prop_assert_eq!(cycles(&s.succ).len(), 1);
            let recomputed: f64 = (0..m).map(|i| c(i, s.succ[i])).sum();
            prop_assert!((recomputed - s.cost).abs() < 1e-9);
            prop_assert!((s.bound - s.cost).abs() < 1e-9);
        }

        #[test]
        fn forbidden_edges_still_give_one_finite_tour(
            m in 3usize..80,
            perm_keys in proptest::collection::vec(any::<u32>(), 80),
            extra in proptest::collection::vec((0usize..80, 0usize..80, 1u32..100), 0..160),
            weights in proptest::collection::vec(1u32..100, 80),
        ) {
            // Only one hidden tour's edges and a few others are finite: a
            // budget-limited search must still return one tour, and a
            // finite one (it found a tour of finite edges: patching once
            // left the subtours of a forbidden exchange apart).
            let mut hidden: Vec<usize> = (0..m).collect();
            hidden.sort_by_key(|&v| (perm_keys[v], v));
            let mut cost = vec![f64::INFINITY; m * m];
            for k in 0..m {
                cost[hidden[k] * m + hidden[(k + 1) % m]] = f64::from(weights[k]);
            }
            for &(i, j, w) in &extra {
                if i < m && j < m && i != j {
                    cost[i * m + j] = f64::from(w);
                }
            }
            let budget = Budget { scans: 1e6, patience: 1e6, stop: Stop::never() };
            let s = branch_and_bound(m, &cost, None, budget);
            prop_assert_eq!(cycles(&s.succ).len(), 1);
            prop_assert!(s.cost.is_finite(), "cost {}", s.cost);
        }
    }

    fn spent() -> Budget {
        Budget {
            scans: 0.0,
            patience: 0.0,
            stop: Stop::never(),
        }
    }

    #[test]
    fn the_additive_bound_proves_a_root_without_branching() {
        // Three rings of four nodes, cheap around each ring and dear
        // between them: the assignment is the three rings, and every tour
        // pays for leaving each. With no budget to branch, only the root's
        // patched tour meeting the assignment plus that cost proves it
        // optimal, in a search for a proof; a budgeted search leaves the
        // bound out.
        let m = 12;
        let cost = rings(3, 4);
        assert!(!branch_and_bound(m, &cost, None, spent()).optimal);
        // A search for a proof (no patience) whose budget is spent at once.
        let proof = Budget {
            patience: f64::INFINITY,
            ..spent()
        };
        let s = branch_and_bound(m, &cost, None, proof);
        assert!(s.optimal);
        assert!((s.cost - exact(m, &cost)).abs() < 1e-9);
        assert!(s.cost > assignment(m, &cost).total + 100.0);
    }

    #[test]
    fn a_spent_budget_keeps_the_patched_tour_and_the_root_bound() {
        let m = 30;
        let cost = modular(m, 1000, 0);
        let s = branch_and_bound(m, &cost, None, spent());
        assert!(!s.optimal);
        assert_eq!(cycles(&s.succ).len(), 1);
        assert!(s.bound <= s.cost);
    }
}
