//! The requester strategies, by the names users type.

use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// Seconds between two runs of the scheduler while nothing else happens.
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

/// How the requester chooses what to pass on to the tape system.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
#[serde(tag = "name", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Strategy {
    /// Requests in uniformly random order (the paper's benchmark).
    Random,
    /// Requests in arrival order (the datasets in the order requested).
    ByDataset,
    /// Requests clustered by tape, `tapes` tapes at a time, round-robin.
    ByTapes {
        /// Number of tapes whose requests are passed on in parallel.
        tapes: usize,
    },
    /// dCache's bring-online clustering rules.
    Dcache(DcacheRules),
}

impl Strategy {
    /// Checks the strategy's knobs.
    pub fn validate(&self) -> Result<()> {
        match self {
            Strategy::ByTapes { tapes: 0 } => {
                Err(Error::invalid("strategy.tapes", "must be at least 1"))
            }
            Strategy::Dcache(r) => {
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
            _ => Ok(()),
        }
    }
}
