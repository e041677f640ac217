//! Short seeks (Johnson & Miller §5.4.3): below a crossover distance reading
//! through the unwanted blocks is faster than seeking past them. `ReadThrough`
//! makes any cost model take the cheaper of the two, so every scheduler
//! sees it; `crossover_blocks` runs the paper's experiment from one start
//! (Table 4 "min. seek"); `ShortSeekRegime` is a serpentine drive's own
//! short seeks within a track.

use super::{AlongBound, Block, CostModel, Extent, LocatePos, Physical, Pos, PosCosts, Read};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Where seeking first beats reading through, from one start (§5.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossover {
    /// Smallest forward distance (blocks) at which the seek is faster.
    pub blocks: u64,
    /// Largest distance (blocks) up to which the seek stays faster without
    /// a break, within the distances tried.
    pub holds_to: u64,
}

/// The paper's experiment from `from`: for every forward distance `d` of
/// 1..=`within` blocks, compare seeking past `d` blocks with reading them
/// (both then read the same block). Every distance is tried, so the first
/// win is found even where the seek's advantage is not monotone (a
/// serpentine drive's next track). `None` when reading always wins.
pub fn crossover_blocks(model: &dyn CostModel, from: Block, within: u64) -> Option<Crossover> {
    let room = model.capacity().saturating_sub(from.0.saturating_add(1));
    let seek_wins = |d: u64| {
        let to = Block(from.0 + d);
        model.locate(from, to) < model.read_through(from, to)
    };
    let last = within.min(room);
    let blocks = (1..=last).find(|&d| seek_wins(d))?;
    let holds_to = (blocks..=last)
        .take_while(|&d| seek_wins(d))
        .last()
        .unwrap_or(blocks);
    Some(Crossover { blocks, holds_to })
}

/// A serpentine drive's short seeks forward within one track (§5.4.3): up
/// to `transition_bytes` the drive reads through ("no penalty ... but no
/// benefit", DLT4000), beyond it the tape moves at the fast seek rate,
/// `speedup` times the read rate (§5.4.1). The seek therefore meets reading
/// at `transition_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShortSeekRegime {
    /// Fast seek rate over the read rate.
    pub speedup: f64,
    /// Distance below which the drive reads through, bytes.
    pub transition_bytes: u64,
}

impl ShortSeekRegime {
    /// Checks both figures; names the bad field.
    pub fn validate(&self) -> Result<()> {
        if !(self.speedup.is_finite() && self.speedup >= 1.0) {
            return Err(Error::invalid(
                "short_seek.speedup",
                format!("must be >= 1, got {}", self.speedup),
            ));
        }
        Ok(())
    }

    /// Seconds to move `bytes` forward on a track read at `rate_bps`.
    pub fn seconds(&self, bytes: u64, rate_bps: f64) -> f64 {
        if bytes <= self.transition_bytes {
            return bytes as f64 / rate_bps;
        }
        let fast = (bytes - self.transition_bytes) as f64 / (self.speedup * rate_bps);
        self.transition_bytes as f64 / rate_bps + fast
    }
}

/// A cost model whose forward locates read through when that is faster.
pub struct ReadThrough<M: CostModel> {
    inner: M,
}

impl<M: CostModel> ReadThrough<M> {
    /// Wraps `inner`.
    pub fn new(inner: M) -> Self {
        ReadThrough { inner }
    }

    /// The wrapped model.
    pub fn inner(&self) -> &M {
        &self.inner
    }
}

impl<M: CostModel> CostModel for ReadThrough<M> {
    fn capacity(&self) -> u64 {
        self.inner.capacity()
    }

    fn block_bytes(&self) -> u64 {
        self.inner.block_bytes()
    }

    fn locate(&self, from: Block, to: Block) -> f64 {
        let seek = self.inner.locate(from, to);
        if to > from {
            seek.min(self.inner.read_through(from, to))
        } else {
            seek
        }
    }

    fn read(&self, extent: Extent) -> Read {
        self.inner.read(extent)
    }

    fn physical(&self, block: Block) -> Option<Physical> {
        self.inner.physical(block)
    }

    fn keypoint_spacing(&self) -> f64 {
        self.inner.keypoint_spacing()
    }

    /// The block itself, where the wrapped model puts it along the tape
    /// (a move is timed from the two blocks, reading through or seeking).
    fn pos(&self, block: Block) -> Option<Pos> {
        self.inner.pos(block).map(|p| Pos::of_block(block, p.along))
    }

    fn pos_costs(&self) -> Option<PosCosts<'_>> {
        self.inner.pos_costs().map(|_| PosCosts::Other(self))
    }

    fn read_along_s(&self) -> Option<f64> {
        self.inner.read_along_s()
    }

    fn along_follows_blocks(&self) -> bool {
        self.inner.along_follows_blocks()
    }

    /// The wrapped drive's: a rewind never reads through.
    fn rewind_s(&self, from: Block) -> Option<f64> {
        self.inner.rewind_s(from)
    }
}

impl<M: CostModel> LocatePos for ReadThrough<M> {
    fn locate_pos(&self, from: Pos, to: Pos) -> f64 {
        self.locate(from.block(), to.block())
    }

    /// The cheaper of the wrapped model's seek bound and reading over the
    /// distance (a line through 0 s), when the wrapped model has both.
    /// Where `along` follows the blocks, a move back cannot read through
    /// and keeps the seek's bound: on a million requests on a helical tape
    /// (26 a block), SLTF's steps back then time the nearest block only,
    /// not every request within the read-through line's reach (130 blocks).
    fn along_bound(&self) -> Option<AlongBound> {
        let seek = self.inner.pos_costs()?.along_bound()?;
        let read = self.inner.read_along_s()?;
        let forward = Some(seek.near_per_along.map_or(read, |near| near.min(read)));
        Some(AlongBound {
            near_per_along: forward,
            near_back_per_along: if self.inner.along_follows_blocks() {
                seek.near_back_per_along
            } else {
                forward
            },
            ..AlongBound::uniform(seek.base.min(seek.other_side_base), seek.per_along)
        })
    }
}
