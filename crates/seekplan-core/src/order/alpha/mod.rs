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

#[cfg(test)]
mod ascent_tests;
mod one_tree;
#[cfg(test)]
mod tests;

use super::dense::Dense;
use super::edge_bounds::EdgeBounds;
use super::neighbours::Neighbours;
use crate::stop::Stop;
use one_tree::{Graph, Hints, OneTree, Penalties};

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
