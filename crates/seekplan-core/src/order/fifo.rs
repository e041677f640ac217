//! FIFO: serve requests in the order given, the no-knowledge baseline.

use super::Problem;

/// The identity order.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    (0..problem.len()).collect()
}
