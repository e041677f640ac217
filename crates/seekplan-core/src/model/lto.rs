//! The LTO wrap/LPOS model. An LTO tape is written in wraps: even wraps from
//! BOT towards EOT, odd wraps back; four data bands hold a quarter of the
//! wraps each. Along the tape the servo tracks give the longitudinal position
//! (LPOS) in fixed steps. A logical block lies on the wrap whose end-of-wrap
//! entry (what READ END OF WRAP POSITION returns: the last block of each
//! wrap) first reaches it, at a position interpolated linearly inside the
//! wrap; without that list every wrap holds an equal share of the blocks.
//!
//! A locate moves the tape at locate speed with a trapezoidal speed profile,
//! reverses the tape when the target lies behind or on a wrap read the other
//! way, and moves the head to another wrap (and band). A target a short way
//! ahead on the same wrap is reached by reading, when that is faster.

use super::geometry::{Direction, Physical};
use super::{Block, CostModel, Extent, Pos, PosCosts, Read};
use crate::error::{require_positive, require_rate, require_seconds, MAX_STEP_S};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The figures of one LTO generation; times in seconds, lengths in metres.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LtoSpec {
    /// Wraps on a tape, all bands together (LTO-9: 280).
    pub wraps: u32,
    /// Data bands; the wraps are shared equally among them (4 on every LTO).
    pub bands: u32,
    /// LPOS of the first data position of a wrap (near BOT).
    pub lpos_min: u32,
    /// LPOS of the last data position of a wrap (near EOT).
    pub lpos_max: u32,
    /// Metres of tape per LPOS step.
    pub lpos_m: f64,
    /// Native capacity of a tape in bytes.
    pub capacity_bytes: u64,
    /// Bytes per logical block (the LTFS block size).
    pub block_bytes: u64,
    /// Native (uncompressed) read rate in bytes per second.
    pub rate_bps: f64,
    /// Top tape speed while locating, metres per second.
    pub locate_mps: f64,
    /// Acceleration and deceleration of the tape, metres per second².
    pub accel_mps2: f64,
    /// Seconds to stop, reverse and settle the tape (once per reversal).
    pub reversal_s: f64,
    /// Seconds to move the head to another wrap and lock onto its servo.
    pub wrap_change_s: f64,
    /// Extra seconds when the new wrap lies in another data band.
    pub band_change_s: f64,
    /// Fixed seconds of every locate (command, positioning and settling).
    pub overhead_s: f64,
    /// Seconds lost at a wrap end while streaming across it inside a read.
    pub turn_s: f64,
}

impl LtoSpec {
    /// Checks every figure is physically meaningful; names the bad field.
    pub fn validate(&self) -> Result<()> {
        let positive = [
            ("wraps", self.wraps as f64),
            ("bands", self.bands as f64),
            ("lpos_m", self.lpos_m),
            ("capacity_bytes", self.capacity_bytes as f64),
            ("block_bytes", self.block_bytes as f64),
            ("rate_bps", self.rate_bps),
            ("locate_mps", self.locate_mps),
            ("accel_mps2", self.accel_mps2),
        ];
        require_positive(&positive)?;
        let non_negative = [
            ("reversal_s", self.reversal_s),
            ("wrap_change_s", self.wrap_change_s),
            ("band_change_s", self.band_change_s),
            ("overhead_s", self.overhead_s),
            ("turn_s", self.turn_s),
        ];
        require_seconds(&non_negative)?;
        require_rate(&[("rate_bps", self.rate_bps)])?;
        if self.lpos_max <= self.lpos_min {
            return Err(Error::invalid("lpos_max", "must exceed lpos_min"));
        }
        // Each figure may be bounded and a locate not: a wrap's length at a
        // crawl, or the crawl reached at a crawl.
        let wrap_m = f64::from(self.lpos_max - self.lpos_min) * self.lpos_m;
        for (field, seconds) in [
            ("locate_mps", wrap_m / self.locate_mps),
            ("accel_mps2", self.locate_mps / self.accel_mps2),
        ] {
            if seconds.is_nan() || seconds > MAX_STEP_S {
                return Err(Error::invalid(
                    field,
                    format!("a locate would take {seconds:e} s, more than {MAX_STEP_S:e}"),
                ));
            }
        }
        if self.wraps > super::MAX_TRACKS {
            return Err(Error::invalid(
                "wraps",
                format!("at most {}, got {}", super::MAX_TRACKS, self.wraps),
            ));
        }
        if !self.wraps.is_multiple_of(self.bands) {
            return Err(Error::invalid(
                "wraps",
                format!(
                    "{} wraps do not divide into {} bands",
                    self.wraps, self.bands
                ),
            ));
        }
        if self.capacity_blocks() < self.wraps as u64 {
            return Err(Error::invalid("capacity_bytes", "fewer blocks than wraps"));
        }
        Ok(())
    }

    /// Blocks on a full nominal tape.
    pub fn capacity_blocks(&self) -> u64 {
        self.capacity_bytes / self.block_bytes
    }

    /// Metres of tape a wrap's data spans.
    pub fn wrap_length_m(&self) -> f64 {
        (self.lpos_max - self.lpos_min) as f64 * self.lpos_m
    }

    /// Tape speed while reading at the native rate, metres per second.
    pub fn read_mps(&self) -> f64 {
        let bytes_per_m = self.capacity_bytes as f64 / (self.wraps as f64 * self.wrap_length_m());
        self.rate_bps / bytes_per_m
    }

    /// Seconds to move `m` metres from standstill to standstill with the
    /// trapezoidal profile (a triangle when the top speed is not reached).
    pub fn motion_s(&self, m: f64) -> f64 {
        let (v, a) = (self.locate_mps, self.accel_mps2);
        if m <= v * v / a {
            2.0 * (m / a).sqrt()
        } else {
            m / v + v / a
        }
    }
}

/// How many times its native capacity in blocks an end-of-wrap list may
/// span: beyond LTO's 2.5:1 compression with a wide margin.
pub const MAX_COMPRESSION: u64 = 16;

/// Where a block lies on an LTO tape, in the units the drive reports.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WrapPosition {
    /// Wrap number (even: read towards EOT).
    pub wrap: u32,
    /// Data band of the wrap.
    pub band: u32,
    /// Longitudinal position in LPOS steps.
    pub lpos: f64,
    /// Which half of the tape the position lies in (0 near BOT, 1 near EOT).
    pub half: u8,
}

impl WrapPosition {
    /// Reading direction of the wrap.
    pub fn direction(&self) -> Direction {
        if self.wrap.is_multiple_of(2) {
            Direction::Forward
        } else {
            Direction::Reverse
        }
    }
}

/// A wrap position as the generic cached position: LPOS along the tape.
impl From<WrapPosition> for Pos {
    #[inline]
    fn from(p: WrapPosition) -> Pos {
        Pos {
            along: p.lpos,
            track: p.wrap,
            zone: p.band,
            side: p.half,
        }
    }
}

/// Back from a cached position that an LTO-style model filled.
impl From<Pos> for WrapPosition {
    #[inline]
    fn from(p: Pos) -> WrapPosition {
        WrapPosition {
            wrap: p.track,
            band: p.zone,
            lpos: p.along,
            half: p.side,
        }
    }
}

/// The spec's figures in the form a locate uses, derived once: schedulers
/// time millions of locates.
#[derive(Clone, Debug)]
struct Kinematics {
    /// Seconds per metre at locate speed.
    per_m: f64,
    /// Seconds per metre while reading.
    read_per_m: f64,
    /// Metres needed to reach locate speed and stop again.
    ramp_m: f64,
    /// Seconds the ramps add to a move at locate speed (v / a).
    ramp_s: f64,
    /// 4 / a: a triangular move of d metres takes sqrt(d · 4 / a).
    triangle: f64,
}

impl Kinematics {
    fn new(s: &LtoSpec) -> Self {
        let (v, a) = (s.locate_mps, s.accel_mps2);
        Kinematics {
            per_m: 1.0 / v,
            read_per_m: 1.0 / s.read_mps(),
            ramp_m: v * v / a,
            ramp_s: v / a,
            triangle: 4.0 / a,
        }
    }

    /// Same as [`LtoSpec::motion_s`].
    #[inline]
    fn motion_s(&self, m: f64) -> f64 {
        if m <= self.ramp_m {
            (m * self.triangle).sqrt()
        } else {
            m * self.per_m + self.ramp_s
        }
    }
}

/// An LTO drive with a tape mounted: the spec and the tape's end-of-wrap list.
#[derive(Clone, Debug)]
pub struct LtoModel {
    spec: LtoSpec,
    kin: Kinematics,
    /// Last logical block of each wrap, strictly increasing.
    last_block: Vec<u64>,
}

impl LtoModel {
    /// A tape with the given end-of-wrap list (last block of each wrap, one
    /// entry per written wrap); names the first bad entry.
    pub fn new(spec: LtoSpec, last_block: Vec<u64>) -> Result<Self> {
        spec.validate()?;
        if last_block.is_empty() {
            return Err(Error::invalid("eowp", "has no wraps"));
        }
        if last_block.len() > spec.wraps as usize {
            return Err(Error::invalid(
                "eowp",
                format!(
                    "lists {} wraps; this drive's tapes have {}",
                    last_block.len(),
                    spec.wraps
                ),
            ));
        }
        // Compression lets a tape hold more blocks than its native capacity,
        // but not this many more: a larger entry is a typo or garbage (and
        // one near 2^64 would overflow the block arithmetic).
        let limit = spec.capacity_blocks().saturating_mul(MAX_COMPRESSION);
        if let Some(w) = last_block.iter().position(|&b| b >= limit) {
            return Err(Error::invalid(
                "eowp",
                format!(
                    "wrap {w}: last block {} is past {MAX_COMPRESSION} times the tape's {} native blocks",
                    last_block[w],
                    spec.capacity_blocks()
                ),
            ));
        }
        for (w, pair) in last_block.windows(2).enumerate() {
            if pair[1] <= pair[0] {
                return Err(Error::invalid(
                    "eowp",
                    format!(
                        "wrap {}: last block {} is not after wrap {}'s {}",
                        w + 1,
                        pair[1],
                        w,
                        pair[0]
                    ),
                ));
            }
        }
        let kin = Kinematics::new(&spec);
        Ok(LtoModel {
            spec,
            kin,
            last_block,
        })
    }

    /// A full tape whose wraps each hold an equal share of the blocks: the
    /// estimate used when the drive's end-of-wrap list is not available.
    pub fn nominal(spec: LtoSpec) -> Result<Self> {
        spec.validate()?;
        let (blocks, wraps) = (spec.capacity_blocks(), spec.wraps as u64);
        // In u128: w x blocks overflows u64 on a tape of 2^64 bytes.
        let last_block = (1..=wraps)
            .map(|w| (u128::from(w) * u128::from(blocks) / u128::from(wraps)) as u64 - 1)
            .collect();
        LtoModel::new(spec, last_block)
    }

    /// A tape for this drive: laid out by its end-of-wrap list when known
    /// (what the drive reports), nominal otherwise.
    pub fn for_tape(spec: LtoSpec, last_block: Option<Vec<u64>>) -> Result<Self> {
        match last_block {
            Some(last_block) => Self::new(spec, last_block),
            None => Self::nominal(spec),
        }
    }

    /// The drive's figures.
    pub fn spec(&self) -> &LtoSpec {
        &self.spec
    }

    /// First block and block count of wrap `w`.
    fn wrap_span(&self, w: usize) -> (u64, u64) {
        let first = if w == 0 {
            0
        } else {
            self.last_block[w - 1] + 1
        };
        (first, self.last_block[w] + 1 - first)
    }

    /// Wrap and LPOS of `block`; a block past the last wrap sits at its end.
    pub fn position(&self, block: Block) -> WrapPosition {
        let last = self.last_block.len() - 1;
        let w = self.last_block.partition_point(|&b| b < block.0).min(last);
        let (first, count) = self.wrap_span(w);
        let along = ((block.0.saturating_sub(first)) as f64 / count as f64).min(1.0);
        let (lo, hi) = (self.spec.lpos_min as f64, self.spec.lpos_max as f64);
        let lpos = if w.is_multiple_of(2) {
            lo + along * (hi - lo)
        } else {
            hi - along * (hi - lo)
        };
        let wraps_per_band = self.spec.wraps / self.spec.bands;
        WrapPosition {
            wrap: w as u32,
            band: w as u32 / wraps_per_band,
            lpos,
            // The true middle of the data area (CTA's helper compares with
            // (max - min) / 2, which differs only by lpos_min).
            half: u8::from(lpos >= (lo + hi) / 2.0),
        }
    }

    /// A lower bound of [`LtoModel::locate_between`] by LPOS distance, the
    /// lesser of two lines: a locate pays the fixed overhead and moves the
    /// tape at most at its locate speed (on the ramp, a square root above
    /// its chord, it is slower still); reading on moves it at the read
    /// speed from 0 s. Every other term is non-negative. A move to another
    /// wrap cannot read on, so it pays the wrap change on top of the first
    /// line. (One line through 0 s at the slower speed, with the overhead
    /// in the wrap extra instead, gave the same schedules: SLTF on a
    /// million LTO-10 requests took 50.0 s of CPU, with the two lines 47.9
    /// s; `benchmarks/RESULTS.md`.)
    pub fn along_bound(&self) -> super::AlongBound {
        super::AlongBound {
            other_track_extra: self.spec.wrap_change_s,
            ..super::AlongBound::uniform(self.spec.overhead_s, self.spec.lpos_m * self.kin.per_m)
        }
        .with_near(self.spec.lpos_m * self.kin.read_per_m)
    }

    /// Seconds to locate between two positions (see the module doc).
    #[inline]
    pub fn locate_between(&self, from: WrapPosition, to: WrapPosition) -> f64 {
        // Written as selects rather than early returns: schedulers time
        // millions of random moves, where branches mispredict.
        let (s, k) = (&self.spec, &self.kin);
        let flag = |b: bool| f64::from(u8::from(b));
        let delta = to.lpos - from.lpos;
        let ahead = if from.wrap.is_multiple_of(2) {
            delta >= 0.0
        } else {
            delta <= 0.0
        };
        let metres = delta.abs() * s.lpos_m;
        let same_direction = (from.wrap ^ to.wrap).is_multiple_of(2);
        // Co-directional: none ahead, two behind; anti-directional: one.
        let reversals = if same_direction {
            2.0 * flag(!ahead)
        } else {
            1.0
        };
        let t = s.overhead_s
            + k.motion_s(metres)
            + reversals * s.reversal_s
            + flag(from.wrap != to.wrap) * s.wrap_change_s
            + flag(from.band != to.band) * s.band_change_s;
        // Further down the same wrap: wind, or just read on when closer.
        let read_on = metres * k.read_per_m;
        if from.wrap == to.wrap && ahead && read_on < t {
            read_on
        } else {
            t
        }
    }
}

impl CostModel for LtoModel {
    fn capacity(&self) -> u64 {
        self.last_block[self.last_block.len() - 1] + 1
    }

    fn block_bytes(&self) -> u64 {
        self.spec.block_bytes
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        self.locate_between(self.position(from), self.position(to))
    }

    fn read(&self, extent: Extent) -> Read {
        let blocks = self.blocks_of(extent.bytes);
        let end = Block(extent.start.0.saturating_add(blocks));
        let start_wrap = self.position(extent.start).wrap;
        // The head stops on the block after the data; turns are the wrap
        // ends crossed on the way.
        let end_wrap = self.position(Block(end.0 - 1)).wrap;
        let seconds = extent.bytes as f64 / self.spec.rate_bps
            + (end_wrap - start_wrap) as f64 * self.spec.turn_s;
        Read { seconds, end }
    }

    fn physical(&self, block: Block) -> Option<Physical> {
        let p = self.position(block);
        let (lo, hi) = (self.spec.lpos_min as f64, self.spec.lpos_max as f64);
        Some(Physical {
            track: p.wrap,
            direction: p.direction(),
            lpos: (p.lpos - lo) / (hi - lo),
        })
    }

    fn keypoint_spacing(&self) -> f64 {
        // LTO drives locate straight to any LPOS: no key points.
        0.0
    }

    fn wrap_position(&self, block: Block) -> Option<WrapPosition> {
        Some(self.position(block))
    }

    fn pos(&self, block: Block) -> Option<Pos> {
        Some(LtoModel::position(self, block).into())
    }

    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        Some(PosCosts::Lto(self))
    }
}

/// A small LTO tape for tests: 8 wraps of 1,000 one-KiB blocks in 4 bands.
#[cfg(test)]
pub(crate) fn small_spec() -> LtoSpec {
    LtoSpec {
        wraps: 8,
        bands: 4,
        lpos_min: 1000,
        lpos_max: 11000,
        lpos_m: 0.0072,
        capacity_bytes: 8_000 * 1024,
        block_bytes: 1024,
        rate_bps: 1024.0 * 100.0,
        locate_mps: 10.0,
        accel_mps2: 5.0,
        reversal_s: 2.0,
        wrap_change_s: 1.0,
        band_change_s: 0.5,
        overhead_s: 1.0,
        turn_s: 1.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_run_forward_on_even_wraps_and_back_on_odd_ones() {
        let m = LtoModel::nominal(small_spec()).unwrap();
        assert_eq!(m.capacity(), 8_000);
        let p = m.position(Block(0));
        assert_eq!((p.wrap, p.band, p.lpos, p.half), (0, 0, 1000.0, 0));
        let p = m.position(Block(1_500));
        assert_eq!((p.wrap, p.band), (1, 0));
        assert!((p.lpos - 6000.0).abs() < 1e-9, "{p:?}");
        let p = m.position(Block(7_999));
        assert_eq!((p.wrap, p.band, p.half), (7, 3, 0));
    }

    #[test]
    fn the_end_of_wrap_list_places_blocks() {
        let m = LtoModel::new(small_spec(), vec![99, 999]).unwrap();
        assert_eq!(m.capacity(), 1000);
        assert_eq!(m.position(Block(99)).wrap, 0);
        assert_eq!(m.position(Block(100)).wrap, 1);
        assert!((m.position(Block(100)).lpos - 11000.0).abs() < 1e-9);
    }

    #[test]
    fn bad_end_of_wrap_lists_name_the_wrap() {
        let e = LtoModel::new(small_spec(), vec![10, 10])
            .unwrap_err()
            .to_string();
        assert!(e.contains("wrap 1"), "{e}");
        let e = LtoModel::new(small_spec(), vec![]).unwrap_err().to_string();
        assert!(e.contains("eowp"), "{e}");
        let e = LtoModel::new(small_spec(), (1..=9).collect())
            .unwrap_err()
            .to_string();
        assert!(e.contains("9 wraps"), "{e}");
    }

    #[test]
    fn reversals_wrap_and_band_changes_each_cost_their_figure() {
        let m = LtoModel::nominal(small_spec()).unwrap();
        let s = m.spec().clone();
        let at = |wrap: u32, lpos: f64| WrapPosition {
            wrap,
            band: wrap / 2,
            lpos,
            half: 0,
        };
        let far = 5000.0 * s.lpos_m;
        let ahead = m.locate_between(at(0, 2000.0), at(2, 7000.0));
        let base = s.overhead_s + s.motion_s(far) + s.wrap_change_s + s.band_change_s;
        assert!((ahead - base).abs() < 1e-9);
        let anti = m.locate_between(at(0, 2000.0), at(3, 7000.0));
        assert!((anti - base - s.reversal_s).abs() < 1e-9);
        let behind = m.locate_between(at(0, 7000.0), at(2, 2000.0));
        assert!((behind - base - 2.0 * s.reversal_s).abs() < 1e-9);
        let same_wrap_near = m.locate_between(at(0, 2000.0), at(0, 2001.0));
        assert!((same_wrap_near - s.lpos_m / s.read_mps()).abs() < 1e-9);
    }

    #[test]
    fn reads_pay_a_turn_per_wrap_end_crossed() {
        let m = LtoModel::nominal(small_spec()).unwrap();
        let r = m.read(Extent {
            start: Block(990),
            bytes: 20 * 1024,
        });
        assert_eq!(r.end, Block(1010));
        assert!((r.seconds - 0.2 - 1.5).abs() < 1e-9);
    }
}
