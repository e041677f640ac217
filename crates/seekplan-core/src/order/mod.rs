//! Single-device ordering: one file per algorithm. Every algorithm returns a
//! request order; [`run`] times it with [`Schedule::evaluate`].

mod alpha;
mod best;
mod bnb;
mod bound;
mod cta_sltf;
mod dense;
mod edge_bounds;
mod edge_sums;
mod fifo;
mod ils;
mod kopt;
mod line_fit;
mod lk;
mod local_search;
mod loss;
mod merge;
mod mpscan;
mod mpscan_star;
mod neighbours;
mod on_line;
mod opt;
mod options;
mod or_chain;
mod patch;
mod problem;
mod read;
mod scan;
mod sltf;
mod sort;
mod tour;
mod trials;
mod walks;
mod watch;

mod registry;
mod schedule;

/// Improvements smaller than this (seconds) are rounding noise, for every
/// local search of this module.
const EPS: f64 = 1e-9;

#[cfg(test)]
mod deadline_tests;
#[cfg(test)]
mod test_support;

pub use bnb::BNB_LIMIT;
pub use bound::BOUND_LIMIT;
pub use opt::OPT_LIMIT;
pub use options::{Options, DEFAULT_SEED, MAX_GAP, MAX_ITERATIONS, MAX_TIME_LIMIT_S};
pub use problem::{Head, Problem};
pub use registry::{Algorithm, Needs};
pub use schedule::{Moves, Schedule, Step};
pub use watch::{Progress, SearchReport, Snapshot, StopReason};

use crate::model::{Block, CostMatrix, CostModel, Extent};
use crate::stop::Stop;
use crate::{Error, Result};
use std::fmt;
use std::str::FromStr;

impl Algorithm {
    /// The name users type.
    pub fn name(self) -> &'static str {
        self.imp().name()
    }

    /// What the algorithm needs of a problem besides its costs.
    pub fn needs(self) -> Needs {
        self.imp().needs()
    }

    /// Whether it orders the nodes of a bare cost matrix.
    pub fn on_matrices(self) -> bool {
        self.needs() == Needs::Costs
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        crate::error::parse_named(&Algorithm::ALL, Algorithm::name, s, "algo")
    }
}

/// Orders `problem` with `algo` and returns the timed schedule (default
/// [`Options`]: no lower bound).
pub fn run(problem: &Problem, algo: Algorithm) -> Result<Schedule> {
    run_with(problem, algo, &Options::default())
}

/// [`run`] with the caller's options.
pub fn run_with(problem: &Problem, algo: Algorithm, options: &Options) -> Result<Schedule> {
    options.check()?;
    if !algo.needs().met_by(problem) {
        return Err(Error::Unsupported {
            algo: algo.name().into(),
            reason: unmet(algo.needs(), problem),
        });
    }
    // A time limit counts from here, the lower bound below included.
    let deadline = options.deadline();
    let plan = algo.imp().plan(problem, &options.until(deadline))?;
    let plan_optimal = plan.optimal;
    let mut schedule = Schedule::evaluate(problem, plan.order, plan.moves)?;
    schedule.search = plan.report;
    // The models' figures are bounded (crate::error::MAX_STEP_S) and a
    // matrix's row maxima must sum to a finite total; a model or matrix
    // that still sums to infinity is refused rather than reported as a
    // schedule of infinite seconds.
    if !schedule.total_s.is_finite() {
        return Err(Error::invalid(
            "costs",
            "too large: the schedule's total overflows to infinity; rescale the drive's figures",
        ));
    }
    let bound = match (options.bound, plan_optimal) {
        (false, _) => None,
        (true, true) => Some(schedule.total_s),
        // `best`'s bound includes the relaxation wherever it solved one
        // (on a renumbered batch, on the renumbered copy: solving it again
        // here took 0.13 s at 100,000 requests).
        (true, false) => plan
            .bound
            .or_else(|| bound::lower_bound(problem, &Stop::at(deadline))),
    };
    Ok(schedule.with_bound(bound))
}

/// Orders `requests` on a tape described by `model`, head at `start`,
/// finishing at `end` when given.
pub fn order_tape(
    model: &dyn CostModel,
    requests: Vec<Extent>,
    start: Block,
    end: Option<Block>,
    algo: Algorithm,
) -> Result<Schedule> {
    order_tape_with(model, requests, start, end, algo, &Options::default())
}

/// [`order_tape`] with the caller's options.
pub fn order_tape_with(
    model: &dyn CostModel,
    requests: Vec<Extent>,
    start: Block,
    end: Option<Block>,
    algo: Algorithm,
    options: &Options,
) -> Result<Schedule> {
    run_with(&Problem::tape(model, requests, start, end)?, algo, options)
}

/// Orders the nodes of an explicit cost matrix, head at node `start`,
/// finishing at node `end` when given; also returns the full node sequence
/// (start first, end last).
pub fn order_matrix(
    matrix: &CostMatrix<'_>,
    start: usize,
    end: Option<usize>,
    algo: Algorithm,
) -> Result<(Schedule, Vec<usize>)> {
    order_matrix_with(matrix, start, end, algo, &Options::default())
}

/// [`order_matrix`] with the caller's options.
pub fn order_matrix_with(
    matrix: &CostMatrix<'_>,
    start: usize,
    end: Option<usize>,
    algo: Algorithm,
    options: &Options,
) -> Result<(Schedule, Vec<usize>)> {
    let problem = Problem::matrix(matrix, start, end)?;
    let schedule = run_with(&problem, algo, options)?;
    let nodes = problem
        .node_sequence(&schedule.order)
        .expect("a matrix problem");
    Ok((schedule, nodes))
}

/// Why an algorithm that `needs` what `problem` lacks cannot order it, and
/// which algorithms can.
fn unmet(needs: Needs, problem: &Problem) -> String {
    let usable: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|a| a.needs().met_by(problem))
        .map(|a| a.name())
        .collect();
    let here = if problem.is_matrix() {
        "with a cost matrix"
    } else {
        "on this drive"
    };
    format!(
        "it needs {}; {here} use {}",
        needs.missing(problem),
        usable.join(", ")
    )
}

/// Every positioning cost of a tape problem over n + 1 nodes, node n being the
/// start/end depot: row n holds the locates from the start, column n those to
/// the end position (0 without one). For external solvers and lower bounds.
pub fn positioning_matrix(
    model: &dyn CostModel,
    requests: Vec<Extent>,
    start: Block,
    end: Option<Block>,
) -> Result<Vec<Vec<f64>>> {
    let problem = Problem::tape(model, requests, start, end)?;
    let n = problem.len();
    let head = |i: usize| if i == n { Head::Start } else { Head::After(i) };
    Ok((0..=n)
        .map(|i| {
            (0..=n)
                .map(|j| match (i == j, j == n) {
                    (true, _) => 0.0,
                    (false, true) => problem.finish(head(i)),
                    (false, false) => problem.locate(head(i), j),
                })
                .collect()
        })
        .collect())
}
