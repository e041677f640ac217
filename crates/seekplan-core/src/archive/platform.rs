//! The hardware over time: drives on movers, robot arms, cartridges that
//! move between slots and drives, and what each move costs.

use super::{ArchiveConfig, Piece, TapeId};
use crate::library::{ArmPool, BookedArms, Hardware};
use crate::model::{Block, CostModel, Extent, LinearModel};
use std::collections::HashMap;

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

/// Drives, arms and cartridges over time, timed by the platform's
/// [`library::Hardware`](crate::library::Hardware).
pub(crate) struct PlatformState {
    pub drives: Vec<Drive>,
    /// Arm moves, booked ahead in the earliest gap of any arm.
    arms: BookedArms,
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
    /// Drive and robot timing.
    timing: Hardware,
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

impl PlatformState {
    pub fn new(cfg: &ArchiveConfig) -> Self {
        let p = &cfg.platform;
        let timing = p.hardware();
        let drives = (0..timing.drives)
            .map(|_| Drive {
                tape: None,
                head: 0,
                free_at: 0.0,
                owner: None,
            })
            .collect();
        PlatformState {
            drives,
            arms: BookedArms::new(timing.robot.arms),
            arm_busy_s: 0.0,
            arm_busy_total_s: 0.0,
            tape_at: HashMap::new(),
            tape_busy: HashMap::new(),
            // One-byte blocks so that layout offsets are the model's positions;
            // the config was validated, so the model accepts its figures.
            tape: LinearModel::new(
                p.tape_capacity_bytes,
                1,
                timing.drive.rate_bps,
                p.full_locate_s,
                0.0,
            )
            .expect("validated platform figures"),
            timing,
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

    /// An arm makes a move of `secs` from `t` on, in the earliest gap any
    /// arm has (requests book their moves ahead, so an arm booked for later
    /// may still be free now); returns the arrival.
    fn arm(&mut self, t: f64, secs: f64) -> f64 {
        let arm = ArmPool::<()>::request(&mut self.arms, (), t, secs).expect("booked");
        self.arm_busy_total_s += secs;
        if arm.start >= self.measure_from {
            self.arm_busy_s += secs;
        }
        arm.end
    }

    /// Rewinds and unloads what `drive` holds, from `t`; returns when the
    /// cartridge is back in its slot.
    pub fn eject(&mut self, drive: usize, t: f64) -> f64 {
        let Some(tape) = self.drives[drive].tape.take() else {
            return t;
        };
        self.tape_at.remove(&tape);
        let dismount_s = self.timing.drive.dismount_s();
        self.busy(t, dismount_s);
        let t = self.arm(t + dismount_s, self.timing.robot.return_s);
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
        let mount_s = self.timing.drive.mount_s();
        t = self.arm(t, self.timing.robot.fetch_s) + mount_s;
        self.busy(t, mount_s);
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
        self.arms.forget_before(t0);
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
