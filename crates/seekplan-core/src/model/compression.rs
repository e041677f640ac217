//! Drive compression (Johnson & Miller §5.6): the drive's compression ratio is
//! linear in the data's gzip ratio C, and throughput approaches an asymptote,
//! `TH = 1 / (a + b / C)` MB/s.

use serde::{Deserialize, Serialize};

/// `TH = 1 / (a + b / C)` in MB/s (10^6 bytes), C the gzip ratio.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Throughput {
    /// Fixed seconds per MB.
    pub a: f64,
    /// Seconds per MB of gzip-compressed data.
    pub b: f64,
}

impl Throughput {
    /// Throughput in bytes per second for data of gzip ratio `gzip`.
    pub fn rate_bps(&self, gzip: f64) -> f64 {
        1e6 / (self.a + self.b / gzip)
    }

    /// The asymptote as C grows (Table 4 "max. compressed transfer rate"), bytes/s.
    pub fn max_rate_bps(&self) -> f64 {
        1e6 / self.a
    }
}

/// A drive's compression behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompressionSpec {
    /// Drive ratio at C = 0 (Table 4 "compression rate" intercept).
    pub ratio_intercept: f64,
    /// Drive ratio gained per unit of gzip ratio.
    pub ratio_slope: f64,
    /// Read throughput line.
    pub read: Throughput,
    /// Write throughput line.
    pub write: Throughput,
}

impl CompressionSpec {
    /// The drive's compression ratio for data of gzip ratio `gzip` (at least 1).
    pub fn drive_ratio(&self, gzip: f64) -> f64 {
        (self.ratio_intercept + self.ratio_slope * gzip).max(1.0)
    }

    /// Bytes of such data that fit on a tape of `native_bytes`.
    pub fn capacity_bytes(&self, native_bytes: u64, gzip: f64) -> f64 {
        native_bytes as f64 * self.drive_ratio(gzip)
    }
}
