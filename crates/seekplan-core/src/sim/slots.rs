//! A calendar for models whose pending events fit fixed slots: at most one
//! event per slot at a time (a drive's current step, the next sample). An
//! event is its slot's number, and a tournament tree over the slots names
//! the next one: scheduling or firing an event replays the matches on its
//! slot's path (log2 of the slots), with no boxed or tagged entries; firing
//! defers its replay, so that a handler scheduling the same slot again
//! replays the path once. Events
//! fire in the order [`super::Calendar`] gives them: by time, then in the
//! order they were scheduled.

use super::Time;

/// Key of an empty slot: later than any event time, whose keys are
/// [`key_of`] finite times and so below it (a NaN's bits, above those of
/// every non-negative finite time).
const EMPTY: u64 = u64::MAX;

/// The simulated clock and one pending event or none per slot.
#[derive(Clone, Debug)]
pub struct SlotCalendar {
    now: Time,
    seq: u64,
    /// Slots, padded with empty ones to a power of two.
    leaves: usize,
    /// The tournament: node `n` holds the earliest event under it, as its
    /// time's key ([`key_of`], so that one integer comparison orders
    /// two times) and its slot. Node 1 is the root, node `n`'s children are
    /// `2n` and `2n + 1`, and node `leaves + s` is slot `s`. Both vectors
    /// have `2 * leaves` entries. Keeping each winner's key beside it lets a
    /// replay read one sibling per level instead of a sibling and its slot.
    key: Vec<u64>,
    slot: Vec<u32>,
    /// When each slot's pending event was scheduled (a sequence number),
    /// read only when two events fall at the same time. Times fit the 64
    /// bits of a key only without it; one 64-bit comparison per match
    /// instead of a 128-bit one, and no bounds checks, took a replay of 16
    /// slots from ~144 instructions to ~92 (callgrind, a recall run at
    /// queue 30,000, 2026-11-25).
    scheduled: Vec<u64>,
    /// A slot whose event was popped and whose path is not replayed yet:
    /// the handler of an event usually schedules the same slot again, and
    /// then one replay serves both.
    stale: Option<usize>,
}

/// The key of time `t` (of an event time, which is never negative: the
/// clock starts at 0 and events are never scheduled in the past; of any
/// other float, a key above [`LAST_KEY`], which is how the scheduling
/// checks refuse it): the bits of a non-negative
/// float order as the numbers do, so the bits themselves are the key, and
/// `t + 0.0` turns a -0.0 (which the scheduling checks let through) into
/// +0.0, whose bits sort first. Both conversions are free, where keys in the
/// order of [`f64::total_cmp`] for all signs cost a flip each way on every
/// event.
fn key_of(t: Time) -> u64 {
    (t + 0.0).to_bits()
}

/// The key of the latest time an event may have ([`f64::MAX`]). The key of
/// any other float that is not a finite non-negative number is above it
/// (the sign bit is set, or the exponent is all ones), so one integer
/// comparison checks a time: `is_finite() && t >= 0.0` compiled to a dozen
/// instructions, on every event.
const LAST_KEY: u64 = f64::MAX.to_bits();

/// The time [`key_of`] made `key` from.
fn time_of(key: u64) -> Time {
    f64::from_bits(key)
}

impl SlotCalendar {
    /// `slots` empty slots, the clock at 0.
    pub fn new(slots: usize) -> Self {
        let leaves = slots.next_power_of_two();
        let mut slot = vec![0; 2 * leaves];
        for n in (1..2 * leaves).rev() {
            slot[n] = if n >= leaves {
                (n - leaves) as u32
            } else {
                slot[2 * n]
            };
        }
        SlotCalendar {
            now: 0.0,
            seq: 0,
            leaves,
            key: vec![EMPTY; 2 * leaves],
            slot,
            scheduled: vec![0; leaves],
            stale: None,
        }
    }

    /// Replays the path of the slot popped last, unless that was done.
    #[inline]
    fn settle(&mut self) {
        if let Some(slot) = self.stale.take() {
            self.replay(slot, EMPTY);
        }
    }

    /// Gives slot `slot` (below `leaves`) the key `key` and replays the
    /// matches on its path. The path's winner travels up in registers and
    /// meets each sibling subtree's winner, so no step waits for the one
    /// before it to reach memory.
    fn replay(&mut self, slot: usize, key: u64) {
        assert!(slot < self.leaves, "slot {slot} out of range");
        let mut n = self.leaves + slot;
        let scheduled = &self.scheduled[..];
        let (keys, slots) = (&mut self.key[..], &mut self.slot[..]);
        debug_assert!(keys.len() == 2 * self.leaves && slots.len() == 2 * self.leaves);
        keys[n] = key;
        let (mut winner, mut winner_key) = (slot as u32, key);
        while n > 1 {
            let sibling = n ^ 1;
            // SAFETY: `n` starts below `2 * leaves` (the vectors' length)
            // and only halves; `n ^ 1` differs from `n` in its lowest bit,
            // so it stays below the even `2 * leaves`. The checked indexing
            // cost a third of the replay's instructions.
            let (other_key, other) =
                unsafe { (*keys.get_unchecked(sibling), *slots.get_unchecked(sibling)) };
            // Equal times (rare: the same step length started together, or
            // two empty subtrees) go to the event scheduled first.
            let other_first = if other_key == winner_key {
                scheduled[other as usize] < scheduled[winner as usize]
            } else {
                other_key < winner_key
            };
            // Which time is earlier is as good as random, so the choice is
            // a select by masks rather than a branch. Plain `if`s compile to
            // a branch here even with LLVM's cmov converter off
            // (.cargo/config.toml); masks compile to selects once it is off.
            // Branches at the levels where the sibling subtree usually wins
            // were measured slower (2026-11-25).
            let mask = u64::from(other_first).wrapping_neg();
            winner_key ^= (winner_key ^ other_key) & mask;
            winner ^= (winner ^ other) & mask as u32;
            n /= 2;
            // SAFETY: `n` is below its previous value, checked above.
            unsafe {
                *keys.get_unchecked_mut(n) = winner_key;
                *slots.get_unchecked_mut(n) = winner;
            }
        }
    }

    /// The current simulated time (the time of the last event popped).
    #[inline]
    pub fn now(&self) -> Time {
        self.now
    }

    /// Schedules slot `slot`'s event `delay` seconds from now. A negative
    /// or non-finite delay, or a slot already pending, is a bug in the model
    /// and panics.
    #[inline]
    pub fn schedule(&mut self, slot: usize, delay: Time) {
        assert!(
            key_of(delay) <= LAST_KEY,
            "event delay must be finite and non-negative, got {delay}"
        );
        self.push(slot, self.now + delay);
    }

    /// Schedules slot `slot`'s event at absolute time `time` (not earlier
    /// than now).
    #[inline]
    pub fn schedule_at(&mut self, slot: usize, time: Time) {
        assert!(
            time >= self.now && key_of(time) <= LAST_KEY,
            "event time must be finite and not in the past (now {}), got {time}",
            self.now
        );
        self.push(slot, time);
    }

    #[inline]
    fn push(&mut self, slot: usize, time: Time) {
        assert!(
            self.key[self.leaves + slot] == EMPTY,
            "slot {slot} already has an event"
        );
        if self.stale == Some(slot) {
            self.stale = None;
        } else {
            self.settle();
        }
        self.scheduled[slot] = self.seq;
        self.seq += 1;
        self.replay(slot, key_of(time));
    }

    /// The next event: its time and slot, if any is pending.
    #[inline]
    pub fn peek(&mut self) -> Option<(Time, usize)> {
        self.settle();
        let (key, slot) = (self.key[1], self.slot[1] as usize);
        (key != EMPTY).then(|| (time_of(key), slot))
    }

    /// Removes the next event, advances the clock to its time and returns
    /// its time and slot.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, usize)> {
        let (time, slot) = self.peek()?;
        self.key[self.leaves + slot] = EMPTY;
        self.stale = Some(slot);
        self.now = time;
        Some((time, slot))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Calendar;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn keys_follow_the_times_and_invert() {
        let ts = [0.0, 5e-324, 1e-300, 0.5, 1.0, 3.0, 1e300, f64::MAX];
        for w in ts.windows(2) {
            assert!(key_of(w[0]) < key_of(w[1]), "{w:?}");
        }
        assert!(key_of(f64::MAX) < EMPTY);
        assert_eq!(key_of(-0.0), key_of(0.0));
        for t in ts {
            assert_eq!(time_of(key_of(t)).to_bits(), t.to_bits());
        }
    }

    #[test]
    fn fires_in_the_order_of_the_heap_calendar() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..200 {
            let slots = 1 + case % 9;
            let mut ours = SlotCalendar::new(slots);
            let mut heap = Calendar::new();
            let mut pending = vec![false; slots];
            let mut fired = (Vec::new(), Vec::new());
            for _ in 0..300 {
                // Whole seconds, so that equal times are common.
                let free: Vec<usize> = (0..slots).filter(|&s| !pending[s]).collect();
                if !free.is_empty() && rng.gen_bool(0.6) {
                    let slot = free[rng.gen_range(0..free.len())];
                    let delay = f64::from(rng.gen_range(0..3u8));
                    ours.schedule(slot, delay);
                    heap.schedule(delay, slot);
                    pending[slot] = true;
                } else if let Some((t, slot)) = ours.pop() {
                    pending[slot] = false;
                    fired.0.push((t, slot));
                    fired.1.push(heap.pop().expect("same events"));
                    assert_eq!(ours.now(), heap.now());
                }
            }
            assert_eq!(fired.0, fired.1, "case {case}");
        }
    }

    #[test]
    #[should_panic(expected = "already has an event")]
    fn one_event_per_slot() {
        let mut c = SlotCalendar::new(1);
        c.schedule(0, 1.0);
        c.schedule(0, 2.0);
    }

    #[test]
    fn refuses_times_that_are_not_finite_or_in_the_past() {
        for delay in [f64::NAN, f64::INFINITY, -1.0, -f64::MIN_POSITIVE] {
            let refused = std::panic::catch_unwind(|| SlotCalendar::new(1).schedule(0, delay));
            assert!(refused.is_err(), "delay {delay}");
        }
        for time in [f64::NAN, f64::INFINITY, 4.0] {
            let refused = std::panic::catch_unwind(|| {
                let mut c = SlotCalendar::new(2);
                c.schedule(0, 5.0);
                c.pop();
                c.schedule_at(1, time);
            });
            assert!(refused.is_err(), "time {time}");
        }
        let mut c = SlotCalendar::new(2);
        c.schedule(0, -0.0);
        c.schedule_at(1, 0.0);
        assert_eq!(c.pop(), Some((0.0, 0)));
    }
}
