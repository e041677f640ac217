//! The exact minimum-cost open path by Held–Karp dynamic programming:
//! O(n² 2ⁿ) time and O(n 2ⁿ) memory, so only for small n.

/// Largest n the solver accepts (parents are stored in a byte; 2¹⁶ × 16
/// states already take 12 MB).
pub const MAX_NODES: usize = 16;

/// The order of nodes `0..n` with the least `first(a) + Σ step(a, b) +
/// last(z)`: `first` prices entering the first node, `step` each move
/// between nodes, `last` leaving the final one. Ties go to the path found
/// first (lower nodes). Panics above [`MAX_NODES`].
pub fn held_karp(
    n: usize,
    first: impl Fn(usize) -> f64,
    step: impl Fn(usize, usize) -> f64,
    last: impl Fn(usize) -> f64,
) -> Vec<usize> {
    assert!(n <= MAX_NODES, "held_karp is limited to {MAX_NODES} nodes");
    if n <= 1 {
        return (0..n).collect();
    }
    let mut cost = vec![0.0; n * n];
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            cost[i * n + j] = step(i, j);
        }
    }
    let full = 1usize << n;
    let mut best = vec![f64::INFINITY; full * n];
    let mut parent = vec![0u8; full * n];
    for j in 0..n {
        best[(1 << j) * n + j] = first(j);
    }
    for mask in 1..full {
        let mut lasts = mask;
        while lasts != 0 {
            let at = lasts.trailing_zeros() as usize;
            lasts &= lasts - 1;
            let here = best[mask * n + at];
            let row = &cost[at * n..at * n + n];
            let mut nexts = !mask & (full - 1);
            while nexts != 0 {
                let next = nexts.trailing_zeros() as usize;
                nexts &= nexts - 1;
                let cell = (mask | (1 << next)) * n + next;
                let cand = here + row[next];
                if cand < best[cell] {
                    best[cell] = cand;
                    parent[cell] = at as u8;
                }
            }
        }
    }
    let all = full - 1;
    let total = |j: usize| best[all * n + j] + last(j);
    let mut at = (0..n)
        .min_by(|&a, &b| total(a).total_cmp(&total(b)))
        .expect("n >= 2");
    let mut mask = all;
    let mut order = Vec::with_capacity(n);
    loop {
        order.push(at);
        let prev = usize::from(parent[mask * n + at]);
        mask &= !(1 << at);
        if mask == 0 {
            break;
        }
        at = prev;
    }
    order.reverse();
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every permutation's cost, the cheapest first found.
    fn brute(n: usize, cost: &dyn Fn(Option<usize>, Option<usize>) -> f64) -> f64 {
        fn go(
            left: &mut Vec<usize>,
            at: Option<usize>,
            sum: f64,
            cost: &dyn Fn(Option<usize>, Option<usize>) -> f64,
        ) -> f64 {
            if left.is_empty() {
                return sum + cost(at, None);
            }
            let mut best = f64::INFINITY;
            for k in 0..left.len() {
                let v = left.remove(k);
                best = best.min(go(left, Some(v), sum + cost(at, Some(v)), cost));
                left.insert(k, v);
            }
            best
        }
        go(&mut (0..n).collect(), None, 0.0, cost)
    }

    #[test]
    fn matches_brute_force_on_random_asymmetric_costs() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / (1u64 << 31) as f64
        };
        for n in 0..=7 {
            let m: Vec<f64> = (0..(n + 1) * (n + 1)).map(|_| rnd()).collect();
            let c =
                |a: Option<usize>, b: Option<usize>| m[a.unwrap_or(n) * (n + 1) + b.unwrap_or(n)];
            let order = held_karp(
                n,
                |j| c(None, Some(j)),
                |i, j| c(Some(i), Some(j)),
                |j| c(Some(j), None),
            );
            let mut seen = order.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
            let mut at = None;
            let mut sum = 0.0;
            for &v in &order {
                sum += c(at, Some(v));
                at = Some(v);
            }
            sum += c(at, None);
            assert!((sum - brute(n, &c)).abs() < 1e-12, "n = {n}");
        }
    }
}
