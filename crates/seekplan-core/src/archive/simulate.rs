//! The archive over time: requests arrive, the Main-Scheduler maps them on
//! I/O processes created on movers, the Load-Balancer periodically rebuilds
//! the processes (section 5), and drives read and write as the layouts say.

use super::platform::Hardware;
use super::workload::{generate, Generated, Kind};
use super::{ArchiveConfig, Piece, Policy, Scheme, Tapes, Writer};
use crate::sim::{run, Calendar, Model};
use crate::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet, VecDeque};

/// A request type: policy and scheme (section 5).
type Type = (Policy, Scheme);

/// What a run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArchiveMetrics {
    /// Requests served.
    pub requests: usize,
    /// Mean of response time / size, seconds per GB (10^9 bytes).
    pub weighted_response_s_per_gb: f64,
    /// Mean response time, seconds.
    pub mean_response_s: f64,
    /// Mean stretch: response time over the request's own service time.
    pub mean_stretch: f64,
    /// Bytes of files read or written per second of the run.
    pub throughput_bps: f64,
    /// Fraction of drive time spent loading, locating, transferring, unloading.
    pub drive_utilisation: f64,
    /// Cartridge loads.
    pub mounts: u64,
    /// Times the Load-Balancer rebuilt the processes.
    pub load_balancer_runs: u64,
    /// Requests in the system when half of them had arrived.
    pub backlog_half: usize,
    /// Requests in the system when the last one arrived.
    pub backlog_end: usize,
    /// Whether the backlog grew over the second half of the arrivals by more
    /// than 10 % of those arrivals (and more than 5 requests): the system does
    /// not keep up with this arrival rate.
    pub saturated: bool,
    /// Last completion, seconds.
    pub makespan_s: f64,
    /// Cartridges written on.
    pub tapes_used: u64,
    /// Events the engine handled.
    pub events: u64,
}

struct Proc {
    ty: Type,
    mover: usize,
    drives: Vec<usize>,
    queue: VecDeque<usize>,
    running: Option<usize>,
    writer: Writer,
    terminating: bool,
}

struct Mover {
    idle: u32,
    ram: u64,
    disk: u64,
}

enum Ev {
    Arrive(usize),
    Done(usize),
    Balance,
}

struct Archive<'a> {
    cfg: &'a ArchiveConfig,
    gen: Generated,
    hw: Hardware,
    tapes: Tapes,
    movers: Vec<Mover>,
    procs: Vec<Option<Proc>>,
    by_type: BTreeMap<Type, Vec<usize>>,
    waiting: VecDeque<usize>,
    file_pieces: Vec<Vec<Piece>>,
    file_pending: Vec<u32>,
    file_running: Vec<bool>,
    start: Vec<f64>,
    end: Vec<f64>,
    done: usize,
    arrived: usize,
    backlog_half: usize,
    backlog_end: usize,
    lb_runs: u64,
    error: Option<Error>,
}

impl Archive<'_> {
    fn load(&self, p: usize) -> usize {
        let pr = self.procs[p].as_ref().expect("live process");
        pr.queue.len() + usize::from(pr.running.is_some())
    }

    fn tapes_in_use(&self, file: usize, now: f64) -> bool {
        self.file_pieces[file]
            .iter()
            .any(|p| self.hw.in_use(p.tape, now))
    }

    fn needs(&self, ty: Type) -> (u32, u64, u64) {
        let p = &self.cfg.platform;
        let drives = ty.0.drives(ty.1);
        match ty.0 {
            Policy::Vertical => (drives, 0, u64::from(ty.1.y) * p.tape_capacity_bytes),
            _ => (drives, u64::from(ty.1.width()) * self.cfg.block_bytes, 0),
        }
    }

    /// Creates a process of type `ty` on the mover that fits it most tightly.
    fn create(&mut self, ty: Type) -> Option<usize> {
        let (n, ram, disk) = self.needs(ty);
        let mover = (0..self.movers.len())
            .filter(|&m| {
                let mv = &self.movers[m];
                mv.idle >= n && mv.ram >= ram && mv.disk >= disk
            })
            .min_by_key(|&m| self.movers[m].idle)?;
        let pid = self.procs.len();
        let per = self.cfg.platform.drives_per_mover as usize;
        let drives: Vec<usize> = (mover * per..(mover + 1) * per)
            .filter(|&d| self.hw.drives[d].owner.is_none())
            .take(n as usize)
            .collect();
        for &d in &drives {
            self.hw.drives[d].owner = Some(pid);
        }
        let mv = &mut self.movers[mover];
        mv.idle -= n;
        mv.ram -= ram;
        mv.disk -= disk;
        let writer = Writer::new(ty.0, ty.1, self.cfg.block_bytes).expect("validated block size");
        self.procs.push(Some(Proc {
            ty,
            mover,
            drives,
            queue: VecDeque::new(),
            running: None,
            writer,
            terminating: false,
        }));
        self.by_type.entry(ty).or_default().push(pid);
        Some(pid)
    }

    /// Ends process `p` at `t`: VERTICAL writes its pending EC, every loaded
    /// cartridge is ejected, and the drives go back to the mover.
    fn close(&mut self, p: usize, t: f64) {
        let mut pr = self.procs[p].take().expect("live process");
        if let Some(list) = self.by_type.get_mut(&pr.ty) {
            list.retain(|&q| q != p);
        }
        let ec = pr.writer.close(&mut self.tapes);
        let t = self.hw.serve(pr.drives[0], ec.iter(), t);
        for &d in &pr.drives {
            self.hw.eject(d, t);
            self.hw.drives[d].owner = None;
        }
        let (n, ram, disk) = self.needs(pr.ty);
        let mv = &mut self.movers[pr.mover];
        mv.idle += n;
        mv.ram += ram;
        mv.disk += disk;
    }

    fn assign(&mut self, p: usize, r: usize, cal: &mut Calendar<Ev>) {
        let pr = self.procs[p].as_mut().expect("live process");
        pr.queue.push_back(r);
        if pr.running.is_none() {
            self.start_next(p, cal);
        }
    }

    fn start_next(&mut self, p: usize, cal: &mut Calendar<Ev>) {
        let now = cal.now();
        let Some(pr) = self.procs[p].as_mut() else {
            return;
        };
        let Some(r) = pr.queue.pop_front() else {
            return;
        };
        pr.running = Some(r);
        let req = self.gen.requests[r];
        let file = self.gen.files[req.file];
        let pieces = match req.kind {
            Kind::Write => match pr.writer.write(&file, &mut self.tapes) {
                Ok(p) => p,
                Err(e) => {
                    self.error.get_or_insert(e);
                    Vec::new()
                }
            },
            Kind::Read => self.file_pieces[req.file].clone(),
        };
        let drives = pr.drives.clone();
        let mut end = now;
        for (slot, &d) in drives.iter().enumerate() {
            let mine = pieces.iter().filter(|pc| pc.slot as usize == slot);
            end = end.max(self.hw.serve(d, mine, now));
        }
        for pc in &pieces {
            self.hw.reserve(pc.tape, end);
        }
        if req.kind == Kind::Write {
            self.file_pieces[req.file] = pieces
                .into_iter()
                .filter(|pc| pc.content.read_needed())
                .collect();
        }
        self.file_running[req.file] = true;
        self.start[r] = now;
        cal.schedule_at(end, Ev::Done(p));
    }

    /// Main-Scheduler: a process of the type with a light load, else a new
    /// process, else any process of the type (section 5).
    fn place(&mut self, r: usize, cal: &mut Calendar<Ev>) -> bool {
        let req = self.gen.requests[r];
        let ty = (req.policy, req.scheme);
        let live: Vec<usize> = self.by_type.get(&ty).cloned().unwrap_or_default();
        let lightest = live.iter().copied().min_by_key(|&p| self.load(p));
        if let Some(p) =
            lightest.filter(|&p| self.load(p) <= self.cfg.scheduler.max_light_load as usize)
        {
            self.assign(p, r, cal);
        } else if let Some(p) = self.create(ty) {
            self.assign(p, r, cal);
        } else if let Some(p) = lightest {
            self.assign(p, r, cal);
        } else {
            return false;
        }
        true
    }

    fn blocked(&self, r: usize, now: f64) -> bool {
        let req = self.gen.requests[r];
        req.kind == Kind::Read && self.tapes_in_use(req.file, now)
    }

    fn arrive(&mut self, r: usize, cal: &mut Calendar<Ev>) {
        let file = self.gen.requests[r].file;
        self.arrived += 1;
        let busy = self.file_pending[file] > 0 || self.blocked(r, cal.now());
        self.file_pending[file] += 1;
        if busy || !self.place(r, cal) {
            self.waiting.push_back(r);
        }
        let n = self.gen.requests.len();
        if self.arrived == n.div_ceil(2) {
            self.backlog_half = self.arrived - self.done;
        }
        if self.arrived == n {
            self.backlog_end = self.arrived - self.done;
        } else {
            cal.schedule_at(self.gen.requests[r + 1].arrival_s, Ev::Arrive(r + 1));
        }
    }

    fn finish(&mut self, p: usize, cal: &mut Calendar<Ev>) {
        let now = cal.now();
        let pr = self.procs[p].as_mut().expect("live process");
        let r = pr.running.take().expect("a running request");
        let terminating = pr.terminating;
        let file = self.gen.requests[r].file;
        self.end[r] = now;
        self.done += 1;
        self.file_pending[file] -= 1;
        self.file_running[file] = false;
        if terminating {
            self.close(p, now);
        } else {
            self.start_next(p, cal);
        }
    }

    /// Load-per-process imbalance between request types.
    fn imbalance(&self) -> f64 {
        let mut reqs: BTreeMap<Type, (usize, usize)> = BTreeMap::new();
        for (ty, ps) in &self.by_type {
            let e = reqs.entry(*ty).or_default();
            e.1 += ps.len();
            e.0 += ps.iter().map(|&p| self.load(p)).sum::<usize>();
        }
        for &r in &self.waiting {
            let q = self.gen.requests[r];
            reqs.entry((q.policy, q.scheme)).or_default().0 += 1;
        }
        let loads: Vec<f64> = reqs
            .values()
            .map(|&(n, p)| n as f64 / p.max(1) as f64)
            .collect();
        let max = loads.iter().copied().fold(f64::MIN, f64::max);
        let min = loads.iter().copied().fold(f64::MAX, f64::min);
        if loads.is_empty() {
            0.0
        } else {
            max - min
        }
    }

    fn balance_due(&self, now: f64) -> bool {
        let s = &self.cfg.scheduler;
        let oldest = self.waiting.iter().min().copied();
        let stale = oldest.is_some_and(|r| {
            let q = self.gen.requests[r];
            now - q.arrival_s > s.max_waiting_time_s && !self.file_running[q.file]
        });
        stale || self.waiting.len() > s.max_req_count as usize || self.imbalance() > s.max_imbalance
    }

    /// Load-Balancer (section 5): every pending request becomes unscheduled,
    /// every process ends (running ones after their request), one process
    /// per required type is created, then more for the most loaded types
    /// while drives remain, and the requests are mapped again.
    fn balance(&mut self, cal: &mut Calendar<Ev>) {
        let now = cal.now();
        self.lb_runs += 1;
        let mut pending: Vec<usize> = self.waiting.drain(..).collect();
        for p in 0..self.procs.len() {
            let Some(pr) = self.procs[p].as_mut() else {
                continue;
            };
            pending.extend(pr.queue.drain(..));
            if pr.running.is_some() {
                pr.terminating = true;
                let ty = pr.ty;
                if let Some(list) = self.by_type.get_mut(&ty) {
                    list.retain(|&q| q != p);
                }
            } else {
                self.close(p, now);
            }
        }
        pending.sort_unstable();
        let mut wanted: BTreeMap<Type, usize> = BTreeMap::new();
        for &r in &pending {
            let q = self.gen.requests[r];
            *wanted.entry((q.policy, q.scheme)).or_default() += 1;
        }
        // One process per required type, the most requested types first
        // (the paper leaves the order open; this one avoids starving them).
        let mut required: Vec<(usize, Type)> = wanted.iter().map(|(ty, &n)| (n, *ty)).collect();
        required.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, ty) in required {
            self.create(ty);
        }
        loop {
            let mut order: Vec<(f64, Type)> = wanted
                .iter()
                .map(|(ty, &n)| {
                    (
                        n as f64 / self.by_type.get(ty).map_or(0, Vec::len).max(1) as f64,
                        *ty,
                    )
                })
                .collect();
            order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            if !order.iter().any(|&(_, ty)| self.create(ty).is_some()) {
                break;
            }
        }
        let mut blocked_files = HashSet::new();
        for r in pending {
            let q = self.gen.requests[r];
            let target = self
                .by_type
                .get(&(q.policy, q.scheme))
                .and_then(|ps| ps.iter().copied().min_by_key(|&p| self.load(p)));
            let free = !self.file_running[q.file]
                && !blocked_files.contains(&q.file)
                && !self.blocked(r, now);
            match target.filter(|_| free) {
                Some(p) => self.assign(p, r, cal),
                None => self.waiting.push_back(r),
            }
            blocked_files.insert(q.file);
        }
    }
}

impl Model for Archive<'_> {
    type Event = Ev;
    fn handle(&mut self, event: Ev, cal: &mut Calendar<Ev>) {
        match event {
            Ev::Arrive(r) => self.arrive(r, cal),
            Ev::Done(p) => self.finish(p, cal),
            Ev::Balance => {
                if self.balance_due(cal.now()) {
                    self.balance(cal);
                }
                if self.done < self.gen.requests.len() {
                    cal.schedule(self.cfg.scheduler.min_lb_interval_s, Ev::Balance);
                }
            }
        }
    }
}

/// Writes the files archived before time 0 (not timed, tapes left in
/// slots). Each goes on cartridges of its own: the archive is full-scale and
/// the other files on those tapes are not requested during the run (choice;
/// packing the initial files densely would put most reads on a few tapes).
fn preload(cfg: &ArchiveConfig, gen: &Generated, tapes: &mut Tapes) -> Result<Vec<Vec<Piece>>> {
    let mut out = vec![Vec::new(); gen.files.len()];
    for (i, &(policy, scheme)) in gen.initial_types.iter().enumerate() {
        let mut w = Writer::new(policy, scheme, cfg.block_bytes)?;
        out[i] = w
            .write(&gen.files[i], tapes)?
            .into_iter()
            .filter(|p| p.content.read_needed())
            .collect();
        w.close(tapes);
    }
    Ok(out)
}

/// Simulates the archive under `cfg` until every request is served.
pub fn simulate(cfg: &ArchiveConfig) -> Result<ArchiveMetrics> {
    cfg.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let gen = generate(cfg, &mut rng);
    let mut tapes = Tapes::new(cfg.platform.tape_capacity_bytes)?;
    let file_pieces = preload(cfg, &gen, &mut tapes)?;
    let p = &cfg.platform;
    let n = gen.requests.len();
    let nfiles = gen.files.len();
    let mut model = Archive {
        cfg,
        hw: Hardware::new(cfg),
        tapes,
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
        file_pieces,
        file_pending: vec![0; nfiles],
        file_running: vec![false; nfiles],
        start: vec![0.0; n],
        end: vec![0.0; n],
        done: 0,
        arrived: 0,
        backlog_half: 0,
        backlog_end: 0,
        lb_runs: 0,
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
    if model.done < n {
        return Err(Error::invalid(
            "workload",
            format!("only {} of {n} requests could be served", model.done),
        ));
    }
    if model.tapes.used() > p.tapes {
        return Err(Error::invalid(
            "platform.tapes",
            format!(
                "the run needed {} cartridges but the library has {}",
                model.tapes.used(),
                p.tapes
            ),
        ));
    }
    Ok(metrics(&model, stats.events))
}

fn metrics(m: &Archive<'_>, events: u64) -> ArchiveMetrics {
    let reqs = &m.gen.requests;
    let n = reqs.len();
    let mut weighted = 0.0;
    let mut resp = 0.0;
    let mut stretch = 0.0;
    let mut bytes = 0.0;
    for (i, q) in reqs.iter().enumerate() {
        let size = m.gen.files[q.file].bytes as f64;
        let r = m.end[i] - q.arrival_s;
        weighted += r / (size / 1e9);
        resp += r;
        stretch += r / (m.end[i] - m.start[i]).max(1e-9);
        bytes += size;
    }
    let makespan = m.end.iter().copied().fold(0.0, f64::max);
    let drives = m.hw.drives.len() as f64;
    let growth = m.backlog_end as f64 - m.backlog_half as f64;
    let half = (n - n.div_ceil(2)) as f64;
    ArchiveMetrics {
        requests: n,
        weighted_response_s_per_gb: weighted / n as f64,
        mean_response_s: resp / n as f64,
        mean_stretch: stretch / n as f64,
        throughput_bps: bytes / makespan.max(1e-9),
        drive_utilisation: m.hw.busy_s / (drives * makespan.max(1e-9)),
        mounts: m.hw.mounts,
        load_balancer_runs: m.lb_runs,
        backlog_half: m.backlog_half,
        backlog_end: m.backlog_end,
        saturated: growth > (0.1 * half).max(5.0),
        makespan_s: makespan,
        tapes_used: m.tapes.used(),
        events,
    }
}
