//! READ: stream the tape from the head onwards, serving requests as they pass
//! under the head; requests behind the start are served after one locate back.

use super::{Head, Problem};

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
