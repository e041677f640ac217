//! Iterated local search for the asymmetric problem: from an Or-opt
//! optimum, kick the best order with a reversal-free double bridge (two
//! adjacent segments swap places: A B C D → A C B D; three, B C D → D C B,
//! when the search also reverses), repair it with Or-opt and Or-3opt (and
//! Lin–Kernighan) started only at the kick's endpoints (don't-look bits
//! everywhere else) on the tour in place, undoing the kick and its repair
//! when they do not pay (so a kick costs what it touches, not O(n)),
//! and keep the result when it is cheaper. Seeded and budgeted, so the same
//! input and options give the same order.

use super::dense::Dense;
use super::local_search::{descend, repair};
use super::neighbours::Neighbours;
use super::tour::Tour;
use super::watch::Watch;
use super::Options;
use super::EPS;
use crate::stop::Stop;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Longest segment a kick moves: local kicks keep the repair local.
const MAX_SEGMENT: usize = 50;
/// Kicks per request when the caller sets no budget, and their cap. On
/// drive models (LTO-9 1,000 and 4,000 files, MLR1 1,000) 20 kicks per
/// request cost about 4x the CPU of 2 (LTO-9 4,000 files: 12.0 s against
/// 3.3 s) and shortened no schedule by more than 0.03 %, so 2 it is there.
/// On explicit matrices of the DIMACS ATSP families whose bound is weak
/// (rtilt, stilt, crane at 100-316 nodes) 10 per node shortened tours by
/// 0-1.6 % for 0.1 s more (`benchmarks/bench_atsp.py`, 2026-11-25), so
/// matrices get 10. `iterations` buys more.
const KICKS_PER_REQUEST: usize = 2;
const KICKS_PER_NODE: usize = 10;
/// On drive models, the default budget is at least this many kicks: the
/// budget a matrix of 100 nodes gets, for batches of under 500 requests,
/// where each kick is cheap. With 2 per request, `best` on a catalogued
/// drive's batch of 100 files (nine drives, three patterns, seeds 1-2)
/// ended up to 1.2 % above `best` on the same batch's locate matrix (4mm
/// DAT uniform); with this floor 5 of the 54 batches are 0.02-1.2 % shorter
/// and none longer, for 1.14 → 1.72 s of CPU over the 54 (at most 0.12 s
/// each); at 316 files 3 of 54 are 0.01-0.06 % shorter and none longer,
/// for 5.89 → 6.04 s (`bench_tape_vs_matrix.py [--sizes 316]` on c9e1417's
/// build and this one, 2026-11-29). The tours' gap still sets the budget
/// below this (see [`KICKS_PER_GAP_EDGE`]).
const MIN_DRIVE_KICKS: usize = 1_000;
const MAX_KICKS: usize = 100_000;
/// The default budget also keeps kicks × requests under this: 20,000 kicks
/// at 100,000 requests (a few seconds) rather than 200,000 (minutes for
/// ~0.1 %). On explicit matrices, whose kicks also run Or-3opt, under a
/// hundredth of it: 2,000 kicks at 10,000 random nodes took 0.7 s and
/// 20,000 took 6.4 s, neither shortening the tour (measured 2026-11-25).
/// Both caps were measured when every kick still copied the whole order;
/// kicks now work in place, so they may be loose (not re-measured).
const MAX_KICK_WORK: usize = 2_000_000_000;
const MAX_MATRIX_KICK_WORK: usize = 20_000_000;

/// Kicks per edge of open gap, when the caller sets no budget: a search
/// whose tour is `g` (a fraction) above its lower bound on `n` requests is
/// `n × g` average moves from it, and gets this many kicks for each, at
/// least [`MIN_KICKS`] and at most the default budget. Where the bound is
/// weak (stilt and rtilt at 316 nodes, 5-8 % open when the kicks start)
/// that is the default budget; crane, shop and coin at 316 nodes (0.4-0.8 %
/// open) get 1,100-2,700 kicks instead of 3,160 and end on the same tours
/// as before; LTO seek matrices (0.04-0.16 % open) get 100-400. With 10,000 per edge the seek matrices of
/// 100 nodes took 0.18-0.32 s instead of 0.13-0.17 s and 1,000 half
/// 1.57 s instead of 1.30 s, for the same orders; the DIMACS rows were the
/// same either way (2026-11-28). The floor is a choice, not tuned: a gap
/// open by less than one move still gets a hundred kicks.
const KICKS_PER_GAP_EDGE: f64 = 1_000.0;
const MIN_KICKS: usize = 100;

/// The kick budget for `n` requests when the tour is `open_gap` (a
/// fraction of the total) above the lower bound: see
/// [`KICKS_PER_GAP_EDGE`]; the caller's budget when it set one, the
/// default when no bound is known.
pub(crate) fn kicks_for_gap(
    n: usize,
    matrix: bool,
    options: &Options,
    open_gap: Option<f64>,
) -> usize {
    let default = kicks(n, matrix, options);
    match (options.iterations, open_gap) {
        (None, Some(g)) => {
            let wanted = (KICKS_PER_GAP_EDGE * n as f64 * g.max(0.0)).ceil() as usize;
            wanted.clamp(MIN_KICKS.min(default), default)
        }
        _ => default,
    }
}

/// The kicks [`iterated`] makes on `n` requests (nodes of an explicit
/// matrix when `matrix`): the caller's budget, or the default.
pub(crate) fn kicks(n: usize, matrix: bool, options: &Options) -> usize {
    options
        .iterations
        .unwrap_or_else(|| default_iterations(n, matrix))
}

/// The kick budget for `n` requests (nodes of an explicit matrix when
/// `matrix`) when the caller gives none.
fn default_iterations(n: usize, matrix: bool) -> usize {
    let (per, least, work) = if matrix {
        (KICKS_PER_NODE, 0, MAX_MATRIX_KICK_WORK)
    } else {
        (KICKS_PER_REQUEST, MIN_DRIVE_KICKS, MAX_KICK_WORK)
    };
    (per * n).max(least).min(MAX_KICKS).min(work / n.max(1))
}

/// Improves `order` (an Or-opt optimum or not) in place; returns the gain.
/// `matrix`: the costs are an explicit matrix (see [`KICKS_PER_NODE`]);
/// `reversals`: the local search also reverses stretches (Lin–Kernighan
/// flip chains) and kicks move three segments; `stop`: a caller's time
/// limit or cancel, which ends the descents and the kicks; `watch`: stops
/// the kicks once the tour meets its target gap (checked every 64 kicks).
#[allow(clippy::too_many_arguments)]
pub(crate) fn iterated(
    d: &Dense,
    near: &Neighbours,
    order: &mut Vec<usize>,
    options: &Options,
    stop: &Stop,
    matrix: bool,
    reversals: bool,
    mut watch: Option<&mut Watch>,
) -> f64 {
    let start_cost = d.tour(order);
    let mut gain = descend(d, near, order, reversals, stop);
    let n = order.len();
    if n < 3 {
        return gain;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut tour = Tour::new(d.depot(), order);
    tour.until(stop);
    if reversals {
        tour.track_reversals(d);
    }
    let budget = kicks(n, matrix, options);
    // With reversals, a three-segment kick (B C D → D C B): with two-segment
    // ones (B C → C B) a reversing search (2-opt and 3-opt, before the
    // chains) stalled on rtilt at 100 nodes 0.8 % above LKH-3 even after
    // 20,000 kicks; three segments reached LKH-3's tour (2026-11-25).
    let segments = if reversals { 3 } else { 2 };
    let longest = MAX_SEGMENT.min(n / segments).max(1);
    let mut ends = Vec::with_capacity(2 * segments + 2);
    for kick in 0..budget {
        if kick % 64 == 0 {
            if stop.reached() {
                break;
            }
            if let Some(w) = watch.as_deref_mut() {
                w.offer(start_cost - gain);
                if w.done() {
                    break;
                }
            }
        }
        let lens: Vec<usize> = (0..segments).map(|_| rng.gen_range(1..=longest)).collect();
        let total: usize = lens.iter().sum();
        // Tour positions: requests sit at 1..=n, the depot at 0 (and n + 1).
        let p1 = rng.gen_range(0..=n - total) + 1;
        let end = p1 + total;
        ends.clear();
        ends.push(tour.at(p1 - 1));
        let mut p = p1;
        for len in &lens {
            ends.extend([tour.at(p), tour.at(p + len - 1)]);
            p += len;
        }
        ends.push(tour.at(end));
        let before = stretch(d, &tour, p1 - 1, end);
        tour.rotate(p1..end, lens[0]);
        if segments == 3 {
            tour.rotate(p1..p1 + lens[1] + lens[2], lens[1]);
        }
        let added = stretch(d, &tour, p1 - 1, end) - before;
        let repaired = repair(d, near, &mut tour, &ends);
        let saved = repaired - added;
        if saved > EPS {
            tour.commit();
            gain += saved;
        } else {
            tour.undo();
        }
    }
    order.clear();
    order.extend_from_slice(tour.order());
    gain
}

/// Cost of the tour's edges from position `from` to position `to`.
fn stretch(d: &Dense, tour: &Tour, from: usize, to: usize) -> f64 {
    (from..to).map(|k| d.cost(tour.at(k), tour.at(k + 1))).sum()
}
