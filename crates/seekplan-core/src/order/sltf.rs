//! SLTF: shortest locate time first, the greedy baseline (Hillyer & Silberschatz).

use super::dense::Dense;
use super::registry::{Orderer, Plan};
use super::Options;
use super::Problem;
use crate::Result;

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
    while let Some(k) = d.cheapest(head, &remaining) {
        let j = remaining.swap_remove(k);
        order.push(j);
        head = j;
    }
    order
}

/// SLTF in the registry.
pub(crate) struct Sltf;

impl Orderer for Sltf {
    fn name(&self) -> &'static str {
        "sltf"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}
