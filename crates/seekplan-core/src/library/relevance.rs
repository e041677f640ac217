//! Which unheld tape a free drive takes next: the most relevant of the
//! candidates (unheld tapes with queued requests), kept up to date as their
//! ranks change.
//!
//! A candidate's rank only grows (requests join an unheld tape's queue;
//! reads happen on held tapes), and a tape stops being a candidate only when
//! a drive takes it. So the tapes are cut into blocks of about √n (a power
//! of two), each block and the whole set remember their top tape, and a rise
//! costs two comparisons; taking a tape rescans its block and the block tops.

/// The candidates' ranks and their top tape. Candidates' ranks differ
/// from each other (see [`key`]), so comparing ranks alone orders them.
#[derive(Clone, Debug)]
pub(super) struct Relevance {
    /// Each tape's rank ([`key`]); 0 while it is no candidate. One more
    /// entry, always 0, stands for "no tape" ([`Relevance::none`]), so that
    /// a comparison with an empty block needs no test of its own.
    keys: Vec<u128>,
    /// Tapes per block: `1 << shift`.
    shift: u32,
    /// The top tape of each block, or "no tape".
    tops: Vec<u32>,
    /// The top tape of all, or "no tape".
    top: u32,
}

/// The rank of a tape with `bytes` queued whose oldest queued request has
/// sequence number `oldest`: more bytes first, then the older request. A
/// candidate has bytes queued, so its key is never 0, and no two candidates
/// share a key: each one's oldest request is its own, with a sequence
/// number of its own.
pub(super) fn key(bytes: u64, oldest: u64) -> u128 {
    (u128::from(bytes) << 64) | u128::from(u64::MAX - oldest)
}

impl Relevance {
    /// No candidates among `tapes` tapes.
    pub fn new(tapes: usize) -> Self {
        let shift = ((tapes as f64).sqrt().ceil().max(1.0) as usize)
            .next_power_of_two()
            .trailing_zeros();
        let none = tapes as u32;
        Relevance {
            keys: vec![0; tapes + 1],
            shift,
            tops: vec![none; tapes.div_ceil(1 << shift)],
            top: none,
        }
    }

    /// The index that stands for "no tape" (its rank is always 0).
    fn none(&self) -> u32 {
        (self.keys.len() - 1) as u32
    }

    /// Tape `t` is a candidate of rank `key`, at least its rank before and
    /// different from every other candidate's.
    pub fn raise(&mut self, t: u32, key: u128) {
        debug_assert!(t < self.none() && key > 0 && key >= self.keys[t as usize]);
        self.keys[t as usize] = key;
        let b = (t >> self.shift) as usize;
        if key > self.keys[self.tops[b] as usize] {
            self.tops[b] = t;
        }
        if key > self.keys[self.top as usize] {
            self.top = t;
        }
    }

    /// Tape `t` is no candidate any more (a drive took it).
    pub fn remove(&mut self, t: u32) {
        debug_assert!(t < self.none());
        self.keys[t as usize] = 0;
        let b = (t >> self.shift) as usize;
        if self.tops[b] == t {
            let lo = b << self.shift;
            let hi = (lo + (1 << self.shift)).min(self.none() as usize);
            self.tops[b] = self.best(lo as u32..hi as u32);
        }
        if self.top == t {
            self.top = self.best(self.tops.iter().copied());
        }
    }

    /// The candidate of highest rank among `tapes`, or "no tape". Selects
    /// rather than branches: whether a tape ranks higher than those before
    /// it is as good as random.
    fn best(&self, tapes: impl Iterator<Item = u32>) -> u32 {
        let (mut best, mut best_key) = (self.none(), 0);
        for t in tapes {
            let key = self.keys[t as usize];
            let higher = key > best_key;
            best = if higher { t } else { best };
            best_key = if higher { key } else { best_key };
        }
        best
    }

    /// The top candidate, if any.
    pub fn top(&self) -> Option<u32> {
        (self.top != self.none()).then_some(self.top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn top_is_the_candidate_of_highest_rank() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for n in [1, 2, 7, 30, 333] {
            let mut r = Relevance::new(n);
            let mut keys: Vec<u128> = vec![0; n];
            for _ in 0..3_000 {
                let t = rng.gen_range(0..n);
                if rng.gen_bool(0.2) {
                    r.remove(t as u32);
                    keys[t] = 0;
                } else {
                    // Ranks rise in few steps, so that many candidates
                    // share the high part; the low part keeps them apart
                    // (as a sequence number does).
                    let high = (keys[t] >> 32) + rng.gen_range(0..3);
                    keys[t] = (high << 32) | (t as u128 + 1);
                    r.raise(t as u32, keys[t]);
                }
                let want = (0..n)
                    .filter(|&i| keys[i] > 0)
                    .max_by_key(|&i| keys[i])
                    .map(|i| i as u32);
                assert_eq!(r.top(), want, "n {n}");
            }
        }
    }
}
