//! LOSS: the Van der Cruyssen–Rijckaert (1978) heuristic for the asymmetric
//! TSP, as Hillyer & Silberschatz used it for tape. The "loss" of a node's
//! row (or column) is what it costs to give up its cheapest allowed edge for
//! its second cheapest; the edge with the largest loss is fixed first. Fixed
//! edges form path fragments; an edge that would close a fragment on itself
//! is not allowed until the last one. The start/end depot is one more node,
//! so the tour cut at the depot is the path the drive follows.
//!
//! Rows and columns are sorted once; an edge, once disallowed, stays so, which
//! lets each row's first and second choices only move forward: O(n² log n).
//! Ties go to the larger loss, then the cheaper edge, then the lower node.
//!
//! Any further rule of the 1978 paper is not implemented, because it cannot
//! be recovered from this project's sources. Sandstå & Midtstraum, whose
//! experiment uses LOSS, describe it in one sentence (§4.3): "LOSS - is an
//! heuristic for solving the *Asymmetric Traveling Salesman Problem* [2]. It
//! solves the same problem as the OPT scheduler, but in linear time." That
//! states no selection rule, tie rule or subtour rule; "linear time" is not
//! even consistent with their Figure 9 (63, 119 and 227 s at 1024, 1536 and
//! 2048 requests: growth as n^1.85). The cited paper (Van der Cruyssen &
//! Rijckaert, JORS 29(7):697–701) is not among the seeds, and we have no
//! text of it to quote, so what is above is the generic regret rule, not the
//! 1978 paper's exact one (docs/ordering.md). An earlier version of this note
//! named an extra rule for a node whose best in- and out-partner coincide,
//! seen in one public implementation that applied it inconsistently; without
//! the paper we cannot say what that rule is, so we do not guess it.

use super::dense::Dense;
use super::registry::{Orderer, Plan};
use super::Options;
use super::Problem;
use crate::stop::{Clock, Stop};
use crate::Result;

const NONE: usize = usize::MAX;

struct State {
    succ: Vec<usize>,
    pred: Vec<usize>,
    /// For a fragment's tail, its head; for its head, its tail.
    other_end: Vec<usize>,
}

impl State {
    fn allowed(&self, from: usize, to: usize) -> bool {
        from != to && self.succ[from] == NONE && self.pred[to] == NONE && self.other_end[from] != to
    }
}

/// One side's sorted choices and the positions of its first two allowed ones.
struct Choices {
    sorted: Vec<Vec<u32>>,
    first: Vec<usize>,
    second: Vec<usize>,
}

impl Choices {
    fn new(nodes: usize, cost: impl Fn(usize, usize) -> f64) -> Self {
        let sorted = (0..nodes)
            .map(|v| {
                let mut row: Vec<u32> = (0..nodes as u32).filter(|&w| w as usize != v).collect();
                row.sort_by(|&a, &b| {
                    cost(v, a as usize)
                        .total_cmp(&cost(v, b as usize))
                        .then(a.cmp(&b))
                });
                row
            })
            .collect();
        Choices {
            sorted,
            first: vec![0; nodes],
            second: vec![1; nodes],
        }
    }

    /// Advances v's pointers past disallowed entries; returns (best, second).
    fn refresh(&mut self, v: usize, ok: impl Fn(usize) -> bool) -> (Option<usize>, Option<usize>) {
        let row = &self.sorted[v];
        let mut f = self.first[v];
        while f < row.len() && !ok(row[f] as usize) {
            f += 1;
        }
        let mut s = self.second[v].max(f + 1);
        while s < row.len() && !ok(row[s] as usize) {
            s += 1;
        }
        self.first[v] = f;
        self.second[v] = s;
        (
            row.get(f).map(|&w| w as usize),
            row.get(s).map(|&w| w as usize),
        )
    }
}

/// The LOSS order of the problem's requests.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    plan_with(&Dense::matrix(problem))
}

/// The LOSS order for the costs `d` (best shares one matrix among seeds).
pub(crate) fn plan_with(d: &Dense) -> Vec<usize> {
    plan_until(d, &Stop::never()).expect("nothing stops it")
}

/// [`plan_with`], or `None` once `stop` (a caller's time limit or cancel)
/// is reached: each of its n steps looks at every node.
pub(crate) fn plan_until(d: &Dense, stop: &Stop) -> Option<Vec<usize>> {
    let n = d.len();
    if n <= 1 {
        return Some((0..n).collect());
    }
    let nodes = n + 1;
    let mut rows = Choices::new(nodes, |v, w| d.cost(v, w));
    let mut cols = Choices::new(nodes, |v, w| d.cost(w, v));
    let mut state = State {
        succ: vec![NONE; nodes],
        pred: vec![NONE; nodes],
        other_end: (0..nodes).collect(),
    };
    // A loss for a node with a single choice left: it must be served now.
    let forced = f64::MAX / 4.0;
    let mut clock = Clock::new(stop);
    for _ in 0..nodes - 1 {
        clock.tick()?;
        // (loss, edge cost, node, from, to)
        let mut pick: Option<(f64, f64, usize, usize, usize)> = None;
        let mut consider = |loss: f64, cost: f64, node: usize, from: usize, to: usize| {
            let better = match pick {
                None => true,
                Some((l, c, v, _, _)) => {
                    loss > l || (loss == l && (cost < c || (cost == c && node < v)))
                }
            };
            if better {
                pick = Some((loss, cost, node, from, to));
            }
        };
        for v in 0..nodes {
            if state.succ[v] == NONE {
                if let (Some(a), second) = rows.refresh(v, |w| state.allowed(v, w)) {
                    let loss = second.map_or(forced, |b| d.cost(v, b) - d.cost(v, a));
                    consider(loss, d.cost(v, a), v, v, a);
                }
            }
            if state.pred[v] == NONE {
                if let (Some(a), second) = cols.refresh(v, |u| state.allowed(u, v)) {
                    let loss = second.map_or(forced, |b| d.cost(b, v) - d.cost(a, v));
                    consider(loss, d.cost(a, v), v, a, v);
                }
            }
        }
        let (_, _, _, from, to) = pick.expect("two fragments always have an allowed edge");
        let head = state.other_end[from];
        let tail = state.other_end[to];
        state.succ[from] = to;
        state.pred[to] = from;
        state.other_end[head] = tail;
        state.other_end[tail] = head;
    }
    let tail = (0..nodes)
        .find(|&v| state.succ[v] == NONE)
        .expect("one open path");
    state.succ[tail] = state.other_end[tail];
    let mut order = Vec::with_capacity(n);
    let mut v = state.succ[d.depot()];
    while order.len() < n {
        order.push(v);
        v = state.succ[v];
    }
    Some(order)
}

/// LOSS in the registry.
pub(crate) struct Loss;

impl Orderer for Loss {
    fn name(&self) -> &'static str {
        "loss"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}
