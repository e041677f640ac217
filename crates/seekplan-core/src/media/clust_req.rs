//! OPS SCAN/CLUST-REQ(M) (section 4.2.1): clusters are the next M
//! D-requests in the sweep direction, whatever cylinders they span; each is
//! served in optimal order when the sweep reaches its first request.

use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::Policy;

/// OPS SCAN/CLUST-REQ(max).
pub struct ClustReq {
    /// Requests per cluster, M (the paper: 6).
    pub max: usize,
    /// CPU seconds of an OPT(6) schedule.
    pub opt6_cpu_s: f64,
}

impl Policy for ClustReq {
    fn run(&self, r: &mut Round) {
        sweep(r, Grouping::Requests { max: self.max }, self.opt6_cpu_s);
    }
}
