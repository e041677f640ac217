//! LOOK: elevator over C- and D-requests, reversing at the last request in its direction.
//! Like every algorithm here, it never serves a request that would make a
//! C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// The Look scheduler.
pub struct Look;

impl Policy for Look {
    fn run(&self, r: &mut Round) {
        flat(r, Rule::Look);
    }
}
