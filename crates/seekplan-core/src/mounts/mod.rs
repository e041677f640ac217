//! Cartridge management on a mount-level trace (issue 37): how long a drive
//! keeps an idle cartridge (dismount), which idle cartridge makes room
//! (eviction), where a cartridge goes back (placement), on a library whose
//! robot moves take a constant time or follow its geometry. The untimed
//! model gives Belady's minimum of loads, the floor no policy can beat.

mod config;
mod engine;
mod eviction;
mod floor;
mod geometry;
mod metrics;
mod trace;

pub use config::{
    Dismount, EvictionPolicy, Library, MountConfig, Placement, HOT_REFERENCES, MAX_DRIVES,
    MAX_SECONDS,
};
pub use engine::replay;
pub use eviction::Evictor;
pub use floor::{check_untimed, next_requests, untimed_loads};
pub use geometry::{ConstantRobot, Geometry, GeometryRobot, Move};
pub use metrics::{MountMetrics, QUANTILES};
pub use trace::{MountTrace, MAX_REQUESTS, MAX_SPAN_S};
