//! OPS SCAN/CI-SPTF: one sweep; the D-requests of each C-interval are served
//! shortest positioning time first (re-chosen after each service) before
//! the C-request that closes the interval.

use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::Policy;

/// OPS SCAN/CI-SPTF.
pub struct CiSptf;

impl Policy for CiSptf {
    fn run(&self, r: &mut Round) {
        sweep(r, Grouping::IntervalSptf, 0.0);
    }
}
