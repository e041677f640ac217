//! Cost matrices for the solvers' tests.

/// Seek-like m×m costs (row-major, diagonal infinite), seeded: node i
/// occupies a stretch of a line, and going from its end to the start of j
/// costs the distance forward, or three times it plus a turn backward, as
/// on a tape.
pub(crate) fn seek_like(m: usize, seed: u64) -> Vec<f64> {
    seek(m, seed, false)
}

/// [`seek_like`] on a loop: forward runs on past the end to the start, so
/// a tour need not rewind, as on a serpentine tape's wraps. The
/// assignment bound is tight, so reduced-cost fixing drops most edges.
pub(crate) fn seek_on_a_loop(m: usize, seed: u64) -> Vec<f64> {
    seek(m, seed, true)
}

/// m×m costs (row-major, diagonal infinite) that look random but repeat:
/// entry k is (7919·k + `offset`) mod `modulus` (wrapping), so a small
/// modulus makes ties.
pub(crate) fn modular(m: usize, modulus: u64, offset: u64) -> Vec<f64> {
    (0..m * m)
        .map(|k| {
            if k % (m + 1) == 0 {
                f64::INFINITY
            } else {
                ((k as u64).wrapping_mul(7919).wrapping_add(offset) % modulus) as f64
            }
        })
        .collect()
}

fn seek(m: usize, seed: u64, looped: bool) -> Vec<f64> {
    const LENGTH: f64 = 100_000.0;
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 100_000) as f64
    };
    let at: Vec<(f64, f64)> = (0..m)
        .map(|_| {
            let p = next();
            (p, p + next() / 100.0)
        })
        .collect();
    (0..m * m)
        .map(|k| {
            let (i, j) = (k / m, k % m);
            let (from, to) = (at[i].1, at[j].0);
            if i == j {
                f64::INFINITY
            } else if to >= from {
                to - from
            } else if looped {
                (LENGTH + to - from).min(3.0 * (from - to) + 500.0)
            } else {
                3.0 * (from - to) + 500.0
            }
        })
        .collect()
}

/// The cheapest tour of the m×m row-major `cost` by Held–Karp (m ≥ 2).
pub(crate) fn exact(m: usize, cost: &[f64]) -> f64 {
    let c = |i: usize, j: usize| cost[i * m + j];
    // Held-Karp over the path 0 -> ... -> 0 through nodes 1..m.
    let order = super::held_karp(
        m - 1,
        |j| c(0, j + 1),
        |i, j| c(i + 1, j + 1),
        |j| c(j + 1, 0),
    );
    let mut prev = 0;
    let mut total = 0.0;
    for &j in &order {
        total += c(prev, j + 1);
        prev = j + 1;
    }
    total + c(prev, 0)
}

/// `count` rings of `size` nodes (row-major, diagonal infinite): 1 to the
/// next node around a ring, 50 to any other node of it, 100 to another
/// ring. The assignment is the rings, and every tour pays to join them.
pub(crate) fn rings(count: usize, size: usize) -> Vec<f64> {
    let m = count * size;
    (0..m * m)
        .map(|k| {
            let (i, j) = (k / m, k % m);
            if i == j {
                f64::INFINITY
            } else if i / size != j / size {
                100.0
            } else if j == i / size * size + (i + 1) % size {
                1.0
            } else {
                50.0
            }
        })
        .collect()
}
