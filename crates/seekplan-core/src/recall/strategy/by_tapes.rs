//! `by-tapes`: requests clustered by tape, `tapes` tapes at a time, passed on
//! round-robin; the next tape is the one whose oldest pending request came
//! first (the paper's 2T and 12T, §4.2).

use super::clusters::{Clusters, TapePending};
use super::{Pending, Queue, StrategyConfig, Tapes};
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

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, _: ChaCha8Rng) -> Queue<'a> {
        Queue::ByTapes(ByTapesPending {
            clusters: Clusters::new(tapes, self.tapes, true),
            first_seen: VecDeque::new(),
            listed: vec![false; tapes.specs.len()],
        })
    }
}

/// Requests pending per tape, passed on from a few tapes at a time.
pub struct ByTapesPending<'a> {
    clusters: Clusters<'a>,
    /// Tapes in the order their oldest pending request arrived (may hold
    /// stale entries; checked on use).
    first_seen: VecDeque<u32>,
    /// Whether each tape is in `first_seen`.
    listed: Vec<bool>,
}

impl ByTapesPending<'_> {
    /// Passes on the requests of `tapes` tapes in parallel from now on (at
    /// least 1); tapes active beyond a lowered number are drained first.
    pub fn set_tapes(&mut self, tapes: usize) {
        self.clusters.set_max_active(tapes.max(1));
    }

    /// The number of tapes whose requests are passed on in parallel.
    pub fn tapes(&self) -> usize {
        self.clusters.max_active()
    }

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
        let then = |tape, pending: &TapePending| list(first_seen, listed, tape, pending);
        // A whole campaign arriving at once (a batch recall known up front)
        // is listed tape by tape, not request by request: each tape is
        // listed at its first request either way, and whether a tape is
        // listed depends only on that.
        if ranks.start == 0 && ranks.end == campaign.files().len() {
            let per_tape = campaign.files_per_tape();
            let arrivals = campaign
                .tapes_by_first_arrival()
                .iter()
                .map(|&t| (t, per_tape[t as usize]));
            self.clusters.admit(arrivals, now, then);
        } else {
            let arrivals = campaign.arrival_tapes()[ranks].iter().map(|&t| (t, 1));
            self.clusters.admit(arrivals, now, then);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::{FileSpec, TapeSpec};
    use rand::{Rng, SeedableRng};

    /// The requests a by-tapes queue passes on, all of them, after the
    /// campaign's arrivals were admitted in the pieces `cuts` gives.
    fn passed_on(campaign: &Campaign, tapes: usize, cuts: &[usize]) -> Vec<u32> {
        let specs = Tapes {
            specs: campaign.tapes(),
            campaign: Some(campaign),
        };
        let mut q = ByTapes { tapes }.build(&specs, ChaCha8Rng::seed_from_u64(0));
        let mut from = 0;
        for &to in cuts.iter().chain([&campaign.files().len()]) {
            q.admit(campaign, from..to, 0.0);
            from = to;
        }
        std::iter::from_fn(|| q.take(0.0).map(|r| r.file)).collect()
    }

    #[test]
    fn a_whole_campaign_at_once_is_listed_as_request_by_request() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for case in 0..50 {
            let n_tapes = 1 + case % 9;
            let files = (0..rng.gen_range(0..120))
                .map(|i| FileSpec {
                    dataset: 0,
                    tape: rng.gen_range(0..n_tapes),
                    block: i,
                    size: 1,
                    arrival_s: 0.0,
                    tapeinfo: true,
                })
                .collect::<Vec<_>>();
            let n = files.len();
            let tape = TapeSpec {
                capacity: 1 << 40,
                used: 1 << 40,
            };
            let c = Campaign::new(files, vec![tape; n_tapes as usize]).unwrap();
            let active = 1 + case as usize % 3;
            let whole = passed_on(&c, active, &[]);
            assert_eq!(whole.len(), n);
            assert_eq!(whole, passed_on(&c, active, &[n / 3]), "case {case}");
        }
    }
}
