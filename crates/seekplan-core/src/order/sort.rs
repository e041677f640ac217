//! SORT: serve requests by increasing logical address.

use super::registry::{Needs, Orderer, Plan};
use super::Options;
use super::Problem;
use crate::Result;

/// Requests by logical block, ties by input order.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    let mut order: Vec<usize> = (0..problem.len()).collect();
    order.sort_by_key(|&j| problem.logical(j));
    order
}

/// SORT in the registry.
pub(crate) struct Sort;

impl Orderer for Sort {
    fn name(&self) -> &'static str {
        "sort"
    }

    fn needs(&self) -> Needs {
        Needs::Blocks
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}

/// LINEAR in the registry: SORT's plan under the name of what most systems do.
pub(crate) struct Linear;

impl Orderer for Linear {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn needs(&self) -> Needs {
        Needs::Blocks
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}
