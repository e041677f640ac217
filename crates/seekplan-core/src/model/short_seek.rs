//! Short seeks (Johnson & Miller §5.4.3): below a crossover distance reading
//! through the unwanted blocks is faster than seeking past them. `ReadThrough`
//! makes any cost model take the cheaper of the two, so every scheduler
//! sees it; `crossover_blocks` finds the distance (Table 4 "min. seek").

use super::{Block, CostModel, Extent, Physical, Read};

/// Smallest forward distance (blocks) from `from` at which a seek is faster
/// than reading through; `None` when reading through always wins up to the
/// end of the tape. Assumes, like the paper's measurements, that the seek's
/// advantage grows with distance (binary search on the first win).
pub fn crossover_blocks(model: &dyn CostModel, from: Block) -> Option<u64> {
    let room = model.capacity().saturating_sub(from.0);
    let seek_wins = |d: u64| {
        model.locate(from, Block(from.0 + d)) < model.read_through(from, Block(from.0 + d))
    };
    if room < 2 || !seek_wins(room - 1) {
        return None;
    }
    let (mut lo, mut hi) = (0u64, room - 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if seek_wins(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
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
}
