//! What a device costs. A scheduler asks a [`CostModel`]; it never computes a
//! locate time itself.

pub mod compression;
pub mod cta;
pub mod disk;
pub mod four_region;
pub mod geometry;
pub mod helical;
pub mod linear;
pub mod lto;
pub mod matrix;
pub mod mount;
pub mod read_delay;
pub mod robot;
pub mod serpentine;
pub mod short_seek;

pub use cta::{cta_cost, CtaModel};
pub use four_region::{FourRegionModel, FourRegionSpec, TrackGrid};
pub use geometry::{classify, Direction, Physical, SeekClass};
pub use helical::{HelicalModel, HelicalSpec, LinearSeek};
pub use linear::LinearModel;
pub use lto::{LtoModel, LtoSpec, WrapPosition};
pub use matrix::CostMatrix;
pub use serpentine::{SerpentineModel, SerpentineSpec, TapeLayout};
pub use short_seek::{crossover_blocks, ReadThrough};

use serde::{Deserialize, Serialize};

/// A logical block address on a tape (block 0 is the first block after BOT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Block(pub u64);

/// A request's data on the medium: its first logical block and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extent {
    /// First logical block of the data.
    pub start: Block,
    /// Size of the data in bytes.
    pub bytes: u64,
}

/// The outcome of reading an extent: how long it took and where the head is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Read {
    /// Seconds spent reading, including track turns inside the read.
    pub seconds: f64,
    /// The block under the head when the read ends (the next block).
    pub end: Block,
}

/// A device's cost of positioning and reading, in seconds.
pub trait CostModel: Send + Sync {
    /// Number of logical blocks the medium holds.
    fn capacity(&self) -> u64;
    /// Bytes per logical block.
    fn block_bytes(&self) -> u64;
    /// Seconds to position the head from block `from` to the start of block `to`.
    fn locate(&self, from: Block, to: Block) -> f64;
    /// Seconds to read `extent` once positioned at its start, and the head's end.
    fn read(&self, extent: Extent) -> Read;
    /// Where a block lies physically, if the model knows (linear tapes do).
    fn physical(&self, block: Block) -> Option<Physical>;
    /// Longitudinal distance between key points, in track lengths (0 when the
    /// drive needs none): seeks shorter than this may have to back up.
    fn keypoint_spacing(&self) -> f64;

    /// Wrap, band and LPOS of a block on an LTO-style tape, if the model has
    /// them (what cost heuristics in drive units, like CTA's, need).
    fn wrap_position(&self, _block: Block) -> Option<WrapPosition> {
        None
    }

    /// Seconds to locate between two wrap positions, for models that have
    /// them: equal to `locate` on the blocks, without mapping them again
    /// (schedulers cache positions to evaluate millions of moves quickly).
    fn locate_wrap(&self, _from: WrapPosition, _to: WrapPosition) -> Option<f64> {
        None
    }

    /// The model itself when it is the LTO model: schedulers then time moves
    /// with a direct (inlined) call instead of one through this trait.
    fn as_lto(&self) -> Option<&LtoModel> {
        None
    }

    /// Seconds to stream forward from `from` to `to` (`to >= from`) by reading.
    fn read_through(&self, from: Block, to: Block) -> f64 {
        let blocks = to.0.saturating_sub(from.0);
        self.read(Extent {
            start: from,
            bytes: blocks * self.block_bytes(),
        })
        .seconds
    }

    /// Number of blocks an extent occupies (at least one).
    fn blocks_of(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.block_bytes()).max(1)
    }

    /// Checks that an extent lies on the medium.
    fn check(&self, extent: Extent) -> crate::Result<()> {
        if extent.bytes == 0 {
            return Err(crate::Error::invalid("size", "must be positive"));
        }
        let end = extent.start.0.checked_add(self.blocks_of(extent.bytes));
        match end {
            Some(e) if e <= self.capacity() => Ok(()),
            _ => Err(crate::Error::invalid(
                "block",
                format!(
                    "extent at block {} of {} bytes runs past the end of the tape ({} blocks)",
                    extent.start.0,
                    extent.bytes,
                    self.capacity()
                ),
            )),
        }
    }
}
