//! When a long computation gives up before its answer: at a caller's
//! deadline, or when the caller, asked now and then through a heartbeat,
//! wants it to stop (the Python progress callback raising on Ctrl-C). Long
//! loops look at a [`Stop`] through a [`Clock`], which asks it only every
//! so many steps.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// A heartbeat: called now and then by a long loop, it answers whether the
/// computation should go on (it may also show progress).
pub type Beat = Arc<dyn Fn() -> bool + Send + Sync>;

/// When a long computation stops: a deadline, a heartbeat, both or neither.
#[derive(Clone, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    beat: Option<Beat>,
}

impl Stop {
    /// Never stops early.
    pub fn never() -> Self {
        Stop::default()
    }

    /// Stops at `deadline`, if any.
    pub fn at(deadline: Option<Instant>) -> Self {
        Stop {
            deadline,
            beat: None,
        }
    }

    /// Stops at `deadline`, if any, or once `beat` answers false.
    pub fn with_beat(deadline: Option<Instant>, beat: Option<Beat>) -> Self {
        Stop { deadline, beat }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether to stop now: the deadline has passed, or the heartbeat
    /// (called here) says stop.
    pub fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.beat.as_ref().is_some_and(|beat| !beat())
    }
}

impl fmt::Debug for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stop")
            .field("deadline", &self.deadline)
            .field("beat", &self.beat.is_some())
            .finish()
    }
}

/// Steps of a loop between two looks at its [`Stop`] (a look at the clock
/// costs ~25 ns; a step of the loops that use [`Clock`], a node's moves or
/// a row of costs, takes 1-20 µs).
const CLOCK_EVERY: usize = 256;

/// A [`Stop`] as a long loop sees it: asked on the first step (a deadline
/// already passed stops the loop at once) and once every [`CLOCK_EVERY`]
/// steps after; once reached it stays reached.
pub struct Clock {
    stop: Stop,
    steps: usize,
    expired: bool,
}

impl Clock {
    /// A clock for `stop`.
    pub fn new(stop: &Stop) -> Self {
        Clock {
            stop: stop.clone(),
            steps: 0,
            expired: false,
        }
    }

    /// Counts a step; whether the loop should stop.
    pub fn expired(&mut self) -> bool {
        if !self.expired && self.steps.is_multiple_of(CLOCK_EVERY) {
            self.expired = self.stop.reached();
        }
        self.steps += 1;
        self.expired
    }

    /// [`Clock::expired`] for `?`: `None` once the loop should stop.
    pub fn tick(&mut self) -> Option<()> {
        (!self.expired()).then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_clock_asks_its_stop_on_the_first_step_and_every_so_many_after() {
        let asked = Arc::new(AtomicUsize::new(0));
        let heard = Arc::clone(&asked);
        let beat: Beat = Arc::new(move || heard.fetch_add(1, Ordering::Relaxed) < 2);
        let mut clock = Clock::new(&Stop::with_beat(None, Some(beat)));
        let steps = (0..10 * CLOCK_EVERY)
            .take_while(|_| !clock.expired())
            .count();
        // Asked at steps 0 and CLOCK_EVERY (go on), then at 2 × CLOCK_EVERY (stop).
        assert_eq!(steps, 2 * CLOCK_EVERY);
        assert_eq!(asked.load(Ordering::Relaxed), 3);
        assert!(clock.expired(), "once reached it stays reached");
        assert!(Clock::new(&Stop::at(Some(Instant::now()))).expired());
        assert!(!Clock::new(&Stop::never()).expired());
    }
}
