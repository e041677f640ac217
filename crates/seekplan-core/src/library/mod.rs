//! A tape library under a stream of read requests: robot arms, drives that
//! load, thread, locate, read, rewind and unload, tapes holding files, and a
//! tape-system queue of bounded size that orders each tape's requests with a
//! scheduler from [`crate::order`] (Morschel et al., Figure 3).

mod campaign;
mod hardware;
mod relevance;
mod room;
mod scan;
mod spec;
mod system;

pub(crate) use campaign::prefetch;
pub use campaign::{Campaign, CampaignColumns, FileSpec, Request, TapeSpec};
pub use hardware::{
    mount, robot, ArmPool, BookedArms, DriveTiming, FifoArms, Hardware, Move, RobotTiming,
    MAX_DRIVES,
};
pub(crate) use room::RunRoom;
pub use spec::{Arrivals, LibrarySpec, ReadModel, QUEUE_ALGORITHMS};
pub use system::{Completion, MountRecord, TapeSystem};
