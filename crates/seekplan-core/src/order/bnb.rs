//! BNB: branch and bound over assignment relaxations ([`branch_and_bound`]:
//! Carpaneto–Toth branching, Zhang's depth-first order, Karp patching for
//! the incumbent, the first one PATCH's tour after Or-opt), truncated by a
//! work budget. Exact when it finishes within the budget, which it does on
//! most batches of up to a few hundred requests; otherwise the best tour it
//! met.

use super::dense::Dense;
use super::edge_bounds::EdgeBounds;
use super::local_search::{descend, reversals_pay};
use super::neighbours::Neighbours;
use super::patch::{self, DENSE_LIMIT, NEAR_PATCH_FROM};
use super::registry::{Orderer, Plan};
use super::watch::Watch;
use super::{sltf, Options, Problem};
use crate::atsp::{branch_and_bound_from, Assignment, Budget};
use crate::stop::Stop;
use crate::{Error, Result};

/// Matrix entries the search may scan (each child relaxation scans the
/// whole matrix once): about a second of CPU on this project's machine,
/// whatever the batch size, unless the caller's time limit ends it sooner.
pub(crate) const SCANS: f64 = 1e9;

/// Without a better tour, the search goes on for at least this many reads
/// of the whole matrix, at most [`MAX_PATIENCE`] entries (about 0.2 s
/// here), and as long as it took to find the last one: on tape costs,
/// where the bound prunes little, it gives up after a fraction of
/// [`SCANS`] (`best` on 4,000 LTO-9 requests: 3.0 s, 2.4 s without BNB,
/// 4.6 s with no patience; measured 2026-11-25).
const PATIENCE_READS: f64 = 1000.0;
const MAX_PATIENCE: f64 = 1e8;

/// Largest batch BNB accepts: it keeps the (n + 1)² costs (and a copy it
/// constrains), 256 MB at 4,000.
pub const BNB_LIMIT: usize = DENSE_LIMIT;

/// How long BNB goes on without finding a better tour.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Patience {
    /// Its own budget: [`SCANS`] in all, and [`PATIENCE_READS`] (at most
    /// [`MAX_PATIENCE`]) past the last better tour.
    Budgeted,
    /// A short try: [`BRIEF_READS`] reads of the matrix in all, for a
    /// search a stronger bound follows anyway.
    Brief,
    /// Until it proves its tour optimal or the stop is reached: the search
    /// spending a caller's time limit on a proof.
    UntilStop,
}

/// Reads of the whole matrix a [`Patience::Brief`] search may make: half
/// the 1-trees the α ascent after it builds at most (each reads the matrix
/// about once), so the try costs at most about half the stronger bound it
/// goes before. On nearly symmetric matrices `best`'s first branch and
/// bound, on the assignment bound, often spent its whole budget in vain:
/// the α ascent's edges proved those tours later. With this budget there,
/// `bench_seek_sweep.py` (six drives, three patterns, seeds 1-3) took
/// 1.50 -> 1.19 s at 100 files and 5.20 -> 4.54 s at 316, the same totals
/// and proofs (a few batches the first search proved at once now take the
/// ascent: LTO-9 gaussian 100 seed 1, 0.020 -> 0.036 s); the DIMACS
/// families at 100 and 316 nodes (seeds 1-3, `bench_seek_sweep.py
/// --dimacs`) ended on the same tours in 74.7 -> 73.8 s. With 50 reads the 100-file sweep took 1.03 s, but DIMACS
/// coin at 316 nodes, which the first search proves in 20-40 ms, 0.21-0.25
/// s; with 300, 1.15 s and 5.14 s at 316 (2026-11-29).
const BRIEF_READS: f64 = 500.0;

/// The BNB order for the costs `d` (at most [`BNB_LIMIT`] requests), and
/// whether the search proved it optimal; `start` is an incumbent order,
/// `root` the assignment of `d`'s costs where it was already solved (see
/// [`patch::stored_assignment`]); `edges` bounds on the tours through each
/// edge, where known: the search leaves out every edge no tour cheaper than
/// `start` takes; `stop` a caller's time limit or cancel; `patience`
/// whether the search also ends by its own budget.
pub(crate) fn plan_with(
    d: &Dense,
    start: Option<&[usize]>,
    root: Option<&Assignment>,
    edges: Option<&EdgeBounds>,
    stop: &Stop,
    patience: Patience,
) -> (Vec<usize>, bool) {
    let n = d.len();
    if n == 0 {
        return (Vec::new(), true);
    }
    let m = n + 1;
    let Some(mut cost) = d.square_until(stop) else {
        // Out of time before the search: the tour it was to start from.
        let order = start.map_or_else(|| sltf::plan_with(d), <[usize]>::to_vec);
        return (order, false);
    };
    let incumbent = start.map(|order| d.successors(order));
    if let (Some(edges), Some(tour)) = (edges, &incumbent) {
        edges.forbid_above(&mut cost, tour);
    }
    let budget = match patience {
        Patience::Budgeted => Budget {
            scans: SCANS,
            patience: (PATIENCE_READS * (m * m) as f64).min(MAX_PATIENCE),
            stop: stop.clone(),
        },
        Patience::Brief => Budget {
            scans: BRIEF_READS * (m * m) as f64,
            patience: BRIEF_READS * (m * m) as f64,
            stop: stop.clone(),
        },
        Patience::UntilStop => Budget {
            scans: f64::INFINITY,
            patience: f64::INFINITY,
            stop: stop.clone(),
        },
    };
    let found = branch_and_bound_from(m, &cost, incumbent.as_deref(), root, budget);
    (d.path(&found.succ), found.optimal)
}

/// PATCH's tour for `d` from the assignment `root` (see
/// [`patch::stored_assignment`]; its cycles merged among `near`'s candidate
/// edges above [`NEAR_PATCH_FROM`] nodes), where it finds one. BNB starts from it
/// after Or-opt ([`descend`], with reversals where [`reversals_pay`]), and
/// so does `best`'s own branch and bound: where BNB's patience ends the
/// search, its result depends on where it started (from a cheaper tour it
/// finds nothing better sooner and may stop above BNB from a dearer one),
/// and one starting tour for both keeps `best` never worse than BNB.
/// `None` also once `stop` is reached (see [`patch::plan_near`]).
pub(crate) fn patched(
    d: &Dense,
    near: &Neighbours,
    root: Option<&Assignment>,
    stop: &Stop,
) -> Option<Vec<usize>> {
    patch::plan_near(d, (d.len() > NEAR_PATCH_FROM).then_some(near), root, stop)
}

/// BNB in the registry.
pub(crate) struct Bnb;

impl Orderer for Bnb {
    fn name(&self) -> &'static str {
        "bnb"
    }

    fn plan(&self, problem: &Problem, options: &Options) -> Result<Plan> {
        let n = problem.len();
        if n > BNB_LIMIT {
            return Err(Error::TooLarge {
                algo: "bnb".into(),
                n,
                limit: BNB_LIMIT,
            });
        }
        // The run's stop hears the caller's progress callback too (Ctrl-C
        // from Python), which matters once a time limit lets it run long.
        let mut watch = Watch::new(options, 0.0);
        watch.phase("branch and bound");
        let stop = watch.stop();
        let d = Dense::new(problem);
        let near = Neighbours::new(&d);
        let root = patch::stored_assignment(problem, &d, &Stop::never());
        let start = patched(&d, &near, root.as_ref(), &stop).map(|mut order| {
            let reversals = reversals_pay(problem, &d, &near);
            descend(&d, &near, &mut order, reversals, &stop);
            order
        });
        // A caller's time limit is the search's budget: it runs until it
        // proves its tour optimal or the limit ends it.
        let patience = if options.time_limit.is_some() {
            Patience::UntilStop
        } else {
            Patience::Budgeted
        };
        let (order, optimal) =
            plan_with(&d, start.as_deref(), root.as_ref(), None, &stop, patience);
        Ok(Plan {
            optimal: optimal && problem.is_matrix(),
            ..Plan::locate(order)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_closed_tour, permute, square_rows, tilted};
    use super::{plan_with, Patience};
    use crate::stop::Stop;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// On small problems a brief search still finishes: it ends on
        /// the optimum (every tour, by brute force) and says so.
        #[test]
        fn a_brief_search_proves_small_problems(
            n in 3usize..7,
            raw in proptest::collection::vec(1u32..1000, 49),
        ) {
            on_closed_tour(square_rows(n, &raw), |d, _| {
                let start: Vec<usize> = (0..d.len()).collect();
                let mut order = start.clone();
                let mut optimum = f64::INFINITY;
                permute(&mut order, 0, &mut |o| optimum = optimum.min(d.tour(o)));
                let (found, optimal) =
                    plan_with(d, Some(&start), None, None, &Stop::never(), Patience::Brief);
                prop_assert!(optimal);
                prop_assert!((d.tour(&found) - optimum).abs() < 1e-6);
                Ok(())
            })?;
        }
    }

    /// Where the assignment bound is weak (nearly symmetric costs), the
    /// brief budget ends the search before a proof the budgeted one goes
    /// on to, and what it returns is no dearer than where it started.
    #[test]
    fn a_brief_search_gives_up_sooner() {
        on_closed_tour(tilted(60), |d, _| {
            let start: Vec<usize> = (0..d.len()).collect();
            let run = |patience| plan_with(d, Some(&start), None, None, &Stop::never(), patience);
            let (brief, brief_optimal) = run(Patience::Brief);
            let (_, proven) = run(Patience::UntilStop);
            assert!(proven, "the search without a budget proves it");
            assert!(!brief_optimal, "the brief search ended before its proof");
            assert!(d.tour(&brief) <= d.tour(&start));
        });
    }
}
