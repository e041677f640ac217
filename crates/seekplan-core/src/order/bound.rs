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
use crate::atsp::{assignment, Assignment};
use crate::Moves;

/// Largest batch whose bound is computed on the stored (n + 1)² costs,
/// 32 MB and well under a second at 2,048 requests; beyond it explicit
/// matrices get theirs from the sparse solver (checked against every
/// cost, so as certain), and other schedules carry no bound.
pub const BOUND_LIMIT: usize = 2_048;

/// The assignment bound on a problem's total and the locate assignment it
/// came from (each node's successor over the n + 1 nodes, the depot last,
/// and the potentials that prove it optimal): PATCH's cycles, which `best`
/// patches into its first tour, and the reduced costs its local search
/// takes candidate moves from.
pub(crate) struct Relaxation {
    /// A lower bound on every schedule's total seconds, reads included.
    pub(crate) total: f64,
    /// The optimal assignment of the locate costs, when it was solved.
    pub(crate) locate: Option<Assignment>,
}

/// The assignment bound on `problem`'s total time (cached by the problem,
/// [`Problem::relaxation`]), or `None` above [`BOUND_LIMIT`] requests on a
/// drive model.
pub(crate) fn lower_bound(problem: &Problem) -> Option<f64> {
    problem.relaxation().map(|r| r.total)
}

/// Solves the relaxations behind [`lower_bound`] (call it through
/// [`Problem::relaxation`], which keeps the result).
pub(crate) fn relaxation(problem: &Problem) -> Option<Relaxation> {
    let n = problem.len();
    let reads = read_times(problem);
    if n > BOUND_LIMIT {
        if !problem.is_matrix() {
            return None;
        }
        return problem.positioning_assignment().map(|a| Relaxation {
            total: a.total + reads,
            locate: Some(a.clone()),
        });
    }
    if n == 0 {
        return Some(Relaxation {
            total: problem.finish(Head::Start),
            locate: None,
        });
    }
    let locate = assignment(n + 1, &positioning_costs(problem, Moves::Locate));
    // An explicit matrix has no streaming moves: one relaxation.
    let mut bound = locate.total;
    if !problem.is_matrix() {
        bound = bound.min(positioning_bound(problem, Moves::ReadThrough, bound));
    }
    Some(Relaxation {
        total: bound + reads,
        locate: Some(locate),
    })
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

/// The positioning costs of schedules with `moves` over the n + 1 nodes
/// (the depot last), row-major, the diagonal forbidden.
fn positioning_costs(problem: &Problem, moves: Moves) -> Vec<f64> {
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
    cost
}

/// The assignment bound on the positioning of schedules with `moves`, or a
/// weaker bound at least `enough` when that already shows this kind of
/// schedule cannot go below it (the sum of each row's cheapest move).
fn positioning_bound(problem: &Problem, moves: Moves, enough: f64) -> f64 {
    let m = problem.len() + 1;
    let cost = positioning_costs(problem, moves);
    let rows: f64 = cost
        .chunks(m)
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .sum();
    if rows >= enough {
        return rows;
    }
    assignment(m, &cost).total
}
