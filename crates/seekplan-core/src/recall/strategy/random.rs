//! `random`: a uniformly random waiting request (the paper's benchmark).

use super::{Pending, Queue, StrategyConfig, Tapes};
use crate::library::{prefetch, Campaign, Request};
use crate::sim::Time;
use crate::Result;
use rand::RngCore;
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

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, rng: ChaCha8Rng) -> Queue<'a> {
        match tapes.campaign {
            Some(campaign) => Queue::RandomRanks(RandomRanks::new(campaign, rng)),
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
        let (i, _) = index_below(&mut self.rng, self.waiting.len());
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
///
/// Six, not more: both stages keep `2 * AHEAD` lines asked for at once, and
/// past what the core can have in flight the prefetches wait for each other.
/// At queue 30,000 with the caches emptied between runs (as the bench's
/// SimPy passes empty them) 6 ahead took 5.3-5.4 ms, 4 ahead 5.4-5.7, 8 ahead
/// 5.4-5.9, 10 ahead 5.7-6.0, 16 ahead 6.1-6.4 and 64 ahead 5.8-6.3; run
/// back to back, 6 and 16 alike (2026-11-27).
const AHEAD: usize = 6;

/// A uniform index below `len` (at least 1), drawn as `rng.gen_range(0..len)`
/// draws it on 64-bit targets (rand 0.8: a widening multiply of one `u64`
/// per attempt, an attempt rejected when its low half falls past the zone;
/// both random queues draw with it, so they agree on any target), and how many
/// 32-bit words of the generator's stream it used. Knowing the words lets
/// the queue rewind the generator by arithmetic instead of asking it for its
/// position on every draw (a runtime-dispatched call and 128-bit sums: 32
/// of the 1,044 instructions an event of random at queue 30,000; callgrind,
/// 2026-11-27).
fn index_below(rng: &mut ChaCha8Rng, len: usize) -> (usize, u32) {
    debug_assert!(len > 0);
    let range = len as u64;
    let zone = (range << range.leading_zeros()).wrapping_sub(1);
    let mut words = 0;
    loop {
        let wide = u128::from(rng.next_u64()) * u128::from(range);
        words += 2;
        if wide as u64 <= zone {
            return ((wide >> 64) as usize, words);
        }
    }
}

/// A draw made ahead: the index it is drawn from, the generator words it
/// used and, once its entry is taken out of the queue, the rank drawn.
#[derive(Clone, Copy, Debug, Default)]
struct Ahead {
    index: u32,
    words: u32,
    rank: u32,
}

/// Entries of [`RandomRanks`]' ring of draws made ahead: a power of two
/// above the `2 * AHEAD + 1` draws it holds at most.
const RING: usize = (2 * AHEAD + 1).next_power_of_two();

/// A campaign's waiting requests as ranks of its arrival order (4 bytes
/// each instead of a copy of the request), drawn in the same order. A random
/// pick is two cache misses (the queue's entry, then the request), so the
/// queue makes its draws ahead of its takes, in two stages of [`AHEAD`]
/// draws, asking the memory for what each stage will read. Arrivals take
/// the draws made ahead back (the generator goes back to where they
/// started), so every draw is the one made on the queue as it is when the
/// request is taken.
///
/// The draws made ahead sit in one ring, oldest first, counted by three
/// running positions: `taken..out` are taken out of the queue (rank known),
/// `out..end` only chosen (index known), and how far to rewind the generator
/// is the sum of their words. Two `VecDeque`s, one per stage,
/// took 28 more instructions an event at queue 30,000 (callgrind,
/// 2026-11-27).
pub struct RandomRanks<'a> {
    campaign: &'a Campaign,
    waiting: Draw<u32>,
    /// Boxed: inline, its 192 bytes would make every queue of the enum
    /// that much larger than the others need.
    ring: Box<[Ahead; RING]>,
    taken: usize,
    out: usize,
    end: usize,
}

impl<'a> RandomRanks<'a> {
    /// An empty queue for `campaign`'s requests, drawing from `rng`.
    fn new(campaign: &'a Campaign, rng: ChaCha8Rng) -> Self {
        RandomRanks {
            campaign,
            waiting: Draw {
                waiting: Vec::new(),
                rng,
            },
            ring: Box::new([Ahead::default(); RING]),
            taken: 0,
            out: 0,
            end: 0,
        }
    }

    /// Chooses the index of one more draw; false when no entry is left.
    fn choose(&mut self) -> bool {
        let w = &mut self.waiting;
        let len = w.waiting.len() - (self.end - self.out);
        if len == 0 {
            return false;
        }
        let (index, words) = index_below(&mut w.rng, len);
        prefetch(&w.waiting[index]);
        // The index is below the queue's length, which counts u32 ranks.
        self.ring[self.end % RING] = Ahead {
            index: index as u32,
            words,
            rank: 0,
        };
        self.end += 1;
        true
    }

    /// Takes the next chosen draw's entry out of the queue; false when no
    /// draw is chosen.
    fn take_out(&mut self) -> bool {
        if self.out == self.end {
            return false;
        }
        let a = &mut self.ring[self.out % RING];
        a.rank = self.waiting.waiting.swap_remove(a.index as usize);
        self.campaign.prefetch(a.rank as usize);
        self.out += 1;
        true
    }

    /// Puts the draws made ahead back, last first, and rewinds the
    /// generator by the words they used, to before the first of them.
    fn undraw(&mut self) {
        let words: u64 = (self.taken..self.end)
            .map(|i| u64::from(self.ring[i % RING].words))
            .sum();
        if words > 0 {
            let rng = &mut self.waiting.rng;
            rng.set_word_pos(rng.get_word_pos() - u128::from(words));
        }
        let w = &mut self.waiting.waiting;
        for i in (self.taken..self.out).rev() {
            let a = self.ring[i % RING];
            let index = a.index as usize;
            if index == w.len() {
                w.push(a.rank);
            } else {
                let moved = w[index];
                w.push(moved);
                w[index] = a.rank;
            }
        }
        self.out = self.taken;
        self.end = self.taken;
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
        while self.out - self.taken <= AHEAD {
            while self.end - self.out < AHEAD && self.choose() {}
            if !self.take_out() {
                break;
            }
        }
        if self.taken == self.out {
            return None;
        }
        let next = self.ring[self.taken % RING];
        self.taken += 1;
        Some(
            self.campaign
                .nth_request(next.rank as usize)
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Value for value as `gen_range` on 64-bit targets (where its `usize`
    /// draws take one `u64` an attempt), so the runs' outcomes are those of
    /// the queue that called `gen_range`; the word count is what rewinding
    /// needs, on any target.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn index_below_draws_as_gen_range_and_counts_its_words() {
        let mut ours = ChaCha8Rng::seed_from_u64(3);
        let mut theirs = ChaCha8Rng::seed_from_u64(3);
        // Small queues, the Table-1 sizes, and ranges just past a power of
        // two and near 2^64, where attempts are rejected most often.
        let lens = [
            1,
            2,
            3,
            7,
            1000,
            30_000,
            500_000,
            (1 << 40) + 1,
            (1 << 63) + 1,
            usize::MAX,
        ];
        for round in 0..2_000 {
            let len = lens[round % lens.len()];
            let before = ours.get_word_pos();
            let (index, words) = index_below(&mut ours, len);
            assert_eq!(index, theirs.gen_range(0..len), "len {len}");
            assert_eq!(ours.get_word_pos() - before, u128::from(words), "len {len}");
        }
        assert_eq!(ours.get_word_pos(), theirs.get_word_pos());
    }
}
