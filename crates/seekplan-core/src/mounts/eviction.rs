//! Eviction: which idle cartridge leaves its drive when a request finds no
//! empty drive. One [`Evictor`] keeps what every policy needs per cartridge
//! and picks a victim among the candidates the caller offers (the timed
//! replay offers idle cartridges; the untimed model every mounted one).

use super::config::EvictionPolicy;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Which list of ARC a cartridge is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArcList {
    None = 0,
    /// Mounted, referenced once since it entered the cache.
    T1,
    /// Mounted, referenced again.
    T2,
    /// Ghost of T1: recently evicted from T1.
    B1,
    /// Ghost of T2.
    B2,
}

/// The state of one eviction policy over a replay.
pub struct Evictor {
    policy: EvictionPolicy,
    /// Time of each cartridge's last reference (LRU, ties for LFU, ARC).
    last_use: Vec<f64>,
    /// References of each cartridge so far (LFU).
    uses: Vec<u32>,
    /// When each cartridge was last loaded (FIFO).
    loaded_at: Vec<f64>,
    /// Time of each cartridge's next request (Belady); infinite if none.
    next_use: Vec<f64>,
    rng: ChaCha8Rng,
    arc: Vec<ArcList>,
    /// Cartridges on each ARC list, indexed by `ArcList as usize`.
    arc_counts: [usize; 5],
    /// Bumped on every move, so a ghost queue entry can tell it is stale.
    arc_stamp: Vec<u32>,
    /// B1's and B2's ghosts, oldest first (stale entries skipped).
    ghosts: [VecDeque<(u32, u32)>; 2],
    /// ARC's target size of T1 (its `p`).
    arc_target: f64,
    /// ARC's cache size: the drives.
    capacity: usize,
}

impl Evictor {
    /// A policy over `cartridges` cartridges and `capacity` drives.
    pub fn new(policy: EvictionPolicy, cartridges: usize, capacity: usize, seed: u64) -> Self {
        let arc_len = if policy == EvictionPolicy::Arc {
            cartridges
        } else {
            0
        };
        Evictor {
            policy,
            last_use: vec![f64::NEG_INFINITY; cartridges],
            uses: vec![0; cartridges],
            loaded_at: vec![0.0; cartridges],
            next_use: vec![f64::INFINITY; cartridges],
            rng: ChaCha8Rng::seed_from_u64(seed),
            arc: vec![ArcList::None; arc_len],
            arc_counts: [arc_len, 0, 0, 0, 0],
            arc_stamp: vec![0; arc_len],
            ghosts: [VecDeque::new(), VecDeque::new()],
            arc_target: 0.0,
            capacity,
        }
    }

    /// A request for `cart` at `now`; its next request comes at `next`
    /// (infinite if never).
    pub fn reference(&mut self, cart: u32, now: f64, next: f64) {
        let c = cart as usize;
        self.last_use[c] = now;
        self.uses[c] = self.uses[c].saturating_add(1);
        self.next_use[c] = next;
        if self.policy == EvictionPolicy::Arc {
            self.arc_reference(c);
        }
    }

    /// `cart` was loaded into a drive at `now`.
    pub fn loaded(&mut self, cart: u32, now: f64) {
        self.loaded_at[cart as usize] = now;
    }

    /// `cart` left its drive (evicted or dismounted by its timer).
    pub fn unloaded(&mut self, cart: u32) {
        if self.policy != EvictionPolicy::Arc {
            return;
        }
        let c = cart as usize;
        let ghost = match self.arc[c] {
            ArcList::T1 => ArcList::B1,
            ArcList::T2 => ArcList::B2,
            _ => return,
        };
        self.arc_move(c, ghost);
        self.arc_trim_ghosts();
    }

    /// The index in `candidates` (mounted cartridges, not empty) of the one
    /// the policy evicts.
    pub fn choose(&mut self, candidates: &[u32]) -> usize {
        debug_assert!(!candidates.is_empty());
        let by_min = |key: &dyn Fn(usize) -> (f64, f64)| {
            let mut best = 0;
            let mut best_key = key(candidates[0] as usize);
            for (i, &c) in candidates.iter().enumerate().skip(1) {
                let k = key(c as usize);
                if k.0 < best_key.0 || (k.0 == best_key.0 && k.1 < best_key.1) {
                    best = i;
                    best_key = k;
                }
            }
            best
        };
        match self.policy {
            EvictionPolicy::Lru => by_min(&|c| (self.last_use[c], 0.0)),
            EvictionPolicy::Lfu => by_min(&|c| (f64::from(self.uses[c]), self.last_use[c])),
            EvictionPolicy::Fifo => by_min(&|c| (self.loaded_at[c], self.last_use[c])),
            EvictionPolicy::Random => self.rng.gen_range(0..candidates.len()),
            // Furthest next use first; ties (never needed again) by recency.
            EvictionPolicy::Belady => by_min(&|c| (-self.next_use[c], self.last_use[c])),
            EvictionPolicy::Arc => self.arc_choose(candidates),
        }
    }

    /// ARC's bookkeeping on a reference: a ghost hit moves the target
    /// toward the list that would have kept the cartridge.
    fn arc_reference(&mut self, c: usize) {
        let was = self.arc[c];
        match was {
            ArcList::B1 => {
                let delta = (self.arc_counts[ArcList::B2 as usize] as f64
                    / self.arc_counts[ArcList::B1 as usize] as f64)
                    .max(1.0);
                self.arc_target = (self.arc_target + delta).min(self.capacity as f64);
            }
            ArcList::B2 => {
                let delta = (self.arc_counts[ArcList::B1 as usize] as f64
                    / self.arc_counts[ArcList::B2 as usize] as f64)
                    .max(1.0);
                self.arc_target = (self.arc_target - delta).max(0.0);
            }
            _ => {}
        }
        let now = if was == ArcList::None {
            ArcList::T1
        } else {
            ArcList::T2
        };
        self.arc_move(c, now);
        self.arc_trim_ghosts();
    }

    /// Moves cartridge `c` to `list`, keeping the counts; a ghost joins
    /// the back of its list's queue.
    fn arc_move(&mut self, c: usize, list: ArcList) {
        self.arc_counts[self.arc[c] as usize] -= 1;
        self.arc_counts[list as usize] += 1;
        self.arc[c] = list;
        self.arc_stamp[c] += 1;
        match list {
            ArcList::B1 => self.ghosts[0].push_back((c as u32, self.arc_stamp[c])),
            ArcList::B2 => self.ghosts[1].push_back((c as u32, self.arc_stamp[c])),
            _ => {}
        }
    }

    /// ARC's REPLACE among the candidates: the least recent of T1 while T1
    /// is above its target (or T2 offers none), else the least recent of T2.
    fn arc_choose(&self, candidates: &[u32]) -> usize {
        let t1 = self.arc_counts[ArcList::T1 as usize] as f64;
        let oldest_in = |list: ArcList| {
            candidates
                .iter()
                .enumerate()
                .filter(|(_, &c)| self.arc[c as usize] == list)
                .min_by(|a, b| {
                    self.last_use[*a.1 as usize].total_cmp(&self.last_use[*b.1 as usize])
                })
                .map(|(i, _)| i)
        };
        let (first, second) = if t1 > self.arc_target {
            (ArcList::T1, ArcList::T2)
        } else {
            (ArcList::T2, ArcList::T1)
        };
        oldest_in(first)
            .or_else(|| oldest_in(second))
            .unwrap_or_else(|| {
                // Not on a list (a cartridge ARC never saw): the least recent.
                (0..candidates.len())
                    .min_by(|&a, &b| {
                        self.last_use[candidates[a] as usize]
                            .total_cmp(&self.last_use[candidates[b] as usize])
                    })
                    .unwrap_or(0)
            })
    }

    /// Keeps the ghosts within ARC's bounds: |T1|+|B1| ≤ c and the whole
    /// directory ≤ 2c, forgetting the oldest ghosts first.
    fn arc_trim_ghosts(&mut self) {
        let c = self.capacity;
        loop {
            let [_, t1, t2, b1, b2] = self.arc_counts;
            let queue = if b1 > 0 && t1 + b1 > c {
                0
            } else if b2 > 0 && t1 + t2 + b1 + b2 > 2 * c {
                1
            } else {
                return;
            };
            // Entries whose stamp is stale were moved since they queued.
            while let Some((cart, stamp)) = self.ghosts[queue].pop_front() {
                if self.arc_stamp[cart as usize] == stamp {
                    self.arc_move(cart as usize, ArcList::None);
                    break;
                }
            }
        }
    }
}
