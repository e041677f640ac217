//! Or-opt local search for the asymmetric problem: move a run of one to three
//! consecutive requests to another place in the order, without reversing it,
//! whenever that shortens the total. Insertion points are drawn from each
//! request's nearest neighbours, so a pass costs O(n·k) rather than O(n²).

use super::dense::Dense;

/// Neighbours kept per node: enough to find nearly every improving move.
const NEIGHBOURS: usize = 16;
/// Longest run of consecutive requests moved at once.
const MAX_RUN: usize = 3;
/// Improvements smaller than this (seconds) are rounding noise.
const EPS: f64 = 1e-9;

/// Improves `order` in place until no Or-opt move helps; returns the gain.
pub(crate) fn or_opt(d: &Dense, order: &mut Vec<usize>) -> f64 {
    let n = order.len();
    if n < 2 {
        return 0.0;
    }
    let nodes = n + 1;
    let k = NEIGHBOURS.min(n);
    let nearest = |key: &dyn Fn(usize) -> f64, v: usize| -> Vec<usize> {
        let mut others: Vec<usize> = (0..nodes).filter(|&u| u != v).collect();
        let k = k.min(others.len());
        others.select_nth_unstable_by(k - 1, |&a, &b| key(a).total_cmp(&key(b)));
        others.truncate(k);
        others
    };
    let preds: Vec<Vec<usize>> = (0..nodes).map(|v| nearest(&|u| d.cost(u, v), v)).collect();
    let succs: Vec<Vec<usize>> = (0..nodes).map(|v| nearest(&|w| d.cost(v, w), v)).collect();

    // The tour as a cycle through the depot at index 0.
    let mut tour: Vec<usize> = std::iter::once(d.depot())
        .chain(order.iter().copied())
        .collect();
    let mut pos = vec![0; nodes];
    let reindex = |tour: &[usize], pos: &mut [usize]| {
        for (i, &v) in tour.iter().enumerate() {
            pos[v] = i;
        }
    };
    reindex(&tour, &mut pos);
    let before = d.tour(order);
    let mut improved = true;
    while improved {
        improved = false;
        for run in 1..=MAX_RUN.min(n) {
            let mut i = 1;
            while i + run <= nodes {
                let first = tour[i];
                let last = tour[i + run - 1];
                let prev = tour[i - 1];
                let next = tour[(i + run) % nodes];
                let gain = d.cost(prev, first) + d.cost(last, next) - d.cost(prev, next);
                let inside = |v: usize| pos[v] >= i && pos[v] < i + run;
                let mut best: Option<(f64, usize)> = None;
                let edges = preds[first].iter().copied().chain(
                    succs[last]
                        .iter()
                        .map(|&b| tour[(pos[b] + nodes - 1) % nodes]),
                );
                for a in edges {
                    if inside(a) || a == prev {
                        continue;
                    }
                    let b = tour[(pos[a] + 1) % nodes];
                    if inside(b) {
                        continue;
                    }
                    let delta = d.cost(a, first) + d.cost(last, b) - d.cost(a, b) - gain;
                    if delta < -EPS && best.is_none_or(|(bd, _)| delta < bd) {
                        best = Some((delta, a));
                    }
                }
                if let Some((_, a)) = best {
                    let segment: Vec<usize> = tour.drain(i..i + run).collect();
                    let at = tour.iter().position(|&v| v == a).expect("a is in the tour") + 1;
                    tour.splice(at..at, segment);
                    reindex(&tour, &mut pos);
                    improved = true;
                } else {
                    i += 1;
                }
            }
        }
    }
    order.clear();
    order.extend(tour[1..].iter().copied());
    before - d.tour(order)
}
