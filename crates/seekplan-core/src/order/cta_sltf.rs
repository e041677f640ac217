//! CTA-SLTF: the CERN Tape Archive's software RAO. Greedy shortest locate
//! time first, deciding with CTA's cost heuristic rather than a drive model,
//! and starting from block 0 as CTA does (it does not ask where the head is).

use super::Problem;
use crate::model::{cta_cost, Block, WrapPosition};

/// The CTA-SLTF order; `None` unless the problem's model has wrap positions.
pub(crate) fn plan(problem: &Problem) -> Option<Vec<usize>> {
    let n = problem.len();
    let targets: Vec<WrapPosition> = (0..n)
        .map(|j| problem.wrap_at(Block(problem.logical(j)?)))
        .collect::<Option<_>>()?;
    let ends: Vec<WrapPosition> = (0..n)
        .map(|i| problem.wrap_at(Block(problem.head_logical(super::Head::After(i))?)))
        .collect::<Option<_>>()?;
    let mut head = problem.wrap_at(Block(0))?;
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut order = Vec::with_capacity(n);
    while !remaining.is_empty() {
        let (k, _) = remaining
            .iter()
            .enumerate()
            .map(|(k, &j)| (k, (cta_cost(head, targets[j]), j)))
            .min_by(|a, b| a.1.partial_cmp(&b.1).expect("finite costs"))
            .expect("non-empty");
        let j = remaining.swap_remove(k);
        order.push(j);
        head = ends[j];
    }
    Some(order)
}
