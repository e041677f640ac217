//! What a run measured, computed from the archive's state at its end.

use super::state::{Archive, LOAD_BALANCER, NO_PROCESS, SAME_FILE, TAPE_IN_USE};
use crate::{Error, Result};
use serde::Serialize;

/// What a run measured. Request metrics cover the requests that arrived
/// after the warm-up; time fractions cover the run from the warm-up on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArchiveMetrics {
    /// Requests measured (arrived after the warm-up).
    pub requests: usize,
    /// Requests that arrived, warm-up included.
    pub arrivals: usize,
    /// Measured requests still unfinished when a saturated run was stopped;
    /// their response is the time they had waited by then.
    pub censored: usize,
    /// Mean of response time / size, seconds per GB (10^9 bytes).
    pub weighted_response_s_per_gb: f64,
    /// Mean response time, seconds.
    pub mean_response_s: f64,
    /// Mean stretch of the finished requests: response time over the
    /// request's own service time.
    pub mean_stretch: f64,
    /// Bytes of files read or written per second of the run.
    pub throughput_bps: f64,
    /// Fraction of drive time spent loading, locating, transferring,
    /// repositioning and unloading (0-1).
    pub drive_utilisation: f64,
    /// Fraction of drive time the drives were held by an I/O process on
    /// their mover, busy or not (0-1): what the movers had committed.
    pub mover_utilisation: f64,
    /// Fraction of the movers' local disk reserved by processes (VERTICAL
    /// keeps Y tapes' worth of EC there), time-averaged (0-1).
    pub mover_disk_utilisation: f64,
    /// Fraction of robot-arm time spent moving cartridges (0-1), from the
    /// warm-up on.
    pub arm_utilisation: f64,
    /// Mean seconds from arrival to the start of service.
    pub mean_wait_s: f64,
    /// Share of requests put in the waiting list at arrival because an
    /// earlier request for the same file was not finished.
    pub waited_same_file: f64,
    /// Share of (read) requests put in the waiting list at arrival because
    /// one of their file's cartridges was in use.
    pub waited_tape_in_use: f64,
    /// Share of requests the Main-Scheduler could not place at arrival: no
    /// process of their type and no mover with the drives for a new one.
    pub waited_no_process: f64,
    /// Share of requests taken off a process's queue by a Load-Balancer run
    /// and mapped again (or put back in the waiting list).
    pub waited_load_balancer: f64,
    /// Cartridge loads.
    pub mounts: u64,
    /// Times the Load-Balancer rebuilt the processes.
    pub load_balancer_runs: u64,
    /// Requests in the system when half of them had arrived.
    pub backlog_half: usize,
    /// Requests in the system when the last one arrived.
    pub backlog_end: usize,
    /// Whether the system did not keep up with the arrival rate: the run was
    /// stopped because more than `max_backlog` requests were in it, or the
    /// backlog grew over the second half of the arrivals by more than 10 %
    /// of those arrivals (and more than 5 requests).
    pub saturated: bool,
    /// Whether the run was stopped at `max_backlog`.
    pub stopped: bool,
    /// Last completion (or the stop of a stopped run), seconds.
    pub makespan_s: f64,
    /// Empty cartridges written on during the run.
    pub tapes_used: u64,
    /// Cartridges of the initial archive that requests touched.
    pub archive_tapes_touched: u64,
    /// Events the engine handled.
    pub events: u64,
}

pub(super) fn metrics(m: &Archive<'_>, end: f64, events: u64) -> Result<ArchiveMetrics> {
    // A run stopped (saturated) before the warm-up ended is measured whole.
    let whole = end <= m.cfg.workload.warmup_s;
    let warmup = if whole { 0.0 } else { m.cfg.workload.warmup_s };
    let (busy, held, disk, arms) = if whole {
        (
            m.hw.busy_total_s,
            m.drives_held.total,
            m.disk_held.total,
            m.hw.arm_busy_total_s,
        )
    } else {
        (
            m.hw.busy_s,
            m.drives_held.measured,
            m.disk_held.measured,
            m.hw.arm_busy_s,
        )
    };
    let p = &m.cfg.platform;
    let mover_disk = f64::from(p.movers) * p.mover_disk_bytes as f64;
    let reqs = &m.gen.requests;
    let n = reqs.len();
    let mut count = 0usize;
    let mut censored = 0usize;
    let (mut weighted, mut resp, mut stretch, mut wait, mut bytes) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut causes = [0usize; 4];
    for (i, q) in reqs.iter().enumerate() {
        if q.arrival_s < warmup || q.arrival_s > end {
            continue;
        }
        count += 1;
        let size = q.spec.bytes as f64;
        let finished = m.end[i].is_finite();
        censored += usize::from(!finished);
        let r = if finished { m.end[i] } else { end } - q.arrival_s;
        weighted += r / (size / 1e9);
        resp += r;
        let start = if m.start[i].is_finite() {
            m.start[i]
        } else {
            end
        };
        wait += start - q.arrival_s;
        if finished {
            stretch += r / (m.end[i] - m.start[i]).max(1e-9);
            bytes += size;
        }
        for (k, bit) in [SAME_FILE, TAPE_IN_USE, NO_PROCESS, LOAD_BALANCER]
            .into_iter()
            .enumerate()
        {
            causes[k] += usize::from(m.waits[i] & bit != 0);
        }
    }
    if count == 0 {
        return Err(Error::invalid(
            "workload.warmup_s",
            "no request arrived after the warm-up",
        ));
    }
    let c = count as f64;
    let window = (end - warmup).max(1e-9);
    let drives = m.hw.drives.len() as f64;
    let growth = m.backlog_end as f64 - m.backlog_half as f64;
    let half = (n - n.div_ceil(2)) as f64;
    let stopped = m.stopped_at.is_some();
    Ok(ArchiveMetrics {
        requests: count,
        arrivals: m.arrived,
        censored,
        weighted_response_s_per_gb: weighted / c,
        mean_response_s: resp / c,
        mean_stretch: stretch / (count - censored).max(1) as f64,
        throughput_bps: bytes / window,
        drive_utilisation: (busy / (drives * window)).min(1.0),
        mover_utilisation: (held / (drives * window)).min(1.0),
        mover_disk_utilisation: if mover_disk > 0.0 {
            (disk / (mover_disk * window)).min(1.0)
        } else {
            0.0
        },
        arm_utilisation: (arms / (f64::from(m.cfg.platform.robot_arms) * window)).min(1.0),
        mean_wait_s: wait / c,
        waited_same_file: causes[0] as f64 / c,
        waited_tape_in_use: causes[1] as f64 / c,
        waited_no_process: causes[2] as f64 / c,
        waited_load_balancer: causes[3] as f64 / c,
        mounts: m.hw.mounts,
        load_balancer_runs: m.lb_runs,
        backlog_half: m.backlog_half,
        backlog_end: m.backlog_end,
        saturated: stopped || growth > (0.1 * half).max(5.0),
        stopped,
        makespan_s: end,
        tapes_used: m.tapes.used(),
        archive_tapes_touched: m.initial_tapes.used(),
        events,
    })
}
