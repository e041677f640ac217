//! What a caller may tune about an ordering run, beyond the algorithm.

use std::time::{Duration, Instant};

/// Seed of the randomised improvement when the caller gives none: fixed, so
/// the same input gives the same order.
pub const DEFAULT_SEED: u64 = 0x5EED;

/// Tuning of an ordering run; the defaults are deterministic.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Seed of the random kicks of iterated local search.
    pub seed: u64,
    /// Kicks of iterated local search; `None`: a budget that grows with
    /// the batch (2 per request on drive models, 10 per node on explicit
    /// matrices, capped; see `ils::default_iterations`).
    pub iterations: Option<usize>,
    /// Stop improving after this much wall time, counted from the start of
    /// the run over all of `best`'s improving phases together (then the
    /// result depends on the machine's speed: the only non-deterministic
    /// option).
    pub time_limit: Option<Duration>,
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
            bound: false,
        }
    }
}

impl Options {
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
