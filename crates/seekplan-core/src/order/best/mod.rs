//! `best`: seekplan's strongest ordering. Small batches are solved exactly.
//! Where every locate lies on a line ([`on_line`]) the exact order along it
//! comes first with its bound, and where streaming through the batch
//! positions for no more than the bound on every locate order, that stream
//! is returned without a search (`StopReason::Streaming`).
//! Larger ones go bound first: the lower bound ([`bound`]), the assignment's
//! cycles patched into a tour (`patch`) and Or-opt on it, then, where
//! that tour is within `search::NARROW_GAP` of the bound, branch and bound from
//! it (BNB). Each later phase runs only while the tour is above the bound
//! by more than the caller's gap and the time limit holds ([`Watch`]): the
//! strongest constructive heuristics (LOSS, SLTF, MPScan*, CTA-SLTF) and,
//! where the gap was wider, BNB from the patched tour's local optimum (the
//! tour BNB alone starts from, see `bnb::patched`); Or-opt on the two
//! cheapest seeds (the second only if close enough, see `improve::SEED_SLACK` and
//! `improve::EXCESS_SLACK`) and iterated local search on the better, its kicks
//! following the open gap; on nearly symmetric matrices, where the kicked
//! tour is within `improve::NARROW_TREE_GAP` of the bound, BNB again without the
//! edges the α ascent's 1-tree rules out (`EdgeBounds`), then rounds of trials
//! from random walks guided by its tour (`walks`), each round's tours
//! merged (`merge`) and the result polished, where the searches draw their
//! moves from α-nearness candidates (`alpha`), else restarts of that
//! search on perturbed costs (`trials`) merged with its tour. A caller's
//! time limit buys more: for part of it (`improve::PROOF_SHARE`) a long α ascent
//! where the quick one left the bound far below the tour, and branch and
//! bound without its own budget; then kicks for the rest. The cheapest
//! of these and of every other algorithm's schedule is returned, so with the
//! default gap of 0 `best` is never worse than any of them on the same input
//! (except what is skipped on large batches: LOSS, MPScan and MPScan*, see
//! `improve::LOSS_LIMIT`, `MPSCAN_LIMIT` and `MPSCAN_STAR_LIMIT`; BNB above
//! `BNB_LIMIT`), and a phase it skips is one the bound showed had nothing
//! to gain. The search is `search`, the improving phases `improve`.

mod improve;
mod search;

use super::dense::{Dense, MATRIX_LIMIT};
use super::neighbours::Neighbours;
use super::registry::{Orderer, Plan};
use super::watch::Watch;
use super::{
    bound, cta_sltf, fifo, mpscan, on_line, opt, read, scan, sltf, sort, Head, Options, Problem,
    SearchReport,
};
use crate::{Moves, Result, Schedule};

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

/// The cheaper of the two ways to stream through the whole batch: from the
/// head to the end in block order, then back for the reads behind the head
/// (READ), or back to the first read and through all of them once (SORT's
/// order). Where the head starts among the reads with few behind it, the
/// second seeks back a short way instead of from the far end.
fn cheapest_stream(problem: &Problem) -> Result<Schedule> {
    let ahead_first = Schedule::evaluate(problem, read::plan(problem), Moves::ReadThrough)?;
    let back_first = Schedule::evaluate(problem, sort::plan(problem), Moves::ReadThrough)?;
    Ok(if back_first.total_s < ahead_first.total_s {
        back_first
    } else {
        ahead_first
    })
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
    // Streaming through the whole batch: on a tape whose locates always
    // seek (a helical drive as a seek measurement sees it) it positions
    // for 6-43 % less than the best locate order on 7 of 9 batches of
    // 1,000 files (`bench_streaming.py`, 2026-11-29).
    let streaming = (!problem.is_matrix())
        .then(|| cheapest_stream(problem))
        .transpose()?;
    let mut streams_past = false;
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
        // Costs along a line: the exact orders and their bound first. A
        // matrix is fitted to find out, in O(n²): part of its bound.
        if problem.is_matrix() {
            watch.phase("bound");
        }
        let line = problem.on_seek_line(&stop);
        if line.is_some() && !problem.is_matrix() {
            watch.phase("line");
        }
        if let Some((orders, bound)) = line.as_ref().and_then(on_line::plan) {
            watch.line_bound(bound);
            for order in orders {
                let found = Schedule::evaluate(problem, order, Moves::Locate)?;
                watch.offer(found.total_s - reads);
                candidates.push((found.order, Moves::Locate));
            }
        }
        // Where a locate never reads through, streaming through the batch
        // can position for less than any locate order: the bound says when.
        let streams_below = |watch: &Watch| {
            let bound = watch.positioning_bound();
            bound.is_some_and(|b| streaming.as_ref().is_some_and(|s| s.total_s - reads <= b))
        };
        streams_past = streams_below(&watch);
        if !watch.done() && !streams_past {
            watch.phase("bound");
            if let Some(r) = problem.relaxation_until(&stop) {
                if let Some(streaming) = r.streaming {
                    watch.streaming_bound(streaming - reads);
                }
                watch.bound(r.locates - reads);
            }
            streams_past = streams_below(&watch);
        }
        match (!watch.reached() && !streams_past).then(|| {
            watch.phase("neighbours");
            Neighbours::until(&d, &stop)
        }) {
            // The line's order met its bound, or streaming beats every
            // locate order: nothing to search.
            None => {}
            Some(Some(near)) => {
                proven = search::search(
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
            Some(None) => {
                candidates.push((sltf.unwrap_or_else(|| sltf::plan_with(&d)), Moves::Locate))
            }
        }
    }
    let mut best: Option<Schedule> = None;
    // The first of equal totals stays: the search's tours, then the
    // stream (evaluated already), then the simple orders.
    let mut consider = |s: Schedule| {
        if best.as_ref().is_none_or(|b| s.total_s < b.total_s) {
            best = Some(s);
        }
    };
    let located = |order: Vec<usize>| Schedule::evaluate(problem, order, Moves::Locate);
    for (order, moves) in candidates {
        consider(Schedule::evaluate(problem, order, moves)?);
    }
    if let Some(s) = streaming {
        consider(s);
        consider(located(sort::plan(problem))?);
    }
    if geometric {
        consider(located(scan::plan(problem))?);
        if n <= opt::OPT_LIMIT {
            consider(located(mpscan::plan(problem).order)?);
        }
    }
    consider(located(fifo::plan(problem))?);
    let best = best.expect("at least one candidate");
    // The bound holds for locate orders; streaming through the batch can
    // position for less (a helical tape's dense batches), and then it says
    // nothing about the schedule returned.
    let bound = watch
        .positioning_bound()
        .map(|b| b + reads)
        .filter(|&b| best.moves == Moves::Locate || best.total_s >= b);
    let report = watch.finish(
        best.total_s,
        bound,
        proven && problem.is_matrix(),
        streams_past,
    );
    Ok(Found {
        schedule: best,
        proven,
        bound,
        report,
    })
}
