//! A mount-level trace: each request names a time, a cartridge (numbered
//! from 0 by the reader) and the seconds the cartridge keeps a drive busy.

use super::config::{shown, MAX_SECONDS};
use crate::{Error, Result};

/// Most requests one trace may hold (the indices are u32).
pub const MAX_REQUESTS: usize = (u32::MAX - 1) as usize;
/// Longest span of arrival times, seconds (a century): far beyond any log,
/// and short enough that sums of times keep sub-millisecond precision.
pub const MAX_SPAN_S: f64 = 100.0 * 365.0 * 86_400.0;

/// Cartridge requests in arrival order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MountTrace {
    /// Arrival of each request, seconds, non-decreasing.
    pub time_s: Vec<f64>,
    /// Cartridge of each request, below `cartridges`.
    pub cartridge: Vec<u32>,
    /// Seconds each request keeps its drive busy once the cartridge is in.
    pub busy_s: Vec<f64>,
    /// Cartridges the trace names.
    pub cartridges: usize,
}

impl MountTrace {
    /// Requests in the trace.
    pub fn len(&self) -> usize {
        self.time_s.len()
    }

    /// True when the trace has no request.
    pub fn is_empty(&self) -> bool {
        self.time_s.is_empty()
    }

    /// Fails, naming the request (1-based), unless times are finite, in
    /// order and within [`MAX_SPAN_S`] of the first, busy times in
    /// `0..=MAX_SECONDS`, cartridges in range.
    pub fn validate(&self) -> Result<()> {
        let n = self.len();
        if self.cartridge.len() != n || self.busy_s.len() != n {
            return Err(Error::invalid(
                "trace",
                "time, cartridge and busy columns differ in length",
            ));
        }
        if n > MAX_REQUESTS {
            return Err(Error::invalid(
                "trace",
                format!("at most {MAX_REQUESTS} requests, got {n}"),
            ));
        }
        if self.cartridges > MAX_REQUESTS {
            return Err(Error::invalid("trace", "too many cartridges"));
        }
        let mut last = f64::NEG_INFINITY;
        for i in 0..n {
            let (t, c, b) = (self.time_s[i], self.cartridge[i], self.busy_s[i]);
            let at = || format!("request {}", i + 1);
            if !t.is_finite() || t < last {
                return Err(Error::invalid(
                    at(),
                    format!(
                        "time {} is not finite or comes before the previous {}",
                        shown(t),
                        shown(last)
                    ),
                ));
            }
            if t - self.time_s[0] > MAX_SPAN_S {
                return Err(Error::invalid(
                    at(),
                    format!(
                        "time {} is more than a century ({MAX_SPAN_S} s) after the first",
                        shown(t)
                    ),
                ));
            }
            if !b.is_finite() || !(0.0..=MAX_SECONDS).contains(&b) {
                return Err(Error::invalid(
                    at(),
                    format!(
                        "busy time {} must be between 0 and {MAX_SECONDS} s (a year)",
                        shown(b)
                    ),
                ));
            }
            if c as usize >= self.cartridges {
                return Err(Error::invalid(
                    at(),
                    format!("cartridge {c} outside 0..{}", self.cartridges),
                ));
            }
            last = t;
        }
        Ok(())
    }
}
