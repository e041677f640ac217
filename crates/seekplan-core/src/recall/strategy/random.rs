//! `random`: a uniformly random waiting request (the paper's benchmark).

use super::{Pending, StrategyConfig, Tapes};
use crate::library::{Campaign, Request};
use crate::sim::Time;
use crate::Result;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The random strategy has no knobs (its draws use the run's seed).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Random {}

impl StrategyConfig for Random {
    fn validate(&self) -> Result<()> {
        Ok(())
    }

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, rng: ChaCha8Rng) -> Box<dyn Pending + Send + 'a> {
        match tapes.campaign {
            Some(campaign) => Box::new(RandomRanks {
                campaign,
                waiting: Draw {
                    waiting: Vec::new(),
                    rng,
                },
                ahead: None,
            }),
            None => Box::new(Draw {
                waiting: Vec::new(),
                rng,
            }),
        }
    }
}

/// Waiting items, drawn uniformly at random (a draw moves the last item
/// into the drawn one's place).
struct Draw<T> {
    waiting: Vec<T>,
    rng: ChaCha8Rng,
}

impl<T> Draw<T> {
    fn draw(&mut self) -> Option<T> {
        if self.waiting.is_empty() {
            return None;
        }
        let i = self.rng.gen_range(0..self.waiting.len());
        Some(self.waiting.swap_remove(i))
    }
}

impl Pending for Draw<Request> {
    fn arrive(&mut self, request: Request, _: bool, _: Time) {
        self.waiting.push(request);
    }

    fn take(&mut self, _: Time) -> Option<Request> {
        self.draw()
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }
}

/// A campaign's waiting requests as ranks of its arrival order (4 bytes
/// each instead of a copy of the request), drawn in the same order. Each
/// take also makes the next draw ahead, on a copy of the generator, and
/// asks the memory for the request it picks: a random pick is a cache miss,
/// now paid while the simulation runs on. The draw ahead is used only if
/// nothing arrived in between (it is the draw the generator would make);
/// otherwise the generator draws anew.
struct RandomRanks<'a> {
    campaign: &'a Campaign,
    waiting: Draw<u32>,
    /// The next draw: the number waiting it was made for, the index drawn
    /// and the generator after it.
    ahead: Option<(usize, usize, ChaCha8Rng)>,
}

impl Pending for RandomRanks<'_> {
    fn arrive(&mut self, _: Request, _: bool, _: Time) {
        unreachable!("a campaign's requests arrive through admit");
    }

    fn admit(&mut self, _: &Campaign, ranks: Range<usize>, _: Time) {
        self.waiting.waiting.extend(ranks.map(|r| r as u32));
    }

    fn take(&mut self, _: Time) -> Option<Request> {
        let w = &mut self.waiting;
        let n = w.waiting.len();
        let rank = match self.ahead.take() {
            Some((len, i, rng)) if len == n => {
                w.rng = rng;
                Some(w.waiting.swap_remove(i))
            }
            _ => w.draw(),
        }?;
        if n > 1 {
            let mut rng = w.rng.clone();
            let i = rng.gen_range(0..n - 1);
            self.campaign.prefetch(w.waiting[i] as usize);
            self.ahead = Some((n - 1, i, rng));
        }
        let f = self
            .campaign
            .nth_arrival(rank as usize)
            .expect("an arrived rank");
        Some(self.campaign.request(f))
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }
}
