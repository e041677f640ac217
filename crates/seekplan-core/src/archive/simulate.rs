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
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// Cartridges of the archive at time 0 are numbered from here, apart from
/// the empty ones the run writes on.
const INITIAL_TAPES: u64 = 1 << 62;

/// A request type: policy and scheme (section 5).
type Type = (Policy, Scheme);

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

/// Why a request waited (bits of `Archive::waits`).
const SAME_FILE: u8 = 1;
const TAPE_IN_USE: u8 = 2;
const NO_PROCESS: u8 = 4;
const LOAD_BALANCER: u8 = 8;

struct Archive<'a> {
    cfg: &'a ArchiveConfig,
    gen: Generated,
    hw: Hardware,
    tapes: Tapes,
    /// Cartridges of the archive at time 0, laid out as requests touch them.
    initial_tapes: Tapes,
    movers: Vec<Mover>,
    procs: Vec<Option<Proc>>,
    by_type: BTreeMap<Type, Vec<usize>>,
    waiting: VecDeque<usize>,
    file_pieces: HashMap<usize, Vec<Piece>>,
    file_pending: HashMap<usize, u32>,
    file_running: HashSet<usize>,
    start: Vec<f64>,
    end: Vec<f64>,
    waits: Vec<u8>,
    done: usize,
    arrived: usize,
    backlog_half: usize,
    backlog_end: usize,
    lb_runs: u64,
    /// Drives held by processes, since when, and drive-seconds held from
    /// the warm-up on.
    held: u32,
    held_since: f64,
    held_s: f64,
    held_total_s: f64,
    /// When the run was stopped at `max_backlog`.
    stopped_at: Option<f64>,
    /// Time of the event being handled.
    now: f64,
    error: Option<Error>,
}

impl Archive<'_> {
    fn load(&self, p: usize) -> usize {
        let pr = self.procs[p].as_ref().expect("live process");
        pr.queue.len() + usize::from(pr.running.is_some())
    }

    fn tapes_in_use(&self, file: usize, now: f64) -> bool {
        self.file_pieces
            .get(&file)
            .is_some_and(|ps| ps.iter().any(|p| self.hw.in_use(p.tape, now)))
    }

    /// Lays out a file of the initial archive the first time a request
    /// touches it, on cartridges of its own (not timed: it is already there).
    /// A full archive holds far more files than a run touches, so the other
    /// files sharing those cartridges are not requested (choice).
    fn touch(&mut self, r: usize) {
        let q = self.gen.requests[r];
        if q.file >= self.gen.initial || self.file_pieces.contains_key(&q.file) {
            return;
        }
        let pieces = Writer::new(q.policy, q.scheme, self.cfg.block_bytes).and_then(|mut w| {
            let ps = w.write(&q.spec, &mut self.initial_tapes)?;
            w.close(&mut self.initial_tapes);
            Ok(ps)
        });
        match pieces {
            Ok(ps) => {
                let ps = ps.into_iter().filter(|p| p.content.read_needed()).collect();
                self.file_pieces.insert(q.file, ps);
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
    }

    /// Adds `delta` drives to those held by processes, at `t`.
    fn hold(&mut self, delta: i64, t: f64) {
        let from = self.held_since.max(self.cfg.workload.warmup_s);
        if t > from {
            self.held_s += f64::from(self.held) * (t - from);
        }
        self.held_total_s += f64::from(self.held) * (t - self.held_since).max(0.0);
        self.held = (i64::from(self.held) + delta) as u32;
        self.held_since = t;
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
        self.hold(i64::from(n), self.now);
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
        self.hold(-i64::from(n), t);
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
        let pieces = match req.kind {
            Kind::Write => match pr.writer.write(&req.spec, &mut self.tapes) {
                Ok(p) => p,
                Err(e) => {
                    self.error.get_or_insert(e);
                    Vec::new()
                }
            },
            Kind::Read => self.file_pieces.get(&req.file).cloned().unwrap_or_default(),
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
            let kept = pieces
                .into_iter()
                .filter(|pc| pc.content.read_needed())
                .collect();
            self.file_pieces.insert(req.file, kept);
        }
        self.file_running.insert(req.file);
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
            self.waits[r] |= NO_PROCESS;
            return false;
        }
        true
    }

    fn blocked(&self, r: usize, now: f64) -> bool {
        let req = self.gen.requests[r];
        req.kind == Kind::Read && self.tapes_in_use(req.file, now)
    }

    fn arrive(&mut self, r: usize, cal: &mut Calendar<Ev>) {
        let now = cal.now();
        let file = self.gen.requests[r].file;
        self.arrived += 1;
        self.touch(r);
        let pending = self.file_pending.entry(file).or_default();
        let same_file = *pending > 0;
        *pending += 1;
        let tape_busy = !same_file && self.blocked(r, now);
        if same_file {
            self.waits[r] |= SAME_FILE;
        } else if tape_busy {
            self.waits[r] |= TAPE_IN_USE;
        }
        if same_file || tape_busy || !self.place(r, cal) {
            self.waiting.push_back(r);
        }
        let n = self.gen.requests.len();
        if self.arrived == n.div_ceil(2) {
            self.backlog_half = self.arrived - self.done;
        }
        if self.arrived - self.done > self.cfg.max_backlog as usize {
            self.stopped_at = Some(now);
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
        if let Some(n) = self.file_pending.get_mut(&file) {
            *n -= 1;
            if *n == 0 {
                self.file_pending.remove(&file);
            }
        }
        self.file_running.remove(&file);
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
            now - q.arrival_s > s.max_waiting_time_s && !self.file_running.contains(&q.file)
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
            for r in pr.queue.drain(..) {
                self.waits[r] |= LOAD_BALANCER;
                pending.push(r);
            }
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
        // One process per required type, the type of the oldest pending
        // request first (the paper leaves the order open; most-requested
        // first livelocks when the drives are too few for one process per
        // type: the oldest request's type may never get one).
        let mut required: Vec<Type> = Vec::new();
        for &r in &pending {
            let q = self.gen.requests[r];
            if !required.contains(&(q.policy, q.scheme)) {
                required.push((q.policy, q.scheme));
            }
        }
        for ty in required {
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
            let free = !self.file_running.contains(&q.file)
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
        self.now = cal.now();
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

    fn finished(&self) -> bool {
        self.stopped_at.is_some() || self.error.is_some()
    }
}

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
        hw: Hardware::new(cfg),
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
        held: 0,
        held_since: 0.0,
        held_s: 0.0,
        held_total_s: 0.0,
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
    model.hold(0, end);
    metrics(&model, end, stats.events)
}

fn metrics(m: &Archive<'_>, end: f64, events: u64) -> Result<ArchiveMetrics> {
    // A run stopped (saturated) before the warm-up ended is measured whole.
    let whole = end <= m.cfg.workload.warmup_s;
    let warmup = if whole { 0.0 } else { m.cfg.workload.warmup_s };
    let (busy, held, arms) = if whole {
        (m.hw.busy_total_s, m.held_total_s, m.hw.arm_busy_total_s)
    } else {
        (m.hw.busy_s, m.held_s, m.hw.arm_busy_s)
    };
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
