//! Robot arms as a resource: one [`ArmPool`] trait, two strategies.
//!
//! [`FifoArms`] is event-driven: a move starts when it is asked for if an
//! arm is free, otherwise when an arm finishes ([`ArmPool::done`]), waiters
//! served first come, first served. The recall simulator uses it: a drive
//! asks for an arm when its swap starts. [`BookedArms`] books each move
//! ahead in the earliest gap any arm has, so a move asked for at a later
//! time may still be fitted before moves already booked. The archive uses
//! it: a request books all its mounts when it is planned.
//!
//! For moves of positive length asked for in time order both give every
//! move the same start (the test below, ties included). They differ in two
//! ways, which is why each simulator keeps the strategy its metrics were
//! built on: a zero-second move fits between booked moves but waits its turn
//! under FIFO (in recall: a first fetch with `fetch_s` 0 while an arm
//! returns another drive's tape), and the simulator learns a booked start
//! when it asks, so events at one instant are scheduled in another order.

use crate::sim::{Resource, Time};
use std::collections::VecDeque;

/// One arm move for `waiter`, from `start` to `end` (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move<W> {
    /// Who asked for the move.
    pub waiter: W,
    /// When the arm starts the move.
    pub start: Time,
    /// When the arm has finished it.
    pub end: Time,
}

/// A library's arms, claimed one move at a time.
pub trait ArmPool<W> {
    /// Asks for a move of `secs` for `waiter`, starting at `from` at the
    /// earliest. Returns the move when its start is known now; otherwise
    /// the waiter gets its move from a later [`ArmPool::done`].
    fn request(&mut self, waiter: W, from: Time, secs: f64) -> Option<Move<W>>;

    /// An arm finished a move at `now`: returns the move of the waiter who
    /// takes that arm, if any.
    fn done(&mut self, now: Time) -> Option<Move<W>>;
}

/// Arms handed out first come, first served as moves end (event-driven:
/// `request` must be called with `from` the current time, and `done` at the
/// end of every move it returned).
#[derive(Clone, Debug)]
pub struct FifoArms<W> {
    /// Each waiter with the seconds of the move it asked for.
    arms: Resource<(W, f64)>,
}

impl<W> FifoArms<W> {
    /// `arms` free arms.
    pub fn new(arms: usize) -> Self {
        FifoArms {
            arms: Resource::new(arms),
        }
    }
}

impl<W> ArmPool<W> for FifoArms<W> {
    fn request(&mut self, waiter: W, from: Time, secs: f64) -> Option<Move<W>> {
        self.arms
            .acquire((waiter, secs))
            .map(|(waiter, secs)| Move {
                waiter,
                start: from,
                end: from + secs,
            })
    }

    fn done(&mut self, now: Time) -> Option<Move<W>> {
        self.arms.release().map(|(waiter, secs)| Move {
            waiter,
            start: now,
            end: now + secs,
        })
    }
}

/// Arms whose moves are booked ahead: each move takes the earliest gap of
/// its length that any arm has from `from` on (the lowest-numbered arm on
/// ties). Every move is known when it is asked for; `done` hands nothing.
#[derive(Clone, Debug)]
pub struct BookedArms {
    /// Each arm's booked moves (start, end), in order.
    booked: Vec<VecDeque<(Time, Time)>>,
    /// No move is asked for before this time any more: moves that end by
    /// then are dropped.
    floor: Time,
}

impl BookedArms {
    /// `arms` arms with nothing booked.
    pub fn new(arms: usize) -> Self {
        BookedArms {
            booked: vec![VecDeque::new(); arms],
            floor: 0.0,
        }
    }

    /// Promises that no move will be asked for before `t` (the simulated
    /// clock), so that moves ending by then can be forgotten.
    pub fn forget_before(&mut self, t: Time) {
        self.floor = self.floor.max(t);
    }
}

impl<W> ArmPool<W> for BookedArms {
    fn request(&mut self, waiter: W, from: Time, secs: f64) -> Option<Move<W>> {
        let floor = self.floor;
        let mut best: Option<(Time, usize)> = None;
        for (i, booked) in self.booked.iter_mut().enumerate() {
            while booked.front().is_some_and(|&(_, end)| end <= floor) {
                booked.pop_front();
            }
            let mut s = from;
            for &(a, b) in booked.iter() {
                if s + secs <= a {
                    break;
                }
                s = s.max(b);
            }
            if best.is_none_or(|(bs, _)| s < bs) {
                best = Some((s, i));
            }
        }
        let (start, i) = best.expect("at least one arm");
        let booked = &mut self.booked[i];
        let at = booked.partition_point(|&(a, _)| a < start);
        booked.insert(at, (start, start + secs));
        Some(Move {
            waiter,
            start,
            end: start + secs,
        })
    }

    fn done(&mut self, _now: Time) -> Option<Move<W>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Calendar;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn book(arms: &mut BookedArms, from: Time, secs: f64) -> Time {
        ArmPool::<()>::request(arms, (), from, secs)
            .expect("booked")
            .end
    }

    #[test]
    fn an_arm_booked_for_later_is_free_now() {
        let mut arms = BookedArms::new(1);
        assert_eq!(book(&mut arms, 100.0, 10.0), 110.0);
        // The gap before the booked move fits one move; the next one waits.
        assert_eq!(book(&mut arms, 0.0, 10.0), 10.0);
        assert_eq!(book(&mut arms, 0.0, 10.0), 20.0);
        assert_eq!(book(&mut arms, 85.0, 10.0), 95.0);
        assert_eq!(book(&mut arms, 95.0, 10.0), 120.0);
    }

    #[test]
    fn fifo_waiters_get_arms_as_moves_end() {
        let mut arms = FifoArms::new(1);
        let first = arms.request('a', 0.0, 5.0).expect("a free arm");
        assert_eq!((first.start, first.end), (0.0, 5.0));
        assert_eq!(arms.request('b', 1.0, 3.0), None);
        assert_eq!(arms.request('c', 2.0, 4.0), None);
        let b = arms.done(5.0).expect("b waits");
        assert_eq!((b.waiter, b.start, b.end), ('b', 5.0, 8.0));
        let c = arms.done(8.0).expect("c waits");
        assert_eq!((c.waiter, c.start, c.end), ('c', 8.0, 12.0));
        assert_eq!(arms.done(12.0), None);
    }

    /// Event of the first-come-first-served run: move `k` asked for, or an
    /// arm finished a move.
    #[derive(Clone, Copy)]
    enum Ev {
        Ask(usize),
        Done,
    }

    /// Starts of moves asked for at `asks` (time, seconds), in time order,
    /// under first come, first served, run on the event calendar.
    fn fifo_starts(arms: usize, asks: &[(Time, f64)]) -> Vec<Time> {
        let mut pool = FifoArms::new(arms);
        let mut cal = Calendar::new();
        for (k, &(t, _)) in asks.iter().enumerate() {
            cal.schedule_at(t, Ev::Ask(k));
        }
        let mut starts = vec![f64::NAN; asks.len()];
        while let Some((now, ev)) = cal.pop() {
            let granted = match ev {
                Ev::Ask(k) => pool.request(k, now, asks[k].1),
                Ev::Done => pool.done(now),
            };
            if let Some(m) = granted {
                starts[m.waiter] = m.start;
                cal.schedule_at(m.end, Ev::Done);
            }
        }
        starts
    }

    #[test]
    fn booking_in_time_order_starts_every_move_as_fifo_does() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        for case in 0..2_000 {
            let arms = 1 + case % 3;
            let n = rng.gen_range(1..40);
            // Whole seconds over a short span, so that asks, ends and asks
            // at an end often coincide.
            let mut times: Vec<Time> = (0..n).map(|_| rng.gen_range(0..30) as f64).collect();
            times.sort_by(f64::total_cmp);
            let asks: Vec<(Time, f64)> = times
                .into_iter()
                .map(|t| (t, rng.gen_range(1..6) as f64))
                .collect();
            let mut booked = BookedArms::new(arms);
            let starts: Vec<Time> = asks
                .iter()
                .enumerate()
                .map(|(k, &(t, secs))| {
                    booked.forget_before(t);
                    booked.request(k, t, secs).expect("booked").start
                })
                .collect();
            assert_eq!(starts, fifo_starts(arms, &asks), "case {case}: {asks:?}");
        }
    }

    #[test]
    fn a_zero_second_move_waits_under_fifo_but_not_when_booked() {
        let asks = [(0.0, 4.0), (0.0, 0.0)];
        assert_eq!(fifo_starts(1, &asks), vec![0.0, 4.0]);
        let mut booked = BookedArms::new(1);
        assert_eq!(book(&mut booked, 0.0, 4.0), 4.0);
        assert_eq!(book(&mut booked, 0.0, 0.0), 0.0);
    }
}
