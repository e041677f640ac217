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
