//! The ordering algorithms: one trait every algorithm implements and one
//! list naming them. Adding an algorithm is its own file (a unit struct
//! implementing [`Orderer`]) plus one line in [`algorithms!`]'s invocation
//! below; names, parsing, `Algorithm::ALL` and the Python/CLI lists follow.

use super::{Head, Options, Problem, SearchReport};
use crate::model::Block;
use crate::{Moves, Result};

/// An order of service and how the head moves between requests.
pub(crate) struct Plan {
    /// Request indices in service order.
    pub(crate) order: Vec<usize>,
    /// How the head moves between consecutive requests.
    pub(crate) moves: Moves,
    /// The algorithm proved no order cheaper, on an explicit matrix (where
    /// no move can read through instead of locating, so the proof covers
    /// every schedule): its total is then the problem's lower bound.
    pub(crate) optimal: bool,
    /// A lower bound on every schedule's total that the algorithm proved on
    /// the way, if any; the stronger of it and the assignment bound is the
    /// schedule's.
    pub(crate) bound: Option<f64>,
    /// How an improving search ended, for algorithms that search.
    pub(crate) report: Option<SearchReport>,
}

impl Plan {
    /// An order served by locating to every request.
    pub(crate) fn locate(order: Vec<usize>) -> Self {
        Plan {
            order,
            moves: Moves::Locate,
            optimal: false,
            bound: None,
            report: None,
        }
    }
}

/// What an ordering algorithm needs of a problem besides its costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Nothing more: it orders any problem, a bare cost matrix included.
    Costs,
    /// The requests' logical block addresses: any tape, not a bare matrix.
    Blocks,
    /// Where each block lies on the tape's tracks and which way they run:
    /// serpentine and LTO models have it, a helical tape does not.
    Tracks,
    /// Each block's LTO wrap and longitudinal position (CTA's heuristic).
    Wraps,
}

impl Needs {
    /// Whether `problem` has what this asks for.
    pub fn met_by(self, problem: &Problem) -> bool {
        match self {
            Needs::Costs => true,
            Needs::Blocks => !problem.is_matrix(),
            Needs::Tracks => problem.head_physical(Head::Start).is_some(),
            Needs::Wraps => problem
                .model()
                .is_some_and(|m| m.wrap_position(Block(0)).is_some()),
        }
    }

    /// What a problem that does not meet this lacks, as an error says it.
    pub(crate) fn missing(self, problem: &Problem) -> &'static str {
        match self {
            _ if problem.is_matrix() => {
                "the requests' block addresses, which a cost matrix does not have"
            }
            Needs::Wraps => "an LTO wrap/LPOS model (an LTO drive, such as lto9)",
            _ => {
                "a tape laid out in tracks, as serpentine, four-region and LTO models have it \
                 (a helical tape has none)"
            }
        }
    }
}

/// One ordering algorithm: the name users type, what it needs, how it plans.
pub(crate) trait Orderer: Sync {
    /// The name users type.
    fn name(&self) -> &'static str;

    /// What it needs of a problem besides the costs.
    fn needs(&self) -> Needs {
        Needs::Costs
    }

    /// The order `problem` is served in; every cost is recomputed from the
    /// model afterwards, so a plan cannot claim a cost it did not earn.
    fn plan(&self, problem: &Problem, options: &Options) -> Result<Plan>;
}

/// Declares [`Algorithm`] (one variant per line), its `ALL` list in report
/// order, and the implementation behind each variant.
macro_rules! algorithms {
    ($($(#[doc = $doc:literal])+ $variant:ident => $imp:path,)+) => {
        /// The ordering algorithms, by the names users type.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl Algorithm {
            /// Every algorithm, in the order reports list them.
            pub const ALL: [Algorithm; [$(stringify!($variant)),+].len()] =
                [$(Algorithm::$variant),+];

            /// The implementation behind the name.
            pub(crate) fn imp(self) -> &'static dyn Orderer {
                match self {
                    $(Algorithm::$variant => &$imp,)+
                }
            }
        }
    };
}

algorithms! {
    /// Read the tape sequentially through every request.
    Read => super::read::Read,
    /// Serve requests in the order given.
    Fifo => super::fifo::Fifo,
    /// Serve requests by increasing logical address.
    Sort => super::sort::Sort,
    /// One elevator pass: forward tracks out, reverse tracks back.
    Scan => super::scan::Scan,
    /// Exact minimum by dynamic programming (small batches only).
    Opt => super::opt::Opt,
    /// The Van der Cruyssen–Rijckaert loss heuristic for the asymmetric TSP.
    Loss => super::loss::Loss,
    /// Shortest locate time first (greedy).
    Sltf => super::sltf::Sltf,
    /// Multi-pass scan that never breaks streaming (Sandstå & Midtstraum).
    MpScan => super::mpscan::MpScan,
    /// MPScan with its last scans folded into earlier ones (Figure 4).
    MpScanStar => super::mpscan_star::MpScanStar,
    /// Serve requests by logical position: what most systems do (SORT's plan).
    Linear => super::sort::Linear,
    /// CTA's software RAO: greedy SLTF on CTA's cost heuristic from block 0.
    CtaSltf => super::cta_sltf::CtaSltf,
    /// Assignment relaxation with Karp's cycle patching (asymmetric TSP).
    Patch => super::patch::Patch,
    /// Branch and bound over assignment relaxations, truncated (exact when it finishes).
    Bnb => super::bnb::Bnb,
    /// seekplan's strongest: the best of the others, improved by local search.
    Best => super::best::Best,
}
