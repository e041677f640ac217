//! A library's geometry: modules in a row joined by pass-through ports,
//! rails stacked in each module and joined by elevators, handbots running
//! along each rail (two on a rail cannot pass each other), drive bays at the
//! start of every rail and cartridge slots along the rest. A move's time
//! comes from the distances; a handbot waits for the other on its rail
//! when their paths cross.

use super::config::check_seconds;
use crate::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Most modules, rails, handbots or slots per rail a geometry may have.
const MAX_COUNT: usize = 1 << 20;
/// Most slots in a whole library: ten SL8500 complexes' worth (the replay
/// keeps a free-slot set of them).
pub const MAX_SLOTS: usize = 4_000_000;
/// Most rails (modules x rails) in a whole library.
pub const MAX_RAILS: usize = 4_096;

/// Where the robotics are and how fast they move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Geometry {
    /// Library modules in a row, each joined to the next by a pass-through port.
    pub modules: usize,
    /// Rails (storage levels) per module.
    pub rails: usize,
    /// Handbots per rail: 1, or 2 that cannot pass each other.
    pub handbots_per_rail: usize,
    /// Length of a rail, metres.
    pub rail_length_m: f64,
    /// Cartridge slots along one rail.
    pub slots_per_rail: usize,
    /// Drive bays on one rail.
    pub drives_per_rail: usize,
    /// The drive bays take the rail's first `drive_zone_m` metres; slots the rest.
    pub drive_zone_m: f64,
    /// A handbot's top speed along the rail, m/s.
    pub speed_m_s: f64,
    /// A handbot's acceleration (and deceleration), m/s².
    pub accel_m_s2: f64,
    /// Seconds to take a cartridge from a slot, drive, elevator or port.
    pub pick_s: f64,
    /// Seconds to put a cartridge into one.
    pub place_s: f64,
    /// Elevators per module carrying cartridges between its rails.
    pub elevators: usize,
    /// Where the elevators stand along the rail, metres.
    pub elevator_x_m: f64,
    /// Seconds an elevator takes to carry a cartridge to another rail.
    pub elevator_s: f64,
    /// Where a module's pass-through port stands along the rail, metres.
    pub port_x_m: f64,
    /// Seconds a pass-through port takes to hand a cartridge to the next module.
    pub port_s: f64,
}

impl Geometry {
    /// Drive bays in the whole library.
    pub fn drive_bays(&self) -> usize {
        self.modules * self.rails * self.drives_per_rail
    }

    /// Cartridge slots in the whole library.
    pub fn slots(&self) -> usize {
        self.modules * self.rails * self.slots_per_rail
    }

    /// Checks every figure; errors name the field.
    pub fn validate(&self) -> Result<()> {
        for (field, v) in [
            ("modules", self.modules),
            ("rails", self.rails),
            ("slots_per_rail", self.slots_per_rail),
            ("drives_per_rail", self.drives_per_rail),
        ] {
            if v == 0 || v > MAX_COUNT {
                return Err(Error::invalid(
                    field,
                    format!("must be between 1 and {MAX_COUNT}, got {v}"),
                ));
            }
        }
        let rails = self.modules.saturating_mul(self.rails);
        if rails > MAX_RAILS {
            return Err(Error::invalid(
                "rails",
                format!(
                    "{} modules x {} rails is {rails} rails; at most {MAX_RAILS}",
                    self.modules, self.rails
                ),
            ));
        }
        let slots = rails.saturating_mul(self.slots_per_rail);
        if slots > MAX_SLOTS {
            return Err(Error::invalid(
                "slots_per_rail",
                format!("{slots} slots in the library; at most {MAX_SLOTS}"),
            ));
        }
        if !(1..=2).contains(&self.handbots_per_rail) {
            return Err(Error::invalid(
                "handbots_per_rail",
                format!("must be 1 or 2, got {}", self.handbots_per_rail),
            ));
        }
        if self.rails > 1 && (self.elevators == 0 || self.elevators > MAX_COUNT) {
            return Err(Error::invalid(
                "elevators",
                format!(
                    "a module with {} rails needs between 1 and {MAX_COUNT} elevators, got {}",
                    self.rails, self.elevators
                ),
            ));
        }
        for (field, v) in [
            ("pick_s", self.pick_s),
            ("place_s", self.place_s),
            ("elevator_s", self.elevator_s),
            ("port_s", self.port_s),
        ] {
            check_seconds(field, v)?;
        }
        for (field, v) in [
            ("speed_m_s", self.speed_m_s),
            ("accel_m_s2", self.accel_m_s2),
        ] {
            if !v.is_finite() || v <= 0.0 || v > 1e3 {
                return Err(Error::invalid(
                    field,
                    format!("must be above 0 and at most 1000, got {v}"),
                ));
            }
        }
        if !self.rail_length_m.is_finite() || self.rail_length_m <= 0.0 || self.rail_length_m > 1e4
        {
            return Err(Error::invalid(
                "rail_length_m",
                format!(
                    "must be above 0 and at most 10000, got {}",
                    self.rail_length_m
                ),
            ));
        }
        for (field, v) in [
            ("drive_zone_m", self.drive_zone_m),
            ("elevator_x_m", self.elevator_x_m),
            ("port_x_m", self.port_x_m),
        ] {
            if !v.is_finite() || v < 0.0 || v > self.rail_length_m {
                return Err(Error::invalid(
                    field,
                    format!(
                        "must lie on the rail, 0 to {} m, got {v}",
                        self.rail_length_m
                    ),
                ));
            }
        }
        if self.drive_zone_m >= self.rail_length_m {
            return Err(Error::invalid(
                "drive_zone_m",
                "leaves no room for slots on the rail",
            ));
        }
        Ok(())
    }

    /// Seconds a handbot takes to travel `d` metres from standstill to
    /// standstill (accelerating, cruising, braking).
    pub fn travel_s(&self, d: f64) -> f64 {
        let (v, a) = (self.speed_m_s, self.accel_m_s2);
        let d = d.abs();
        if d * a >= v * v {
            d / v + v / a
        } else {
            2.0 * (d / a).sqrt()
        }
    }

    /// Where slot `s` is: (module, rail, index along the rail).
    fn slot_place(&self, s: u32) -> (usize, usize, usize) {
        let s = s as usize;
        let per_module = self.rails * self.slots_per_rail;
        (
            s / per_module,
            (s % per_module) / self.slots_per_rail,
            s % self.slots_per_rail,
        )
    }

    /// Position along the rail of the slot at `index`.
    fn slot_x(&self, index: usize) -> f64 {
        let pitch = (self.rail_length_m - self.drive_zone_m) / self.slots_per_rail as f64;
        self.drive_zone_m + (index as f64 + 0.5) * pitch
    }

    /// The slot index along a rail nearest position `x`.
    fn slot_index_at(&self, x: f64) -> usize {
        let pitch = (self.rail_length_m - self.drive_zone_m) / self.slots_per_rail as f64;
        (((x - self.drive_zone_m) / pitch).max(0.0) as usize).min(self.slots_per_rail - 1)
    }

    /// Where drive `d` is: drives are spread over modules first, then
    /// rails, then bays, so a partly equipped library uses every module.
    fn drive_place(&self, d: usize) -> Place {
        let module = d % self.modules;
        let rail = (d / self.modules) % self.rails;
        let bay = d / (self.modules * self.rails);
        let x = (bay as f64 + 0.5) * self.drive_zone_m / self.drives_per_rail as f64;
        Place { module, rail, x }
    }

    /// Where slot `s` is.
    fn slot_position(&self, s: u32) -> Place {
        let (module, rail, index) = self.slot_place(s);
        Place {
            module,
            rail,
            x: self.slot_x(index),
        }
    }

    /// The unloaded time of a move between two places: travel, one pick and
    /// place per leg, elevator and port rides (the metric for "nearest").
    fn move_estimate(&self, from: Place, to: Place) -> f64 {
        let mut t = 0.0;
        let mut x = from.x;
        let handling = self.pick_s + self.place_s;
        if from.module != to.module {
            let hops = from.module.abs_diff(to.module) as f64;
            t += self.travel_s(x - self.port_x_m) + handling + hops * self.port_s;
            x = self.port_x_m;
        }
        if from.rail != to.rail {
            t += self.travel_s(x - self.elevator_x_m) + handling + self.elevator_s;
            x = self.elevator_x_m;
        }
        t + self.travel_s(x - to.x) + handling
    }
}

/// A point of the library: module, rail, metres along the rail.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    module: usize,
    rail: usize,
    x: f64,
}

/// One handbot: where it stands, when it is free, and the rail span and
/// time of its last job (what the other handbot on its rail must avoid).
#[derive(Clone, Copy, Debug)]
struct Handbot {
    x: f64,
    free_at: f64,
    job: (f64, f64, f64, f64),
}

/// A reserved robot move: when the cartridge left its source (the drive is
/// empty from then on) and when it is in place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// When the cartridge was taken from where it was.
    pub picked: f64,
    /// When it is in its destination.
    pub done: f64,
}

/// Moves cartridges through a [`Geometry`]: reserves handbots, elevators
/// and ports in the order moves are asked for, and keeps the free slots.
pub struct GeometryRobot {
    geo: Geometry,
    /// Handbots of (module, rail), `handbots_per_rail` each, left first.
    handbots: Vec<Handbot>,
    /// When each elevator of each module is free.
    elevators: Vec<f64>,
    /// When each port between module m and m+1 is free.
    ports: Vec<f64>,
    /// Free slot indices along each (module, rail).
    free: Vec<BTreeSet<u32>>,
    /// Seconds handbots waited for the other handbot on their rail.
    pub handbot_wait_s: f64,
    /// Moves that waited for the other handbot.
    pub handbot_waits: u64,
    /// Seconds the handbots were working (travel, picks, places).
    pub busy_s: f64,
}

impl GeometryRobot {
    /// The robotics of `geo` with every slot free; handbots parked evenly.
    pub fn new(geo: &Geometry) -> Self {
        let per_rail = geo.handbots_per_rail;
        let rails = geo.modules * geo.rails;
        let handbots = (0..rails * per_rail)
            .map(|i| {
                let k = i % per_rail;
                let x = geo.rail_length_m * (k as f64 + 0.5) / per_rail as f64;
                Handbot {
                    x,
                    free_at: 0.0,
                    job: (0.0, 0.0, x, x),
                }
            })
            .collect();
        GeometryRobot {
            geo: *geo,
            handbots,
            elevators: vec![0.0; geo.modules * geo.elevators.max(1)],
            ports: vec![0.0; geo.modules.saturating_sub(1)],
            free: (0..rails)
                .map(|_| (0..geo.slots_per_rail as u32).collect())
                .collect(),
            handbot_wait_s: 0.0,
            handbot_waits: 0,
            busy_s: 0.0,
        }
    }

    /// Handbots in the library.
    pub fn handbots(&self) -> usize {
        self.handbots.len()
    }

    /// Marks slot `s` taken.
    pub fn take_slot(&mut self, s: u32) {
        let (m, r, i) = self.geo.slot_place(s);
        self.free[m * self.geo.rails + r].remove(&(i as u32));
    }

    /// Marks slot `s` free.
    pub fn free_slot(&mut self, s: u32) {
        let (m, r, i) = self.geo.slot_place(s);
        self.free[m * self.geo.rails + r].insert(i as u32);
    }

    /// The free slot a cartridge leaving `drive` reaches soonest (by the
    /// unloaded move time), or `None` if the library is full.
    pub fn nearest_free_slot(&self, drive: usize) -> Option<u32> {
        let g = &self.geo;
        let from = g.drive_place(drive);
        let mut best: Option<(f64, u32)> = None;
        for (k, set) in self.free.iter().enumerate() {
            let (module, rail) = (k / g.rails, k % g.rails);
            let target_x = if module != from.module {
                g.port_x_m
            } else if rail != from.rail {
                g.elevator_x_m
            } else {
                from.x
            };
            let at = g.slot_index_at(target_x) as u32;
            let below = set.range(..=at).next_back();
            let above = set.range(at..).next();
            for &i in below.into_iter().chain(above) {
                let slot = (k * g.slots_per_rail) as u32 + i;
                let t = g.move_estimate(from, g.slot_position(slot));
                if best.is_none_or(|(bt, bs)| t < bt || (t == bt && slot < bs)) {
                    best = Some((t, slot));
                }
            }
        }
        best.map(|(_, s)| s)
    }

    /// Reserves a move of a cartridge from slot `slot` into `drive`, the
    /// cartridge being at its slot from `ready` on.
    pub fn fetch(&mut self, slot: u32, drive: usize, ready: f64) -> Move {
        let from = self.geo.slot_position(slot);
        let to = self.geo.drive_place(drive);
        self.carry(from, to, ready)
    }

    /// Reserves a move of a cartridge from `drive` to slot `slot`, the
    /// drive having ejected it at `ready`.
    pub fn put_back(&mut self, drive: usize, slot: u32, ready: f64) -> Move {
        let from = self.geo.drive_place(drive);
        let to = self.geo.slot_position(slot);
        self.carry(from, to, ready)
    }

    /// A move leg by leg: along the rail to the port, through the ports to
    /// the target module, to the elevator, up or down, along to the target.
    fn carry(&mut self, from: Place, to: Place, ready: f64) -> Move {
        let g = self.geo;
        let mut at = from;
        let mut t = ready;
        let mut picked = None;
        while at.module != to.module {
            let leg = self.leg(at, g.port_x_m, t);
            picked.get_or_insert(leg.picked);
            let step = if to.module > at.module { 1 } else { -1 };
            let next = (at.module as isize + step) as usize;
            let port = at.module.min(next);
            let start = leg.done.max(self.ports[port]);
            self.ports[port] = start + g.port_s;
            t = start + g.port_s;
            at = Place {
                module: next,
                rail: at.rail,
                x: g.port_x_m,
            };
        }
        if at.rail != to.rail {
            let leg = self.leg(at, g.elevator_x_m, t);
            picked.get_or_insert(leg.picked);
            let base = at.module * g.elevators.max(1);
            let lift = (base..base + g.elevators.max(1))
                .min_by(|&a, &b| self.elevators[a].total_cmp(&self.elevators[b]))
                .unwrap_or(base);
            let start = leg.done.max(self.elevators[lift]);
            self.elevators[lift] = start + g.elevator_s;
            t = start + g.elevator_s;
            at = Place {
                module: at.module,
                rail: to.rail,
                x: g.elevator_x_m,
            };
        }
        let leg = self.leg(at, to.x, t);
        Move {
            picked: picked.unwrap_or(leg.picked),
            done: leg.done,
        }
    }

    /// One handbot carries a cartridge along one rail from `at` to `to_x`,
    /// the cartridge being there from `ready`. The handbot that finishes
    /// first is chosen; it waits while the other handbot's last job covers
    /// any of the span it must cross at the same time.
    fn leg(&mut self, at: Place, to_x: f64, ready: f64) -> Move {
        let g = &self.geo;
        let per_rail = g.handbots_per_rail;
        let first = (at.module * g.rails + at.rail) * per_rail;
        let carry = g.pick_s + g.travel_s(at.x - to_x) + g.place_s;
        // (end, handbot, start, unhindered start, reach, lo, hi)
        let mut best: Option<(f64, usize, f64, f64, f64, f64, f64)> = None;
        for k in 0..per_rail {
            let h = self.handbots[first + k];
            let reach = g.travel_s(h.x - at.x);
            // Set off so as to arrive as the cartridge gets there.
            let unhindered = h.free_at.max(ready - reach).max(0.0);
            let mut start = unhindered;
            let (lo, hi) = (h.x.min(at.x).min(to_x), h.x.max(at.x).max(to_x));
            if per_rail == 2 {
                let (o_start, o_end, o_lo, o_hi) = self.handbots[first + 1 - k].job;
                if o_end > start && o_start < start + reach + carry && o_lo <= hi && lo <= o_hi {
                    start = o_end;
                }
            }
            let end = start + reach + carry;
            if best.is_none_or(|b| end < b.0) {
                best = Some((end, k, start, unhindered, reach, lo, hi));
            }
        }
        let (end, k, start, unhindered, reach, lo, hi) = best.expect("a rail has a handbot");
        if start > unhindered {
            self.handbot_wait_s += start - unhindered;
            self.handbot_waits += 1;
        }
        self.busy_s += reach + carry;
        self.handbots[first + k] = Handbot {
            x: to_x,
            free_at: end,
            job: (start, end, lo, hi),
        };
        Move {
            picked: start + reach + g.pick_s,
            done: end,
        }
    }
}

/// A library without geometry: `arms` robots, every move a constant time.
pub struct ConstantRobot {
    free_at: Vec<f64>,
    fetch_s: f64,
    return_s: f64,
    /// Seconds the arms were moving.
    pub busy_s: f64,
}

impl ConstantRobot {
    /// `arms` robots taking `fetch_s` to a drive and `return_s` back.
    pub fn new(arms: usize, fetch_s: f64, return_s: f64) -> Self {
        ConstantRobot {
            free_at: vec![0.0; arms],
            fetch_s,
            return_s,
            busy_s: 0.0,
        }
    }

    /// Arms in the library.
    pub fn arms(&self) -> usize {
        self.free_at.len()
    }

    /// Reserves the arm free first for a move of `seconds` from `ready` on;
    /// the cartridge is taken as the move starts.
    pub fn reserve(&mut self, ready: f64, fetch: bool) -> Move {
        let seconds = if fetch { self.fetch_s } else { self.return_s };
        let arm = (0..self.free_at.len())
            .min_by(|&a, &b| self.free_at[a].total_cmp(&self.free_at[b]))
            .unwrap_or(0);
        let start = ready.max(self.free_at[arm]);
        self.free_at[arm] = start + seconds;
        self.busy_s += seconds;
        Move {
            picked: start,
            done: start + seconds,
        }
    }
}
