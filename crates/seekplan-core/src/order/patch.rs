//! PATCH: the assignment relaxation of the positioning costs (start/end as
//! one depot node), its cycles patched into one tour by Karp's method, cut
//! at the depot into the path the head follows. On asymmetric costs the
//! assignment is close to the optimal tour, so this lands a few percent
//! above the bound in O(n²)–O(n³) time; `best` improves it further.

use super::dense::Dense;
use super::registry::{Orderer, Plan};
use super::{Options, Problem};
use crate::atsp::{assignment, patch};
use crate::{Error, Result};

/// Largest batch PATCH accepts: the (n + 1)² matrix is 128 MB at 4,000.
pub const PATCH_LIMIT: usize = 4_000;

/// The PATCH order for the costs `d` (at most [`PATCH_LIMIT`] requests).
pub(crate) fn plan_with(d: &Dense) -> Vec<usize> {
    let n = d.len();
    if n == 0 {
        return Vec::new();
    }
    let m = n + 1;
    let cost = d.square();
    let mut succ = assignment(m, &cost).succ;
    patch(&mut succ, |i, j| cost[i * m + j]);
    d.path(&succ)
}

/// PATCH in the registry.
pub(crate) struct Patch;

impl Orderer for Patch {
    fn name(&self) -> &'static str {
        "patch"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        let n = problem.len();
        if n > PATCH_LIMIT {
            return Err(Error::TooLarge {
                algo: "patch".into(),
                n,
                limit: PATCH_LIMIT,
            });
        }
        Ok(Plan::locate(plan_with(&Dense::new(problem))))
    }
}
