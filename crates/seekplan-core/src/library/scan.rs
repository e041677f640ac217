//! SCAN on a linear tape for the library's batches: the order of
//! [`crate::order`]'s `scan` with a [`crate::model::LinearModel`] (whose
//! position is the block), without building an ordering problem per batch.

/// Orders `batch` as SCAN from block `head`: the items at or past the head
/// in block order, then those behind it, ties in `batch`'s order; `plan`
/// (empty) receives all of it reversed (next read last) and `batch` is left
/// empty. `start` gives an item's first block; `keys` is scratch room.
///
/// The clustering strategies pass a tape's requests on in the campaign's
/// order, so their batches are an ascending run per dataset part (at queue
/// 30,000, by-12-tapes had no batch of three). One run is reversed in place
/// in two parts (behind the head, the rest) and the buffers trade places;
/// two runs are merged from their ends into `plan`, one read and one write
/// per item (a stable sort copied each item to scratch and back, and the
/// plan was reversed after). Any other batch (the `random` strategy's)
/// is sorted as packed integer keys ([`sort_by_keys`]); sorting 16-byte keys
/// took a third of the instructions of sorting the items (measured when
/// they were 40 bytes).
pub(super) fn scan_linear<T: Copy>(
    batch: &mut Vec<T>,
    head: u64,
    start: impl Fn(&T) -> u64,
    keys: &mut Vec<u64>,
    plan: &mut Vec<T>,
) {
    debug_assert!(plan.is_empty());
    match second_run(batch, &start) {
        Some(second) if second == batch.len() => {
            // One run: the plan is its part behind the head reversed, then
            // the rest reversed, in place; the buffers trade places (the
            // batch's is the one just written, so in the cache).
            let split = batch.partition_point(|x| start(x) < head);
            batch[..split].reverse();
            batch[split..].reverse();
            std::mem::swap(batch, plan);
            return;
        }
        Some(second) => {
            plan.reserve(batch.len());
            // Each run's items behind the head are a prefix: those are read
            // last, so they go into the plan first.
            let split =
                |lo: usize, hi: usize| lo + batch[lo..hi].partition_point(|x| start(x) < head);
            let (a, b) = (split(0, second), split(second, batch.len()));
            merge_from_ends(batch, (0, a), (second, b), &start, plan);
            merge_from_ends(batch, (a, second), (b, batch.len()), &start, plan);
        }
        None => sort_by_keys(batch, head, &start, keys, plan),
    }
    batch.clear();
}

/// Where the second ascending run (by `start`) of `batch` begins (its
/// length if it is one run), if it has at most two.
fn second_run<T>(batch: &[T], start: impl Fn(&T) -> u64) -> Option<usize> {
    let mut descents = batch
        .windows(2)
        .enumerate()
        .filter(|(_, w)| start(&w[1]) < start(&w[0]))
        .map(|(i, _)| i + 1);
    match (descents.next(), descents.next()) {
        (None, _) => Some(batch.len()),
        (Some(second), None) => Some(second),
        _ => None,
    }
}

/// Appends the items of the ascending index ranges `a` and `b` of `batch`
/// (`a` before `b`) to `plan`, last first: by block, latest first, and
/// among equal blocks the later in the batch first (the reverse of a
/// stable ascending sort).
fn merge_from_ends<T: Copy>(
    batch: &[T],
    (a_lo, mut a): (usize, usize),
    (b_lo, mut b): (usize, usize),
    start: &impl Fn(&T) -> u64,
    plan: &mut Vec<T>,
) {
    while a > a_lo && b > b_lo {
        // `b`'s items are later in the batch: it wins a tie.
        if start(&batch[b - 1]) >= start(&batch[a - 1]) {
            b -= 1;
            plan.push(batch[b]);
        } else {
            a -= 1;
            plan.push(batch[a]);
        }
    }
    plan.extend(batch[a_lo..a].iter().rev());
    plan.extend(batch[b_lo..b].iter().rev());
}

/// [`scan_linear`] of a batch in any order: behind the head, then the block,
/// then the index in the batch (which keeps ties in order) packed in one
/// integer per item and sorted. The index takes the bits its batch needs,
/// so a key is 64 bits whenever the blocks leave room (on every tape
/// modelled so far): the sort took about two fifths fewer instructions than
/// with 128-bit keys (callgrind, q30000 random, 2026-11-27). Otherwise the
/// key is 128 bits: the index fits 32 of them, as a batch holds requests of
/// one campaign, whose files are u32s.
fn sort_by_keys<T: Copy>(
    batch: &[T],
    head: u64,
    start: &impl Fn(&T) -> u64,
    keys: &mut Vec<u64>,
    plan: &mut Vec<T>,
) {
    let index_bits = u64::BITS - (batch.len().max(1) - 1).leading_zeros();
    let last_block = batch.iter().map(start).max().unwrap_or(0);
    if index_bits < 63 && last_block < 1 << (63 - index_bits) {
        let key = |i: usize, block: u64| {
            (u64::from(block < head) << 63) | (block << index_bits) | i as u64
        };
        let index = |k: u64| (k & ((1 << index_bits) - 1)) as usize;
        sort_into_plan(batch, start, key, index, keys, plan);
    } else {
        let key = |i: usize, block: u64| {
            (u128::from(block < head) << 127) | (u128::from(block) << 32) | i as u128
        };
        let index = |k: u128| k as u32 as usize;
        sort_into_plan(batch, start, key, index, &mut Vec::new(), plan);
    }
}

/// Appends `batch` to `plan` in descending order of `key(index, block)`,
/// a key from which `index` gives the item's index back; `keys` is scratch.
fn sort_into_plan<T: Copy, K: Ord + Copy>(
    batch: &[T],
    start: &impl Fn(&T) -> u64,
    key: impl Fn(usize, u64) -> K,
    index: impl Fn(K) -> usize,
    keys: &mut Vec<K>,
    plan: &mut Vec<T>,
) {
    keys.clear();
    keys.extend(batch.iter().enumerate().map(|(i, x)| key(i, start(x))));
    keys.sort_unstable();
    plan.extend(keys.iter().rev().map(|&k| batch[index(k)]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// SCAN by its definition: a stable sort by (behind the head, block),
    /// reversed.
    fn by_definition(batch: &[(u64, u32)], head: u64) -> Vec<(u64, u32)> {
        let mut v = batch.to_vec();
        v.sort_by_key(|&(block, _)| (block < head, block));
        v.reverse();
        v
    }

    #[test]
    fn merging_runs_and_sorting_keys_both_give_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for case in 0..2000 {
            // 0 to 4 ascending runs of few distinct blocks (ties common),
            // so both the merge and the sort are taken.
            let runs = case % 5;
            let mut batch = Vec::new();
            for _ in 0..runs {
                let mut block = rng.gen_range(0..20);
                for _ in 0..rng.gen_range(0..9) {
                    block += rng.gen_range(0..3);
                    batch.push((block, batch.len() as u32));
                }
            }
            // Every tenth case on blocks too far out for 64-bit keys.
            let shift = if case % 10 == 9 { u64::MAX / 2 } else { 0 };
            batch.iter_mut().for_each(|b| b.0 += shift);
            let head = rng.gen_range(0..40) + shift;
            let mut plan = Vec::new();
            let mut scratch = batch.clone();
            scan_linear(&mut scratch, head, |x| x.0, &mut Vec::new(), &mut plan);
            assert!(scratch.is_empty());
            assert_eq!(plan, by_definition(&batch, head), "case {case}");
        }
    }

    #[test]
    fn a_second_run_is_found_and_a_third_refused() {
        let second = |v: &[u64]| second_run(v, |&b| b);
        assert_eq!(second(&[]), Some(0));
        assert_eq!(second(&[5, 5, 6]), Some(3));
        assert_eq!(second(&[5, 6, 4, 4, 9]), Some(2));
        assert_eq!(second(&[5, 4, 4, 9, 1]), None);
    }
}
