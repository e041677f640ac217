//! Robot arm fetch and return times (Johnson & Miller §5.1, Table 2): nearly
//! deterministic, independent of the slot, described by a mean and a
//! standard deviation.

use rand::Rng;
use serde::{Deserialize, Serialize};

/// Mean and standard deviation of one arm motion, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spread {
    /// Mean seconds.
    pub mean_s: f64,
    /// Standard deviation, seconds.
    pub sd_s: f64,
}

impl Spread {
    /// One draw from a normal distribution with this mean and spread,
    /// truncated at zero (Box-Muller: two uniforms, no extra dependency for
    /// one distribution).
    pub fn sample(&self, rng: &mut impl Rng) -> f64 {
        if self.sd_s <= 0.0 {
            return self.mean_s.max(0.0);
        }
        let u1: f64 = 1.0 - rng.gen::<f64>();
        let u2: f64 = rng.gen();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        (self.mean_s + self.sd_s * z).max(0.0)
    }
}

/// A robot's arm: fetch a tape from its slot to a drive, return it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotSpec {
    /// Slot to drive.
    pub fetch: Spread,
    /// Drive to slot.
    pub ret: Spread,
}

impl RobotSpec {
    /// One fetch time, seconds.
    pub fn fetch_s(&self, rng: &mut impl Rng) -> f64 {
        self.fetch.sample(rng)
    }

    /// One return time, seconds.
    pub fn return_s(&self, rng: &mut impl Rng) -> f64 {
        self.ret.sample(rng)
    }
}

impl RobotSpec {
    /// `n` seeded (fetch, return) pairs, for reports and simulators that
    /// want a whole sample.
    pub fn draws(&self, n: usize, seed: u64) -> Vec<(f64, f64)> {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| (self.fetch_s(&mut rng), self.return_s(&mut rng)))
            .collect()
    }
}
