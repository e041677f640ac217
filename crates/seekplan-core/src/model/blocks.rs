//! Counting the blocks an extent occupies where that is done per read (the
//! recall simulator's stops): by multiply and shift instead of a 64-bit
//! division, exactly as [`super::CostModel::blocks_of`] counts.

use strength_reduce::StrengthReducedU64;

/// A medium's block size, held as a divisor that multiplies (when the
/// recall simulator counted blocks on submission, a 64-bit division was a
/// sixth of a submission's time in perf samples).
#[derive(Clone, Copy, Debug)]
pub struct BlockSize(StrengthReducedU64);

impl BlockSize {
    /// Blocks of `block_bytes` bytes (not 0).
    pub fn new(block_bytes: u64) -> Self {
        BlockSize(StrengthReducedU64::new(block_bytes))
    }

    /// Blocks that `bytes` occupy (at least one).
    pub fn blocks_of(self, bytes: u64) -> u64 {
        let (whole, part) = StrengthReducedU64::div_rem(bytes, self.0);
        (whole + u64::from(part != 0)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CostModel, LinearModel};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn blocks_are_counted_as_the_models_count_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for block in [1, 2, 3, 512, 1 << 20, 1_000_003, u64::MAX / 3, u64::MAX] {
            let model = LinearModel::new(u64::MAX, block, 1.0, 1.0, 0.0).unwrap();
            let size = BlockSize::new(block);
            let near = [block - 1, block, block.saturating_add(1)];
            let mut sizes = vec![0, 1, u64::MAX - 1, u64::MAX];
            sizes.extend(near);
            for _ in 0..200 {
                sizes.push(rng.gen());
                sizes.push(rng.gen_range(0..block.saturating_mul(4)));
            }
            for bytes in sizes {
                assert_eq!(
                    size.blocks_of(bytes),
                    model.blocks_of(bytes),
                    "{bytes} bytes in blocks of {block}"
                );
            }
        }
    }
}
