//! `best`: seekplan's strongest ordering. Small batches are solved exactly;
//! larger ones start from the strongest constructive heuristics, are improved
//! by Or-opt; the cheapest of these and of every other algorithm's schedule
//! is returned, so `best` is never worse than any of them on the same input.

use super::dense::Dense;
use super::local_search::or_opt;
use super::{fifo, loss, mpscan, mpscan_star, opt, read, scan, sltf, sort, Head, Problem};
use crate::{Moves, Result, Schedule};

/// The best schedule seekplan can find for `problem`.
pub(crate) fn schedule(problem: &Problem) -> Result<Schedule> {
    let n = problem.len();
    let geometric = problem.head_physical(Head::Start).is_some();
    let mut candidates: Vec<(Vec<usize>, Moves)> = Vec::new();
    if n <= opt::OPT_LIMIT {
        candidates.push((opt::plan(problem)?, Moves::Locate));
    } else {
        let d = Dense::new(problem);
        let mut seeds = vec![loss::plan(problem), sltf::plan(problem)];
        if geometric {
            seeds.push(mpscan_star::plan(problem));
        }
        seeds.sort_by(|a, b| d.tour(a).total_cmp(&d.tour(b)));
        for (rank, seed) in seeds.into_iter().enumerate() {
            if rank < 2 {
                let mut improved = seed.clone();
                or_opt(&d, &mut improved);
                candidates.push((improved, Moves::Locate));
            }
            candidates.push((seed, Moves::Locate));
        }
    }
    if geometric {
        candidates.push((read::plan(problem), Moves::ReadThrough));
        for order in [
            sort::plan(problem),
            scan::plan(problem),
            mpscan::plan(problem).order,
        ] {
            candidates.push((order, Moves::Locate));
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
    Ok(best.expect("at least one candidate"))
}
