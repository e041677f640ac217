//! The four-region piecewise-linear seek model of Johnson & Miller §5.4.2
//! (Table 3, Figure 9) for serpentine drives. The start position splits the
//! tape into four regions: 1) after the start on a same-direction track,
//! 2) before the start on a reverse-direction track, 3) after the start on a
//! reverse-direction track, 4) before the start on a same-direction track.
//! Each region has its own line `intercept + slope * distance`, the distance
//! in track lengths between the destination and the start's image on the
//! destination's track. An optional short-seek regime (§5.4.3) times
//! forward seeks within the start's track where it is cheaper.

use super::geometry::Direction;
use super::helical::LinearSeek;
use super::short_seek::ShortSeekRegime;
use super::{AlongBound, Block, CostModel, Extent, LocatePos, Physical, Pos, PosCosts, Read};
use crate::error::{require_rate, require_seconds, MAX_STEP_S};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Where blocks lie on an evenly divided serpentine tape: track `T = floor(S/L)`
/// and position `p = (S - L*T)/L` along the track in its own direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackGrid {
    tracks: u32,
    capacity: u64,
}

impl TrackGrid {
    /// A grid of `tracks` equal tracks over `capacity` blocks.
    pub fn new(tracks: u32, capacity: u64) -> Result<Self> {
        if tracks == 0 {
            return Err(Error::invalid("tracks", "must be positive"));
        }
        if capacity < tracks as u64 {
            return Err(Error::invalid("capacity", "fewer blocks than tracks"));
        }
        Ok(TrackGrid { tracks, capacity })
    }

    /// Blocks on the tape.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Track of a block and its position along that track, in [0, 1).
    pub fn position(&self, block: Block) -> (u32, f64) {
        let len = self.capacity as f64 / self.tracks as f64;
        let s = block.0.min(self.capacity - 1) as f64;
        let t = ((s / len).floor() as u32).min(self.tracks - 1);
        (t, (s - len * t as f64) / len)
    }

    /// The region (1..=4, Figure 9) of `to` seen from `from`, and the
    /// distance in track lengths the Table 3 line is evaluated at.
    pub fn region(&self, from: Block, to: Block) -> (u8, f64) {
        let (t0, p0) = self.position(from);
        let (t1, p1) = self.position(to);
        if (t0 + t1) % 2 == 0 {
            let region = if p1 > p0 { 1 } else { 4 };
            (region, (p1 - p0).abs())
        } else {
            let image = 1.0 - p0;
            let region = if p1 <= image { 2 } else { 3 };
            (region, (p1 - image).abs())
        }
    }
}

/// The figures of one serpentine drive in the four-region form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FourRegionSpec {
    /// Logical tracks; even tracks run forward, odd ones in reverse.
    pub tracks: u32,
    /// Native capacity of a tape, bytes.
    pub capacity_bytes: u64,
    /// Bytes per logical block.
    pub block_bytes: u64,
    /// Sustained transfer rate, bytes per second.
    pub rate_bps: f64,
    /// The lines of regions 1, 2, 3 and 4 (Table 3 rows), slope per track length.
    pub regions: [LinearSeek; 4],
    /// Rewind to BOT, slope per tape length travelled.
    pub rewind: LinearSeek,
    /// Forward seeks within the start's track; where it is cheaper than
    /// region 1's line it times them.
    #[serde(default)]
    pub short_seek: Option<ShortSeekRegime>,
}

/// A serpentine drive modelled by Table 3's four regions.
#[derive(Clone, Debug)]
pub struct FourRegionModel {
    spec: FourRegionSpec,
    grid: TrackGrid,
}

impl FourRegionModel {
    /// A model from its spec; names the first bad figure.
    pub fn new(spec: FourRegionSpec) -> Result<Self> {
        if spec.block_bytes == 0 {
            return Err(Error::invalid("block_bytes", "must be positive"));
        }
        require_rate(&[("rate_bps", spec.rate_bps)])?;
        for r in spec.regions.iter().chain([&spec.rewind]) {
            require_seconds(&[("regions", r.startup_s)])?;
            // A slope may be negative (Table 3's lines fall in some
            // regions); bounded like the intercept all the same.
            if r.full_s.is_nan() || r.full_s.abs() > MAX_STEP_S {
                return Err(Error::invalid(
                    "regions",
                    format!("a slope of {:?} s is beyond ±{MAX_STEP_S:e} s", r.full_s),
                ));
            }
        }
        if let Some(short) = &spec.short_seek {
            short.validate()?;
        }
        let grid = TrackGrid::new(spec.tracks, spec.capacity_bytes / spec.block_bytes)?;
        Ok(FourRegionModel { spec, grid })
    }

    /// The drive's figures.
    pub fn spec(&self) -> &FourRegionSpec {
        &self.spec
    }

    /// The tape's track grid.
    pub fn grid(&self) -> &TrackGrid {
        &self.grid
    }

    fn physical_of(&self, block: Block) -> Physical {
        let (track, p) = self.grid.position(block);
        let direction = if track % 2 == 0 {
            Direction::Forward
        } else {
            Direction::Reverse
        };
        let lpos = match direction {
            Direction::Forward => p,
            Direction::Reverse => 1.0 - p,
        };
        Physical {
            track,
            direction,
            lpos,
        }
    }
}

impl CostModel for FourRegionModel {
    fn capacity(&self) -> u64 {
        self.grid.capacity
    }

    fn block_bytes(&self) -> u64 {
        self.spec.block_bytes
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        if from == to {
            return 0.0;
        }
        let (region, distance) = self.grid.region(from, to);
        let line = self.spec.regions[region as usize - 1].at(distance).max(0.0);
        match &self.spec.short_seek {
            Some(short) if to > from && self.grid.position(from).0 == self.grid.position(to).0 => {
                let bytes = (to.0 - from.0).saturating_mul(self.spec.block_bytes);
                line.min(short.seconds(bytes, self.spec.rate_bps))
            }
            _ => line,
        }
    }

    fn read(&self, extent: Extent) -> Read {
        let blocks = self.blocks_of(extent.bytes);
        Read {
            seconds: extent.bytes as f64 / self.spec.rate_bps,
            end: Block(extent.start.0.saturating_add(blocks)),
        }
    }

    fn physical(&self, block: Block) -> Option<Physical> {
        Some(self.physical_of(block))
    }

    fn keypoint_spacing(&self) -> f64 {
        0.0
    }

    /// The block itself, at its longitudinal position.
    fn pos(&self, block: Block) -> Option<Pos> {
        Some(Pos::of_block(block, self.physical_of(block).lpos))
    }

    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        Some(PosCosts::Other(self))
    }

    /// A track length of blocks at the transfer rate.
    fn read_along_s(&self) -> Option<f64> {
        Some(self.track_blocks() * self.spec.block_bytes as f64 / self.spec.rate_bps)
    }

    /// On the drive's rewind line, linear in the longitudinal distance.
    fn rewind_s(&self, from: Block) -> Option<f64> {
        Some(if from.0 == 0 {
            0.0
        } else {
            self.spec.rewind.at(self.physical_of(from).lpos)
        })
    }
}

impl FourRegionModel {
    /// Blocks along one track length.
    fn track_blocks(&self) -> f64 {
        self.grid.capacity as f64 / self.spec.tracks as f64
    }
}

impl LocatePos for FourRegionModel {
    fn locate_pos(&self, from: Pos, to: Pos) -> f64 {
        self.locate(from.block(), to.block())
    }

    /// Each region's line is evaluated at the longitudinal distance between
    /// the destination and the start (or its image on the destination's
    /// track, the same point along the tape), from an intercept of 0 s or
    /// more; a short seek moves at most `speedup` times the transfer rate
    /// over at least that distance's blocks. The base of -1 ns absorbs the
    /// rounding of positions computed two ways.
    fn along_bound(&self) -> Option<AlongBound> {
        let flattest = self
            .spec
            .regions
            .iter()
            .map(|r| r.full_s)
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        let per_track = match &self.spec.short_seek {
            Some(short) => flattest.min(
                self.track_blocks() * self.spec.block_bytes as f64
                    / (short.speedup * self.spec.rate_bps),
            ),
            None => flattest,
        };
        Some(AlongBound::uniform(-1e-9, per_track))
    }
}
