//! `best`'s stop rules: it stops at the certificate (its tour meets the
//! lower bound), at the caller's gap or time limit, or when its budget is
//! spent; it says which; it is never worse than PATCH or SLTF; and the
//! limits on its options are enforced.

use crate::common;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seekplan_core::model::{Block, CostMatrix, CostModel, Extent};
use seekplan_core::order::{
    order_matrix_with, order_tape_with, Algorithm, Options, Progress, Schedule, StopReason,
    MAX_ITERATIONS,
};
use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A random asymmetric matrix of `n` nodes, costs 1..1000.
fn random_matrix(n: usize, seed: u64) -> CostMatrix<'static> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let flat: Vec<f64> = (0..n * n)
        .map(|k| {
            if k / n == k % n {
                0.0
            } else {
                rng.gen_range(1.0..1000.0)
            }
        })
        .collect();
    CostMatrix::from_flat(n, Cow::Owned(flat)).unwrap()
}

/// Nodes along a line, moving forward cheap and backward dear: the
/// assignment's cycles patch into the optimal path, which meets the bound.
fn forward_line(n: usize) -> CostMatrix<'static> {
    let flat: Vec<f64> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            match j.cmp(&i) {
                std::cmp::Ordering::Greater => (j - i) as f64,
                std::cmp::Ordering::Less => 10.0 * (i - j) as f64,
                std::cmp::Ordering::Equal => 0.0,
            }
        })
        .collect();
    CostMatrix::from_flat(n, Cow::Owned(flat)).unwrap()
}

fn with_bound() -> Options {
    Options {
        bound: true,
        ..Options::default()
    }
}

/// [`with_bound`] and a time limit of `limit`.
fn with_limit(limit: Duration) -> Options {
    Options {
        time_limit: Some(limit),
        ..with_bound()
    }
}

#[test]
fn a_tour_that_meets_the_bound_stops_as_optimal_after_patching() {
    let matrix = forward_line(400);
    let (s, _) = order_matrix_with(&matrix, 0, None, Algorithm::Best, &with_bound()).unwrap();
    let report = s.search.expect("best reports its search");
    assert_eq!(report.stopped_because, StopReason::Optimal);
    let bound = s.lower_bound_s.unwrap();
    assert!(
        s.total_s <= bound * (1.0 + 1e-9),
        "{} above {bound}",
        s.total_s
    );
    let phases: Vec<&str> = report.phases.iter().map(|p| p.0).collect();
    assert!(
        !phases.contains(&"kicks"),
        "searched on after the proof: {phases:?}"
    );
    assert!(phases.starts_with(&["bound"]), "{phases:?}");
}

#[test]
fn a_wide_gap_stops_at_once_and_says_so() {
    let matrix = random_matrix(300, 7);
    let options = Options {
        gap: 0.5,
        ..with_bound()
    };
    let (s, _) = order_matrix_with(&matrix, 0, None, Algorithm::Best, &options).unwrap();
    let report = s.search.unwrap();
    assert!(
        matches!(
            report.stopped_because,
            StopReason::Gap | StopReason::Optimal
        ),
        "{:?}",
        report.stopped_because
    );
    assert!(s.total_s <= s.lower_bound_s.unwrap() * 1.5);
    let (tight, _) = order_matrix_with(&matrix, 0, None, Algorithm::Best, &with_bound()).unwrap();
    assert!(tight.total_s <= s.total_s);
}

#[test]
fn a_time_limit_ends_the_search_and_is_named() {
    // 1,500 random nodes: branch and bound cannot prove them in 50 ms.
    let matrix = random_matrix(1_500, 3);
    let options = with_limit(Duration::from_millis(50));
    let (s, _) = order_matrix_with(&matrix, 0, None, Algorithm::Best, &options).unwrap();
    let report = s.search.unwrap();
    assert_eq!(report.stopped_because, StopReason::Time);
    let (sltf, _) = order_matrix_with(&matrix, 0, None, Algorithm::Sltf, &options).unwrap();
    assert!(s.total_s <= sltf.total_s);
}

/// `n` points drawn uniform in a 1,000 x 1,000 square, costs their
/// Euclidean distances rounded: a symmetric matrix, where the assignment
/// bound (each node's cheapest partner) is weak and branch and bound on
/// its own budget gives up on many batches of a few dozen nodes.
fn euclidean_matrix(n: usize, seed: u64) -> CostMatrix<'static> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let points: Vec<(f64, f64)> = (0..n)
        .map(|_| (rng.gen_range(0.0..1000.0), rng.gen_range(0.0..1000.0)))
        .collect();
    let flat: Vec<f64> = (0..n * n)
        .map(|k| {
            let ((x, y), (u, v)) = (points[k / n], points[k % n]);
            (x - u).hypot(y - v).round()
        })
        .collect();
    CostMatrix::from_flat(n, Cow::Owned(flat)).unwrap()
}

/// `best` on `matrix` with its defaults and, where they stop by their
/// budget, again with `limited`: that run must end proven optimal and never
/// dearer (`label` names the batch). The limited run's schedule, if it ran.
fn proven_under_limit(matrix: &CostMatrix, limited: &Options, label: &str) -> Option<Schedule> {
    let (quick, _) = order_matrix_with(matrix, 0, None, Algorithm::Best, &with_bound()).unwrap();
    if quick.search.unwrap().stopped_because != StopReason::Budget {
        return None;
    }
    let (s, _) = order_matrix_with(matrix, 0, None, Algorithm::Best, limited).unwrap();
    let report = s.search.as_ref().unwrap();
    assert_eq!(report.stopped_because, StopReason::Optimal, "{label}");
    assert!(s.total_s <= quick.total_s + 1e-9, "{label}");
    Some(s)
}

/// With a time limit, branch and bound spends part of it on a proof
/// rather than giving up on its own budget: batches `best` leaves
/// unproven by default end proven optimal before the limit, and never
/// dearer; `bnb` alone proves the same optimum.
#[test]
fn a_time_limit_buys_branch_and_bound_a_proof() {
    let limited = with_limit(Duration::from_secs(60));
    let mut unproven = 0;
    for seed in 0..9 {
        let matrix = euclidean_matrix(30, seed);
        let Some(s) = proven_under_limit(&matrix, &limited, &format!("seed {seed}")) else {
            continue;
        };
        unproven += 1;
        // `bnb` alone spends the limit on its search too and proves the
        // same optimum (its bound then equals its total).
        let (b, _) = order_matrix_with(&matrix, 0, None, Algorithm::Bnb, &limited).unwrap();
        assert_eq!(
            b.lower_bound_s,
            Some(b.total_s),
            "seed {seed}: bnb unproven"
        );
        assert!(
            (b.total_s - s.total_s).abs() <= 1e-9 * s.total_s,
            "seed {seed}"
        );
    }
    assert!(
        unproven >= 2,
        "{unproven} batches left unproven by default: the test tests too little"
    );
}

/// Files along a tape read as a line, node 0 the head: a locate costs a
/// startup plus the distance from the end of one file to the start of the
/// next (in milliseconds). Both the assignment and the quick α ascent's
/// bounds are weak on such costs, and rounded to the millisecond the line
/// fitted through them (`line_fit`) leaves a slack that cannot prove the
/// order.
fn files_on_a_line(n: usize, seed: u64) -> CostMatrix<'static> {
    line_matrix(n, seed, |ms| ms.round())
}

/// [`files_on_a_line`]'s costs, each passed through `finish`.
fn line_matrix(n: usize, seed: u64, finish: impl Fn(f64) -> f64) -> CostMatrix<'static> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let files: Vec<(f64, f64)> = (0..n)
        .map(|k| {
            let start = rng.gen_range(0.0..1000.0);
            let length = if k == 0 {
                0.0
            } else {
                rng.gen_range(0.1..1000.0 / n as f64)
            };
            (start, start + length)
        })
        .collect();
    let flat: Vec<f64> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            if i == j {
                0.0
            } else {
                finish((5.0 + (files[j].0 - files[i].1).abs()) * 1000.0)
            }
        })
        .collect();
    CostMatrix::from_flat(n, Cow::Owned(flat)).unwrap()
}

/// The same files with their costs unrounded lie exactly on a line:
/// `best` fits it while computing its bound, takes the line's exact order
/// and stops there, proven optimal, without a search.
#[test]
fn a_matrix_on_a_line_is_ordered_on_it_and_proven() {
    for seed in 0..5 {
        for n in [40, 300] {
            let matrix = line_matrix(n, seed, |ms| ms);
            let (s, _) =
                order_matrix_with(&matrix, 0, None, Algorithm::Best, &with_bound()).unwrap();
            let report = s.search.unwrap();
            assert_eq!(
                report.stopped_because,
                StopReason::Optimal,
                "{n} seed {seed}"
            );
            let phases: Vec<&str> = report.phases.iter().map(|p| p.0).collect();
            assert_eq!(phases, ["bound"], "{n} seed {seed}");
            let bound = s.lower_bound_s.unwrap();
            assert!(s.total_s <= bound * (1.0 + 1e-9), "{n} seed {seed}");
        }
    }
}

/// Where the quick ascent leaves its bound well below the tour, a time
/// limit buys a long one and branch and bound over the edges it rules out:
/// the batches of files on a line that the defaults leave unproven end
/// proven optimal, never dearer.
#[test]
fn a_time_limit_buys_a_long_ascent_where_the_tree_bound_is_weak() {
    let limited = with_limit(Duration::from_secs(20));
    let mut unproven = 0;
    for seed in 0..10 {
        let matrix = files_on_a_line(40, seed);
        unproven +=
            usize::from(proven_under_limit(&matrix, &limited, &format!("seed {seed}")).is_some());
    }
    assert!(
        unproven >= 2,
        "{unproven} batches left unproven by default: the test tests too little"
    );
}

/// A time limit spent before the search can start (a nanosecond) leaves
/// SLTF's order and the cheap geometric ones: every improving phase on
/// every path (stored and timed-on-demand costs, renumbered batches, the
/// dense and the sparse bound) gives up at once rather than running to its
/// end, and the result is never worse than SLTF.
#[test]
fn a_time_limit_spent_at_once_runs_no_improving_phase() {
    let spent = with_limit(Duration::from_nanos(1));
    let check = |best: Schedule, sltf: Schedule, case: &str| {
        let report = best.search.expect("best reports its search");
        assert_eq!(report.stopped_because, StopReason::Time, "{case}");
        for (phase, _) in &report.phases {
            assert!(
                ["seeds", "bound", "neighbours"].contains(phase),
                "{case}: {phase} ran past the time limit"
            );
        }
        assert!(best.total_s <= sltf.total_s, "{case}");
    };
    for n in [300, 2_100] {
        let matrix = random_matrix(n, 5);
        let run = |algo| order_matrix_with(&matrix, 0, None, algo, &spent).unwrap().0;
        check(
            run(Algorithm::Best),
            run(Algorithm::Sltf),
            &format!("matrix {n}"),
        );
    }
    for (drive, n) in [("mlr1", 600), ("mlr1", 3_000), ("dlt2000", 1_500)] {
        let model = common::drive(drive);
        let run = |algo| {
            let requests = common::uniform(&model, n, 3);
            order_tape_with(&model, requests, Block(0), None, algo, &spent).unwrap()
        };
        check(
            run(Algorithm::Best),
            run(Algorithm::Sltf),
            &format!("{drive} {n}"),
        );
    }
}

#[test]
fn options_past_their_limits_are_refused_by_name() {
    let matrix = random_matrix(20, 1);
    let cases = [
        (
            Options {
                iterations: Some(MAX_ITERATIONS + 1),
                ..Options::default()
            },
            "iterations",
        ),
        (
            Options {
                time_limit: Some(Duration::from_secs(86_401)),
                ..Options::default()
            },
            "time_limit",
        ),
        (
            Options {
                gap: 1.5,
                ..Options::default()
            },
            "gap",
        ),
        (
            Options {
                gap: -0.1,
                ..Options::default()
            },
            "gap",
        ),
    ];
    for (options, field) in cases {
        let err = order_matrix_with(&matrix, 0, None, Algorithm::Best, &options).unwrap_err();
        assert!(
            err.to_string().contains(field),
            "{err} does not name {field}"
        );
    }
}

#[test]
fn the_progress_callback_hears_the_phases() {
    let heard: Arc<Mutex<Vec<&'static str>>> = Arc::default();
    let sink = Arc::clone(&heard);
    let options = Options {
        progress: Some(Progress(Arc::new(move |snap| {
            sink.lock().unwrap().push(snap.phase);
            true
        }))),
        ..with_bound()
    };
    order_matrix_with(&random_matrix(60, 2), 0, None, Algorithm::Best, &options).unwrap();
    let heard = heard.lock().unwrap();
    assert!(heard.contains(&"bound"), "{heard:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `best` is never above PATCH's or SLTF's order on the same matrix,
    /// whatever the stop rule that ended it, and a claimed optimum meets
    /// the bound.
    #[test]
    fn best_is_never_above_patch_or_sltf(n in 17usize..70, seed in 0u64..1000, gap in 0.0f64..0.02) {
        let matrix = random_matrix(n, seed);
        let options = Options { gap, ..with_bound() };
        let (best, _) = order_matrix_with(&matrix, 0, None, Algorithm::Best, &options).unwrap();
        let report = best.search.clone().unwrap();
        let bound = best.lower_bound_s.unwrap();
        if report.stopped_because == StopReason::Optimal {
            prop_assert!(best.total_s <= bound * (1.0 + 1e-9));
        }
        prop_assert!(best.total_s <= bound * (1.0 + gap.max(1e-9)) || report.stopped_because == StopReason::Budget);
        for algo in [Algorithm::Patch, Algorithm::Sltf] {
            let (other, _) = order_matrix_with(&matrix, 0, None, algo, &with_bound()).unwrap();
            if gap == 0.0 {
                prop_assert!(best.total_s <= other.total_s + 1e-9, "{algo}: {} < {}", other.total_s, best.total_s);
            } else {
                prop_assert!(best.total_s <= other.total_s.max(bound * (1.0 + gap)) + 1e-9);
            }
        }
    }
}

#[test]
/// The callback says stop the first time it is called (as the bound
/// starts): the long steps hear it through their heartbeat and give up,
/// so no phase after the candidate lists runs (the bound, the candidate
/// lists and PATCH's assignment used to run to their end, 1-2 s at 10,000
/// nodes, keeping Ctrl-C waiting), and the order is still never worse than
/// SLTF's.
fn a_callback_that_says_stop_ends_the_search_as_cancelled() {
    let options = Options {
        progress: Some(Progress(Arc::new(|_| false))),
        ..with_bound()
    };
    for n in [1_500, 2_100] {
        let matrix = random_matrix(n, 4);
        let (s, _) = order_matrix_with(&matrix, 0, None, Algorithm::Best, &options).unwrap();
        let report = s.search.unwrap();
        assert_eq!(report.stopped_because, StopReason::Cancelled);
        let phases: Vec<&str> = report.phases.iter().map(|p| p.0).collect();
        assert_eq!(phases, ["bound", "neighbours"], "{n}");
        let (sltf, _) = order_matrix_with(&matrix, 0, None, Algorithm::Sltf, &options).unwrap();
        assert!(s.total_s <= sltf.total_s, "{n}");
    }
}

/// Where the kicked tour is within reach of the 1-tree bound, the defaults
/// search again without the edges that bound rules out and prove it
/// optimal there: on Euclidean matrices (symmetric, where the assignment
/// bound is weak) of 30-60 nodes, several batches end proven after the
/// kicks (none did before that search), their bound equal to their total,
/// and at 30 nodes on the optimum `bnb` proves under a time limit (at 60
/// it proves nothing in a minute).
#[test]
fn a_tour_near_the_one_tree_bound_is_proven_by_default() {
    let limited = with_limit(Duration::from_secs(60));
    let mut after_kicks = 0;
    for n in [30, 40, 60] {
        for seed in 0..10 {
            let matrix = euclidean_matrix(n, seed);
            let (s, _) =
                order_matrix_with(&matrix, 0, None, Algorithm::Best, &with_bound()).unwrap();
            let report = s.search.unwrap();
            let kicked = report.phases.iter().any(|(p, _)| *p == "kicks");
            if report.stopped_because != StopReason::Optimal || !kicked {
                continue;
            }
            after_kicks += 1;
            assert_eq!(s.lower_bound_s, Some(s.total_s), "n {n} seed {seed}");
            if n > 30 {
                continue;
            }
            let (b, _) = order_matrix_with(&matrix, 0, None, Algorithm::Bnb, &limited).unwrap();
            assert_eq!(b.lower_bound_s, Some(b.total_s), "n {n} seed {seed}");
            assert!(
                (b.total_s - s.total_s).abs() <= 1e-9 * s.total_s,
                "n {n} seed {seed}: best {} but bnb {}",
                s.total_s,
                b.total_s
            );
        }
    }
    assert!(
        after_kicks >= 5,
        "only {after_kicks} batches proven after the kicks"
    );
}

proptest! {
    #![proptest_config(common::seeded(12))]

    /// On a drive's batch a proof over locate orders (branch and bound
    /// finishing) raises `best`'s bound only as far as streaming through
    /// the batch could go: the bound stays below every algorithm's total,
    /// the streaming orders' (READ, SORT) too, and a run that stops as
    /// optimal meets it. Requests crowd a stretch of `span` blocks, so
    /// that on dense batches streaming competes with locating.
    #[test]
    fn a_drive_batch_proven_optimal_is_below_every_schedule(
        n in 17usize..60,
        span in 200u64..40_000,
        seed in 0u64..1000,
        drive in prop::sample::select(vec!["mlr1", "dlt4000"]),
    ) {
        let model = common::drive(drive);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let first = rng.gen_range(0..model.capacity() - span);
        let requests: Vec<_> = (0..n)
            .map(|_| Extent {
                start: Block(first + rng.gen_range(0..span)),
                bytes: model.block_bytes() * rng.gen_range(1..20),
            })
            .collect();
        let head = Block(rng.gen_range(0..model.capacity()));
        let run = |algo| {
            order_tape_with(&model, requests.clone(), head, None, algo, &with_bound()).unwrap()
        };
        let best = run(Algorithm::Best);
        let bound = best.lower_bound_s.unwrap();
        if best.search.unwrap().stopped_because == StopReason::Optimal {
            prop_assert!(best.total_s <= bound * (1.0 + 1e-9), "{} above {bound}", best.total_s);
        }
        for algo in [Algorithm::Read, Algorithm::Sort, Algorithm::Sltf, Algorithm::Fifo, Algorithm::Scan] {
            let other = run(algo);
            prop_assert!(bound <= other.total_s * (1.0 + 1e-9), "{algo}: {} below the bound {bound}", other.total_s);
            prop_assert!(best.total_s <= other.total_s + 1e-9, "{algo}: {} below {}", other.total_s, best.total_s);
        }
    }
}
