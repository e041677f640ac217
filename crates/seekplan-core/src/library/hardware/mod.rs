//! The one description of a tape library's hardware timing: how many drives
//! and robot arms it has and what each drive step and arm move costs. The
//! recall simulator's [`LibrarySpec`](super::LibrarySpec) holds one, the
//! archive platform builds one from its config
//! ([`Platform::hardware`](crate::archive::Platform::hardware)), and both
//! claim arms through one [`ArmPool`] trait. Johnson & Miller's measured
//! models of the same steps, with their spread and unmount policies, live
//! beside it: [`robot`] and [`mount`].

mod arms;
pub mod mount;
pub mod robot;

pub use arms::{ArmPool, BookedArms, FifoArms, Move};

use crate::error::{require_rate, require_seconds};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Most drives (and robot arms) a library may have: the largest libraries
/// sold hold a few hundred drives; beyond this a typo costs gigabytes of
/// drive state (an archive platform of 10^7 x 10^7 drives asked for 4.8 PB).
pub const MAX_DRIVES: usize = 10_000;

/// What each step of a drive costs (seconds; rate in bytes per second).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriveTiming {
    /// Native read/write rate in bytes per second.
    pub rate_bps: f64,
    /// Seconds to load a cartridge once an arm has put it in the drive.
    pub load_s: f64,
    /// Seconds to thread the tape after loading (0 where the load figure
    /// already runs to ready).
    pub thread_s: f64,
    /// Seconds to unload a rewound cartridge.
    pub unload_s: f64,
    /// Seconds to rewind before unloading (0 where the unload figure
    /// already includes the rewind).
    pub rewind_s: f64,
}

impl DriveTiming {
    /// Seconds from a cartridge in the drive to ready to read: load, thread.
    pub fn mount_s(&self) -> f64 {
        self.load_s + self.thread_s
    }

    /// Seconds from a mounted tape to a cartridge an arm can take: rewind,
    /// unload.
    pub fn dismount_s(&self) -> f64 {
        self.rewind_s + self.unload_s
    }
}

/// The robot: identical arms, each carrying one cartridge at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotTiming {
    /// Number of arms.
    pub arms: usize,
    /// Seconds for an arm to fetch a cartridge from its slot to a drive.
    pub fetch_s: f64,
    /// Seconds for an arm to return a cartridge from a drive to its slot.
    pub return_s: f64,
}

/// Drives and robot of a library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hardware {
    /// Number of tape drives.
    pub drives: usize,
    /// What each drive step costs.
    pub drive: DriveTiming,
    /// The robot's arms and moves.
    pub robot: RobotTiming,
}

impl Hardware {
    /// Checks the counts: at least one drive and one arm. Errors name the
    /// field (`drives`, `arms`).
    pub fn validate_counts(&self) -> Result<()> {
        if self.drives == 0 {
            return Err(Error::invalid("drives", "must be at least 1"));
        }
        if self.robot.arms == 0 {
            return Err(Error::invalid("arms", "must be at least 1"));
        }
        Ok(())
    }

    /// Checks the timing: a positive rate and non-negative seconds. Errors
    /// name the field (`rate_bps`, `load_s`, ..., `return_s`).
    pub fn validate_timing(&self) -> Result<()> {
        let (d, r) = (&self.drive, &self.robot);
        require_rate(&[("rate_bps", d.rate_bps)])?;
        require_seconds(&[
            ("load_s", d.load_s),
            ("thread_s", d.thread_s),
            ("unload_s", d.unload_s),
            ("rewind_s", d.rewind_s),
            ("fetch_s", r.fetch_s),
            ("return_s", r.return_s),
        ])?;
        Ok(())
    }
}
