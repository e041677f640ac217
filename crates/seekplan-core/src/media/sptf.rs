//! Flat SPTF (section 4.3): any waiting request, C or D, with the shortest positioning time first, a D-request only if SCAN of the remaining C-requests still fits.
//! Like every algorithm here, it never serves a request that would make a
//! C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// The Sptf scheduler.
pub struct Sptf;

impl Policy for Sptf {
    fn run(&self, r: &mut Round) {
        flat(r, Rule::Sptf);
    }
}
