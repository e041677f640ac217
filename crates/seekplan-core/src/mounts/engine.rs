//! The timed replay: requests arrive at their trace times; a request whose
//! cartridge is in a drive joins that drive's queue; one whose cartridge is
//! not waits (first come, first served) for an empty drive, or for an idle
//! cartridge the eviction policy dismounts; an idle cartridge leaves when
//! its dismount delay runs out. Robot moves are reserved in the order they
//! are asked for.

use super::config::{Dismount, Library, MountConfig, Placement, HOT_REFERENCES};
use super::eviction::Evictor;
use super::floor::next_requests;
use super::geometry::{ConstantRobot, GeometryRobot, Move};
use super::metrics::{MountMetrics, Tally};
use super::trace::MountTrace;
use crate::{Error, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

const NONE: u32 = u32::MAX;

/// What a drive is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Empty,
    /// The robot is bringing this cartridge, or the drive is threading it.
    Loading(u32),
    Busy(u32),
    Idle(u32),
    /// Rewinding and ejecting this cartridge; the second is to come next.
    Unloading(u32, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The cartridge is threaded: serve the queue.
    Ready,
    /// The request in service is done.
    Done,
    /// The dismount delay of this idle period (its generation) ran out.
    Timer(u64),
    /// The robot took the cartridge out: the drive is empty.
    Ejected,
}

struct Event {
    time: f64,
    seq: u64,
    drive: u32,
    kind: Kind,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    /// Earliest first, then first scheduled (BinaryHeap is a max-heap).
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// The library's robotics, with or without geometry.
enum Robot {
    Constant(ConstantRobot),
    Geometry(Box<GeometryRobot>),
}

struct Drive {
    state: State,
    queue: VecDeque<u32>,
    /// Bumped whenever an idle period ends, cancelling its timer.
    generation: u64,
}

/// The replay's state.
struct Replay<'a> {
    cfg: &'a MountConfig,
    trace: &'a MountTrace,
    next: Vec<u32>,
    drives: Vec<Drive>,
    /// Drives holding an idle cartridge, and each drive's index there.
    idle: Vec<u32>,
    idle_at: Vec<u32>,
    empty: Vec<u32>,
    /// The drive each cartridge is in or assigned to.
    cart_drive: Vec<u32>,
    /// When each cartridge is back in its slot.
    cart_back: Vec<f64>,
    /// Each cartridge's slot (geometry only).
    home: Vec<u32>,
    /// When each cartridge's last use ended, and its mean re-reference gap.
    last_done: Vec<f64>,
    gap: Vec<f64>,
    /// Requests for each cartridge so far.
    references: Vec<u32>,
    pending: VecDeque<u32>,
    pending_requests: Vec<Vec<u32>>,
    evictor: Evictor,
    robot: Robot,
    heap: BinaryHeap<Event>,
    seq: u64,
    tally: Tally,
}

/// Replays `trace` under `cfg`; every request is served.
pub fn replay(cfg: &MountConfig, trace: &MountTrace) -> Result<MountMetrics> {
    cfg.validate()?;
    trace.validate()?;
    let mut r = Replay::new(cfg, trace)?;
    let mut i = 0;
    let n = trace.len();
    while i < n || !r.heap.is_empty() {
        let arrival = if i < n {
            trace.time_s[i]
        } else {
            f64::INFINITY
        };
        match r.heap.peek() {
            Some(e) if e.time <= arrival => {
                let e = r.heap.pop().expect("peeked");
                r.on_event(e);
            }
            _ => {
                r.arrive(i as u32);
                i += 1;
            }
        }
    }
    let (robot_busy_s, robots, wait_s, waits) = match &r.robot {
        Robot::Constant(c) => (c.busy_s, c.arms(), 0.0, 0),
        Robot::Geometry(g) => (g.busy_s, g.handbots(), g.handbot_wait_s, g.handbot_waits),
    };
    Ok(r.tally
        .finish(trace, cfg.drives, robot_busy_s, robots, wait_s, waits))
}

impl<'a> Replay<'a> {
    fn new(cfg: &'a MountConfig, trace: &'a MountTrace) -> Result<Self> {
        let carts = trace.cartridges;
        let mut robot = match &cfg.library {
            Library::Constant {
                arms,
                fetch_s,
                return_s,
            } => Robot::Constant(ConstantRobot::new(*arms, *fetch_s, *return_s)),
            Library::Geometry(g) => Robot::Geometry(Box::new(GeometryRobot::new(g))),
        };
        let mut home = Vec::new();
        if let (Library::Geometry(g), Robot::Geometry(robot)) = (&cfg.library, &mut robot) {
            if carts > g.slots() {
                return Err(Error::invalid(
                    "library",
                    format!(
                        "the trace names {carts} cartridges but the library has {} slots",
                        g.slots()
                    ),
                ));
            }
            // Home slots at random over the library (seeded): a site's
            // cartridges are not placed by future popularity.
            let mut slots: Vec<u32> = (0..g.slots() as u32).collect();
            slots.shuffle(&mut ChaCha8Rng::seed_from_u64(cfg.seed));
            slots.truncate(carts);
            for &s in &slots {
                robot.take_slot(s);
            }
            home = slots;
        }
        Ok(Replay {
            cfg,
            trace,
            next: next_requests(&trace.cartridge, carts),
            drives: (0..cfg.drives)
                .map(|_| Drive {
                    state: State::Empty,
                    queue: VecDeque::new(),
                    generation: 0,
                })
                .collect(),
            idle: Vec::new(),
            idle_at: vec![NONE; cfg.drives],
            empty: (0..cfg.drives as u32).rev().collect(),
            cart_drive: vec![NONE; carts],
            cart_back: vec![0.0; carts],
            home,
            last_done: vec![f64::NAN; carts],
            gap: vec![f64::NAN; carts],
            references: vec![0; carts],
            pending: VecDeque::new(),
            pending_requests: vec![Vec::new(); carts],
            evictor: Evictor::new(cfg.eviction, carts, cfg.drives, cfg.seed),
            robot,
            heap: BinaryHeap::new(),
            seq: 0,
            tally: Tally::new(trace.len()),
        })
    }

    fn schedule(&mut self, time: f64, drive: u32, kind: Kind) {
        self.seq += 1;
        self.heap.push(Event {
            time,
            seq: self.seq,
            drive,
            kind,
        });
    }

    fn arrive(&mut self, i: u32) {
        let t = self.trace.time_s[i as usize];
        let c = self.trace.cartridge[i as usize];
        let next = match self.next[i as usize] {
            NONE => f64::INFINITY,
            j => self.trace.time_s[j as usize],
        };
        self.evictor.reference(c, t, next);
        let cu = c as usize;
        self.references[cu] = self.references[cu].saturating_add(1);
        let last = self.last_done[cu];
        let resting = match self.cart_drive[cu] {
            NONE => true,
            d => matches!(self.drives[d as usize].state, State::Idle(_)),
        };
        if resting && !last.is_nan() {
            let g = (t - last).max(0.0);
            let old = self.gap[cu];
            self.gap[cu] = if old.is_nan() { g } else { 0.5 * old + 0.5 * g };
        }
        let d = self.cart_drive[cu];
        if d == NONE {
            if self.pending_requests[cu].is_empty() {
                self.pending.push_back(c);
            }
            self.pending_requests[cu].push(i);
            self.dispatch(t);
            return;
        }
        self.tally.hits += 1;
        if let State::Idle(_) = self.drives[d as usize].state {
            self.leave_idle(d);
            self.serve(d, i, t);
        } else {
            self.drives[d as usize].queue.push_back(i);
        }
    }

    fn serve(&mut self, d: u32, i: u32, t: f64) {
        let c = self.trace.cartridge[i as usize];
        let busy = self.trace.busy_s[i as usize];
        self.tally
            .started(i, t - self.trace.time_s[i as usize], busy);
        self.drives[d as usize].state = State::Busy(c);
        self.schedule(t + busy, d, Kind::Done);
    }

    fn on_event(&mut self, e: Event) {
        let d = e.drive;
        let t = e.time;
        match e.kind {
            Kind::Ready | Kind::Done => {
                let c = match self.drives[d as usize].state {
                    State::Loading(c) | State::Busy(c) => c,
                    other => unreachable!("{other:?} on {:?}", e.kind),
                };
                if e.kind == Kind::Done {
                    self.last_done[c as usize] = t;
                    self.tally.done(t);
                }
                match self.drives[d as usize].queue.pop_front() {
                    Some(i) => self.serve(d, i, t),
                    None => self.become_idle(d, c, t),
                }
            }
            Kind::Timer(generation) => {
                if self.drives[d as usize].generation == generation
                    && matches!(self.drives[d as usize].state, State::Idle(_))
                {
                    self.leave_idle(d);
                    self.dismount(d, NONE, t);
                }
            }
            Kind::Ejected => {
                let State::Unloading(_, next) = self.drives[d as usize].state else {
                    unreachable!("ejected from a drive not unloading")
                };
                if next == NONE {
                    self.drives[d as usize].state = State::Empty;
                    self.empty.push(d);
                } else {
                    self.mount(d, next, t);
                }
                self.dispatch(t);
            }
        }
    }

    fn become_idle(&mut self, d: u32, c: u32, t: f64) {
        self.drives[d as usize].state = State::Idle(c);
        self.idle_at[d as usize] = self.idle.len() as u32;
        self.idle.push(d);
        self.dispatch(t);
        if !matches!(self.drives[d as usize].state, State::Idle(_)) {
            return;
        }
        let delay = self.delay(c);
        if delay <= 0.0 {
            self.leave_idle(d);
            self.dismount(d, NONE, t);
        } else {
            let generation = self.drives[d as usize].generation;
            self.schedule(t + delay, d, Kind::Timer(generation));
        }
    }

    /// The dismount delay of cartridge `c` going idle now.
    fn delay(&self, c: u32) -> f64 {
        match self.cfg.dismount {
            Dismount::Immediate => 0.0,
            Dismount::Fixed { delay_s } => delay_s,
            Dismount::Adaptive {
                max_delay_s,
                first_delay_s,
            } => {
                let g = self.gap[c as usize];
                if g.is_nan() {
                    first_delay_s
                } else if g <= max_delay_s {
                    (2.0 * g).min(max_delay_s)
                } else {
                    0.0
                }
            }
        }
    }

    /// Takes drive `d` off the idle list and cancels its timer.
    fn leave_idle(&mut self, d: u32) {
        let at = self.idle_at[d as usize];
        let last = *self.idle.last().expect("an idle drive is listed");
        self.idle.swap_remove(at as usize);
        if last != d {
            self.idle_at[last as usize] = at;
        }
        self.idle_at[d as usize] = NONE;
        self.drives[d as usize].generation += 1;
    }

    /// Starts unloading drive `d`'s cartridge; `next` (or NONE) goes in after.
    fn dismount(&mut self, d: u32, next: u32, t: f64) {
        let State::Idle(c) = self.drives[d as usize].state else {
            unreachable!("dismount of a drive not idle")
        };
        self.cart_drive[c as usize] = NONE;
        self.evictor.unloaded(c);
        self.drives[d as usize].state = State::Unloading(c, next);
        self.tally.unloads += 1;
        let ejected = t + self.cfg.unload_s;
        let mv = match &mut self.robot {
            Robot::Constant(r) => r.reserve(ejected, false),
            Robot::Geometry(r) => {
                let cu = c as usize;
                let float = match self.cfg.placement {
                    Placement::Home => false,
                    Placement::NearestFree => true,
                    Placement::Promote => self.references[c as usize] >= HOT_REFERENCES,
                };
                let mut slot = self.home[cu];
                if float {
                    if let Some(s) = r.nearest_free_slot(d as usize) {
                        r.take_slot(s);
                        r.free_slot(slot);
                        slot = s;
                        self.home[cu] = s;
                    }
                }
                r.put_back(d as usize, slot, ejected)
            }
        };
        self.cart_back[c as usize] = mv.done;
        self.schedule(mv.picked, d, Kind::Ejected);
    }

    /// The robot brings cartridge `c` to empty drive `d`.
    fn mount(&mut self, d: u32, c: u32, t: f64) {
        let ready = t.max(self.cart_back[c as usize]);
        let mv: Move = match &mut self.robot {
            Robot::Constant(r) => r.reserve(ready, true),
            Robot::Geometry(r) => r.fetch(self.home[c as usize], d as usize, ready),
        };
        self.drives[d as usize].state = State::Loading(c);
        self.tally.loads += 1;
        self.evictor.loaded(c, t);
        self.schedule(mv.done + self.cfg.load_s, d, Kind::Ready);
    }

    /// Gives waiting cartridges a drive: an empty one, else the idle
    /// cartridge the eviction policy picks, first come first served.
    fn dispatch(&mut self, t: f64) {
        while let Some(&c) = self.pending.front() {
            let d = if let Some(d) = self.empty.pop() {
                self.assign(c, d);
                self.mount(d, c, t);
                continue;
            } else if self.idle.is_empty() {
                return;
            } else {
                let candidates: Vec<u32> = self
                    .idle
                    .iter()
                    .map(|&d| match self.drives[d as usize].state {
                        State::Idle(c) => c,
                        other => unreachable!("{other:?} on the idle list"),
                    })
                    .collect();
                let k = self.evictor.choose(&candidates);
                self.idle[k]
            };
            self.assign(c, d);
            self.tally.evictions += 1;
            self.leave_idle(d);
            self.dismount(d, c, t);
        }
    }

    /// Cartridge `c`, first in the waiting line, gets drive `d`; its
    /// waiting requests join the drive's queue.
    fn assign(&mut self, c: u32, d: u32) {
        self.pending.pop_front();
        self.cart_drive[c as usize] = d;
        let requests = std::mem::take(&mut self.pending_requests[c as usize]);
        self.drives[d as usize].queue.extend(requests);
    }
}
