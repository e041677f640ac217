//! SORT: serve requests by increasing logical address.

use super::Problem;

/// Requests by logical block, ties by input order.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    let mut order: Vec<usize> = (0..problem.len()).collect();
    order.sort_by_key(|&j| problem.logical(j));
    order
}
