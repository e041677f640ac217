//! What a mount replay measured: loads, latency (request → cartridge ready
//! for it), utilisation of drives and robots, handbot waits.

use super::trace::MountTrace;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Points of the latency distribution reported: 0 %, 1 %, ..., 100 %.
pub const QUANTILES: usize = 101;

/// The outcome of one replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MountMetrics {
    /// Requests replayed.
    pub requests: u64,
    /// Cartridges the trace names.
    pub cartridges: u64,
    /// Drives in the library.
    pub drives: u64,
    /// Cartridges loaded into a drive.
    pub loads: u64,
    /// Loads that first dismounted an idle cartridge (the eviction policy chose it).
    pub evictions: u64,
    /// Cartridges unloaded (evicted, or their dismount delay ran out).
    pub unloads: u64,
    /// Requests whose cartridge was in (or on its way to) a drive when they came.
    pub hits: u64,
    /// Mean seconds from a request to its cartridge being ready for it.
    pub latency_mean_s: f64,
    /// Median latency, seconds.
    pub latency_p50_s: f64,
    /// 95th percentile of latency, seconds.
    pub latency_p95_s: f64,
    /// 99th percentile of latency, seconds.
    pub latency_p99_s: f64,
    /// Longest latency, seconds.
    pub latency_max_s: f64,
    /// Latency at 0 %, 1 %, ..., 100 % of requests, seconds (for a CDF).
    pub latency_quantiles_s: Vec<f64>,
    /// Share of drive time spent serving requests, over the replay's span.
    pub drive_utilisation: f64,
    /// Share of robot (handbot or arm) time spent moving, over the span.
    pub robot_utilisation: f64,
    /// Seconds handbots waited for the other handbot on their rail.
    pub handbot_wait_s: f64,
    /// Moves that waited for the other handbot.
    pub handbot_waits: u64,
    /// Seconds from the first request to the end of the last (what the
    /// utilisations are shares of; the dismounts after it are not counted).
    pub span_s: f64,
}

/// Counts gathered during a replay.
pub(crate) struct Tally {
    latency: Vec<f32>,
    busy_s: f64,
    last_done: f64,
    pub hits: u64,
    pub loads: u64,
    pub evictions: u64,
    pub unloads: u64,
}

impl Tally {
    pub fn new(requests: usize) -> Self {
        Tally {
            latency: vec![0.0; requests],
            busy_s: 0.0,
            last_done: 0.0,
            hits: 0,
            loads: 0,
            evictions: 0,
            unloads: 0,
        }
    }

    /// Request `i` starts on its drive after `waited` seconds, for `busy` seconds.
    pub fn started(&mut self, i: u32, waited: f64, busy: f64) {
        self.latency[i as usize] = waited as f32;
        self.busy_s += busy;
    }

    /// A request ended at `t`.
    pub fn done(&mut self, t: f64) {
        self.last_done = self.last_done.max(t);
    }

    pub fn finish(
        mut self,
        trace: &MountTrace,
        drives: usize,
        robot_busy_s: f64,
        robots: usize,
        handbot_wait_s: f64,
        handbot_waits: u64,
    ) -> MountMetrics {
        let n = self.latency.len();
        let first = trace.time_s.first().copied().unwrap_or(0.0);
        let span = (self.last_done - first).max(0.0);
        let mean = if n == 0 {
            0.0
        } else {
            self.latency.iter().map(|&x| f64::from(x)).sum::<f64>() / n as f64
        };
        self.latency.sort_unstable_by(f32::total_cmp);
        let at = |q: f64| -> f64 {
            if n == 0 {
                return 0.0;
            }
            let k = ((q * (n - 1) as f64).round() as usize).min(n - 1);
            f64::from(self.latency[k])
        };
        let share = |used: f64, units: usize| {
            if span > 0.0 {
                (used / (span * units as f64)).min(1.0)
            } else {
                0.0
            }
        };
        MountMetrics {
            requests: n as u64,
            cartridges: trace.cartridges as u64,
            drives: drives as u64,
            loads: self.loads,
            evictions: self.evictions,
            unloads: self.unloads,
            hits: self.hits,
            latency_mean_s: mean,
            latency_p50_s: at(0.5),
            latency_p95_s: at(0.95),
            latency_p99_s: at(0.99),
            latency_max_s: at(1.0),
            latency_quantiles_s: (0..QUANTILES)
                .map(|k| at(k as f64 / (QUANTILES - 1) as f64))
                .collect(),
            drive_utilisation: share(self.busy_s, drives),
            robot_utilisation: share(robot_busy_s, robots),
            handbot_wait_s,
            handbot_waits,
            span_s: span,
        }
    }
}
