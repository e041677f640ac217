//! `random`: a uniformly random waiting request (the paper's benchmark).

use super::{Pending, Queue, StrategyConfig, Tapes};
use crate::library::{prefetch, Campaign, Request};
use crate::sim::Time;
use crate::Result;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::ops::Range;

/// The random strategy has no knobs (its draws use the run's seed).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Random {}

impl StrategyConfig for Random {
    fn validate(&self) -> Result<()> {
        Ok(())
    }

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, rng: ChaCha8Rng) -> Queue<'a> {
        match tapes.campaign {
            Some(campaign) => Queue::RandomRanks(RandomRanks {
                campaign,
                waiting: Draw {
                    waiting: Vec::new(),
                    rng,
                },
                chosen: VecDeque::with_capacity(AHEAD),
                drawn: VecDeque::with_capacity(AHEAD + 1),
            }),
            None => Queue::Draw(Draw {
                waiting: Vec::new(),
                rng,
            }),
        }
    }
}

/// Waiting items, drawn uniformly at random (a draw moves the last item
/// into the drawn one's place).
pub struct Draw<T> {
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

/// How many draws a campaign's random queue prepares ahead of its takes, in
/// each of two stages: a draw's index is chosen (and its queue entry asked
/// from memory) that many draws before the entry is taken out, and the
/// entry is taken out (and its request asked from memory) that many takes
/// before it is passed on.
const AHEAD: usize = 16;

/// A draw taken out of the queue ahead: the rank drawn, the index it was
/// drawn from and the generator's position (in 32-bit words) before it.
#[derive(Clone, Copy, Debug)]
struct Ahead {
    rank: u32,
    index: usize,
    word_pos: u128,
}

/// A campaign's waiting requests as ranks of its arrival order (4 bytes
/// each instead of a copy of the request), drawn in the same order. A random
/// pick is two cache misses (the queue's entry, then the request), so the
/// queue makes its draws ahead of its takes, in two stages of [`AHEAD`]
/// draws, asking the memory for what each stage will read. Arrivals take
/// the draws made ahead back (the generator goes back to where they
/// started), so every draw is the one made on the queue as it is when the
/// request is taken.
pub struct RandomRanks<'a> {
    campaign: &'a Campaign,
    waiting: Draw<u32>,
    /// Draws whose index is chosen but whose entry is still in the queue
    /// (next first): the index and the generator's position before it.
    chosen: VecDeque<(usize, u128)>,
    /// Draws taken out of the queue, next first.
    drawn: VecDeque<Ahead>,
}

impl RandomRanks<'_> {
    /// Chooses the index of one more draw; false when no entry is left.
    fn choose(&mut self) -> bool {
        let w = &mut self.waiting;
        let len = w.waiting.len() - self.chosen.len();
        if len == 0 {
            return false;
        }
        let word_pos = w.rng.get_word_pos();
        let index = w.rng.gen_range(0..len);
        prefetch(&w.waiting[index]);
        self.chosen.push_back((index, word_pos));
        true
    }

    /// Takes the next chosen draw's entry out of the queue; false when no
    /// draw is chosen.
    fn take_out(&mut self) -> bool {
        let Some((index, word_pos)) = self.chosen.pop_front() else {
            return false;
        };
        let rank = self.waiting.waiting.swap_remove(index);
        self.campaign.prefetch(rank as usize);
        self.drawn.push_back(Ahead {
            rank,
            index,
            word_pos,
        });
        true
    }

    /// Puts the draws made ahead back, last first, and rewinds the
    /// generator to before the first of them.
    fn undraw(&mut self) {
        let first = self.drawn.front().map(|a| a.word_pos);
        if let Some(word_pos) = first.or(self.chosen.front().map(|c| c.1)) {
            self.waiting.rng.set_word_pos(word_pos);
        }
        self.chosen.clear();
        let w = &mut self.waiting.waiting;
        while let Some(a) = self.drawn.pop_back() {
            if a.index == w.len() {
                w.push(a.rank);
            } else {
                let moved = w[a.index];
                w.push(moved);
                w[a.index] = a.rank;
            }
        }
    }
}

impl Pending for RandomRanks<'_> {
    fn arrive(&mut self, _: Request, _: bool, _: Time) {
        unreachable!("a campaign's requests arrive through admit");
    }

    fn admit(&mut self, _: &Campaign, ranks: Range<usize>, _: Time) {
        if ranks.is_empty() {
            return;
        }
        self.undraw();
        self.waiting.waiting.extend(ranks.map(|r| r as u32));
    }

    fn take(&mut self, _: Time) -> Option<Request> {
        while self.drawn.len() <= AHEAD {
            while self.chosen.len() < AHEAD && self.choose() {}
            if !self.take_out() {
                break;
            }
        }
        let rank = self.drawn.pop_front()?.rank;
        Some(
            self.campaign
                .nth_request(rank as usize)
                .expect("an arrived rank"),
        )
    }

    fn next_wake(&self) -> Option<f64> {
        None
    }

    fn reuse_ranks(&mut self, mut room: Vec<u32>) {
        if self.waiting.waiting.is_empty() {
            room.clear();
            self.waiting.waiting = room;
        }
    }

    fn ranks_room(&mut self) -> Vec<u32> {
        let mut room = std::mem::take(&mut self.waiting.waiting);
        room.clear();
        room
    }
}
