//! `by-tapes`: requests clustered by tape, `tapes` tapes at a time, passed on
//! round-robin; the next tape is the one whose oldest pending request came
//! first (the paper's 2T and 12T, §4.2).

use super::clusters::{Clusters, TapePending};
use super::{Pending, StrategyConfig, Tapes};
use crate::library::{Campaign, Request};
use crate::sim::Time;
use crate::{Error, Result};
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::ops::Range;

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

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, _: ChaCha8Rng) -> Box<dyn Pending + Send + 'a> {
        Box::new(ByTapesPending {
            clusters: Clusters::new(tapes, self.tapes, true),
            first_seen: VecDeque::new(),
            listed: vec![false; tapes.specs.len()],
        })
    }
}

struct ByTapesPending<'a> {
    clusters: Clusters<'a>,
    /// Tapes in the order their oldest pending request arrived (may hold
    /// stale entries; checked on use).
    first_seen: VecDeque<u32>,
    /// Whether each tape is in `first_seen`.
    listed: Vec<bool>,
}

impl ByTapesPending<'_> {
    /// Lists `tape`, which just got a request, unless it is listed or active.
    fn list(&mut self, tape: u32) {
        let pending = &self.clusters.tapes[tape as usize];
        list(&mut self.first_seen, &mut self.listed, tape, pending);
    }
}

/// Lists `tape` (whose pending requests are `pending`) in `first_seen`
/// unless it is listed or active.
fn list(first_seen: &mut VecDeque<u32>, listed: &mut [bool], tape: u32, pending: &TapePending) {
    let t = tape as usize;
    if !listed[t] && !pending.active {
        listed[t] = true;
        first_seen.push_back(tape);
    }
}

impl Pending for ByTapesPending<'_> {
    fn arrive(&mut self, request: Request, _: bool, now: Time) {
        self.clusters.add(request, now);
        self.list(request.tape);
    }

    fn admit(&mut self, campaign: &Campaign, ranks: Range<usize>, now: Time) {
        let (first_seen, listed) = (&mut self.first_seen, &mut self.listed);
        self.clusters
            .admit(&campaign.arrival_tapes()[ranks], now, |tape, pending| {
                list(first_seen, listed, tape, pending);
            });
    }

    fn take(&mut self, now: Time) -> Option<Request> {
        let (first_seen, listed) = (&mut self.first_seen, &mut self.listed);
        self.clusters.take(now, |c, _| {
            while let Some(t) = first_seen.pop_front() {
                let p = &c.tapes[t as usize];
                if listed[t as usize] && !p.active && p.len > 0 {
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
