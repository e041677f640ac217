//! TPS SCAN/[SCAN/CI-OPT(M)]: a C-period by SCAN, then a D-period in which
//! clusters, cut as CI-OPT's interval queues but over the whole disk (halved
//! until at most M requests), are visited by SCAN and served in optimal order.

use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::Policy;

/// TPS SCAN/[SCAN/CI-OPT(max)].
pub struct TpsScanCiOpt {
    /// Largest cluster (the paper: 6).
    pub max: usize,
    /// CPU seconds of an OPT(6) schedule.
    pub opt6_cpu_s: f64,
}

impl Policy for TpsScanCiOpt {
    fn run(&self, r: &mut Round) {
        r.serve_all_c();
        sweep(r, Grouping::Interval { max: self.max }, self.opt6_cpu_s);
    }
}
