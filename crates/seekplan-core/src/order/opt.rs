//! OPT: the exact minimum-cost order by Held–Karp dynamic programming
//! ([`held_karp`]), O(n² 2ⁿ) time, so only for small batches.

use super::dense::Dense;
use super::registry::{Orderer, Plan};
use super::Options;
use super::Problem;
use crate::atsp::held_karp;
use crate::{Error, Result};

/// Largest batch OPT accepts: 2¹⁶ × 16 states fit in a few MB and take well
/// under a second; every extra request doubles both.
pub const OPT_LIMIT: usize = 16;

/// The order with the least total positioning cost.
pub(crate) fn plan(problem: &Problem) -> Result<Vec<usize>> {
    let n = problem.len();
    if n > OPT_LIMIT {
        return Err(Error::TooLarge {
            algo: "opt".into(),
            n,
            limit: OPT_LIMIT,
        });
    }
    let d = Dense::new(problem);
    let depot = d.depot();
    Ok(held_karp(
        n,
        |j| d.cost(depot, j),
        |i, j| d.cost(i, j),
        |j| d.cost(j, depot),
    ))
}

/// OPT in the registry.
pub(crate) struct Opt;

impl Orderer for Opt {
    fn name(&self) -> &'static str {
        "opt"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan {
            optimal: problem.is_matrix(),
            ..Plan::locate(plan(problem)?)
        })
    }
}
