//! The hardware over time: drives on movers, robot arms, cartridges that
//! move between slots and drives, and what each move costs.

use super::{ArchiveConfig, Piece, TapeId};
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

/// Drives, arms and cartridges, with the cost figures of the config.
pub(crate) struct Hardware {
    pub drives: Vec<Drive>,
    arms: Vec<f64>,
    /// Drive holding each mounted cartridge.
    tape_at: HashMap<TapeId, usize>,
    /// Time until which a running request has reserved a cartridge.
    tape_busy: HashMap<TapeId, f64>,
    /// Locate and transfer times on a cartridge (offsets in bytes).
    tape: LinearModel,
    load_s: f64,
    unload_s: f64,
    robot_s: f64,
    /// Drive-seconds spent mounting, locating, transferring and unloading.
    pub busy_s: f64,
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
            arms: vec![0.0; p.robot_arms as usize],
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
            busy_s: 0.0,
            mounts: 0,
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

    /// The earliest free arm carries a cartridge from `t`; returns arrival.
    fn arm(&mut self, t: f64) -> f64 {
        let (i, &free) = self
            .arms
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .expect("validated: at least one arm");
        let done = t.max(free) + self.robot_s;
        self.arms[i] = done;
        done
    }

    /// Rewinds and unloads what `drive` holds, from `t`; returns when the
    /// cartridge is back in its slot.
    pub fn eject(&mut self, drive: usize, t: f64) -> f64 {
        let Some(tape) = self.drives[drive].tape.take() else {
            return t;
        };
        self.tape_at.remove(&tape);
        self.busy_s += self.unload_s;
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
        self.busy_s += self.load_s;
        self.mounts += 1;
        self.tape_at.insert(tape, drive);
        let d = &mut self.drives[drive];
        d.tape = Some(tape);
        d.head = 0;
        t
    }

    /// `drive` reads or writes `pieces` in order from `t0`; returns the end.
    pub fn serve<'a>(
        &mut self,
        drive: usize,
        pieces: impl Iterator<Item = &'a Piece>,
        t0: f64,
    ) -> f64 {
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
            let work = self.tape.locate(Block(d.head), Block(p.offset)) + read.seconds;
            d.head = read.end.0;
            t += work;
            self.busy_s += work;
        }
        let d = &mut self.drives[drive];
        d.free_at = d.free_at.max(t);
        t
    }
}
