//! What a caller may tune about an ordering run, beyond the algorithm.

use super::watch::Progress;
use crate::{Error, Result};
use std::time::{Duration, Instant};

/// Seed of the randomised improvement when the caller gives none: fixed, so
/// the same input gives the same order.
pub const DEFAULT_SEED: u64 = 0x5EED;

/// Most kicks a caller may ask for: at ~10-100 µs a kick, minutes to hours
/// of search; far more would never return (issue 36: 1e12 kicks on 30
/// requests).
pub const MAX_ITERATIONS: usize = 100_000_000;

/// Longest time limit a caller may set, in seconds: a day. A tape batch is
/// re-planned every few minutes; a limit beyond this is a typo.
pub const MAX_TIME_LIMIT_S: f64 = 86_400.0;

/// Largest target gap: 100 % (a tour twice the bound) accepts anything
/// a constructive heuristic returns.
pub const MAX_GAP: f64 = 1.0;

/// Tuning of an ordering run; the defaults are deterministic.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Seed of the random kicks of iterated local search.
    pub seed: u64,
    /// Kicks of iterated local search; `None`: the default budget (see
    /// `ils::default_iterations`), which the stop rules usually cut short.
    /// At most [`MAX_ITERATIONS`].
    pub iterations: Option<usize>,
    /// Stop improving after this much wall time, counted from the start of
    /// the run over all of `best`'s improving phases together; until then
    /// `best` keeps improving (past its default budget) unless its tour
    /// meets the target gap. The result then depends on the machine's
    /// speed: the only non-deterministic option. At most
    /// [`MAX_TIME_LIMIT_S`].
    pub time_limit: Option<Duration>,
    /// Stop as soon as the tour is within this fraction of the lower bound
    /// (0: only once it is proven optimal; 0.001 accepts 0.1 %). At most
    /// [`MAX_GAP`].
    pub gap: f64,
    /// Hears how a long run goes, a few times a second at most.
    pub progress: Option<Progress>,
    /// Compute the schedule's lower bound and gap (an assignment problem
    /// on every pair of requests). Off by default: simulations re-order
    /// queues thousands of times; the Python API and CLI turn it on.
    pub bound: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: DEFAULT_SEED,
            iterations: None,
            time_limit: None,
            gap: 0.0,
            progress: None,
            bound: false,
        }
    }
}

impl Options {
    /// Refuses values outside their documented ranges, naming the field
    /// and its limit.
    pub fn check(&self) -> Result<()> {
        if let Some(k) = self.iterations.filter(|&k| k > MAX_ITERATIONS) {
            return Err(Error::invalid(
                "iterations",
                format!("{k} is more than the most allowed, {MAX_ITERATIONS}"),
            ));
        }
        if let Some(t) = self.time_limit {
            if t.is_zero() || t.as_secs_f64() > MAX_TIME_LIMIT_S {
                return Err(Error::invalid(
                    "time_limit",
                    format!(
                        "{} s is not between 0 and {MAX_TIME_LIMIT_S} s (a day)",
                        t.as_secs_f64()
                    ),
                ));
            }
        }
        if !(0.0..=MAX_GAP).contains(&self.gap) {
            return Err(Error::invalid(
                "gap",
                format!("{} is not a fraction between 0 and {MAX_GAP}", self.gap),
            ));
        }
        Ok(())
    }

    /// When a run started now must stop improving, if it has a time limit.
    /// A limit past what the clock can represent (centuries) is no limit:
    /// adding it to now would overflow and panic.
    pub fn deadline(&self) -> Option<Instant> {
        self.time_limit.and_then(|t| Instant::now().checked_add(t))
    }

    /// These options with the time left before `deadline` as the limit
    /// (zero once it has passed), for one phase of a run.
    pub fn until(&self, deadline: Option<Instant>) -> Options {
        Options {
            time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            ..self.clone()
        }
    }
}
