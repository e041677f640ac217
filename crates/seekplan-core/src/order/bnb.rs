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
    /// Until it proves its tour optimal or the stop is reached: the search
    /// spending a caller's time limit on a proof.
    UntilStop,
}

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
