//! Round-based scheduling of mixed continuous (C) and discrete (D) requests
//! on one disk of a media server (Balafoutis et al.): every C-request must be
//! served within its round (no glitches) while D-requests get low and fair
//! response times. The algorithms are rows of one table (`registry.rs`);
//! [`simulate`] runs the rounds.

mod cluster_study;
mod famish;
mod flat;
mod gss;
mod metrics;
pub mod opt;
mod registry;
mod request;
mod round;
mod study;
mod sweep;
mod trace;
mod workload;

pub use cluster_study::{cluster_study, ClusterGain};
pub use metrics::{fairness, Metrics, Summary};
pub use registry::Algorithm;
pub use request::{Class, Request};
pub use round::{Dir, Round};
pub use study::{MediaStudy, StudyAxes, MAX_C_REQUESTS, MAX_STUDY_RUNS};
pub use trace::{RoundTrace, Served};
pub use workload::Workload;

use crate::model::disk::{DiskSpec, Head, Projection};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How an algorithm schedules a round: composed from the shared machinery in
/// `registry.rs`, or a file of its own (FAMISH, GSS).
pub trait Policy {
    /// Orders the round's C-requests into the plan that guarantees them
    /// (default: SCAN in direction `dir`).
    fn order_c(&self, plan: &mut [Request], dir: Dir) {
        scan_order(plan, dir);
    }

    /// Serves the round: all its C-requests, and D-requests as time allows.
    fn run(&self, r: &mut Round);
}

impl Algorithm {
    /// The name users type.
    pub fn name(self) -> &'static str {
        registry::row(self).name
    }

    /// One line on what the algorithm does.
    pub fn description(self) -> &'static str {
        registry::row(self).description
    }

    /// The scheduler with its parameters taken from `cfg`.
    fn policy(self, cfg: &MediaConfig) -> Box<dyn Policy> {
        registry::row(self).policy(cfg)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim().to_ascii_lowercase();
        crate::error::parse_named(&Algorithm::ALL, Algorithm::name, &key, "algorithm")
    }
}

/// The most disk services one run may ask for (rounds x requests per
/// round): about eight minutes of CPU at the 2 million services a second
/// measured by `reproduce balafoutis`; the paper's largest run is 40,000
/// rounds of at most 35 + 65 requests, 4e6.
pub const MAX_SERVICES: f64 = 1e9;

/// A run's settings. Defaults are the paper's (Tables 1-2, section 3.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct MediaConfig {
    /// The disk (before any projection).
    pub disk: DiskSpec,
    /// Technology projection applied to the disk and the CPU (0 years: none).
    pub projection: Projection,
    /// Round length, seconds (paper: 1).
    pub round_s: f64,
    /// C-requests (streams) per round, N (paper: 25, 35, 15).
    pub c_requests: u32,
    /// D-request arrivals per round, lambda (Poisson).
    pub lambda: f64,
    /// Mean C-request size, bytes (Gamma; paper: 200,000).
    pub c_size_mean: f64,
    /// Standard deviation of C-request sizes, bytes (paper: 100,000).
    pub c_size_sd: f64,
    /// Mean D-request size, bytes (Normal; paper: 70,000).
    pub d_size_mean: f64,
    /// Standard deviation of D-request sizes, bytes (paper: 20,000).
    pub d_size_sd: f64,
    /// Rounds to simulate (default 4,000, a quick study; the paper runs
    /// 40,000 per run, as `seekplan reproduce balafoutis` does).
    pub rounds: u32,
    /// Seed of the run's random streams.
    pub seed: u64,
    /// Largest cluster served in optimal order, M (paper: 6).
    pub cluster_max: usize,
    /// Widest CLUST-CYL cluster, T cylinders (paper: 1000).
    pub cluster_cylinders: u32,
    /// GSS groups.
    pub gss_groups: u32,
    /// EDF / SCAN-EDF: a D-request's deadline after arrival, seconds.
    pub d_deadline_s: f64,
    /// CPU seconds to compute an OPT schedule of 6 requests. The paper
    /// counts this overhead but does not give it; 0.4 ms is our estimate for
    /// its brute force on a 2001 PC (720 orders x 6 accesses x ~100 ns).
    pub opt6_cpu_s: f64,
    /// Stop the run (marked saturated) once this many D-requests wait.
    pub queue_limit: usize,
}

impl Default for MediaConfig {
    fn default() -> Self {
        MediaConfig {
            disk: DiskSpec::default(),
            projection: Projection::default(),
            round_s: 1.0,
            c_requests: 25,
            lambda: 30.0,
            c_size_mean: 200_000.0,
            c_size_sd: 100_000.0,
            d_size_mean: 70_000.0,
            d_size_sd: 20_000.0,
            rounds: 4_000,
            seed: 1,
            cluster_max: 6,
            cluster_cylinders: 1000,
            gss_groups: 5,
            d_deadline_s: 1.0,
            opt6_cpu_s: 0.0004,
            queue_limit: 1000,
        }
    }
}

fn positive(field: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(field, format!("must be > 0, got {v:?}")))
    }
}

impl MediaConfig {
    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<()> {
        self.disk.validate().map_err(|e| e.in_section("disk"))?;
        positive("round_s", self.round_s)?;
        positive("c_size_mean", self.c_size_mean)?;
        positive("c_size_sd", self.c_size_sd)?;
        positive("d_size_mean", self.d_size_mean)?;
        positive("d_size_sd", self.d_size_sd)?;
        positive("d_deadline_s", self.d_deadline_s)?;
        if !(self.lambda.is_finite() && self.lambda >= 0.0) {
            return Err(Error::invalid(
                "lambda",
                format!("must be >= 0, got {:?}", self.lambda),
            ));
        }
        if !(self.opt6_cpu_s.is_finite() && self.opt6_cpu_s >= 0.0) {
            return Err(Error::invalid("opt6_cpu_s", "must be >= 0"));
        }
        if self.rounds == 0 {
            return Err(Error::invalid("rounds", "must be at least 1"));
        }
        // A cost cap: each round serves its C-requests and about lambda
        // D-requests, so the work is rounds x (c_requests + lambda) services.
        let services = f64::from(self.rounds) * (f64::from(self.c_requests) + self.lambda);
        if services > MAX_SERVICES {
            return Err(Error::invalid(
                "rounds",
                format!(
                    "{} rounds of {} C-requests and lambda {} are {services:.2e} services, \
                     more than {MAX_SERVICES:.0e}: lower rounds (the paper runs 40,000)",
                    self.rounds, self.c_requests, self.lambda
                ),
            ));
        }
        if !(1..=opt::OPT_MAX).contains(&self.cluster_max) {
            return Err(Error::invalid(
                "cluster_max",
                format!("must be 1..={}, got {}", opt::OPT_MAX, self.cluster_max),
            ));
        }
        if self.queue_limit == 0 {
            return Err(Error::invalid("queue_limit", "must be at least 1"));
        }
        let p = &self.projection;
        if !(p.years.is_finite() && p.years >= 0.0) {
            return Err(Error::invalid("projection.years", "must be >= 0"));
        }
        if !(0.0..1.0).contains(&p.seek) {
            return Err(Error::invalid("projection.seek", "must be in [0, 1)"));
        }
        for (f, v) in [
            ("projection.rotation", p.rotation),
            ("projection.transfer", p.transfer),
            ("projection.cpu", p.cpu),
        ] {
            if !(v.is_finite() && v > -1.0) {
                return Err(Error::invalid(f, "must be > -1"));
            }
        }
        Ok(())
    }
}

/// Simulates `cfg.rounds` rounds of `algo` and returns what it measured.
pub fn simulate(cfg: &MediaConfig, algo: Algorithm) -> Result<Summary> {
    run(cfg, algo, Metrics::new(cfg.round_s)).map(|(summary, _)| summary)
}

/// [`simulate`], also returning every round's services in order (same
/// results; slower, as each service is recorded).
pub fn simulate_traced(cfg: &MediaConfig, algo: Algorithm) -> Result<(Summary, Vec<RoundTrace>)> {
    let (summary, trace) = run(cfg, algo, Metrics::new(cfg.round_s).traced())?;
    Ok((summary, trace.unwrap_or_default()))
}

fn run(
    cfg: &MediaConfig,
    algo: Algorithm,
    mut metrics: Metrics,
) -> Result<(Summary, Option<Vec<RoundTrace>>)> {
    cfg.validate()?;
    let disk = cfg.disk.projected(&cfg.projection);
    let policy = algo.policy(cfg);
    let mut workload = Workload::new(cfg)?;
    let mut head = Head {
        cylinder: crate::model::disk::Cylinder(0),
        time_s: 0.0,
    };
    let mut pending: Vec<Request> = Vec::new();
    let mut dir = Dir::Up;
    let mut saturated = false;
    for k in 0..cfg.rounds {
        let start_s = f64::from(k) * cfg.round_s;
        let end_s = start_s + cfg.round_s;
        let mut cs = workload.c_requests(start_s);
        let arrivals = workload.d_arrivals(end_s);
        // One round's arrivals beyond the queue limit saturate the run
        // before the round is scheduled: scheduling a round costs up to
        // the square of its queue, and lambda = 1e6 hung in its first round.
        if arrivals.len() > cfg.queue_limit {
            saturated = true;
            break;
        }
        dir = start_direction(&cs, head, dir);
        let at_start = Head {
            cylinder: head.cylinder,
            time_s: head.time_s.max(start_s),
        };
        let c_scan_s = scan_time(&disk, at_start, &cs, dir);
        policy.order_c(&mut cs, dir);
        metrics.round_begin(start_s, end_s);
        let mut round = Round::new(
            &disk,
            head,
            start_s,
            end_s,
            dir,
            cs,
            pending,
            arrivals,
            &mut metrics,
        );
        policy.run(&mut round);
        (head, pending) = round.finish();
        metrics.round_done(pending.len(), c_scan_s);
        if pending.len() > cfg.queue_limit {
            saturated = true;
            break;
        }
    }
    Ok((metrics.summary(saturated), metrics.take_trace()))
}

/// The round's sweep starts at the end of its C-set nearer the head, so the
/// first seek is short (rounds alternate directions as an elevator would).
fn start_direction(cs: &[Request], head: Head, previous: Dir) -> Dir {
    let lo = cs.iter().map(|q| q.addr.cylinder).min();
    let hi = cs.iter().map(|q| q.addr.cylinder).max();
    match (lo, hi) {
        (Some(lo), Some(hi)) => {
            let h = head.cylinder.0;
            if h.abs_diff(lo.0) <= h.abs_diff(hi.0) {
                Dir::Up
            } else {
                Dir::Down
            }
        }
        _ => previous,
    }
}

/// Sorts requests into one SCAN sweep in direction `dir` (stable).
pub fn scan_order(plan: &mut [Request], dir: Dir) {
    match dir {
        Dir::Up => plan.sort_by_key(|q| q.addr.cylinder),
        Dir::Down => plan.sort_by_key(|q| std::cmp::Reverse(q.addr.cylinder)),
    }
}

/// Seconds a SCAN over the C-requests alone takes from `head`.
fn scan_time(disk: &DiskSpec, head: Head, cs: &[Request], dir: Dir) -> f64 {
    let mut sorted = cs.to_vec();
    scan_order(&mut sorted, dir);
    let mut h = head;
    for q in &sorted {
        h = disk.serve(h, q.addr, q.bytes).0;
    }
    h.time_s - head.time_s
}
