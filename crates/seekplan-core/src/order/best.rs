//! `best`: seekplan's strongest ordering. Small batches are solved exactly.
//! Larger ones go bound first: the lower bound ([`bound`]), the assignment's
//! cycles patched into a tour ([`patch`]) and Or-opt on it, then, where
//! that tour is within [`NARROW_GAP`] of the bound, branch and bound from
//! it (BNB). Each later phase runs only while the tour is above the bound
//! by more than the caller's gap and the time limit holds ([`Watch`]): the
//! strongest constructive heuristics (LOSS, SLTF, MPScan*, CTA-SLTF) and,
//! where the gap was wider, BNB from the patched tour's local optimum (the
//! tour BNB alone starts from, see [`bnb::patched`]); Or-opt on the two
//! cheapest seeds (the second only if close enough, see `SEED_SLACK` and
//! `EXCESS_SLACK`) and iterated local search on the better, its kicks
//! following the open gap; on nearly symmetric matrices, where the kicked
//! tour is within [`NARROW_TREE_GAP`] of the bound, BNB again without the
//! edges the α ascent's 1-tree rules out ([`EdgeBounds`]), then rounds of trials
//! from random walks guided by its tour ([`walks`]), each round's tours
//! merged ([`merge`]) and the result polished, where the searches draw their
//! moves from α-nearness candidates ([`alpha`]), else restarts of that
//! search on perturbed costs ([`trials`]) merged with its tour. A caller's
//! time limit buys more: for part of it ([`PROOF_SHARE`]) a long α ascent
//! where the quick one left the bound far below the tour, and branch and
//! bound without its own budget; then kicks for the rest. The cheapest
//! of these and of every other algorithm's schedule is returned, so with the
//! default gap of 0 `best` is never worse than any of them on the same input
//! (except what is skipped on large batches: LOSS, MPScan and MPScan*, see
//! `LOSS_LIMIT`, `MPSCAN_LIMIT` and `MPSCAN_STAR_LIMIT`; BNB above
//! `BNB_LIMIT`), and a phase it skips is one the bound showed had nothing
//! to gain.

use super::alpha::Effort;
use super::bnb::{Patience, BNB_LIMIT};
use super::dense::{Dense, MATRIX_LIMIT};
use super::edge_bounds::EdgeBounds;
use super::local_search::{descend, reversals_pay};
use super::neighbours::Neighbours;
use super::registry::{Orderer, Plan};
use super::watch::Watch;
use super::{
    alpha, bnb, bound, cta_sltf, fifo, ils, loss, merge, mpscan, mpscan_star, opt, patch, read,
    scan, sltf, sort, trials, walks, Head, Options, Problem, SearchReport, MAX_ITERATIONS,
};
use crate::atsp::Assignment;
use crate::{Moves, Result, Schedule};
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
/// PATCH's seed (up to [`SPARSE_PATCH_LIMIT`]) and the local search, it
/// never decided the order: without it, 65 batches of 1,000-10,000
/// requests on the MLR1, DLT2000, DLT4000, DLT7000, IBM 3590, LTO-5 and
/// LTO-9 (seeds 0-2 and 5) ended on the same totals, in 15-40 % less CPU on the
/// serpentine drives at 1,200-4,000 requests (MLR1 3,000: 1.8 -> 1.2 s;
/// DLT7000 4,000: 1.6 -> 1.3 s; IBM 3590 4,000: 2.5 -> 2.0 s) and 84 % on
/// MLR1 at 10,000 (9.1 -> 1.5 s, MPScan* alone 7.7 s); at 1,000 it costs
/// under 5 % (2026-11-28, `benchmarks/RESULTS.md`).
const MPSCAN_STAR_LIMIT: usize = 1_000;

/// Largest batch on a drive model that gets a PATCH seed above
/// [`BNB_LIMIT`]: its sparse assignment reads the moves its bound by
/// distance along the tape cannot rule out (0.4-0.9 n² at 6,000-12,000
/// requests; on explicit matrices it always runs: reading them is what a
/// matrix costs anyway). Where a batch leaves much of the tape unread the
/// seed leads to far shorter tours; where it covers the tape, reading it
/// all in one sweep is about as good and the seed only costs time.
/// `bench_large_batch.py DRIVE N best` (2026-11-28), this limit against
/// 12,000: LTO-10 at 16,000 / 20,000 requests 15.3 / 16.7 % shorter (4.3
/// -> 5.0 s, 5.7 -> 6.9 s), LTO-10P at 20,000 14.0 % (6.1 -> 6.4 s), LTO-9
/// at 16,000 / 20,000 6.9 / 2.1 % (3.5 -> 4.3 s, 4.4 -> 6.1 s); the same
/// totals on the other drives measured at up to 6 s more (DLT7000 at
/// 20,000 2.1 -> 8.3 s, Sony DTF 5.6 -> 11.9 s). At 30,000 LTO-10P would
/// still gain 13 % and LTO-10 5 %, but Sony DTF took 19.6 s and 4mm DAT
/// 18.6 s for the same totals, at the edge of the 20 s a batch of 100,000
/// may take.
const SPARSE_PATCH_LIMIT: usize = 20_000;

/// A runner-up seed is improved only if it costs at most this much more
/// than the cheapest: from CTA-SLTF's order on 100,000 LTO-9 requests (12x
/// the cheapest seed) the local search took a minute and never won.
const SEED_SLACK: f64 = 1.25;

/// Branch and bound runs from the patched tour's local optimum, before the
/// constructive seeds, when that tour is at most this far above the bound
/// (a fraction of its total); otherwise after the seeds, from the cheapest
/// of them. LTO seek matrices of 100-1,000 nodes leave 0.02-3 % open
/// there, and branch and bound proves many of them optimal at once; the
/// DIMACS tilted families leave 18-22 % and crane at 100 nodes 11 %, where
/// branch and bound rarely finishes and the tour it returns seeds the local
/// search: from the constructive seeds, as before, rtilt at 316 nodes ends
/// 0.008 % shorter. Shop, coin and crane at 316 nodes (0.7-4.8 %) take the
/// early path and end on the same tours as before (2026-11-28).
const NARROW_GAP: f64 = 0.05;

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
/// 5-opt moves' own limit ([`super::kopt`]); the ascent's 1-trees cost
/// O(n²) each, and the candidates were measured at 100 and 316 nodes only.
const ALPHA_LIMIT: usize = 500;
/// α-nearest successors and predecessors per node. Of LKH-3's tour on
/// stilt 316 (instance seed 2), 309 of 316 edges are among the tail's 5
/// α-nearest successors, 197 among its 5 cheapest (2026-11-25).
const ALPHA_CANDIDATES: usize = 6;

/// Batches of at least this many requests on a tape are searched with the
/// requests numbered in SLTF's order (see [`renumbered`]): from where costs
/// are timed on demand from positions rather than stored. Measured with
/// this at 20,000 and at 1,001 (`best`, seeded uniform batches, the same
/// totals): LTO-9 3,000 1.40 -> 1.16 s, 12,000 8.3 -> 4.6 s; DLT7000
/// 12,000 17.5 -> 13.5 s; MLR1 12,000 4.5 -> 3.7 s; IBM 3590 3,000 1.67 ->
/// 1.48 s; at 1,001-2,000 requests 7-18 % less.
const RENUMBER_FROM: usize = MATRIX_LIMIT + 1;

/// `problem` with its requests numbered in the order SLTF visits them,
/// and each new number's old one, for batches of [`RENUMBER_FROM`] or more
/// on a tape. The local search looks at each request's neighbours along
/// the tape, from SLTF's order: with requests numbered as they came (at
/// random) nearly every look missed the cache (100,000 requests: most of
/// the first descent); numbered as SLTF meets them, neighbours sit close
/// in memory. SLTF breaks ties by the lower number, so on the renumbered
/// problem it takes the same order again; numbered in tape order instead,
/// its ties went to the lower block, 6.6 % dearer on 100,000 LTO-5
/// requests, whose locate times tie often.
fn renumbered<'a>(problem: &Problem<'a>) -> Option<(Result<Problem<'a>>, Vec<usize>)> {
    if problem.len() < RENUMBER_FROM || problem.is_matrix() {
        return None;
    }
    let ids = sltf::plan_with(&Dense::on_demand(problem));
    Some((problem.renumbered(&ids)?, ids))
}

/// BEST in the registry.
pub(crate) struct Best;

impl Orderer for Best {
    fn name(&self) -> &'static str {
        "best"
    }

    fn plan(&self, problem: &Problem, options: &Options) -> Result<Plan> {
        // A time limit counts from here, the renumbering included: the
        // options carry the time left, so each call gets what is left then.
        let deadline = options.deadline();
        let found = match renumbered(problem) {
            Some((sorted, ids)) => {
                // SLTF takes the renumbered requests in their new order.
                let sltf = (0..ids.len()).collect();
                let found = schedule(&sorted?, &options.until(deadline), Some(sltf))?;
                let order = found.schedule.order.iter().map(|&k| ids[k]).collect();
                Found {
                    schedule: Schedule::evaluate(problem, order, found.schedule.moves)?,
                    ..found
                }
            }
            None => schedule(problem, &options.until(deadline), None)?,
        };
        Ok(Plan {
            order: found.schedule.order,
            moves: found.schedule.moves,
            optimal: found.proven && problem.is_matrix(),
            bound: found.bound,
            report: Some(found.report),
        })
    }
}

/// What [`schedule`] found.
struct Found {
    /// The cheapest schedule.
    schedule: Schedule,
    /// An exact search (OPT, or BNB finishing) proved no locate order cheaper.
    proven: bool,
    /// The strongest lower bound on the total it computed.
    bound: Option<f64>,
    /// Why it stopped and what each phase cost.
    report: SearchReport,
}

/// The best schedule seekplan can find for `problem`. Bound first: the
/// assignment bound and its cycles patched into a tour, Or-opt on that
/// tour; every later phase runs only while the tour is above the target
/// gap and the time limit holds (see [`Watch`]). `sltf` is SLTF's order
/// where it is known already (on a batch renumbered in that order: SLTF
/// on 100,000 requests takes 0.6-1.1 s).
fn schedule(problem: &Problem, options: &Options, sltf: Option<Vec<usize>>) -> Result<Found> {
    let n = problem.len();
    let reads = bound::read_times(problem);
    let mut watch = Watch::new(options, reads);
    let stop = watch.stop();
    let geometric = problem.head_physical(Head::Start).is_some();
    let mut candidates: Vec<(Vec<usize>, Moves)> = Vec::new();
    let mut proven = n <= opt::OPT_LIMIT;
    if n <= opt::OPT_LIMIT {
        watch.phase("exact");
        candidates.push((opt::plan(problem)?, Moves::Locate));
        if let Ok(order) = cta_sltf::plan(problem) {
            candidates.push((order, Moves::Locate));
        }
    } else {
        let d = Dense::new(problem);
        // Under a time limit SLTF's order comes first: it is what `best`
        // returns if the time runs out before its search has a tour (so
        // never worse than SLTF), and the limit should cover it.
        let sltf = sltf.or_else(|| {
            watch.deadline().map(|_| {
                watch.phase("seeds");
                sltf::plan_with(&d)
            })
        });
        watch.phase("bound");
        if let Some(r) = problem.relaxation_until(&stop) {
            watch.bound(r.total - reads);
        }
        watch.phase("neighbours");
        match Neighbours::until(&d, &stop) {
            Some(near) => {
                proven = search(
                    problem,
                    &d,
                    near,
                    sltf,
                    &mut watch,
                    options,
                    &mut candidates,
                );
            }
            // Out of time before the search could start: SLTF's order, so
            // the result is never worse than it.
            None => candidates.push((sltf.unwrap_or_else(|| sltf::plan_with(&d)), Moves::Locate)),
        }
    }
    if !problem.is_matrix() {
        // Streaming through the whole batch: on a tape whose locates always
        // seek (a helical drive as a seek measurement sees it) it positions
        // for about half what the best locate order does once its files
        // lie close (1,000 files on a Sony DTF tape, 2026-11-29).
        candidates.push((read::plan(problem), Moves::ReadThrough));
        candidates.push((sort::plan(problem), Moves::Locate));
    }
    if geometric {
        candidates.push((scan::plan(problem), Moves::Locate));
        if n <= opt::OPT_LIMIT {
            candidates.push((mpscan::plan(problem).order, Moves::Locate));
        }
    }
    candidates.push((fifo::plan(problem), Moves::Locate));
    let mut best: Option<Schedule> = None;
    for (order, moves) in candidates {
        let s = Schedule::evaluate(problem, order, moves)?;
        if best.as_ref().is_none_or(|b| s.total_s < b.total_s) {
            best = Some(s);
        }
    }
    let best = best.expect("at least one candidate");
    let bound = watch.positioning_bound().map(|b| b + reads);
    let report = watch.finish(best.total_s, bound, proven && problem.is_matrix());
    Ok(Found {
        schedule: best,
        proven,
        bound,
        report,
    })
}

/// `best`'s search once the bound and the candidate lists `near` are
/// known: PATCH's tour and Or-opt on it, branch and bound where the gap is
/// narrow, then the improving phases ([`improve`]), each only while the
/// gap is open and the time holds. Adds every tour to `candidates`;
/// whether an exact search proved its tour optimal.
fn search(
    problem: &Problem,
    d: &Dense,
    near: Neighbours,
    sltf: Option<Vec<usize>>,
    watch: &mut Watch,
    options: &Options,
    candidates: &mut Vec<(Vec<usize>, Moves)>,
) -> bool {
    let n = problem.len();
    let mut proven = false;
    let stop = watch.stop();
    let reversals = reversals_pay(problem, d, &near);
    watch.phase("patching");
    let patching = n <= SPARSE_PATCH_LIMIT || problem.is_matrix();
    let root = patching
        .then(|| patch::stored_assignment(problem, d, &stop))
        .flatten();
    let mut first = patching
        .then(|| bnb::patched(d, &near, root.as_ref(), &stop))
        .flatten();
    // The tour branch and bound returns, where it ran; PATCH's otherwise:
    // the later phases' strongest seed.
    let mut searched = None;
    if let Some(order) = &mut first {
        watch.offer(d.tour(order));
        if !watch.done() {
            watch.phase("local search");
            descend(d, &near, order, reversals, &stop);
            watch.offer(d.tour(order));
        }
    }
    let narrow = first
        .as_ref()
        .and_then(|o| watch.open_gap(d.tour(o)))
        .is_some_and(|g| g <= NARROW_GAP);
    if n <= BNB_LIMIT && narrow && !watch.done() {
        // Branch and bound from the patched tour's local optimum (its
        // root's own patched assignment is its first incumbent): where
        // the gap is narrow it often proves the optimum in a fraction
        // of what the other phases would spend.
        let (order, optimal) = branch_and_bound(
            problem,
            d,
            first.as_deref(),
            root.as_ref(),
            None,
            watch,
            None,
        );
        proven = optimal;
        searched = Some(order);
    }
    if !watch.done() {
        improve(
            problem,
            d,
            near,
            reversals,
            searched.clone().or_else(|| first.clone()),
            root.as_ref(),
            n <= BNB_LIMIT && !narrow,
            proven,
            sltf,
            watch,
            options,
            candidates,
        );
    } else if !watch.reached() {
        // Out of time before the seeds: SLTF's order at least, so the
        // result is never worse than it.
        let order = sltf.unwrap_or_else(|| sltf::plan_with(d));
        candidates.push((order, Moves::Locate));
    }
    candidates.extend(first.map(|o| (o, Moves::Locate)));
    candidates.extend(searched.map(|o| (o, Moves::Locate)));
    proven
}

/// The improving phases once the patched tour's local optimum (and branch
/// and bound from it, where the gap was narrow: `searched`, `proven` if it
/// finished) left the gap open: constructive seeds, branch and bound from
/// that local optimum when `bnb_after_seeds`, Or-opt on the cheapest,
/// iterated local search, and on nearly symmetric matrices trials merged
/// into the tour; then, while a caller's time limit holds, more kicks. Adds
/// every tour to `candidates`. `sltf`: SLTF's order, where known.
#[allow(clippy::too_many_arguments)]
fn improve(
    problem: &Problem,
    d: &Dense,
    near: Neighbours,
    reversals: bool,
    searched: Option<Vec<usize>>,
    root: Option<&Assignment>,
    bnb_after_seeds: bool,
    mut proven: bool,
    sltf: Option<Vec<usize>>,
    watch: &mut Watch,
    options: &Options,
    candidates: &mut Vec<(Vec<usize>, Moves)>,
) {
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
            branch_and_bound(problem, d, searched.as_deref(), root, None, watch, None);
        proven = optimal;
        seeds.push(order);
    } else {
        seeds.extend(searched);
    }
    let mut ranked: Vec<(f64, Vec<usize>)> = seeds.into_iter().map(|s| (d.tour(&s), s)).collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cheapest = ranked.first().map_or(0.0, |r| r.0);
    watch.offer(cheapest);
    // On a matrix a finished branch and bound leaves nothing to improve.
    let settled = proven && problem.is_matrix();
    let alpha = reversals && d.is_stored() && n <= ALPHA_LIMIT && !settled && !watch.done();
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
                branch_and_bound(problem, d, Some(&kicked), root, Some(edges), watch, None);
            proven = optimal;
            if d.tour(&order) < d.tour(&kicked) {
                kicked = order;
            }
        }
        if let Some(zero) = zero.as_ref().filter(|_| !watch.done()) {
            // Where reversals pay, ILS stalls in one basin whatever its
            // seed: trials from walks, merged round by round, reach
            // further (see `walks`).
            watch.phase("trials");
            let tours = walks::search(d, &near, zero, &mut kicked, &budget, &stop);
            candidates.extend(tours.into_iter().map(|o| (o, Moves::Locate)));
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
                prove_within_share(
                    problem,
                    d,
                    &mut kicked,
                    root,
                    tree_bound,
                    &mut edges,
                    watch,
                    limit,
                );
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

/// Whether `tour` lies within [`NARROW_TREE_GAP`] of `watch`'s bound.
fn near_tree_bound(watch: &Watch, d: &Dense, tour: &[usize]) -> bool {
    watch
        .open_gap(d.tour(tour))
        .is_some_and(|g| g <= NARROW_TREE_GAP)
}

/// The proof a caller's time limit (ending at `limit`) buys once the
/// default phases are done: [`PROOF_SHARE`] of the time left for branch
/// and bound from `kicked` without its own budget, after a long α ascent
/// where the quick one (its bound `tree_bound`) left the tour more than
/// [`NARROW_TREE_GAP`] above the bound; that ascent's edges replace
/// `edges` if its bound ends higher. `kicked` becomes branch and bound's
/// tour where it is shorter.
#[allow(clippy::too_many_arguments)]
fn prove_within_share(
    problem: &Problem,
    d: &Dense,
    kicked: &mut Vec<usize>,
    root: Option<&Assignment>,
    tree_bound: Option<f64>,
    edges: &mut Option<EdgeBounds>,
    watch: &mut Watch,
    limit: Instant,
) {
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
            problem,
            d,
            Some(kicked),
            root,
            edges.as_ref(),
            watch,
            Some(proof),
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

/// BNB from `incumbent` (and the root assignment `root`, see
/// [`patch::stored_assignment`]; `edges`, where the α ascent ran, leaves out
/// the edges no cheaper tour takes) as one phase of `watch`, on its own budget
/// within the time left, or, given `proof_until`, without one until then
/// (a caller's time limit spent on a proof); whether it proved its tour
/// optimal. On a matrix that proof is a bound the tour meets, which ends
/// the search.
fn branch_and_bound(
    problem: &Problem,
    d: &Dense,
    incumbent: Option<&[usize]>,
    root: Option<&Assignment>,
    edges: Option<&EdgeBounds>,
    watch: &mut Watch,
    proof_until: Option<Instant>,
) -> (Vec<usize>, bool) {
    let (stop, patience) = match proof_until {
        None => (watch.stop(), Patience::Budgeted),
        Some(until) => (watch.stop_at(until), Patience::UntilStop),
    };
    watch.phase("branch and bound");
    let (order, optimal) = bnb::plan_with(d, incumbent, root, edges, &stop, patience);
    watch.offer(d.tour(&order));
    if optimal && problem.is_matrix() {
        watch.bound(d.tour(&order));
    }
    (order, optimal)
}
