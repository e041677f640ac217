//! Shared helpers for the integration tests: the shipped catalog and seeded requests.

#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seekplan_core::model::{Block, Extent, SerpentineModel, SerpentineSpec};

/// The catalog shipped with the Python package.
pub const DEVICES: &str = include_str!("../../../../python/seekplan/data/devices.toml");

/// The serpentine spec of a catalogued drive.
pub fn spec(name: &str) -> SerpentineSpec {
    let doc: toml::Value = toml::from_str(DEVICES).expect("catalog parses");
    doc["drives"][name]["params"]
        .clone()
        .try_into()
        .expect("a serpentine spec")
}

/// A nominal tape in a catalogued drive.
pub fn drive(name: &str) -> SerpentineModel {
    SerpentineModel::nominal(spec(name)).expect("valid spec")
}

/// `n` one-block requests uniform over the tape, seeded.
pub fn uniform(model: &SerpentineModel, n: usize, seed: u64) -> Vec<Extent> {
    use seekplan_core::model::CostModel;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Extent {
            start: Block(rng.gen_range(0..model.capacity())),
            bytes: model.block_bytes(),
        })
        .collect()
}
