//! Every long loop `best` runs under a caller's time limit gives up once
//! its stop is reached (here a deadline already passed), and runs to its
//! answer without one: loops that ignored the deadline made
//! `time_limit=1.5` on 10,000 MLR1 requests take 8.5-8.7 s (MPScan*) and
//! `time_limit=1` on 100,000 LTO-9 ones 7.0-7.2 s (the first descent;
//! `benchmarks/bench_time_limit.py`, RESULTS.md).

use super::dense::Dense;
use super::local_search::descend;
use super::neighbours::Neighbours;
use super::test_support::mlr1;
use super::{cta_sltf, loss, mpscan, mpscan_star, sltf, Problem};
use crate::atsp::{branch_and_bound_from, Budget};
use crate::model::lto::small_spec;
use crate::model::{Block, CostMatrix, CostModel, Extent, LtoModel};
use crate::stop::Stop;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// `n` requests of one block at seeded random places on `model`'s tape.
fn requests(model: &dyn CostModel, n: usize) -> Vec<Extent> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    (0..n)
        .map(|_| Extent {
            start: Block(rng.gen_range(0..model.capacity())),
            bytes: model.block_bytes(),
        })
        .collect()
}

/// A batch of `n` such requests, the head at the tape's start.
fn batch(model: &dyn CostModel, n: usize) -> Problem<'_> {
    Problem::tape(model, requests(model, n), Block(0), None).unwrap()
}

/// A deadline that has already passed.
fn passed() -> Stop {
    Stop::at(Some(Instant::now()))
}

#[test]
fn the_constructive_seeds_give_up_at_a_passed_deadline() {
    let model = mlr1();
    let problem = batch(&model, 400);
    let stored = Dense::matrix(&problem);
    let positions = Dense::on_demand(&problem);
    for d in [&stored, &positions] {
        assert!(sltf::plan_with_until(d, &passed()).is_none());
        assert_eq!(
            sltf::plan_with_until(d, &Stop::never()).map(|o| o.len()),
            Some(400)
        );
    }
    assert!(loss::plan_until(&stored, &passed()).is_none());
    assert!(loss::plan_until(&stored, &Stop::never()).is_some());
    assert!(mpscan::plan_until(&problem, &passed()).is_none());
    // MPScan* keeps the cheapest schedule seen: past its deadline, MPScan's.
    let scans = mpscan::plan(&problem);
    let folded = mpscan_star::improve(scans.clone(), &stored, &Stop::never());
    assert_ne!(folded, scans.order, "MPScan* changes this batch's order");
    assert_eq!(
        mpscan_star::improve(scans.clone(), &stored, &passed()),
        scans.order
    );
    let lto = LtoModel::nominal(small_spec()).unwrap();
    let on_lto = batch(&lto, 400);
    assert_eq!(cta_sltf::plan_until(&on_lto, &passed()).unwrap(), None);
    assert!(cta_sltf::plan_until(&on_lto, &Stop::never())
        .unwrap()
        .is_some());
}

#[test]
fn the_bound_the_candidates_and_the_cost_table_give_up_at_a_passed_deadline() {
    let model = mlr1();
    for n in [300, 2_100] {
        let problem = batch(&model, n);
        assert!(problem.relaxation_until(&passed()).is_none(), "{n}");
        // Given up, not kept: a later call without a deadline solves it.
        assert!(problem.relaxation_until(&Stop::never()).is_some(), "{n}");
        let d = Dense::on_demand(&problem);
        assert!(Neighbours::until(&d, &passed()).is_none(), "{n}");
        assert!(d.square_until(&passed()).is_none(), "{n}");
    }
    let rows: Vec<Vec<f64>> = (0..2_100)
        .map(|i: usize| (0..2_100).map(|j: usize| i.abs_diff(j) as f64).collect())
        .collect();
    let matrix = CostMatrix::from_rows(rows).unwrap();
    let problem = Problem::matrix(&matrix, 0, None).unwrap();
    assert!(problem.relaxation_until(&passed()).is_none());
    assert!(problem.relaxation_until(&Stop::never()).is_some());
}

#[test]
fn a_descent_past_its_deadline_moves_nothing() {
    let model = mlr1();
    let problem = batch(&model, 200);
    let d = Dense::matrix(&problem);
    let near = Neighbours::new(&d);
    let fifo: Vec<usize> = (0..200).collect();
    let mut stopped = fifo.clone();
    descend(&d, &near, &mut stopped, false, &passed());
    assert_eq!(stopped, fifo);
    let mut descended = fifo.clone();
    descend(&d, &near, &mut descended, false, &Stop::never());
    assert!(d.tour(&descended) < d.tour(&fifo));
}

#[test]
fn branch_and_bound_past_its_deadline_returns_its_start() {
    let m = 60;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let cost: Vec<f64> = (0..m * m).map(|_| rng.gen_range(1.0..100.0)).collect();
    let start: Vec<usize> = (0..m).map(|i| (i + 1) % m).collect();
    let budget = |stop: &Stop| Budget {
        scans: f64::INFINITY,
        patience: f64::INFINITY,
        stop: stop.clone(),
    };
    let stopped = branch_and_bound_from(m, &cost, Some(&start), None, budget(&passed()));
    assert!(!stopped.optimal);
    assert_eq!(stopped.succ, start);
    let solved = branch_and_bound_from(m, &cost, Some(&start), None, budget(&Stop::never()));
    assert!(solved.optimal && solved.cost < stopped.cost);
}
