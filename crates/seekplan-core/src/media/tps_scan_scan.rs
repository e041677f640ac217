//! TPS SCAN/SCAN: a C-period serving the round's C-requests by SCAN, then a
//! D-period serving D-requests by SCAN (LOOK: reversing at the last request)
//! until the round ends.

use super::round::Round;
use super::sweep::{sweep, Grouping};
use super::Policy;

/// TPS SCAN/SCAN.
pub struct TpsScanScan;

impl Policy for TpsScanScan {
    fn run(&self, r: &mut Round) {
        r.serve_all_c();
        sweep(r, Grouping::Requests { max: 1 }, 0.0);
    }
}
