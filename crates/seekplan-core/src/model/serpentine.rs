//! The key-point serpentine tape model of Sandstå & Midtstraum (section 3):
//! per-tape track start addresses map a logical block to (track, direction,
//! longitudinal position); a locate must reach the key point preceding its
//! target unless it streams forward on the same track.

use super::geometry::{classify, Direction, Physical, SeekClass};
use super::{AlongBound, Block, CostModel, Extent, LocatePos, Pos, PosCosts, Read};
use crate::error::{require_positive, require_rate, require_seconds};
use crate::{Error, Result};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The figures that describe one serpentine drive type; every time in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SerpentineSpec {
    /// Logical tracks on a tape; even tracks read forward, odd ones in reverse.
    pub tracks: u32,
    /// Key points per track, evenly spaced from the track's start.
    pub keypoints_per_track: u32,
    /// Native capacity of a nominal tape in bytes.
    pub capacity_bytes: u64,
    /// Bytes per logical block.
    pub block_bytes: u64,
    /// Sustained read rate in bytes per second.
    pub read_rate_bps: f64,
    /// Seconds to wind one full track length at locate speed.
    pub traverse_s: f64,
    /// Speed from a key point to the target as a fraction of reading speed
    /// (1.0 when the drive searches at full speed, 0.7 for the DLT family).
    pub keypoint_read_factor: f64,
    /// Seconds to stop and reverse the tape.
    pub reverse_s: f64,
    /// Seconds to move the head to another track.
    pub track_change_s: f64,
    /// Fixed command overhead of every locate.
    pub locate_overhead_s: f64,
    /// Seconds lost at a track end while streaming across it inside a read.
    pub turn_s: f64,
}

impl SerpentineSpec {
    /// Checks every figure is physically meaningful; names the bad field.
    pub fn validate(&self) -> Result<()> {
        let positive = [
            ("tracks", self.tracks as f64),
            ("keypoints_per_track", self.keypoints_per_track as f64),
            ("capacity_bytes", self.capacity_bytes as f64),
            ("block_bytes", self.block_bytes as f64),
            ("read_rate_bps", self.read_rate_bps),
            ("traverse_s", self.traverse_s),
            ("keypoint_read_factor", self.keypoint_read_factor),
        ];
        require_positive(&positive)?;
        let non_negative = [
            ("reverse_s", self.reverse_s),
            ("track_change_s", self.track_change_s),
            ("locate_overhead_s", self.locate_overhead_s),
            ("turn_s", self.turn_s),
        ];
        require_seconds(&non_negative)?;
        require_seconds(&[("traverse_s", self.traverse_s)])?;
        require_rate(&[("read_rate_bps", self.read_rate_bps)])?;
        if self.tracks > super::MAX_TRACKS {
            return Err(Error::invalid(
                "tracks",
                format!("at most {}, got {}", super::MAX_TRACKS, self.tracks),
            ));
        }
        if self.capacity_bytes / self.block_bytes < self.tracks as u64 {
            return Err(Error::invalid("capacity_bytes", "fewer blocks than tracks"));
        }
        // Each figure may be finite and the time derived from them not:
        // 1e-300 B/s reads a track in infinite time, and infinities make NaN.
        if !self.track_read_s().is_finite() {
            return Err(Error::invalid(
                "read_rate_bps",
                format!(
                    "{} B/s reads a track in more than any finite time",
                    self.read_rate_bps
                ),
            ));
        }
        Ok(())
    }

    /// Blocks on a nominal tape.
    pub fn capacity_blocks(&self) -> u64 {
        self.capacity_bytes / self.block_bytes
    }

    /// Seconds to read one nominal track end to end.
    pub fn track_read_s(&self) -> f64 {
        self.capacity_bytes as f64 / self.read_rate_bps / self.tracks as f64
    }
}

/// One tape's layout: the logical address of the first block of each track.
/// It differs from tape to tape and track to track, so it is data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TapeLayout {
    /// First logical block of each track; the first is 0, strictly increasing.
    pub track_starts: Vec<u64>,
    /// Blocks on this tape.
    pub capacity: u64,
}

impl TapeLayout {
    /// Checks the layout against the drive: one start per track, increasing.
    pub fn new(track_starts: Vec<u64>, capacity: u64, spec: &SerpentineSpec) -> Result<Self> {
        if track_starts.len() != spec.tracks as usize {
            return Err(Error::invalid(
                "track_starts",
                format!(
                    "{} entries for a drive with {} tracks",
                    track_starts.len(),
                    spec.tracks
                ),
            ));
        }
        if track_starts.first() != Some(&0) {
            return Err(Error::invalid(
                "track_starts",
                "the first track must start at block 0",
            ));
        }
        if let Some(i) = track_starts.windows(2).position(|w| w[1] <= w[0]) {
            return Err(Error::invalid(
                "track_starts",
                format!(
                    "entry {} ({}) does not increase",
                    i + 1,
                    track_starts[i + 1]
                ),
            ));
        }
        if *track_starts.last().unwrap_or(&0) >= capacity {
            return Err(Error::invalid(
                "capacity",
                "last track starts past the end of the tape",
            ));
        }
        Ok(TapeLayout {
            track_starts,
            capacity,
        })
    }

    /// A nominal tape: every track holds the same number of blocks.
    pub fn nominal(spec: &SerpentineSpec) -> Self {
        let capacity = spec.capacity_blocks();
        let per_track = capacity / spec.tracks as u64;
        TapeLayout {
            track_starts: (0..spec.tracks as u64).map(|t| t * per_track).collect(),
            capacity,
        }
    }

    /// A tape as written by a real drive: each track holds the nominal number
    /// of blocks times a factor drawn uniformly from `1 ± spread`.
    pub fn varied(spec: &SerpentineSpec, spread: f64, rng: &mut impl Rng) -> Self {
        let nominal = spec.capacity_blocks() as f64 / spec.tracks as f64;
        let mut starts = Vec::with_capacity(spec.tracks as usize);
        let mut next = 0u64;
        for _ in 0..spec.tracks {
            starts.push(next);
            let factor = 1.0 + spread * (2.0 * rng.gen::<f64>() - 1.0);
            next += (nominal * factor).round().max(1.0) as u64;
        }
        TapeLayout {
            track_starts: starts,
            capacity: next,
        }
    }

    /// The track holding `block` (the last track for the end of tape).
    pub fn track_of(&self, block: u64) -> usize {
        self.track_starts.partition_point(|&s| s <= block) - 1
    }

    /// Blocks on track `t`.
    pub fn track_len(&self, t: usize) -> u64 {
        let end = self
            .track_starts
            .get(t + 1)
            .copied()
            .unwrap_or(self.capacity);
        end - self.track_starts[t]
    }
}

/// The serpentine locate/transfer model for one tape in one drive.
#[derive(Clone, Debug)]
pub struct SerpentineModel {
    spec: SerpentineSpec,
    layout: TapeLayout,
    track_read_s: f64,
}

impl SerpentineModel {
    /// A model for `layout` read by a drive described by `spec`.
    pub fn new(spec: SerpentineSpec, layout: TapeLayout) -> Result<Self> {
        spec.validate()?;
        let layout = TapeLayout::new(layout.track_starts, layout.capacity, &spec)?;
        let track_read_s = spec.track_read_s();
        Ok(SerpentineModel {
            spec,
            layout,
            track_read_s,
        })
    }

    /// A model of a nominal tape for this drive.
    pub fn nominal(spec: SerpentineSpec) -> Result<Self> {
        // Before the layout, which divides by the spec's figures.
        spec.validate()?;
        let layout = TapeLayout::nominal(&spec);
        Self::new(spec, layout)
    }

    /// A tape for this drive: measured when its track start addresses are
    /// known (capacity: the drive's nominal one unless given), nominal
    /// otherwise.
    pub fn for_tape(
        spec: SerpentineSpec,
        track_starts: Option<Vec<u64>>,
        capacity: Option<u64>,
    ) -> Result<Self> {
        match track_starts {
            Some(track_starts) => {
                // As in `nominal`: checked before the nominal capacity
                // divides by the block size.
                spec.validate()?;
                let capacity = capacity.unwrap_or_else(|| spec.capacity_blocks());
                let layout = TapeLayout {
                    track_starts,
                    capacity,
                };
                Self::new(spec, layout)
            }
            None => Self::nominal(spec),
        }
    }

    /// The drive's figures.
    pub fn spec(&self) -> &SerpentineSpec {
        &self.spec
    }

    /// The tape's layout.
    pub fn layout(&self) -> &TapeLayout {
        &self.layout
    }

    /// The seek class (Figure 2) of a locate from `from` to `to`.
    pub fn seek_class(&self, from: Block, to: Block) -> SeekClass {
        let a = self.physical_of(from.0);
        let b = self.physical_of(to.0);
        classify(&a, &b, b.preceding_keypoint(self.keypoint_spacing()))
    }

    fn physical_of(&self, block: u64) -> Physical {
        let block = block.min(self.layout.capacity);
        let t = self.layout.track_of(block);
        let along = (block - self.layout.track_starts[t]) as f64 / self.layout.track_len(t) as f64;
        let direction = if t.is_multiple_of(2) {
            Direction::Forward
        } else {
            Direction::Reverse
        };
        let lpos = match direction {
            Direction::Forward => along,
            Direction::Reverse => 1.0 - along,
        };
        Physical {
            track: t as u32,
            direction,
            lpos,
        }
    }
}

impl SerpentineModel {
    /// Seconds to locate between two physical positions (the locate rule
    /// of [`CostModel::locate`], without mapping blocks).
    fn locate_physical(&self, a: Physical, b: Physical) -> f64 {
        if a == b {
            return 0.0;
        }
        let s = &self.spec;
        let keypoint = b.preceding_keypoint(self.keypoint_spacing());
        if classify(&a, &b, keypoint) == SeekClass::SameTrackAhead {
            return s.locate_overhead_s + (b.lpos - a.lpos).abs() * s.traverse_s;
        }
        let travel = keypoint - a.lpos;
        let mut direction = a.direction;
        let mut reversals = 0u32;
        if travel * direction.sign() < 0.0 {
            reversals += 1;
            direction = direction.flip();
        }
        if direction != b.direction {
            reversals += 1;
        }
        let track_change = if a.track != b.track {
            s.track_change_s
        } else {
            0.0
        };
        s.locate_overhead_s
            + track_change
            + reversals as f64 * s.reverse_s
            + travel.abs() * s.traverse_s
            + (b.lpos - keypoint).abs() * self.track_read_s / s.keypoint_read_factor
    }
}

/// A serpentine position cached for schedulers: `along` is the longitudinal
/// position, `track` the track, `side` its direction (0 forward, 1 reverse).
impl From<Physical> for Pos {
    fn from(p: Physical) -> Pos {
        Pos {
            along: p.lpos,
            track: p.track,
            zone: 0,
            side: u8::from(p.direction == Direction::Reverse),
        }
    }
}

impl LocatePos for SerpentineModel {
    fn locate_pos(&self, from: Pos, to: Pos) -> f64 {
        let physical = |p: Pos| Physical {
            track: p.track,
            direction: if p.side == 0 {
                Direction::Forward
            } else {
                Direction::Reverse
            },
            lpos: p.along,
        };
        self.locate_physical(physical(from), physical(to))
    }

    /// Every locate covers at least the longitudinal distance, each part of
    /// it at the traverse rate or at the key-point read rate, and pays the
    /// locate overhead (and the track change to another track); only a
    /// move to the very same place is free, which the second line (through
    /// 0 s, as steep as a float allows) keeps. Without the overhead in the
    /// bound, SLTF on a million MLR1 requests looked at every request within
    /// the overhead's worth of tape of the head at each step: 107 s.
    fn along_bound(&self) -> Option<AlongBound> {
        Some(
            AlongBound {
                other_track_extra: self.spec.track_change_s,
                ..AlongBound::uniform(
                    self.spec.locate_overhead_s,
                    self.spec
                        .traverse_s
                        .min(self.track_read_s / self.spec.keypoint_read_factor),
                )
            }
            .with_near(f64::MAX),
        )
    }
}

impl CostModel for SerpentineModel {
    fn capacity(&self) -> u64 {
        self.layout.capacity
    }

    fn block_bytes(&self) -> u64 {
        self.spec.block_bytes
    }

    fn pos(&self, block: Block) -> Option<Pos> {
        Some(self.physical_of(block.0).into())
    }

    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        Some(PosCosts::Other(self))
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        if from == to {
            return 0.0;
        }
        self.locate_physical(self.physical_of(from.0), self.physical_of(to.0))
    }

    fn read(&self, extent: Extent) -> Read {
        let blocks = self.blocks_of(extent.bytes);
        let first = extent.start.0;
        let end = first.saturating_add(blocks);
        let starts = &self.layout.track_starts;
        let turns = starts.partition_point(|&s| s < end) - starts.partition_point(|&s| s <= first);
        Read {
            seconds: blocks as f64 * self.spec.block_bytes as f64 / self.spec.read_rate_bps
                + turns as f64 * self.spec.turn_s,
            end: Block(end),
        }
    }

    fn physical(&self, block: Block) -> Option<Physical> {
        Some(self.physical_of(block.0))
    }

    fn keypoint_spacing(&self) -> f64 {
        1.0 / self.spec.keypoints_per_track as f64
    }
}
