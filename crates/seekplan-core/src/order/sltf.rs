//! SLTF: shortest locate time first, the greedy baseline (Hillyer & Silberschatz).

use super::dense::Dense;
use super::Problem;

/// From the head, repeatedly serve the request with the least locate time.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    plan_with(&Dense::on_demand(problem))
}

/// SLTF on the costs `d` (best shares them among seeds); ties go to the
/// lower request.
pub(crate) fn plan_with(d: &Dense) -> Vec<usize> {
    let mut remaining: Vec<usize> = (0..d.len()).collect();
    let mut order = Vec::with_capacity(remaining.len());
    let mut head = d.depot();
    while !remaining.is_empty() {
        let (k, _) = remaining
            .iter()
            .enumerate()
            .map(|(k, &j)| (k, (d.cost(head, j), j)))
            .min_by(|a, b| a.1.partial_cmp(&b.1).expect("finite costs"))
            .expect("non-empty");
        let j = remaining.swap_remove(k);
        order.push(j);
        head = j;
    }
    order
}
