//! FIFO: serve requests in the order given, the no-knowledge baseline.

use super::registry::{Orderer, Plan};
use super::Options;
use super::Problem;
use crate::Result;

/// The identity order.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    (0..problem.len()).collect()
}

/// FIFO in the registry.
pub(crate) struct Fifo;

impl Orderer for Fifo {
    fn name(&self) -> &'static str {
        "fifo"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}
