//! Archival write policies of the Blue Waters study (RAIT, PARALLEL,
//! VERTICAL, HETERO): where each block of a file goes on which tape, and the
//! platform, Main-Scheduler and Load-Balancer that serve read and write
//! requests with them.

mod config;
mod layout;
mod platform;
mod scheme;
mod sim;
mod workload;

pub use config::{
    table1, ArchiveConfig, Platform, PolicyChoice, SchedulerParams, SchemeShare, Workload,
};
pub use layout::{
    phys_bytes, Content, FileSpec, Layout, ParallelWriter, Piece, Policy, PolicyName, RaitWriter,
    Record, TapeId, Tapes, Unit, VerticalWriter, Writer,
};
pub use scheme::Scheme;
pub use sim::{simulate, ArchiveMetrics};
pub use workload::{generate, Generated, Kind, Request};
