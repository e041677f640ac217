//! The assignment relaxation, PATCH and the lower bound every schedule can
//! carry: PATCH is a true order whose cost never beats the optimum, the
//! bound never exceeds any algorithm's cost, and `best` is never worse than
//! any other algorithm (PATCH included) on the same input.

use crate::common;

use proptest::prelude::*;
use seekplan_core::atsp::{additive_bound, assignment};
use seekplan_core::model::{Block, CostMatrix, CostModel, Extent};
use seekplan_core::order::{
    positioning_matrix, run_with, Algorithm, Head, Options, Problem, BNB_LIMIT, BOUND_LIMIT,
    OPT_LIMIT,
};
use seekplan_core::stop::Stop;

fn matrix(n: usize, raw: &[u32]) -> CostMatrix<'static> {
    CostMatrix::from_rows(
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if i == j {
                            0.0
                        } else {
                            f64::from(raw[i * n + j] % 1000) / 10.0
                        }
                    })
                    .collect()
            })
            .collect(),
    )
    .unwrap()
}

/// A tilted drilling machine (moving up costs twice moving down): nearly
/// symmetric costs, on which `best` also runs Lin–Kernighan flip chains.
fn tilted(n: usize, raw: &[u32]) -> CostMatrix<'static> {
    let at = |i: usize| {
        (
            f64::from(raw[2 * i] % 1000),
            f64::from(raw[2 * i + 1] % 1000),
        )
    };
    CostMatrix::from_rows(
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let ((xi, yi), (xj, yj)) = (at(i), at(j));
                        let dy = yj - yi;
                        (xj - xi).abs() + if dy > 0.0 { 2.0 * dy } else { -dy }
                    })
                    .collect()
            })
            .collect(),
    )
    .unwrap()
}

fn with_bound() -> Options {
    Options {
        bound: true,
        ..Options::default()
    }
}

fn on_matrices() -> impl Iterator<Item = Algorithm> {
    Algorithm::ALL.into_iter().filter(|a| a.on_matrices())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_finished_branch_and_bound_is_the_optimum_and_its_own_bound(
        n in 2usize..9,
        raw in proptest::collection::vec(any::<u32>(), 64),
        end in any::<bool>(),
    ) {
        let m = matrix(n, &raw);
        let problem = Problem::matrix(&m, 0, end.then_some(n - 1)).unwrap();
        let optimum = common::brute_force(&problem);
        let s = run_with(&problem, Algorithm::Bnb, &with_bound()).unwrap();
        prop_assert!((s.total_s - optimum).abs() < 1e-9, "bnb {} optimum {optimum}", s.total_s);
        prop_assert_eq!(s.lower_bound_s, Some(s.total_s));
        prop_assert_eq!(s.gap, Some(0.0));
    }

    #[test]
    fn patch_and_the_bound_bracket_the_optimum(
        n in 2usize..8,
        raw in proptest::collection::vec(any::<u32>(), 64),
        end in any::<bool>(),
    ) {
        let m = matrix(n, &raw);
        let problem = Problem::matrix(&m, 0, end.then_some(n - 1)).unwrap();
        let optimum = common::brute_force(&problem);
        let patch = run_with(&problem, Algorithm::Patch, &with_bound()).unwrap();
        let bound = patch.lower_bound_s.unwrap();
        prop_assert!(bound <= optimum + 1e-9, "bound {bound} optimum {optimum}");
        prop_assert!(patch.total_s >= optimum - 1e-9);
        let best = run_with(&problem, Algorithm::Best, &with_bound()).unwrap();
        prop_assert!((best.total_s - optimum).abs() < 1e-9);
    }

    #[test]
    fn every_algorithm_is_a_permutation_above_the_bound_and_best_wins(
        n in 3usize..60,
        raw in proptest::collection::vec(any::<u32>(), 3600),
        seed in any::<u64>(),
    ) {
        let m = matrix(n, &raw);
        let problem = Problem::matrix(&m, 0, None).unwrap();
        let options = Options { seed, ..with_bound() };
        let best = run_with(&problem, Algorithm::Best, &options).unwrap();
        for algo in on_matrices() {
            if algo == Algorithm::Opt && problem.len() > OPT_LIMIT {
                continue;
            }
            let s = run_with(&problem, algo, &options).unwrap();
            let mut seen = s.order.clone();
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..problem.len()).collect::<Vec<_>>());
            let bound = s.lower_bound_s.unwrap();
            prop_assert!(bound <= s.total_s + 1e-9, "{algo}: bound {bound} > {}", s.total_s);
            prop_assert!(best.total_s <= s.total_s + 1e-9, "{algo}: {} < best {}", s.total_s, best.total_s);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn on_nearly_symmetric_costs_best_is_a_permutation_and_still_wins(
        n in 17usize..50,
        raw in proptest::collection::vec(any::<u32>(), 160),
        seed in any::<u64>(),
    ) {
        let m = tilted(n, &raw);
        let problem = Problem::matrix(&m, 0, Some(0)).unwrap();
        let options = Options { seed, ..Options::default() };
        let best = run_with(&problem, Algorithm::Best, &options).unwrap();
        let again = run_with(&problem, Algorithm::Best, &options).unwrap();
        prop_assert_eq!(&best.order, &again.order);
        let mut seen = best.order.clone();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..problem.len()).collect::<Vec<_>>());
        for algo in on_matrices().filter(|&a| a != Algorithm::Opt) {
            let s = run_with(&problem, algo, &options).unwrap();
            prop_assert!(best.total_s <= s.total_s + 1e-9, "{algo}: {} < best {}", s.total_s, best.total_s);
        }
    }
}

#[test]
fn the_bound_holds_for_every_algorithm_on_a_tape() {
    let model = common::drive("mlr1");
    let reqs = common::uniform(&model, 200, 3);
    let problem = Problem::tape(&model, reqs, Block(1_000), Some(Block(0))).unwrap();
    let best = run_with(&problem, Algorithm::Best, &with_bound()).unwrap();
    for algo in Algorithm::ALL {
        let Ok(s) = run_with(&problem, algo, &with_bound()) else {
            continue;
        };
        let bound = s.lower_bound_s.unwrap();
        assert!(
            bound <= s.total_s + 1e-9,
            "{algo}: bound {bound} > {}",
            s.total_s
        );
        assert!(best.total_s <= s.total_s + 1e-9, "{algo} beats best");
        assert!(s.gap.unwrap() >= -1e-12);
    }
}

/// The bound users compute from `positioning_matrix` (locates only, the
/// start/end as the last node) with its diagonal forbidden: the
/// assignment, what joining its cycles adds at least (the additive bound
/// from the start/end), and the reads of `requests`.
fn locate_only_bound(model: &dyn CostModel, requests: &[Extent]) -> f64 {
    let rows = positioning_matrix(model, requests.to_vec(), Block(0), None).unwrap();
    let m = rows.len();
    let mut cost: Vec<f64> = rows.into_iter().flatten().collect();
    for i in 0..m {
        cost[i * m + i] = f64::INFINITY;
    }
    let reads: f64 = requests.iter().map(|&r| model.read(r).seconds).sum();
    let a = assignment(m, &cost);
    a.total + additive_bound(m, &cost, &a, m - 1, &Stop::never()) + reads
}

#[test]
fn where_locating_wins_the_bound_is_the_locate_only_assignment() {
    // 600 requests spread over an MLR1 tape: reading through to each is far
    // dearer than locating, so no schedule beats the locate-only relaxation
    // and the bound is that relaxation, not a pairwise cheaper-move mix.
    // `best`'s own bound may rise above it (a proof over locate orders
    // counts where streaming cannot go lower), never below.
    let model = common::drive("mlr1");
    let reqs = common::uniform(&model, 600, 5);
    let problem = Problem::tape(&model, reqs.clone(), Block(0), None).unwrap();
    let relaxation = locate_only_bound(&model, &reqs);
    let sltf = run_with(&problem, Algorithm::Sltf, &with_bound()).unwrap();
    let bound = sltf.lower_bound_s.unwrap();
    assert!((bound - relaxation).abs() < 1e-6 * bound);
    let best = run_with(&problem, Algorithm::Best, &with_bound()).unwrap();
    let bound = best.lower_bound_s.unwrap();
    assert!(bound >= relaxation * (1.0 - 1e-9) && bound <= best.total_s * (1.0 + 1e-9));
    assert!(best.gap.unwrap() < 0.01, "gap {:?}", best.gap);
}

#[test]
fn where_reading_through_wins_the_bound_still_holds_for_read() {
    // The same requests packed into the first hundredth of the tape:
    // streaming over the gaps beats a locate each, so READ's schedule is
    // below the locate-only relaxation and the bound must follow it down.
    let model = common::drive("mlr1");
    let mut reqs = common::uniform(&model, 600, 5);
    for r in &mut reqs {
        r.start = Block(r.start.0 / 100);
    }
    let problem = Problem::tape(&model, reqs.clone(), Block(0), None).unwrap();
    let read = run_with(&problem, Algorithm::Read, &with_bound()).unwrap();
    assert!(read.total_s < locate_only_bound(&model, &reqs));
    let bound = read.lower_bound_s.unwrap();
    assert!(
        bound <= read.total_s + 1e-9,
        "bound {bound} > read {}",
        read.total_s
    );
    let best = run_with(&problem, Algorithm::Best, &with_bound()).unwrap();
    assert!(best.total_s <= read.total_s + 1e-9);
}

#[test]
fn one_time_limit_bounds_all_of_bests_improving_phases() {
    // On nearly symmetric costs `best` runs branch and bound, iterated
    // local search, restarts and a merge; the limit covers them together
    // (each phase taking the whole limit for itself ran several over it).
    let raw: Vec<u32> = (0..600u32)
        .map(|k| k.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let m = tilted(300, &raw);
    let problem = Problem::matrix(&m, 0, Some(0)).unwrap();
    let timed = |options: &Options| {
        let started = std::time::Instant::now();
        run_with(&problem, Algorithm::Best, options).unwrap();
        started.elapsed()
    };
    let free = timed(&Options::default());
    let limit = free / 20;
    let limited = timed(&Options {
        time_limit: Some(limit),
        ..Options::default()
    });
    // The seeds before the first improving phase are a few percent of it
    // (measured 1.07x the limit; 3.8x when each phase had its own limit).
    assert!(
        limited < 2 * limit,
        "{limited:?} with a limit of {limit:?}, {free:?} without"
    );
}

#[test]
fn the_same_seed_gives_the_same_order_and_the_budget_is_honoured() {
    let m = matrix(
        80,
        &(0..6400u32)
            .map(|k| k.wrapping_mul(2_654_435_761))
            .collect::<Vec<_>>(),
    );
    let problem = Problem::matrix(&m, 0, None).unwrap();
    let a = run_with(&problem, Algorithm::Best, &Options::default()).unwrap();
    let b = run_with(&problem, Algorithm::Best, &Options::default()).unwrap();
    assert_eq!(a.order, b.order);
    let none = Options {
        iterations: Some(0),
        ..Options::default()
    };
    let c = run_with(&problem, Algorithm::Best, &none).unwrap();
    assert!(a.total_s <= c.total_s + 1e-9);
}

#[test]
fn above_the_stored_limits_patch_and_the_bound_come_from_the_sparse_solver() {
    // Past BOUND_LIMIT the bound of a matrix, and past BNB_LIMIT (the
    // largest stored matrix) PATCH's assignment, come from the sparse
    // solver checked against every cost: the bound must equal the dense
    // solver's value.
    let n = BOUND_LIMIT.max(BNB_LIMIT) + 50;
    let raw: Vec<u32> = (0..n * n)
        .map(|k| (k as u32).wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let m = matrix(n, &raw);
    let problem = Problem::matrix(&m, 0, None).unwrap();
    let patch = run_with(&problem, Algorithm::Patch, &with_bound()).unwrap();
    let mut seen = patch.order.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..problem.len()).collect::<Vec<_>>());
    let sparse = patch.lower_bound_s.unwrap();
    let nodes = problem.len() + 1;
    let dense: Vec<f64> = positioning_matrix_of(&problem)
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            if k / nodes == k % nodes {
                f64::INFINITY
            } else {
                c
            }
        })
        .collect();
    let want = assignment(nodes, &dense).total;
    assert!((sparse - want).abs() < 1e-6, "sparse {sparse} dense {want}");
    assert!(sparse <= patch.total_s + 1e-9);
}

/// The (n + 1)² positioning costs of a matrix problem, depot last.
fn positioning_matrix_of(problem: &Problem) -> Vec<f64> {
    let n = problem.len();
    let head = |i: usize| if i == n { Head::Start } else { Head::After(i) };
    let mut out = Vec::with_capacity((n + 1) * (n + 1));
    for i in 0..=n {
        for j in 0..=n {
            out.push(match (i == j, j == n) {
                (true, _) => 0.0,
                (false, true) => problem.finish(head(i)),
                (false, false) => problem.locate(head(i), j),
            });
        }
    }
    out
}
