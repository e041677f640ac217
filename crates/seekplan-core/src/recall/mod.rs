//! Recall campaigns: a requester (dCache) in front of a tape library passes
//! requests into the tape system's bounded queue according to a strategy
//! (Morschel et al., §4.2 and §5.2), and the run is measured.

mod config;
mod live;
mod metrics;
mod run;
mod strategy;

pub use config::{run, DatasetOrder, LibraryConfig, RecallConfig, RobotConfig, Workload};
pub use live::LiveRequester;
pub use metrics::{Metrics, Series};
pub use run::{simulate, RecallOutcome, RecallSpec};
pub use strategy::{
    ByDataset, ByTapes, DcacheRules, Pending, Queue, QueueJob, Random, Strategy, StrategyConfig,
    Tapes,
};
