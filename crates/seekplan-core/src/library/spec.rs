//! The figures of a simulated library.

use crate::order::Algorithm;
use crate::{Error, Result};
use serde::Deserialize;

/// Ordering algorithms fast enough for a tape-system queue.
pub const QUEUE_ALGORITHMS: [Algorithm; 5] = [
    Algorithm::Fifo,
    Algorithm::Sort,
    Algorithm::Scan,
    Algorithm::Sltf,
    Algorithm::MpScan,
];

/// Drives, robot and tape-system queue of a library (seconds, bytes).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibrarySpec {
    /// Number of tape drives.
    pub drives: usize,
    /// Drive read rate in bytes per second.
    pub rate_bps: f64,
    /// Seconds to load a cartridge once the robot has put it in the drive.
    pub load_s: f64,
    /// Seconds to thread the tape after loading.
    pub thread_s: f64,
    /// Seconds to unload a rewound cartridge.
    pub unload_s: f64,
    /// Seconds to rewind before unloading.
    pub rewind_s: f64,
    /// Seconds to wind across the whole tape (linear locate model).
    pub wind_s: f64,
    /// Fixed seconds added to every locate.
    pub locate_overhead_s: f64,
    /// Bytes per logical block (the unit of `block` in a campaign).
    pub block_bytes: u64,
    /// Number of robot arms.
    pub arms: usize,
    /// Seconds for an arm to fetch a cartridge from its slot to a drive.
    pub fetch_s: f64,
    /// Seconds for an arm to return a cartridge from a drive to its slot.
    pub return_s: f64,
    /// Maximum number of requests in the tape system (queued or being read).
    pub queue_size: usize,
    /// Name of the ordering algorithm applied to each tape's requests.
    pub order: String,
}

impl LibrarySpec {
    /// Checks every figure and returns the ordering algorithm.
    pub fn validate(&self) -> Result<Algorithm> {
        if self.drives == 0 {
            return Err(Error::invalid("drives", "must be at least 1"));
        }
        if self.arms == 0 {
            return Err(Error::invalid("arms", "must be at least 1"));
        }
        if self.queue_size == 0 {
            return Err(Error::invalid("queue_size", "must be at least 1"));
        }
        if self.block_bytes == 0 {
            return Err(Error::invalid("block_bytes", "must be positive"));
        }
        if !(self.rate_bps.is_finite() && self.rate_bps > 0.0) {
            return Err(Error::invalid("rate_bps", "must be positive"));
        }
        for (field, v) in [
            ("load_s", self.load_s),
            ("thread_s", self.thread_s),
            ("unload_s", self.unload_s),
            ("rewind_s", self.rewind_s),
            ("wind_s", self.wind_s),
            ("locate_overhead_s", self.locate_overhead_s),
            ("fetch_s", self.fetch_s),
            ("return_s", self.return_s),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::invalid(
                    field,
                    format!("must be a non-negative number of seconds, got {v}"),
                ));
            }
        }
        let algo: Algorithm = self
            .order
            .parse()
            .map_err(|_| Error::invalid("order", format!("unknown algorithm {:?}", self.order)))?;
        // A tape queue holds thousands of requests and is re-ordered after
        // reads: only the algorithms that stay fast there are allowed.
        if !QUEUE_ALGORITHMS.contains(&algo) {
            let names: Vec<_> = QUEUE_ALGORITHMS.iter().map(|a| a.name()).collect();
            return Err(Error::invalid(
                "order",
                format!(
                    "{} is too slow to re-order a tape queue after every read; choose one of {}",
                    algo.name(),
                    names.join(", ")
                ),
            ));
        }
        Ok(algo)
    }
}
