//! The constrained assignment relaxations branch and bound re-optimises
//! (see [`super::bnb`]): the edges a branch forces and forbids, and one
//! shortest augmenting path to re-assign the row a child frees. Two forms
//! of one job: [`DenseRelaxation`] keeps a copy of the matrix with every
//! excluded entry infinite and scans whole rows; [`SparseRelaxation`] reads
//! only the edges reduced-cost fixing kept ([`Reduced`]), with a heap, which
//! pays where those are few (LTO seek matrices of 1,000 nodes: 1-106 of
//! 1,001 a row) and not where the bound is weak and most edges stay (DIMACS
//! shop: all).

use super::arborescence::Joins;
use super::lap::{HeapScratch, Matching, Scratch, FREE};
use super::reduced::Reduced;
use super::{merge_cycles, patch, Assignment};

/// What one edge a sparse augmenting path scans counts for in the work
/// budget, in dense entries read: a heap step costs more than a read. A
/// choice, not tuned: with it a unit of work measured 1.8-7 ns of CPU in
/// sparse searches (coin 316, amat and tmat 1,000) against 2.7-3.5 ns in
/// the dense search before (amat, shop, coin; rtilt 1,000 9.6 ns), so the
/// budget means about the same time in both (2026-11-28).
const EDGE_WORK: f64 = 4.0;

/// The search uses the sparse form when reduced-cost fixing keeps at most
/// one entry in this many. A choice, not tuned: on a graph that kept every
/// edge (shop 1,000) a node took 2.7 ms sparse against 1.3 ms dense, and on
/// the seek matrices, which keep 0.1-11 %, the sparse form took a third to
/// a half of the dense time; the share between was not measured.
const SPARSE_SHARE: usize = 4;

/// A branch's relaxation: constraints with LIFO undo, and re-assignment.
pub(crate) trait Relaxation {
    /// The undo log's length now, for [`Relaxation::undo`].
    fn mark(&self) -> usize;
    /// Undoes every change made since the log had `mark` entries.
    fn undo(&mut self, mark: usize);
    /// Forbids edge (i, j).
    fn forbid(&mut self, edge: (usize, usize));
    /// Forces edge (i, j), one the matching being branched assigns: no
    /// other edge out of i (nor, in effect, into j).
    fn force(&mut self, edge: (usize, usize));
    /// Whether (i, j) is the only edge out of row i the branch allows with
    /// reduced cost (under the root's potentials) at most `limit`.
    fn forced(&self, i: usize, j: usize, limit: f64) -> bool;
    /// Assigns the free row `start` of `matching` along a shortest
    /// augmenting path over the edges the branch allows with reduced cost
    /// at most `limit`: the work it took (in matrix entries read) and
    /// whether a path exists that raises the assignment's value by at most
    /// `within` (if not, `matching` is unchanged).
    fn reassign(
        &mut self,
        matching: &mut Matching,
        start: usize,
        limit: f64,
        within: f64,
    ) -> (f64, bool);
    /// Patches the cycles `cycles` of the assignment `succ` into one tour
    /// (Karp: each merged, largest first, by the cheapest exchange of
    /// successors with the tour so far) for an incumbent, at the costs
    /// `cost` (the m×m matrix); the work it took, and whether `succ` is now
    /// a tour that may cost less than the root's value plus `limit`.
    fn patch(
        &mut self,
        succ: &mut [usize],
        cycles: &[Vec<usize>],
        cost: &[f64],
        limit: f64,
    ) -> (f64, bool);

    /// Adds to `joins` every edge the branch allows between two cycles of
    /// `matching` (`of`: each node's cycle) with reduced cost at most
    /// `limit` under the root's potentials; the work it took. `nodes` are
    /// every node outside one cycle: every edge between cycles has an end
    /// among them, so their rows and columns are all a form needs to read.
    fn crossing(
        &self,
        matching: &Matching,
        nodes: &[usize],
        of: &[usize],
        limit: f64,
        joins: &mut Joins,
    ) -> f64;

    /// Child `r`'s constraints: force `edges[..r]`, forbid `edges[r]`.
    fn child(&mut self, edges: &[(usize, usize)], r: usize) {
        for &e in &edges[..r] {
            self.force(e);
        }
        self.forbid(edges[r]);
    }
}

/// The relaxation for the m×m row-major costs `c` (diagonal infinite) whose
/// optimal assignment is `root`, for tours cheaper than `root`'s value plus
/// `limit`: sparse where fixing keeps few edges, dense otherwise; the
/// sparse form readable by column where `columns` (what
/// [`Relaxation::crossing`] reads there).
pub(crate) fn relaxation(
    m: usize,
    c: &[f64],
    root: &Assignment,
    limit: f64,
    columns: bool,
) -> Box<dyn Relaxation> {
    match Reduced::within(m, c, root, limit, m * m / SPARSE_SHARE) {
        Some(graph) if columns => Box::new(SparseRelaxation::new(m, graph.with_columns())),
        Some(graph) => Box::new(SparseRelaxation::new(m, graph)),
        None => Box::new(DenseRelaxation::new(m, c, root, limit)),
    }
}

/// The dense form: a copy of the costs with every edge the branch excludes
/// (and every edge fixing dropped at the start) infinite.
pub(crate) struct DenseRelaxation {
    m: usize,
    c: Vec<f64>,
    log: Vec<(usize, f64)>,
    scratch: Scratch,
}

impl DenseRelaxation {
    fn new(m: usize, c: &[f64], root: &Assignment, limit: f64) -> Self {
        let mut c = c.to_vec();
        for (i, row) in c.chunks_mut(m).enumerate() {
            for (x, &vj) in row.iter_mut().zip(&root.col) {
                if *x - root.row[i] - vj > limit {
                    *x = f64::INFINITY;
                }
            }
        }
        DenseRelaxation {
            m,
            c,
            log: Vec::new(),
            scratch: Scratch::new(m),
        }
    }

    fn set_infinite(&mut self, at: usize) {
        let old = self.c[at];
        if old.is_finite() {
            self.log.push((at, old));
            self.c[at] = f64::INFINITY;
        }
    }
}

impl Relaxation for DenseRelaxation {
    fn mark(&self) -> usize {
        self.log.len()
    }

    fn undo(&mut self, mark: usize) {
        while self.log.len() > mark {
            let (at, old) = self.log.pop().expect("longer than mark");
            self.c[at] = old;
        }
    }

    fn forbid(&mut self, (i, j): (usize, usize)) {
        self.set_infinite(i * self.m + j);
    }

    fn force(&mut self, (i, j): (usize, usize)) {
        let m = self.m;
        for k in (0..m).filter(|&k| k != j) {
            self.set_infinite(i * m + k);
        }
        for k in (0..m).filter(|&k| k != i) {
            self.set_infinite(k * m + j);
        }
    }

    /// Ignores `limit`: the edges fixing dropped at the start are infinite,
    /// and the ones a lower limit would drop since are few.
    fn forced(&self, i: usize, j: usize, _limit: f64) -> bool {
        let row = &self.c[i * self.m..(i + 1) * self.m];
        row.iter()
            .enumerate()
            .all(|(k, c)| k == j || c.is_infinite())
    }

    fn reassign(
        &mut self,
        matching: &mut Matching,
        start: usize,
        _limit: f64,
        within: f64,
    ) -> (f64, bool) {
        let (m, c) = (self.m, &self.c);
        let found = matching.augment(start, c, &mut self.scratch, within);
        let steps = found.unwrap_or_else(|steps| steps);
        ((steps * m) as f64, found.is_ok())
    }

    /// Reads every row, in order: the rows and columns of `nodes` alone
    /// read a column a stride of m apart (in a build whose default search
    /// used the bound, DIMACS shop at 316 nodes spent 0.29 s in branch and
    /// bound that way against 0.24 s reading rows; 2026-11-29).
    fn crossing(
        &self,
        matching: &Matching,
        _nodes: &[usize],
        of: &[usize],
        _limit: f64,
        joins: &mut Joins,
    ) -> f64 {
        joins.add_every(&self.c, of, &matching.u, &matching.v);
        (self.m * self.m) as f64
    }

    /// Every pair of nodes is tried ([`patch`]).
    fn patch(
        &mut self,
        succ: &mut [usize],
        cycles: &[Vec<usize>],
        cost: &[f64],
        _limit: f64,
    ) -> (f64, bool) {
        let m = self.m;
        patch(succ, |i, j| cost[i * m + j]);
        (pairs_tried(cycles), true)
    }
}

/// The pairs of nodes Karp's patching of `cycles` tries (each cycle merged
/// into the tour so far by trying every pair), and the cycles' nodes.
fn pairs_tried(cycles: &[Vec<usize>]) -> f64 {
    let mut sizes: Vec<usize> = cycles.iter().map(Vec::len).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut tour = 0;
    let mut work = 0;
    for size in sizes {
        work += tour * size;
        tour += size;
    }
    (work + tour) as f64
}

/// One logged change to a [`SparseRelaxation`].
enum Change {
    /// The graph's entry was forbidden.
    Forbidden(usize),
    /// The row's successor was forced.
    Forced(usize),
}

/// The branch's constraints on a sparse graph: each row's forced
/// successor and the forbidden entries. A forced edge is always assigned
/// (branch and bound forces only edges of the parent's assignment), so a
/// path that reaches its column cannot go on from its row, and the column
/// needs no mark of its own.
struct Rules {
    succ: Vec<usize>,
    forbidden: Vec<bool>,
    log: Vec<Change>,
}

impl Rules {
    /// Whether the branch allows entry `e`, edge (i, j).
    fn allows(&self, i: usize, e: usize, j: usize) -> bool {
        !self.forbidden[e] && (self.succ[i] == FREE || self.succ[i] == j)
    }
}

/// The sparse form: the edges fixing kept and the branch's rules on them.
pub(crate) struct SparseRelaxation {
    m: usize,
    graph: Reduced,
    rules: Rules,
    heap: HeapScratch,
}

impl SparseRelaxation {
    fn new(m: usize, graph: Reduced) -> Self {
        SparseRelaxation {
            m,
            rules: Rules {
                succ: vec![FREE; m],
                forbidden: vec![false; graph.len()],
                log: Vec::new(),
            },
            graph,
            heap: HeapScratch::new(m),
        }
    }
}

impl Relaxation for SparseRelaxation {
    fn mark(&self) -> usize {
        self.rules.log.len()
    }

    fn undo(&mut self, mark: usize) {
        let r = &mut self.rules;
        while r.log.len() > mark {
            match r.log.pop().expect("longer than mark") {
                Change::Forbidden(e) => r.forbidden[e] = false,
                Change::Forced(i) => r.succ[i] = FREE,
            }
        }
    }

    /// Nothing to do where fixing dropped the edge.
    fn forbid(&mut self, (i, j): (usize, usize)) {
        let (g, r) = (&self.graph, &mut self.rules);
        let found = g.row(i).find(|&e| g.col(e) == j);
        if let Some(e) = found.filter(|&e| !r.forbidden[e]) {
            r.forbidden[e] = true;
            r.log.push(Change::Forbidden(e));
        }
    }

    fn force(&mut self, (i, j): (usize, usize)) {
        let r = &mut self.rules;
        r.succ[i] = j;
        r.log.push(Change::Forced(i));
    }

    fn forced(&self, i: usize, j: usize, limit: f64) -> bool {
        let (g, r) = (&self.graph, &self.rules);
        r.succ[i] == j
            || !g
                .row(i)
                .take_while(|&e| g.reduced(e) <= limit)
                .any(|e| g.col(e) != j && r.allows(i, e, g.col(e)))
    }

    fn reassign(
        &mut self,
        matching: &mut Matching,
        start: usize,
        limit: f64,
        within: f64,
    ) -> (f64, bool) {
        let (g, r) = (&self.graph, &self.rules);
        let edges = |i: usize| {
            Some(
                g.row(i)
                    .take_while(move |&e| g.reduced(e) <= limit)
                    .filter(move |&e| r.allows(i, e, g.col(e)))
                    .map(|e| (g.col(e), g.cost(e))),
            )
        };
        let found = matching.augment_sparse(start, edges, &mut self.heap, within);
        let scanned = found.unwrap_or_else(|scanned| scanned);
        let work = self.m as f64 + EDGE_WORK * scanned as f64;
        (work, found.is_ok())
    }

    fn crossing(
        &self,
        matching: &Matching,
        nodes: &[usize],
        of: &[usize],
        limit: f64,
        joins: &mut Joins,
    ) -> f64 {
        let (g, r, u, v) = (&self.graph, &self.rules, &matching.u, &matching.v);
        let mut work = 2 * nodes.len();
        let mut edge = |i: usize, e: usize, j: usize| {
            work += 1;
            if of[i] != of[j] && r.allows(i, e, j) {
                joins.add(of[i], of[j], g.cost(e) - u[i] - v[j]);
            }
        };
        for &a in nodes {
            for e in g.row(a).take_while(|&e| g.reduced(e) <= limit) {
                edge(a, e, g.col(e));
            }
            for e in g.column(a).take_while(|&e| g.reduced(e) <= limit) {
                edge(g.row_of(e), e, a);
            }
        }
        EDGE_WORK * work as f64
    }

    /// Tries only exchanges whose new edge out of the cycle's node is one
    /// fixing kept under `limit`: any other puts an edge in the tour that
    /// makes it dearer than the incumbent, so where there is none the
    /// cycles are left apart (false). Reads the cycles' rows, not every
    /// pair (a third of the search's time on 1,000-node seek matrices).
    fn patch(
        &mut self,
        succ: &mut [usize],
        cycles: &[Vec<usize>],
        cost: &[f64],
        limit: f64,
    ) -> (f64, bool) {
        let (m, g) = (self.m, &self.graph);
        let mut work = m;
        let joined = merge_cycles(succ, cycles, |at| {
            // (cost added, a of the tour, b of the cycle).
            let mut best = (f64::INFINITY, FREE, FREE);
            for &b in at.cycle {
                let sb = at.succ[b];
                let cut = cost[b * m + sb];
                for e in g.row(b).take_while(|&e| g.reduced(e) <= limit) {
                    work += 1;
                    let sa = g.col(e);
                    if !at.in_tour[sa] {
                        continue;
                    }
                    let a = at.pred[sa];
                    let added = cost[a * m + sb] + g.cost(e) - cost[a * m + sa] - cut;
                    if added < best.0 {
                        best = (added, a, b);
                    }
                }
            }
            (best.1 != FREE).then_some((best.1, best.2))
        });
        (work as f64, joined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atsp::arborescence::cycle_of;
    use crate::atsp::test_costs::{modular, seek_on_a_loop};
    use crate::atsp::{assignment, cycles, patch};
    use proptest::prelude::*;

    #[test]
    fn fixing_keeps_few_edges_of_seek_costs_on_a_loop() {
        let m = 60;
        let c = seek_on_a_loop(m, 7);
        let root = assignment(m, &c);
        let mut tour = root.succ.clone();
        patch(&mut tour, |i, j| c[i * m + j]);
        let excess: f64 = (0..m).map(|i| c[i * m + tour[i]]).sum::<f64>() - root.total;
        let kept = Reduced::new(m, &c, &root, excess).len();
        assert!(kept * SPARSE_SHARE <= m * m, "kept {kept} of {}", m * m);
    }

    proptest! {
        #[test]
        fn the_sparse_patch_is_karps_without_a_limit_and_a_tour_with_one(
            m in 3usize..40,
            seed in any::<u64>(),
            fraction in 0.0f64..1.0,
        ) {
            // Costs from a hash, so no two exchanges add the same cost and
            // Karp's cheapest is unique.
            let c: Vec<f64> = (0..m * m)
                .map(|k| {
                    let mut x = (k as u64).wrapping_add(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    x ^= x >> 31;
                    if k % (m + 1) == 0 { f64::INFINITY } else { (x % 1_000_000_007) as f64 }
                })
                .collect();
            let root = assignment(m, &c);
            let subtours = cycles(&root.succ);
            let mut karp = root.succ.clone();
            patch(&mut karp, |i, j| c[i * m + j]);
            let mut all = SparseRelaxation::new(m, Reduced::new(m, &c, &root, f64::INFINITY));
            let mut succ = root.succ.clone();
            let (_, made) = all.patch(&mut succ, &subtours, &c, f64::INFINITY);
            prop_assert!(made);
            prop_assert_eq!(&succ, &karp);
            // Under a limit: one tour through every node whenever it says so.
            let excess: f64 = (0..m).map(|i| c[i * m + karp[i]]).sum::<f64>() - root.total;
            let limit = fraction * excess;
            let mut few = SparseRelaxation::new(m, Reduced::new(m, &c, &root, limit));
            let mut succ = root.succ.clone();
            let (_, made) = few.patch(&mut succ, &subtours, &c, limit);
            if made {
                prop_assert_eq!(cycles(&succ).len(), 1);
            }
        }

        #[test]
        fn both_forms_find_each_cycles_cheapest_joins(
            m in 4usize..40,
            seed in any::<u64>(),
            seek in any::<bool>(),
        ) {
            // With every edge kept, the rows and columns of the nodes
            // outside the largest cycle give both forms what reading every
            // edge between cycles gives.
            let c = if seek { seek_on_a_loop(m, seed) } else { modular(m, 1009, seed) };
            let root = assignment(m, &c);
            let subtours = cycles(&root.succ);
            let of = cycle_of(m, &subtours);
            let largest = (0..subtours.len()).max_by_key(|&k| subtours[k].len()).expect("a cycle");
            let nodes: Vec<usize> = (0..subtours.len())
                .filter(|&k| k != largest)
                .flat_map(|k| subtours[k].iter().copied())
                .collect();
            let matching = Matching::of(&root);
            let mut every = Joins::new(subtours.len());
            for i in 0..m {
                for j in (0..m).filter(|&j| of[i] != of[j]) {
                    every.add(of[i], of[j], c[i * m + j] - root.row[i] - root.col[j]);
                }
            }
            let dense = DenseRelaxation::new(m, &c, &root, f64::INFINITY);
            let sparse = SparseRelaxation::new(m, Reduced::new(m, &c, &root, f64::INFINITY).with_columns());
            for form in [&dense as &dyn Relaxation, &sparse] {
                let mut joins = Joins::new(subtours.len());
                form.crossing(&matching, &nodes, &of, f64::INFINITY, &mut joins);
                prop_assert_eq!(joins.least(0), every.least(0));
            }
        }

        #[test]
        fn both_forms_reassign_a_child_at_the_same_value_within_any_rise(
            m in 4usize..40,
            seed in any::<u64>(),
            seek in any::<bool>(),
            fraction in 0.0f64..1.5,
            share in 0.0f64..1.5,
        ) {
            // Every child of the root (Carpaneto–Toth: the first r edges
            // of a subtour forced, the r-th forbidden), re-assigned by the
            // dense and the sparse form under one fixing limit; and, with
            // every edge kept, allowed to raise the value by `share` of what
            // it takes: found exactly where that is enough, at the same
            // value.
            let c = if seek { seek_on_a_loop(m, seed) } else { modular(m, 1009, seed) };
            let root = assignment(m, &c);
            let mut tour = root.succ.clone();
            patch(&mut tour, |i, j| c[i * m + j]);
            let excess: f64 = (0..m).map(|i| c[i * m + tour[i]]).sum::<f64>() - root.total;
            let limit = fraction * excess;
            let mut dense = DenseRelaxation::new(m, &c, &root, limit);
            let mut sparse = SparseRelaxation::new(m, Reduced::new(m, &c, &root, limit));
            let mut dense_all = DenseRelaxation::new(m, &c, &root, f64::INFINITY);
            let mut sparse_all =
                SparseRelaxation::new(m, Reduced::new(m, &c, &root, f64::INFINITY));
            let subtours = cycles(&root.succ);
            let edges: Vec<(usize, usize)> = subtours
                .iter()
                .max_by_key(|s| s.len())
                .expect("a subtour")
                .iter()
                .map(|&i| (i, root.succ[i]))
                .collect();
            for r in 0..edges.len() {
                let value = |form: &mut dyn Relaxation, limit: f64, within: f64| {
                    let mark = form.mark();
                    form.child(&edges, r);
                    let mut child = Matching::of(&root);
                    child.free_row(edges[r].0);
                    let (_, found) = form.reassign(&mut child, edges[r].0, limit, within);
                    form.undo(mark);
                    found.then(|| (0..m).map(|i| c[i * m + child.row_col[i]]).sum::<f64>())
                };
                let (d, s) = (
                    value(&mut dense, limit, f64::INFINITY),
                    value(&mut sparse, limit, f64::INFINITY),
                );
                match (d, s) {
                    (Some(d), Some(s)) => prop_assert!((d - s).abs() <= 1e-9 * d.abs().max(1.0), "{d} vs {s}"),
                    (d, s) => prop_assert_eq!(d.is_some(), s.is_some()),
                }
                // Every child again with every edge kept, allowed to raise
                // the value by `share` of what it takes.
                let all = f64::INFINITY;
                let Some(full) = value(&mut dense_all, all, all) else {
                    continue;
                };
                let rise = full - root.total;
                let within = share * rise;
                if (rise - within).abs() <= 1e-9 * full.abs().max(1.0) {
                    continue;
                }
                for form in [&mut dense_all as &mut dyn Relaxation, &mut sparse_all] {
                    let cut = value(form, all, within);
                    prop_assert_eq!(cut.is_some(), rise <= within, "rise {} within {}", rise, within);
                    if let Some(v) = cut {
                        prop_assert!((v - full).abs() <= 1e-9 * full.abs().max(1.0), "{v} vs {full}");
                    }
                }
            }
        }
    }
}
