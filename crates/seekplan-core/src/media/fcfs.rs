//! FCFS: requests in arrival order (a round's C-requests arrive at its start, served among themselves by SCAN).
//! Like every algorithm here, it never serves a request that would make a
//! C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// The Fcfs scheduler.
pub struct Fcfs;

impl Policy for Fcfs {
    fn run(&self, r: &mut Round) {
        flat(r, Rule::Fcfs);
    }
}
