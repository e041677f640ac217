//! Shared helpers for the integration tests: the shipped catalog and seeded requests.

#![allow(dead_code)]

use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seekplan_core::model::{Block, CostModel, Extent, SerpentineModel, SerpentineSpec};
use seekplan_core::order::Problem;
use seekplan_core::{Moves, Schedule};

/// The catalog shipped with the Python package.
pub const DEVICES: &str = include_str!("../../../../python/seekplan/data/devices.toml");

/// The model parameters of a catalogued drive, as its model's spec.
pub fn params<T: serde::de::DeserializeOwned>(name: &str) -> T {
    let doc: serde_json::Value = basic_toml::from_str(DEVICES).expect("catalog parses");
    serde_json::from_value(doc["drives"][name]["params"].clone()).expect("a spec of its model")
}

/// The serpentine spec of a catalogued drive.
pub fn spec(name: &str) -> SerpentineSpec {
    params(name)
}

/// A nominal tape in a catalogued drive.
pub fn drive(name: &str) -> SerpentineModel {
    SerpentineModel::nominal(spec(name)).expect("valid spec")
}

/// `n` one-block requests uniform over the tape, seeded.
pub fn uniform(model: &dyn CostModel, n: usize, seed: u64) -> Vec<Extent> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Extent {
            start: Block(rng.gen_range(0..model.capacity())),
            bytes: model.block_bytes(),
        })
        .collect()
}

/// The least total over every order of `problem` (small problems only).
pub fn brute_force(problem: &Problem) -> f64 {
    fn go(p: &Problem, order: &mut Vec<usize>, used: &mut Vec<bool>, best: &mut f64) {
        if order.len() == used.len() {
            let s = Schedule::evaluate(p, order.clone(), Moves::Locate).unwrap();
            *best = best.min(s.total_s);
            return;
        }
        for j in 0..used.len() {
            if !used[j] {
                used[j] = true;
                order.push(j);
                go(p, order, used, best);
                order.pop();
                used[j] = false;
            }
        }
    }
    let mut best = f64::INFINITY;
    go(
        problem,
        &mut Vec::new(),
        &mut vec![false; problem.len()],
        &mut best,
    );
    best
}

/// SLTF by brute force on the problem's own locate: every remaining request
/// timed at every step, ties to the lower request.
pub fn brute_sltf(problem: &Problem) -> Vec<usize> {
    use seekplan_core::order::Head;
    let mut remaining: Vec<usize> = (0..problem.len()).collect();
    let mut head = Head::Start;
    let mut order = Vec::new();
    while !remaining.is_empty() {
        let k = (0..remaining.len())
            .min_by(|&a, &b| {
                let (ja, jb) = (remaining[a], remaining[b]);
                (problem.locate(head, ja), ja)
                    .partial_cmp(&(problem.locate(head, jb), jb))
                    .unwrap()
            })
            .unwrap();
        let j = remaining.swap_remove(k);
        order.push(j);
        head = Head::After(j);
    }
    order
}

/// A property test's config with `cases` cases, seeded so that CI runs the
/// same cases every time (`PROPTEST_RNG_SEED=N` explores others).
pub fn seeded(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::with_cases(cases);
    if config.rng_seed == RngSeed::Random {
        config.rng_seed = RngSeed::Fixed(16);
    }
    config
}

/// Times 200 moves on `model` (half of them within a few hundred blocks)
/// from cached positions and checks each: it is the model's own locate to
/// the bit, and not below the model's bound by distance along the medium
/// (what lets SLTF stop searching), its extra for leaving the track
/// included. The first failure, described, or None.
pub fn cached_move_failure(model: &dyn CostModel, rng: &mut ChaCha8Rng) -> Option<String> {
    let costs = model.pos_costs().expect("positions");
    let bound = costs.along_bound().expect("a bound");
    let cap = model.capacity();
    for _ in 0..200 {
        let a = Block(rng.gen_range(0..cap));
        let b = if rng.gen_bool(0.5) {
            Block(rng.gen_range(0..cap))
        } else {
            Block(
                (a.0 + rng.gen_range(0..400))
                    .saturating_sub(200)
                    .min(cap - 1),
            )
        };
        let (pa, pb) = (model.pos(a).unwrap(), model.pos(b).unwrap());
        let timed = costs.locate(pa, pb);
        if timed.to_bits() != model.locate(a, b).to_bits() {
            return Some(format!(
                "{a:?} to {b:?}: {timed} from positions, {} by locate",
                model.locate(a, b)
            ));
        }
        let forward = pb.along >= pa.along;
        let mut least = bound.at((pa.along - pb.along).abs(), pa.side != pb.side, forward);
        if pa.track != pb.track {
            least += bound.other_track_extra;
        }
        if least > timed {
            return Some(format!("bound {least} above {timed} from {pa:?} to {pb:?}"));
        }
    }
    None
}
