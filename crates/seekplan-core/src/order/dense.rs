//! Every positioning cost of a problem computed once, for the algorithms that
//! consult costs many times. The start and end positions are one depot node.

use super::{Head, Problem};

/// Positioning costs between requests, with the depot as node `n`:
/// `cost(n, j)` is from the start, `cost(i, n)` is to the end position.
pub(crate) struct Dense {
    n: usize,
    cost: Vec<f64>,
}

impl Dense {
    /// Computes all (n + 1)² costs of `problem`.
    pub(crate) fn new(problem: &Problem) -> Self {
        let n = problem.len();
        let mut cost = vec![0.0; (n + 1) * (n + 1)];
        for i in 0..=n {
            let head = if i == n { Head::Start } else { Head::After(i) };
            let row = &mut cost[i * (n + 1)..(i + 1) * (n + 1)];
            for (j, c) in row.iter_mut().enumerate().take(n) {
                if i != j {
                    *c = problem.locate(head, j);
                }
            }
            row[n] = if i == n { 0.0 } else { problem.finish(head) };
        }
        Dense { n, cost }
    }

    /// The depot node: start before the tour, end after it.
    pub(crate) fn depot(&self) -> usize {
        self.n
    }

    /// Positioning cost from node `i` to node `j`.
    #[inline]
    pub(crate) fn cost(&self, i: usize, j: usize) -> f64 {
        self.cost[i * (self.n + 1) + j]
    }

    /// Positioning cost of serving `order` from the start to the end.
    pub(crate) fn tour(&self, order: &[usize]) -> f64 {
        let mut prev = self.depot();
        let mut total = 0.0;
        for &j in order {
            total += self.cost(prev, j);
            prev = j;
        }
        total + self.cost(prev, self.depot())
    }
}
