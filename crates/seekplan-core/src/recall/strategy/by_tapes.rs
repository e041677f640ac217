//! `by-tapes`: requests clustered by tape, `tapes` tapes at a time, passed on
//! round-robin; the next tape is the one whose oldest pending request came
//! first (the paper's 2T and 12T, §4.2).

use super::clusters::Clusters;
use super::{Pending, StrategyConfig, Tapes};
use crate::library::Request;
use crate::sim::Time;
use crate::{Error, Result};
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The knobs of by-tapes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ByTapes {
    /// Number of tapes whose requests are passed on in parallel.
    pub tapes: usize,
}

impl StrategyConfig for ByTapes {
    fn validate(&self) -> Result<()> {
        if self.tapes == 0 {
            return Err(Error::invalid("strategy.tapes", "must be at least 1"));
        }
        Ok(())
    }

    fn build(&self, tapes: &Tapes<'_>, _: ChaCha8Rng) -> Box<dyn Pending + Send> {
        Box::new(ByTapesPending {
            clusters: Clusters::new(tapes, self.tapes),
            first_seen: VecDeque::new(),
            listed: vec![false; tapes.specs.len()],
        })
    }
}

struct ByTapesPending {
    clusters: Clusters,
    /// Tapes in the order their oldest pending request arrived (may hold
    /// stale entries; checked on use).
    first_seen: VecDeque<u32>,
    /// Whether each tape is in `first_seen`.
    listed: Vec<bool>,
}

impl Pending for ByTapesPending {
    fn arrive(&mut self, request: Request, _: bool, now: Time) {
        self.clusters.add(request, now);
        let tape = request.tape;
        let t = tape as usize;
        if !self.listed[t] && !self.clusters.tapes[t].active {
            self.listed[t] = true;
            self.first_seen.push_back(tape);
        }
    }

    fn take(&mut self, now: Time) -> Option<Request> {
        let (first_seen, listed) = (&mut self.first_seen, &mut self.listed);
        self.clusters.take(now, |c, _| {
            while let Some(t) = first_seen.pop_front() {
                let p = &c.tapes[t as usize];
                if listed[t as usize] && !p.active && !p.files.is_empty() {
                    listed[t as usize] = false;
                    return Some(t);
                }
            }
            None
        })
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }
}
