//! What a caller may tune about an ordering run, beyond the algorithm.

use std::time::Duration;

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
    /// Stop improving after this much wall time (then the result depends
    /// on the machine's speed: the only non-deterministic option).
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
