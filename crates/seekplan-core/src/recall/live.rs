//! A requester outside a simulation: a recall strategy fed by a live
//! service (`seekplan serve`), with the checks a simulation's campaign gets
//! once up front made per request.

use super::{Pending, Queue, Strategy, Tapes};
use crate::library::{Request, TapeSpec};
use crate::sim::Time;
use crate::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One of the recall strategies holding requests as they arrive and
/// releasing them in the order it chooses; the same code the simulations run.
pub struct LiveRequester {
    pending: Queue<'static>,
    tapes: usize,
    now: Time,
}

impl LiveRequester {
    /// A requester running `strategy` for `tapes`, drawing from `seed`.
    pub fn new(strategy: &Strategy, tapes: &[TapeSpec], seed: u64) -> Result<Self> {
        strategy.validate()?;
        for (i, t) in tapes.iter().enumerate() {
            if t.used > t.capacity {
                return Err(Error::invalid(
                    "used",
                    format!("tape {i}: used {} exceeds capacity {}", t.used, t.capacity),
                ));
            }
        }
        let view = Tapes {
            specs: tapes,
            campaign: None,
        };
        Ok(LiveRequester {
            pending: strategy.build(&view, ChaCha8Rng::seed_from_u64(seed)),
            tapes: tapes.len(),
            now: 0.0,
        })
    }

    /// A request arrives at `now` (never earlier than a previous call's);
    /// `tape_known` says whether the strategy may use its tape.
    pub fn arrive(&mut self, request: Request, tape_known: bool, now: Time) -> Result<()> {
        if request.tape as usize >= self.tapes {
            return Err(Error::invalid(
                "tape",
                format!("{} is not one of the {} tapes", request.tape, self.tapes),
            ));
        }
        if request.size == 0 {
            return Err(Error::invalid("size", "must be positive"));
        }
        self.advance(now)?;
        self.pending.arrive(request, tape_known, now);
        Ok(())
    }

    /// The next request to pass on at `now`, or None if the strategy holds
    /// everything back for now.
    pub fn take(&mut self, now: Time) -> Result<Option<Request>> {
        self.advance(now)?;
        Ok(self.pending.take(now))
    }

    /// Seconds after which the strategy wants to be asked again although
    /// nothing arrived (time-based rules), or None.
    pub fn next_wake(&self) -> Option<f64> {
        self.pending.next_wake()
    }

    /// Passes on the requests of `tapes` tapes in parallel from now on: a
    /// service adapts by-tapes' `tapes` to its free drives. Lowering it
    /// interrupts no tape (the active ones are passed on to their end);
    /// raising it activates tapes at the next [`LiveRequester::take`]. Only
    /// by-tapes has the knob; any other strategy is an error naming
    /// `strategy.tapes`, as is 0.
    pub fn set_parallel_tapes(&mut self, tapes: usize) -> Result<()> {
        if tapes == 0 {
            return Err(Error::invalid("strategy.tapes", "must be at least 1"));
        }
        match &mut self.pending {
            Queue::ByTapes(q) => {
                q.set_tapes(tapes);
                Ok(())
            }
            _ => Err(Error::invalid(
                "strategy.tapes",
                "only by-tapes passes on a number of tapes in parallel",
            )),
        }
    }

    /// The number of tapes by-tapes passes on in parallel; None for other
    /// strategies.
    pub fn parallel_tapes(&self) -> Option<usize> {
        match &self.pending {
            Queue::ByTapes(q) => Some(q.tapes()),
            _ => None,
        }
    }

    /// Moves the clock to `now`; time never runs backwards.
    fn advance(&mut self, now: Time) -> Result<()> {
        if !(now.is_finite() && now >= self.now) {
            return Err(Error::invalid(
                "now",
                format!("{now} is before the requester's clock ({})", self.now),
            ));
        }
        self.now = now;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recall::{ByTapes, Random};

    fn tapes(n: usize) -> Vec<TapeSpec> {
        vec![
            TapeSpec {
                capacity: 1_000,
                used: 1_000
            };
            n
        ]
    }

    fn request(file: u32, tape: u32) -> Request {
        Request {
            file,
            tape,
            block: u64::from(file),
            size: 1,
        }
    }

    #[test]
    fn by_tapes_releases_one_tapes_requests_together() {
        let mut r =
            LiveRequester::new(&Strategy::ByTapes(ByTapes { tapes: 1 }), &tapes(2), 0).unwrap();
        for (file, tape) in [(0, 0), (1, 1), (2, 0), (3, 1)] {
            r.arrive(request(file, tape), true, 0.0).unwrap();
        }
        let order: Vec<u32> = std::iter::from_fn(|| r.take(1.0).unwrap())
            .map(|q| q.file)
            .collect();
        assert_eq!(order, [0, 2, 1, 3]);
    }

    #[test]
    fn by_tapes_parallel_tapes_change_at_run_time_without_splitting_a_tape() {
        let mut r =
            LiveRequester::new(&Strategy::ByTapes(ByTapes { tapes: 1 }), &tapes(4), 0).unwrap();
        assert_eq!(r.parallel_tapes(), Some(1));
        // Three requests on each of tapes 0..4, arriving tape-interleaved.
        for file in 0..12 {
            r.arrive(request(file, file % 4), true, 0.0).unwrap();
        }
        let tape_of = |r: &mut LiveRequester| r.take(1.0).unwrap().map(|q| q.tape);
        assert_eq!(tape_of(&mut r), Some(0));
        // Three tapes in parallel: tapes 1 and 2 join tape 0, round-robin.
        r.set_parallel_tapes(3).unwrap();
        assert_eq!(r.parallel_tapes(), Some(3));
        let next: Vec<_> = (0..5).map(|_| tape_of(&mut r).unwrap()).collect();
        assert_eq!(next, [1, 2, 0, 1, 2]);
        // Back to one: tapes 0, 1 and 2 are finished before tape 3 starts.
        r.set_parallel_tapes(1).unwrap();
        let rest: Vec<_> = std::iter::from_fn(|| tape_of(&mut r)).collect();
        assert_eq!(rest, [0, 1, 2, 3, 3, 3]);
        assert_eq!(r.parallel_tapes(), Some(1));
    }

    #[test]
    fn only_by_tapes_sets_parallel_tapes_and_never_to_zero() {
        let field = |e: Error| match e {
            Error::Invalid { field, .. } => field,
            other => panic!("{other}"),
        };
        let mut random = LiveRequester::new(&Strategy::Random(Random {}), &tapes(1), 0).unwrap();
        assert_eq!(random.parallel_tapes(), None);
        assert_eq!(
            field(random.set_parallel_tapes(2).unwrap_err()),
            "strategy.tapes"
        );
        let mut by_tapes =
            LiveRequester::new(&Strategy::ByTapes(ByTapes { tapes: 2 }), &tapes(1), 0).unwrap();
        assert_eq!(
            field(by_tapes.set_parallel_tapes(0).unwrap_err()),
            "strategy.tapes"
        );
        assert_eq!(by_tapes.parallel_tapes(), Some(2));
    }

    #[test]
    fn bad_requests_and_clocks_name_the_field() {
        let mut r = LiveRequester::new(&Strategy::Random(Random {}), &tapes(1), 0).unwrap();
        let field = |e: Error| match e {
            Error::Invalid { field, .. } => field,
            other => panic!("{other}"),
        };
        assert_eq!(
            field(r.arrive(request(0, 5), true, 0.0).unwrap_err()),
            "tape"
        );
        r.arrive(request(0, 0), true, 5.0).unwrap();
        assert_eq!(field(r.take(4.0).unwrap_err()), "now");
        assert_eq!(field(r.take(f64::NAN).unwrap_err()), "now");
        assert_eq!(r.take(5.0).unwrap().map(|q| q.file), Some(0));
    }
}
