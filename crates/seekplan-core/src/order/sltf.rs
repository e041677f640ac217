//! SLTF: shortest locate time first, the greedy baseline (Hillyer & Silberschatz).

use super::{Head, Problem};

/// From the head, repeatedly serve the request with the least locate time.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    let mut remaining: Vec<usize> = (0..problem.len()).collect();
    let mut order = Vec::with_capacity(remaining.len());
    let mut head = Head::Start;
    while !remaining.is_empty() {
        let (k, _) = remaining
            .iter()
            .enumerate()
            .map(|(k, &j)| (k, (problem.locate(head, j), j)))
            .min_by(|a, b| a.1.partial_cmp(&b.1).expect("finite costs"))
            .expect("non-empty");
        let j = remaining.swap_remove(k);
        order.push(j);
        head = Head::After(j);
    }
    order
}
