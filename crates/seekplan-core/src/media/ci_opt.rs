//! OPS SCAN/CI-OPT(M): one sweep; the D-requests of each C-interval (halved
//! until at most M) are served in the exact optimal order.

use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::Policy;

/// OPS SCAN/CI-OPT(max).
pub struct CiOpt {
    /// Largest cluster (the paper: 6).
    pub max: usize,
    /// CPU seconds of an OPT(6) schedule.
    pub opt6_cpu_s: f64,
}

impl Policy for CiOpt {
    fn run(&self, r: &mut Round) {
        sweep(r, Grouping::Interval { max: self.max }, self.opt6_cpu_s);
    }
}
