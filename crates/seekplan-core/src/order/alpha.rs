//! α-nearness candidates (Helsgaun, "An effective implementation of the
//! Lin–Kernighan traveling salesman heuristic", 2000) for the asymmetric
//! problem. On its 2n-node symmetric transformation (Jonker & Volgenant,
//! 1983: node v becomes v_in and v_out joined by a fixed edge every tour
//! takes; the edge u_out–v_in costs c(u, v)) a minimum 1-tree containing
//! the fixed edges costs at most any tour, the more so once node penalties
//! π are raised by subgradient optimisation (Held & Karp, 1970). The
//! α-nearness of u→v is how much forcing u_out–v_in into that 1-tree raises
//! its cost; a good tour's edges have small α far more often than they are
//! among the cheapest, so a node's candidates are its smallest-α successors
//! and predecessors.
//!
//! With the fixed edges contracted, the tree joins nodes u and v by the
//! cheaper (with penalties) of u_out–v_in and v_out–u_in: a tree on the
//! n + 1 original nodes (the depot included), built by Prim's algorithm in
//! O(n²). The 1-tree adds, at a leaf of it (an in- or out-node whose only
//! edge is its fixed one), that node's cheapest other edge.

use super::dense::Dense;
use super::edge_bounds::EdgeBounds;
use super::neighbours::Neighbours;
use crate::stop::Stop;

/// Most 1-trees the ascent builds (each O(n²)).
const MAX_ASCENT: usize = 1_000;
/// The ascent halves its step after this many 1-trees without a better
/// bound, and stops once the step's factor falls below [`MIN_STEP`].
const PATIENCE: usize = 40;
const MIN_STEP: f64 = 1e-3;
/// The ascent's steps aim this far (a fraction) above the tour's cost, as
/// Held, Wolfe & Crowder's target does: aimed at the tour itself they
/// shrink as the bound nears it and the ascent stalls short of the best
/// bound. With this and [`PATIENCE`] 40 (before: no overshoot, 20), the
/// 1-tree bound on the 36 LTO-9, LTO-10, IBM 3590 and LTO-5 seek matrices
/// of 100 files (seeds 1-3) ends on average 0.058 % below `best`'s tour
/// instead of 0.218 %, for 13 % more ascent time; `best` then proves 98
/// instead of 94 of the 108 seek matrices of 100 and 316 files in 12 %
/// less CPU, and the DIMACS rtilt, stilt and crane tours of 100 and 316
/// nodes are the same or up to 0.37 % shorter (2026-11-29,
/// `benchmarks/RESULTS.md`). Chosen from overshoots of 0-5 % and patiences
/// of 20-80 on those seek matrices: 0.5 % left 0.088 %, 2 % 0.067 %.
const OVERSHOOT: f64 = 0.01;

/// The long ascent's cap on 1-trees and its patience (see [`Effort::Long`]).
/// On a tape as a line (`bench_linear_seek.py`'s model; 100 files, seeds 1-3,
/// and 60 files, seed 2) the default ascent ends 14-24 % below tours that
/// LKH-3 does not beat; with patience 400 it ends within 0.003 % of them after
/// 11,000-15,000 trees; with 100 or 200, 5.4 % and 2.3 % below (2026-11-29,
/// `benchmarks/RESULTS.md`). Its better bounds come rarely while the trend
/// still rises, so a short patience halves the step long before it is done.
const LONG_ASCENT: usize = 20_000;
const LONG_PATIENCE: usize = 400;

/// How long the ascent goes on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Effort {
    /// At most [`MAX_ASCENT`] 1-trees, the step halved after [`PATIENCE`]
    /// without a better bound: `best`'s default.
    Quick,
    /// At most [`LONG_ASCENT`] 1-trees, the step halved after
    /// [`LONG_PATIENCE`]: for a proof a caller's time limit pays for, where
    /// the quick ascent leaves the tour well above its bound.
    Long,
}

/// The transformed problem: costs with the diagonal forbidden, row-major
/// and transposed (both read a row at a time).
struct Graph {
    m: usize,
    cost: Vec<f64>,
    costt: Vec<f64>,
}

impl Graph {
    fn new(d: &Dense) -> Self {
        let m = d.len() + 1;
        let cost = d.square();
        let mut costt = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                costt[j * m + i] = cost[i * m + j];
            }
        }
        Graph { m, cost, costt }
    }
}

/// Node penalties: π of each out-node and of each in-node.
#[derive(Clone)]
pub(crate) struct Penalties {
    out: Vec<f64>,
    inn: Vec<f64>,
}

impl Penalties {
    fn zero(m: usize) -> Self {
        Penalties {
            out: vec![0.0; m],
            inn: vec![0.0; m],
        }
    }

    /// The penalised cost of u_out–v_in.
    fn weight(&self, g: &Graph, u: usize, v: usize) -> f64 {
        g.cost[u * g.m + v] + self.out[u] + self.inn[v]
    }
}

/// The special node of a 1-tree: an out- or in-node.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Special {
    Out(usize),
    In(usize),
}

/// A minimum 1-tree of the transformed graph under some penalties.
struct OneTree {
    /// Each node's parent in the contracted tree (the root, node 0, has
    /// none: `usize::MAX`), whether that edge runs parent_out–node_in
    /// (else node_out–parent_in), and its penalised weight.
    dad: Vec<usize>,
    forward: Vec<bool>,
    weight: Vec<f64>,
    /// The leaf that carries the extra edge, the edge (u→v), and its weight.
    special: Special,
    extra: (usize, usize),
    extra_weight: f64,
    /// Degree of each out- and in-node, its fixed edge counted.
    out_degree: Vec<i32>,
    in_degree: Vec<i32>,
    /// The 1-tree's cost minus twice the penalties: a lower bound on every
    /// tour.
    bound: f64,
}

/// Each leaf's cheapest other edge in the last 1-tree that looked for it:
/// the ascent's penalties move little from one tree to the next, so that
/// edge usually still shows at once that the leaf cannot carry the extra
/// edge (see [`OneTree::build`]).
struct Hints {
    out: Vec<usize>,
    inn: Vec<usize>,
}

impl Hints {
    fn new(m: usize) -> Self {
        Hints {
            out: vec![usize::MAX; m],
            inn: vec![usize::MAX; m],
        }
    }

    /// The other end of leaf `s`'s cheapest edge last time (`usize::MAX`:
    /// none yet).
    fn of(&mut self, s: Special) -> &mut usize {
        match s {
            Special::Out(k) => &mut self.out[k],
            Special::In(k) => &mut self.inn[k],
        }
    }
}

impl OneTree {
    fn new(g: &Graph, pen: &Penalties) -> Self {
        Self::build(g, pen, &mut Hints::new(g.m))
    }

    /// The minimum 1-tree under `pen`. Prim's algorithm looks only at the
    /// nodes not yet in the tree, kept in order (so ties go as they would
    /// scanning every node) beside their keys and penalties (the ascent
    /// 18 % faster than reading them from four arrays, the same trees;
    /// 2026-11-29); a leaf is scanned for its cheapest other edge
    /// only where its edge in `hints` does not already show it cannot beat
    /// the leaf picked so far. Both give the tree and the leaf that
    /// scanning everything gives: on LTO-9 and IBM 3590 seek matrices of
    /// 100 files (seeds 1-3 and 6) the α phase took 8-18 ms instead of
    /// 10-27 ms, for the same orders (2026-11-29).
    fn build(g: &Graph, pen: &Penalties, hints: &mut Hints) -> Self {
        let m = g.m;
        let mut key = vec![f64::INFINITY; m];
        let mut dad = vec![usize::MAX; m];
        let mut forward = vec![false; m];
        // The nodes not yet in the tree, in order: (node, key, out- and
        // in-penalty).
        let mut rest: Vec<(usize, f64, f64, f64)> = (1..m)
            .map(|v| (v, f64::INFINITY, pen.out[v], pen.inn[v]))
            .collect();
        let mut u = 0;
        while !rest.is_empty() {
            let (row, col) = (&g.cost[u * m..(u + 1) * m], &g.costt[u * m..(u + 1) * m]);
            let (out_u, inn_u) = (pen.out[u], pen.inn[u]);
            let (mut next_at, mut least) = (0, f64::INFINITY);
            for (at, (v, k, out_v, inn_v)) in rest.iter_mut().enumerate() {
                let a = row[*v] + out_u + *inn_v;
                let b = col[*v] + *out_v + inn_u;
                let (w, f) = if a <= b { (a, true) } else { (b, false) };
                if w < *k {
                    *k = w;
                    (dad[*v], forward[*v]) = (u, f);
                }
                if at == 0 || *k < least {
                    (next_at, least) = (at, *k);
                }
            }
            let (v, k, _, _) = rest.remove(next_at);
            key[v] = k;
            u = v;
        }
        let mut out_degree = vec![1; m];
        let mut in_degree = vec![1; m];
        for v in 1..m {
            if forward[v] {
                out_degree[dad[v]] += 1;
                in_degree[v] += 1;
            } else {
                out_degree[v] += 1;
                in_degree[dad[v]] += 1;
            }
        }
        // The leaf whose cheapest other edge costs most: the best bound.
        let mut pick: Option<(f64, Special, (usize, usize))> = None;
        for k in 0..m {
            let leaves = [
                (out_degree[k] == 1).then_some(Special::Out(k)),
                (in_degree[k] == 1).then_some(Special::In(k)),
            ];
            for s in leaves.into_iter().flatten() {
                let edge = |j: usize| match s {
                    Special::Out(_) => (k, j),
                    Special::In(_) => (j, k),
                };
                let weight = |j: usize| {
                    let (a, b) = edge(j);
                    pen.weight(g, a, b)
                };
                let hint = hints.of(s);
                // Only a leaf whose cheapest edge costs more than the
                // pick's replaces it: one edge at most that rules it out.
                if pick.is_some_and(|p| *hint != usize::MAX && weight(*hint) <= p.0) {
                    continue;
                }
                let (w, j) = (0..m)
                    .filter(|&j| j != k)
                    .map(|j| (weight(j), j))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .expect("at least two nodes");
                *hint = j;
                let edge = edge(j);
                if pick.is_none_or(|p| w > p.0) {
                    pick = Some((w, s, edge));
                }
            }
        }
        let (extra_weight, special, extra) = pick.expect("a tree has a leaf");
        out_degree[extra.0] += 1;
        in_degree[extra.1] += 1;
        let tree: f64 = key[1..].iter().sum();
        let penalties: f64 = pen.out.iter().chain(&pen.inn).sum();
        OneTree {
            dad,
            forward,
            weight: key,
            special,
            extra,
            extra_weight,
            out_degree,
            in_degree,
            bound: tree + extra_weight - penalties,
        }
    }

    /// Whether u_out–v_in is an edge of the 1-tree.
    fn has(&self, u: usize, v: usize) -> bool {
        self.extra == (u, v)
            || (self.dad[v] == u && self.forward[v])
            || (self.dad[u] == v && !self.forward[u])
    }

    /// α of every u→v (row-major, m²; the diagonal infinite): the rise in
    /// the 1-tree's cost if u_out–v_in is forced into it.
    fn alphas(&self, g: &Graph, pen: &Penalties) -> Vec<f64> {
        let m = g.m;
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); m];
        for v in 1..m {
            adj[v].push(self.dad[v]);
            adj[self.dad[v]].push(v);
        }
        // The weight of the tree edge between v and its neighbour w.
        let edge = |v: usize, w: usize| {
            if self.dad[v] == w {
                self.weight[v]
            } else {
                self.weight[w]
            }
        };
        let mut alpha = vec![f64::INFINITY; m * m];
        let mut most = vec![f64::NEG_INFINITY; m];
        let mut stack = Vec::with_capacity(m);
        for u in 0..m {
            // The heaviest edge on the tree path from u to each node.
            most[u] = f64::NEG_INFINITY;
            stack.push((u, usize::MAX));
            while let Some((v, from)) = stack.pop() {
                for &w in adj[v].iter().filter(|&&w| w != from) {
                    most[w] = most[v].max(edge(v, w));
                    stack.push((w, v));
                }
            }
            for v in (0..m).filter(|&v| v != u) {
                let w = pen.weight(g, u, v);
                let a = match self.special {
                    Special::Out(k) if k == u => w - self.extra_weight,
                    Special::In(k) if k == v => w - self.extra_weight,
                    _ => w - most[v],
                };
                alpha[u * m + v] = if self.has(u, v) { 0.0 } else { a.max(0.0) };
            }
        }
        alpha
    }

    /// The subgradient: each node's degree minus two, out-nodes first.
    fn slack(&self) -> impl Iterator<Item = f64> + '_ {
        self.out_degree
            .iter()
            .chain(&self.in_degree)
            .map(|&deg| f64::from(deg - 2))
    }
}

/// Subgradient optimisation of the penalties (Held & Karp's step: λ times
/// the gap to `upper`, a tour's cost, over the subgradient's squared
/// norm), from zero; returns the penalties of the best bound and that
/// bound.
fn ascent(g: &Graph, upper: f64, stop: &Stop, effort: Effort) -> (Penalties, f64) {
    let (trees, patience) = match effort {
        Effort::Quick => (MAX_ASCENT, PATIENCE),
        Effort::Long => (LONG_ASCENT, LONG_PATIENCE),
    };
    let mut pen = Penalties::zero(g.m);
    let mut best = (pen.clone(), f64::NEG_INFINITY);
    let (mut step, mut since) = (2.0, 0);
    let target = upper + OVERSHOOT * upper.abs();
    let mut hints = Hints::new(g.m);
    for _ in 0..trees {
        if stop.reached() {
            break;
        }
        let tree = OneTree::build(g, &pen, &mut hints);
        if tree.bound > best.1 {
            best = (pen.clone(), tree.bound);
            since = 0;
        } else {
            since += 1;
            if since >= patience {
                (step, since) = (step / 2.0, 0);
            }
        }
        let norm: f64 = tree.slack().map(|s| s * s).sum();
        if norm == 0.0 || tree.bound >= upper || step < MIN_STEP {
            break;
        }
        let t = step * (target - tree.bound) / norm;
        let m = g.m;
        for (k, s) in tree.slack().enumerate() {
            if k < m {
                pen.out[k] += t * s;
            } else {
                pen.inn[k - m] += t * s;
            }
        }
    }
    best
}

/// What [`candidates`] finds after the ascent.
pub(crate) struct Candidates {
    /// Each node's smallest-α successors and predecessors.
    pub(crate) near: Neighbours,
    /// The ascent's best 1-tree bound: a lower bound on every tour.
    pub(crate) bound: f64,
    /// For each node's successors in `near`'s order, whether α is zero
    /// (the edge lies on a minimum 1-tree: what the trials' start tours
    /// follow, see [`super::walks`]).
    pub(crate) zero: Vec<Vec<bool>>,
    /// A lower bound on every tour through each edge.
    pub(crate) edges: EdgeBounds,
}

/// Each node's `count` smallest-α successors and predecessors (ties to the
/// cheaper edge, then the lower node) after the default ascent from a tour
/// costing `upper`, stopped at `stop`, with the ascent's bound and what it
/// says of each edge (see [`Candidates`]).
pub(crate) fn candidates(d: &Dense, upper: f64, count: usize, stop: &Stop) -> Candidates {
    candidates_after(d, upper, count, stop, Effort::Quick)
}

/// [`candidates`] after an ascent of the given `effort`.
pub(crate) fn candidates_after(
    d: &Dense,
    upper: f64,
    count: usize,
    stop: &Stop,
    effort: Effort,
) -> Candidates {
    let g = Graph::new(d);
    let m = g.m;
    let (pen, bound) = ascent(&g, upper, stop, effort);
    let alpha = OneTree::new(&g, &pen).alphas(&g, &pen);
    let k = count.min(m - 1);
    let pick = |key: &dyn Fn(usize) -> (f64, f64), skip: usize| -> Vec<usize> {
        let mut all: Vec<usize> = (0..m).filter(|&v| v != skip).collect();
        all.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.total_cmp(&kb.0)
                .then(ka.1.total_cmp(&kb.1))
                .then(a.cmp(&b))
        });
        all.truncate(k);
        all
    };
    let succs: Vec<Vec<usize>> = (0..m)
        .map(|u| pick(&|v| (alpha[u * m + v], g.cost[u * m + v]), u))
        .collect();
    let preds = (0..m)
        .map(|v| pick(&|u| (alpha[u * m + v], g.cost[u * m + v]), v))
        .collect();
    let zero = succs
        .iter()
        .enumerate()
        .map(|(u, vs)| vs.iter().map(|&v| alpha[u * m + v] <= 0.0).collect())
        .collect();
    Candidates {
        near: Neighbours::from_lists(d, preds, succs),
        bound,
        zero,
        edges: EdgeBounds::new(m, bound, alpha),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::test_support::{on_closed_tour, permute, square_rows};
    use proptest::prelude::*;

    /// The minimum spanning tree's cost on the explicit 2m-node graph (in-node
    /// 2v, out-node 2v + 1) over every node but `special`, containing every
    /// fixed edge and `forced` edges, by Kruskal's algorithm.
    fn kruskal(g: &Graph, pen: &Penalties, special: usize, forced: &[(usize, usize)]) -> f64 {
        let m = g.m;
        let mut edges: Vec<(f64, usize, usize)> = Vec::new();
        for u in 0..m {
            for v in (0..m).filter(|&v| v != u) {
                edges.push((pen.weight(g, u, v), 2 * u + 1, 2 * v));
            }
        }
        edges.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut root: Vec<usize> = (0..2 * m).collect();
        fn find(root: &mut [usize], x: usize) -> usize {
            let mut x = x;
            while root[x] != x {
                x = root[x];
            }
            x
        }
        let mut total = 0.0;
        let mut join = |root: &mut Vec<usize>, w: f64, a: usize, b: usize| {
            let (ra, rb) = (find(root, a), find(root, b));
            if ra != rb && a != special && b != special {
                root[ra] = rb;
                total += w;
            }
        };
        for v in 0..m {
            join(&mut root, pen.out[v] + pen.inn[v], 2 * v, 2 * v + 1);
        }
        for &(u, v) in forced {
            join(&mut root, pen.weight(g, u, v), 2 * u + 1, 2 * v);
        }
        for (w, a, b) in edges {
            join(&mut root, w, a, b);
        }
        total
    }

    /// The 1-tree's cost around `special` (2m-node numbering) with `forced`
    /// edges, from [`kruskal`] and the special node's two edges.
    fn one_tree_cost(g: &Graph, pen: &Penalties, special: usize, forced: &[(usize, usize)]) -> f64 {
        let m = g.m;
        let k = special / 2;
        let at_special: Vec<(usize, usize)> = forced
            .iter()
            .copied()
            .filter(|&(u, v)| 2 * u + 1 == special || 2 * v == special)
            .collect();
        let elsewhere: Vec<(usize, usize)> = forced
            .iter()
            .copied()
            .filter(|e| !at_special.contains(e))
            .collect();
        let other = match at_special.first() {
            Some(&(u, v)) => pen.weight(g, u, v),
            None => (0..m)
                .filter(|&j| j != k)
                .map(|j| {
                    if special % 2 == 1 {
                        pen.weight(g, k, j)
                    } else {
                        pen.weight(g, j, k)
                    }
                })
                .fold(f64::INFINITY, f64::min),
        };
        kruskal(g, pen, special, &elsewhere) + pen.out[k] + pen.inn[k] + other
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// α computed from the tree equals the rise of the 1-tree's cost
        /// when the edge is forced in, recomputed by Kruskal's algorithm on
        /// the explicit 2m-node graph, under random penalties.
        #[test]
        fn alpha_is_the_rise_of_the_one_tree_with_the_edge_forced(
            n in 2usize..6,
            raw in proptest::collection::vec(0u32..50, 36),
            pens in proptest::collection::vec(-20i32..20, 12),
        ) {
            let g = on_closed_tour(square_rows(n, &raw), |d, _| Graph::new(d));
            let m = g.m;
            let pen = Penalties {
                out: (0..m).map(|k| f64::from(pens[k])).collect(),
                inn: (0..m).map(|k| f64::from(pens[6 + k])).collect(),
            };
            let tree = OneTree::new(&g, &pen);
            let special = match tree.special {
                Special::Out(k) => 2 * k + 1,
                Special::In(k) => 2 * k,
            };
            let base = one_tree_cost(&g, &pen, special, &[]);
            let penalties: f64 = pen.out.iter().chain(&pen.inn).sum();
            prop_assert!((tree.bound - (base - 2.0 * penalties)).abs() < 1e-9);
            let alpha = tree.alphas(&g, &pen);
            for u in 0..m {
                for v in (0..m).filter(|&v| v != u) {
                    let forced = one_tree_cost(&g, &pen, special, &[(u, v)]);
                    prop_assert!((alpha[u * m + v] - (forced - base)).abs() < 1e-9,
                        "α({u}→{v}) = {} but forcing it costs {}", alpha[u * m + v], forced - base);
                }
            }
        }

        /// Hints left by earlier trees under other penalties (as the
        /// ascent carries them) give the tree and leaf a fresh search
        /// gives, ties included (small integer costs tie often).
        #[test]
        fn hints_from_earlier_trees_change_no_tree(
            n in 2usize..9,
            raw in proptest::collection::vec(0u32..8, 81),
            pens in proptest::collection::vec(proptest::collection::vec(-3i32..4, 20), 1..6),
        ) {
            let g = on_closed_tour(square_rows(n, &raw), |d, _| Graph::new(d));
            let m = g.m;
            let mut hints = Hints::new(m);
            for p in &pens {
                let pen = Penalties {
                    out: (0..m).map(|k| f64::from(p[k])).collect(),
                    inn: (0..m).map(|k| f64::from(p[10 + k])).collect(),
                };
                let (hinted, fresh) = (OneTree::build(&g, &pen, &mut hints), OneTree::new(&g, &pen));
                prop_assert_eq!(&hinted.dad, &fresh.dad);
                prop_assert_eq!(&hinted.forward, &fresh.forward);
                prop_assert_eq!(hinted.special, fresh.special);
                prop_assert_eq!(hinted.extra, fresh.extra);
                prop_assert_eq!(hinted.bound, fresh.bound);
            }
        }

        /// Candidates are other valid nodes, α is never negative and is
        /// zero on the 1-tree's edges, and the ascent's bound is at most
        /// the optimal tour (by brute force).
        #[test]
        fn candidates_are_valid_and_the_bound_holds(
            n in 3usize..7,
            raw in proptest::collection::vec(1u32..1000, 49),
        ) {
            on_closed_tour(square_rows(n, &raw), |d, _| {
                let g = Graph::new(d);
                let m = g.m;
                let mut order: Vec<usize> = (0..d.len()).collect();
                let mut optimum = f64::INFINITY;
                permute(&mut order, 0, &mut |o| optimum = optimum.min(d.tour(o)));
                let near = candidates(d, d.tour(&order), 3, &Stop::never()).near;
                let (pen, bound) = ascent(&g, d.tour(&order), &Stop::never(), Effort::Quick);
                prop_assert!(bound <= optimum + 1e-6, "bound {bound} above the optimum {optimum}");
                let (_, long) = ascent(&g, d.tour(&order), &Stop::never(), Effort::Long);
                prop_assert!(long <= optimum + 1e-6, "long bound {long} above the optimum {optimum}");
                for u in 0..m {
                    prop_assert_eq!(near.succs[u].len(), 3.min(m - 1));
                    prop_assert_eq!(near.preds[u].len(), 3.min(m - 1));
                    for &v in near.succs[u].iter().chain(&near.preds[u]) {
                        prop_assert!(v < m && v != u);
                    }
                }
                let tree = OneTree::new(&g, &pen);
                let alpha = tree.alphas(&g, &pen);
                for u in 0..m {
                    for v in (0..m).filter(|&v| v != u) {
                        prop_assert!(alpha[u * m + v] >= 0.0);
                        if tree.has(u, v) {
                            prop_assert_eq!(alpha[u * m + v], 0.0);
                        }
                    }
                }
                Ok(())
            })?;
        }
    }
}

#[cfg(test)]
mod ascent_tests {
    use super::*;
    use crate::model::CostMatrix;
    use crate::order::{order_matrix_with, Algorithm, Options, Problem};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `n` files at random on 8 wraps of a tape: a move costs its distance
    /// along the tape (5 % dearer backwards) plus 20 per wrap crossed;
    /// nearly symmetric, as a tape's locates are.
    fn wraps(n: usize, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pts: Vec<(f64, f64)> = (0..n)
            .map(|_| (rng.gen_range(0.0..1000.0), f64::from(rng.gen_range(0..8))))
            .collect();
        pts.iter()
            .map(|a| {
                pts.iter()
                    .map(|b| {
                        let dx = b.0 - a.0;
                        dx.abs() * if dx > 0.0 { 1.0 } else { 1.05 } + 20.0 * (b.1 - a.1).abs()
                    })
                    .collect()
            })
            .collect()
    }

    /// Aimed above `best`'s tour, the ascent ends close to it: on ten
    /// tape-like matrices of 60 files its bound is on average 0.48 % below
    /// the tour (aimed at the tour itself, with half the patience, it
    /// stalled 1.6 % below).
    #[test]
    fn the_ascent_ends_close_to_a_good_tour() {
        let mut gaps = 0.0;
        for seed in 0..10 {
            let matrix = CostMatrix::from_rows(wraps(60, seed)).unwrap();
            let (s, _) =
                order_matrix_with(&matrix, 0, Some(0), Algorithm::Best, &Options::default())
                    .unwrap();
            let problem = Problem::matrix(&matrix, 0, Some(0)).unwrap();
            let d = Dense::new(&problem);
            let tour = d.tour(&s.order);
            let (_, bound) = ascent(&Graph::new(&d), tour, &Stop::never(), Effort::Quick);
            assert!(
                bound <= tour + 1e-6 * tour,
                "seed {seed}: bound above the tour"
            );
            gaps += (tour - bound) / tour;
        }
        let mean = gaps / 10.0 * 100.0;
        assert!(
            mean < 0.8,
            "the bound ends {mean:.3} % below the tours on average"
        );
    }
}
