//! C-SCAN: one-way elevator (upwards), returning to the lowest waiting request.
//! Like every algorithm here, it never serves a request that would make a
//! C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// The CScan scheduler.
pub struct CScan;

impl Policy for CScan {
    fn run(&self, r: &mut Round) {
        flat(r, Rule::CScan);
    }
}
