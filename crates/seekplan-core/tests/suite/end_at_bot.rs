//! Schedules that must end at BOT (rewound before unload): on drives whose
//! rewinds have a line of their own (Johnson & Miller's helical drives and
//! four-region model) the last move is that rewind, and `best` stays exact
//! and its bound valid under it.

use crate::common;
use proptest::prelude::*;
use seekplan_core::model::{Block, CostModel, Extent, FourRegionModel, HelicalModel};
use seekplan_core::order::{run, Algorithm, Problem};
use seekplan_core::{Moves, Schedule};

/// The catalogued Ampex DST 310: rewinds a little faster than it seeks.
fn ampex() -> HelicalModel {
    HelicalModel::new(common::params("ampex-dst310")).unwrap()
}

/// The catalogued DLT4000 of J&M's Table 3: rewinds along the tape,
/// whatever the track.
fn dlt4000() -> FourRegionModel {
    FourRegionModel::new(common::params("dlt4000-t3")).unwrap()
}

/// Every order of `problem`'s requests: the cheapest schedule, locating or
/// reading through.
fn cheapest_by_brute_force(problem: &Problem, order: &mut Vec<usize>, k: usize) -> f64 {
    if k == order.len() {
        return [Moves::Locate, Moves::ReadThrough]
            .into_iter()
            .map(|moves| {
                Schedule::evaluate(problem, order.clone(), moves)
                    .unwrap()
                    .total_s
            })
            .fold(f64::INFINITY, f64::min);
    }
    let mut least = f64::INFINITY;
    for i in k..order.len() {
        order.swap(k, i);
        least = least.min(cheapest_by_brute_force(problem, order, k + 1));
        order.swap(k, i);
    }
    least
}

/// `best` with the end at BOT on `model`: its schedule ends by the rewind,
/// it is the cheapest of every order, and its bound is below that.
fn check(model: &dyn CostModel, starts: &[u64], head: u64) -> Result<(), TestCaseError> {
    let cap = model.capacity();
    let requests = starts
        .iter()
        .map(|&s| Extent {
            start: Block(s % (cap - 2)),
            bytes: model.block_bytes(),
        })
        .collect();
    let problem = Problem::tape(model, requests, Block(head % cap), Some(Block(0))).unwrap();
    let best = run(&problem, Algorithm::Best).unwrap();
    let last = best.steps.last().map_or(Block(head % cap), |s| {
        model
            .read(Extent {
                start: Block(starts[s.request] % (cap - 2)),
                bytes: model.block_bytes(),
            })
            .end
    });
    prop_assert_eq!(best.finish_s, model.rewind_s(last).unwrap());
    let mut order: Vec<usize> = (0..starts.len()).collect();
    let least = cheapest_by_brute_force(&problem, &mut order, 0);
    prop_assert!(
        (best.total_s - least).abs() <= 1e-9 * least,
        "{} against {least}",
        best.total_s
    );
    if let Some(bound) = best.lower_bound_s {
        prop_assert!(bound <= least * (1.0 + 1e-9), "bound {bound} above {least}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn best_ends_a_helical_batch_by_the_rewind(
        starts in proptest::collection::vec(0u64..u64::MAX, 1..6),
        head in 0u64..u64::MAX,
    ) {
        check(&ampex(), &starts, head)?;
    }

    #[test]
    fn best_ends_a_four_region_batch_by_the_rewind(
        starts in proptest::collection::vec(0u64..u64::MAX, 1..6),
        head in 0u64..u64::MAX,
    ) {
        check(&dlt4000(), &starts, head)?;
    }
}

/// The rewind line is what the last move costs, not the locate to block 0.
#[test]
fn the_rewind_is_not_the_locate_to_block_zero() {
    let model = ampex();
    let from = Block(model.capacity() / 2);
    let rewind = model.rewind_s(from).unwrap();
    assert!((rewind - (9.6 + 24.1 / 2.0)).abs() < 1e-3, "{rewind}");
    assert!(rewind < model.locate(from, Block(0)));
    let problem = Problem::tape(
        &model,
        vec![Extent {
            start: Block(from.0 - 1),
            bytes: model.block_bytes(),
        }],
        Block(0),
        Some(Block(0)),
    )
    .unwrap();
    assert_eq!(run(&problem, Algorithm::Fifo).unwrap().finish_s, rewind);
}
