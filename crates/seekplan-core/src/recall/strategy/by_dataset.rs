//! `by-dataset`: requests in arrival order (the datasets in the order the
//! experiment requested them).

use super::{Pending, StrategyConfig, Tapes};
use crate::library::Request;
use crate::sim::Time;
use crate::Result;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The by-dataset strategy has no knobs.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ByDataset {}

impl StrategyConfig for ByDataset {
    fn validate(&self) -> Result<()> {
        Ok(())
    }

    fn build(&self, _: &Tapes<'_>, _: ChaCha8Rng) -> Box<dyn Pending + Send> {
        Box::new(Fifo(VecDeque::new()))
    }
}

struct Fifo(VecDeque<Request>);

impl Pending for Fifo {
    fn arrive(&mut self, request: Request, _: bool, _: Time) {
        self.0.push_back(request);
    }

    fn take(&mut self, _: Time) -> Option<Request> {
        self.0.pop_front()
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }
}
