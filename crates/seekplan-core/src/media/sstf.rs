//! SSTF: shortest seek distance first, over C- and D-requests alike.
//! Like every algorithm here, it never serves a request that would make a
//! C-request miss its round.

use super::flat::{flat, Rule};
use super::round::Round;
use super::Policy;

/// The Sstf scheduler.
pub struct Sstf;

impl Policy for Sstf {
    fn run(&self, r: &mut Round) {
        flat(r, Rule::Sstf);
    }
}
