//! `best`: seekplan's strongest ordering. Small batches are solved exactly;
//! larger ones start from the strongest constructive heuristics (LOSS,
//! SLTF, MPScan*, CTA-SLTF) and from branch and bound over assignment
//! relaxations (BNB, which begins with PATCH's tour), the two cheapest (the second only if
//! within `SEED_SLACK` of the first) are improved by Or-opt
//! and the better of those by iterated local search (none of this when BNB
//! proved its tour optimal on a matrix); on nearly symmetric matrices,
//! rounds of trials from random walks guided by its tour ([`walks`]), each
//! round's tours merged ([`merge`]) and the result polished, where the
//! searches draw their moves from α-nearness candidates ([`alpha`]), else
//! restarts of that search on perturbed costs ([`trials`]) merged with its
//! tour; the cheapest of these
//! and of every other algorithm's schedule is returned, so `best` is never
//! worse than any of them on the same input (except what is skipped on large
//! batches: LOSS, MPScan and MPScan*, see `LOSS_LIMIT`, `MPSCAN_LIMIT`
//! and `MPSCAN_STAR_LIMIT`; BNB above `BNB_LIMIT`).

use super::bnb::BNB_LIMIT;
use super::dense::Dense;
use super::local_search::{descend, Neighbours};
use super::registry::{Orderer, Plan};
use super::{
    alpha, bnb, bound, cta_sltf, fifo, ils, loss, merge, mpscan, mpscan_star, opt, patch, read,
    scan, sltf, sort, trials, walks, Head, Options, Problem,
};
use crate::{Moves, Result, Schedule};

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
/// every place of the order, O(n²) moves (93 % of `best`'s time at 100,000
/// LTO-9 requests, minutes); Or-opt and Or-3opt, which look only at each
/// request's neighbours, do its work on larger batches.
const MPSCAN_STAR_LIMIT: usize = 10_000;

/// Largest batch on a drive model that gets a PATCH seed above
/// [`BNB_LIMIT`]: its sparse assignment reads all n² moves (on explicit
/// matrices it always runs: reading them is what a matrix costs anyway).
const SPARSE_PATCH_LIMIT: usize = 20_000;

/// A runner-up seed is improved only if it costs at most this much more
/// than the cheapest: from CTA-SLTF's order on 100,000 LTO-9 requests (12x
/// the cheapest seed) the local search took a minute and never won.
const SEED_SLACK: f64 = 1.25;

/// Largest nearly symmetric matrix (nodes) whose local searches take their
/// moves from α-nearness candidates rather than the cheapest partners: the
/// 5-opt moves' own limit ([`super::kopt`]); the ascent's 1-trees cost
/// O(n²) each, and the candidates were measured at 100 and 316 nodes only.
const ALPHA_LIMIT: usize = 500;
/// α-nearest successors and predecessors per node. Of LKH-3's tour on
/// stilt 316 (instance seed 2), 309 of 316 edges are among the tail's 5
/// α-nearest successors, 197 among its 5 cheapest (2026-11-25).
const ALPHA_CANDIDATES: usize = 6;

/// BEST in the registry.
pub(crate) struct Best;

impl Orderer for Best {
    fn name(&self) -> &'static str {
        "best"
    }

    fn plan(&self, problem: &Problem, options: &Options) -> Result<Plan> {
        let (best, optimal, bound) = schedule(problem, options)?;
        Ok(Plan {
            order: best.order,
            moves: best.moves,
            optimal: optimal && problem.is_matrix(),
            bound,
        })
    }
}

/// The best schedule seekplan can find for `problem`, whether an exact
/// search (OPT, or BNB finishing) proved no locate order cheaper, and the
/// α-candidates' 1-tree bound on the total where they were computed.
fn schedule(problem: &Problem, options: &Options) -> Result<(Schedule, bool, Option<f64>)> {
    let n = problem.len();
    // One time limit for every improving phase together.
    let deadline = options.deadline();
    let geometric = problem.head_physical(Head::Start).is_some();
    let mut candidates: Vec<(Vec<usize>, Moves)> = Vec::new();
    let mut proven = n <= opt::OPT_LIMIT;
    let mut bound = None;
    let mpscan_scans = (geometric && n <= MPSCAN_LIMIT).then(|| mpscan::plan(problem));
    if n <= opt::OPT_LIMIT {
        candidates.push((opt::plan(problem)?, Moves::Locate));
        if let Ok(order) = cta_sltf::plan(problem) {
            candidates.push((order, Moves::Locate));
        }
    } else {
        let d = Dense::new(problem);
        let mut seeds = vec![sltf::plan_with(&d)];
        if n <= LOSS_LIMIT || d.is_stored() || (problem.is_matrix() && n <= BNB_LIMIT) {
            seeds.push(loss::plan_with(&d));
        }
        if let Some(scans) = mpscan_scans.as_ref().filter(|_| n <= MPSCAN_STAR_LIMIT) {
            seeds.push(mpscan_star::improve(scans.clone(), &d));
        }
        if let Ok(order) = cta_sltf::plan(problem) {
            seeds.push(order);
        }
        if n <= BNB_LIMIT {
            // Branch and bound starts from the assignment patched into a
            // tour and from the cheapest constructive seed, so it is never
            // worse than either (PATCH is its root's first incumbent).
            let incumbent = seeds.iter().min_by(|a, b| d.tour(a).total_cmp(&d.tour(b)));
            let (order, optimal) =
                bnb::plan_with(&d, incumbent.map(Vec::as_slice), &options.until(deadline));
            proven = optimal;
            seeds.push(order);
        } else if n <= SPARSE_PATCH_LIMIT || problem.is_matrix() {
            seeds.extend(patch::plan_with(problem, &d));
        }
        let mut ranked: Vec<(f64, Vec<usize>)> =
            seeds.into_iter().map(|s| (d.tour(&s), s)).collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let cheapest = ranked.first().map_or(0.0, |r| r.0);
        let near = Neighbours::new(&d);
        let reversals = problem.is_matrix() && near.nearly_symmetric(&d);
        let alpha = reversals && d.is_stored() && n <= ALPHA_LIMIT;
        // Which α candidates are zero-α (what the walks follow), if any.
        let mut zero = None;
        let near = if alpha {
            let (near, tree_bound, zero_alpha) =
                alpha::candidates(&d, cheapest, ALPHA_CANDIDATES, deadline);
            bound = Some(bound::from_rounded_positioning(problem, tree_bound));
            zero = Some(zero_alpha);
            near
        } else {
            near
        };
        // On a matrix a finished branch and bound leaves nothing to improve.
        let settled = proven && problem.is_matrix();
        let mut improved: Vec<Vec<usize>> = Vec::new();
        for (rank, (cost, seed)) in ranked.into_iter().enumerate() {
            if rank < 2 && cost <= SEED_SLACK * cheapest && !settled {
                let mut better = seed.clone();
                descend(&d, &near, &mut better, reversals);
                improved.push(better);
            }
            candidates.push((seed, Moves::Locate));
        }
        improved.sort_by(|a, b| d.tour(a).total_cmp(&d.tour(b)));
        if let Some(top) = improved.first() {
            let mut kicked = top.clone();
            ils::iterated(
                &d,
                &near,
                &mut kicked,
                &options.until(deadline),
                problem.is_matrix(),
                reversals,
            );
            if let Some(zero) = &zero {
                // Where reversals pay, ILS stalls in one basin whatever its
                // seed: trials from walks, merged round by round, reach
                // further (see `walks`).
                let tours = walks::search(&d, &near, zero, &mut kicked, &options.until(deadline));
                candidates.extend(tours.into_iter().map(|o| (o, Moves::Locate)));
            } else if reversals {
                // Without α candidates, restarts on perturbed costs and the
                // merge of their tours (see `trials`).
                let kicks = ils::kicks(n, true, options);
                let mut tours = trials::trials(&d, &near, &kicked, kicks, &options.until(deadline));
                tours.push(kicked.clone());
                candidates.extend(merge::merge(&d, &tours, deadline).map(|o| (o, Moves::Locate)));
                candidates.extend(tours.into_iter().map(|o| (o, Moves::Locate)));
            }
            candidates.push((kicked, Moves::Locate));
        }
        candidates.extend(improved.into_iter().map(|o| (o, Moves::Locate)));
    }
    if geometric {
        candidates.push((read::plan(problem), Moves::ReadThrough));
        for order in [sort::plan(problem), scan::plan(problem)] {
            candidates.push((order, Moves::Locate));
        }
    }
    if let Some(scans) = mpscan_scans {
        candidates.push((scans.order, Moves::Locate));
    }
    candidates.push((fifo::plan(problem), Moves::Locate));
    let mut best: Option<Schedule> = None;
    for (order, moves) in candidates {
        let s = Schedule::evaluate(problem, order, moves)?;
        if best.as_ref().is_none_or(|b| s.total_s < b.total_s) {
            best = Some(s);
        }
    }
    Ok((best.expect("at least one candidate"), proven, bound))
}
