//! `by-dataset`: requests in arrival order (the datasets in the order the
//! experiment requested them).

use super::{Pending, Queue, StrategyConfig, Tapes};
use crate::library::{Campaign, Request};
use crate::sim::Time;
use crate::Result;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::ops::Range;

/// The by-dataset strategy has no knobs.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ByDataset {}

impl StrategyConfig for ByDataset {
    fn validate(&self) -> Result<()> {
        Ok(())
    }

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, _: ChaCha8Rng) -> Queue<'a> {
        match tapes.campaign {
            Some(campaign) => Queue::InArrivalOrder(InArrivalOrder {
                campaign,
                next: 0..0,
            }),
            None => Queue::Fifo(Fifo(VecDeque::new())),
        }
    }
}

/// Requests handed in one by one, passed on in that order.
pub struct Fifo(VecDeque<Request>);

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

/// A campaign's requests in arrival order: those arrived and not passed on
/// are the ranks `next`.
pub struct InArrivalOrder<'a> {
    campaign: &'a Campaign,
    next: Range<usize>,
}

impl Pending for InArrivalOrder<'_> {
    fn arrive(&mut self, _: Request, _: bool, _: Time) {
        unreachable!("a campaign's requests arrive through admit");
    }

    fn admit(&mut self, _: &Campaign, ranks: Range<usize>, _: Time) {
        debug_assert_eq!(ranks.start, self.next.end, "arrivals in arrival order");
        self.next.end = ranks.end;
    }

    fn take(&mut self, _: Time) -> Option<Request> {
        let rank = self.next.next()?;
        Some(self.campaign.nth_request(rank).expect("an arrived rank"))
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }
}
