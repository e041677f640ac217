//! The event calendar: a binary heap ordered by (time, insertion sequence), so
//! events at equal times fire in the order they were scheduled.

use super::Time;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

/// Handle of a scheduled event, used to cancel it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId(u64);

struct Entry<E> {
    time: Time,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed so that the max-heap pops the earliest time, then lowest seq.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// The simulated clock and the pending events of type `E`.
pub struct Calendar<E> {
    now: Time,
    seq: u64,
    heap: BinaryHeap<Entry<E>>,
    cancelled: HashSet<u64>,
}

impl<E> Default for Calendar<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> Calendar<E> {
    /// An empty calendar at time 0.
    pub fn new() -> Self {
        Calendar {
            now: 0.0,
            seq: 0,
            heap: BinaryHeap::new(),
            cancelled: HashSet::new(),
        }
    }

    /// The current simulated time (the time of the last event popped).
    pub fn now(&self) -> Time {
        self.now
    }

    /// Schedules `event` `delay` seconds from now. A negative or non-finite
    /// delay is a bug in the model and panics.
    pub fn schedule(&mut self, delay: Time, event: E) -> EventId {
        assert!(
            delay.is_finite() && delay >= 0.0,
            "event delay must be finite and non-negative, got {delay}"
        );
        self.push(self.now + delay, event)
    }

    /// Schedules `event` at absolute time `time` (not earlier than now).
    pub fn schedule_at(&mut self, time: Time, event: E) -> EventId {
        assert!(
            time.is_finite() && time >= self.now,
            "event time must be finite and not in the past (now {}), got {time}",
            self.now
        );
        self.push(time, event)
    }

    fn push(&mut self, time: Time, event: E) -> EventId {
        let seq = self.seq;
        self.seq += 1;
        self.heap.push(Entry { time, seq, event });
        EventId(seq)
    }

    /// Cancels a pending event; it will never be popped. Cancelling an event
    /// that already fired has no effect on the run (its id is merely kept).
    pub fn cancel(&mut self, id: EventId) {
        if id.0 < self.seq {
            self.cancelled.insert(id.0);
        }
    }

    /// Time of the next pending (not cancelled) event, if any.
    pub fn peek_time(&mut self) -> Option<Time> {
        self.drop_cancelled();
        self.heap.peek().map(|e| e.time)
    }

    /// Removes the next event, advances the clock to its time and returns it.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.drop_cancelled();
        let entry = self.heap.pop()?;
        self.now = entry.time;
        Some((entry.time, entry.event))
    }

    /// True when no event is pending.
    pub fn is_empty(&mut self) -> bool {
        self.peek_time().is_none()
    }

    /// Moves the clock forward to `time` without firing anything (used to end
    /// a run at its horizon).
    pub fn advance_to(&mut self, time: Time) {
        if time > self.now {
            self.now = time;
        }
    }

    fn drop_cancelled(&mut self) {
        if self.cancelled.is_empty() {
            return;
        }
        while let Some(top) = self.heap.peek() {
            if self.cancelled.remove(&top.seq) {
                self.heap.pop();
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_advances_clock() {
        let mut c = Calendar::new();
        c.schedule(5.0, "b");
        c.schedule(1.0, "a");
        c.schedule(9.0, "c");
        assert_eq!(c.pop(), Some((1.0, "a")));
        assert_eq!(c.now(), 1.0);
        c.schedule(1.0, "a2");
        assert_eq!(c.pop(), Some((2.0, "a2")));
        assert_eq!(c.pop(), Some((5.0, "b")));
        assert_eq!(c.pop(), Some((9.0, "c")));
        assert_eq!(c.pop(), None);
    }

    #[test]
    fn equal_times_fire_in_insertion_order() {
        let mut c = Calendar::new();
        for i in 0..1000 {
            c.schedule_at(((i * 7) % 3) as f64, i);
        }
        let mut last = (-1.0, -1);
        while let Some((t, i)) = c.pop() {
            assert!(
                t > last.0 || (t == last.0 && i > last.1),
                "{t} {i} after {last:?}"
            );
            last = (t, i);
        }
    }

    #[test]
    fn tie_break_is_deterministic_across_runs() {
        let order = || {
            let mut c = Calendar::new();
            for i in 0..100u32 {
                c.schedule((i % 4) as f64, i);
            }
            std::iter::from_fn(|| c.pop().map(|(_, e)| e)).collect::<Vec<_>>()
        };
        assert_eq!(order(), order());
    }

    #[test]
    fn cancelled_events_never_fire() {
        let mut c = Calendar::new();
        let a = c.schedule(1.0, 'a');
        c.schedule(2.0, 'b');
        c.cancel(a);
        assert_eq!(c.peek_time(), Some(2.0));
        assert_eq!(c.pop(), Some((2.0, 'b')));
        assert!(c.is_empty());
    }

    #[test]
    #[should_panic(expected = "non-negative")]
    fn negative_delay_panics() {
        Calendar::new().schedule(-1.0, ());
    }
}
