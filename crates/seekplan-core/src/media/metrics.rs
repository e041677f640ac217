//! What a run measured: D-request response times and fairness, glitches,
//! queue left at each round's end, and the time C-requests take.

use super::trace::{RoundTrace, Served};
use serde::Serialize;

/// Running sums a simulation updates as it serves requests.
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    d_served: u64,
    d_response_sum: f64,
    d_response_sq: f64,
    d_response_max: f64,
    c_served: u64,
    glitches: u64,
    rounds: u64,
    unserved_sum: u64,
    c_busy_s: f64,
    c_scan_s: f64,
    round_s: f64,
    trace: Option<Vec<RoundTrace>>,
}

impl Metrics {
    /// Empty sums for rounds of `round_s` seconds.
    pub fn new(round_s: f64) -> Self {
        Metrics {
            round_s,
            ..Default::default()
        }
    }

    /// The same sums, also recording every round's services.
    pub fn traced(self) -> Self {
        Metrics {
            trace: Some(Vec::new()),
            ..self
        }
    }

    /// Whether services are being recorded.
    pub fn is_tracing(&self) -> bool {
        self.trace.is_some()
    }

    /// A round from `start_s` to `end_s` begins (recorded when tracing).
    pub fn round_begin(&mut self, start_s: f64, end_s: f64) {
        if let Some(t) = &mut self.trace {
            t.push(RoundTrace {
                start_s,
                end_s,
                ..Default::default()
            });
        }
    }

    /// Records a service in the current round (when tracing).
    pub fn record(&mut self, served: Served) {
        if let Some(round) = self.current() {
            round.served.push(served);
        }
    }

    /// The recorded rounds (None unless tracing), leaving none behind.
    pub fn take_trace(&mut self) -> Option<Vec<RoundTrace>> {
        self.trace.take()
    }

    fn current(&mut self) -> Option<&mut RoundTrace> {
        self.trace.as_mut().and_then(|t| t.last_mut())
    }

    /// A D-request finished `response_s` after it arrived.
    pub fn d_done(&mut self, response_s: f64) {
        if let Some(round) = self.current() {
            round.d_response_s += response_s;
        }
        self.d_served += 1;
        self.d_response_sum += response_s;
        self.d_response_sq += response_s * response_s;
        self.d_response_max = self.d_response_max.max(response_s);
    }

    /// A C-request was served, taking `service_s`; `late` if after its round.
    pub fn c_done(&mut self, service_s: f64, late: bool) {
        if let Some(round) = self.current() {
            round.c_busy_s += service_s;
            round.glitches += u64::from(late);
        }
        self.c_served += 1;
        self.c_busy_s += service_s;
        if late {
            self.glitches += 1;
        }
    }

    /// `n` C-requests were never served in their round.
    pub fn c_missed(&mut self, n: usize) {
        if let Some(round) = self.current() {
            round.glitches += n as u64;
        }
        self.glitches += n as u64;
    }

    /// A round ended with `unserved` D-requests waiting; SCAN over its
    /// C-requests alone would have taken `c_scan_s`.
    pub fn round_done(&mut self, unserved: usize, c_scan_s: f64) {
        self.rounds += 1;
        self.unserved_sum += unserved as u64;
        self.c_scan_s += c_scan_s;
    }

    /// The summary reported to users.
    pub fn summary(&self, saturated: bool) -> Summary {
        let n = self.d_served as f64;
        let rounds = self.rounds.max(1) as f64;
        Summary {
            rounds: self.rounds,
            d_served: self.d_served,
            d_mean_response_s: if n > 0.0 {
                self.d_response_sum / n
            } else {
                f64::NAN
            },
            d_max_response_s: self.d_response_max,
            fairness: fairness(self.d_response_sum, self.d_response_sq, self.d_served),
            glitches: self.glitches,
            c_served: self.c_served,
            unserved_per_round: self.unserved_sum as f64 / rounds,
            c_busy_fraction: self.c_busy_s / (rounds * self.round_s),
            c_scan_fraction: self.c_scan_s / (rounds * self.round_s),
            saturated,
        }
    }
}

/// Jain's fairness index, equation (2): `(sum x)^2 / (n * sum x^2)`, from
/// the sums; NaN when nothing was served.
pub fn fairness(sum: f64, sum_sq: f64, n: u64) -> f64 {
    if n == 0 || sum_sq <= 0.0 {
        f64::NAN
    } else {
        sum * sum / (n as f64 * sum_sq)
    }
}

/// One run's results.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Rounds simulated (fewer than asked if the run saturated).
    pub rounds: u64,
    /// D-requests served.
    pub d_served: u64,
    /// Mean D-request response time (wait + service), seconds.
    pub d_mean_response_s: f64,
    /// Longest D-request response time, seconds.
    pub d_max_response_s: f64,
    /// Fairness index of D-request response times (eq. 2), 0..1.
    pub fairness: f64,
    /// C-requests that missed their round.
    pub glitches: u64,
    /// C-requests served.
    pub c_served: u64,
    /// Mean number of D-requests waiting when a round ends.
    pub unserved_per_round: f64,
    /// Fraction of each round spent serving C-requests (as scheduled).
    pub c_busy_fraction: f64,
    /// Fraction of each round a SCAN over the C-requests alone would take.
    pub c_scan_fraction: f64,
    /// The D-queue outgrew `queue_limit` and the run stopped early.
    pub saturated: bool,
}
