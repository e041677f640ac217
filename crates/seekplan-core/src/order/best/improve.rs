//! `best`'s improving phases: constructive seeds, Or-opt on the cheapest,
//! iterated local search, trials merged into the tour, and what a caller's
//! time limit buys on top.

use super::search::{branch_and_bound, Length, Scope, Searched};
use crate::order::alpha::Effort;
use crate::order::bnb::BNB_LIMIT;
use crate::order::dense::Dense;
use crate::order::edge_bounds::EdgeBounds;
use crate::order::local_search::descend;
use crate::order::neighbours::Neighbours;
use crate::order::watch::Watch;
use crate::order::{
    alpha, bound, cta_sltf, ils, loss, merge, mpscan, mpscan_star, sltf, trials, walks, Head,
    Options, MAX_ITERATIONS,
};
use crate::Moves;
use std::time::Instant;

/// Largest batch LOSS seeds when costs are timed on demand from cached
/// positions rather than stored (models with positions, above 1,000
/// requests): its rows are sorted in O(n² log n), 4 s at 4,000; above this
/// the other seeds run alone. With stored costs LOSS always runs; on
/// explicit matrices up to [`BNB_LIMIT`] nodes: above it PATCH's sparse
/// assignment replaces it (5,000 random nodes: PATCH 0.8 % above the bound
/// in 2.4 s, LOSS 20 % in 7.5 s; measured 2026-11-25).
const LOSS_LIMIT: usize = 1_000;

/// Largest batch MPScan runs on inside `best` (as a candidate and as
/// MPScan*'s start): each step looks at every remaining request, O(n²),
/// 1.4 s at 20,000 MLR1 requests and ~50 s at 100,000 LTO-9 ones.
const MPSCAN_LIMIT: usize = 20_000;

/// Largest batch MPScan* seeds: each of its passes tries every request at
/// every place of the order, O(n²) moves. Above 1,000 requests, with
/// PATCH's seed (up to `search::SPARSE_PATCH_LIMIT`) and the local search, it
/// never decided the order: without it, 65 batches of 1,000-10,000
/// requests on the MLR1, DLT2000, DLT4000, DLT7000, IBM 3590, LTO-5 and
/// LTO-9 (seeds 0-2 and 5) ended on the same totals, in 15-40 % less CPU on the
/// serpentine drives at 1,200-4,000 requests (MLR1 3,000: 1.8 -> 1.2 s;
/// DLT7000 4,000: 1.6 -> 1.3 s; IBM 3590 4,000: 2.5 -> 2.0 s) and 84 % on
/// MLR1 at 10,000 (9.1 -> 1.5 s, MPScan* alone 7.7 s); at 1,000 it costs
/// under 5 % (2026-11-28, `benchmarks/RESULTS.md`).
const MPSCAN_STAR_LIMIT: usize = 1_000;

/// A runner-up seed is improved only if it costs at most this much more
/// than the cheapest: from CTA-SLTF's order on 100,000 LTO-9 requests (12x
/// the cheapest seed) the local search took a minute and never won.
const SEED_SLACK: f64 = 1.25;

/// A runner-up seed is improved only if its excess over the lower bound is
/// at most this many times the cheapest seed's: on LTO seek matrices of
/// 5,000 nodes SLTF's order (19 % above the bound, the patched tour
/// 0.0004 %) took half a second of Or-opt and never won.
const EXCESS_SLACK: f64 = 3.0;

/// After the kicks, on a nearly symmetric matrix whose tour is within this
/// much (a fraction of its total) of the lower bound (the larger of the
/// assignment's and the α ascent's 1-tree's), branch and bound runs again
/// without the edges the 1-tree rules out (see [`EdgeBounds`]). On the
/// seek matrices of 100 and 316 files (`bench_seek_sweep.py`) the tours it
/// proved had 0.005-0.27 % open. On the DIMACS rtilt, stilt, crane and
/// coin instances of 100 and 316 nodes 0.7-7.6 % was open (seed 1; up to
/// 294 of 316 edges per node stayed), and without this limit it proved
/// none of seeds 1-3, at up to 19 % more CPU (coin 316 seed 1; 1.7 % over
/// the 54 runs of every family) (2026-11-29). A choice between those, not
/// a measured optimum.
const NARROW_TREE_GAP: f64 = 0.005;

/// Largest nearly symmetric matrix (nodes) whose local searches take their
/// moves from α-nearness candidates rather than the cheapest partners: the
/// 5-opt moves' own limit ([`crate::order::kopt`]); the ascent's 1-trees cost
/// O(n²) each, and the candidates were measured at 100 and 316 nodes only.
const ALPHA_LIMIT: usize = 500;
/// α-nearest successors and predecessors per node. Of LKH-3's tour on
/// stilt 316 (instance seed 2), 309 of 316 edges are among the tail's 5
/// α-nearest successors, 197 among its 5 cheapest (2026-11-25).
const ALPHA_CANDIDATES: usize = 6;

/// The improving phases once the patched tour's local optimum (and branch
/// and bound from it, where the gap was narrow) left the gap open (see
/// [`Searched`]): constructive seeds, branch and bound from that local
/// optimum when it is still to run, Or-opt on the cheapest, iterated local
/// search, and on nearly symmetric matrices trials merged into the tour;
/// then, while a caller's time limit holds, more kicks. Adds every tour to
/// `candidates`.
pub(super) fn improve(
    scope: Scope,
    near: Neighbours,
    reversals: bool,
    searched: Searched,
    watch: &mut Watch,
    candidates: &mut Vec<(Vec<usize>, Moves)>,
) {
    let Scope {
        problem,
        d,
        options,
        ..
    } = scope;
    let Searched {
        tour: searched,
        bnb_after_seeds,
        mut proven,
        sltf,
    } = searched;
    let n = problem.len();
    let deadline = watch.deadline();
    let stop = watch.stop();
    let geometric = problem.head_physical(Head::Start).is_some();
    watch.phase("seeds");
    // Each seed gives up at the stop (MPScan and LOSS are O(n²)).
    let mpscan_scans = (geometric && n <= MPSCAN_LIMIT)
        .then(|| mpscan::plan_until(problem, &stop))
        .flatten();
    let mut seeds = vec![sltf.unwrap_or_else(|| sltf::plan_with(d))];
    if n <= LOSS_LIMIT || d.is_stored() || (problem.is_matrix() && n <= BNB_LIMIT) {
        seeds.extend(loss::plan_until(d, &stop));
    }
    if let Some(scans) = mpscan_scans.as_ref().filter(|_| n <= MPSCAN_STAR_LIMIT) {
        seeds.push(mpscan_star::improve(scans.clone(), d, &stop));
    }
    if let Ok(Some(order)) = cta_sltf::plan_until(problem, &stop) {
        seeds.push(order);
    }
    if let Some(scans) = mpscan_scans {
        candidates.push((scans.order, Moves::Locate));
    }
    if bnb_after_seeds {
        // Branch and bound starts from PATCH's tour after Or-opt, as BNB
        // alone does (see `bnb::patched`): from the cheapest constructive
        // seed instead it gave up sooner on some batches and ended above
        // BNB. Both tours stay candidates.
        let (order, optimal) =
            branch_and_bound(scope, searched.as_deref(), None, watch, Length::Budgeted);
        proven = optimal;
        seeds.push(order);
    } else {
        seeds.extend(searched);
    }
    let mut ranked: Vec<(f64, Vec<usize>)> = seeds.into_iter().map(|s| (d.tour(&s), s)).collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cheapest = ranked.first().map_or(0.0, |r| r.0);
    watch.offer(cheapest);
    // A finished branch and bound leaves no locate order to improve.
    let settled = proven;
    let alpha = alpha_follows(d, reversals) && !settled && !watch.done();
    // Which α candidates are zero-α (what the walks follow), and what the
    // ascent's 1-tree says of each edge, if any.
    let (mut zero, mut edges, mut tree_bound) = (None, None, None);
    let near = if alpha {
        watch.phase("alpha candidates");
        let found = alpha::candidates(d, cheapest, ALPHA_CANDIDATES, &stop);
        watch.bound(bound::rounded_down(found.bound));
        tree_bound = Some(found.bound);
        zero = Some(found.zero);
        edges = Some(found.edges);
        found.near
    } else {
        near
    };
    let mut improved: Vec<Vec<usize>> = Vec::new();
    watch.phase("local search");
    // A runner-up is worth its descent only while its excess over the
    // bound is comparable to the cheapest's.
    let bound = watch.positioning_bound();
    let close = |cost: f64| {
        cost <= SEED_SLACK * cheapest
            && bound.is_none_or(|b| cost - b <= EXCESS_SLACK * (cheapest - b))
    };
    for (rank, (cost, seed)) in ranked.into_iter().enumerate() {
        if rank < 2 && close(cost) && !settled && !watch.done() {
            let mut better = seed.clone();
            descend(d, &near, &mut better, reversals, &stop);
            watch.offer(d.tour(&better));
            improved.push(better);
        }
        candidates.push((seed, Moves::Locate));
    }
    improved.sort_by(|a, b| d.tour(a).total_cmp(&d.tour(b)));
    if let Some(top) = improved.first().filter(|_| !watch.done()) {
        watch.phase("kicks");
        let mut kicked = top.clone();
        // Effort follows the open gap, not the batch's size.
        let budget = Options {
            iterations: Some(ils::kicks_for_gap(
                n,
                problem.is_matrix(),
                options,
                watch.open_gap(d.tour(top)),
            )),
            ..options.until(deadline)
        };
        ils::iterated(
            d,
            &near,
            &mut kicked,
            &budget,
            &stop,
            problem.is_matrix(),
            reversals,
            Some(&mut *watch),
        );
        let narrow = near_tree_bound(watch, d, &kicked);
        if let Some(edges) = edges
            .as_ref()
            .filter(|_| narrow && !proven && !watch.done())
        {
            // Within reach of the 1-tree bound, branch and bound over the
            // edges it leaves (see `EdgeBounds`) from the kicked tour: a
            // proof ends the search here, and where the budget ends it
            // first the tour it found may still be shorter.
            let (order, optimal) =
                branch_and_bound(scope, Some(&kicked), Some(edges), watch, Length::Budgeted);
            proven = optimal;
            if d.tour(&order) < d.tour(&kicked) {
                kicked = order;
            }
        }
        if let Some(zero) = zero.as_ref() {
            // Where reversals pay, ILS stalls in one basin whatever its
            // seed: trials from walks, merged round by round, reach
            // further (see `walks`). Not within `NARROW_TREE_GAP` of
            // the bound, where branch and bound over the 1-tree's edges
            // was the search left to run: after it, trials shortened
            // one of the ten seek matrices of 100 and 316 files they ran
            // on (0.01-0.31 % open), by 0.0043 %, for 35-80 ms each at
            // 100 files; on the DIMACS rtilt, stilt and crane instances
            // of 100 and 316 nodes (seeds 1-3; 0.53-4.0 % open) they
            // shortened 12 of 19 by 0.06-0.75 % (2026-11-29).
            if !narrow && !watch.done() {
                watch.phase("trials");
                let tours = walks::search(d, &near, zero, &mut kicked, &budget, &stop);
                candidates.extend(tours.into_iter().map(|o| (o, Moves::Locate)));
            }
        } else if reversals && !watch.done() {
            // Without α candidates, restarts on perturbed costs and the
            // merge of their tours (see `trials`).
            watch.phase("trials");
            // The default budget, not the gap's: the number of restarts
            // falls as it grows (none from ~700 nodes), and with the gap's
            // few hundred kicks nine restarts ran on 1,000-node seek
            // matrices, 0.8 s for nothing.
            let kicks = ils::kicks(n, true, options);
            let mut tours = trials::trials(d, &near, &kicked, kicks, options, &stop);
            tours.push(kicked.clone());
            candidates.extend(merge::merge(d, &tours, &stop).map(|o| (o, Moves::Locate)));
            candidates.extend(tours.into_iter().map(|o| (o, Moves::Locate)));
        }
        watch.offer(d.tour(&kicked));
        if let Some(limit) = deadline.filter(|_| options.iterations.is_none()) {
            // A caller's time limit is a budget of its own: branch and
            // bound for a proof, then kicks until it runs out or the tour
            // meets the target gap.
            if n <= BNB_LIMIT && !proven && !watch.done() {
                prove_within_share(scope, &mut kicked, tree_bound, &mut edges, watch, limit);
            }
            if !watch.done() {
                watch.phase("kicks");
                let more = Options {
                    iterations: Some(MAX_ITERATIONS),
                    ..options.until(deadline)
                };
                ils::iterated(
                    d,
                    &near,
                    &mut kicked,
                    &more,
                    &stop,
                    problem.is_matrix(),
                    reversals,
                    Some(&mut *watch),
                );
            }
        }
        candidates.push((kicked, Moves::Locate));
    }
    candidates.extend(improved.into_iter().map(|o| (o, Moves::Locate)));
}

/// Whether `best`'s search on the costs `d` takes its moves from
/// α-nearness candidates after the α ascent, unless a proof or the time
/// ends it first: on nearly symmetric stored costs (`reversals`) of at
/// most [`ALPHA_LIMIT`] nodes.
pub(super) fn alpha_follows(d: &Dense, reversals: bool) -> bool {
    reversals && d.is_stored() && d.len() <= ALPHA_LIMIT
}

/// Whether `tour` lies within [`NARROW_TREE_GAP`] of `watch`'s bound from
/// the assignment and the 1-trees (not a line's: the edges come from the
/// tree).
fn near_tree_bound(watch: &Watch, d: &Dense, tour: &[usize]) -> bool {
    watch
        .search_gap(d.tour(tour))
        .is_some_and(|g| g <= NARROW_TREE_GAP)
}

/// The proof a caller's time limit (ending at `limit`) buys once the
/// default phases are done: [`PROOF_SHARE`] of the time left for branch
/// and bound from `kicked` without its own budget, after a long α ascent
/// where the quick one (its bound `tree_bound`) left the tour more than
/// [`NARROW_TREE_GAP`] above the bound; that ascent's edges replace
/// `edges` if its bound ends higher. `kicked` becomes branch and bound's
/// tour where it is shorter.
fn prove_within_share(
    scope: Scope,
    kicked: &mut Vec<usize>,
    tree_bound: Option<f64>,
    edges: &mut Option<EdgeBounds>,
    watch: &mut Watch,
    limit: Instant,
) {
    let d = scope.d;
    let now = Instant::now();
    let proof = now + limit.saturating_duration_since(now).mul_f64(PROOF_SHARE);
    if let Some(quick) = tree_bound.filter(|_| !near_tree_bound(watch, d, kicked)) {
        // See `alpha::Effort::Long`.
        watch.phase("alpha candidates");
        let stop = watch.stop_at(proof);
        let found =
            alpha::candidates_after(d, d.tour(kicked), ALPHA_CANDIDATES, &stop, Effort::Long);
        if found.bound > quick {
            watch.bound(bound::rounded_down(found.bound));
            *edges = Some(found.edges);
        }
    }
    if !watch.done() {
        let (order, _) = branch_and_bound(
            scope,
            Some(kicked),
            edges.as_ref(),
            watch,
            Length::ProofUntil(proof),
        );
        if d.tour(&order) < d.tour(kicked) {
            *kicked = order;
        }
    }
}

/// Share of a caller's time limit left after the default phases that
/// branch and bound may spend on a proof; the kicks get the rest. On the
/// seek matrices of 100 files `best` leaves unproven by default (LTO-9
/// seeds 1-8, IBM 3590 uniform seeds 1-8), a limit of 10 s spent on kicks
/// alone shortened none of 17; with this share 9 of the 15 left after
/// branch and bound's cutoff end proven optimal in 0.10-2.6 s, two of them
/// shorter (LTO-9 half seed 3 by 0.013 %, uniform seed 3 by 0.0034 %), and
/// the other six keep their tours (`bench_limit_proof.py`, 2026-11-29);
/// with the edges the α ascent rules out left out of that search
/// ([`EdgeBounds`]), 12 of the 15 in 0.06-2.1 s. Where the quick ascent
/// left the tour more than [`NARROW_TREE_GAP`] above its bound, a long one
/// ([`Effort::Long`]) spends the share first: on helical seek matrices and
/// files on a line, whose bounds are weak, 8 of 13 batches the defaults
/// leave open end proven optimal in 0.19-3.7 s of a 10-s limit
/// (`bench_linear_seek.py --time-limit 10`, `bench_seek_quality.py`;
/// 2026-11-29). The
/// kicks stay for batches whose tree is too large to search: an even split
/// is a choice, not a measured optimum.
const PROOF_SHARE: f64 = 0.5;
