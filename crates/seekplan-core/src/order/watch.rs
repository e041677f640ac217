//! When `best` stops improving, and what it tells the caller about it: the
//! lower bound it must beat, the gap it may stop at, the deadline, the CPU
//! of each phase and when the best tour was found.
//!
//! `best` stops as soon as its tour is within the target gap of its lower
//! bound (gap 0: the tour is proven optimal), at the caller's time limit,
//! or when its improvement budget is spent, whichever comes first.

use super::Options;
use crate::stop::{Beat, Stop};
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A tour within this fraction of the bound counts as meeting it: the two
/// are sums of the same costs in different orders (at 10,000 terms they
/// differ by ~1e-12 of the total), and the 1-tree bounds are lowered by a
/// billionth of themselves for their own rounding
/// ([`super::bound::rounded_down`]).
pub(crate) const ROUNDING: f64 = 1e-9;

/// How often, at most, the caller's progress callback hears from a run.
const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Why an improving search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// The tour meets the lower bound (or an exact search finished): no
    /// order is cheaper.
    Optimal,
    /// The tour is within the caller's target gap of the lower bound.
    Gap,
    /// The caller's time limit ran out.
    Time,
    /// The improvement budget (kicks, or the patience of each phase) ran
    /// out with the gap still open.
    Budget,
    /// The caller's progress callback asked to stop (e.g. on Ctrl-C).
    Cancelled,
    /// Streaming through the batch positions for no more than the lower
    /// bound on every locate order, so no locate order can beat it (a tape
    /// timed by its seeks alone, where reading through is not a locate).
    Streaming,
}

impl StopReason {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Optimal => "optimal",
            StopReason::Gap => "gap",
            StopReason::Time => "time",
            StopReason::Budget => "budget",
            StopReason::Cancelled => "cancelled",
            StopReason::Streaming => "streaming",
        }
    }
}

/// What an improving search reports beside its schedule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchReport {
    /// Why it stopped.
    pub stopped_because: StopReason,
    /// Seconds from the start of the run to the best tour it found.
    pub time_to_best_s: f64,
    /// CPU seconds of each phase, in the order they first ran.
    pub phases: Vec<(&'static str, f64)>,
}

/// A snapshot of a running search, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// The phase running now.
    pub phase: &'static str,
    /// Total seconds of the best schedule so far (None before the first).
    pub best_total_s: Option<f64>,
    /// The lower bound on the total, once computed.
    pub bound_s: Option<f64>,
    /// Seconds since the run started.
    pub elapsed_s: f64,
}

/// A callback that hears a [`Snapshot`] now and then during a long run and
/// answers whether the run should go on (false: stop as soon as the phase
/// running allows, with the best order so far).
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(Snapshot) -> bool + Send + Sync>);

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress(..)")
    }
}

impl PartialEq for Progress {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The state of one improving run: bound, target, incumbent, phase clock.
/// Costs here are positioning seconds (what the searches minimise); the
/// requests' fixed read times are added only for the target gap and the
/// progress display.
pub(crate) struct Watch {
    started: Instant,
    deadline: Option<Instant>,
    gap: f64,
    reads: f64,
    /// The strongest bound on locate orders.
    bound: Option<f64>,
    /// The strongest bound on locate orders but a line's (see
    /// [`Watch::line_bound`]).
    search_bound: Option<f64>,
    /// A bound on every schedule that streams, where the batch may (see
    /// [`Watch::streaming_bound`]): the bounds above count up to it.
    streaming: Option<f64>,
    best: f64,
    best_at: Duration,
    phase: &'static str,
    phase_cpu: f64,
    phases: Vec<(&'static str, f64)>,
    /// The caller's progress callback and what it was shown, shared with
    /// the heartbeats of the long steps (see [`Watch::stop`]).
    reporter: Option<Arc<Reporter>>,
}

impl Watch {
    /// A run started now under `options`, on requests whose reads take
    /// `reads` seconds together.
    pub(crate) fn new(options: &Options, reads: f64) -> Self {
        let started = Instant::now();
        Watch {
            started,
            deadline: options.deadline(),
            gap: options.gap,
            reads,
            bound: None,
            search_bound: None,
            streaming: None,
            best: f64::INFINITY,
            best_at: Duration::ZERO,
            phase: "start",
            phase_cpu: thread_cpu_s(),
            phases: Vec::new(),
            reporter: options.progress.clone().map(|progress| {
                Arc::new(Reporter {
                    progress,
                    started,
                    shown: Mutex::new(Shown::default()),
                    cancelled: AtomicBool::new(false),
                })
            }),
        }
    }

    /// The deadline of the caller's time limit, if any.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Records a lower bound on every locate order's positioning (the
    /// stronger of it and any earlier one is kept).
    pub(crate) fn bound(&mut self, positioning: f64) {
        self.line_bound(positioning);
        self.search_bound = Some(
            self.search_bound
                .map_or(positioning, |b| b.max(positioning)),
        );
    }

    /// Records the bound of a seek line's exact order ([`super::on_line`]):
    /// it stops the run like any, but the search's rules for a narrow gap
    /// go on measuring from the assignment's and the 1-trees' bounds,
    /// whose edges it searches ([`Watch::search_gap`]).
    pub(crate) fn line_bound(&mut self, positioning: f64) {
        self.bound = Some(self.bound.map_or(positioning, |b| b.max(positioning)));
    }

    /// Records a lower bound on the positioning of every schedule that
    /// streams through the batch instead of locating (a drive's batch): a
    /// schedule that meets the bound on locate orders is proven optimal
    /// only where streaming cannot go below it too.
    pub(crate) fn streaming_bound(&mut self, positioning: f64) {
        self.streaming = Some(positioning);
    }

    /// The positioning bound on every schedule recorded so far.
    pub(crate) fn positioning_bound(&self) -> Option<f64> {
        self.capped(self.bound)
    }

    /// `bound` (on locate orders) as a bound on every schedule: no higher
    /// than streaming's.
    fn capped(&self, bound: Option<f64>) -> Option<f64> {
        bound.map(|b| self.streaming.map_or(b, |s| b.min(s)))
    }

    /// Records a tour of this positioning cost; remembers when the best
    /// one was found.
    pub(crate) fn offer(&mut self, positioning: f64) {
        if positioning < self.best {
            self.best = positioning;
            self.best_at = self.started.elapsed();
        }
        self.report();
    }

    /// How far a tour of this positioning cost lies above the bound, as a
    /// fraction of its total (reads included); None without a bound.
    pub(crate) fn open_gap(&self, positioning: f64) -> Option<f64> {
        gap_above(self.positioning_bound()?, positioning, self.reads)
    }

    /// [`Watch::open_gap`] from the bounds but a line's (see
    /// [`Watch::line_bound`]).
    pub(crate) fn search_gap(&self, positioning: f64) -> Option<f64> {
        gap_above(self.capped(self.search_bound)?, positioning, self.reads)
    }

    /// Whether the best tour so far is close enough to the bound to stop.
    pub(crate) fn reached(&self) -> bool {
        self.positioning_bound()
            .is_some_and(|b| self.within(self.best, b))
    }

    /// Whether the caller's time limit has run out.
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether no further phase should run: the gap is closed, the time is
    /// up, or the caller asked to stop.
    pub(crate) fn done(&self) -> bool {
        self.reached() || self.out_of_time() || self.cancelled()
    }

    /// Starts the phase `name`, closing the one running.
    pub(crate) fn phase(&mut self, name: &'static str) {
        self.close_phase();
        self.phase = name;
        self.report();
    }

    /// Adds the CPU since the phase began to its total (a phase that runs
    /// twice, like the kicks past a time limit, keeps one entry).
    fn close_phase(&mut self) {
        let now = thread_cpu_s();
        let spent = now - self.phase_cpu;
        self.phase_cpu = now;
        if self.phase == "start" {
            return;
        }
        match self.phases.iter_mut().find(|(name, _)| *name == self.phase) {
            Some((_, total)) => *total += spent,
            None => self.phases.push((self.phase, spent)),
        }
    }

    /// The report on a run whose schedule totals `total` seconds (reads
    /// included), against the total lower bound `bound`; `proven`: an
    /// exact search finished; `streamed`: the search stopped because
    /// streaming beat the bound on every locate order.
    pub(crate) fn finish(
        mut self,
        total: f64,
        bound: Option<f64>,
        proven: bool,
        streamed: bool,
    ) -> SearchReport {
        self.close_phase();
        let positioning = total - self.reads;
        let stopped_because = match bound {
            _ if proven => StopReason::Optimal,
            Some(b) if total <= b + ROUNDING * b.abs() => StopReason::Optimal,
            _ if streamed => StopReason::Streaming,
            Some(b) if self.gap > 0.0 && self.within(positioning, b - self.reads) => {
                StopReason::Gap
            }
            _ if self.cancelled() => StopReason::Cancelled,
            _ if self.out_of_time() => StopReason::Time,
            _ => StopReason::Budget,
        };
        SearchReport {
            stopped_because,
            time_to_best_s: self.best_at.as_secs_f64(),
            phases: self.phases,
        }
    }

    /// Whether `positioning` lies within the target gap of the positioning
    /// bound `bound`, the gap measured on totals (reads included), as the
    /// caller reads it.
    fn within(&self, positioning: f64, bound: f64) -> bool {
        let total_bound = bound + self.reads;
        positioning + self.reads <= total_bound + total_bound.abs() * self.gap.max(ROUNDING)
    }

    /// Shows the caller the run as it stands, at most every
    /// [`REPORT_EVERY`].
    fn report(&mut self) {
        if let Some(reporter) = &self.reporter {
            let best = self.best.is_finite().then_some(self.best + self.reads);
            let bound = self.positioning_bound().map(|b| b + self.reads);
            reporter.beat(Some((self.phase, best, bound)));
        }
    }

    /// Whether the caller's progress callback asked to stop.
    fn cancelled(&self) -> bool {
        self.reporter
            .as_ref()
            .is_some_and(|r| r.cancelled.load(Ordering::Relaxed))
    }

    /// When the long steps of this run stop: at the caller's deadline, or
    /// once the caller's progress callback, which they call now and then
    /// (as the phases do, at most every [`REPORT_EVERY`]), asks to. A step
    /// that took seconds without a look at either kept Ctrl-C waiting.
    pub(crate) fn stop(&self) -> Stop {
        self.stop_by(self.deadline)
    }

    /// As [`Watch::stop`], but at `deadline` if the caller's comes later:
    /// for a phase given a share of the time limit.
    pub(crate) fn stop_at(&self, deadline: Instant) -> Stop {
        self.stop_by(Some(self.deadline.map_or(deadline, |d| d.min(deadline))))
    }

    /// The stop at `deadline` (none: no time limit) that also asks the
    /// caller's progress callback, if any.
    fn stop_by(&self, deadline: Option<Instant>) -> Stop {
        let beat = self.reporter.as_ref().map(|r| {
            let r = Arc::clone(r);
            Arc::new(move || r.beat(None)) as Beat
        });
        Stop::with_beat(deadline, beat)
    }
}

/// What the progress callback was last shown, and when.
#[derive(Default)]
struct Shown {
    phase: &'static str,
    best_total_s: Option<f64>,
    bound_s: Option<f64>,
    at: Option<Instant>,
}

/// The caller's progress callback, called by the run's phases and by the
/// heartbeats of its long steps.
struct Reporter {
    progress: Progress,
    started: Instant,
    shown: Mutex<Shown>,
    cancelled: AtomicBool,
}

impl Reporter {
    /// Records `now` (phase, best total, bound) when given, and calls the
    /// callback if [`REPORT_EVERY`] has passed since it was last called;
    /// whether the run should go on.
    fn beat(&self, now: Option<(&'static str, Option<f64>, Option<f64>)>) -> bool {
        let snapshot = {
            let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some((phase, best_total_s, bound_s)) = now {
                (shown.phase, shown.best_total_s, shown.bound_s) = (phase, best_total_s, bound_s);
            }
            if shown.at.is_some_and(|t| t.elapsed() < REPORT_EVERY) {
                None
            } else {
                shown.at = Some(Instant::now());
                Some(Snapshot {
                    phase: shown.phase,
                    best_total_s: shown.best_total_s,
                    bound_s: shown.bound_s,
                    elapsed_s: self.started.elapsed().as_secs_f64(),
                })
            }
        };
        if let Some(snapshot) = snapshot {
            if !(self.progress.0)(snapshot) {
                self.cancelled.store(true, Ordering::Relaxed);
            }
        }
        !self.cancelled.load(Ordering::Relaxed)
    }
}

/// CPU seconds this thread has used (every phase of `best` runs on the
/// caller's thread).
fn thread_cpu_s() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the one we pass.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// How far a tour of this positioning cost lies above the positioning
/// bound `b`, as a fraction of the tour's total (its reads `reads`).
fn gap_above(b: f64, positioning: f64, reads: f64) -> Option<f64> {
    let total = positioning + reads;
    (total > 0.0).then(|| (positioning - b) / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A proof over locate orders raises the bound no higher than what
    /// streaming through the batch could cost: a tour meeting the locate
    /// bound above streaming's is not reached, and the gap is measured
    /// from streaming's bound.
    #[test]
    fn the_bound_on_locate_orders_counts_up_to_streamings() {
        let mut watch = Watch::new(&Options::default(), 0.0);
        watch.streaming_bound(90.0);
        watch.bound(100.0);
        watch.offer(100.0);
        assert_eq!(watch.positioning_bound(), Some(90.0));
        assert!(!watch.reached());
        assert!((watch.open_gap(100.0).unwrap() - 0.1).abs() < 1e-12);
        watch.streaming_bound(120.0);
        assert_eq!(watch.positioning_bound(), Some(100.0));
        assert!(watch.reached());
    }
}
