//! The figures of a simulated library.

use super::Hardware;
use crate::error::require_seconds;
use crate::order::Algorithm;
use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// Drives and robot: counts and timing.
    pub hardware: Hardware,
    /// How long reading a file takes.
    pub read_model: ReadModel,
    /// What happens to requests arriving for a tape while its batch is read.
    pub arrivals: Arrivals,
    /// Bytes per logical block (the unit of `block` in a campaign).
    pub block_bytes: u64,
    /// Maximum number of requests in the tape system (queued or being read).
    pub queue_size: usize,
    /// Name of the ordering algorithm applied to each tape's requests.
    pub order: String,
}

impl LibrarySpec {
    /// Checks every figure and returns the ordering algorithm.
    pub fn validate(&self) -> Result<Algorithm> {
        self.hardware.validate_counts()?;
        if self.queue_size == 0 {
            return Err(Error::invalid("queue_size", "must be at least 1"));
        }
        if self.block_bytes == 0 {
            return Err(Error::invalid("block_bytes", "must be positive"));
        }
        self.hardware.validate_timing()?;
        self.read_model.validate()?;
        let algo: Algorithm = self
            .order
            .parse()
            .map_err(|_| Error::invalid("order", format!("unknown algorithm {:?}", self.order)))?;
        // A batch holds up to a whole tape's requests (thousands): only the
        // algorithms that stay fast there are allowed.
        if !QUEUE_ALGORITHMS.contains(&algo) {
            let names: Vec<_> = QUEUE_ALGORITHMS.iter().map(|a| a.name()).collect();
            return Err(Error::invalid(
                "order",
                format!(
                    "{} is too slow to order a tape's batch of queued requests; choose one of {}",
                    algo.name(),
                    names.join(", ")
                ),
            ));
        }
        Ok(algo)
    }
}

/// How long a drive takes to read a file (issue 12).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ReadModel {
    /// The dCache paper's model (Morschel et al., §3.2): a drive's read
    /// performance follows "the overall percentage of data recalled in the
    /// current session", full speed once over `full_at` of the tape is read.
    /// A file of `size` bytes takes `size / (rate * e(f))` seconds, where `f`
    /// is the session's volume (bytes read since the mount plus bytes queued
    /// for the tape) over the tape's capacity and
    /// `e(f) = floor + (1 - floor) * min(1, f / full_at)^exponent`.
    /// Locates are inside `e`; each batch is still read in on-tape order.
    SessionFraction {
        /// Efficiency of a session recalling almost nothing: one mean KIT
        /// file (2.22 GB, §4.1: 1.1 PB / 495,049 files) takes 8.8 s at
        /// 252 MB/s after the 50 s tape access of §3.1: 8.8 / 58.8 = 0.15
        /// (inferred from the paper's figures, not fitted to Table 1).
        #[serde(default = "default_floor")]
        floor: f64,
        /// Share of the tape's capacity from which the drive reads at full
        /// rate (§3.2: "over 80 percent of its capacity").
        #[serde(default = "default_full_at")]
        full_at: f64,
        /// Shape between the two (1: linear; our choice, the paper gives
        /// only the end point and that performance falls with the share).
        #[serde(default = "default_exponent")]
        exponent: f64,
    },
    /// Locate plus read on a linear tape: a locate costs `locate_overhead_s`
    /// plus `wind_s` times the fraction of the tape crossed; reads run at
    /// the drive's rate.
    Positional {
        /// Seconds to wind across the whole tape (our choice: the T10000D's
        /// 97 s average rewind, §4.2; the paper gives no locate figure).
        #[serde(default = "default_wind_s")]
        wind_s: f64,
        /// Fixed seconds added to every locate.
        #[serde(default)]
        locate_overhead_s: f64,
    },
}

fn default_floor() -> f64 {
    0.15
}

fn default_full_at() -> f64 {
    0.8
}

fn default_exponent() -> f64 {
    1.0
}

fn default_wind_s() -> f64 {
    97.0
}

impl Default for ReadModel {
    fn default() -> Self {
        ReadModel::SessionFraction {
            floor: default_floor(),
            full_at: default_full_at(),
            exponent: default_exponent(),
        }
    }
}

impl ReadModel {
    /// Checks the model's figures; errors name the field under `read_model`.
    pub fn validate(&self) -> Result<()> {
        let bad = |field: &str, message: &str| {
            Err(Error::invalid(format!("read_model.{field}"), message))
        };
        match *self {
            ReadModel::SessionFraction {
                floor,
                full_at,
                exponent,
            } => {
                if !(floor > 0.0 && floor <= 1.0) {
                    return bad("floor", "must be in (0, 1]");
                }
                if !(full_at > 0.0 && full_at <= 1.0) {
                    return bad("full_at", "must be in (0, 1]");
                }
                if !(exponent.is_finite() && exponent > 0.0) {
                    return bad("exponent", "must be positive");
                }
            }
            ReadModel::Positional {
                wind_s,
                locate_overhead_s,
            } => {
                require_seconds(&[("wind_s", wind_s), ("locate_overhead_s", locate_overhead_s)])
                    .map_err(|e| e.in_section("read_model"))?;
            }
        }
        Ok(())
    }

    /// Drive efficiency (share of the nominal rate) of a session that
    /// recalls `fraction` of the tape's capacity; 1 for the positional model.
    pub fn efficiency(&self, fraction: f64) -> f64 {
        match *self {
            ReadModel::SessionFraction { full_at, .. } => {
                self.efficiency_of_full(fraction / full_at)
            }
            ReadModel::Positional { .. } => 1.0,
        }
    }

    /// Drive efficiency of a session whose volume is `share` of the volume
    /// read at full rate (`full_at` of the capacity): the recall simulator
    /// works `share` out with one multiplication by a tape's
    /// `1 / (capacity * full_at)` rather than two divisions (the clustered
    /// q2000 Table-1 runs 6-10 % faster; the last bits differ from
    /// `efficiency`'s).
    pub fn efficiency_of_full(&self, share: f64) -> f64 {
        match *self {
            ReadModel::SessionFraction {
                floor, exponent, ..
            } => {
                let x = share.min(1.0);
                floor + (1.0 - floor) * if exponent == 1.0 { x } else { x.powf(exponent) }
            }
            ReadModel::Positional { .. } => 1.0,
        }
    }

    /// `1 / (capacity * full_at)` for a tape of `capacity` bytes, the factor
    /// [`ReadModel::efficiency_of_full`]'s share is worked out with (0 for
    /// the positional model).
    pub fn per_full_volume(&self, capacity: u64) -> f64 {
        match *self {
            ReadModel::SessionFraction { full_at, .. } => 1.0 / (capacity as f64 * full_at),
            ReadModel::Positional { .. } => 0.0,
        }
    }

    /// The wind time and per-locate overhead of the locate model used to
    /// order batches (and, for the positional model, to time locates). The
    /// session-fraction model orders by position with the rewind time as
    /// wind (only the order matters there).
    pub fn locate_figures(&self, rewind_s: f64) -> (f64, f64) {
        match *self {
            ReadModel::SessionFraction { .. } => (rewind_s, 0.0),
            ReadModel::Positional {
                wind_s,
                locate_overhead_s,
            } => (wind_s, locate_overhead_s),
        }
    }
}

/// What happens to a request that reaches the tape-system queue for a tape
/// whose batch a drive is reading. `next-batch` (default): it waits until
/// the batch is done; the drive is then assigned "the next most relevant
/// cartridge and associated requests" (Figure 3, step 3), which is its own
/// tape again unless an unheld tape has more queued bytes. `insert`: it
/// joins the batch where it adds least locate time (cheapest insertion),
/// so a batch ends only when its tape has nothing queued. The default
/// follows Figure 3, which describes the paper's simulator as that loop of
/// assignment and reading; `insert` reads §4.3's "trickle of requests that
/// trigger reordering" literally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Arrivals {
    /// Wait for the next batch.
    #[default]
    NextBatch,
    /// Cheapest insertion into the batch being read.
    Insert,
}

#[cfg(test)]
mod tests {
    use super::ReadModel;

    #[test]
    fn the_share_by_one_multiplication_is_the_fraction_over_full_at() {
        let model = ReadModel::SessionFraction {
            floor: 0.15,
            full_at: 0.8,
            exponent: 1.5,
        };
        let capacity = 8_500_000_000_000u64;
        for session in [
            0,
            1,
            2_220_000_000,
            4_000_000_000_000,
            capacity,
            2 * capacity,
        ] {
            let fraction = session as f64 / capacity as f64;
            let share = session as f64 * model.per_full_volume(capacity);
            let (ours, exact) = (model.efficiency_of_full(share), model.efficiency(fraction));
            assert!(
                (ours - exact).abs() <= 4.0 * f64::EPSILON * exact,
                "{session}"
            );
        }
        let positional = ReadModel::Positional {
            wind_s: 97.0,
            locate_overhead_s: 0.0,
        };
        assert_eq!(positional.efficiency_of_full(0.3), 1.0);
    }
}
