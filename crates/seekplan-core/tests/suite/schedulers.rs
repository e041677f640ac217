//! Every scheduler's output is a permutation whose cost is recomputed from the
//! model; exact algorithms match brute force; improvers never lose to what
//! they improve.

use crate::common;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seekplan_core::model::{Block, CostMatrix, CostModel, Extent};
use seekplan_core::order::{
    order_matrix, order_matrix_with, order_tape, run, Algorithm, Options, Problem, OPT_LIMIT,
};
use seekplan_core::{Error, Schedule};

const HEURISTICS: [Algorithm; 9] = [
    Algorithm::Read,
    Algorithm::Fifo,
    Algorithm::Sort,
    Algorithm::Scan,
    Algorithm::Loss,
    Algorithm::Sltf,
    Algorithm::MpScan,
    Algorithm::MpScanStar,
    Algorithm::Best,
];

fn is_permutation(order: &[usize], n: usize) -> bool {
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    sorted == (0..n).collect::<Vec<_>>()
}

fn requests(seed: u64, n: usize) -> Vec<Extent> {
    let model = common::drive("mlr1");
    common::uniform(&model, n, seed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_algorithm_returns_a_permutation_with_its_earned_cost(
        seed in any::<u64>(), n in 0usize..60, start_frac in 0.0f64..1.0, end in any::<bool>()
    ) {
        let model = common::drive("mlr1");
        let start = Block((start_frac * model.capacity() as f64) as u64);
        let end = end.then_some(Block(0));
        let problem = Problem::tape(&model, requests(seed, n), start, end).unwrap();
        for algo in HEURISTICS {
            let s = run(&problem, algo).unwrap();
            prop_assert!(is_permutation(&s.order, n), "{algo}");
            let again = Schedule::evaluate(&problem, s.order.clone(), s.moves).unwrap();
            prop_assert!((again.total_s - s.total_s).abs() < 1e-6, "{algo}");
        }
    }

    #[test]
    fn mpscan_star_is_never_worse_than_mpscan(seed in any::<u64>(), n in 1usize..300) {
        let model = common::drive("mlr1");
        let problem = Problem::tape(&model, requests(seed, n), Block(0), None).unwrap();
        let star = run(&problem, Algorithm::MpScanStar).unwrap().total_s;
        let plain = run(&problem, Algorithm::MpScan).unwrap().total_s;
        prop_assert!(star <= plain + 1e-9, "star {star} plain {plain}");
    }

    #[test]
    fn best_is_never_worse_than_any_algorithm(seed in any::<u64>(), n in 1usize..120, end in any::<bool>()) {
        let model = common::drive("mlr1");
        let problem = Problem::tape(&model, requests(seed, n), Block(0), end.then_some(Block(0))).unwrap();
        let best = run(&problem, Algorithm::Best).unwrap().total_s;
        for algo in HEURISTICS {
            let other = run(&problem, algo).unwrap().total_s;
            prop_assert!(best <= other + 1e-9, "best {best} > {algo} {other}");
        }
    }

    #[test]
    fn opt_equals_brute_force_on_tapes(seed in any::<u64>(), n in 1usize..7, end in any::<bool>()) {
        let model = common::drive("dlt2000");
        let problem = Problem::tape(&model, common::uniform(&model, n, seed), Block(0), end.then_some(Block(0))).unwrap();
        let opt = run(&problem, Algorithm::Opt).unwrap().total_s;
        prop_assert!((opt - common::brute_force(&problem)).abs() < 1e-6);
    }

    #[test]
    fn opt_equals_brute_force_on_asymmetric_matrices(
        rows in (2usize..8).prop_flat_map(|n| prop::collection::vec(prop::collection::vec(0.0f64..100.0, n), n)),
        closed in any::<bool>()
    ) {
        let n = rows.len();
        let m = CostMatrix::from_rows(rows).unwrap();
        let end = closed.then_some(0);
        let problem = Problem::matrix(&m, 0, end).unwrap();
        let opt = run(&problem, Algorithm::Opt).unwrap();
        prop_assert!((opt.total_s - common::brute_force(&problem)).abs() < 1e-6);
        for algo in [Algorithm::Loss, Algorithm::Sltf, Algorithm::Fifo, Algorithm::Best] {
            let (s, nodes) = order_matrix(&m, 0, end, algo).unwrap();
            prop_assert!(s.total_s + 1e-9 >= opt.total_s, "{algo} beat OPT");
            prop_assert_eq!(nodes[0], 0);
            prop_assert_eq!(nodes.len(), if closed { n + 1 } else { n });
        }
    }
}

#[test]
fn opt_refuses_batches_over_its_limit_naming_it() {
    let model = common::drive("mlr1");
    let e = order_tape(
        &model,
        requests(1, OPT_LIMIT + 1),
        Block(0),
        None,
        Algorithm::Opt,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::TooLarge {
            algo: "opt".into(),
            n: OPT_LIMIT + 1,
            limit: OPT_LIMIT
        }
    );
    assert!(e.to_string().contains(&OPT_LIMIT.to_string()));
}

#[test]
fn geometric_algorithms_refuse_a_bare_matrix() {
    let m = CostMatrix::from_rows(vec![vec![0.0, 1.0], vec![1.0, 0.0]]).unwrap();
    let e = order_matrix(&m, 0, None, Algorithm::Scan).unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
}

#[test]
fn bad_inputs_name_the_field() {
    let model = common::drive("mlr1");
    let past = Extent {
        start: Block(model.capacity()),
        bytes: 1,
    };
    let e = order_tape(&model, vec![past], Block(0), None, Algorithm::Fifo).unwrap_err();
    assert!(
        e.to_string().contains("block") && e.to_string().contains("request 0"),
        "{e}"
    );
    let empty = Extent {
        start: Block(0),
        bytes: 0,
    };
    let e = order_tape(&model, vec![empty], Block(0), None, Algorithm::Fifo).unwrap_err();
    assert!(e.to_string().contains("size"), "{e}");
    let e = order_tape(&model, vec![], Block(u64::MAX), None, Algorithm::Fifo).unwrap_err();
    assert!(e.to_string().contains("start"), "{e}");
    assert!(CostMatrix::from_rows(vec![vec![0.0, 1.0]])
        .unwrap_err()
        .to_string()
        .contains("square"));
    assert!("mpscan*"
        .parse::<Algorithm>()
        .unwrap_err()
        .to_string()
        .contains("mpscan-star"));
}

#[test]
fn empty_batch_costs_only_the_trip_to_the_end() {
    let model = common::drive("mlr1");
    let s = order_tape(&model, vec![], Block(1000), Some(Block(0)), Algorithm::Best).unwrap();
    assert!(s.order.is_empty());
    assert!((s.total_s - model.locate(Block(1000), Block(0))).abs() < 1e-12);
}

#[test]
fn scheduling_beats_fifo_by_a_wide_margin_at_moderate_sizes() {
    // Section 5: for tens to hundreds of requests, MPScan* cuts FIFO's time by more than half.
    let model = common::drive("mlr1");
    let problem = Problem::tape(&model, requests(3, 256), Block(0), None).unwrap();
    let fifo = run(&problem, Algorithm::Fifo).unwrap().total_s;
    let star = run(&problem, Algorithm::MpScanStar).unwrap().total_s;
    assert!(star < 0.5 * fifo, "mpscan* {star} fifo {fifo}");
}

proptest! {
    #![proptest_config(common::seeded(48))]

    /// Every serpentine move timed from cached positions is the model's
    /// locate to the bit and not below the bound by distance SLTF stops
    /// on (the overhead and the distance at the faster of the traverse and
    /// key-point read rates, plus the track change to another track; a
    /// move to the same place is free).
    #[test]
    fn serpentine_moves_from_positions_are_exact_and_obey_the_bound(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for name in ["mlr1", "dlt2000", "dlt4000"] {
            let model = common::drive(name);
            prop_assert_eq!(common::cached_move_failure(&model, &mut rng), None, "{}", name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// SLTF searches outwards from the head and stops where the model's
    /// bound by distance along the tape exceeds the best move found: it must
    /// pick exactly what timing every request would.
    #[test]
    fn sltf_near_the_head_is_sltf_over_all_requests(
        seed in any::<u64>(), n in 1usize..400, start_frac in 0.0f64..1.0,
        drive in prop::sample::select(vec!["mlr1", "dlt2000"]),
        clustered in any::<bool>(),
    ) {
        let model = common::drive(drive);
        let start = Block((start_frac * model.capacity() as f64) as u64);
        let mut reqs = common::uniform(&model, n, seed);
        if clustered {
            // Many requests at a few places: ties and equal distances.
            for (i, r) in reqs.iter_mut().enumerate() {
                r.start = Block(r.start.0 / 1000 * 1000 + (i % 3) as u64);
            }
        }
        let problem = Problem::tape(&model, reqs, start, None).unwrap();
        prop_assert_eq!(run(&problem, Algorithm::Sltf).unwrap().order, common::brute_sltf(&problem));
    }
}

/// On nearly symmetric matrices `best` certifies its schedule with the
/// 1-tree bound of its α-nearness ascent where that is stronger than the
/// assignment bound every algorithm reports: never above the schedule's
/// total, never below the assignment bound.
#[test]
fn best_reports_the_stronger_bound_on_symmetric_matrices() {
    let mut stronger = 0;
    for seed in 0..4u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = 60;
        let mut rows = vec![vec![0.0; n]; n];
        for (i, j) in (0..n).flat_map(|i| (0..i).map(move |j| (i, j))) {
            let c = f64::from(rng.gen_range(1..1000u32));
            rows[i][j] = c;
            rows[j][i] = c;
        }
        let m = CostMatrix::from_rows(rows).unwrap();
        let bounded = Options {
            bound: true,
            ..Options::default()
        };
        let (best, _) = order_matrix_with(&m, 0, Some(0), Algorithm::Best, &bounded).unwrap();
        let (fifo, _) = order_matrix_with(&m, 0, Some(0), Algorithm::Fifo, &bounded).unwrap();
        let (bound, assignment) = (best.lower_bound_s.unwrap(), fifo.lower_bound_s.unwrap());
        assert!(
            bound <= best.total_s,
            "seed {seed}: {bound} > {}",
            best.total_s
        );
        assert!(bound >= assignment, "seed {seed}: {bound} < {assignment}");
        if bound > assignment * 1.01 {
            stronger += 1;
        }
    }
    assert!(
        stronger >= 3,
        "the 1-tree bound was stronger on {stronger} of 4"
    );
}
