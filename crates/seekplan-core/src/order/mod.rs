//! Single-device ordering: one file per algorithm. Every algorithm returns a
//! request order; [`run`] times it with [`Schedule::evaluate`].

mod best;
mod cta_sltf;
mod dense;
mod fifo;
mod local_search;
mod loss;
mod mpscan;
mod mpscan_star;
mod opt;
mod problem;
mod read;
mod scan;
mod sltf;
mod sort;

pub use opt::OPT_LIMIT;

use crate::model::{Block, CostMatrix, CostModel, Extent};
pub use problem::{Head, Problem};

use crate::{Error, Moves, Result, Schedule};
use std::fmt;
use std::str::FromStr;

/// The ordering algorithms, by the names users type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Read the tape sequentially through every request.
    Read,
    /// Serve requests in the order given.
    Fifo,
    /// Serve requests by increasing logical address.
    Sort,
    /// One elevator pass: forward tracks out, reverse tracks back.
    Scan,
    /// Exact minimum by dynamic programming (small batches only).
    Opt,
    /// The Van der Cruyssen–Rijckaert loss heuristic for the asymmetric TSP.
    Loss,
    /// Shortest locate time first (greedy).
    Sltf,
    /// Multi-pass scan that never breaks streaming (Sandstå & Midtstraum).
    MpScan,
    /// MPScan with its last scans folded into earlier ones (Figure 4).
    MpScanStar,
    /// Serve requests by logical position: what most systems do (SORT's plan).
    Linear,
    /// CTA's software RAO: greedy SLTF on CTA's cost heuristic from block 0.
    CtaSltf,
    /// seekplan's strongest: the best of the others, improved by local search.
    Best,
}

impl Algorithm {
    /// Every algorithm, in the order reports list them.
    pub const ALL: [Algorithm; 12] = [
        Algorithm::Read,
        Algorithm::Fifo,
        Algorithm::Sort,
        Algorithm::Scan,
        Algorithm::Opt,
        Algorithm::Loss,
        Algorithm::Sltf,
        Algorithm::MpScan,
        Algorithm::MpScanStar,
        Algorithm::Linear,
        Algorithm::CtaSltf,
        Algorithm::Best,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Read => "read",
            Algorithm::Fifo => "fifo",
            Algorithm::Sort => "sort",
            Algorithm::Scan => "scan",
            Algorithm::Opt => "opt",
            Algorithm::Loss => "loss",
            Algorithm::Sltf => "sltf",
            Algorithm::MpScan => "mpscan",
            Algorithm::MpScanStar => "mpscan-star",
            Algorithm::Linear => "linear",
            Algorithm::CtaSltf => "cta-sltf",
            Algorithm::Best => "best",
        }
    }

    /// Whether the algorithm needs a tape geometry (not just a cost matrix).
    pub fn needs_geometry(self) -> bool {
        matches!(
            self,
            Algorithm::Read
                | Algorithm::Sort
                | Algorithm::Linear
                | Algorithm::Scan
                | Algorithm::MpScan
                | Algorithm::MpScanStar
        )
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

/// Orders `problem` with `algo` and returns the timed schedule.
pub fn run(problem: &Problem, algo: Algorithm) -> Result<Schedule> {
    if algo.needs_geometry() && problem.head_physical(Head::Start).is_none() {
        return Err(Error::Unsupported {
            algo: algo.name().into(),
            reason:
                "it needs a tape geometry; with a cost matrix use fifo, opt, loss, sltf or best"
                    .into(),
        });
    }
    let (order, moves) = match algo {
        Algorithm::Read => (read::plan(problem), Moves::ReadThrough),
        Algorithm::Fifo => (fifo::plan(problem), Moves::Locate),
        Algorithm::Sort => (sort::plan(problem), Moves::Locate),
        Algorithm::Scan => (scan::plan(problem), Moves::Locate),
        Algorithm::Opt => (opt::plan(problem)?, Moves::Locate),
        Algorithm::Loss => (loss::plan(problem), Moves::Locate),
        Algorithm::Sltf => (sltf::plan(problem), Moves::Locate),
        Algorithm::MpScan => (mpscan::plan(problem).order, Moves::Locate),
        Algorithm::MpScanStar => (mpscan_star::plan(problem), Moves::Locate),
        Algorithm::Linear => (sort::plan(problem), Moves::Locate),
        Algorithm::CtaSltf => (
            cta_sltf::plan(problem).ok_or_else(|| Error::Unsupported {
                algo: algo.name().into(),
                reason: "it needs an LTO wrap/LPOS model (e.g. --drive lto9)".into(),
            })?,
            Moves::Locate,
        ),
        Algorithm::Best => return best::schedule(problem),
    };
    Schedule::evaluate(problem, order, moves)
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
    run(&Problem::tape(model, requests, start, end)?, algo)
}

/// Orders the nodes of an explicit cost matrix, head at node `start`,
/// finishing at node `end` when given; also returns the full node sequence
/// (start first, end last).
pub fn order_matrix(
    matrix: &CostMatrix,
    start: usize,
    end: Option<usize>,
    algo: Algorithm,
) -> Result<(Schedule, Vec<usize>)> {
    let problem = Problem::matrix(matrix, start, end)?;
    let schedule = run(&problem, algo)?;
    let nodes = problem
        .node_sequence(&schedule.order)
        .expect("a matrix problem");
    Ok((schedule, nodes))
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
