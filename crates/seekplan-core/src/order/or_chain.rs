//! Variable-depth Or-3opt: chains of segment swaps that never reverse.
//! A swap cuts the tour as A B C D and reconnects it as A C B D (see
//! [`super::local_search::or_3opt`]); the edge b₁→d that closes the gap is
//! the one the neighbour lists did not choose, so instead of closing there
//! the chain makes it tentative and swaps again from b₁, as Lin–Kernighan
//! does with its flips, while the gain so far stays positive. The tour is
//! kept at the step whose closing gain is best. Each step works to the
//! right of the last (the depot stays first), so the chain's cuts never
//! touch an edge it added.

use super::dense::Dense;
use super::neighbours::Neighbours;
use super::tour::Tour;
use super::EPS;

/// Longest chain of swaps.
const MAX_DEPTH: usize = 10;
/// First swaps tried from each node (deeper steps take the best only).
const BREADTH: usize = 3;

/// Improves the tour by chains of segment swaps until none helps; returns
/// the gain. With `focus`, only chains from those nodes and from nodes
/// next to a change are tried (after a kick); without, from every node,
/// in rounds until one moves nothing.
pub(crate) fn or_chains(
    d: &Dense,
    near: &Neighbours,
    tour: &mut Tour,
    focus: Option<&[usize]>,
) -> f64 {
    if tour.len() < 4 {
        return 0.0;
    }
    tour.improve_by_chains(focus, |tour, a, touched| chain(d, near, tour, a, touched))
}

/// One swap of a chain: positions `start..end` rotated left by `by`, the
/// open gain after it and the gain had the chain closed there.
struct Swap {
    start: usize,
    end: usize,
    by: usize,
    open: f64,
    closed: f64,
}

/// The best chain from `a`, applied when it gains; returns the gain and
/// pushes the nodes whose out-edges changed to `touched`.
fn chain(d: &Dense, near: &Neighbours, tour: &mut Tour, a: usize, touched: &mut Vec<usize>) -> f64 {
    let p = tour.pos[a];
    let first = steps(d, near, tour, p, d.cost(a, tour.at(p + 1)));
    let mut swaps: Vec<Swap> = Vec::with_capacity(MAX_DEPTH);
    for start in first.into_iter().take(BREADTH) {
        let (mut best, mut best_depth) = (EPS, 0);
        let mut next = Some(start);
        while let Some(swap) = next {
            tour.rotate(swap.start..swap.end, swap.by);
            if swap.closed > best {
                (best, best_depth) = (swap.closed, swaps.len() + 1);
            }
            let (from, open) = (swap.end - 1, swap.open);
            swaps.push(swap);
            next = (swaps.len() < MAX_DEPTH)
                .then(|| steps(d, near, tour, from, open))
                .and_then(|s| s.into_iter().next());
        }
        while swaps.len() > best_depth {
            let s = swaps.pop().expect("a swap to undo");
            tour.undo_last(s.start..s.end);
        }
        if best_depth > 0 {
            touched.push(a);
            for s in &swaps {
                let (c1, b1) = (tour.t[s.end - s.by - 1], tour.t[s.end - 1]);
                touched.extend([c1, b1]);
            }
            return best;
        }
    }
    0.0
}

/// The swaps from the node at position `p`, whose edge to the next node is
/// tentative with open gain `g` (its cost counted as removed): the cut
/// after `p` (b₀ follows), a new edge a→c₀ with c₀ among a's cheapest
/// successors further on, b₁ before c₀, a new edge c₁→b₀ with c₁ among
/// b₀'s cheapest predecessors further on still. Positive open gains only,
/// most gaining first.
fn steps(d: &Dense, near: &Neighbours, tour: &Tour, p: usize, g: f64) -> Vec<Swap> {
    let nodes = tour.len();
    let mut out = Vec::new();
    if p + 2 >= nodes {
        return out;
    }
    let a = tour.t[p];
    let b0 = tour.t[p + 1];
    for &c0 in &near.succs[a] {
        let q = tour.pos[c0];
        if c0 == d.depot() || q <= p + 1 {
            continue;
        }
        let b1 = tour.t[q - 1];
        let opened = g - d.cost(a, c0) + d.cost(b1, c0);
        if opened <= EPS {
            continue;
        }
        for &c1 in &near.preds[b0] {
            let r = tour.pos[c1] + 1;
            if c1 == d.depot() || r <= q {
                continue;
            }
            let after = tour.at(r);
            let open = opened - d.cost(c1, b0) + d.cost(c1, after);
            if open > EPS {
                out.push(Swap {
                    start: p + 1,
                    end: r,
                    by: q - (p + 1),
                    open,
                    closed: open - d.cost(b1, after),
                });
            }
        }
    }
    out.sort_by(|x, y| y.open.total_cmp(&x.open).then(x.end.cmp(&y.end)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::test_support::improves_the_identity_tour;

    #[test]
    fn chains_gain_what_the_tour_loses_and_keep_a_permutation() {
        let mut s = 7u64;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as f64 / (1u64 << 31) as f64
        };
        for n in [5, 20, 80] {
            let rows = (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| if i == j { 0.0 } else { (next() * 1e3).round() })
                        .collect()
                })
                .collect();
            improves_the_identity_tour(rows, |d, near, tour| or_chains(d, near, tour, None));
        }
    }
}
