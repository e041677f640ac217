//! `random`: a uniformly random waiting request (the paper's benchmark).

use super::{Pending, StrategyConfig, Tapes};
use crate::library::Request;
use crate::sim::Time;
use crate::Result;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The random strategy has no knobs (its draws use the run's seed).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Random {}

impl StrategyConfig for Random {
    fn validate(&self) -> Result<()> {
        Ok(())
    }

    fn build(&self, _: &Tapes<'_>, rng: ChaCha8Rng) -> Box<dyn Pending + Send> {
        Box::new(RandomPending {
            waiting: Vec::new(),
            rng,
        })
    }
}

struct RandomPending {
    waiting: Vec<Request>,
    rng: ChaCha8Rng,
}

impl Pending for RandomPending {
    fn arrive(&mut self, request: Request, _: bool, _: Time) {
        self.waiting.push(request);
    }

    fn take(&mut self, _: Time) -> Option<Request> {
        if self.waiting.is_empty() {
            return None;
        }
        let i = self.rng.gen_range(0..self.waiting.len());
        Some(self.waiting.swap_remove(i))
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }
}
