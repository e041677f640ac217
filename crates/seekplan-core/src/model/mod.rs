//! What a device costs. A scheduler asks a [`CostModel`]; it never computes a
//! locate time itself.

pub mod blocks;
pub mod compression;
pub mod cta;
pub mod disk;
pub mod four_region;
pub mod geometry;
pub mod helical;
pub mod linear;
pub mod lto;
pub mod matrix;
pub mod position;
pub mod read_delay;
pub mod registry;
pub mod serpentine;
pub mod short_seek;

/// At most this many tracks (serpentine) or wraps (LTO) on a tape: far
/// beyond any cartridge (an LTO-9 tape has 280 wraps, the MLR1 72 tracks).
/// The models keep a start block per track, so 4e9 tracks in a device file
/// asked for 32 GB and aborted the process.
pub const MAX_TRACKS: u32 = 100_000;

pub use blocks::BlockSize;
pub use cta::{cta_cost, CtaModel};
pub use four_region::{FourRegionModel, FourRegionSpec, TrackGrid};
pub use geometry::{classify, Direction, Physical, SeekClass};
pub use helical::{HelicalModel, HelicalSpec, LinearSeek};
pub use linear::LinearModel;
pub use lto::{LtoModel, LtoSpec, WrapPosition};
pub use matrix::{CostMatrix, CsvMatrixReader};
pub use position::{AlongBound, LocatePos, Pos, PosCosts, PosJob};
pub use registry::{ModelSpec, Tape};
pub use serpentine::{SerpentineModel, SerpentineSpec, TapeLayout};
pub use short_seek::{crossover_blocks, Crossover, ReadThrough, ShortSeekRegime};

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

/// A locate that costs `startup_s` plus `per_block_s` per block travelled,
/// either way, and nothing to the block the head is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeekLine {
    /// Seconds of any locate that moves.
    pub startup_s: f64,
    /// Seconds per block travelled.
    pub per_block_s: f64,
}

impl SeekLine {
    /// Seconds of `moving` locates that travel `blocks` blocks in all (the
    /// model's own sum of each locate differs in the last bits only).
    pub fn least(&self, moving: usize, blocks: u128) -> f64 {
        self.startup_s * moving as f64 + self.per_block_s * blocks as f64
    }
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

    /// Where `block` lies, as a [`Pos`] that [`CostModel::pos_costs`] times
    /// moves between; `None` when the model has no cheaper way to time a
    /// move than [`CostModel::locate`] on the blocks.
    fn pos(&self, _block: Block) -> Option<Pos> {
        None
    }

    /// How this model times a move between two of its positions: equal to
    /// `locate` on their blocks, without mapping the blocks again
    /// (schedulers cache one position per request and time millions of
    /// moves from them). `Some` exactly when [`CostModel::pos`] is.
    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        None
    }

    /// Seconds that reading forward over one unit of [`Pos::along`] takes
    /// at least (the blocks between two positions are at least their
    /// distance along the medium times the blocks per unit), if the model
    /// has positions and knows it: what bounds a read-through move by
    /// distance ([`ReadThrough`]).
    fn read_along_s(&self) -> Option<f64> {
        None
    }

    /// Whether [`Pos::along`] never decreases as the block number grows,
    /// so that a move to a smaller `along` goes back in blocks (a helical
    /// tape's; not a serpentine one's, whose tracks alternate direction).
    fn along_follows_blocks(&self) -> bool {
        false
    }

    /// The seek line, when every locate between two different blocks costs
    /// exactly `startup_s + per_block_s` times the blocks between them (and
    /// a locate to the block the head is on nothing): then the cheapest
    /// locate order is found exactly along the line ([`SeekLine`]).
    fn seek_line(&self) -> Option<SeekLine> {
        None
    }

    /// Seconds to rewind from `from` to BOT where the drive times rewinds
    /// on a line of their own (the helical drives of Johnson & Miller §5.4,
    /// the four-region model); `None` where a rewind is the locate to block
    /// 0. What a schedule that must end at BOT (before unload) spends last.
    fn rewind_s(&self, _from: Block) -> Option<f64> {
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

/// A borrowed model is the model: wrappers such as [`CtaModel`] can hold
/// either an owned model or a reference to one.
impl<M: CostModel + ?Sized> CostModel for &M {
    fn capacity(&self) -> u64 {
        (**self).capacity()
    }
    fn block_bytes(&self) -> u64 {
        (**self).block_bytes()
    }
    fn locate(&self, from: Block, to: Block) -> f64 {
        (**self).locate(from, to)
    }
    fn read(&self, extent: Extent) -> Read {
        (**self).read(extent)
    }
    fn physical(&self, block: Block) -> Option<Physical> {
        (**self).physical(block)
    }
    fn keypoint_spacing(&self) -> f64 {
        (**self).keypoint_spacing()
    }
    fn wrap_position(&self, block: Block) -> Option<WrapPosition> {
        (**self).wrap_position(block)
    }
    fn pos(&self, block: Block) -> Option<Pos> {
        (**self).pos(block)
    }
    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        (**self).pos_costs()
    }
    fn read_along_s(&self) -> Option<f64> {
        (**self).read_along_s()
    }
    fn along_follows_blocks(&self) -> bool {
        (**self).along_follows_blocks()
    }
    fn read_through(&self, from: Block, to: Block) -> f64 {
        (**self).read_through(from, to)
    }
    fn seek_line(&self) -> Option<SeekLine> {
        (**self).seek_line()
    }
    fn rewind_s(&self, from: Block) -> Option<f64> {
        (**self).rewind_s(from)
    }
}
