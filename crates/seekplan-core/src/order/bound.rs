//! A certified lower bound on any schedule of a problem: the assignment
//! relaxation of its positioning costs (every request, and the start/end
//! depot, gets one predecessor and one successor; a served order is one
//! such assignment) plus the fixed read times. A move may stream forward
//! instead of locating (READ's moves), so each pair costs the cheaper of
//! the two here.

use super::{Head, Problem};
use crate::atsp::assignment;

/// Largest batch whose bound is computed on the stored (n + 1)² costs,
/// 32 MB and well under a second at 2,048 requests; beyond it explicit
/// matrices get theirs from the sparse solver (checked against every
/// cost, so as certain), and other schedules carry no bound.
pub const BOUND_LIMIT: usize = 2_048;

/// The assignment bound on `problem`'s total time, or `None` above
/// [`BOUND_LIMIT`] requests on a drive model.
pub(crate) fn lower_bound(problem: &Problem) -> Option<f64> {
    let n = problem.len();
    if n > BOUND_LIMIT {
        if !problem.is_matrix() {
            return None;
        }
        let reads: f64 = (0..n).map(|j| problem.service(j)).sum();
        return problem.positioning_assignment().map(|a| a.total + reads);
    }
    let reads: f64 = (0..n).map(|j| problem.service(j)).sum();
    if n == 0 {
        return Some(problem.finish(Head::Start));
    }
    let m = n + 1;
    let mut cost = vec![f64::INFINITY; m * m];
    for i in 0..m {
        let head = if i == n { Head::Start } else { Head::After(i) };
        for j in (0..n).filter(|&j| j != i) {
            let locate = problem.locate(head, j);
            let stream = problem.read_through(head, j).unwrap_or(f64::INFINITY);
            cost[i * m + j] = locate.min(stream);
        }
        if i != n {
            cost[i * m + n] = problem.finish(head);
        }
    }
    Some(assignment(m, &cost).total + reads)
}
