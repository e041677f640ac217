//! PATCH: the assignment relaxation of the positioning costs (start/end as
//! one depot node), its cycles patched into one tour by Karp's method, cut
//! at the depot into the path the head follows. On asymmetric costs the
//! assignment is close to the optimal tour, so this lands a few percent
//! above the bound; `best` improves it further. Up to [`DENSE_LIMIT`]
//! requests the assignment is solved on the stored matrix, above it on a
//! sparse candidate graph checked against every cost (O(n) memory).

use super::dense::Dense;
use super::registry::{Orderer, Plan};
use super::{Options, Problem};
use crate::atsp::{assignment, patch, sparse_assignment_within};
use crate::{Error, Result};

/// Largest batch whose (n + 1)² costs are stored for the assignment:
/// 128 MB at 4,000.
pub(crate) const DENSE_LIMIT: usize = 4_000;

/// Candidate edges per row the sparse assignment may scan on a drive
/// model before PATCH gives up: LTO-9 batches take ~300 a row and the
/// four-region DLT7000 ~1,100 at 5,000 requests, while the helical drives
/// take 100,000 to 4.6 million (2026-11-27). At 20,000 requests this caps
/// the augmenting paths at 4e8 edges, a few seconds.
const WORK_PER_ROW: usize = 20_000;

/// The PATCH order for `problem`'s costs `d`, or `None` when the sparse
/// solver finds no assignment on its candidate graph, or on a drive model
/// none within [`WORK_PER_ROW`] (see [`sparse_assignment_within`]). On
/// explicit matrices the sparse assignment is the problem's own (shared
/// with the lower bound), without a budget.
pub(crate) fn plan_with(problem: &Problem, d: &Dense) -> Option<Vec<usize>> {
    let n = d.len();
    if n == 0 {
        return Some(Vec::new());
    }
    let m = n + 1;
    let succ = if n <= DENSE_LIMIT {
        let cost = d.square();
        let mut succ = assignment(m, &cost).succ;
        patch(&mut succ, |i, j| cost[i * m + j]);
        succ
    } else {
        let mut succ = if problem.is_matrix() {
            problem.positioning_assignment()?.succ.clone()
        } else {
            sparse_assignment_within(m, |i, j| d.cost(i, j), WORK_PER_ROW * m)?.succ
        };
        patch(&mut succ, |i, j| d.cost(i, j));
        succ
    };
    Some(d.path(&succ))
}

/// PATCH in the registry.
pub(crate) struct Patch;

impl Orderer for Patch {
    fn name(&self) -> &'static str {
        "patch"
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        plan_with(problem, &Dense::new(problem))
            .map(Plan::locate)
            .ok_or_else(|| Error::Unsupported {
                algo: "patch".into(),
                reason: "its sparse assignment found no tour through the cheapest moves \
                         within its work budget; use best or sltf"
                    .into(),
            })
    }
}
