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
