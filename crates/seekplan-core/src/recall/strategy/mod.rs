//! Requester strategies: what dCache passes on to the tape system, and when
//! (Morschel et al., §4.2 and §5.2).
//!
//! Each strategy is one file: a config struct (its YAML knobs, checked by
//! [`StrategyConfig::validate`]) that builds a [`Pending`] queue. The
//! [`strategies!`] list below is the registry: adding a strategy is its file
//! plus one line there (the variant's YAML name is the kebab-case of its
//! variant name).

mod by_dataset;
mod by_tapes;
mod clusters;
mod dcache;
mod random;

pub use by_dataset::ByDataset;
pub use by_tapes::ByTapes;
pub use dcache::DcacheRules;
pub use random::Random;

use crate::library::{Request, TapeSpec};
use crate::sim::Time;
use crate::Result;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Requests known to the requester but not yet passed to the tape system.
pub trait Pending {
    /// A request arrives at `now`; `tape_known` says whether the requester
    /// knows which tape holds it (dCache's tape information).
    fn arrive(&mut self, request: Request, tape_known: bool, now: Time);
    /// The next request to pass on at `now`, if the strategy releases one.
    fn take(&mut self, now: Time) -> Option<Request>;
    /// Seconds after which the strategy wants to be asked again although
    /// nothing else happened (time-based rules), or None.
    fn next_wake(&self) -> Option<f64>;
}

/// The tapes a pending queue serves: their capacities (some rules weigh a
/// tape's queued volume against them) and, when the whole campaign is known
/// up front, how many requests each will get (so queues never grow).
#[derive(Clone, Copy, Debug)]
pub struct Tapes<'a> {
    /// Every tape, indexed by `Request::tape`.
    pub specs: &'a [TapeSpec],
    /// Requests to expect per tape, if known.
    pub expected: Option<&'a [usize]>,
}

/// A strategy's config: checks its knobs and builds its pending queue.
pub trait StrategyConfig {
    /// Checks the knobs; errors name the field as users write it.
    fn validate(&self) -> Result<()>;
    /// An empty pending queue for requests on `tapes`, drawing from `rng`.
    fn build(&self, tapes: &Tapes<'_>, rng: ChaCha8Rng) -> Box<dyn Pending + Send>;
    /// Seconds between the strategy's own wake-ups while requests wait, for
    /// strategies with time-based rules (a run's cost grows with their number).
    fn wake_interval_s(&self) -> Option<f64> {
        None
    }
}

/// Declares the registry: one variant per strategy, with its config type.
macro_rules! strategies {
    ($($(#[$doc:meta])* $variant:ident($config:ty),)+) => {
        /// How the requester chooses what to pass on to the tape system.
        #[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
        #[serde(tag = "name", rename_all = "kebab-case")]
        pub enum Strategy {
            $($(#[$doc])* $variant($config),)+
        }

        impl Strategy {
            fn config(&self) -> &dyn StrategyConfig {
                match self {
                    $(Strategy::$variant(c) => c,)+
                }
            }
        }
    };
}

strategies! {
    /// Requests in uniformly random order (the paper's benchmark).
    Random(Random),
    /// Requests in arrival order (the datasets in the order requested).
    ByDataset(ByDataset),
    /// Requests clustered by tape, `tapes` tapes at a time, round-robin.
    ByTapes(ByTapes),
    /// dCache's bring-online clustering rules.
    Dcache(DcacheRules),
}

impl Strategy {
    /// Checks the strategy's knobs.
    pub fn validate(&self) -> Result<()> {
        self.config().validate()
    }

    /// Seconds between the strategy's own wake-ups, if it has time-based rules.
    pub fn wake_interval_s(&self) -> Option<f64> {
        self.config().wake_interval_s()
    }

    /// The strategy's empty pending queue for requests on `tapes`.
    pub fn build(&self, tapes: &Tapes<'_>, rng: ChaCha8Rng) -> Box<dyn Pending + Send> {
        self.config().build(tapes, rng)
    }
}
