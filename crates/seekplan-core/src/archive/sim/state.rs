//! The archive's state over a run and what happens to it: requests arrive,
//! processes are created on movers and closed, drives serve their queues.
//! Where a request goes is the [`Scheduler`]'s decision.

use super::scheduler::Scheduler;
use super::Type;
use crate::archive::platform::PlatformState;
use crate::archive::workload::{Generated, Kind};
use crate::archive::{ArchiveConfig, Piece, Tapes, Writer};
use crate::sim::{Calendar, Model};
use crate::Error;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// An I/O process: a type, the drives it holds on its mover, its queue.
pub(super) struct Proc {
    pub(super) ty: Type,
    pub(super) mover: usize,
    pub(super) drives: Vec<usize>,
    pub(super) queue: VecDeque<usize>,
    pub(super) running: Option<usize>,
    pub(super) writer: Writer,
    pub(super) terminating: bool,
}

/// What a mover node has left for new processes.
pub(super) struct Mover {
    pub(super) idle: u32,
    pub(super) ram: u64,
    pub(super) disk: u64,
}

/// An amount processes hold over time (drives, disk bytes), integrated
/// over the measured window (from the warm-up on) and over the whole run.
#[derive(Default)]
pub(super) struct Held {
    amount: f64,
    since: f64,
    /// Amount x seconds from the warm-up on.
    pub(super) measured: f64,
    /// Amount x seconds over the whole run.
    pub(super) total: f64,
}

impl Held {
    /// Adds `delta` at `t`.
    fn change(&mut self, delta: f64, t: f64, warmup: f64) {
        let from = self.since.max(warmup);
        if t > from {
            self.measured += self.amount * (t - from);
        }
        self.total += self.amount * (t - self.since).max(0.0);
        self.amount += delta;
        self.since = t;
    }
}

/// What happens in the archive.
pub(super) enum Ev {
    Arrive(usize),
    Done(usize),
    Balance,
}

/// Why a request waited (bits of `Archive::waits`).
pub(super) const SAME_FILE: u8 = 1;
pub(super) const TAPE_IN_USE: u8 = 2;
pub(super) const NO_PROCESS: u8 = 4;
pub(super) const LOAD_BALANCER: u8 = 8;

/// The archive's state during a run.
pub(super) struct Archive<'a> {
    pub(super) cfg: &'a ArchiveConfig,
    /// Main-Scheduler and Load-Balancer.
    pub(super) scheduler: &'a dyn Scheduler,
    pub(super) gen: Generated,
    pub(super) hw: PlatformState,
    pub(super) tapes: Tapes,
    /// Cartridges of the archive at time 0, laid out as requests touch them.
    pub(super) initial_tapes: Tapes,
    pub(super) movers: Vec<Mover>,
    pub(super) procs: Vec<Option<Proc>>,
    pub(super) by_type: BTreeMap<Type, Vec<usize>>,
    pub(super) waiting: VecDeque<usize>,
    pub(super) file_pieces: HashMap<usize, Vec<Piece>>,
    pub(super) file_pending: HashMap<usize, u32>,
    pub(super) file_running: HashSet<usize>,
    pub(super) start: Vec<f64>,
    pub(super) end: Vec<f64>,
    pub(super) waits: Vec<u8>,
    pub(super) done: usize,
    pub(super) arrived: usize,
    pub(super) backlog_half: usize,
    pub(super) backlog_end: usize,
    pub(super) lb_runs: u64,
    /// Drives held by processes.
    pub(super) drives_held: Held,
    /// Mover disk bytes reserved by processes (VERTICAL's EC).
    pub(super) disk_held: Held,
    /// When the run was stopped at `max_backlog`.
    pub(super) stopped_at: Option<f64>,
    /// Time of the event being handled.
    pub(super) now: f64,
    pub(super) error: Option<Error>,
}

impl Archive<'_> {
    pub(super) fn load(&self, p: usize) -> usize {
        let pr = self.procs[p].as_ref().expect("live process");
        pr.queue.len() + usize::from(pr.running.is_some())
    }

    pub(super) fn tapes_in_use(&self, file: usize, now: f64) -> bool {
        self.file_pieces
            .get(&file)
            .is_some_and(|ps| ps.iter().any(|p| self.hw.in_use(p.tape, now)))
    }

    /// Lays out a file of the initial archive the first time a request
    /// touches it, on cartridges of its own (not timed: it is already there).
    /// A full archive holds far more files than a run touches, so the other
    /// files sharing those cartridges are not requested (choice).
    pub(super) fn touch(&mut self, r: usize) {
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

    /// Adds `drives` drives and `disk` bytes of mover disk to those held by
    /// processes, at `t` (negative: released).
    pub(super) fn hold(&mut self, drives: f64, disk: f64, t: f64) {
        let warmup = self.cfg.workload.warmup_s;
        self.drives_held.change(drives, t, warmup);
        self.disk_held.change(disk, t, warmup);
    }

    pub(super) fn needs(&self, ty: Type) -> (u32, u64, u64) {
        let p = &self.cfg.platform;
        let (ram, disk) =
            ty.0.holds(ty.1, self.cfg.block_bytes, p.tape_capacity_bytes);
        (ty.0.drives(ty.1), ram, disk)
    }

    /// Creates a process of type `ty` on the mover that fits it most tightly.
    pub(super) fn create(&mut self, ty: Type) -> Option<usize> {
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
        self.hold(f64::from(n), disk as f64, self.now);
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
    pub(super) fn close(&mut self, p: usize, t: f64) {
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
        self.hold(-f64::from(n), -(disk as f64), t);
    }

    pub(super) fn assign(&mut self, p: usize, r: usize, cal: &mut Calendar<Ev>) {
        let pr = self.procs[p].as_mut().expect("live process");
        pr.queue.push_back(r);
        if pr.running.is_none() {
            self.start_next(p, cal);
        }
    }

    pub(super) fn start_next(&mut self, p: usize, cal: &mut Calendar<Ev>) {
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

    pub(super) fn blocked(&self, r: usize, now: f64) -> bool {
        let req = self.gen.requests[r];
        req.kind == Kind::Read && self.tapes_in_use(req.file, now)
    }

    pub(super) fn arrive(&mut self, r: usize, cal: &mut Calendar<Ev>) {
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
        let scheduler = self.scheduler;
        if same_file || tape_busy || !scheduler.place(self, r, cal) {
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

    pub(super) fn finish(&mut self, p: usize, cal: &mut Calendar<Ev>) {
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
}

impl Model for Archive<'_> {
    type Event = Ev;
    fn handle(&mut self, event: Ev, cal: &mut Calendar<Ev>) {
        self.now = cal.now();
        match event {
            Ev::Arrive(r) => self.arrive(r, cal),
            Ev::Done(p) => self.finish(p, cal),
            Ev::Balance => {
                let scheduler = self.scheduler;
                if scheduler.balance_due(self, cal.now()) {
                    scheduler.balance(self, cal);
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
