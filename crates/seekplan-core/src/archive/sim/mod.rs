//! The archive over time: requests arrive, the Main-Scheduler maps them on
//! I/O processes created on movers, the Load-Balancer periodically rebuilds
//! the processes (section 5), and drives read and write as the layouts say.
//! `state` holds the archive and its mechanics, `scheduler` the placement
//! rules, `metrics` what a run reports.

mod metrics;
mod scheduler;
mod state;

pub use metrics::ArchiveMetrics;
pub(crate) use scheduler::scheduler_names;

use super::platform::PlatformState;
use super::workload::generate;
use super::{ArchiveConfig, Policy, Scheme, Tapes};
use crate::sim::{run, Calendar};
use crate::{Error, Result};
use metrics::metrics;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use state::{Archive, Ev, Held, Mover};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// Cartridges of the archive at time 0 are numbered from here, apart from
/// the empty ones the run writes on.
const INITIAL_TAPES: u64 = 1 << 62;

/// A request type: policy and scheme (section 5).
type Type = (Policy, Scheme);

/// Simulates the archive under `cfg` until every request is served, or
/// until more than `max_backlog` requests are in the system.
pub fn simulate(cfg: &ArchiveConfig) -> Result<ArchiveMetrics> {
    cfg.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let gen = generate(cfg, &mut rng);
    let n = gen.requests.len();
    if n == 0 {
        return Err(Error::invalid(
            "workload.duration_s",
            "no request arrives in the run",
        ));
    }
    let p = &cfg.platform;
    let mut model = Archive {
        cfg,
        scheduler: scheduler::by_name(&cfg.scheduler.algorithm)?,
        hw: PlatformState::new(cfg),
        tapes: Tapes::new(p.tape_capacity_bytes)?,
        initial_tapes: Tapes::starting_at(p.tape_capacity_bytes, INITIAL_TAPES)?,
        movers: (0..p.movers)
            .map(|_| Mover {
                idle: p.drives_per_mover,
                ram: p.mover_ram_bytes,
                disk: p.mover_disk_bytes,
            })
            .collect(),
        procs: Vec::new(),
        by_type: BTreeMap::new(),
        waiting: VecDeque::new(),
        file_pieces: HashMap::new(),
        file_pending: HashMap::new(),
        file_running: HashSet::new(),
        start: vec![f64::NAN; n],
        end: vec![f64::NAN; n],
        waits: vec![0; n],
        done: 0,
        arrived: 0,
        backlog_half: 0,
        backlog_end: 0,
        lb_runs: 0,
        drives_held: Held::default(),
        disk_held: Held::default(),
        stopped_at: None,
        now: 0.0,
        error: None,
        gen,
    };
    let mut cal = Calendar::new();
    cal.schedule_at(model.gen.requests[0].arrival_s, Ev::Arrive(0));
    cal.schedule(cfg.scheduler.min_lb_interval_s, Ev::Balance);
    let stats = run(&mut model, &mut cal, f64::INFINITY);
    if let Some(e) = model.error {
        return Err(e);
    }
    if model.stopped_at.is_none() && model.done < n {
        return Err(Error::invalid(
            "workload",
            format!("only {} of {n} requests could be served", model.done),
        ));
    }
    if model.tapes.used() > p.tapes {
        return Err(Error::invalid(
            "platform.tapes",
            format!(
                "the run needed {} empty cartridges but the library has {}",
                model.tapes.used(),
                p.tapes
            ),
        ));
    }
    // The last completion (Load-Balancer checks may follow it), or the stop.
    let end = model
        .stopped_at
        .unwrap_or_else(|| model.end.iter().copied().fold(0.0, f64::max));
    model.hold(0.0, 0.0, end);
    metrics(&model, end, stats.events)
}
