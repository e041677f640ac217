//! OPS SCAN/CLUST-CYL(M|T) (section 4.2.2): clusters are the next D-requests
//! in the sweep direction, at most M of them and at most T cylinders from the
//! first; each is served in optimal order.

use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::Policy;

/// OPS SCAN/CLUST-CYL(max|width).
pub struct ClustCyl {
    /// Requests per cluster, M (the paper: 6).
    pub max: usize,
    /// Cylinders per cluster, T (the paper: 1000).
    pub width: u32,
    /// CPU seconds of an OPT(6) schedule.
    pub opt6_cpu_s: f64,
}

impl Policy for ClustCyl {
    fn run(&self, r: &mut Round) {
        let g = Grouping::Cylinders {
            max: self.max,
            width: self.width,
        };
        sweep(r, g, self.opt6_cpu_s);
    }
}
