//! READ: stream the tape from the head onwards, serving requests as they pass
//! under the head; requests behind the start are served after one locate back.

use super::registry::{Needs, Orderer, Plan};
use super::Options;
use super::{Head, Problem};
use crate::{Moves, Result};

/// Requests by logical block, starting with the first at or after the head.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    let start = problem.head_logical(Head::Start).unwrap_or(0);
    let mut order: Vec<usize> = (0..problem.len()).collect();
    order.sort_by_key(|&j| {
        let block = problem.logical(j).unwrap_or(0);
        (block < start, block)
    });
    order
}

/// READ in the registry.
pub(crate) struct Read;

impl Orderer for Read {
    fn name(&self) -> &'static str {
        "read"
    }

    fn needs(&self) -> Needs {
        Needs::Blocks
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan {
            moves: Moves::ReadThrough,
            ..Plan::locate(plan(problem))
        })
    }
}
