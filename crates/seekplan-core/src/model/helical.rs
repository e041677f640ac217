//! The helical-scan drive of Johnson & Miller §5.4: seek time linear in the
//! distance travelled (from BOT and between mid-tape positions), with an
//! optional separate line for short seeks (4mm DAT, §5.4.3), and rewind.

use super::{
    AlongBound, Block, CostModel, Extent, LocatePos, Physical, Pos, PosCosts, Read, SeekLine,
};
use crate::error::{require_rate, require_seconds};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// A seek time line: `startup_s + full_s * distance / capacity`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearSeek {
    /// Fixed cost of any seek, seconds.
    pub startup_s: f64,
    /// Added cost of crossing the whole tape, seconds.
    pub full_s: f64,
}

impl LinearSeek {
    /// Seconds to move `fraction` of the tape length.
    pub fn at(&self, fraction: f64) -> f64 {
        self.startup_s + self.full_s * fraction
    }

    fn validate(&self, field: &str) -> Result<()> {
        require_seconds(&[(field, self.startup_s), (field, self.full_s)])
    }
}

/// The figures of one helical-scan drive type (Table 4 rows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelicalSpec {
    /// Native capacity of a tape, bytes.
    pub capacity_bytes: u64,
    /// Bytes per logical block (the transfer size).
    pub block_bytes: u64,
    /// Sustained transfer rate, bytes per second.
    pub rate_bps: f64,
    /// Long seeks, from BOT or mid-tape.
    pub seek: LinearSeek,
    /// Seeks shorter than where this line crosses `seek` (4mm DAT only).
    #[serde(default)]
    pub short_seek: Option<LinearSeek>,
    /// Rewind from a position to BOT.
    pub rewind: LinearSeek,
}

impl HelicalSpec {
    /// Checks every figure; names the bad field.
    pub fn validate(&self) -> Result<()> {
        if self.capacity_bytes == 0 || self.block_bytes == 0 {
            return Err(Error::invalid("capacity_bytes", "must be positive"));
        }
        if self.capacity_bytes < self.block_bytes {
            return Err(Error::invalid("block_bytes", "larger than the tape"));
        }
        require_rate(&[("rate_bps", self.rate_bps)])?;
        self.seek.validate("seek")?;
        self.rewind.validate("rewind")?;
        if let Some(s) = &self.short_seek {
            s.validate("short_seek")?;
        }
        Ok(())
    }
}

/// A helical-scan drive with a tape mounted.
#[derive(Clone, Debug)]
pub struct HelicalModel {
    spec: HelicalSpec,
    capacity: u64,
}

impl HelicalModel {
    /// A model from a validated spec.
    pub fn new(spec: HelicalSpec) -> Result<Self> {
        spec.validate()?;
        let capacity = spec.capacity_bytes / spec.block_bytes;
        Ok(HelicalModel { spec, capacity })
    }

    /// The drive's figures.
    pub fn spec(&self) -> &HelicalSpec {
        &self.spec
    }

    fn fraction(&self, from: Block, to: Block) -> f64 {
        from.0.abs_diff(to.0) as f64 / self.capacity as f64
    }
}

impl CostModel for HelicalModel {
    fn capacity(&self) -> u64 {
        self.capacity
    }

    fn block_bytes(&self) -> u64 {
        self.spec.block_bytes
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        if from == to {
            return 0.0;
        }
        let f = self.fraction(from, to);
        let long = self.spec.seek.at(f);
        match &self.spec.short_seek {
            Some(short) => long.min(short.at(f)),
            None => long,
        }
    }

    fn read(&self, extent: Extent) -> Read {
        let blocks = self.blocks_of(extent.bytes);
        Read {
            seconds: extent.bytes as f64 / self.spec.rate_bps,
            end: Block(extent.start.0.saturating_add(blocks)),
        }
    }

    fn physical(&self, _block: Block) -> Option<Physical> {
        None
    }

    fn keypoint_spacing(&self) -> f64 {
        0.0
    }

    /// The block itself, its number as the coordinate along the tape (so a
    /// distance along it is exactly the blocks between).
    fn pos(&self, block: Block) -> Option<Pos> {
        Some(Pos::of_block(block, block.0 as f64))
    }

    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        Some(PosCosts::Other(self))
    }

    fn read_along_s(&self) -> Option<f64> {
        Some(self.spec.block_bytes as f64 / self.spec.rate_bps)
    }

    /// One seek line, when the drive has no separate line for short seeks.
    fn seek_line(&self) -> Option<SeekLine> {
        self.spec.short_seek.is_none().then(|| SeekLine {
            startup_s: self.spec.seek.startup_s,
            per_block_s: self.spec.seek.full_s / self.capacity as f64,
        })
    }

    fn along_follows_blocks(&self) -> bool {
        true
    }

    /// On the drive's rewind line, by the fraction of the tape to BOT.
    fn rewind_s(&self, from: Block) -> Option<f64> {
        Some(if from.0 == 0 {
            0.0
        } else {
            self.spec.rewind.at(self.fraction(from, Block(0)))
        })
    }
}

impl LocatePos for HelicalModel {
    fn locate_pos(&self, from: Pos, to: Pos) -> f64 {
        self.locate(from.block(), to.block())
    }

    /// A seek over `delta` blocks takes at least the lowest startup plus
    /// the flattest line's slope per block times `delta`; a move to the
    /// same block is free, and other positions are a whole block or more
    /// apart, which the second line (the startup per block, through 0 s)
    /// covers.
    fn along_bound(&self) -> Option<AlongBound> {
        let (startup, flattest) = match &self.spec.short_seek {
            Some(short) => (
                self.spec.seek.startup_s.min(short.startup_s),
                self.spec.seek.full_s.min(short.full_s),
            ),
            None => (self.spec.seek.startup_s, self.spec.seek.full_s),
        };
        Some(AlongBound::uniform(startup, flattest / self.capacity as f64).with_near(startup))
    }
}
