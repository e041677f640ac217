//! The hardware over time: drives on movers, robot arms, cartridges that
//! move between slots and drives, and what each move costs.

use super::{ArchiveConfig, Piece, TapeId};
use crate::model::{Block, CostModel, Extent, LinearModel};
use std::collections::{HashMap, VecDeque};

/// One tape drive.
#[derive(Clone, Debug)]
pub(crate) struct Drive {
    pub tape: Option<TapeId>,
    pub head: u64,
    /// When the drive has finished what it was given.
    pub free_at: f64,
    /// Process that holds the drive.
    pub owner: Option<usize>,
}

/// Drives, arms and cartridges, with the cost figures of the config.
pub(crate) struct Hardware {
    pub drives: Vec<Drive>,
    /// Each arm's booked moves (start, end), in order.
    arms: Vec<VecDeque<(f64, f64)>>,
    /// No booking is made before this time any more (the latest start of
    /// a `serve`, which is the simulated clock): older moves are dropped.
    floor: f64,
    /// Arm-seconds of moves from `measure_from` on.
    pub arm_busy_s: f64,
    /// The same, warm-up included.
    pub arm_busy_total_s: f64,
    /// Drive holding each mounted cartridge.
    tape_at: HashMap<TapeId, usize>,
    /// Time until which a running request has reserved a cartridge.
    tape_busy: HashMap<TapeId, f64>,
    /// Locate and transfer times on a cartridge (offsets in bytes).
    tape: LinearModel,
    load_s: f64,
    unload_s: f64,
    robot_s: f64,
    /// Start/stop seconds per striped block when blocks are too short to stream.
    block_backhitch_s: f64,
    /// Work before this time is not counted in `busy_s` (the warm-up).
    measure_from: f64,
    /// Drive-seconds spent mounting, locating, transferring, repositioning
    /// and unloading, from `measure_from` on.
    pub busy_s: f64,
    /// The same, warm-up included.
    pub busy_total_s: f64,
    /// Cartridge loads.
    pub mounts: u64,
}

impl Hardware {
    pub fn new(cfg: &ArchiveConfig) -> Self {
        let p = &cfg.platform;
        let drives = (0..p.movers as usize * p.drives_per_mover as usize)
            .map(|_| Drive {
                tape: None,
                head: 0,
                free_at: 0.0,
                owner: None,
            })
            .collect();
        Hardware {
            drives,
            arms: vec![VecDeque::new(); p.robot_arms as usize],
            floor: 0.0,
            arm_busy_s: 0.0,
            arm_busy_total_s: 0.0,
            tape_at: HashMap::new(),
            tape_busy: HashMap::new(),
            // One-byte blocks so that layout offsets are the model's positions;
            // the config was validated, so the model accepts its figures.
            tape: LinearModel::new(
                p.tape_capacity_bytes,
                1,
                p.drive_rate_bps,
                p.full_locate_s,
                0.0,
            )
            .expect("validated platform figures"),
            load_s: p.load_s,
            unload_s: p.unload_s,
            robot_s: p.robot_s,
            block_backhitch_s: if cfg.block_bytes < p.stream_min_bytes {
                p.backhitch_s
            } else {
                0.0
            },
            measure_from: cfg.workload.warmup_s,
            busy_s: 0.0,
            busy_total_s: 0.0,
            mounts: 0,
        }
    }

    /// Counts `seconds` of drive work that starts at `t`.
    fn busy(&mut self, t: f64, seconds: f64) {
        self.busy_total_s += seconds;
        if t >= self.measure_from {
            self.busy_s += seconds;
        }
    }

    /// Whether a running request has `tape` reserved after `now`.
    pub fn in_use(&self, tape: TapeId, now: f64) -> bool {
        self.tape_busy.get(&tape).is_some_and(|&t| t > now)
    }

    /// Reserves `tape` for a request ending at `until`.
    pub fn reserve(&mut self, tape: TapeId, until: f64) {
        let e = self.tape_busy.entry(tape).or_insert(until);
        *e = e.max(until);
    }

    /// An arm carries a cartridge from `t` on, in the earliest gap of
    /// `robot_s` any arm has (requests book their moves ahead, so an arm
    /// booked for later may still be free now); returns the arrival.
    fn arm(&mut self, t: f64) -> f64 {
        let r = self.robot_s;
        let floor = self.floor;
        let mut best: Option<(f64, usize)> = None;
        for (i, booked) in self.arms.iter_mut().enumerate() {
            while booked.front().is_some_and(|&(_, end)| end <= floor) {
                booked.pop_front();
            }
            let mut s = t;
            for &(a, b) in booked.iter() {
                if s + r <= a {
                    break;
                }
                s = s.max(b);
            }
            if best.is_none_or(|(bs, _)| s < bs) {
                best = Some((s, i));
            }
        }
        let (s, i) = best.expect("validated: at least one arm");
        let booked = &mut self.arms[i];
        let at = booked.partition_point(|&(a, _)| a < s);
        booked.insert(at, (s, s + r));
        self.arm_busy_total_s += r;
        if s >= self.measure_from {
            self.arm_busy_s += r;
        }
        s + r
    }

    /// Rewinds and unloads what `drive` holds, from `t`; returns when the
    /// cartridge is back in its slot.
    pub fn eject(&mut self, drive: usize, t: f64) -> f64 {
        let Some(tape) = self.drives[drive].tape.take() else {
            return t;
        };
        self.tape_at.remove(&tape);
        self.busy(t, self.unload_s);
        let t = self.arm(t + self.unload_s);
        let d = &mut self.drives[drive];
        d.free_at = d.free_at.max(t);
        t
    }

    /// Gets `tape` into `drive` from `t` (ejecting what is there, and taking
    /// the cartridge out of another drive that still holds it); returns when
    /// it is loaded.
    fn mount(&mut self, drive: usize, tape: TapeId, t: f64) -> f64 {
        let mut t = self.eject(drive, t);
        if let Some(&other) = self.tape_at.get(&tape) {
            let since = t.max(self.drives[other].free_at);
            t = self.eject(other, since);
        }
        t = self.arm(t) + self.load_s;
        self.busy(t, self.load_s);
        self.mounts += 1;
        self.tape_at.insert(tape, drive);
        let d = &mut self.drives[drive];
        d.tape = Some(tape);
        d.head = 0;
        t
    }

    /// `drive` reads or writes `pieces` in order from `t0`; returns the end.
    /// A striped piece is handed to the drive one block per stripe (the
    /// transfer unit B of section 4); when B is shorter than the streaming
    /// minimum S, every block costs a start/stop.
    pub fn serve<'a>(
        &mut self,
        drive: usize,
        pieces: impl Iterator<Item = &'a Piece>,
        t0: f64,
    ) -> f64 {
        self.floor = self.floor.max(t0);
        let mut t = t0.max(self.drives[drive].free_at);
        for p in pieces {
            if self.drives[drive].tape != Some(p.tape) {
                t = self.mount(drive, p.tape, t);
            }
            let d = &mut self.drives[drive];
            let read = self.tape.read(Extent {
                start: Block(p.offset),
                bytes: p.phys,
            });
            let stops = p.content.striped_blocks().unwrap_or(0) as f64 * self.block_backhitch_s;
            let work = self.tape.locate(Block(d.head), Block(p.offset)) + read.seconds + stops;
            d.head = read.end.0;
            self.busy(t, work);
            t += work;
        }
        let d = &mut self.drives[drive];
        d.free_at = d.free_at.max(t);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arm_booked_for_later_is_free_now() {
        let mut cfg = ArchiveConfig::default();
        cfg.platform.robot_arms = 1;
        let mut hw = Hardware::new(&cfg);
        assert_eq!(hw.arm(100.0), 110.0);
        // The gap before the booked move fits one move; the next one waits.
        assert_eq!(hw.arm(0.0), 10.0);
        assert_eq!(hw.arm(0.0), 20.0);
        assert_eq!(hw.arm(85.0), 95.0);
        assert_eq!(hw.arm(95.0), 120.0);
    }
}
