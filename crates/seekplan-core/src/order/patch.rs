//! PATCH: the assignment relaxation of the positioning costs (start/end as
//! one depot node), its cycles patched into one tour by Karp's method, cut
//! at the depot into the path the head follows. On asymmetric costs the
//! assignment is close to the optimal tour, so this lands a few percent
//! above the bound; `best` improves it further. Up to [`DENSE_LIMIT`]
//! requests the assignment is solved on the stored matrix, above it on a
//! sparse candidate graph checked against every cost (O(n) memory).

use super::dense::Dense;
use super::neighbours::Neighbours;
use super::registry::{Orderer, Plan};
use super::{Options, Problem};
use crate::atsp::{
    assignment_until, cheapest_exchange, cycles, merge_cycles, patch, sparse_assignment_within,
    Assignment, Costs, OnLine,
};
use crate::stop::Stop;
use crate::{Error, Result};

/// Largest batch whose (n + 1)² costs are stored for the assignment:
/// 128 MB at 4,000.
pub(crate) const DENSE_LIMIT: usize = 4_000;

/// Candidate edges per row the sparse assignment may scan on a drive
/// model before PATCH gives up: LTO-9 batches take ~300 a row and the
/// four-region DLT7000 ~1,100 at 5,000 requests, while the helical drives
/// take 100,000 to 4.6 million (2026-11-27). At 20,000 requests this caps
/// the augmenting paths at 4e8 edges, a few seconds.
const WORK_PER_ROW: usize = 20_000;

/// Batches above this size patch their assignment's cycles by exchanges
/// among candidate edges ([`patch_near`]) rather than Karp's full search:
/// at 1,000 nodes the full search costs ~10 ms; at 10,000 LTO seek-matrix
/// nodes ~4 s, the candidates' search 0.02 s (2026-11-28).
pub(crate) const NEAR_PATCH_FROM: usize = 1_000;

/// The optimal assignment of `problem`'s costs `d` (n + 1 nodes, the depot
/// last) where it needs no sparse solver: the lower bound's, where it
/// solved one (every explicit matrix, drive models up to its limit), else
/// solved on the stored costs up to [`DENSE_LIMIT`] requests (none for no
/// requests: one node has no assignment without its diagonal; none either
/// once `stop` is reached while it is solved). PATCH patches its cycles and
/// branch and bound starts from it, so it is solved once.
pub(crate) fn stored_assignment(problem: &Problem, d: &Dense, stop: &Stop) -> Option<Assignment> {
    let n = d.len();
    match problem
        .relaxation_until(stop)
        .and_then(|r| r.locate.as_ref())
    {
        Some(a) => Some(a.clone()),
        None => (1..=DENSE_LIMIT)
            .contains(&n)
            .then(|| assignment_until(n + 1, &d.square_until(stop)?, stop))
            .flatten(),
    }
}

/// The PATCH order for `problem`'s costs `d`: the cycles of `root` (see
/// [`stored_assignment`]), or without it of the sparse assignment, `None`
/// when the sparse solver finds none on its candidate graph, or on a drive
/// model none within [`WORK_PER_ROW`] (see [`sparse_assignment_within`])
/// or before `stop` (a caller's time limit or cancel: at 20,000 requests on the
/// DLT7000 the sparse solve takes ~6 s).
/// The cycles are merged by exchanges among `near`'s candidate edges when
/// given (see [`patch_near`]), by Karp's full search otherwise.
pub(crate) fn plan_near(
    d: &Dense,
    near: Option<&Neighbours>,
    root: Option<&Assignment>,
    stop: &Stop,
) -> Option<Vec<usize>> {
    let n = d.len();
    if n == 0 {
        return Some(Vec::new());
    }
    let m = n + 1;
    let mut succ = match root {
        Some(a) => a.succ.clone(),
        None => sparse_assignment_within(m, TapeCosts::new(d), WORK_PER_ROW * m, stop)?.succ,
    };
    match near {
        Some(near) => patch_near(&mut succ, d, near),
        None => patch(&mut succ, |i, j| d.cost(i, j)),
    }
    Some(d.path(&succ))
}

/// `d`'s costs as the sparse assignment reads them: on cached positions
/// with the model's bound by distance along the tape, placed on that line,
/// so that its passes skip the moves the bound shows too dear to matter
/// (on 16,000 LTO-9 requests they read every one of the n² moves, 70 % of
/// `best`'s CPU).
struct TapeCosts<'d> {
    d: &'d Dense<'d>,
    line: Option<OnLine<'d>>,
}

impl<'d> TapeCosts<'d> {
    fn new(d: &'d Dense<'d>) -> Self {
        let line = d
            .cached_positions()
            .zip(d.along_bound())
            .map(|((from, to), bound)| {
                let col_at = to
                    .iter()
                    .map(|p| Some(p.along))
                    .chain([d.cached_end().map(|e| e.along)])
                    .collect();
                OnLine::new(
                    from.iter().map(|p| p.along).collect(),
                    col_at,
                    Box::new(move |delta, forward| bound.any_side(delta, forward)),
                )
            });
        TapeCosts { d, line }
    }
}

impl Costs for TapeCosts<'_> {
    fn cost(&self, i: usize, j: usize) -> f64 {
        self.d.cost(i, j)
    }

    fn on_line(&self) -> Option<&OnLine<'_>> {
        self.line.as_ref()
    }
}

/// Karp's patching ([`patch`]) with each cycle's exchange sought among
/// candidate edges only: for every node `b` of the cycle, the tour nodes
/// `a` among the cheapest predecessors of `succ[b]` (new edge a → succ[b])
/// and the predecessors in the tour of `b`'s cheapest successors (new edge
/// b → succ[a]). A cycle with no candidate exchange gets the full search.
/// O(n × candidates) instead of O(n²) cost reads: Karp's full search took
/// ~4 s of CPU on 10,000-node LTO seek matrices, the reads missing cache.
pub(crate) fn patch_near(succ: &mut [usize], d: &Dense, near: &Neighbours) {
    let cost = |i: usize, j: usize| d.cost(i, j);
    let all = cycles(succ);
    merge_cycles(succ, &all, |at| {
        let (succ, pred, in_tour) = (at.succ, at.pred, at.in_tour);
        let added = |a: usize, b: usize| {
            let (sa, sb) = (succ[a], succ[b]);
            cost(a, sb) + cost(b, sa) - cost(a, sa) - cost(b, sb)
        };
        let mut best: Option<(f64, usize, usize)> = None;
        let mut consider = |a: usize, b: usize| {
            let c = added(a, b);
            if best.is_none_or(|(least, _, _)| c < least) {
                best = Some((c, a, b));
            }
        };
        for &b in at.cycle {
            for &a in near.preds[succ[b]].iter().filter(|&&a| in_tour[a]) {
                consider(a, b);
            }
            for &x in near.succs[b].iter().filter(|&&x| in_tour[x]) {
                consider(pred[x], b);
            }
        }
        Some(match best {
            Some((_, a, b)) => (a, b),
            None => cheapest_exchange(at.tour, at.cycle, succ, cost),
        })
    });
}

/// PATCH in the registry.
pub(crate) struct Patch;

impl Orderer for Patch {
    fn name(&self) -> &'static str {
        "patch"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        let d = Dense::new(problem);
        let near = (d.len() > NEAR_PATCH_FROM).then(|| Neighbours::new(&d));
        // A time limit steers `best`; PATCH alone runs to its answer.
        let root = stored_assignment(problem, &d, &Stop::never());
        plan_near(&d, near.as_ref(), root.as_ref(), &Stop::never())
            .map(Plan::locate)
            .ok_or_else(|| Error::Unsupported {
                algo: "patch".into(),
                reason: "its sparse assignment found no tour through the cheapest moves \
                         within its work budget; use best or sltf"
                    .into(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lto::small_spec;
    use crate::model::{
        Block, CostModel, Extent, HelicalModel, HelicalSpec, LinearSeek, LtoModel, ReadThrough,
    };
    use proptest::prelude::*;
    use std::time::Instant;

    /// A helical tape whose moves forward read through: its bound by
    /// distance differs with the direction.
    fn helical() -> ReadThrough<HelicalModel> {
        let line = |startup_s, full_s| LinearSeek { startup_s, full_s };
        ReadThrough::new(
            HelicalModel::new(HelicalSpec {
                capacity_bytes: 4_000 * 16_384,
                block_bytes: 16_384,
                rate_bps: 325_000.0,
                seek: line(13.0, 110.0),
                short_seek: Some(line(4.61, 872.0)),
                rewind: line(13.0, 110.0),
            })
            .unwrap(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// On cached positions the sparse assignment reads a tape's moves
        /// by the line, from the start head's row to the end position's
        /// column, and finds what reading every move finds, to the bit.
        #[test]
        fn reading_a_tape_by_the_line_changes_no_assignment(
            seed in any::<u64>(),
            n in 2usize..300,
            ends in any::<bool>(),
            lto in any::<bool>(),
        ) {
            let lto_model = LtoModel::nominal(small_spec()).unwrap();
            let helical_model = helical();
            let model: &dyn CostModel = if lto { &lto_model } else { &helical_model };
            let cap = model.capacity();
            let mut x = seed | 1;
            let mut next = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            // Clustered: many requests share a block or sit a few apart.
            let hub = next() % cap;
            let requests = (0..n)
                .map(|_| Extent {
                    start: Block(if next() % 2 == 0 { next() % cap } else { (hub + next() % 40).min(cap - 1) }),
                    bytes: model.block_bytes(),
                })
                .collect();
            let end = ends.then(|| Block(next() % cap));
            let problem = Problem::tape(model, requests, Block(next() % cap), end).unwrap();
            let d = Dense::on_demand(&problem);
            let costs = TapeCosts::new(&d);
            prop_assert!(costs.on_line().is_some());
            let by_line = sparse_assignment_within(n + 1, costs, usize::MAX, &Stop::never());
            let all = sparse_assignment_within(n + 1, |i, j| d.cost(i, j), usize::MAX, &Stop::never());
            let (by_line, all) = (by_line.expect("solved"), all.expect("solved"));
            prop_assert_eq!(by_line.succ, all.succ);
            prop_assert_eq!(by_line.row, all.row);
            prop_assert_eq!(by_line.col, all.col);
        }
    }

    /// A caller's time limit ends the sparse solve: with its deadline
    /// passed PATCH gives no tour (`best` falls back on its seeds), and
    /// without one the same costs give one.
    #[test]
    fn the_sparse_assignment_stops_at_the_deadline() {
        let model = LtoModel::nominal(small_spec()).unwrap();
        let requests = (0..300)
            .map(|k| Extent {
                start: Block(k * 7919 % model.capacity()),
                bytes: model.block_bytes(),
            })
            .collect();
        let problem = Problem::tape(&model, requests, Block(0), None).unwrap();
        let d = Dense::on_demand(&problem);
        let passed = Stop::at(Some(Instant::now()));
        assert_eq!(plan_near(&d, None, None, &passed), None);
        let order = plan_near(&d, None, None, &Stop::never()).expect("a tour");
        assert_eq!(order.len(), 300);
    }
}
