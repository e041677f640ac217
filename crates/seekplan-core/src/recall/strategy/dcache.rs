//! `dcache`: dCache's bring-online clustering (§5.2) with the rules and
//! defaults of its `srmmanager.boclustering.*` properties.

use super::clusters::{Clusters, TapePending};
use super::{Pending, Queue, StrategyConfig, Tapes};
use crate::library::Request;
use crate::sim::Time;
use crate::{Error, Result};
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// dCache's tape-recall scheduling rules (§5.2). Defaults are the documented
/// `srmmanager.boclustering.*` defaults of the dCache book.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DcacheRules {
    /// Tapes whose requests may be passed on at the same time.
    pub max_active_tapes: usize,
    /// A tape is selectable only once its newest request is this old (s).
    pub min_time_in_queue_s: f64,
    /// A tape whose oldest request is this old (s) is selected first.
    pub max_time_in_queue_s: f64,
    /// Requested volume, in % of the tape's capacity, that makes the tape
    /// with most requested volume selectable.
    pub min_tape_recall_pct: f64,
    /// Requested volume, in % of the tape's used space, that counts as
    /// passing `min_tape_recall_pct` too.
    pub min_used_pct: f64,
    /// Number of requests that makes a tape selectable (None: disabled).
    pub min_request_count: Option<usize>,
    /// Requests without tape information are passed on after this many
    /// seconds (None: only when they expire after `max_time_in_queue_s`).
    pub tapeinfo_timeout_s: Option<f64>,
    /// Seconds between two runs of the scheduler while nothing else happens;
    /// a run wakes at most ten million times (`duration_h` × 3600 / this).
    pub check_interval_s: f64,
}

impl Default for DcacheRules {
    fn default() -> Self {
        DcacheRules {
            max_active_tapes: 1,             // max-active-tapes = 1
            min_time_in_queue_s: 120.0,      // min-time-in-queue = 2 MINUTES
            max_time_in_queue_s: 172_800.0,  // max-time-in-queue = 2 DAYS
            min_tape_recall_pct: 60.0,       // min-tape-recall-percentage = 60
            min_used_pct: 95.0,              // "over 95 percent of the contained volume"
            min_request_count: Some(1000),   // min-request-count-for-tape = 1000
            tapeinfo_timeout_s: Some(600.0), // time-in-queue-for-jobs-without-tapeinfo = 10 MINUTES
            check_interval_s: 60.0,          // how often the scheduler re-runs (our choice)
        }
    }
}

impl StrategyConfig for DcacheRules {
    fn validate(&self) -> Result<()> {
        let r = self;
        if r.max_active_tapes == 0 {
            return Err(Error::invalid(
                "strategy.max_active_tapes",
                "must be at least 1",
            ));
        }
        for (field, v) in [
            ("strategy.min_time_in_queue_s", r.min_time_in_queue_s),
            ("strategy.max_time_in_queue_s", r.max_time_in_queue_s),
            ("strategy.min_tape_recall_pct", r.min_tape_recall_pct),
            ("strategy.min_used_pct", r.min_used_pct),
            (
                "strategy.tapeinfo_timeout_s",
                r.tapeinfo_timeout_s.unwrap_or(0.0),
            ),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::invalid(field, "must be non-negative"));
            }
        }
        if !(r.check_interval_s.is_finite() && r.check_interval_s > 0.0) {
            return Err(Error::invalid(
                "strategy.check_interval_s",
                "must be positive",
            ));
        }
        Ok(())
    }

    fn wake_interval_s(&self) -> Option<f64> {
        Some(self.check_interval_s)
    }

    fn build<'a>(&self, tapes: &Tapes<'_, 'a>, _: ChaCha8Rng) -> Queue<'a> {
        // Untaped requests leave gaps in a tape's run of the campaign: the
        // rules keep their own copies.
        Queue::Dcache(DcachePending {
            rules: self.clone(),
            clusters: Clusters::new(tapes, self.max_active_tapes, false),
            untaped: VecDeque::new(),
        })
    }
}

/// Requests pending under dCache's rules.
pub struct DcachePending<'a> {
    rules: DcacheRules,
    clusters: Clusters<'a>,
    /// Requests without tape information, with their arrival times.
    untaped: VecDeque<(Request, Time)>,
}

impl Pending for DcachePending<'_> {
    fn arrive(&mut self, request: Request, tape_known: bool, now: Time) {
        if !tape_known {
            self.untaped.push_back((request, now));
            return;
        }
        self.clusters.add(request, now);
    }

    fn take(&mut self, now: Time) -> Option<Request> {
        let rules = &self.rules;
        let timeout = rules
            .tapeinfo_timeout_s
            .unwrap_or(rules.max_time_in_queue_s);
        if let Some(&(request, at)) = self.untaped.front() {
            if now - at >= timeout {
                self.untaped.pop_front();
                return Some(request);
            }
        }
        self.clusters.take(now, |c, now| select(rules, c, now))
    }

    fn next_wake(&self) -> Option<f64> {
        let waiting = !self.untaped.is_empty() || self.clusters.any_waiting();
        waiting.then_some(self.rules.check_interval_s)
    }
}

/// The next tape to activate, or None if no tape is eligible now.
fn select(rules: &DcacheRules, c: &Clusters, now: Time) -> Option<u32> {
    // 1. A tape with an expired request: the one with the oldest request.
    let expired = c
        .candidates()
        .filter(|(_, p)| now - p.arrivals[0] >= rules.max_time_in_queue_s)
        .min_by(|a, b| a.1.arrivals[0].total_cmp(&b.1.arrivals[0]));
    if let Some((t, _)) = expired {
        return Some(t as u32);
    }
    // 2. Among tapes quiet for min_time_in_queue, the one with the most
    //    requested volume, if it passes the volume threshold.
    let quiet = || {
        c.candidates()
            .filter(|(_, p)| now - p.last_arrival >= rules.min_time_in_queue_s)
    };
    let passes_volume = |t: usize, p: &TapePending| {
        let tape = c.specs[t];
        let bytes = p.bytes as f64;
        bytes >= rules.min_tape_recall_pct / 100.0 * tape.capacity as f64
            || bytes >= rules.min_used_pct / 100.0 * tape.used as f64
    };
    let top = quiet().max_by(|a, b| a.1.bytes.cmp(&b.1.bytes).then(b.0.cmp(&a.0)));
    if let Some((t, p)) = top {
        if passes_volume(t, p) {
            return Some(t as u32);
        }
    }
    // 3. Otherwise a tape with enough requests: the one with most volume.
    let min_count = rules.min_request_count?;
    quiet()
        .filter(|(_, p)| p.len >= min_count)
        .max_by(|a, b| a.1.bytes.cmp(&b.1.bytes).then(b.0.cmp(&a.0)))
        .map(|(t, _)| t as u32)
}
