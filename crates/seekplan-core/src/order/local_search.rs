//! Or-opt local search for the asymmetric problem: move a run of one to three
//! consecutive requests to another place in the order, without reversing it,
//! whenever that shortens the total. Insertion points are drawn from each
//! request's nearest neighbours, so a pass costs O(n·k) rather than O(n²),
//! and after the first pass only requests next to a change are looked at again.
//! On nearly symmetric costs the search also runs chains of Or-3opt swaps
//! ([`super::or_chain`]), Lin–Kernighan flip chains and sequential
//! reversal-free 5-opt moves ([`super::kopt`]).

use super::dense::Dense;
use super::kopt::k_opt;
use super::lk::lin_kernighan;
use super::neighbours::{Neighbours, NEIGHBOURS};
use super::or_chain::or_chains;
use super::tour::Tour;
use super::{Problem, EPS};
use crate::stop::Stop;

/// Longest run of consecutive requests moved at once.
const MAX_RUN: usize = 3;

/// Improves the tour until no Or-opt move helps; returns the gain (the sum
/// of the moves' savings). With `focus`, only runs starting at those nodes
/// and at nodes next to a change are tried (after a local change such as a
/// kick); without, every node, in rounds until a whole round moves nothing.
pub(crate) fn or_opt(
    d: &Dense,
    near: &Neighbours,
    tour: &mut Tour,
    focus: Option<&[usize]>,
) -> f64 {
    let nodes = tour.len();
    let n = nodes - 1;
    if n < 2 {
        return 0.0;
    }
    debug_assert!(near.timed_on(d), "candidates timed on other costs");
    let (preds, succs) = (&near.preds, &near.succs);
    let mut gain_total = 0.0;
    // Nodes whose segments may still move: all at first, then only those
    // next to a change (the "don't look bits" of Bentley's 2-opt). A move
    // can also open one for a node far away, so rounds repeat over every
    // node until one makes no move: the result is a true Or-opt optimum.
    let mut moved = focus.is_none();
    for &w in focus.unwrap_or(&[]) {
        if w != d.depot() {
            tour.enqueue(w);
        }
    }
    // Insertion points after `first`'s cheapest predecessors: the same
    // for every run starting at `first`, so timed once per node.
    let mut after_preds: Vec<(usize, usize, f64, f64)> = Vec::with_capacity(NEIGHBOURS);
    while let Some(v) = tour.next(&mut moved, 1) {
        let i = tour.pos[v];
        let first = tour.t[i];
        let prev = tour.t[i - 1];
        after_preds.clear();
        for (&a, &into_first) in preds[first].iter().zip(&near.pred_costs[first]) {
            if a != prev {
                let b = tour.at(tour.pos[a] + 1);
                after_preds.push((a, b, into_first, tour.edge_cost(d, a, b)));
            }
        }
        for run in 1..=MAX_RUN.min(n) {
            if i + run > nodes {
                break;
            }
            let last = tour.t[i + run - 1];
            let next = tour.at(i + run);
            let gain =
                tour.edge_cost(d, prev, first) + tour.edge_cost(d, last, next) - d.cost(prev, next);
            let inside = |v: usize| tour.pos[v] >= i && tour.pos[v] < i + run;
            let mut best: Option<(f64, usize)> = None;
            for &(a, b, into_first, cut) in &after_preds {
                let least = into_first - cut - gain;
                if inside(a) || inside(b) || cannot_win(least, best.map(|b| b.0)) {
                    continue;
                }
                let delta = into_first + d.cost(last, b) - cut - gain;
                if delta < -EPS && best.is_none_or(|(bd, _)| delta < bd) {
                    best = Some((delta, a));
                }
            }
            for (&b, &out_last) in succs[last].iter().zip(&near.succ_costs[last]) {
                let a = tour.at(tour.pos[b] + nodes - 1);
                if inside(a) || a == prev || inside(b) {
                    continue;
                }
                let cut = tour.edge_cost(d, a, b);
                if cannot_win(out_last - cut - gain, best.map(|b| b.0)) {
                    continue;
                }
                let delta = d.cost(a, first) + out_last - cut - gain;
                if delta < -EPS && best.is_none_or(|(bd, _)| delta < bd) {
                    best = Some((delta, a));
                }
            }
            if let Some((delta, a)) = best {
                gain_total -= delta;
                let b = tour.at(tour.pos[a] + 1);
                for k in i..i + run {
                    let w = tour.t[k];
                    tour.enqueue(w);
                }
                for w in [prev, next, a, b] {
                    if w != d.depot() {
                        tour.enqueue(w);
                    }
                }
                // Move the run to just after `a` by rotating only the stretch
                // between them: O(distance), not O(n) as a remove and insert.
                let pa = tour.pos[a];
                if pa < i {
                    tour.rotate(pa + 1..i + run, i + run - (pa + 1) - run);
                } else {
                    tour.rotate(i..pa + 1, run);
                }
                moved = focus.is_none();
                break;
            }
        }
    }
    gain_total
}

/// Improves the tour by Or-3opt segment swaps until none helps; returns
/// the gain. A swap cuts the tour (depot first and last) as A B C D and
/// reconnects it as A C B D, reversing nothing: the new edges a→c₀ and
/// c₁→b₀ are drawn from the neighbour lists (c₀ among a's cheapest
/// successors, c₁ among b₀'s cheapest predecessors), the third b₁→d closes
/// the gap. This moves segments of any length, which Or-opt (runs of at
/// most three) cannot. With `focus`, only cuts after those nodes and after
/// nodes next to a change are tried (after a kick); without, every cut, in
/// rounds until one moves nothing.
pub(crate) fn or_3opt(
    d: &Dense,
    near: &Neighbours,
    tour: &mut Tour,
    focus: Option<&[usize]>,
) -> f64 {
    let nodes = tour.len();
    if nodes < 4 {
        return 0.0;
    }
    let mut gain = 0.0;
    let mut moved = focus.is_none();
    for &w in focus.unwrap_or(&[]) {
        tour.enqueue(w);
    }
    debug_assert!(near.timed_on(d), "candidates timed on other costs");
    let mut closings: Vec<(usize, usize, f64, f64)> = Vec::with_capacity(NEIGHBOURS);
    while let Some(a) = tour.next(&mut moved, 0) {
        let p = tour.pos[a];
        if p + 2 >= nodes {
            continue;
        }
        let b0 = tour.t[p + 1];
        let cut_ab = tour.edge_cost(d, a, b0);
        // The third cut's end, its new edge into b₀ and its old edge, per
        // candidate c₁: the same for every c₀, so timed once here.
        closings.clear();
        for (&c1, &into_b0) in near.preds[b0].iter().zip(&near.pred_costs[b0]) {
            let r = tour.pos[c1] + 1;
            if c1 == d.depot() || r <= p + 2 {
                continue;
            }
            let after = tour.at(r);
            closings.push((r, after, into_b0, tour.edge_cost(d, c1, after)));
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for (&c0, &into_c0) in near.succs[a].iter().zip(&near.succ_costs[a]) {
            let q = tour.pos[c0];
            if c0 == d.depot() || q <= p + 1 {
                continue;
            }
            let b1 = tour.t[q - 1];
            let opened = into_c0 - cut_ab - tour.edge_cost(d, b1, c0);
            for &(r, after, into_b0, cut_c1) in &closings {
                if r <= q {
                    continue;
                }
                if cannot_win(opened + into_b0 - cut_c1, best.map(|b| b.0)) {
                    continue;
                }
                let delta = opened + into_b0 + d.cost(b1, after) - cut_c1;
                if delta < -EPS && best.is_none_or(|(bd, _, _)| delta < bd) {
                    best = Some((delta, q, r));
                }
            }
        }
        if let Some((delta, q, r)) = best {
            let (b1, c1) = (tour.t[q - 1], tour.t[r - 1]);
            tour.rotate(p + 1..r, q - (p + 1));
            gain -= delta;
            moved = focus.is_none();
            // The cuts whose edges changed: after a, b₁ and c₁.
            for w in [a, b1, c1] {
                tour.enqueue(w);
            }
        }
    }
    gain
}

/// Or-opt, Or-3opt and, on a tour that tracks reversals, Or-3opt chains,
/// Lin–Kernighan and 5-opt in turn until none improves the tour; returns
/// the gain.
/// With `focus` (a kick's endpoints), each starts only there.
fn alternate(d: &Dense, near: &Neighbours, tour: &mut Tour, focus: Option<&[usize]>) -> f64 {
    let mut gain = or_opt(d, near, tour, focus);
    loop {
        let mut more = or_3opt(d, near, tour, focus);
        if tour.sums.is_some() {
            more += or_chains(d, near, tour, focus)
                + lin_kernighan(d, near, tour, focus)
                + k_opt(d, near, tour, focus);
        }
        if more <= EPS {
            return gain + more;
        }
        gain += more + or_opt(d, near, tour, focus);
    }
}

/// Whether a move whose delta is `least` before its last edge is timed
/// cannot improve on `best` (the best delta so far) or gain at all: costs
/// are never negative, so the last edge only raises the delta, and a move
/// dropped here untimed is one the search would not have chosen.
fn cannot_win(least: f64, best: Option<f64>) -> bool {
    least >= best.map_or(-EPS, |bd| bd.min(-EPS))
}

/// The local search from the nodes in `focus` (a kick's endpoints) until
/// no move improves the tour; returns the gain.
pub(crate) fn repair(d: &Dense, near: &Neighbours, tour: &mut Tour, focus: &[usize]) -> f64 {
    alternate(d, near, tour, Some(focus))
}

/// Whether the local search tries moves that reverse stretches of a tour:
/// only on explicit matrices that are nearly symmetric.
pub(crate) fn reversals_pay(problem: &Problem, d: &Dense, near: &Neighbours) -> bool {
    problem.is_matrix() && near.nearly_symmetric(d)
}

/// Or-opt and Or-3opt (and Or-3opt chains, Lin–Kernighan and 5-opt when
/// `reversals`) in turn until none improves `order`, or until `stop` (a
/// caller's time limit or cancel) is reached; returns the gain.
pub(crate) fn descend(
    d: &Dense,
    near: &Neighbours,
    order: &mut Vec<usize>,
    reversals: bool,
    stop: &Stop,
) -> f64 {
    let mut tour = Tour::new(d.depot(), order);
    tour.until(stop);
    if reversals {
        tour.track_reversals(d);
    }
    let gain = alternate(d, near, &mut tour, None);
    order.clear();
    order.extend_from_slice(tour.order());
    gain
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CostMatrix;
    use crate::order::test_support::square_rows;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The descent makes the same moves on costs timed on demand (where
        /// the tour remembers the edges it timed, and moves that cannot win
        /// are dropped untimed) as on the same costs stored: small integer
        /// costs, so ties between moves are common.
        #[test]
        fn descent_is_the_same_on_stored_and_on_demand_costs(
            n in 4usize..50,
            raw in proptest::collection::vec(0u32..50, 2500),
            reversals in any::<bool>(),
        ) {
            let matrix = CostMatrix::from_rows(square_rows(n, &raw)).unwrap();
            let problem = Problem::matrix(&matrix, 0, None).unwrap();
            let stored = Dense::matrix(&problem);
            let on_demand = Dense::on_demand(&problem);
            prop_assert!(stored.is_stored() && !on_demand.is_stored());
            let orders: Vec<Vec<usize>> = [&stored, &on_demand]
                .into_iter()
                .map(|d| {
                    let near = Neighbours::new(d);
                    let mut order: Vec<usize> = (0..d.len()).rev().collect();
                    descend(d, &near, &mut order, reversals, &Stop::never());
                    order
                })
                .collect();
            prop_assert_eq!(&orders[0], &orders[1]);
        }
    }

    /// A search handed candidates timed on other costs (a perturbed copy's
    /// search given the true costs' candidates) stops at once, in builds
    /// with debug assertions, rather than mixing the two.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "candidates timed on other costs")]
    fn candidates_timed_on_other_costs_are_refused() {
        use rand::SeedableRng;
        let rows: Vec<Vec<f64>> = (0..12u32)
            .map(|i| {
                (0..12u32)
                    .map(|j| f64::from((i * 7 + j * 3) % 11 + 1))
                    .collect()
            })
            .collect();
        let matrix = CostMatrix::from_rows(rows).unwrap();
        let problem = Problem::matrix(&matrix, 0, None).unwrap();
        let d = Dense::matrix(&problem);
        let near = Neighbours::new(&d);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let other = d.perturbed(0.5, &mut rng).unwrap();
        let order: Vec<usize> = (0..other.len()).collect();
        or_opt(&other, &near, &mut Tour::new(other.depot(), &order), None);
    }
}
