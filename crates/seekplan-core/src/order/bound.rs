//! A certified lower bound on any schedule of a problem: the assignment
//! relaxation of its positioning costs (every request, and the start/end
//! depot, gets one predecessor and one successor; a served order is one
//! such assignment) plus the fixed read times. The locate relaxation also
//! counts what joining the assignment's cycles costs at least
//! ([`additive_bound`]): on the helical drives' seek matrices of 1,000
//! files (`bench_seek_sweep.py`, seeds 1-3) `best`'s CPU fell from 30.0 to
//! 22.9 s, its kicks following the smaller open gap, with the same orders
//! on 26 of 27 (Ampex DST310 uniform seed 2 0.0062 % dearer); the LTO seek
//! matrices of 100-1,000 files and the DIMACS rows in `RESULTS.md` kept
//! their orders and CPU (2026-11-29). A schedule moves the head in
//! one of two ways throughout ([`Moves`]): every move a locate, or streaming
//! forward whenever the next request lies ahead. The bound is the lesser of
//! the two relaxations, so it holds for every schedule an algorithm can
//! return and is as tight as the locate-only relaxation users compute from
//! `positioning_matrix` (pricing each pair at the cheaper of the two moves
//! instead, a mix no schedule uses, left it 13 % lower on 1,000 MLR1
//! requests).

use super::dense::Dense;
use super::{sltf, Head, Problem};
use crate::atsp::{additive_bound, assignment_until, Assignment};
use crate::stop::{Clock, Stop};
use crate::Moves;

/// Largest batch whose bound is computed on the stored (n + 1)² costs,
/// 32 MB and well under a second at 2,048 requests; beyond it explicit
/// matrices get theirs from the sparse solver (checked against every
/// cost, so as certain), and drive batches a geometric bound ([`geometric`]).
pub const BOUND_LIMIT: usize = 2_048;

/// The bound on a problem's total (the assignment's, with what joining its
/// cycles adds) and the locate assignment it came from (each node's
/// successor over the n + 1 nodes, the depot last, and the potentials that
/// prove it optimal): PATCH's cycles, which `best` patches into its first
/// tour, and the reduced costs its local search takes candidate moves
/// from.
pub(crate) struct Relaxation {
    /// A lower bound on the total seconds (reads included) of every
    /// schedule whose moves are all locates: what a search over locate
    /// orders may raise.
    pub(crate) locates: f64,
    /// A lower bound on the total of every schedule that streams, where
    /// a drive's batch may (`None` on an explicit matrix, which has no
    /// streaming moves): a proof over locate orders proves a schedule
    /// optimal only up to it.
    pub(crate) streaming: Option<f64>,
    /// The optimal assignment of the locate costs, when it was solved.
    pub(crate) locate: Option<Assignment>,
}

impl Relaxation {
    /// A lower bound on every schedule's total seconds, reads included:
    /// the lesser of the bounds on locating and on streaming.
    pub(crate) fn total(&self) -> f64 {
        self.streaming.map_or(self.locates, |s| s.min(self.locates))
    }
}

/// The assignment bound, with what joining its cycles adds, on `problem`'s
/// total time (cached by the problem, [`Problem::relaxation_until`]);
/// above [`BOUND_LIMIT`] requests on a drive model the geometric bound,
/// `None` where the model has no positions or `stop` (a caller's time limit
/// or cancel) is reached before it is known.
pub(crate) fn lower_bound(problem: &Problem, stop: &Stop) -> Option<f64> {
    problem.relaxation_until(stop).map(|r| r.total())
}

/// Solves the relaxations behind [`lower_bound`] (call it through
/// [`Problem::relaxation_until`], which keeps the result), giving up once
/// `stop` is reached.
pub(crate) fn relaxation(problem: &Problem, stop: &Stop) -> Option<Relaxation> {
    let n = problem.len();
    let reads = read_times(problem);
    if n > BOUND_LIMIT {
        if !problem.is_matrix() {
            if stop.reached() {
                return None;
            }
            // It bounds both kinds of schedule at once.
            return geometric(problem).map(|p| Relaxation {
                locates: p + reads,
                streaming: Some(p + reads),
                locate: None,
            });
        }
        return problem.positioning_assignment(stop).map(|a| Relaxation {
            locates: a.total + reads,
            streaming: None,
            locate: Some(a),
        });
    }
    if n == 0 {
        return Some(Relaxation {
            locates: problem.finish(Head::Start),
            streaming: None,
            locate: None,
        });
    }
    let costs = positioning_costs(problem, Moves::Locate, stop)?;
    let locate = assignment_until(n + 1, &costs, stop)?;
    let locates = locate.total + additive_bound(n + 1, &costs, &locate, n, stop);
    // An explicit matrix has no streaming moves: one relaxation.
    let streaming = if problem.is_matrix() {
        None
    } else {
        Some(positioning_bound(
            problem,
            Moves::ReadThrough,
            locates,
            stop,
        )?)
    };
    Some(Relaxation {
        locates: locates + reads,
        streaming: streaming.map(|s| s + reads),
        locate: Some(locate),
    })
}

/// A bound on every schedule's positioning for drive batches too large for
/// the assignment: every node (the start and each request) moves on once,
/// to a request other than itself, except the last request, which moves to
/// the end. Each node's move costs at least the cheaper of its cheapest
/// locate (SLTF's walks along the medium, [`sltf::cheapest_locates`]) and
/// streaming to the nearest request ahead (streaming further takes longer),
/// so the sum of those, less the most the last request can save by moving
/// to the end instead, bounds every order with either kind of move. Weaker
/// than the assignment (it lets two nodes move to one request), but O(n log
/// n) where the model bounds a move by its distance along the medium;
/// `None` otherwise.
fn geometric(problem: &Problem) -> Option<f64> {
    let n = problem.len();
    let d = Dense::on_demand(problem);
    let locates = sltf::cheapest_locates(&d)?;
    let mut starts: Vec<(u64, usize)> = (0..n)
        .map(|j| problem.logical(j).map(|b| (b, j)))
        .collect::<Option<_>>()?;
    starts.sort_unstable();
    let head = |i: usize| if i == n { Head::Start } else { Head::After(i) };
    let out: Vec<f64> = (0..=n)
        .map(|i| {
            let from = problem.head_logical(head(i))?;
            let k = starts.partition_point(|&(b, _)| b < from);
            let ahead = starts[k..]
                .iter()
                .find(|&&(_, j)| j != i)
                .map(|&(_, j)| problem.position(head(i), j, Moves::ReadThrough));
            Some(ahead.map_or(locates[i], |stream| stream.min(locates[i])))
        })
        .collect::<Option<_>>()?;
    let saved_at_the_end = (0..n)
        .map(|i| out[i] - problem.finish(head(i)))
        .fold(f64::NEG_INFINITY, f64::max);
    Some(out.iter().sum::<f64>() - saved_at_the_end)
}

/// A bound on every order's positioning computed as a sum of many rounded
/// terms (a 1-tree's, a line's), lowered by [`ROUNDED_DOWN`] of itself so
/// that rounding cannot lift a bound that meets the optimum above it.
pub(crate) fn rounded_down(positioning: f64) -> f64 {
    positioning - positioning.abs() * ROUNDED_DOWN
}

/// How far [`rounded_down`] lowers a bound, as a fraction of it: far above
/// the rounding of a sum of 10,000 terms (~10⁻¹²), and a tenth of what the
/// watch lets a tour exceed a bound by and still meet it
/// (`watch::ROUNDING`). With a billionth, as much as the watch allows, a
/// bound gave up all of that, and the line fitted through an exact line
/// matrix (`line_fit`; its slack ~5·10⁻¹⁴ of the total) missed its proof
/// by that much on every batch of `bench_linear_seek.py`'s model
/// unrounded (100-1,000 files, seeds 1-3; 2026-11-30).
const ROUNDED_DOWN: f64 = 1e-10;

/// The requests' fixed read times, which every schedule spends besides its
/// positioning.
pub(crate) fn read_times(problem: &Problem) -> f64 {
    (0..problem.len()).map(|j| problem.service(j)).sum()
}

/// The positioning costs of schedules with `moves` over the n + 1 nodes
/// (the depot last), row-major, the diagonal forbidden; `None` once
/// `stop` is reached.
fn positioning_costs(problem: &Problem, moves: Moves, stop: &Stop) -> Option<Vec<f64>> {
    let n = problem.len();
    let m = n + 1;
    let mut cost = vec![f64::INFINITY; m * m];
    let mut clock = Clock::new(stop);
    for i in 0..m {
        clock.tick()?;
        let head = if i == n { Head::Start } else { Head::After(i) };
        for j in (0..n).filter(|&j| j != i) {
            cost[i * m + j] = problem.position(head, j, moves);
        }
        if i != n {
            cost[i * m + n] = problem.finish(head);
        }
    }
    Some(cost)
}

/// The assignment bound on the positioning of schedules with `moves`, or a
/// weaker bound at least `enough` when that already shows this kind of
/// schedule cannot go below it (the sum of each row's cheapest move);
/// `None` once `stop` is reached.
fn positioning_bound(problem: &Problem, moves: Moves, enough: f64, stop: &Stop) -> Option<f64> {
    let m = problem.len() + 1;
    let cost = positioning_costs(problem, moves, stop)?;
    let rows: f64 = cost
        .chunks(m)
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .sum();
    if rows >= enough {
        return Some(rows);
    }
    assignment_until(m, &cost, stop).map(|a| a.total)
}
