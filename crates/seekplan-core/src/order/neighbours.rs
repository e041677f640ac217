//! Each node's cheapest predecessors and successors, where the local
//! searches look for moves ([`super::local_search`]), and whether moves
//! that reverse stretches of a tour pay on the costs.

use super::dense::Dense;
use crate::model::Pos;
use crate::stop::{Clock, Stop};

/// Costs are nearly symmetric when the reverses of the neighbour-list moves
/// cost on average less than this many times the moves: moves that reverse
/// stretches of the tour (Lin–Kernighan flip chains, [`super::lk`]) pay
/// there. The cheap moves of the DIMACS tilted-drilling and stacker-crane
/// families cost 1.1-1.5x reversed, of random matrices 6-60x (n = 100 and
/// 1,000, `benchmarks/atsp_families.py`, 2026-11-25).
const NEARLY_SYMMETRIC: f64 = 2.0;
/// Neighbours kept per node: enough to find nearly every improving move.
pub(super) const NEIGHBOURS: usize = 16;
/// With cached positions, a node's neighbours are sought among this many
/// nodes on each side of it along the medium rather than among all.
const WINDOW: usize = 48;
/// Each node's cheapest predecessors and successors: where Or-opt looks
/// for insertion points. Computed once per problem, shared by every run.
pub(crate) struct Neighbours {
    pub(super) preds: Vec<Vec<usize>>,
    pub(super) succs: Vec<Vec<usize>>,
    /// The cost of each edge into a node from its `preds`, and out of it to
    /// its `succs`, in their order: timed once, where Or-opt and Or-3opt
    /// would time them again on every look at the node (on a drive model
    /// a locate is computed, not read).
    pub(super) pred_costs: Vec<Vec<f64>>,
    pub(super) succ_costs: Vec<Vec<f64>>,
}

impl Neighbours {
    /// The `NEIGHBOURS` cheapest in- and out-partners of every node (depot
    /// included): among the nodes nearest along the medium when `d` caches
    /// positions, among all nodes otherwise.
    pub(crate) fn new(d: &Dense) -> Self {
        Self::until(d, &Stop::never()).expect("nothing stops it")
    }

    /// [`Neighbours::new`], or `None` once `stop` (a caller's time limit
    /// or cancel) is reached while they are sought: 0.6-0.7 s on an
    /// explicit matrix of 10,000 nodes or 100,000 LTO-9 requests.
    pub(crate) fn until(d: &Dense, stop: &Stop) -> Option<Self> {
        let mut clock = Clock::new(stop);
        match d.cached_positions() {
            Some((from, to)) if d.len() > 2 * WINDOW => Self::along(d, from, to, &mut clock),
            _ => Self::all_pairs(d, &mut clock),
        }
    }

    /// Each node's partners among the `WINDOW` nodes on either side of it
    /// by longitudinal position: moves to far-away nodes are never cheap.
    fn along(d: &Dense, from: &[Pos], to: &[Pos], clock: &mut Clock) -> Option<Self> {
        let n = d.len();
        let by_along = |pos: &[Pos], count: usize| {
            let mut idx: Vec<usize> = (0..count).collect();
            idx.sort_by(|&a, &b| pos[a].along.total_cmp(&pos[b].along));
            let keys: Vec<f64> = idx.iter().map(|&i| pos[i].along).collect();
            (idx, keys)
        };
        let (targets, target_keys) = by_along(to, n);
        let (heads, head_keys) = by_along(from, n + 1);
        let cheapest = |cands: &mut Vec<(f64, usize)>| -> Vec<usize> {
            let k = NEIGHBOURS.min(cands.len());
            if k > 0 {
                cands.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0));
            }
            cands[..k].iter().map(|&(_, v)| v).collect()
        };
        let window = |keys: &[f64], at: f64| {
            let mid = keys.partition_point(|&k| k < at);
            mid.saturating_sub(WINDOW)..(mid + WINDOW).min(keys.len())
        };
        let mut cands = Vec::with_capacity(2 * WINDOW + 1);
        let mut succs = Vec::with_capacity(n + 1);
        for u in 0..=n {
            clock.tick()?;
            cands.clear();
            for &v in &targets[window(&target_keys, from[u].along)] {
                if v != u {
                    cands.push((d.cost(u, v), v));
                }
            }
            if u != n {
                cands.push((d.cost(u, n), n));
            }
            succs.push(cheapest(&mut cands));
        }
        let mut preds = Vec::with_capacity(n + 1);
        for v in 0..n {
            clock.tick()?;
            cands.clear();
            for &u in &heads[window(&head_keys, to[v].along)] {
                if u != v {
                    cands.push((d.cost(u, v), u));
                }
            }
            preds.push(cheapest(&mut cands));
        }
        cands.clear();
        cands.extend((0..n).map(|u| (d.cost(u, n), u)));
        preds.push(cheapest(&mut cands));
        Some(Self::from_lists(d, preds, succs))
    }

    /// Each node's partners among all nodes, from one pass over all pairs.
    fn all_pairs(d: &Dense, clock: &mut Clock) -> Option<Self> {
        let nodes = d.len() + 1;
        let k = NEIGHBOURS.min(nodes - 1);
        let mut succs = Vec::with_capacity(nodes);
        // Per node: its k cheapest in-edges so far, and the worst of them
        // and where it is (once there are k): on costs where each row
        // displaces many nodes' worst (IBM 3590, 10,000 files in
        // sequence, seed 2) finding it again before each replacement
        // took these lists 0.67-0.71 s, keeping where it is 0.42-0.44 s.
        let mut preds: Vec<Vec<(f64, usize)>> = vec![Vec::with_capacity(k); nodes];
        let mut worst = vec![f64::INFINITY; nodes];
        let mut worst_at = vec![0; nodes];
        let mut row: Vec<(f64, usize)> = Vec::with_capacity(nodes);
        let mut costs = vec![0.0; nodes];
        for u in 0..nodes {
            clock.tick()?;
            row.clear();
            d.row(u, &mut costs);
            for v in (0..nodes).filter(|&v| v != u) {
                let c = costs[v];
                row.push((c, v));
                let into = &mut preds[v];
                if into.len() < k {
                    into.push((c, u));
                } else if c < worst[v] {
                    into[worst_at[v]] = (c, u);
                } else {
                    continue;
                }
                if into.len() == k {
                    worst_at[v] = argmax(into);
                    worst[v] = into[worst_at[v]].0;
                }
            }
            if k > 0 {
                row.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0));
            }
            succs.push(row[..k].iter().map(|&(_, v)| v).collect());
        }
        let preds = preds
            .into_iter()
            .map(|p| p.into_iter().map(|(_, u)| u).collect())
            .collect();
        Some(Self::from_lists(d, preds, succs))
    }

    /// The candidate lists `preds` (each node's predecessors) and `succs`
    /// (its successors) on the costs `d`.
    pub(crate) fn from_lists(d: &Dense, preds: Vec<Vec<usize>>, succs: Vec<Vec<usize>>) -> Self {
        let pred_costs = preds
            .iter()
            .enumerate()
            .map(|(v, us)| us.iter().map(|&u| d.cost(u, v)).collect())
            .collect();
        let succ_costs = succs
            .iter()
            .enumerate()
            .map(|(u, vs)| vs.iter().map(|&v| d.cost(u, v)).collect())
            .collect();
        Neighbours {
            preds,
            succs,
            pred_costs,
            succ_costs,
        }
    }

    /// The same candidates with their edges timed on the costs `d` (a
    /// perturbed copy of the costs these were chosen on).
    pub(crate) fn with_costs(&self, d: &Dense) -> Self {
        Self::from_lists(d, self.preds.clone(), self.succs.clone())
    }

    /// Whether the stored edge costs are those of `d`, checked on the
    /// first node's candidates: a search must not mix the costs of a
    /// perturbed copy with the true ones.
    pub(super) fn timed_on(&self, d: &Dense) -> bool {
        let first = |costs: &[Vec<f64>], lists: &[Vec<usize>], into: bool| {
            lists.first().is_none_or(|list| {
                list.iter().zip(&costs[0]).all(|(&w, &c)| {
                    let (u, v) = if into { (w, 0) } else { (0, w) };
                    d.cost(u, v) == c
                })
            })
        };
        first(&self.pred_costs, &self.preds, true) && first(&self.succ_costs, &self.succs, false)
    }
}

impl Neighbours {
    /// Whether moves that reverse stretches of a tour are worth trying on
    /// `d`: see [`NEARLY_SYMMETRIC`].
    pub(crate) fn nearly_symmetric(&self, d: &Dense) -> bool {
        let (mut forward, mut backward) = (0.0, 0.0);
        for (u, succs) in self.succs.iter().enumerate() {
            for &v in succs {
                forward += d.cost(u, v);
                backward += d.cost(v, u);
            }
        }
        backward < NEARLY_SYMMETRIC * forward
    }
}

fn argmax(edges: &[(f64, usize)]) -> usize {
    let mut at = 0;
    for (i, e) in edges.iter().enumerate() {
        if e.0 > edges[at].0 {
            at = i;
        }
    }
    at
}
