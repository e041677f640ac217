//! EDF: earliest deadline first. C-requests are due at their round's end; a
//! D-request is due a configurable time after it arrives. Never serves a
//! request that would make a C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// Earliest deadline first.
pub struct Edf {
    /// A D-request's deadline after its arrival, seconds.
    pub deadline_s: f64,
}

impl Policy for Edf {
    fn run(&self, r: &mut Round) {
        flat(
            r,
            Rule::Edf {
                deadline_s: self.deadline_s,
            },
        );
    }
}
