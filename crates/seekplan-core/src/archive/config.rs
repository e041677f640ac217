//! The configuration of an archive simulation, with the defaults of the
//! Blue Waters study (section 6.1) and checks that name the bad field.

use super::{Policy, PolicyName, Scheme};
use crate::error::{require_non_negative, require_positive};
use crate::library::MAX_DRIVES;
use crate::library::{DriveTiming, Hardware, RobotTiming};
use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The policy a configuration asks for: one policy for every file, or
/// HETERO (section 6.3), which picks by file size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum PolicyChoice {
    /// Every file uses this policy.
    Single(Policy),
    /// VERTICAL for files smaller than `threshold` bytes, PARALLEL otherwise.
    Hetero {
        /// Size (bytes) from which a file uses PARALLEL.
        threshold: u64,
    },
}

impl PolicyChoice {
    /// The policies files may use, each once.
    pub fn policies(&self) -> Vec<Policy> {
        match *self {
            PolicyChoice::Single(p) => vec![p],
            PolicyChoice::Hetero { .. } => vec![Policy::Vertical, Policy::Parallel],
        }
    }

    /// The policy used for a file of `bytes`.
    pub fn for_size(&self, bytes: u64) -> Policy {
        match *self {
            PolicyChoice::Single(p) => p,
            PolicyChoice::Hetero { threshold } if bytes < threshold => Policy::Vertical,
            PolicyChoice::Hetero { .. } => Policy::Parallel,
        }
    }
}

/// Library, movers, drives and tapes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Platform {
    /// Mover nodes (section 6.1: 50).
    pub movers: u32,
    /// Drives attached to each mover (10).
    pub drives_per_mover: u32,
    /// Robot arms of the library (20); each mount or dismount holds one.
    pub robot_arms: u32,
    /// Mover RAM in bytes (96 GB); RAIT and PARALLEL hold (X+Y)·B per process.
    pub mover_ram_bytes: u64,
    /// Mover local disk in bytes (10 TB); VERTICAL keeps Y uncompressed
    /// tapes' worth of EC there per process (Y x tape capacity).
    pub mover_disk_bytes: u64,
    /// Cartridges in the library (500,000: "5000,000" in the text is garbled;
    /// 500,000 x 1 TB is the 0.5 EB the paper states).
    pub tapes: u64,
    /// Physical bytes per cartridge (1 TB, section 3.1; the StorageTek
    /// T10000B's native capacity, Oracle's T10000 guide, chapter 1).
    pub tape_capacity_bytes: u64,
    /// Native drive rate, bytes/s. Not in the paper: the StorageTek T10000B,
    /// the 1 TB drive of the period, 120 MB/s (The Register, 2008-07-14,
    /// on its launch).
    pub drive_rate_bps: f64,
    /// S of section 1: a drive streams only when it is handed at least this
    /// many contiguous bytes at a time. The paper names S but gives no value;
    /// 192 MB is read off its Figure 5 text ("constant between 192 MB and
    /// 8 GB"), so the plateau of Figure 5 follows from this choice and is not
    /// evidence of its own (the reproduction says so).
    pub stream_min_bytes: u64,
    /// Seconds of one start/stop (back-hitch: stop, reverse, restart) paid
    /// per transfer unit shorter than `stream_min_bytes`. Choice: 2 s, a
    /// linear drive's reposition; the paper gives none, and the only start-up
    /// penalty measured in the seed papers (Johnson & Miller section 5.5:
    /// about 7 s) is a helical drive that must re-wrap its tape.
    pub backhitch_s: f64,
    /// Load-to-ready seconds (T10000B data sheet: 16 s).
    pub load_s: f64,
    /// Rewind + unload seconds before a cartridge leaves a drive (choice: 25 s,
    /// about half of the T10000B's 90 s maximum rewind plus unload).
    pub unload_s: f64,
    /// Seconds a robot arm needs per move (choice: 10 s, a typical SL8500
    /// exchange; the paper gives no figure).
    pub robot_s: f64,
    /// Seconds to locate from one end of a tape to the other; a locate over
    /// a fraction f of the tape takes f times this (choice: 120 s, twice the
    /// T10000B's 62 s average access).
    pub full_locate_s: f64,
}

impl Default for Platform {
    fn default() -> Self {
        Platform {
            movers: 50,
            drives_per_mover: 10,
            robot_arms: 20,
            mover_ram_bytes: 96_000_000_000,
            mover_disk_bytes: 10_000_000_000_000,
            tapes: 500_000,
            tape_capacity_bytes: 1_000_000_000_000,
            drive_rate_bps: 120e6,
            stream_min_bytes: 192_000_000,
            backhitch_s: 2.0,
            load_s: 16.0,
            unload_s: 25.0,
            robot_s: 10.0,
            full_locate_s: 120.0,
        }
    }
}

impl Platform {
    /// The platform's drives and robot as the library's one hardware
    /// description. A mount is an arm fetch and the load; a dismount is the
    /// unload (its rewind included, so no separate rewind) and an arm
    /// return; every arm move takes `robot_s`, and the load runs to ready
    /// (no separate thread).
    pub fn hardware(&self) -> Hardware {
        Hardware {
            drives: self.movers as usize * self.drives_per_mover as usize,
            drive: DriveTiming {
                rate_bps: self.drive_rate_bps,
                load_s: self.load_s,
                thread_s: 0.0,
                unload_s: self.unload_s,
                rewind_s: 0.0,
            },
            robot: RobotTiming {
                arms: self.robot_arms as usize,
                fetch_s: self.robot_s,
                return_s: self.robot_s,
            },
        }
    }
}

/// Main-Scheduler and Load-Balancer parameters (section 5). The paper gives
/// no values except the MinLBInterval sweep of Figure 10; the others are
/// choices, stated in docs/archive.md.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SchedulerParams {
    /// Which placement and rebalancing rules run ("paper": the Main-Scheduler
    /// and Load-Balancer of section 5, the only one so far).
    pub algorithm: String,
    /// A running process of the right type takes a request while it has at
    /// most this many (choice: 2).
    pub max_light_load: u32,
    /// Seconds between Load-Balancer checks (6 days: best for RAIT and
    /// PARALLEL in Figure 10).
    pub min_lb_interval_s: f64,
    /// Rebalance when the oldest waiting request waited longer (choice: 1 day).
    pub max_waiting_time_s: f64,
    /// Rebalance when more requests wait (choice: 50).
    pub max_req_count: u32,
    /// Rebalance when the most and least loaded types differ by more
    /// (requests per process; choice: 10).
    pub max_imbalance: f64,
}

impl Default for SchedulerParams {
    fn default() -> Self {
        SchedulerParams {
            algorithm: "paper".into(),
            max_light_load: 2,
            min_lb_interval_s: 6.0 * 86_400.0,
            max_waiting_time_s: 86_400.0,
            max_req_count: 50,
            max_imbalance: 10.0,
        }
    }
}

/// One resiliency scheme with its probability (Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemeShare {
    /// Data blocks.
    pub x: u32,
    /// EC blocks.
    pub y: u32,
    /// Probability of a new request using it.
    pub p: f64,
}

/// The request stream (section 6.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Workload {
    /// Poisson arrival rate, requests per hour.
    pub rate_per_hour: f64,
    /// Simulated seconds over which requests arrive (default 60 days, ten
    /// default MinLBIntervals); the run then drains what is left.
    pub duration_s: f64,
    /// Requests arriving in the first `warmup_s` seconds are served but left
    /// out of every metric (default 6 days, one default MinLBInterval).
    pub warmup_s: f64,
    /// Stop generating after this many requests, even before `duration_s`
    /// (unset: no limit but the cost cap of 10,000,000 expected arrivals).
    pub requests: Option<u32>,
    /// Smallest file, bytes (log-uniform sizes).
    pub min_bytes: u64,
    /// Largest file, bytes.
    pub max_bytes: u64,
    /// Probability that a request is a read (0.5).
    pub read_fraction: f64,
    /// Probability that a write creates a new file (0.9).
    pub create_fraction: f64,
    /// Files already archived at time 0, which reads pick from with the
    /// files written since. Unset: a full archive, as many files of the mean
    /// size as fill every cartridge (the paper simulates "the maximum
    /// capacity of the Blue Waters archival storage (0.5 Exabytes)"). Only
    /// the files a request touches are laid out, when first touched.
    pub initial_files: Option<u64>,
    /// Schemes and probabilities (Table 1).
    pub schemes: Vec<SchemeShare>,
    /// Data compression ratio; drawn per file in [1, 3] if not set.
    pub data_compression: Option<f64>,
    /// EC compression ratio; drawn per file in [1, data's] if not set.
    pub ec_compression: Option<f64>,
}

/// Table 1 of the paper.
pub fn table1() -> Vec<SchemeShare> {
    [
        (1, 0, 0.025),
        (2, 1, 0.025),
        (3, 1, 0.05),
        (3, 2, 0.1),
        (4, 1, 0.1),
        (4, 2, 0.3),
        (6, 2, 0.2),
        (8, 2, 0.2),
    ]
    .into_iter()
    .map(|(x, y, p)| SchemeShare { x, y, p })
    .collect()
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            rate_per_hour: 65.0,
            duration_s: 60.0 * DAY,
            warmup_s: 6.0 * DAY,
            requests: None,
            min_bytes: 1_000_000_000,
            max_bytes: 1_000_000_000_000,
            read_fraction: 0.5,
            create_fraction: 0.9,
            initial_files: None,
            schemes: table1(),
            data_compression: None,
            ec_compression: None,
        }
    }
}

/// Everything an archive simulation needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ArchiveConfig {
    /// Write policy.
    pub policy: PolicyName,
    /// Block size B of RAIT and PARALLEL, bytes (192 MB, Figure 5's plateau).
    pub block_bytes: u64,
    /// HETERO's size threshold, bytes (1 GB, section 6.3).
    pub hetero_threshold_bytes: u64,
    /// Hardware.
    pub platform: Platform,
    /// Scheduler parameters.
    pub scheduler: SchedulerParams,
    /// Requests.
    pub workload: Workload,
    /// Stop the run, and call it saturated, once more requests than this
    /// are in the system; requests left are counted with the time they had
    /// waited so far (a lower bound). Bounds the cost of overloaded points.
    pub max_backlog: u32,
    /// Seed of every random draw.
    pub seed: u64,
}

/// Seconds per day.
pub const DAY: f64 = 86_400.0;

/// The longest one request's service may be from the platform's figures
/// (robot, load, full locate, unload and reading the largest file): 30 days,
/// against the T10000B's few minutes.
pub const MAX_SERVICE_S: f64 = 30.0 * DAY;

/// The longest `scheduler.max_waiting_time_s`: a year, against the paper's
/// day. Past about 1e12 s the run's time grew with it (1e13 s: 24 s, 1e15 s:
/// no end in sight), for no different schedule.
pub const MAX_WAITING_S: f64 = 365.0 * DAY;

/// The most requests a run may expect to generate (rate x duration): a cost
/// cap, so that a typo cannot ask for a run of days.
pub const MAX_EXPECTED_REQUESTS: f64 = 1e7;

impl Default for ArchiveConfig {
    fn default() -> Self {
        ArchiveConfig {
            policy: PolicyName::Parallel,
            block_bytes: 192_000_000,
            hetero_threshold_bytes: 1_000_000_000,
            platform: Platform::default(),
            scheduler: SchedulerParams::default(),
            workload: Workload::default(),
            max_backlog: 20_000,
            seed: 1,
        }
    }
}

impl ArchiveConfig {
    /// The policy choice this config makes.
    pub fn choice(&self) -> PolicyChoice {
        match self.policy.single() {
            Some(policy) => PolicyChoice::Single(policy),
            None => PolicyChoice::Hetero {
                threshold: self.hetero_threshold_bytes,
            },
        }
    }

    /// Checks every value; the error names the field.
    pub fn validate(&self) -> Result<()> {
        let p = &self.platform;
        let w = &self.workload;
        let s = &self.scheduler;
        let known = super::sim::scheduler_names();
        if !known.contains(&s.algorithm.as_str()) {
            return Err(Error::invalid(
                "scheduler.algorithm",
                format!(
                    "unknown scheduler {:?}; choose one of {}",
                    s.algorithm,
                    known.join(", ")
                ),
            ));
        }
        for (f, v) in [
            ("platform.movers", p.movers),
            ("platform.drives_per_mover", p.drives_per_mover),
            ("platform.robot_arms", p.robot_arms),
            ("workload.requests", w.requests.unwrap_or(1)),
            ("max_backlog", self.max_backlog),
        ] {
            if v == 0 {
                return Err(Error::invalid(f, "must be at least 1"));
            }
        }
        let drives = u64::from(p.movers) * u64::from(p.drives_per_mover);
        if drives > MAX_DRIVES as u64 {
            return Err(Error::invalid(
                "platform.drives_per_mover",
                format!(
                    "{} movers x {} drives is {drives} drives; at most {MAX_DRIVES}",
                    p.movers, p.drives_per_mover
                ),
            ));
        }
        if p.robot_arms as usize > MAX_DRIVES {
            return Err(Error::invalid(
                "platform.robot_arms",
                format!("at most {MAX_DRIVES}, got {}", p.robot_arms),
            ));
        }
        for (f, v) in [
            ("platform.tapes", p.tapes),
            ("platform.tape_capacity_bytes", p.tape_capacity_bytes),
            ("block_bytes", self.block_bytes),
            ("workload.min_bytes", w.min_bytes),
        ] {
            if v == 0 {
                return Err(Error::invalid(f, "must be positive"));
            }
        }
        require_positive(&[("platform.drive_rate_bps", p.drive_rate_bps)])?;
        require_positive(&[("workload.rate_per_hour", w.rate_per_hour)])?;
        require_positive(&[("workload.duration_s", w.duration_s)])?;
        require_non_negative(&[("workload.warmup_s", w.warmup_s)])?;
        if w.warmup_s >= w.duration_s {
            return Err(Error::invalid(
                "workload.warmup_s",
                format!(
                    "{} s leaves nothing to measure in a {} s run",
                    w.warmup_s, w.duration_s
                ),
            ));
        }
        let expected = w.rate_per_hour / 3600.0 * w.duration_s;
        if expected > MAX_EXPECTED_REQUESTS && w.requests.is_none() {
            return Err(Error::invalid(
                "workload.duration_s",
                format!(
                    "{expected:.3e} requests expected at {} per hour; at most {MAX_EXPECTED_REQUESTS:.0e} (set workload.requests to cap them)",
                    w.rate_per_hour
                ),
            ));
        }
        if w.requests
            .is_some_and(|n| f64::from(n) > MAX_EXPECTED_REQUESTS)
        {
            return Err(Error::invalid(
                "workload.requests",
                format!("at most {MAX_EXPECTED_REQUESTS:.0e}"),
            ));
        }
        if self.max_backlog > 1_000_000 {
            return Err(Error::invalid("max_backlog", "at most 1,000,000"));
        }
        // At least a minute: the paper sweeps 1 to 48 days, and every
        // Load-Balancer run is an event (a nanosecond interval hangs a run).
        if !(s.min_lb_interval_s >= 60.0 && s.min_lb_interval_s.is_finite()) {
            return Err(Error::invalid(
                "scheduler.min_lb_interval_s",
                format!("must be at least 60 s, got {}", s.min_lb_interval_s),
            ));
        }
        if s.max_waiting_time_s > MAX_WAITING_S {
            return Err(Error::invalid(
                "scheduler.max_waiting_time_s",
                format!(
                    "at most {MAX_WAITING_S} s (a year), got {}",
                    s.max_waiting_time_s
                ),
            ));
        }
        for (f, v) in [
            ("platform.load_s", p.load_s),
            ("platform.unload_s", p.unload_s),
            ("platform.robot_s", p.robot_s),
            ("platform.backhitch_s", p.backhitch_s),
            ("platform.full_locate_s", p.full_locate_s),
            ("scheduler.max_waiting_time_s", s.max_waiting_time_s),
            ("scheduler.max_imbalance", s.max_imbalance),
        ] {
            require_non_negative(&[(f, v)])?;
        }
        for (f, v) in [
            ("workload.read_fraction", w.read_fraction),
            ("workload.create_fraction", w.create_fraction),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::invalid(f, format!("must be in [0, 1], got {v}")));
            }
        }
        if w.min_bytes > w.max_bytes {
            return Err(Error::invalid(
                "workload.max_bytes",
                format!("{} is below min_bytes {}", w.max_bytes, w.min_bytes),
            ));
        }
        let archive = (p.tapes as f64) * (p.tape_capacity_bytes as f64);
        if w.max_bytes as f64 > archive {
            return Err(Error::invalid(
                "workload.max_bytes",
                format!(
                    "a {}-byte file is larger than the whole archive ({} tapes of {} bytes)",
                    w.max_bytes, p.tapes, p.tape_capacity_bytes
                ),
            ));
        }
        if self.block_bytes > p.tape_capacity_bytes {
            return Err(Error::invalid(
                "block_bytes",
                format!("{} is larger than a tape", self.block_bytes),
            ));
        }
        if let Some(cd) = w.data_compression {
            if !(cd >= 1.0 && cd.is_finite()) {
                return Err(Error::invalid(
                    "workload.data_compression",
                    format!("must be >= 1, got {cd}"),
                ));
            }
        }
        if let Some(ce) = w.ec_compression {
            if !(ce >= 1.0 && ce.is_finite()) {
                return Err(Error::invalid(
                    "workload.ec_compression",
                    format!("must be >= 1, got {ce}"),
                ));
            }
        }
        if w.schemes.is_empty() {
            return Err(Error::invalid(
                "workload.schemes",
                "needs at least one scheme",
            ));
        }
        let total: f64 = w.schemes.iter().map(|s| s.p).sum();
        for (i, sh) in w.schemes.iter().enumerate() {
            let scheme = Scheme::new(sh.x, sh.y)
                .map_err(|e| Error::invalid(format!("workload.schemes[{i}]"), e.to_string()))?;
            if !(sh.p >= 0.0 && sh.p.is_finite()) {
                return Err(Error::invalid(
                    format!("workload.schemes[{i}].p"),
                    format!("must be >= 0, got {}", sh.p),
                ));
            }
            let policies = self.choice().policies();
            let needs =
                |policy: &Policy| policy.holds(scheme, self.block_bytes, p.tape_capacity_bytes);
            let drives = policies
                .iter()
                .map(|policy| policy.drives(scheme))
                .max()
                .unwrap_or(0);
            if drives > p.drives_per_mover {
                return Err(Error::invalid(
                    format!("workload.schemes[{i}]"),
                    format!(
                        "{scheme} needs {drives} drives on one mover but a mover has {}",
                        p.drives_per_mover
                    ),
                ));
            }
            let ram = policies
                .iter()
                .map(|policy| needs(policy).0)
                .max()
                .unwrap_or(0);
            if ram > p.mover_ram_bytes {
                return Err(Error::invalid(
                    "block_bytes",
                    format!(
                        "{scheme} with B = {} needs {ram} bytes of mover RAM, more than {}",
                        self.block_bytes, p.mover_ram_bytes
                    ),
                ));
            }
            for policy in &policies {
                let disk = needs(policy).1;
                if disk > p.mover_disk_bytes {
                    return Err(Error::invalid(
                        "platform.mover_disk_bytes",
                        format!(
                            "{} {scheme} keeps {disk} bytes of EC on disk, more than {}",
                            policy.name().to_uppercase(),
                            p.mover_disk_bytes
                        ),
                    ));
                }
            }
        }
        if total <= 0.0 || total.is_nan() {
            return Err(Error::invalid("workload.schemes", "probabilities sum to 0"));
        }
        self.check_service_time()
    }

    /// Refuses figures that make one request's service longer than
    /// [`MAX_SERVICE_S`], naming the largest term: while anything waits, a
    /// Load-Balancer run comes at least every `min_lb_interval_s`, so a load
    /// of 2^64 s hung a run of 20 requests.
    fn check_service_time(&self) -> Result<()> {
        let p = &self.platform;
        let terms = [
            ("platform.robot_s", p.robot_s),
            ("platform.load_s", p.load_s),
            ("platform.full_locate_s", p.full_locate_s),
            ("platform.unload_s", p.unload_s),
            (
                "platform.drive_rate_bps",
                self.workload.max_bytes as f64 / p.drive_rate_bps,
            ),
        ];
        let worst: f64 = terms.iter().map(|(_, v)| v).sum();
        if worst <= MAX_SERVICE_S {
            return Ok(());
        }
        let (field, _) = terms
            .iter()
            .copied()
            .fold(terms[0], |a, b| if b.1 > a.1 { b } else { a });
        Err(Error::invalid(
            field,
            format!(
                "one request's robot, load, locate, unload and read of workload.max_bytes take \
                 {worst:.3e} s, more than {MAX_SERVICE_S:.0} s (30 days)"
            ),
        ))
    }
}
