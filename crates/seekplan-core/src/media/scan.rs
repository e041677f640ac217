//! SCAN: elevator over C- and D-requests, travelling to the disk's edge before reversing.
//! Like every algorithm here, it never serves a request that would make a
//! C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// The Scan scheduler.
pub struct Scan;

impl Policy for Scan {
    fn run(&self, r: &mut Round) {
        flat(r, Rule::Scan);
    }
}
