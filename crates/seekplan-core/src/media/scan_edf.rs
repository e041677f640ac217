//! SCAN-EDF: EDF, with deadlines rounded up to round ends so that requests
//! due at the same time are served in SCAN order. Never serves a request that
//! would make a C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// SCAN-EDF.
pub struct ScanEdf {
    /// A D-request's deadline after its arrival, seconds.
    pub deadline_s: f64,
    /// Round length, seconds (deadline granularity).
    pub round_s: f64,
}

impl Policy for ScanEdf {
    fn run(&self, r: &mut Round) {
        flat(
            r,
            Rule::ScanEdf {
                deadline_s: self.deadline_s,
                round_s: self.round_s,
            },
        );
    }
}
