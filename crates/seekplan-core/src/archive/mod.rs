//! Archival write policies of the Blue Waters study (RAIT, PARALLEL,
//! VERTICAL, HETERO): where each block of a file goes on which tape, and the
//! platform, Main-Scheduler and Load-Balancer that serve read and write
//! requests with them.

mod config;
mod layout;
mod layout_parallel;
mod layout_rait;
mod layout_vertical;
mod platform;
mod scheme;
mod simulate;
mod workload;

pub use config::{
    table1, ArchiveConfig, Platform, PolicyName, SchedulerParams, SchemeShare, Workload,
};
pub use layout::{phys_bytes, Content, FileSpec, Piece, Record, TapeId, Tapes, Unit, Writer};
pub use layout_parallel::ParallelWriter;
pub use layout_rait::RaitWriter;
pub use layout_vertical::VerticalWriter;
pub use scheme::{Policy, PolicyChoice, Scheme};
pub use simulate::{simulate, ArchiveMetrics};
pub use workload::{generate, Generated, Kind, Request};
