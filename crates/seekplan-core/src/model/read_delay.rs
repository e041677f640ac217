//! Host delays between reads (Johnson & Miller §5.5). A drive keeps streaming
//! through a host delay up to `tolerance_s` (its read-ahead absorbs it);
//! longer delays cost their excess. A read larger than the drive's cache
//! after a delay of at least `disengage_after_s` also pays `startup_penalty_s`
//! (the tape was pulled off the head: Ampex, 7 s after >= 32 s, > 64 MB).

use serde::{Deserialize, Serialize};

/// A drive's tolerance to host delays.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadDelaySpec {
    /// Longest host delay without loss of throughput, seconds.
    pub tolerance_s: f64,
    /// Read-ahead cache, bytes (0: no cache that can hide a restart).
    #[serde(default)]
    pub cache_bytes: u64,
    /// Delay after which the tape disengages (`None`: never observed).
    #[serde(default)]
    pub disengage_after_s: Option<f64>,
    /// Seconds to restart streaming after a disengage.
    #[serde(default)]
    pub startup_penalty_s: f64,
}

impl ReadDelaySpec {
    /// Seconds the drive takes to answer a read of `bytes` at `rate_bps` that
    /// the host issues `delay_s` after the previous one returned.
    pub fn response_s(&self, bytes: u64, rate_bps: f64, delay_s: f64) -> f64 {
        let transfer = bytes as f64 / rate_bps;
        let restart = match self.disengage_after_s {
            Some(after) if delay_s >= after && bytes > self.cache_bytes => self.startup_penalty_s,
            _ => 0.0,
        };
        transfer + restart
    }

    /// Effective throughput (bytes/s) of a loop that reads `bytes` then waits
    /// `delay_s`: delays up to the tolerance are absorbed by read-ahead.
    pub fn throughput_bps(&self, bytes: u64, rate_bps: f64, delay_s: f64) -> f64 {
        let response = self.response_s(bytes, rate_bps, delay_s);
        let exposed = (delay_s - self.tolerance_s).max(0.0);
        bytes as f64 / (response + exposed)
    }
}
