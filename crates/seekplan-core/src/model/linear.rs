//! The linear locate model: positioning costs time proportional to the logical
//! distance, calibrated so that crossing the whole tape costs one full wind.
//!
//! Why this model for the library simulator: the dCache paper (Morschel et
//! al., §4.2) gives the T10000D only as rate, load, unload and an average
//! rewind time, and its argument (§3.2) needs only that seeking falls as the
//! recalled fraction of a tape grows and as requests are read in on-tape
//! order. Distance-proportional locate is the simplest model with both
//! properties and it needs no figure the paper does not give.

use super::geometry::Direction;
use super::{Block, CostModel, Extent, Physical, Read, SeekLine};
use crate::error::{require_rate, require_seconds};
use crate::{Error, Result};

/// A tape seen as one long forward track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearModel {
    capacity_blocks: u64,
    block_bytes: u64,
    rate_bps: f64,
    wind_s: f64,
    overhead_s: f64,
}

impl LinearModel {
    /// A tape of `capacity_bytes` in `block_bytes` blocks, read at `rate_bps`;
    /// a locate costs `overhead_s` plus `wind_s` times the fraction of the
    /// tape crossed.
    pub fn new(
        capacity_bytes: u64,
        block_bytes: u64,
        rate_bps: f64,
        wind_s: f64,
        overhead_s: f64,
    ) -> Result<Self> {
        if block_bytes == 0 {
            return Err(Error::invalid("block_bytes", "must be positive"));
        }
        if capacity_bytes < block_bytes {
            return Err(Error::invalid(
                "capacity",
                format!("{capacity_bytes} bytes is less than one block ({block_bytes} bytes)"),
            ));
        }
        require_rate(&[("rate_bps", rate_bps)])?;
        require_seconds(&[("wind_s", wind_s), ("locate_overhead_s", overhead_s)])?;
        Ok(LinearModel {
            capacity_blocks: capacity_bytes / block_bytes,
            block_bytes,
            rate_bps,
            wind_s,
            overhead_s,
        })
    }
}

impl CostModel for LinearModel {
    fn capacity(&self) -> u64 {
        self.capacity_blocks
    }

    fn block_bytes(&self) -> u64 {
        self.block_bytes
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        if from == to {
            return 0.0;
        }
        let blocks = from.0.abs_diff(to.0) as f64;
        self.overhead_s + self.wind_s * blocks / self.capacity_blocks as f64
    }

    fn read(&self, extent: Extent) -> Read {
        Read {
            seconds: extent.bytes as f64 / self.rate_bps,
            end: Block(extent.start.0.saturating_add(self.blocks_of(extent.bytes))),
        }
    }

    fn physical(&self, block: Block) -> Option<Physical> {
        Some(Physical {
            track: 0,
            direction: Direction::Forward,
            lpos: (block.0 as f64 / self.capacity_blocks as f64).min(1.0),
        })
    }

    fn keypoint_spacing(&self) -> f64 {
        0.0
    }

    fn seek_line(&self) -> Option<SeekLine> {
        Some(SeekLine {
            startup_s: self.overhead_s,
            per_block_s: self.wind_s / self.capacity_blocks as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> LinearModel {
        LinearModel::new(1_000_000, 1_000, 100.0, 97.0, 1.0).unwrap()
    }

    #[test]
    fn locate_is_proportional_to_distance() {
        let m = model();
        assert_eq!(m.locate(Block(5), Block(5)), 0.0);
        assert!((m.locate(Block(0), Block(1000)) - 98.0).abs() < 1e-9);
        assert!((m.locate(Block(750), Block(250)) - 49.5).abs() < 1e-9);
    }

    #[test]
    fn read_moves_head_past_extent() {
        let r = model().read(Extent {
            start: Block(10),
            bytes: 2_500,
        });
        assert_eq!(r.end, Block(13));
        assert!((r.seconds - 25.0).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_figures() {
        assert!(LinearModel::new(10, 0, 1.0, 1.0, 0.0).is_err());
        assert!(LinearModel::new(10, 100, 1.0, 1.0, 0.0).is_err());
        assert!(LinearModel::new(1000, 100, 0.0, 1.0, 0.0).is_err());
    }
}
