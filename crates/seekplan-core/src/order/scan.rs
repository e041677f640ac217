//! SCAN: one elevator pass. Requests on tracks read in the head's direction
//! are served on the way out, the others on the way back (section 4.2).

use super::registry::{Needs, Orderer, Plan};
use super::Options;
use super::{Head, Problem};
use crate::model::Direction;
use crate::Result;

/// Requests ahead in the head's direction by physical position, then the
/// opposite direction's requests, then the ones left behind.
pub(crate) fn plan(problem: &Problem) -> Vec<usize> {
    let head = problem
        .head_physical(Head::Start)
        .expect("checked by run()");
    let mut keyed: Vec<(u8, f64, usize)> = (0..problem.len())
        .map(|j| {
            let (p, _) = problem.target_physical(j).expect("checked by run()");
            let along = match p.direction {
                Direction::Forward => p.lpos,
                Direction::Reverse => 1.0 - p.lpos,
            };
            let pass = if p.direction != head.direction {
                1
            } else if head.ahead(p.lpos) >= 0.0 {
                0
            } else {
                2
            };
            (pass, along, j)
        })
        .collect();
    keyed.sort_by(|a, b| {
        (a.0, a.1, a.2)
            .partial_cmp(&(b.0, b.1, b.2))
            .expect("finite positions")
    });
    keyed.into_iter().map(|(_, _, j)| j).collect()
}

/// SCAN in the registry.
pub(crate) struct Scan;

impl Orderer for Scan {
    fn name(&self) -> &'static str {
        "scan"
    }

    fn needs(&self) -> Needs {
        Needs::Tracks
    }

    fn plan(&self, problem: &Problem, _options: &Options) -> Result<Plan> {
        Ok(Plan::locate(plan(problem)))
    }
}
