//! A certified lower bound on any schedule of a problem: the assignment
//! relaxation of its positioning costs (every request, and the start/end
//! depot, gets one predecessor and one successor; a served order is one
//! such assignment) plus the fixed read times. A schedule moves the head in
//! one of two ways throughout ([`Moves`]): every move a locate, or streaming
//! forward whenever the next request lies ahead. The bound is the lesser of
//! the two relaxations, so it holds for every schedule an algorithm can
//! return and is as tight as the locate-only relaxation users compute from
//! `positioning_matrix` (pricing each pair at the cheaper of the two moves
//! instead, a mix no schedule uses, left it 13 % lower on 1,000 MLR1
//! requests).

use super::{Head, Problem};
use crate::atsp::assignment;
use crate::Moves;

/// Largest batch whose bound is computed on the stored (n + 1)² costs,
/// 32 MB and well under a second at 2,048 requests; beyond it explicit
/// matrices get theirs from the sparse solver (checked against every
/// cost, so as certain), and other schedules carry no bound.
pub const BOUND_LIMIT: usize = 2_048;

/// The assignment bound on `problem`'s total time, or `None` above
/// [`BOUND_LIMIT`] requests on a drive model.
pub(crate) fn lower_bound(problem: &Problem) -> Option<f64> {
    let n = problem.len();
    let reads = read_times(problem);
    if n > BOUND_LIMIT {
        if !problem.is_matrix() {
            return None;
        }
        return problem.positioning_assignment().map(|a| a.total + reads);
    }
    if n == 0 {
        return Some(problem.finish(Head::Start));
    }
    // An explicit matrix has no streaming moves: one relaxation.
    let kinds = if problem.is_matrix() { 1 } else { 2 };
    let bound = [Moves::Locate, Moves::ReadThrough][..kinds]
        .iter()
        .fold(f64::INFINITY, |least, moves| {
            least.min(positioning_bound(problem, *moves, least))
        });
    Some(bound + reads)
}

/// A bound on every order's positioning, computed as a sum of many rounded
/// terms (a 1-tree's), made a bound on the total: lowered by a billionth of
/// itself, so that rounding cannot lift a bound that meets the optimum above
/// it, plus the read times.
pub(crate) fn from_rounded_positioning(problem: &Problem, positioning: f64) -> f64 {
    positioning - positioning.abs() * 1e-9 + read_times(problem)
}

/// The requests' fixed read times, which every schedule spends besides its
/// positioning.
fn read_times(problem: &Problem) -> f64 {
    (0..problem.len()).map(|j| problem.service(j)).sum()
}

/// The assignment bound on the positioning of schedules with `moves`, or a
/// weaker bound at least `enough` when that already shows this kind of
/// schedule cannot go below it (the sum of each row's cheapest move).
fn positioning_bound(problem: &Problem, moves: Moves, enough: f64) -> f64 {
    let n = problem.len();
    let m = n + 1;
    let mut cost = vec![f64::INFINITY; m * m];
    for i in 0..m {
        let head = if i == n { Head::Start } else { Head::After(i) };
        for j in (0..n).filter(|&j| j != i) {
            cost[i * m + j] = problem.position(head, j, moves);
        }
        if i != n {
            cost[i * m + n] = problem.finish(head);
        }
    }
    let rows: f64 = cost
        .chunks(m)
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .sum();
    if rows >= enough {
        return rows;
    }
    assignment(m, &cost).total
}
