//! Lin–Kernighan-style variable-depth search on asymmetric costs: a chain of
//! 2-opt flips from a fixed node t₁. Each step replaces the tentative edge
//! t₁→t₂ by a neighbour-list edge t₂→t₃, reverses the path between and makes
//! t₁→t₄ the new tentative edge; the chain goes on while its gain (the
//! reversed paths' cost change included) stays positive, and the tour is
//! kept at the step whose closing gain is best. A flip keeps the depot at
//! position 0, so chains run forwards (t₂ after t₁) and, mirrored, backwards.

use super::dense::Dense;
use super::neighbours::Neighbours;
use super::tour::Tour;
use super::EPS;

/// Longest chain of flips.
const MAX_DEPTH: usize = 25;
/// First steps tried from each t₁ (deeper steps take the best only).
const BREADTH: usize = 3;

/// Improves the tour by variable-depth flip chains until none helps;
/// returns the gain. With `focus`, only chains from those nodes and from
/// nodes next to a change are tried (after a kick); without, from every
/// node, in rounds until one moves nothing.
pub(crate) fn lin_kernighan(
    d: &Dense,
    near: &Neighbours,
    tour: &mut Tour,
    focus: Option<&[usize]>,
) -> f64 {
    if tour.len() < 5 {
        return 0.0;
    }
    if tour.sums.is_none() {
        tour.track_reversals(d);
    }
    // Forwards, then backwards from the same t₁.
    tour.improve_by_chains(focus, |tour, t1, touched| {
        chain(d, near, tour, t1, true, touched) + chain(d, near, tour, t1, false, touched)
    })
}

/// One flip of a chain: positions i..=j reversed, with the exact gain so far.
struct Flip {
    i: usize,
    j: usize,
    closed: f64,
}

/// The best chain from `t1` in one direction, applied when it gains;
/// returns the gain and pushes the nodes whose edges changed to `touched`.
fn chain(
    d: &Dense,
    near: &Neighbours,
    tour: &mut Tour,
    t1: usize,
    forward: bool,
    touched: &mut Vec<usize>,
) -> f64 {
    let len = tour.len();
    let depot = d.depot();
    // t₁'s position: the depot ends a backward chain (position len).
    let p1 = if t1 == depot && !forward {
        len
    } else {
        tour.pos[t1]
    };
    if (forward && p1 + 3 >= len) || (!forward && p1 < 3) {
        return 0.0;
    }
    let t2 = tour.at(if forward { p1 + 1 } else { p1 - 1 });
    let open = if forward {
        d.cost(t1, t2)
    } else {
        d.cost(t2, t1)
    };
    let first = steps(
        d,
        near,
        tour,
        Open {
            p1,
            forward,
            g: open,
            added: &[],
        },
    );
    let mut flips: Vec<Flip> = Vec::with_capacity(MAX_DEPTH);
    let mut added: Vec<(usize, usize)> = Vec::with_capacity(MAX_DEPTH);
    for &(_, q) in first.iter().take(BREADTH) {
        let mut g = open;
        let mut q = Some(q);
        let (mut best, mut best_depth) = (EPS, 0);
        while let Some(at) = q {
            let (i, j) = if forward {
                (p1 + 1, at - 1)
            } else {
                (at + 1, p1 - 1)
            };
            let (t2, t3, t4) = if forward {
                (tour.t[i], tour.at(at), tour.t[j])
            } else {
                (tour.t[j], tour.t[at], tour.t[i])
            };
            let inside = tour.reversal_exact(d, i, j);
            g += if forward {
                d.cost(t4, t3) - d.cost(t2, t3)
            } else {
                d.cost(t3, t4) - d.cost(t3, t2)
            } - inside;
            added.push(if forward { (t2, t3) } else { (t3, t2) });
            tour.reverse(i..j + 1);
            let closed = g - if forward {
                d.cost(t1, t4)
            } else {
                d.cost(t4, t1)
            };
            flips.push(Flip { i, j, closed });
            if closed > best {
                (best, best_depth) = (closed, flips.len());
            }
            q = (flips.len() < MAX_DEPTH)
                .then(|| {
                    let added = &added;
                    best_step(
                        d,
                        near,
                        tour,
                        Open {
                            p1,
                            forward,
                            g,
                            added,
                        },
                    )
                })
                .flatten()
                .map(|(_, q)| q);
        }
        while flips.len() > best_depth {
            let f = flips.pop().expect("a flip to undo");
            tour.undo_last(f.i..f.j + 1);
        }
        if best_depth > 0 {
            touched.push(t1);
            for f in &flips {
                touched.extend([tour.t[f.i], tour.t[f.j], tour.at(f.j + 1)]);
                touched.push(tour.t[f.i - 1]);
            }
            return flips[best_depth - 1].closed;
        }
        added.clear();
    }
    0.0
}

/// Where a chain stands before its next step: its tentative edge joins
/// t₁ (at `p1`) and the node beside it (after it when `forward`), its open
/// gain is `g` (the tentative edge's removal counted), and no step may
/// remove an edge in `added`.
#[derive(Clone, Copy)]
struct Open<'a> {
    p1: usize,
    forward: bool,
    g: f64,
    added: &'a [(usize, usize)],
}

/// The next steps of a chain standing at `at`: (gain after the step,
/// position of t₃), most gaining first (ties: the lower position first),
/// positive gains only.
fn steps(d: &Dense, near: &Neighbours, tour: &mut Tour, at: Open) -> Vec<(f64, usize)> {
    let mut out = Vec::new();
    each_step(d, near, tour, at, |step| out.push(step));
    out.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    out
}

/// The first of [`steps`], without listing and sorting the others: a
/// chain's deeper steps take only the best. The same tours; `best` 20.1 ->
/// 18.1 s on a random symmetric matrix of 1,000 nodes, 24.3 -> 23.2 s on
/// one of 300 (`benchmarks/bench_symmetric.py`), DIMACS rtilt at 1,000
/// nodes 9.0 -> 8.1 s, 4mm DAT gaussian 1,000 files 1.60 -> 1.47 s
/// (2026-11-29, `benchmarks/RESULTS.md`).
fn best_step(d: &Dense, near: &Neighbours, tour: &mut Tour, at: Open) -> Option<(f64, usize)> {
    let mut best: Option<(f64, usize)> = None;
    each_step(d, near, tour, at, |(gain, at)| {
        let ahead = best.is_none_or(|(bg, ba)| gain.total_cmp(&bg).then(ba.cmp(&at)).is_gt());
        if ahead {
            best = Some((gain, at));
        }
    });
    best
}

/// Calls `visit` with each step of [`steps`], in neighbour-list order.
fn each_step(
    d: &Dense,
    near: &Neighbours,
    tour: &mut Tour,
    Open {
        p1,
        forward,
        g,
        added,
    }: Open,
    mut visit: impl FnMut((f64, usize)),
) {
    let len = tour.len();
    let depot = d.depot();
    let Tour { t, pos, sums, .. } = tour;
    let sums = sums.as_mut().expect("reversals tracked");
    sums.sync(d, t);
    if forward {
        let t2 = t[p1 + 1];
        for &t3 in &near.succs[t2] {
            let at = if t3 == depot { len } else { pos[t3] };
            if at < p1 + 3 {
                continue;
            }
            let t4 = t[at - 1];
            if added.contains(&(t4, t3)) {
                continue;
            }
            let gain = g + d.cost(t4, t3) - d.cost(t2, t3) - sums.reversal(p1 + 1, at - 1);
            if gain > EPS {
                visit((gain, at));
            }
        }
    } else {
        let t2 = t[p1 - 1];
        for &t3 in &near.preds[t2] {
            let at = pos[t3];
            if at + 3 > p1 {
                continue;
            }
            let t4 = t[at + 1];
            if added.contains(&(t3, t4)) {
                continue;
            }
            let gain = g + d.cost(t3, t4) - d.cost(t3, t2) - sums.reversal(at + 1, p1 - 1);
            if gain > EPS {
                visit((gain, at));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::test_support::{improves_the_identity_tour, on_closed_tour};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The best step is the first of the sorted steps, ties included
        /// (small integer costs make many), from every t₁ either way.
        #[test]
        fn the_best_step_is_the_first_of_the_sorted_steps(
            n in 5usize..40,
            raw in proptest::collection::vec(0u32..20, 40 * 40),
            g in 0.0f64..40.0,
        ) {
            let rows = (0..n)
                .map(|i| (0..n).map(|j| f64::from(raw[i * 40 + j])).collect())
                .collect();
            on_closed_tour(rows, |d, near| {
                let order: Vec<usize> = (0..d.len()).collect();
                let mut tour = Tour::new(d.depot(), &order);
                tour.track_reversals(d);
                let len = tour.len();
                let starts = (0..len - 3).map(|p| (p, true)).chain((3..=len).map(|p| (p, false)));
                for (p1, forward) in starts {
                    let at = Open { p1, forward, g, added: &[] };
                    let all = steps(d, near, &mut tour, at);
                    let best = best_step(d, near, &mut tour, at);
                    prop_assert_eq!(best, all.first().copied());
                }
                Ok(())
            })?;
        }
    }

    #[test]
    fn chains_gain_what_the_tour_loses_and_keep_a_permutation() {
        let mut s = 11u64;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as f64 / (1u64 << 31) as f64
        };
        for n in [6, 20, 80] {
            let pts: Vec<(f64, f64)> = (0..n).map(|_| (next() * 1e3, next() * 1e3)).collect();
            let rows = pts
                .iter()
                .map(|a| {
                    pts.iter()
                        .map(|b| {
                            let dy = b.1 - a.1;
                            ((b.0 - a.0).abs().max(if dy > 0.0 { 2.0 * dy } else { -dy })).round()
                        })
                        .collect()
                })
                .collect();
            improves_the_identity_tour(rows, |d, near, tour| lin_kernighan(d, near, tour, None));
        }
    }
}
